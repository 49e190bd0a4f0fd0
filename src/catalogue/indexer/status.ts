/** The indexer itself and search: status, search, aggregates, fee aggregates, the legacy X view. */
import { z } from 'zod';
import { cb58Id } from '../../core/fields.js';
import { defineTool, type ToolDef } from '../../core/tool.js';
import { type AmountOut, listLines, TimeOut } from '../../summarize/format.js';
import { amountOf, indexerAsset, type IndexerChain, indexerStatus, isoShort, nativeAmountOf, parseChain, parseStatus, statusOrEmpty, timeOf } from '../../summarize/indexer.js';
import { quote } from '../../summarize/stranger.js';
import { nativeAsset } from './decode.js';
import { arr, chainIDs, count, endTime, rec, startTime, str } from './fields.js';
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

const feeAggInput = z.strictObject({ startTime, endTime });
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
    description: 'Get the total transaction fees paid over a time window.',
    input: feeAggInput,
    output: z.object({ startTime: TimeOut.optional(), endTime: TimeOut.optional(), txfee: Amt }),
    request: feeAggReq.request,
    run: async (input, ctx) => {
      const status = await statusOrEmpty(ctx);
      const chainID = status.magellan ? status.chains.map((c) => c.chainID) : undefined;
      const r = rec((await feeAggReq.fetch({ ...input, chainID }, ctx)).raw);
      const a = rec(r.aggregates);
      const native = await nativeAsset(ctx, status);
      return { startTime: timeOf(a.startTime ?? r.startTime), endTime: timeOf(a.endTime ?? r.endTime), txfee: nativeAmountOf(a.txfee, native) };
    },
    summarize: (o) => `Fees paid${windowText(o.startTime, o.endTime)}: ${o.txfee.display}.`,
  }),
];

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
