/** Accounts and execution: balance, nonce, code, storage, eth_call, gas and the fee history. */
import { z } from 'zod';
import { hexAddress } from '../../core/fields.js';
import type { ToolDef } from '../../core/tool.js';
import { AmountOut, weiAmount } from '../../summarize/format.js';
import { RESULT_TEXT_MAX } from './shared.js';

/** The gas of a plain value transfer to an address without code (the EVM's intrinsic gas). */
const PLAIN_TRANSFER_GAS = 21_000n;
import { balanceSymbol, blockTag, CallObject, chain, dec, evmTool, gwei, num, obj, quantity, str } from './shared.js';

export const accountTools: ToolDef[] = [
  evmTool({
    name: 'eth_getBalance',
    title: 'C-Chain balance',
    description: 'Get the native balance of a C-Chain 0x address (in wei and display units).',
    input: z.strictObject({ address: hexAddress(), block: blockTag().default('latest'), chain }),
    output: z.object({ address: z.string(), block: z.string(), balance: AmountOut }),
    params: (i) => [i.address, i.block],
    decode: async (raw, i, ctx) => ({ address: i.address, block: i.block, balance: weiAmount(num(raw), await balanceSymbol(ctx)) }),
    summarize: (o) => `${o.address} holds ${o.balance.display} on the C-Chain (block ${o.block}).`,
  }),
  evmTool({
    name: 'eth_getTransactionCount',
    title: 'C-Chain nonce',
    description: 'Count transactions sent from a 0x address (its next nonce).',
    input: z.strictObject({ address: hexAddress(), block: blockTag().default('latest'), chain }),
    output: z.object({ address: z.string(), block: z.string(), nonce: z.string() }),
    params: (i) => [i.address, i.block],
    decode: (raw, i) => ({ address: i.address, block: i.block, nonce: dec(raw) }),
    summarize: (o) => `${o.address} has sent ${o.nonce} transaction(s); its next nonce is ${o.nonce}.`,
  }),
  evmTool({
    name: 'eth_getCode',
    title: 'Contract code',
    description: 'Get the bytecode at a 0x address; empty for a plain account.',
    input: z.strictObject({ address: hexAddress(), block: blockTag().default('latest'), chain }),
    output: z.object({ address: z.string(), isContract: z.boolean(), byteLength: z.number(), code: z.string() }),
    params: (i) => [i.address, i.block],
    decode: (raw, i) => {
      const code = str(raw);
      const bytes = Math.max(0, (code.length - 2) / 2);
      return { address: i.address, isContract: bytes > 0, byteLength: bytes, code };
    },
    summarize: (o) => (o.isContract ? `${o.address} is a contract with ${o.byteLength} bytes of code.` : `${o.address} has no code: it is a plain account.`),
  }),
  evmTool({
    name: 'eth_getStorageAt',
    title: 'Contract storage slot',
    description: 'Read one 32-byte storage slot of a contract.',
    input: z.strictObject({ address: hexAddress(), position: quantity('Slot (decimal or 0x hex).'), block: blockTag().default('latest'), chain }),
    output: z.object({ address: z.string(), position: z.string(), value: z.string() }),
    params: (i) => [i.address, i.position, i.block],
    decode: (raw, i) => ({ address: i.address, position: i.position, value: str(raw) }),
    summarize: (o) => `Slot ${o.position} of ${o.address}: ${o.value}`,
  }),
  evmTool({
    name: 'eth_call',
    title: 'Call a contract (read-only)',
    description: 'Run a contract call read-only and return its raw result; nothing is signed or sent.',
    input: z.strictObject({ transaction: CallObject, block: blockTag('Block to run against; default latest.').optional(), chain }),
    output: z.object({ result: z.string() }),
    params: (i) => (i.block === undefined ? [i.transaction] : [i.transaction, i.block]),
    decode: (raw) => ({ result: str(raw) }),
    summarize: (o) => (o.result === '0x' ? 'The call returned no data (0x).' : `The call returned ${(o.result.length - 2) / 2} bytes: ${o.result.slice(0, RESULT_TEXT_MAX)}`),
  }),
  evmTool({
    name: 'eth_estimateGas',
    title: 'Estimate gas',
    description: 'Estimate the gas a transaction would use; nothing is sent.',
    input: z.strictObject({ transaction: CallObject, block: blockTag('Block to estimate against; default latest.').optional(), chain }),
    output: z.object({ gas: z.string() }),
    params: (i) => (i.block === undefined ? [i.transaction] : [i.transaction, i.block]),
    decode: (raw) => ({ gas: dec(raw) }),
    summarize: (o) => `Estimated gas: ${o.gas}.`,
  }),
  evmTool({
    name: 'eth_gasPrice',
    title: 'Gas price',
    description: 'Get the suggested gas price on the C-Chain, in wei and gwei.',
    input: z.strictObject({ chain }),
    output: z.object({
      gasPrice: z.string().describe('Wei.'),
      display: z.string(),
      plainTransferCost: AmountOut.describe('A plain transfer (21,000 gas) at this price.'),
    }),
    params: () => [],
    decode: async (raw, _i, ctx) => ({ gasPrice: dec(raw), display: gwei(num(raw)), plainTransferCost: weiAmount(num(raw) * PLAIN_TRANSFER_GAS, await balanceSymbol(ctx)) }),
    summarize: (o) => `Suggested gas price: ${o.display} (${o.gasPrice} wei); a plain transfer (21,000 gas) costs ${o.plainTransferCost.display} at this price.`,
  }),
  evmTool({
    name: 'eth_feeHistory',
    title: 'Fee history',
    description: 'Get base fees, fullness and priority-fee percentiles of recent C-Chain blocks.',
    input: z.strictObject({
      blockCount: z.number().int().min(1).max(1024).describe('Blocks to report.'),
      newestBlock: blockTag('Newest block of the range.').default('latest'),
      rewardPercentiles: z.array(z.number().min(0).max(100)).max(20).default([]).describe('Increasing priority-fee percentiles, e.g. [25, 75].'),
      chain,
    }),
    output: z.object({
      oldestBlock: z.string(),
      baseFeePerGas: z.array(z.string()).describe('Wei, one per block plus the next block.'),
      gasUsedRatio: z.array(z.number()),
      reward: z.array(z.array(z.string())).optional(),
    }),
    params: (i) => [`0x${i.blockCount.toString(16)}`, i.newestBlock, i.rewardPercentiles],
    decode: (raw) => {
      const r = obj(raw);
      const out: { oldestBlock: string; baseFeePerGas: string[]; gasUsedRatio: number[]; reward?: string[][] } = {
        oldestBlock: dec(r.oldestBlock),
        baseFeePerGas: (Array.isArray(r.baseFeePerGas) ? r.baseFeePerGas : []).map(dec),
        gasUsedRatio: (Array.isArray(r.gasUsedRatio) ? r.gasUsedRatio : []).map(Number),
      };
      if (Array.isArray(r.reward)) out.reward = r.reward.map((row) => (Array.isArray(row) ? row.map(dec) : []));
      return out;
    },
    summarize: (o) => {
      const fees = o.baseFeePerGas.map((f) => BigInt(f || '0'));
      const next = fees[fees.length - 1] ?? 0n;
      const sorted = [...fees].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
      const avg = o.gasUsedRatio.length ? o.gasUsedRatio.reduce((s, x) => s + x, 0) / o.gasUsedRatio.length : 0;
      return `${o.gasUsedRatio.length} block(s) from ${o.oldestBlock}: base fee ${gwei(sorted[0] ?? 0n)} to ${gwei(sorted[sorted.length - 1] ?? 0n)}, next block ${gwei(next)}; blocks ${(avg * 100).toFixed(1)} % full on average.`;
    },
  }),
];
