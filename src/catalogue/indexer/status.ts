/** The indexer itself and search: status, search, aggregates, fee aggregates, the legacy X view. */
import { z } from 'zod';
import { cb58Id } from '../../core/fields.js';
import { defineTool, type ToolContext, type ToolDef } from '../../core/tool.js';
import { type AmountOut, listLines, TimeOut } from '../../summarize/format.js';
import { amountOf, indexerAsset, type IndexerChain, indexerStatus, isoShort, nativeAmountOf, parseChain, parseStatus, statusOrEmpty, timeOf } from '../../summarize/indexer.js';
import { quote } from '../../summarize/stranger.js';
import { nativeAsset } from './decode.js';
import { addresses, arr, chainIDs, count, endTime, rec, startTime, str } from './fields.js';
import { windowText } from './lines.js';
import { checkWindow, common, indexerRequest, none, repeated, single, timePairs } from './request.js';
import { Amt, rows } from './shapes.js';

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

const feeAggInput = z.strictObject({
  startTime,
  endTime,
  address: addresses('Fees paid by these addresses instead of the whole network (from their history).').optional(),
});
/** Pages of history read for one address's fees, bounded. */
const FEE_PAGES = 10;
const FEE_PAGE = 500;
/** The spec's route takes only the window; Magellan refuses it without a chainID (api/v2.go TxfeeAggregate). */
const feeAggReq = indexerRequest<z.output<typeof feeAggInput> & { chainID?: string[] }>({
  path: () => '/v2/txfeeAggregates',
  query: (i) => [...repeated('chainID', i.chainID), ...timePairs(i)],
});

const legacyReq = indexerRequest<Record<string, never>>({ path: () => '/x' });

export const statusTools: ToolDef[] = [
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
    description: 'Fees paid over a time window: by the whole network (all addresses), or with address, by those addresses.',
    input: feeAggInput,
    output: z.object({
      scope: z.enum(['network', 'addresses']).describe('network: every address on the network; addresses: only the given ones.'),
      addresses: z.array(z.string()).optional(),
      startTime: TimeOut.optional(),
      endTime: TimeOut.optional(),
      txfee: Amt,
      transactions: z.number().optional().describe('addresses: their transactions that paid a fee.'),
      complete: z.boolean().optional().describe('addresses: false when the history had more pages than read.'),
    }),
    request: feeAggReq.request,
    run: async (input, ctx) => {
      const status = await statusOrEmpty(ctx);
      const chainID = status.magellan ? status.chains.map((c) => c.chainID) : undefined;
      const native = await nativeAsset(ctx, status);
      if (input.address) return feesOf(ctx, input.address, input, chainID, native);
      const { address: _none, ...window } = input;
      const r = rec((await feeAggReq.fetch({ ...window, chainID }, ctx)).raw);
      const a = rec(r.aggregates);
      return { scope: 'network' as const, startTime: timeOf(a.startTime ?? r.startTime), endTime: timeOf(a.endTime ?? r.endTime), txfee: nativeAmountOf(a.txfee, native) };
    },
    summarize: (o) =>
      o.scope === 'network'
        ? `Fees paid by the whole network (all addresses; give address for one address's fees)${windowText(o.startTime, o.endTime)}: ${o.txfee.display}.`
        : `Fees paid by ${o.addresses!.join(', ')}${windowText(o.startTime, o.endTime)}: ${o.txfee.display} in ${o.transactions} transaction(s)${o.complete ? '' : ' (more history than read: a lower bound; narrow the window)'}.`,
  }),
];

/**
 * Fees one set of addresses paid: the fee of each of their transactions in which they spent an
 * input (direction sent or both), from their history pages, each transaction counted once.
 */
async function feesOf(
  ctx: ToolContext,
  owners: readonly string[],
  window: { startTime?: bigint; endTime?: bigint },
  chainID: string[] | undefined,
  native: Awaited<ReturnType<typeof nativeAsset>>,
) {
  const seen = new Map<string, bigint>();
  let args: Record<string, unknown> = {
    address: [...owners],
    limit: FEE_PAGE,
    ...(chainID ? { chainID } : {}),
    ...(window.startTime !== undefined ? { startTime: Number(window.startTime) } : {}),
    ...(window.endTime !== undefined ? { endTime: Number(window.endTime) } : {}),
  };
  let complete = false;
  for (let page = 0; page < FEE_PAGES; page++) {
    const out = await ctx.call('indexer_listTransactions', args);
    for (const t of arr(out.transactions).map(rec)) {
      if (t.direction !== 'sent' && t.direction !== 'both') continue;
      seen.set(str(t.id), BigInt(str(rec(t.txFee).value) || '0'));
    }
    const next = out.next as Record<string, unknown> | undefined;
    if (!next) {
      complete = true;
      break;
    }
    args = { address: [...owners], limit: FEE_PAGE, ...next };
  }
  const total = [...seen.values()].reduce((a, b) => a + b, 0n);
  const first = rec(window).startTime;
  return {
    scope: 'addresses' as const,
    addresses: [...owners],
    ...(first !== undefined ? { startTime: timeOf(first) } : {}),
    ...(window.endTime !== undefined ? { endTime: timeOf(window.endTime) } : {}),
    txfee: nativeAmountOf(total, native),
    transactions: seen.size,
    complete,
  };
}

export const legacyTools: ToolDef[] = [
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
