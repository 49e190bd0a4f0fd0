import { z } from 'zod';
import { isCb58Id, isHexAddress, parseBareBech32, parseChainAddress, parseDateTime, parseUint64, tolerantBigInt } from '../codec/index.js';
import { ChainMcpError, InputError } from '../errors.js';
import { AmountOut, listLines, TimeOut, timeOut } from '../summarize/format.js';
import { imitatesNative, imitationWarning, type NativeIdentity, quote, STRANGER_NOTE } from '../summarize/stranger.js';
import {
  AssetAmount,
  amountOf,
  chainAlias,
  helpers,
  type IndexerAsset,
  type IndexerChain,
  type IndexerStatus,
  indexerAsset,
  indexerStatus,
  indexerAssets,
  isNotFound,
  isoShort,
  memoText,
  nativeAmountOf,
  nativeIdentity,
  parseAssetRecord,
  parseChain,
  parseStatus,
  resolveChainIds,
  shortId,
  statusOrEmpty,
  timeOf,
  totalsList,
  weiOf,
} from '../summarize/indexer.js';
import type { QueryPairs } from '../transport/rest.js';
import { assetIdOrAlias, cb58Id } from '../core/fields.js';
import { defineTool, type ToolContext, type ToolDef } from '../core/tool.js';

/**
 * Indexer API (spec document 3, "Indexer API"): read-only GET queries on CHAIN_MCP_INDEXER_URL.
 *
 * Choices where the spec leaves room (also in the README):
 * - The tools stay listed when CHAIN_MCP_INDEXER_URL is unset; a call then answers with an
 *   error saying which variable to set. A model that sees the tool can tell the user how to
 *   enable it, which a hidden tool cannot.
 * - Times (`startTime`, `endTime`) are accepted as Unix seconds or RFC 3339 and always sent
 *   as Unix seconds (one of the two forms the spec's `datetime` allows).
 * - Addresses may carry a chain prefix (X-, P-, C-) or not; the checksum is checked and the
 *   prefix stripped before sending, since the indexer ignores it and answers without it.
 * - `limit` defaults to 100 here (always sent), not the indexer's 5000, so one answer fits a chat.
 * - Chain filters take the chain ID or an alias the indexer reports in GET /v2 (X, P, C).
 * - `indexer_getCBlock` without `number` asks GET /v2/ctxdata/latest (any non-number id: the latest block).
 * - `indexer_getAggregates` without `chainID` sends every chain the indexer follows (Magellan requires one).
 * - `/v2/cblocks` gets the block limit and the transaction limit as two `limit` keys, in
 *   that order, and the block range as `blockStart`/`blockEnd` (the parameter table's names).
 */

const { text, rec, arr } = helpers;
const str = (v: unknown): string => text(v);
const count = (v: unknown): string => (tolerantBigInt(v) ?? 0n).toString();

// ---------------------------------------------------------------- input fields

function transformed<T>(base: z.ZodType<string | number>, parse: (v: string | number) => T) {
  return base.transform((v, ctx) => {
    try {
      return parse(v);
    } catch (err) {
      ctx.addIssue({ code: 'custom', message: (err as Error).message });
      return z.NEVER;
    }
  });
}

/** X/P address with or without chain prefix; sent bare (checksum checked). */
const address = (description?: string) => {
  const schema = transformed(z.string().max(200), (v) => {
    const s = String(v);
    return /^[A-Za-z]-/.test(s) ? parseChainAddress(s).bech32 : parseBareBech32(s).bech32;
  });
  return description ? schema.describe(description) : schema;
};

const addresses = (description: string) => z.array(address()).min(1).max(64).describe(`${description} X-/P- prefix optional.`);

const datetime = (description: string) =>
  transformed(z.union([z.string().max(40), z.number()]), (v) => parseDateTime(v)).describe(`${description}; Unix seconds or RFC 3339.`);

const chainIDs = z
  .array(
    z
      .string()
      .min(1)
      .max(100)
      .refine((v) => /^[A-Za-z][A-Za-z0-9-]{0,31}$/.test(v) || isCb58Id(v), 'expected a chain ID (cb58) or an alias such as X'),
  )
  .min(1)
  .max(16)
  .optional()
  .describe('Only these chains (X, P, C or IDs).');

const limit = z.number().int().min(1).max(5000).default(100).describe('Items per page.');
const query = z.string().min(1).max(100).refine((v) => /^[A-Za-z0-9-]+$/.test(v), 'expected an ID prefix (letters and digits)').optional().describe('ID prefix.');
const startTime = datetime('From, inclusive').optional();
const endTime = datetime('Until, inclusive').optional();
const next = z
  .string()
  .min(1)
  .max(2000)
  .optional()
  .describe('`next` from the previous page.');
const listParams = { limit, query, startTime, endTime, next };

const hexAddr = (d: string) => z.string().refine(isHexAddress, 'expected 0x followed by 40 hex characters').describe(d);
const blockNumber = (d: string) => transformed(z.union([z.number(), z.string().max(40)]), (v) => parseUint64(v, 'block number')).describe(d);

// ---------------------------------------------------------------- output shapes

const Next = z.record(z.string(), z.unknown()).optional().describe('When there is more: arguments for the next page.');
type Next = z.infer<typeof Next>;

/**
 * Output schemas stay shallow: tools/list is read into the model's context on every
 * conversation, so list items are described in one line instead of a nested schema.
 */
const rows = (what: string) => z.array(z.unknown()).describe(what);
const Amt = z.object({ value: z.string(), display: z.string() });
const TX_ROW = 'Each: id, chainID, chain, type, timestamp{unix,iso}, memo, txFee, inputTotals/outputTotals [{assetID, symbol, amount}], from, to, inputCount, outputCount, genesis; with address: direction (sent/received/both), net (signed). Amounts are {value (smallest unit), display}.';
const CTX_ROW = 'Each: hash, block, type, createdAt, from, to, value/gasPrice/fee {value (wei), display}, nonce, gasLimit, gasUsed, status, contractAddress, logCount.';


const TxSummary = z.object({
  id: z.string(),
  chainID: z.string(),
  chain: z.string().describe('Alias, when the indexer reports one.'),
  type: z.string(),
  timestamp: TimeOut.optional(),
  memo: z.string().describe('Decoded from base64.'),
  txFee: AmountOut,
  inputTotals: z.array(AssetAmount),
  outputTotals: z.array(AssetAmount),
  from: z.array(z.string()).describe('Addresses of spent inputs (first 10).'),
  to: z.array(z.string()).describe('Addresses of created outputs (first 10).'),
  inputCount: z.number(),
  outputCount: z.number(),
  genesis: z.boolean(),
});
type TxSummary = z.infer<typeof TxSummary>;
/** A history row seen from the queried addresses: what they gained or lost, per asset. */
type TxRow = TxSummary & { direction?: 'sent' | 'received' | 'both' | 'none'; net?: AssetAmount[] };

const Output = z.object({
  id: z.string(),
  transactionID: z.string(),
  outputIndex: z.number(),
  assetID: z.string(),
  symbol: z.string(),
  outputType: z.number(),
  amount: AmountOut,
  locktime: z.string(),
  threshold: z.number(),
  addresses: z.array(z.string()),
  timestamp: TimeOut.optional(),
  spent: z.boolean(),
  redeemingTransactionID: z.string(),
});
type Output = z.infer<typeof Output>;

const TxShallow = z.object({
  id: z.string(),
  chainID: z.string(),
  chain: z.string(),
  type: z.string(),
  timestamp: TimeOut.optional(),
  memo: z.string(),
  txFee: Amt,
  genesis: z.boolean(),
  inputTotals: rows('Each: assetID, symbol, amount{value,display}.'),
  outputTotals: rows('Same shape as inputTotals.'),
  inputCount: z.number(),
  outputCount: z.number(),
  from: z.array(z.string()),
  to: z.array(z.string()),
  inputs: rows('Spent outputs (first 200) as in indexer_getOutput, plus signers.'),
  outputs: rows('First 200, as in indexer_getOutput.'),
});

const AddressRecord = z.object({
  address: z.string(),
  publicKey: z.string().nullable(),
  assets: z.array(
    z.object({
      assetID: z.string(),
      symbol: z.string(),
      balance: AmountOut,
      totalReceived: AmountOut,
      totalSent: AmountOut,
      transactionCount: z.string(),
      utxoCount: z.string(),
    }),
  ),
});
type AddressRecord = z.infer<typeof AddressRecord>;

const Asset = z.object({
  id: z.string(),
  chainID: z.string(),
  name: z.string(),
  symbol: z.string(),
  alias: z.string(),
  denomination: z.number(),
  currentSupply: AmountOut,
  kind: z.enum(['fixed cap', 'variable cap', 'NFT']),
  variableCap: z.boolean(),
  nft: z.boolean(),
  timestamp: TimeOut.optional(),
  imitation: z.string().optional().describe('Set when the asset imitates the native one: it is NOT the native asset.'),
});
type Asset = z.infer<typeof Asset>;
const AssetShallow = Asset.extend({ currentSupply: Amt });

const CTx = z.object({
  hash: z.string(),
  block: z.string(),
  type: z.string(),
  createdAt: TimeOut.optional(),
  from: z.string(),
  to: z.string(),
  value: AmountOut.describe('wei, displayed in the native asset (18 decimals).'),
  nonce: z.string(),
  gasLimit: z.string(),
  gasUsed: z.string(),
  gasPrice: AmountOut,
  fee: AmountOut.describe('gasUsed x effective gas price.'),
  status: z.string().describe('"success", "failed" or "" when no receipt.'),
  contractAddress: z.string(),
  logCount: z.number(),
});
type CTx = z.infer<typeof CTx>;

const CBlockHead = z.object({
  number: z.string(),
  hash: z.string(),
  parentHash: z.string(),
  timestamp: TimeOut.optional(),
  miner: z.string(),
  gasUsed: z.string(),
  gasLimit: z.string(),
  baseFeePerGas: Amt,
  transactionCount: z.number(),
});

// ---------------------------------------------------------------- decoding

async function nativeAsset(ctx: ToolContext, status: IndexerStatus, chainID?: string): Promise<IndexerAsset | undefined> {
  const chain = status.chains.find((c) => c.chainID === chainID) ?? status.chains.find((c) => c.alias === 'X') ?? status.chains[0];
  return chain?.nativeAssetID ? indexerAsset(ctx, chain.nativeAssetID) : undefined;
}

async function evmSymbol(ctx: ToolContext): Promise<string> {
  const status = await statusOrEmpty(ctx);
  const chain = status.chains.find((c) => c.alias === 'C') ?? status.chains.find((c) => c.vm.toLowerCase().includes('evm'));
  const native = chain?.nativeAssetID ? await indexerAsset(ctx, chain.nativeAssetID) : await nativeAsset(ctx, status);
  return native?.symbol ?? '';
}

/** NFT transfer outputs (type 11) carry no amount, only a group and a payload. */
const NFT_TRANSFER_OUTPUT = 11;
const nftOutput = (o: Record<string, unknown>): boolean => Number(tolerantBigInt(o.outputType) ?? 0n) === NFT_TRANSFER_OUTPUT;

function decodeOutput(raw: unknown, assets: Map<string, IndexerAsset>): Output {
  const o = rec(raw);
  const assetID = str(o.assetID);
  const asset = assets.get(assetID);
  return {
    id: str(o.id),
    transactionID: str(o.transactionID),
    outputIndex: Number(tolerantBigInt(o.outputIndex) ?? 0n),
    assetID,
    symbol: asset?.symbol ?? '',
    outputType: Number(tolerantBigInt(o.outputType) ?? 0n),
    amount: nftOutput(o)
      ? { value: count(o.amount), display: `NFT (${asset?.symbol ? quote(asset.symbol, 16) : shortId(assetID)})` }
      : amountOf(o.amount, asset ?? { assetID, symbol: '', name: '', denomination: 0, known: false }),
    locktime: count(o.locktime),
    threshold: Number(tolerantBigInt(o.threshold) ?? 0n),
    addresses: arr(o.addresses).map(str),
    timestamp: timeOf(o.timestamp),
    spent: str(o.redeemingTransactionID) !== '',
    redeemingTransactionID: str(o.redeemingTransactionID),
  };
}

function assetIdsOfTx(raw: unknown): string[] {
  const t = rec(raw);
  const ids = [...Object.keys(rec(t.inputTotals)), ...Object.keys(rec(t.outputTotals))];
  for (const o of arr(t.outputs)) ids.push(str(rec(o).assetID));
  for (const i of arr(t.inputs)) ids.push(str(rec(rec(i).output).assetID));
  return ids;
}

function uniq(values: string[], max: number): string[] {
  return [...new Set(values.filter(Boolean))].slice(0, max);
}

function decodeTxSummary(raw: unknown, assets: Map<string, IndexerAsset>, status: IndexerStatus, natives: Map<string, IndexerAsset | undefined>): TxSummary {
  const t = rec(raw);
  const chainID = str(t.chainID);
  const inputs = arr(t.inputs).map((i) => rec(rec(i).output));
  const outputs = arr(t.outputs).map(rec);
  return {
    id: str(t.id),
    chainID,
    chain: chainAlias(status, chainID),
    type: str(t.type),
    timestamp: timeOf(t.timestamp),
    memo: memoText(t.memo),
    txFee: nativeAmountOf(t.txFee, natives.get(chainID)),
    inputTotals: totalsList(t.inputTotals, assets),
    outputTotals: totalsList(t.outputTotals, assets),
    from: uniq(inputs.flatMap((o) => arr(o.addresses).map(str)), 10),
    to: uniq(outputs.flatMap((o) => arr(o.addresses).map(str)), 10),
    inputCount: inputs.length,
    outputCount: outputs.length,
    genesis: t.genesis === true,
  };
}

/**
 * Net change per asset for the queried addresses (outputs to them minus the inputs they spent,
 * so a sender's net includes the fee): the history then answers "sent or received, how much".
 */
function relativeTo(raw: unknown, row: TxSummary, owners: ReadonlySet<string>, assets: Map<string, IndexerAsset>): TxRow {
  const t = rec(raw);
  const nets = new Map<string, bigint>();
  const add = (o: Record<string, unknown>, sign: bigint) => {
    if (nftOutput(o) || !arr(o.addresses).some((a) => owners.has(str(a)))) return;
    const id = str(o.assetID);
    nets.set(id, (nets.get(id) ?? 0n) + sign * (tolerantBigInt(o.amount) ?? 0n));
  };
  for (const o of arr(t.outputs)) add(rec(o), 1n);
  for (const i of arr(t.inputs)) add(rec(rec(i).output), -1n);
  const net = [...nets].filter(([, v]) => v !== 0n).map(([assetID, v]) => {
    const asset = assets.get(assetID) ?? { assetID, symbol: '', name: '', denomination: 0, known: false };
    const shown = amountOf(v < 0n ? -v : v, asset);
    return { assetID, symbol: asset.symbol, amount: { value: v.toString(), display: v < 0n ? `-${shown.display}` : shown.display } };
  });
  const gained = net.some((a) => !a.amount.value.startsWith('-'));
  const lost = net.some((a) => a.amount.value.startsWith('-'));
  return { ...row, direction: gained && lost ? 'both' : gained ? 'received' : lost ? 'sent' : 'none', net };
}

async function txContext(ctx: ToolContext, txs: unknown[]) {
  const status = await statusOrEmpty(ctx);
  const assets = await indexerAssets(ctx, txs.flatMap(assetIdsOfTx));
  const chainIds = [...new Set(txs.map((t) => str(rec(t).chainID)))];
  const natives = new Map(await Promise.all(chainIds.map(async (id) => [id, await nativeAsset(ctx, status, id)] as const)));
  return { status, assets, natives };
}

function decodeAddress(raw: unknown, assets: Map<string, IndexerAsset>): AddressRecord {
  const a = rec(raw);
  return {
    address: str(a.address),
    publicKey: a.publicKey === null || a.publicKey === undefined || a.publicKey === '' ? null : str(a.publicKey),
    assets: Object.entries(rec(a.assets)).map(([assetID, v]) => {
      const entry = rec(v);
      const asset = assets.get(assetID);
      return {
        assetID,
        symbol: asset?.symbol ?? '',
        balance: amountOf(entry.balance, asset),
        totalReceived: amountOf(entry.totalReceived, asset),
        totalSent: amountOf(entry.totalSent, asset),
        transactionCount: count(entry.transactionCount),
        utxoCount: count(entry.utxoCount),
      };
    }),
  };
}

function decodeAsset(raw: unknown, native: NativeIdentity | undefined): Asset {
  const a = rec(raw);
  const info = parseAssetRecord(raw, str(a.id));
  const imitation = native && imitatesNative(info, native) ? imitationWarning(info.assetID, native) : undefined;
  const nft = Number(tolerantBigInt(a.nft) ?? 0n) !== 0 || a.nft === true;
  const variableCap = Number(tolerantBigInt(a.variableCap) ?? 0n) !== 0 || a.variableCap === true;
  return {
    id: str(a.id),
    chainID: str(a.chainID),
    name: str(a.name),
    symbol: str(a.symbol),
    alias: str(a.alias),
    denomination: info.denomination,
    currentSupply: amountOf(a.currentSupply, { ...info, known: true }),
    kind: nft ? 'NFT' : variableCap ? 'variable cap' : 'fixed cap',
    variableCap,
    nft,
    timestamp: timeOf(a.timestamp),
    ...(imitation ? { imitation } : {}),
  };
}

/**
 * A C-Chain transaction record in either of Magellan's shapes: /v2/ctxdata rows (createdAt,
 * fromAddr, toAddr, gasLimit, receipt{...}) or /v2/cblocks rows (timestamp as hex Unix
 * seconds, from, to, gas, and status, gasUsed, effectiveGasPrice as hex at the top level).
 */
export function decodeCTx(raw: unknown, symbol: string): CTx {
  const t = rec(raw);
  const receipt = rec(t.receipt);
  const gasUsed = tolerantBigInt(receipt.gasUsed ?? t.gasUsed) ?? 0n;
  const price = tolerantBigInt(receipt.effectiveGasPrice ?? t.effectiveGasPrice) ?? tolerantBigInt(t.gasPrice) ?? 0n;
  const statusCode = tolerantBigInt(receipt.status ?? t.status);
  const stamp = t.createdAt ?? t.timestamp;
  return {
    hash: str(t.hash),
    block: count(t.block ?? receipt.blockNumber),
    type: str(t.type),
    createdAt: typeof stamp === 'string' && stamp.startsWith('0x') ? timeOut(tolerantBigInt(stamp)) : timeOf(stamp),
    from: str(t.fromAddr ?? t.from),
    to: str(t.toAddr ?? t.to),
    value: weiOf(t.value, symbol),
    nonce: count(t.nonce),
    gasLimit: count(t.gasLimit ?? t.gas),
    gasUsed: gasUsed.toString(),
    gasPrice: weiOf(price, symbol),
    fee: weiOf(gasUsed * price, symbol),
    status: statusCode === undefined ? '' : statusCode === 1n ? 'success' : 'failed',
    contractAddress: str(receipt.contractAddress),
    logCount: arr(receipt.logs).length,
  };
}

// ---------------------------------------------------------------- paging

/** The indexer's `next` as the query string to send, or undefined. */
function cursorOf(next: unknown): string | undefined {
  if (typeof next !== 'string' || next.trim() === '') return undefined;
  return next.includes('?') ? next.slice(next.indexOf('?') + 1) : next;
}

/** A `next` cursor given back by the caller, sent as is (the indexer wrote it). */
function cursorPairs(next: string): QueryPairs {
  return [...new URLSearchParams(cursorOf(next) ?? '')];
}

/** Plain echo of the caller's arguments, times as Unix seconds. */
function echoArgs(input: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(input)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => [k, typeof v === 'bigint' ? v.toString() : v]),
  );
}

/**
 * Next page: `{next}` when the indexer sent a `next` cursor; otherwise, when the page is
 * full, a time window starting (or, newest first, ending) at the last item's second, where
 * items of that same second may appear again.
 */
function nextPage(raw: Record<string, unknown>, input: Record<string, unknown>, items: Array<{ timestamp?: TimeOut; createdAt?: TimeOut }>): Next {
  const cursor = cursorOf(raw.next);
  if (cursor) return { next: cursor };
  if (typeof input.next === 'string') return undefined;
  const limitValue = typeof input.limit === 'number' ? input.limit : 0;
  const last = items.at(-1);
  const t = last?.timestamp ?? last?.createdAt;
  if (!limitValue || items.length < limitValue || !t) return undefined;
  const desc = input.sort === 'timestamp-desc';
  return { ...echoArgs(input), [desc ? 'endTime' : 'startTime']: t.unix };
}

function nextLine(name: string, next: Next): string[] {
  return next ? [`More: call ${name} with ${JSON.stringify(next)}.`] : [];
}

// ---------------------------------------------------------------- requests

function timePairs(i: { startTime?: bigint; endTime?: bigint }): Array<[string, string]> {
  const pairs: Array<[string, string]> = [];
  if (i.startTime !== undefined) pairs.push(['startTime', i.startTime.toString()]);
  if (i.endTime !== undefined) pairs.push(['endTime', i.endTime.toString()]);
  return pairs;
}

function listPairs(i: { limit?: number; query?: string; startTime?: bigint; endTime?: bigint }): Array<[string, string]> {
  const pairs: Array<[string, string]> = [];
  if (i.limit !== undefined) pairs.push(['limit', String(i.limit)]);
  if (i.query !== undefined) pairs.push(['query', i.query]);
  return [...pairs, ...timePairs(i)];
}

const repeated = (key: string, values: readonly string[] | undefined): Array<[string, string]> => (values ?? []).map((v) => [key, v]);
const single = (key: string, value: string | bigint | number | boolean | undefined): Array<[string, string]> =>
  value === undefined ? [] : [[key, String(value)]];

/** The spec caps times at "now"; refuse a future time or an empty window before sending. */
function checkWindow(input: { startTime?: bigint; endTime?: bigint }, ctx: ToolContext): void {
  const now = BigInt(Math.floor(ctx.now() / 1000)) + 60n;
  if (input.startTime !== undefined && input.startTime > now) throw new InputError('startTime', 'must not be in the future (the indexer only knows the past).');
  if (input.endTime !== undefined && input.endTime > now) throw new InputError('endTime', 'must not be in the future; omit it to mean now.');
  if (input.startTime !== undefined && input.endTime !== undefined && input.startTime > input.endTime) {
    throw new InputError('startTime', 'must not be after endTime.');
  }
}

interface IndexerSpec<I> {
  path(input: I): string;
  query?(input: I): QueryPairs;
  /** By-ID requests: what a 404 or a `null` answer means. */
  notFound?(input: I): string;
}

/**
 * Wraps an entry's path and query into `request` (data, read by docs and tests) and a `run`
 * that resolves chain aliases, checks the time window, sends one GET and maps "not found".
 */
function indexerRequest<I extends Record<string, unknown>>(spec: IndexerSpec<I>) {
  return {
    request: { kind: 'rest' as const, path: spec.path, query: spec.query },
    fetch: async (input: I, ctx: ToolContext): Promise<{ raw: unknown; input: I }> => {
      checkWindow(input as { startTime?: bigint; endTime?: bigint }, ctx);
      const resolved = Array.isArray(input.chainID) ? ({ ...input, chainID: await resolveChainIds(ctx, input.chainID as string[]) } as I) : input;
      let raw: unknown;
      try {
        const cursor = typeof input.next === 'string' ? input.next : undefined;
        raw = await ctx.indexer(spec.path(resolved), cursor ? cursorPairs(cursor) : spec.query ? spec.query(resolved) : []);
      } catch (err) {
        if (spec.notFound && isNotFound(err)) throw new ChainMcpError('not_found', spec.notFound(resolved), { hint: 'Check the ID; indexer_search finds IDs by prefix.' });
        throw err;
      }
      if (raw === null && spec.notFound) throw new ChainMcpError('not_found', spec.notFound(resolved), { hint: 'Check the ID; indexer_search finds IDs by prefix.' });
      return { raw, input: resolved };
    },
  };
}

const seg = (v: string) => encodeURIComponent(v);

// ---------------------------------------------------------------- summaries

const shortAddress = (a: string): string => (a.length > 24 ? `${a.slice(0, 14)}…${a.slice(-4)}` : a);

function txLine(t: TxRow): string {
  const out = t.outputTotals.map((a) => a.amount.display).join(', ') || 'nothing';
  const memo = t.memo ? `, memo ${quote(t.memo, 60)}` : '';
  const to = t.to.length ? ` to ${t.to.slice(0, 2).map(shortAddress).join(', ')}${t.to.length > 2 ? ', …' : ''}` : '';
  return `${isoShort(t.timestamp)} ${t.chain || shortId(t.chainID)} ${t.type || 'tx'} ${t.id}: ${t.net ? `${netText(t)}; ` : ''}out ${out}${to}; fee ${t.txFee.display}${memo}`;
}

/** "received 50 CAM", "sent 51.001 CAM" (a sender's net includes the fee), or both. */
function netText(t: TxRow): string {
  const part = (sign: boolean, word: string) => {
    const list = (t.net ?? []).filter((a) => a.amount.value.startsWith('-') === sign).map((a) => a.amount.display.replace(/^-/, ''));
    return list.length ? `${word} ${list.join(', ')}` : '';
  };
  return [part(true, 'sent'), part(false, 'received')].filter(Boolean).join(', ') || 'no net change';
}

function outputLine(o: Output): string {
  return `${o.amount.display} to ${o.addresses.join(', ') || '(no address)'} (${o.spent ? `spent in ${shortId(o.redeemingTransactionID)}` : 'unspent'}) ${o.id}`;
}

function addressLines(a: AddressRecord): string[] {
  return [
    `Address ${a.address}${a.publicKey ? ' (public key known)' : ''}: ${a.assets.length} asset(s).`,
    ...listLines(a.assets, 20, (x) => `${x.balance.display} balance; received ${x.totalReceived.display}, sent ${x.totalSent.display}; ${x.transactionCount} txs, ${x.utxoCount} UTXOs`),
  ];
}

function assetLine(a: Asset): string {
  return `${a.name ? quote(a.name) : '(no name)'} (${a.symbol ? quote(a.symbol, 16) : 'no symbol'})${a.imitation ? ` ${a.imitation}` : ''} ${a.id}: ${a.kind}, supply ${a.currentSupply.display}, ${a.denomination} decimals`;
}

function cTxLine(t: CTx): string {
  return `block ${t.block} ${t.hash}: ${t.from} -> ${t.to || '(contract creation)'} ${t.value.display}, fee ${t.fee.display}${t.status ? `, ${t.status}` : ''}`;
}

const windowText = (s?: TimeOut, e?: TimeOut) => (s || e ? ` between ${isoShort(s)} and ${isoShort(e)}` : '');

// ---------------------------------------------------------------- the tools

const none = z.strictObject({});
const common = { tier: 'read' as const, toolset: 'indexer' as const };

const statusReq = indexerRequest<Record<string, never>>({ path: () => '/v2' });
const searchInput = z.strictObject({ query: z.string().min(1).max(100).describe('ID prefix, address, block number or hash.') });
const searchReq = indexerRequest<z.output<typeof searchInput>>({ path: () => '/v2/search', query: (i) => [['query', i.query]] });

const aggInput = z.strictObject({
  chainID: chainIDs.describe('Chains to count (X, P, C or IDs); default all the indexer follows.'),
  assetID: cb58Id('Count volume of this asset only.').optional(),
  intervalSize: z.enum(['minute', 'hour', 'day', 'week', 'month', 'year']).optional().describe('Also split into intervals of this size.'),
  startTime,
  endTime,
});
type AggInput = z.output<typeof aggInput>;
const aggReq = indexerRequest<AggInput>({
  path: () => '/v2/aggregates',
  query: (i) => [...repeated('chainID', i.chainID), ...single('assetID', i.assetID), ...single('intervalSize', i.intervalSize), ...timePairs(i)],
});
const Aggregate = z.object({
  startTime: TimeOut.optional(),
  endTime: TimeOut.optional(),
  transactionVolume: Amt,
  transactionCount: z.string(),
  addressCount: z.string(),
  outputCount: z.string(),
  assetCount: z.string(),
});

const feeAggInput = z.strictObject({ startTime, endTime });
const feeAggReq = indexerRequest<z.output<typeof feeAggInput>>({ path: () => '/v2/txfeeAggregates', query: timePairs });

const addressChainsInput = z.strictObject({ address: addresses('Addresses to look up.') });
const addressChainsReq = indexerRequest<z.output<typeof addressChainsInput>>({
  path: () => '/v2/addressChains',
  query: (i) => repeated('address', i.address),
});

const listTxInput = z.strictObject({
  chainID: chainIDs,
  assetID: cb58Id('Only this asset.').optional(),
  address: addresses('Only these addresses.').optional(),
  sort: z.enum(['timestamp-asc', 'timestamp-desc']).optional().describe('Default timestamp-asc (oldest first).'),
  ...listParams,
});
type ListTxInput = z.output<typeof listTxInput>;
const listTxReq = indexerRequest<ListTxInput>({
  path: () => '/v2/transactions',
  query: (i) => [...repeated('chainID', i.chainID), ...single('assetID', i.assetID), ...repeated('address', i.address), ...single('sort', i.sort), ...listPairs(i)],
});

const getTxInput = z.strictObject({ id: cb58Id('Transaction ID (cb58).') });
const getTxReq = indexerRequest<z.output<typeof getTxInput>>({
  path: (i) => `/v2/transactions/${seg(i.id)}`,
  notFound: (i) => `The indexer knows no transaction ${i.id}.`,
});

const listAddrInput = z.strictObject({ chainID: chainIDs, address: addresses('Only these addresses.').optional(), ...listParams });
const listAddrReq = indexerRequest<z.output<typeof listAddrInput>>({
  path: () => '/v2/addresses',
  query: (i) => [...repeated('chainID', i.chainID), ...repeated('address', i.address), ...listPairs(i)],
});

const getAddrInput = z.strictObject({ address: address('Address, bech32; X-/P- prefix optional.') });
const getAddrReq = indexerRequest<z.output<typeof getAddrInput>>({
  path: (i) => `/v2/addresses/${seg(i.address)}`,
  notFound: (i) => `The indexer has no record of address ${i.address} (it never received anything).`,
});

const listAssetsInput = z.strictObject({ ...listParams });
const listAssetsReq = indexerRequest<z.output<typeof listAssetsInput>>({ path: () => '/v2/assets', query: listPairs });

const getAssetInput = z.strictObject({ id: assetIdOrAlias('Asset ID (cb58) or alias.') });
const getAssetReq = indexerRequest<z.output<typeof getAssetInput>>({
  path: (i) => `/v2/assets/${seg(i.id)}`,
  notFound: (i) => `The indexer knows no asset ${i.id}.`,
});

const listOutputsInput = z.strictObject({
  chainID: chainIDs,
  address: addresses('Only these owners.').optional(),
  spent: z.boolean().optional().describe('true: spent only; false: unspent only; omit for both.'),
  ...listParams,
});
const listOutputsReq = indexerRequest<z.output<typeof listOutputsInput>>({
  path: () => '/v2/outputs',
  query: (i) => [...repeated('chainID', i.chainID), ...repeated('address', i.address), ...single('spent', i.spent), ...listPairs(i)],
});

const getOutputInput = z.strictObject({ id: cb58Id('Output ID (cb58).') });
const getOutputReq = indexerRequest<z.output<typeof getOutputInput>>({
  path: (i) => `/v2/outputs/${seg(i.id)}`,
  notFound: (i) => `The indexer knows no output ${i.id}.`,
});

const getCBlockInput = z.strictObject({ number: blockNumber('Default the latest.').optional() });
const getCBlockReq = indexerRequest<z.output<typeof getCBlockInput>>({
  // Magellan has no route without an id; a non-number id means the latest block.
  path: (i) => `/v2/ctxdata/${i.number ?? 'latest'}`,
  notFound: (i) => (i.number === undefined ? 'The indexer has no C-Chain block yet.' : `The indexer knows no C-Chain block ${i.number}.`),
});

/** Magellan refuses either limit above 1000 and an absent block limit (its default is 5000): always sent, capped here. */
const cLimit = (what: string) => z.number().int().min(0).max(1000).default(10).describe(`${what} to return.`);
const listCBlocksInput = z.strictObject({
  limit: cLimit('Blocks'),
  transactionLimit: cLimit('Transactions'),
  blockStart: blockNumber('Only blocks older than this.').optional(),
  blockEnd: blockNumber('Only blocks newer than this.').optional(),
  transactionId: z.number().int().min(0).optional().describe('Transaction index in a block to start or end at.'),
  address: z.array(hexAddr('')).min(1).max(64).optional().describe('Only transactions of these addresses.'),
});
const listCBlocksReq = indexerRequest<z.output<typeof listCBlocksInput>>({
  path: () => '/v2/cblocks',
  query: (i) => [
    ['limit', String(i.limit)],
    ['limit', String(i.transactionLimit)],
    ...single('blockStart', i.blockStart),
    ...single('blockEnd', i.blockEnd),
    ...single('transactionId', i.transactionId),
    ...repeated('address', i.address),
  ],
});

const listCTxInput = z.strictObject({
  toAddress: hexAddr('Only to this 0x address.').optional(),
  fromAddress: hexAddr('Only from this 0x address.').optional(),
  address: hexAddr('Only to or from this 0x address.').optional(),
  hash: z.string().regex(/^0x[0-9a-fA-F]{64}$/, 'expected 0x followed by 64 hex characters').optional().describe('Transaction hash.'),
  blockStart: blockNumber('First block, inclusive.').optional(),
  blockEnd: blockNumber('Last block, exclusive.').optional(),
  limit,
  startTime,
  endTime,
  next,
});
type ListCTxInput = z.output<typeof listCTxInput>;
const listCTxReq = indexerRequest<ListCTxInput>({
  path: () => '/v2/ctransactions',
  query: (i) => [
    ...single('toAddress', i.toAddress),
    ...single('fromAddress', i.fromAddress),
    ...single('address', i.address),
    ...single('hash', i.hash),
    ...single('blockStart', i.blockStart),
    ...single('blockEnd', i.blockEnd),
    ...listPairs(i),
  ],
});

const legacyReq = indexerRequest<Record<string, never>>({ path: () => '/x' });

/** /v2/ctransactions: blockStart inclusive, blockEnd exclusive, so an empty range is a mistake. */
function checkBlockRange(i: { blockStart?: bigint; blockEnd?: bigint }): void {
  if (i.blockStart !== undefined && i.blockEnd !== undefined && i.blockStart >= i.blockEnd) {
    throw new InputError('blockStart', 'must be below blockEnd (blockEnd is exclusive).');
  }
}

export const indexerTools: ToolDef[] = [
  defineTool({
    ...common,
    name: 'indexer_getStatus',
    title: 'Indexer status',
    description: 'Get the network ID and the chains the indexer follows (IDs, aliases, VMs, native asset).',
    input: none,
    output: z.object({ networkID: z.string(), chains: rows('Each: chainID, alias, vm, nativeAssetID.') }),
    request: statusReq.request,
    run: async (i, ctx) => {
      const s = parseStatus((await statusReq.fetch(i as Record<string, never>, ctx)).raw);
      return { networkID: s.networkID, chains: s.chains };
    },
    summarize: (o) =>
      [`Indexer on network ${o.networkID || '(unknown)'}, ${o.chains.length} chain(s):`, ...listLines(o.chains as IndexerChain[], 20, (c) => `${c.alias || '(no alias)'} ${c.vm}: ${c.chainID}`)].join('\n'),
  }),
  defineTool({
    ...common,
    name: 'indexer_search',
    title: 'Search the indexer',
    description: 'Find transactions, assets, addresses, outputs and C-Chain blocks by ID prefix, address or hash.',
    input: searchInput,
    output: z.object({
      count: z.string(),
      results: rows('First 100. Each: type (transaction, asset, address, output, cBlock, cTransaction), id, score, detail.'),
    }),
    request: searchReq.request,
    run: async (input, ctx) => {
      const r = rec((await searchReq.fetch(input, ctx)).raw);
      const results = arr(r.results).slice(0, 100).map((x) => {
        const item = rec(x);
        const d = rec(item.data);
        const type = str(item.type);
        const id = str(d.id ?? d.address ?? d.hash ?? d.number);
        const detail =
          type === 'asset' ? `${quote(str(d.name))} (${quote(str(d.symbol), 16)})` : type === 'transaction' ? str(d.type) : type === 'cBlock' ? `block ${str(d.number)}` : '';
        return { type, id, score: str(item.score), detail };
      });
      return { count: count(r.count ?? results.length), results };
    },
    summarize: (o, i) =>
      o.results.length === 0
        ? `Nothing matches "${i.query}".`
        : [`${o.count} match(es) for "${i.query}":`, ...listLines(o.results as Array<Record<string, string>>, 25, (x) => `${x.type} ${x.id}${x.detail ? ` ${x.detail}` : ''}`)].join('\n'),
  }),
  defineTool({
    ...common,
    name: 'indexer_getAggregates',
    title: 'Activity totals',
    description: 'Get volume and counts of transactions, addresses, outputs and assets over a time window.',
    input: aggInput,
    output: Aggregate.extend({ assetID: z.string(), intervals: rows('First 100 intervals, same fields.') }),
    request: aggReq.request,
    run: async (input, ctx) => {
      checkWindow(input, ctx);
      const chainID = input.chainID ?? (await indexerStatus(ctx)).chains.map((c) => c.chainID);
      const r = rec((await aggReq.fetch({ ...input, chainID }, ctx)).raw);
      const asset = input.assetID ? await indexerAsset(ctx, input.assetID) : undefined;
      const volume = (v: unknown): AmountOut =>
        asset ? amountOf(v, asset) : { value: count(v), display: `${count(v)} (smallest units, all assets mixed; pass assetID for display units)` };
      const one = (x: unknown, outer?: Record<string, unknown>) => {
        const a = rec(x);
        return {
          startTime: timeOf(a.startTime ?? outer?.startTime),
          endTime: timeOf(a.endTime ?? outer?.endTime),
          transactionVolume: volume(a.transactionVolume),
          transactionCount: count(a.transactionCount),
          addressCount: count(a.addressCount),
          outputCount: count(a.outputCount),
          assetCount: count(a.assetCount),
        };
      };
      return { ...one(r.aggregates, r), assetID: input.assetID ?? '', intervals: arr(r.intervals).slice(0, 100).map((x) => one(x)) };
    },
    summarize: (o) =>
      [
        `Activity${windowText(o.startTime, o.endTime)}: ${o.transactionCount} transactions, volume ${o.transactionVolume.display}, ${o.addressCount} addresses, ${o.outputCount} outputs, ${o.assetCount} assets.`,
        ...listLines(o.intervals as Array<z.infer<typeof Aggregate>>, 24, (x) => `${isoShort(x.startTime)}: ${x.transactionCount} txs, volume ${x.transactionVolume.display}`),
      ].join('\n'),
  }),
  defineTool({
    ...common,
    name: 'indexer_getTxfeeAggregates',
    title: 'Fees paid',
    description: 'Get the total transaction fees paid over a time window.',
    input: feeAggInput,
    output: z.object({ startTime: TimeOut.optional(), endTime: TimeOut.optional(), txfee: Amt }),
    request: feeAggReq.request,
    run: async (input, ctx) => {
      const r = rec((await feeAggReq.fetch(input, ctx)).raw);
      const a = rec(r.aggregates);
      const native = await nativeAsset(ctx, await statusOrEmpty(ctx));
      return { startTime: timeOf(a.startTime ?? r.startTime), endTime: timeOf(a.endTime ?? r.endTime), txfee: nativeAmountOf(a.txfee, native) };
    },
    summarize: (o) => `Fees paid${windowText(o.startTime, o.endTime)}: ${o.txfee.display}.`,
  }),
  defineTool({
    ...common,
    name: 'indexer_getAddressChains',
    title: 'Chains an address used',
    description: 'List the chains on which each address has activity.',
    input: addressChainsInput,
    output: z.object({ addressChains: z.array(z.object({ address: z.string(), chains: z.array(z.object({ chainID: z.string(), alias: z.string() })) })) }),
    request: addressChainsReq.request,
    run: async (input, ctx) => {
      const r = rec((await addressChainsReq.fetch(input, ctx)).raw);
      const status = await statusOrEmpty(ctx);
      const map = rec(r.addressChains);
      return {
        addressChains: input.address.map((a) => ({ address: a, chains: arr(map[a]).map((id) => ({ chainID: str(id), alias: chainAlias(status, str(id)) })) })),
      };
    },
    summarize: (o) =>
      o.addressChains
        .map((a) => `${a.address}: ${a.chains.length ? a.chains.map((c) => c.alias || c.chainID).join(', ') : 'no activity known to the indexer'}`)
        .join('\n'),
  }),
  defineTool({
    ...common,
    name: 'indexer_listTransactions',
    title: 'Transaction history',
    description: "List X, P and C (atomic) transactions by chain, address, asset or time; with an address, each says sent/received and its net amount.",
    input: listTxInput,
    output: z.object({ count: z.number(), transactions: rows(TX_ROW), next: Next }),
    request: listTxReq.request,
    run: async (input, ctx) => {
      const r = rec((await listTxReq.fetch(input, ctx)).raw);
      const raws = arr(r.transactions);
      const { status, assets, natives } = await txContext(ctx, raws);
      const owners = new Set(input.address ?? []);
      const transactions = raws.map((t) => {
        const row = decodeTxSummary(t, assets, status, natives);
        return owners.size ? relativeTo(t, row, owners, assets) : row;
      });
      return {
        count: transactions.length,
        transactions,
        next: nextPage(r, input, transactions),
      };
    },
    summarize: (o, input) =>
      [
        `${o.count} transaction(s) on this page (page size ${input.limit}), ${input.sort === 'timestamp-desc' ? 'newest' : 'oldest'} first${o.next ? '; more pages follow' : ''}.`,
        ...listLines(o.transactions as TxRow[], 30, txLine),
        ...((o.transactions as TxSummary[]).some((t) => t.memo || t.outputTotals.some((a) => a.amount.display.includes('"'))) ? [STRANGER_NOTE] : []),
        ...nextLine('indexer_listTransactions', o.next),
      ].join('\n'),
  }),
  defineTool({
    ...common,
    name: 'indexer_getTransaction',
    title: 'Transaction details',
    description: 'Get an X/P-Chain transaction by ID: type, time, inputs, outputs, amounts, fee, memo.',
    input: getTxInput,
    output: TxShallow,
    request: getTxReq.request,
    run: async (input, ctx) => {
      const raw = (await getTxReq.fetch(input, ctx)).raw;
      const { status, assets, natives } = await txContext(ctx, [raw]);
      const t = rec(raw);
      return {
        ...decodeTxSummary(raw, assets, status, natives),
        inputs: arr(t.inputs)
          .slice(0, 200)
          .map((i) => ({
            ...decodeOutput(rec(i).output, assets),
            signers: arr(rec(i).credentials).map((c) => str(rec(c).address)),
          })),
        outputs: arr(t.outputs).slice(0, 200).map((o) => decodeOutput(o, assets)),
      };
    },
    summarize: (o) =>
      [
        `${o.type || 'Transaction'} ${o.id} on ${o.chain || o.chainID} at ${isoShort(o.timestamp)}${o.genesis ? ' (genesis)' : ''}.`,
        `Fee ${o.txFee.display}.${o.memo ? ` Memo: ${quote(o.memo, 200)}.` : ''}`,
        `In: ${(o.inputTotals as AssetAmount[]).map((a) => a.amount.display).join(', ') || 'nothing'}; out: ${(o.outputTotals as AssetAmount[]).map((a) => a.amount.display).join(', ') || 'nothing'}.`,
        `${o.inputCount} input(s):`,
        ...listLines(o.inputs as Output[], 10, (i) => `${i.amount.display} from ${i.addresses.join(', ') || '(no address)'}`),
        `${o.outputCount} output(s):`,
        ...listLines(o.outputs as Output[], 10, outputLine),
      ].join('\n'),
  }),
  defineTool({
    ...common,
    name: 'indexer_listAddresses',
    title: 'Address records',
    description: 'List address records (balance, received, sent, counts per asset) by chain or address.',
    input: listAddrInput,
    output: z.object({ count: z.number(), addresses: rows('Each: address, publicKey, assets (as in indexer_getAddress).'), next: Next }),
    request: listAddrReq.request,
    run: async (input, ctx) => {
      const r = rec((await listAddrReq.fetch(input, ctx)).raw);
      const raws = arr(r.addresses);
      const assets = await indexerAssets(ctx, raws.flatMap((a) => Object.keys(rec(rec(a).assets))));
      const list = raws.map((a) => decodeAddress(a, assets));
      return { count: list.length, addresses: list, next: nextPage(r, input, []) };
    },
    summarize: (o) =>
      [
        `${o.count} address record(s).`,
        ...listLines(o.addresses as AddressRecord[], 20, (a) => `${a.address}: ${a.assets.map((x) => x.balance.display).join(', ') || 'no assets'}`),
        ...nextLine('indexer_listAddresses', o.next),
      ].join('\n'),
  }),
  defineTool({
    ...common,
    name: 'indexer_getAddress',
    title: 'Address record',
    description: "Get an address's balance, received, sent, transaction and UTXO counts per asset.",
    input: getAddrInput,
    output: z.object({
      address: z.string(),
      publicKey: z.string().nullable(),
      assets: rows('Each: assetID, symbol, balance, totalReceived, totalSent (each {value, display}), transactionCount, utxoCount.'),
    }),
    request: getAddrReq.request,
    run: async (input, ctx) => {
      const raw = (await getAddrReq.fetch(input, ctx)).raw;
      const assets = await indexerAssets(ctx, Object.keys(rec(rec(raw).assets)));
      const decoded = decodeAddress(raw, assets);
      return { ...decoded, address: decoded.address || input.address };
    },
    summarize: (o) => addressLines(o as AddressRecord).join('\n'),
  }),
  defineTool({
    ...common,
    name: 'indexer_listAssets',
    title: 'Assets',
    description: 'List the assets created on the network: name, symbol, supply, kind.',
    input: listAssetsInput,
    output: z.object({ count: z.number(), assets: rows('Each: as in indexer_getAsset.'), next: Next }),
    request: listAssetsReq.request,
    run: async (input, ctx) => {
      const r = rec((await listAssetsReq.fetch(input, ctx)).raw);
      const native = await nativeIdentity(ctx);
      const assets = arr(r.assets).map((raw) => decodeAsset(raw, native));
      return { count: assets.length, assets, next: nextPage(r, input, assets) };
    },
    summarize: (o) => [`${o.count} asset(s).`, ...listLines(o.assets as Asset[], 30, assetLine), STRANGER_NOTE, ...nextLine('indexer_listAssets', o.next)].join('\n'),
  }),
  defineTool({
    ...common,
    name: 'indexer_getAsset',
    title: 'Asset details',
    description: "Get an asset's name, symbol, denomination, supply and kind (fixed/variable cap, NFT).",
    input: getAssetInput,
    output: AssetShallow,
    request: getAssetReq.request,
    run: async (input, ctx) => decodeAsset((await getAssetReq.fetch(input, ctx)).raw, await nativeIdentity(ctx)),
    summarize: (o) => `${assetLine(o)}; on chain ${o.chainID}${o.timestamp ? `, created ${isoShort(o.timestamp)}` : ''}.\n${STRANGER_NOTE}`,
  }),
  defineTool({
    ...common,
    name: 'indexer_listOutputs',
    title: 'Outputs (UTXOs)',
    description: 'List outputs (UTXOs) by chain and owner address, spent or unspent.',
    input: listOutputsInput,
    output: z.object({ count: z.number(), totals: rows('Sum per asset: assetID, symbol, amount.'), outputs: rows('As in indexer_getOutput.'), next: Next }),
    request: listOutputsReq.request,
    run: async (input, ctx) => {
      const r = rec((await listOutputsReq.fetch(input, ctx)).raw);
      const raws = arr(r.outputs);
      const assets = await indexerAssets(ctx, raws.map((o) => str(rec(o).assetID)));
      const outputs = raws.map((o) => decodeOutput(o, assets));
      const sums: Record<string, string> = {};
      for (const o of outputs) sums[o.assetID] = (BigInt(sums[o.assetID] ?? '0') + BigInt(o.amount.value)).toString();
      return { count: outputs.length, totals: totalsList(sums, assets), outputs, next: nextPage(r, input, outputs) };
    },
    summarize: (o, i) =>
      [
        `${o.count} ${i.spent === true ? 'spent ' : i.spent === false ? 'unspent ' : ''}output(s) totalling ${(o.totals as AssetAmount[]).map((t) => t.amount.display).join(', ') || 'nothing'}.`,
        ...listLines(o.outputs as Output[], 30, outputLine),
        ...nextLine('indexer_listOutputs', o.next),
      ].join('\n'),
  }),
  defineTool({
    ...common,
    name: 'indexer_getOutput',
    title: 'Output details',
    description: 'Get an output (UTXO) by ID: owners, amount, lock time, threshold, where it was spent.',
    input: getOutputInput,
    output: Output.extend({ amount: Amt }),
    request: getOutputReq.request,
    run: async (input, ctx) => {
      const raw = (await getOutputReq.fetch(input, ctx)).raw;
      return decodeOutput(raw, await indexerAssets(ctx, [str(rec(raw).assetID)]));
    },
    summarize: (o) =>
      `Output ${o.id} (#${o.outputIndex} of tx ${o.transactionID}): ${o.amount.display} to ${o.addresses.join(', ') || '(no address)'}, threshold ${o.threshold}${o.locktime !== '0' ? `, locked until ${o.locktime}` : ''}; ${o.spent ? `spent in ${o.redeemingTransactionID}` : 'unspent'}.`,
  }),
  defineTool({
    ...common,
    name: 'indexer_getCBlock',
    title: 'C-Chain block',
    description: 'Get a C-Chain block by number, or the latest, with its transactions.',
    input: getCBlockInput,
    output: CBlockHead.extend({ transactions: rows('First 200, as in indexer_listCTransactions.') }),
    request: getCBlockReq.request,
    run: async (input, ctx) => {
      const b = rec((await getCBlockReq.fetch(input, ctx)).raw);
      const h = rec(b.header);
      const symbol = await evmSymbol(ctx);
      const txs = arr(b.transactions);
      return {
        number: count(h.number ?? b.number),
        hash: str(b.hash ?? h.hash),
        parentHash: str(h.parentHash),
        timestamp: timeOf(tolerantBigInt(h.timestamp)?.toString()),
        miner: str(h.miner),
        gasUsed: count(h.gasUsed),
        gasLimit: count(h.gasLimit),
        baseFeePerGas: weiOf(h.baseFeePerGas, symbol),
        transactionCount: txs.length,
        transactions: txs.slice(0, 200).map((t) => decodeCTx(t, symbol)),
      };
    },
    summarize: (o) =>
      [
        `C-Chain block ${o.number} (${o.hash}) at ${isoShort(o.timestamp)}: ${o.transactionCount} transaction(s), gas ${o.gasUsed}/${o.gasLimit}, base fee ${o.baseFeePerGas.display}/gas.`,
        ...listLines(o.transactions as CTx[], 20, cTxLine),
      ].join('\n'),
  }),
  defineTool({
    ...common,
    name: 'indexer_listCBlocks',
    title: 'C-Chain blocks',
    description: 'List recent C-Chain blocks (newest first) with their transactions.',
    input: listCBlocksInput,
    output: z.object({
      blockCount: z.string(),
      transactionCount: z.string(),
      blocks: rows('Newest first. Each: number, hash, parentHash, timestamp, miner, gasUsed, gasLimit, baseFeePerGas, transactionCount.'),
      transactions: rows('As in indexer_listCTransactions.'),
      next: Next,
    }),
    request: listCBlocksReq.request,
    run: async (input, ctx) => {
      const r = rec((await listCBlocksReq.fetch(input, ctx)).raw);
      const symbol = await evmSymbol(ctx);
      const blocks = arr(r.blocks).map((x) => {
        const b = rec(x);
        const h = Object.keys(rec(b.header)).length ? rec(b.header) : b;
        return {
          number: count(h.number),
          hash: str(b.hash ?? h.hash),
          parentHash: str(h.parentHash),
          timestamp: timeOf(tolerantBigInt(h.timestamp)?.toString() ?? h.timestamp),
          miner: str(h.miner),
          gasUsed: count(h.gasUsed),
          gasLimit: count(h.gasLimit),
          baseFeePerGas: weiOf(h.baseFeePerGas ?? h.baseFee, symbol),
          transactionCount: Number(tolerantBigInt(b.evmTx ?? b.transactionCount) ?? BigInt(arr(b.transactions).length)),
        };
      });
      const transactions = arr(r.transactions).map((t) => decodeCTx(t, symbol));
      const oldest = blocks.at(-1);
      const next =
        oldest && blocks.length === input.limit && oldest.number !== '0'
          ? { ...echoArgs(input), blockStart: oldest.number }
          : undefined;
      return { blockCount: count(r.blockCount ?? blocks.length), transactionCount: count(r.transactionCount ?? transactions.length), blocks, transactions, next };
    },
    summarize: (o) =>
      [
        `${o.blocks.length} block(s), ${o.transactions.length} transaction(s) listed.`,
        ...listLines(o.blocks as Array<z.infer<typeof CBlockHead>>, 20, (b) => `block ${b.number} ${b.hash} at ${isoShort(b.timestamp)}: ${b.transactionCount} tx(s), gas ${b.gasUsed}`),
        ...(o.transactions.length ? ['Transactions:', ...listLines(o.transactions as CTx[], 20, cTxLine)] : []),
        ...(o.next ? [`Older blocks: call indexer_listCBlocks with ${JSON.stringify(o.next)}.`] : []),
      ].join('\n'),
  }),
  defineTool({
    ...common,
    name: 'indexer_listCTransactions',
    title: 'C-Chain transactions',
    description: 'List C-Chain transactions by sender, recipient, either, hash or block range.',
    input: listCTxInput,
    output: z.object({ count: z.number(), transactions: rows(CTX_ROW), next: Next }),
    request: listCTxReq.request,
    run: async (input, ctx) => {
      checkBlockRange(input);
      const r = rec((await listCTxReq.fetch(input, ctx)).raw);
      const symbol = await evmSymbol(ctx);
      const transactions = arr(r.Transactions ?? r.transactions).map((t) => decodeCTx(t, symbol));
      return {
        count: transactions.length,
        transactions,
        next: nextPage(r, input, transactions),
      };
    },
    summarize: (o) =>
      [`${o.count} C-Chain transaction(s).`, ...listLines(o.transactions as CTx[], 30, cTxLine), ...nextLine('indexer_listCTransactions', o.next)].join('\n'),
  }),
  defineTool({
    ...common,
    name: 'indexer_getLegacyX',
    title: 'Legacy X-Chain indexer info',
    description: 'Get X-Chain facts from the legacy v1 indexer (GET /x): network, chain ID, alias, VM, native asset.',
    input: none,
    output: z.object({ networkID: z.string(), vm: z.string(), chainAlias: z.string(), chainID: z.string(), nativeAssetID: z.string() }),
    request: legacyReq.request,
    run: async (i, ctx) => {
      const r = rec((await legacyReq.fetch(i as Record<string, never>, ctx)).raw);
      const c = parseChain(r);
      return { networkID: count(r.networkID ?? r.network_id), vm: c.vm, chainAlias: c.alias, chainID: c.chainID, nativeAssetID: c.nativeAssetID };
    },
    summarize: (o) => `Asset chain ${o.chainAlias || '(no alias)'} ${o.chainID} (${o.vm}) on network ${o.networkID}; native asset ${o.nativeAssetID}.`,
  }),
];
