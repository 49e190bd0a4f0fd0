/** tx_status and wait_for_tx: where a transaction is and what its status means. */
import { z } from 'zod';
import { cb58Id } from '../../core/fields.js';
import { defineTool, type ToolContext } from '../../core/tool.js';
import { meaningOf, TX_STATUS_MEANING } from '../../summarize/chain.js';
import { quote } from '../../summarize/stranger.js';
import { FINAL, PRIMARY_NETWORK_ID, type Problem, sleep, step, str } from './shared.js';

const Check = z.object({ source: z.string(), answer: z.string() });
const TxStatusOut = z.object({
  txID: z.string(),
  found: z.boolean(),
  chain: z.enum(['X', 'P', 'C', 'unknown']),
  status: z.string().describe('Accepted, Committed, Aborted, Processing, Rejected, Dropped or Unknown.'),
  meaning: z.string(),
  reason: z.string().optional().describe('Why the P-Chain dropped it.'),
  blockHeight: z.string().optional(),
  checks: z.array(Check).describe('What each source said.'),
});
type TxStatusOut = z.infer<typeof TxStatusOut>;

async function lookupTx(ctx: ToolContext, txID: string): Promise<TxStatusOut> {
  const problems: Problem[] = [];
  const useIndexer = ctx.config.indexerUrl !== undefined;
  const [x, c, p, idx, block] = await Promise.all([
    step(ctx, problems, 'X', 'xvm_getTxStatus', { txID }),
    step(ctx, problems, 'C atomic', 'cx_getAtomicTxStatus', { txID }),
    step(ctx, problems, 'P', 'platform_getTxStatus', { txID }),
    useIndexer ? step(ctx, problems, 'indexer', 'indexer_getTransaction', { id: txID }) : Promise.resolve(undefined),
    step(ctx, problems, 'P block', 'platform_getBlock', { blockID: txID, encoding: 'json' }),
  ]);
  const checks = [
    ...(x ? [{ source: 'xvm_getTxStatus', answer: str(x.status) }] : []),
    ...(c ? [{ source: 'cx_getAtomicTxStatus', answer: str(c.status) + (c.blockHeight ? ` at height ${str(c.blockHeight)}` : '') }] : []),
    ...(p ? [{ source: 'platform_getTxStatus', answer: str(p.status) }] : []),
    ...(idx ? [{ source: 'indexer_getTransaction', answer: `${str(idx.type)} on chain ${str(idx.chain) || str(idx.chainID)}` }] : []),
    ...(block ? [{ source: 'platform_getBlock', answer: `P block at height ${str(block.height) || '?'}` }] : []),
    ...problems.filter((p) => p.step !== 'P block').map((p) => ({ source: p.step, answer: `failed: ${p.error}` })),
  ];
  const result = (chain: TxStatusOut['chain'], status: string, extra: Partial<TxStatusOut> = {}): TxStatusOut => ({
    txID,
    found: chain !== 'unknown',
    chain,
    status,
    meaning: meaningOf(TX_STATUS_MEANING, status),
    checks,
    ...extra,
  });
  const xs = str(x?.status);
  if (xs && xs !== 'Unknown') return result('X', xs);
  const cs = str(c?.status);
  if (cs && cs !== 'Unknown') return result('C', cs, c?.blockHeight ? { blockHeight: str(c.blockHeight) } : {});
  const ps = str(p?.status);
  if (ps && ps !== 'Unknown') return result('P', ps, p?.reason ? { reason: str(p.reason) } : {});
  if (idx) {
    const alias = str(idx.chain).toUpperCase();
    const chain = alias === 'X' || alias === 'P' || alias === 'C' ? alias : str(idx.chainID) === PRIMARY_NETWORK_ID ? 'P' : 'unknown';
    // The indexer records accepted transactions only.
    return { ...result(chain, 'Accepted'), found: true, meaning: `${meaningOf(TX_STATUS_MEANING, 'Accepted')} (known to the indexer, chain ${str(idx.chainID)})` };
  }
  if (block) return { ...result('P', 'Accepted', { blockHeight: str(block.height) }), meaning: 'this ID is an accepted P-Chain block, not a transaction' };
  return result('unknown', 'Unknown');
}

/** A 0x hash is a C-Chain EVM transaction: the refusal names the tools that take one, not only "expected cb58". */
export const EVM_HASH_REFUSAL =
  'is a 0x hash, a C-Chain EVM transaction: ask eth_getTransactionReceipt (status, block, gas used) or eth_getTransactionByHash with it; this tool takes cb58 IDs of X, P and C atomic transactions';
const txIdField = z
  .string()
  .max(100)
  .superRefine((v, zctx) => {
    if (/^0x[0-9a-fA-F]{64}$/.test(v)) return zctx.addIssue({ code: 'custom', message: EVM_HASH_REFUSAL });
    const cb58 = cb58Id('').safeParse(v);
    if (!cb58.success) zctx.addIssue({ code: 'custom', message: cb58.error.issues[0]?.message ?? 'expected a cb58 ID' });
  })
  .describe('cb58 ID on X, P or C; for 0x hashes use eth_getTransactionReceipt.');

export const txStatus = defineTool({
  name: 'tx_status',
  title: 'Transaction status',
  description: 'Find a transaction on X, C (atomic) or P: its chain, status and meaning. wait_for_tx waits for final.',
  tier: 'read',
  toolset: 'assistant',
  input: z.strictObject({ txID: txIdField }),
  output: TxStatusOut,
  run: (input, ctx) => lookupTx(ctx, input.txID),
  summarize: (o) =>
    [
      o.found
        ? `${o.txID} is on ${o.chain === 'unknown' ? 'another chain' : `the ${o.chain}-Chain`}: ${o.status}, ${o.meaning}${o.reason ? ` (reason: ${quote(o.reason, 200)})` : ''}${o.blockHeight ? ` (block ${o.blockHeight})` : ''}.`
        : `${o.txID} was not found: ${o.meaning}.`,
      `Checked: ${o.checks.map((c) => `${c.source}: ${c.answer}`).join('; ')}.`,
    ].join('\n'),
});


async function pollOnce(ctx: ToolContext, txID: string, chain: 'X' | 'P' | 'C' | 'any'): Promise<{ status: string; chain: string; blockHeight?: string; reason?: string }> {
  if (chain === 'X') return { status: str((await ctx.call('xvm_getTxStatus', { txID })).status) || 'Unknown', chain };
  if (chain === 'P') {
    const p = await ctx.call('platform_getTxStatus', { txID });
    return { status: str(p.status) || 'Unknown', chain, ...(p.reason ? { reason: str(p.reason) } : {}) };
  }
  if (chain === 'C') {
    const c = await ctx.call('cx_getAtomicTxStatus', { txID });
    return { status: str(c.status) || 'Unknown', chain, ...(c.blockHeight ? { blockHeight: str(c.blockHeight) } : {}) };
  }
  const t = await lookupTx(ctx, txID);
  return { status: t.status, chain: t.chain, ...(t.blockHeight ? { blockHeight: t.blockHeight } : {}), ...(t.reason ? { reason: t.reason } : {}) };
}

export const waitForTx = defineTool({
  name: 'wait_for_tx',
  title: 'Wait for a transaction',
  description: 'Poll a transaction until final or timeout, with progress; tx_status looks once.',
  tier: 'read',
  toolset: 'assistant',
  input: z.strictObject({
    txID: txIdField,
    chain: z.enum(['X', 'P', 'C', 'any']).default('any'),
    timeoutSeconds: z.number().int().min(1).max(300).default(60),
    intervalSeconds: z.number().min(0.2).max(30).default(2).describe('Seconds between polls.'),
  }),
  output: z.object({
    txID: z.string(),
    chain: z.string(),
    status: z.string(),
    meaning: z.string(),
    final: z.boolean(),
    blockHeight: z.string().optional(),
    reason: z.string().optional(),
    polls: z.number(),
    waitedSeconds: z.number(),
  }),
  run: async (input, ctx) => {
    const started = ctx.now();
    const deadline = started + input.timeoutSeconds * 1000;
    let polls = 0;
    for (;;) {
      const answer = await pollOnce(ctx, input.txID, input.chain);
      polls++;
      const waited = Math.round((ctx.now() - started) / 100) / 10;
      const final = FINAL.has(answer.status);
      await ctx.progress(Math.min(waited, input.timeoutSeconds), input.timeoutSeconds, `${answer.status} after ${polls} poll(s)`);
      const remaining = deadline - ctx.now();
      if (final || remaining <= 0) {
        return { txID: input.txID, ...answer, meaning: meaningOf(TX_STATUS_MEANING, answer.status), final, polls, waitedSeconds: waited };
      }
      await sleep(Math.min(input.intervalSeconds * 1000, remaining), ctx.signal);
    }
  },
  summarize: (o) =>
    o.final
      ? `${o.txID} is ${o.status} on the ${o.chain}-Chain (${o.meaning}) after ${o.waitedSeconds} s and ${o.polls} poll(s).`
      : `${o.txID} is still ${o.status} (${o.meaning}) after ${o.waitedSeconds} s; call wait_for_tx again to keep waiting.`,
});
