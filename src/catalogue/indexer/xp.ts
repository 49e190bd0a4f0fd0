/** X- and P-chain transactions: list (with sent/received per address) and get. */
import { z } from 'zod';
import { cb58Id } from '../../core/fields.js';
import { defineTool, type ToolDef } from '../../core/tool.js';
import { listLines } from '../../summarize/format.js';
import { type AssetAmount, chainAlias, type IndexerStatus, isoShort } from '../../summarize/indexer.js';
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

/** "X-Chain" for an alias the indexer reports (x, X); an ID stays as it is. */
function chainWord(alias: string): string {
  return alias.length === 1 ? `${alias.toUpperCase()}-Chain` : alias;
}

function chainName(status: IndexerStatus, chainID: string): string {
  const alias = chainAlias(status, chainID);
  return alias ? chainWord(alias) : `chain ${chainID}`;
}

/** An exported output left this chain: it waits on the destination until an import there spends it. */
function exportedLine(o: Output): string {
  const where = o.spent ? `imported there in ${o.redeemingTransactionID}` : `waiting there for an import`;
  return `${o.amount.display} exported to the ${o.exportedTo} for ${o.addresses.join(', ') || '(no address)'} (left this chain; ${where}) ${o.id}`;
}

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
      const home = str(t.chainID);
      // Magellan files an export's exported outputs under the chain they went to: that chain is the destination.
      const outputs = arr(t.outputs)
        .slice(0, 200)
        .map((o) => {
          const out = decodeOutput(o, assets);
          const chainID = str(rec(o).chainID);
          return chainID && home && chainID !== home ? { ...out, exportedTo: chainName(status, chainID) } : out;
        });
      const destinations = [...new Set(outputs.map((o) => o.exportedTo).filter((c): c is string => !!c))];
      return {
        ...decodeTxSummary(raw, assets, status, natives),
        inputs: arr(t.inputs)
          .slice(0, 200)
          .map((i) => ({
            ...decodeOutput(rec(i).output, assets),
            signers: arr(rec(i).credentials).map((c) => str(rec(c).address)),
          })),
        outputs,
        ...(destinations.length ? { destinationChain: destinations.join(', ') } : {}),
      };
    },
    summarize: (o) =>
      [
        `${o.type || 'Transaction'} ${o.id} on ${o.chain ? `the ${chainWord(o.chain)}` : o.chainID}${o.destinationChain ? `, exported to the ${o.destinationChain}` : ''} at ${isoShort(o.timestamp)}${o.genesis ? ' (genesis)' : ''}.`,
        `Fee ${o.txFee.display}.${o.memo ? ` Memo: ${quote(o.memo, 200)}.` : ''}`,
        `In: ${(o.inputTotals as AssetAmount[]).map((a) => a.amount.display).join(', ') || 'nothing'}; out: ${(o.outputTotals as AssetAmount[]).map((a) => a.amount.display).join(', ') || 'nothing'}.`,
        `${o.inputCount} input(s):`,
        ...listLines(o.inputs as Output[], 10, (i) => `${i.amount.display} from ${i.addresses.join(', ') || '(no address)'}`),
        `${o.outputCount} output(s):`,
        ...listLines(o.outputs as Output[], 10, (out) => (out.exportedTo ? exportedLine(out) : outputLine(out))),
      ].join('\n'),
  }),
];
