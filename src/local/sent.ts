/**
 * What the chain records the local key sent in the last 24 hours (CHAIN_MCP_MAX_SPEND_PER_DAY
 * under the local signer): read from the indexer's record of the key's transactions, so deleting
 * rows of the state store, or a fresh memory store after a restart, does not lower the total.
 *
 * X, P and C atomic transactions: GET /v2/transactions?address=<the key>&startTime=… (magellan
 * api/v2.go, params `address`, `startTime`, `limit`, paged with `next`); each counts what its
 * inputs held by the key bring less its outputs to the key alone (one owner, threshold 1, no
 * locktime beyond the transaction), native asset only: amounts paid away and fees. A C-Chain
 * atomic transaction carries its EVM side there too (magellan services/indexes/cvm/writer.go,
 * services/indexes/avax/reader_list_txs.go `collectCvmTransactions`): an export from C lists its
 * EVM inputs, an import into C its 0x credits, each with the 0x address in `caddresses`. Magellan
 * finds a transaction by the X/P owners of its outputs and of the outputs it spends, so an export
 * from C is listed when it exports to the key's own address (the local signer builds no other
 * under a daily limit), and an import into C when the key's outputs fund it. EVM transactions:
 * GET /v2/ctransactions?fromAddress=<0x>&startTime=…; each counts its value (unless to the key's
 * own 0x address) and the most its gas could burn (gas limit × max fee).
 *
 * What the record cannot show: a deposit's lock (a deposited output looks like the key's own); it
 * is counted by the state store's own ledger, which the caller takes when it says more.
 */
import type { ToolContext } from '../core/tool.js';
import type { LocalEnv } from './env.js';

const DAY_S = 86_400;
const PAGE = 1000;
/** At most this many pages per list: a key with more transactions a day is not told here. */
const MAX_PAGES = 10;
const WEI_PER_UNIT = 1_000_000_000n;

/** The indexer cannot say: an answer this cannot read, or a list that does not end within MAX_PAGES. */
class Untold extends Error {}

const obj = (v: unknown): Record<string, unknown> => (typeof v === 'object' && v !== null ? (v as Record<string, unknown>) : {});
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

/** A decimal or 0x string, or a JSON number small enough to be exact; a sign, a space, an exponent or a bigger number is not read. */
function big(v: unknown): bigint {
  const text = Number.isSafeInteger(v) ? String(v) : v;
  if (typeof text === 'string' && /^(0x[0-9a-fA-F]+|\d+)$/.test(text)) return BigInt(text);
  throw new Untold();
}

/** A record's own id (txID, EVM hash): a record without one is not Magellan's, and could not be told from another. */
function idOf(v: unknown): string {
  if (typeof v === 'string' && v !== '') return v;
  throw new Untold();
}

/** `X-local1abc` -> `local1abc`: how Magellan lists addresses. */
const bare = (a: string) => a.slice(a.indexOf('-') + 1);

/** A record's time (RFC 3339, as Magellan writes it) in Unix seconds. */
function unixOf(v: unknown): number {
  const t = typeof v === 'string' ? Date.parse(v) : Number.NaN;
  if (Number.isNaN(t)) throw new Untold();
  return Math.floor(t / 1000);
}

/** Every item of a list, following `next` (bounded); Untold when it does not end within MAX_PAGES. */
async function all(ctx: ToolContext, path: string, first: Array<[string, string]>, key: string): Promise<unknown[]> {
  const items: unknown[] = [];
  let query: Array<[string, string]> = first;
  for (let n = 0; n < MAX_PAGES; n++) {
    const raw = obj(await ctx.indexer(path, query));
    items.push(...arr(raw[key]));
    const next = typeof raw.next === 'string' && raw.next.trim() !== '' ? raw.next : undefined;
    // /v2/ctransactions has no `next` (magellan ListCTransactions): a full page may not be all of it.
    if (!next) {
      if (arr(raw[key]).length >= PAGE) throw new Untold();
      return items;
    }
    query = [...new URLSearchParams(next.includes('?') ? next.slice(next.indexOf('?') + 1) : next)];
  }
  throw new Untold();
}

/** The one 0x address of a C-Chain atomic record's input or output (`caddresses`, EIP-55), lower case. */
function evmOwner(o: Record<string, unknown>): string | undefined {
  const c = arr(o.caddresses);
  return c.length === 1 && typeof c[0] === 'string' ? c[0].toLowerCase() : undefined;
}

/**
 * What one X/P/C atomic transaction of the indexer took from the key (native, smallest unit): its
 * inputs the key held (UTXOs of the key's address; an export from C lists its EVM inputs with the
 * 0x address in `caddresses`) less its outputs the key alone can spend (the key's address, one
 * owner, threshold 1, no locktime beyond the transaction; an import into C lists its 0x credits in
 * `caddresses`, the key's own 0x address being the key's alone). An output whose threshold or
 * locktime is missing or unreadable is not known to be the key's alone: it counts as sent.
 */
function xpSent(tx: Record<string, unknown>, key: string, evm: string, native: string): bigint {
  let held = 0n;
  for (const i of arr(tx.inputs)) {
    const o = obj(obj(i).output);
    if (o.assetID === native && (arr(o.addresses).map(String).includes(key) || evmOwner(o) === evm)) held += big(o.amount);
  }
  if (held === 0n) return 0n;
  const at = unixOf(tx.timestamp);
  let kept = 0n;
  for (const raw of arr(tx.outputs)) {
    const o = obj(raw);
    if (o.assetID !== native) continue;
    const addresses = arr(o.addresses).map(String);
    const credit = arr(o.caddresses).length > 0;
    const alone = credit
      ? addresses.length === 0 && evmOwner(o) === evm
      : addresses.length === 1 && addresses[0] === key && Number(o.threshold) === 1 && Number(o.locktime) <= at;
    if (alone) kept += big(o.amount);
  }
  return held > kept ? held - kept : 0n;
}

/** What one EVM transaction from the key's 0x address took (native smallest unit, rounded up). */
function evmSent(tx: Record<string, unknown>, evm: string): bigint {
  const gas = big(tx.gasLimit) * big(tx.maxFeePerGas ?? tx.gasPrice);
  const value = String(tx.toAddr ?? '').toLowerCase() === evm ? 0n : big(tx.value);
  return (gas + value + WEI_PER_UNIT - 1n) / WEI_PER_UNIT;
}

/**
 * The native amount the chain records the key sent since 24 hours before `nowMs`; undefined
 * when the indexer cannot say (none configured, unreachable, an answer this cannot read, or
 * more transactions than it pages through).
 */
export function chainSent(ctx: ToolContext, env: LocalEnv, nowMs: number): Promise<bigint | undefined> {
  // Untold, an indexer error or an unreachable indexer: the total cannot be told.
  return counted(ctx, env, nowMs).catch(() => undefined);
}

async function counted(ctx: ToolContext, env: LocalEnv, nowMs: number): Promise<bigint> {
  const since = String(Math.floor(nowMs / 1000) - DAY_S);
  const key = bare(env.own.x);
  const evm = env.own.evm.toLowerCase();
  const [txs, ctxs] = await Promise.all([
    all(ctx, '/v2/transactions', [['address', key], ['startTime', since], ['limit', String(PAGE)]], 'transactions'),
    all(ctx, '/v2/ctransactions', [['fromAddress', evm], ['startTime', since], ['limit', String(PAGE)]], 'Transactions'),
  ]);
  let sent = 0n;
  const seen = new Set<string>();
  for (const raw of txs) {
    const tx = obj(raw);
    const id = idOf(tx.id);
    if (seen.has(id)) continue;
    seen.add(id);
    sent += xpSent(tx, key, evm, env.network.assetID);
  }
  for (const raw of ctxs) {
    const tx = obj(raw);
    if (String(tx.fromAddr ?? '').toLowerCase() !== evm) continue;
    const id = idOf(tx.hash);
    if (seen.has(id)) continue;
    seen.add(id);
    sent += evmSent(tx, evm);
  }
  return sent;
}
