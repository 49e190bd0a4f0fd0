import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseDateTime } from '../../codec/index.js';
import { bareAddress, type CBlock, type Chain, type CTransaction, type DevnetState } from '../state/index.js';
import {
  addressChains,
  addressRecord,
  assetRecord,
  cBlockListItem,
  cBlockRecord,
  chainOf,
  cTransactionRecord,
  indexedTxs,
  type Json,
  knownAddresses,
  legacyX,
  outputRecord,
  status,
  transactionRecord,
  txAddresses,
  txAssets,
  txOutputs,
} from './views.js';

/**
 * The simulator's indexer: GET-only JSON on its own loopback port, answering the spec's
 * endpoints from the shared network model. Errors are `{"code": <status>, "message"}` with
 * that HTTP status; an unknown transaction, asset or output is `null` with HTTP 200 and an
 * unknown address or C-Chain block is a 404 (real indexers do both; the client handles both).
 */

export interface IndexerRequest {
  path: string;
  query: Array<[string, string]>;
}

export interface DevnetIndexer {
  url: string;
  /** Every request received, in order (tests count them). */
  requests: IndexerRequest[];
  close(): Promise<void>;
}

class Refusal extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

const MAX_LIMIT = 5000;
const MAX_C_LIMIT = 10_000;

type Params = URLSearchParams;

function intParam(q: Params, key: string, max?: number): number | undefined {
  const v = q.get(key);
  if (v === null || v === '') return undefined;
  if (!/^\d+$/.test(v)) throw new Refusal(400, `invalid ${key}: expected a non-negative integer`);
  const n = Number(v);
  if (max !== undefined && n > max) throw new Refusal(400, `${key} must be at most ${max}`);
  return n;
}

function timeParam(q: Params, key: string): number | undefined {
  const v = q.get(key);
  if (v === null || v === '') return undefined;
  try {
    return Number(parseDateTime(v));
  } catch {
    throw new Refusal(400, `invalid ${key}: expected Unix seconds or RFC 3339`);
  }
}

interface ListParams {
  limit: number;
  /** Items to skip: not a spec parameter, but what this simulator's `next` cursors carry (as Magellan's do). */
  offset: number;
  query?: string;
  startTime: number;
  endTime: number;
}

function listParams(q: Params, state: DevnetState): ListParams {
  const now = state.now();
  return {
    limit: intParam(q, 'limit', MAX_LIMIT) ?? MAX_LIMIT,
    offset: intParam(q, 'offset') ?? 0,
    query: q.get('query') || undefined,
    startTime: Math.min(timeParam(q, 'startTime') ?? 0, now),
    endTime: Math.min(timeParam(q, 'endTime') ?? now, now),
  };
}

function chainFilter(q: Params, state: DevnetState): Set<Chain> | undefined {
  const ids = q.getAll('chainID');
  if (ids.length === 0) return undefined;
  const set = new Set<Chain>();
  for (const id of ids) {
    const c = chainOf(state, id);
    if (!c) throw new Refusal(400, `unknown chainID ${id}`);
    set.add(c);
  }
  return set;
}

/** Addresses may carry a chain prefix in queries (spec); compare bare. */
function addressFilter(q: Params, key = 'address'): Set<string> | undefined {
  const list = q.getAll(key);
  return list.length ? new Set(list.map(bareAddress)) : undefined;
}

/**
 * One page of `items` (already filtered and ordered) plus `next` when more remain: the same
 * query with the time window pinned (so new items do not shift pages) and the offset moved.
 */
function page<T>(items: T[], p: ListParams, q: Params): { items: T[]; next?: string } {
  const rest = items.slice(p.offset);
  if (rest.length <= p.limit) return { items: rest };
  const next = new URLSearchParams(q);
  next.set('endTime', String(p.endTime));
  next.set('offset', String(p.offset + p.limit));
  return { items: rest.slice(0, p.limit), next: next.toString() };
}

function inWindow(t: number, p: ListParams): boolean {
  return t >= p.startTime && t <= p.endTime;
}

function allCTxs(state: DevnetState): Array<{ block: CBlock; tx: CTransaction }> {
  return state.cBlocks.flatMap((block) => block.transactions.map((tx) => ({ block, tx })));
}

function route(state: DevnetState, path: string, q: Params, camino: boolean): { status: number; body: unknown } {
  const ok = (body: unknown) => ({ status: 200, body });
  const parts = path.split('/').filter(Boolean);
  // gocraft/web's answer to a path no route matches.
  const unknown = () => new Refusal(404, camino ? 'Not Found' : `unknown path ${path}`);
  if (path === '/x' || (camino && path === '/X')) return ok(legacyX(state, camino));
  if (parts[0] !== 'v2') throw unknown();
  const [, resource, id, extra] = parts;
  if (extra !== undefined) throw unknown();
  switch (resource) {
    case undefined:
      return ok(status(state, camino));
    case 'search':
      return ok(search(state, q.get('query') ?? '', camino));
    case 'aggregates':
      // magellan api/v2.go Aggregate: no chain, no answer.
      if (camino && q.getAll('chainID').length === 0) throw new Refusal(400, 'chainID is required');
      return ok(aggregates(state, q));
    case 'txfeeAggregates': {
      // magellan api/v2.go TxfeeAggregate: the same refusal.
      if (camino && q.getAll('chainID').length === 0) throw new Refusal(400, 'chainID is required');
      const p = listParams(q, state);
      const fee = indexedTxs(state)
        .filter((t) => inWindow(t.timestamp, p))
        .reduce((s, t) => s + t.fee, 0n);
      const window = { startTime: rfc(p.startTime), endTime: rfc(p.endTime) };
      return ok({ aggregates: { ...window, txfee: fee.toString() }, ...window });
    }
    case 'addressChains': {
      const list = q.getAll('address');
      if (list.length === 0) throw new Refusal(400, 'address is required');
      return ok({ addressChains: Object.fromEntries(list.map((a) => [bareAddress(a), addressChains(state, bareAddress(a))])) });
    }
    case 'transactions': {
      if (id !== undefined) {
        const tx = state.txs.get(id);
        return ok(tx && tx.status === 'Accepted' ? transactionRecord(state, tx, camino) : null);
      }
      return ok(listTransactions(state, q, camino));
    }
    case 'addresses': {
      if (id !== undefined) {
        const record = addressRecord(state, bareAddress(id));
        if (!record) throw new Refusal(404, `address ${bareAddress(id)} not found`);
        return ok(record);
      }
      const p = listParams(q, state);
      const chains = chainFilter(q, state);
      const wanted = addressFilter(q);
      const records = (wanted ? [...wanted] : knownAddresses(state))
        .filter((a) => !p.query || a.startsWith(p.query))
        .map((a) => addressRecord(state, a, chains))
        .filter((r): r is Json => r !== undefined);
      const { items, next } = page(records, p, q);
      return ok({ addresses: items, ...(next ? { next } : {}) });
    }
    case 'assets': {
      if (id !== undefined) {
        const asset = state.assets.get(id) ?? [...state.assets.values()].find((a) => a.alias === id);
        return ok(asset ? assetRecord(state, asset) : null);
      }
      const p = listParams(q, state);
      const assets = [...state.assets.values()]
        .filter((a) => inWindow(a.timestamp, p) && (!p.query || a.id.startsWith(p.query)))
        .sort((a, b) => a.timestamp - b.timestamp || a.id.localeCompare(b.id));
      const { items, next } = page(assets, p, q);
      return ok({ assets: items.map((a) => assetRecord(state, a)), ...(next ? { next } : {}) });
    }
    case 'outputs': {
      if (id !== undefined) {
        const u = state.utxos.get(id);
        return ok(u ? outputRecord(state, u) : null);
      }
      return ok(listOutputs(state, q));
    }
    case 'ctxdata': {
      // Magellan routes only /v2/ctxdata/:id, and any id that is not a number means the latest block.
      if (camino && id === undefined) throw unknown();
      const n = id === undefined || !/^\d+$/.test(id) ? state.cBlocks.length - 1 : Number(id);
      const block = state.cBlocks[n];
      if (!block) throw new Refusal(404, `block ${id ?? 'latest'} not found`);
      return ok(cBlockRecord(block));
    }
    case 'cblocks':
      return ok(listCBlocks(state, q, camino));
    case 'ctransactions':
      return ok(listCTransactions(state, q));
    default:
      throw unknown();
  }
}

const rfc = (unix: number) => new Date(unix * 1000).toISOString().replace('.000Z', 'Z');

function listTransactions(state: DevnetState, q: Params, camino: boolean): Json {
  const p = listParams(q, state);
  const sort = q.get('sort') ?? 'timestamp-asc';
  if (sort !== 'timestamp-asc' && sort !== 'timestamp-desc') throw new Refusal(400, `invalid sort ${sort}`);
  const desc = sort === 'timestamp-desc';
  const chains = chainFilter(q, state);
  const wanted = addressFilter(q);
  const assetID = q.get('assetID') || undefined;
  const txs = indexedTxs(state)
    .filter((t) => inWindow(t.timestamp, p))
    .filter((t) => !chains || chains.has(t.chain))
    .filter((t) => !p.query || t.id.startsWith(p.query))
    .filter((t) => !assetID || txAssets(state, t).has(assetID))
    .filter((t) => {
      if (!wanted) return true;
      const touched = txAddresses(state, t);
      return [...wanted].some((a) => touched.has(a));
    })
    .sort((a, b) => (desc ? b.timestamp - a.timestamp : a.timestamp - b.timestamp) || a.id.localeCompare(b.id));
  const { items, next } = page(txs, p, q);
  return { startTime: rfc(p.startTime), endTime: rfc(p.endTime), transactions: items.map((t) => transactionRecord(state, t, camino)), ...(next ? { next } : {}) };
}

function listOutputs(state: DevnetState, q: Params): Json {
  const p = listParams(q, state);
  const chains = chainFilter(q, state);
  const wanted = addressFilter(q);
  const spentText = q.get('spent');
  if (spentText !== null && spentText !== 'true' && spentText !== 'false') throw new Refusal(400, 'invalid spent: expected true or false');
  const outputs = [...state.utxos.values()]
    .map((u) => ({ u, t: state.txs.get(u.txID)?.timestamp ?? u.timestamp }))
    .filter(({ u, t }) => inWindow(t, p) && (!chains || chains.has(u.chain)) && (!p.query || u.id.startsWith(p.query)))
    .filter(({ u }) => spentText === null || (spentText === 'true') === Boolean(u.spentBy))
    .filter(({ u }) => !wanted || u.addresses.some((a) => wanted.has(bareAddress(a))))
    .sort((a, b) => a.t - b.t || a.u.id.localeCompare(b.u.id));
  const { items, next } = page(outputs, p, q);
  return { outputs: items.map(({ u }) => outputRecord(state, u)), ...(next ? { next } : {}) };
}

function search(state: DevnetState, query: string, camino: boolean): Json {
  if (!query) throw new Refusal(400, 'query is required');
  const results: Json[] = [];
  const score = (id: string) => (id === query ? 1 : query.length / id.length);
  for (const t of indexedTxs(state)) if (t.id.startsWith(query)) results.push({ type: 'transaction', data: transactionRecord(state, t, camino), score: score(t.id) });
  for (const a of state.assets.values()) if (a.id.startsWith(query)) results.push({ type: 'asset', data: assetRecord(state, a), score: score(a.id) });
  const bare = bareAddress(query);
  for (const a of knownAddresses(state)) {
    if (!a.startsWith(bare) || bare.length < 8) continue;
    const record = addressRecord(state, a);
    if (record) results.push({ type: 'address', data: record, score: score(a) });
  }
  for (const u of state.utxos.values()) if (u.id.startsWith(query)) results.push({ type: 'output', data: outputRecord(state, u), score: score(u.id) });
  // No prefix search for C-Chain data: exact block number or hash, exact transaction hash.
  const lower = query.toLowerCase();
  for (const b of state.cBlocks) {
    if (String(b.number) === query || b.hash === lower) results.push({ type: 'cBlock', data: { number: String(b.number), hash: b.hash }, score: 1 });
  }
  for (const { block, tx } of allCTxs(state)) if (tx.hash === lower) results.push({ type: 'cTransaction', data: cTransactionRecord(block, tx), score: 1 });
  results.sort((a, b) => Number(b.score) - Number(a.score));
  return { count: results.length, results };
}

const INTERVALS: Record<string, number> = { minute: 60, hour: 3600, day: 86_400, week: 604_800, month: 2_592_000, year: 31_536_000 };

function aggregates(state: DevnetState, q: Params): Json {
  const p = listParams(q, state);
  const chains = chainFilter(q, state);
  const assetID = q.get('assetID') || undefined;
  const size = q.get('intervalSize');
  if (size !== null && !(size in INTERVALS)) throw new Refusal(400, `invalid intervalSize ${size}`);
  const txs = indexedTxs(state).filter((t) => !chains || chains.has(t.chain));
  const over = (start: number, end: number): Json => {
    let volume = 0n;
    let outputs = 0;
    let count = 0;
    const addresses = new Set<string>();
    const assets = new Set<string>();
    for (const t of txs) {
      if (t.timestamp < start || t.timestamp > end) continue;
      const outs = txOutputs(state, t).filter((u) => !assetID || u.assetID === assetID);
      if (assetID && outs.length === 0) continue;
      count += 1;
      for (const u of outs) {
        volume += u.amount;
        outputs += 1;
        assets.add(u.assetID);
        for (const a of u.addresses) addresses.add(bareAddress(a));
      }
    }
    return {
      startTime: rfc(start),
      endTime: rfc(end),
      transactionVolume: volume.toString(),
      transactionCount: count,
      addressCount: addresses.size,
      outputCount: outputs,
      assetCount: assets.size,
    };
  };
  const result: Json = { startTime: rfc(p.startTime), endTime: rfc(p.endTime), aggregates: over(p.startTime, p.endTime) };
  if (size) {
    const step = INTERVALS[size]!;
    const first = Math.max(p.startTime, Math.min(...txs.map((t) => t.timestamp), p.endTime));
    const intervals: Json[] = [];
    for (let s = first; s <= p.endTime && intervals.length < 1000; s += step) intervals.push(over(s, Math.min(s + step - 1, p.endTime)));
    result.intervals = intervals;
  }
  return result;
}

function cAddresses(q: Params, key: string): Set<string> | undefined {
  const list = q.getAll(key);
  return list.length ? new Set(list.map((a) => a.toLowerCase())) : undefined;
}

/** Magellan's cap on both limits of /v2/cblocks (api/v2.go ListCBlocks, DefaultLimit); absent means its default 5000. */
const MAGELLAN_C_LIMIT = 1000;

function listCBlocks(state: DevnetState, q: Params, camino: boolean): Json {
  const limits = q.getAll('limit');
  const check = (v: string | undefined, what: string): number => {
    if (camino) {
      // An absent block limit is Magellan's default 5000; an absent transaction limit is 0 (params/collections.go).
      const n = v === undefined || v === '' ? (what === 'block' ? 5000 : 0) : /^\d+$/.test(v) ? Number(v) : Number.NaN;
      if (!(n <= MAGELLAN_C_LIMIT)) throw new Refusal(400, `invalid ${what === 'block' ? 'block' : 'tx'} limit`);
      return n;
    }
    if (v === undefined || v === '') return 0;
    if (!/^\d+$/.test(v)) throw new Refusal(400, `invalid ${what} limit`);
    const n = Number(v);
    if (n > MAX_C_LIMIT) throw new Refusal(400, `${what} limit must be at most ${MAX_C_LIMIT}`);
    return n;
  };
  const blockLimit = check(limits[0], 'block');
  const txLimit = check(limits[1], 'transaction');
  // The parameter table says blockStart; the spec's example spells it startBlock: accept both.
  const start = intParam(q, 'blockStart') ?? intParam(q, 'startBlock') ?? 0;
  const end = intParam(q, 'blockEnd') ?? intParam(q, 'endBlock') ?? 0;
  const txIndex = intParam(q, 'transactionId') ?? 0;
  const wanted = cAddresses(q, 'address');
  const inRange = (n: number) => (start === 0 || n < start) && (end === 0 || n > end);
  const blocks = state.cBlocks.filter((b) => inRange(b.number)).sort((a, b) => b.number - a.number);
  const txs = blocks
    .flatMap((block, bi) =>
      [...block.transactions]
        .reverse()
        .filter((tx) => !(bi === 0 && txIndex > 0 && tx.index >= txIndex))
        .map((tx) => ({ block, tx })),
    )
    .filter(({ tx }) => !wanted || wanted.has(tx.from) || (tx.to !== null && wanted.has(tx.to)));
  return {
    // Magellan sends no totals (models/collections.go CBlockList).
    ...(camino ? {} : { blockCount: state.cBlocks.length, transactionCount: allCTxs(state).length }),
    blocks: blocks.slice(0, blockLimit).map(cBlockListItem),
    transactions: txs.slice(0, txLimit).map(({ block, tx }) => cTransactionRecord(block, tx)),
  };
}

function listCTransactions(state: DevnetState, q: Params): Json {
  const p = listParams(q, state);
  const to = q.get('toAddress')?.toLowerCase();
  const from = q.get('fromAddress')?.toLowerCase();
  const either = q.get('address')?.toLowerCase();
  const hash = q.get('hash')?.toLowerCase();
  const blockStart = intParam(q, 'blockStart');
  const blockEnd = intParam(q, 'blockEnd');
  const txs = allCTxs(state)
    .filter(({ block }) => inWindow(block.timestamp, p))
    .filter(({ block }) => (blockStart === undefined || block.number >= blockStart) && (blockEnd === undefined || block.number < blockEnd))
    .filter(({ tx }) => (!to || tx.to === to) && (!from || tx.from === from) && (!either || tx.to === either || tx.from === either) && (!hash || tx.hash === hash))
    .sort((a, b) => b.block.number - a.block.number || b.tx.index - a.tx.index);
  const { items, next } = page(txs, p, q);
  return {
    Transactions: items.map(({ block, tx }) => cTransactionRecord(block, tx)),
    startTime: rfc(p.startTime),
    endTime: rfc(p.endTime),
    ...(next ? { next } : {}),
  };
}

function send(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) }).end(text);
}

/** Starts the indexer on 127.0.0.1 (port 0: a free one). */
export async function startIndexer(state: DevnetState, opts: { port?: number; dialect?: 'camino' | 'spec' } = {}): Promise<DevnetIndexer> {
  const port = opts.port ?? 0;
  const camino = opts.dialect === 'camino';
  const requests: IndexerRequest[] = [];
  const handle = (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const path = url.pathname.replace(/\/+$/, '') || '/';
    requests.push({ path, query: [...url.searchParams.entries()] });
    if (req.method !== 'GET') return send(res, 405, { code: 405, message: 'method not allowed' });
    try {
      const { status: code, body } = route(state, path, url.searchParams, camino);
      send(res, code, body);
    } catch (err) {
      if (err instanceof Refusal) return send(res, err.code, { code: err.code, message: err.message });
      send(res, 500, { code: 500, message: (err as Error).message });
    }
  };
  const server: Server = createServer((req, res) => {
    req.resume();
    req.on('end', () => handle(req, res));
  });
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
