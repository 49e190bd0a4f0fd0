/** Blocks, transactions, receipts and logs. */
import { z } from 'zod';
import { hexAddress } from '../../core/fields.js';
import type { ToolDef } from '../../core/tool.js';
import { AmountOut, listLines, weiAmount } from '../../summarize/format.js';
import { BlockOut, blockOut, blockSummary, Log, logOut, TxOut, txOut } from './shapes.js';
import { balanceSymbol, blockTag, chain, dec, evmTool, hash32, num, obj, str, topic } from './shared.js';

export const blockTools: ToolDef[] = [
  evmTool({
    name: 'eth_getBlockByNumber',
    title: 'C-Chain block by number',
    description: 'Get a C-Chain block by number or tag: time, gas, base fee, transactions.',
    input: z.strictObject({ block: blockTag().default('latest'), fullTransactions: z.boolean().default(false).describe('Full transactions (first 25), not hashes.'), chain }),
    output: BlockOut,
    params: (i) => [i.block, i.fullTransactions],
    decode: (raw, _i, ctx) => blockOut(raw, ctx),
    summarize: blockSummary,
  }),
  evmTool({
    name: 'eth_getBlockByHash',
    title: 'C-Chain block by hash',
    description: 'Get a C-Chain block by hash: time, gas, base fee, transactions.',
    input: z.strictObject({ hash: hash32('Block hash.'), fullTransactions: z.boolean().default(false).describe('Full transactions (first 25), not hashes.'), chain }),
    output: BlockOut,
    params: (i) => [i.hash, i.fullTransactions],
    decode: (raw, _i, ctx) => blockOut(raw, ctx),
    summarize: blockSummary,
  }),
  evmTool({
    name: 'eth_getTransactionByHash',
    title: 'C-Chain transaction',
    description: 'Get a C-Chain transaction by hash: from, to, value, gas, block; outcome: eth_getTransactionReceipt.',
    input: z.strictObject({ hash: hash32('Transaction hash.'), chain }),
    output: z.object({ found: z.boolean(), transaction: TxOut.nullable() }),
    params: (i) => [i.hash],
    decode: async (raw, _i, ctx) => (raw && typeof raw === 'object' ? { found: true, transaction: txOut(raw, await balanceSymbol(ctx)) } : { found: false, transaction: null }),
    summarize: (o, i) =>
      o.transaction
        ? `Transaction ${o.transaction.hash}: ${o.transaction.from} -> ${o.transaction.to ?? '(contract creation)'}, ${o.transaction.value.display}, nonce ${o.transaction.nonce}, ${o.transaction.blockNumber ? `in block ${o.transaction.blockNumber}` : 'pending'}.`
        : `No transaction ${i.hash} is known to this node.`,
  }),
  evmTool({
    name: 'eth_getTransactionReceipt',
    title: 'C-Chain transaction receipt',
    description: 'Get a mined C-Chain transaction\'s outcome: success or revert, gas, fee, new contract, logs.',
    input: z.strictObject({ hash: hash32('Transaction hash.'), chain }),
    output: z.object({
      found: z.boolean(),
      status: z.enum(['success', 'reverted', 'unknown', 'not found']),
      blockNumber: z.string(),
      from: z.string(),
      to: z.string().nullable(),
      contractAddress: z.string().nullable(),
      gasUsed: z.string(),
      effectiveGasPrice: z.string(),
      fee: AmountOut.optional(),
      logCount: z.number(),
      logs: z.array(Log).describe('First 50.'),
    }),
    params: (i) => [i.hash],
    decode: async (raw, _i, ctx) => {
      if (!raw || typeof raw !== 'object') {
        return { found: false, status: 'not found' as const, blockNumber: '', from: '', to: null, contractAddress: null, gasUsed: '', effectiveGasPrice: '', logCount: 0, logs: [] };
      }
      const r = obj(raw);
      const logs = Array.isArray(r.logs) ? r.logs : [];
      const status = r.status === undefined ? 'unknown' : num(r.status) === 1n ? 'success' : 'reverted';
      const gasUsed = num(r.gasUsed);
      const price = num(r.effectiveGasPrice);
      return {
        found: true,
        status: status as 'success' | 'reverted' | 'unknown',
        blockNumber: dec(r.blockNumber),
        from: str(r.from),
        to: r.to ? str(r.to) : null,
        contractAddress: r.contractAddress ? str(r.contractAddress) : null,
        gasUsed: gasUsed.toString(),
        effectiveGasPrice: price.toString(),
        fee: weiAmount(gasUsed * price, await balanceSymbol(ctx)),
        logCount: logs.length,
        logs: logs.slice(0, 50).map(logOut),
      };
    },
    summarize: (o, i) =>
      !o.found
        ? `No receipt for ${i.hash}: the transaction is pending or unknown.`
        : `Transaction ${i.hash} ${o.status === 'success' ? 'succeeded' : o.status === 'reverted' ? 'REVERTED' : 'has an unknown status'} in block ${o.blockNumber}: gas used ${o.gasUsed}, fee ${o.fee?.display ?? '?'}, ${o.logCount} log(s)${o.contractAddress ? `, created contract ${o.contractAddress}` : ''}.`,
  }),
  evmTool({
    name: 'eth_getLogs',
    title: 'Event logs',
    description: 'Find contract event logs by block range or hash, address and topics, with a total count.',
    input: z.strictObject({
      fromBlock: blockTag('First block; default latest.').optional(),
      toBlock: blockTag('Last block; default latest.').optional(),
      blockHash: hash32('Only this block, not a range.').optional(),
      address: z.union([hexAddress(''), z.array(hexAddress('')).min(1).max(100)]).optional().describe('Contract address(es).'),
      topics: z
        .array(z.union([topic, z.null(), z.array(topic).max(20)]))
        .max(4)
        .optional()
        .describe('Per position: a 0x 32-byte topic, null (any) or a list (any of).'),
      limit: z.number().int().min(1).max(500).default(50).describe('Logs to return; the count covers all.'),
      chain,
    }),
    output: z.object({ count: z.number(), logs: z.array(Log) }),
    params: (i) => {
      const filter: Record<string, unknown> = {};
      if (i.fromBlock !== undefined) filter.fromBlock = i.fromBlock;
      if (i.toBlock !== undefined) filter.toBlock = i.toBlock;
      if (i.blockHash !== undefined) filter.blockHash = i.blockHash;
      if (i.address !== undefined) filter.address = i.address;
      if (i.topics !== undefined) filter.topics = i.topics;
      return [filter];
    },
    decode: (raw, i) => {
      const list = Array.isArray(raw) ? raw : [];
      return { count: list.length, logs: list.slice(0, i.limit).map(logOut) };
    },
    summarize: (o) =>
      [
        `${o.count} log(s)${o.count > o.logs.length ? `, first ${o.logs.length} returned` : ''}.`,
        ...listLines(o.logs, 15, (l) => `block ${l.blockNumber} ${l.address} topic0 ${l.topics[0]?.slice(0, 18) ?? '-'}… tx ${l.transactionHash.slice(0, 18)}…`),
      ].join('\n'),
  }),
];
