/** C-chain blocks and transactions as the indexer keeps them. */
import { z } from 'zod';
import { tolerantBigInt } from '../../codec/index.js';
import { defineTool, type ToolDef } from '../../core/tool.js';
import { InputError } from '../../errors.js';
import { listLines } from '../../summarize/format.js';
import { isoShort, timeOf, weiOf } from '../../summarize/indexer.js';
import { decodeCTx, evmSymbol } from './decode.js';
import { arr, blockNumber, count, endTime, hexAddr, limit, next, rec, startTime, str } from './fields.js';
import { cTxLine } from './lines.js';
import { common, echoArgs, indexerRequest, listPairs, nextLine, nextPage, repeated, single } from './request.js';
import { CBlockHead, type CTx, CTX_ROW, Next, rows } from './shapes.js';

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

/** /v2/ctransactions: blockStart inclusive, blockEnd exclusive, so an empty range is a mistake. */
function checkBlockRange(i: { blockStart?: bigint; blockEnd?: bigint }): void {
  if (i.blockStart !== undefined && i.blockEnd !== undefined && i.blockStart >= i.blockEnd) {
    throw new InputError('blockStart', 'must be below blockEnd (blockEnd is exclusive).');
  }
}

export const cchainTools: ToolDef[] = [
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
];
