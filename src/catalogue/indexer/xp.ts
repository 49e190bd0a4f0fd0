/** X- and P-chain transactions: list (with sent/received per address) and get. */
import { z } from 'zod';
import { cb58Id } from '../../core/fields.js';
import { defineTool, type ToolDef } from '../../core/tool.js';
import { listLines } from '../../summarize/format.js';
import { type AssetAmount, isoShort } from '../../summarize/indexer.js';
import { quote, STRANGER_NOTE } from '../../summarize/stranger.js';
import { decodeOutput, decodeTxSummary, relativeTo, txContext } from './decode.js';
import { addresses, arr, chainIDs, listParams, rec, str } from './fields.js';
import { outputLine, txLine } from './lines.js';
import { common, indexerRequest, listPairs, nextLine, nextPage, repeated, seg, single } from './request.js';
import { Next, type Output, rows, TX_ROW, type TxRow, TxShallow, type TxSummary } from './shapes.js';

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

export const xpTools: ToolDef[] = [
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
];
