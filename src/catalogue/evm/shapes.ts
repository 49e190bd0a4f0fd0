/** Output shapes of EVM logs, transactions and blocks, and their decoders. */
import { z } from 'zod';
import type { ToolContext } from '../../core/tool.js';
import { AmountOut, listLines, TimeOut, timeOut, weiAmount } from '../../summarize/format.js';
import { balanceSymbol, dec, gwei, num, obj, str } from './shared.js';

export const Log = z.object({
  address: z.string(),
  topics: z.array(z.string()),
  data: z.string().describe('Cut at 2,000 hex characters.'),
  blockNumber: z.string(),
  transactionHash: z.string(),
  logIndex: z.string(),
});
export function logOut(raw: unknown): z.infer<typeof Log> {
  const r = obj(raw);
  return {
    address: str(r.address),
    topics: (Array.isArray(r.topics) ? r.topics : []).map(str),
    data: str(r.data).slice(0, 2000),
    blockNumber: dec(r.blockNumber),
    transactionHash: str(r.transactionHash),
    logIndex: dec(r.logIndex),
  };
}

export const TxOut = z.object({
  hash: z.string(),
  blockNumber: z.string().describe('Empty while pending.'),
  from: z.string(),
  to: z.string().nullable(),
  value: AmountOut,
  nonce: z.string(),
  gas: z.string(),
  gasPrice: z.string().optional(),
  maxFeePerGas: z.string().optional(),
  maxPriorityFeePerGas: z.string().optional(),
  input: z.string().describe('Cut at 2,000 hex characters.'),
  type: z.string(),
});
export function txOut(raw: unknown, symbol: string): z.infer<typeof TxOut> {
  const r = obj(raw);
  const out: z.infer<typeof TxOut> = {
    hash: str(r.hash),
    blockNumber: dec(r.blockNumber),
    from: str(r.from),
    to: r.to ? str(r.to) : null,
    value: weiAmount(num(r.value), symbol),
    nonce: dec(r.nonce),
    gas: dec(r.gas),
    input: str(r.input ?? r.data).slice(0, 2000),
    type: dec(r.type),
  };
  if (r.gasPrice !== undefined) out.gasPrice = dec(r.gasPrice);
  if (r.maxFeePerGas !== undefined) out.maxFeePerGas = dec(r.maxFeePerGas);
  if (r.maxPriorityFeePerGas !== undefined) out.maxPriorityFeePerGas = dec(r.maxPriorityFeePerGas);
  return out;
}

/** The head of a C-chain block as the node and the indexer both describe it. */
export const blockHeadFields = {
  number: z.string(),
  hash: z.string(),
  parentHash: z.string(),
  timestamp: TimeOut.optional(),
  miner: z.string(),
  gasUsed: z.string(),
  gasLimit: z.string(),
};

export const BlockOut = z.object({
  found: z.boolean(),
  ...blockHeadFields,
  baseFeePerGas: z.string().optional(),
  transactionCount: z.number(),
  transactionHashes: z.array(z.string()).describe('First 100.'),
  transactions: z.array(TxOut).optional().describe('With fullTransactions: the first 25.'),
});
export async function blockOut(raw: unknown, ctx: ToolContext): Promise<z.input<typeof BlockOut>> {
  if (!raw || typeof raw !== 'object') {
    return { found: false, number: '', hash: '', parentHash: '', miner: '', gasUsed: '', gasLimit: '', transactionCount: 0, transactionHashes: [] };
  }
  const r = obj(raw);
  const txs = Array.isArray(r.transactions) ? r.transactions : [];
  const full = txs.length > 0 && typeof txs[0] === 'object';
  const out: z.input<typeof BlockOut> = {
    found: true,
    number: dec(r.number),
    hash: str(r.hash),
    parentHash: str(r.parentHash),
    miner: str(r.miner),
    gasUsed: dec(r.gasUsed),
    gasLimit: dec(r.gasLimit),
    transactionCount: txs.length,
    transactionHashes: txs.slice(0, 100).map((t) => (full ? str(obj(t).hash) : str(t))),
  };
  const ts = timeOut(num(r.timestamp));
  if (ts) out.timestamp = ts;
  if (r.baseFeePerGas !== undefined) out.baseFeePerGas = dec(r.baseFeePerGas);
  if (full) {
    const symbol = await balanceSymbol(ctx);
    out.transactions = txs.slice(0, 25).map((t) => txOut(t, symbol));
  }
  return out;
}
export function blockSummary(o: z.output<typeof BlockOut>): string {
  if (!o.found) return 'No such block (yet).';
  return [
    `Block ${o.number} (${o.hash}) at ${o.timestamp?.iso ?? '?'}: ${o.transactionCount} transaction(s), gas used ${o.gasUsed} of ${o.gasLimit}` +
      (o.baseFeePerGas ? `, base fee ${gwei(BigInt(o.baseFeePerGas))}.` : '.'),
    ...(o.transactions
      ? listLines(o.transactions, 10, (t) => `${t.hash.slice(0, 18)}… ${t.from} -> ${t.to ?? '(contract creation)'}: ${t.value.display}`)
      : listLines(o.transactionHashes, 10, (h) => h)),
  ].join('\n');
}
