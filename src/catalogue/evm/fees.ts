/** The pending pool, Camino's asset balance on C, and the base and priority fees. */
import { z } from 'zod';
import { assetIdOrAlias, hexAddress } from '../../core/fields.js';
import type { ToolDef } from '../../core/tool.js';
import { amountOf, networkOrBlank } from '../../summarize/chain.js';
import { AmountOut } from '../../summarize/format.js';
import { blockTag, chain, dec, evmTool, gwei, num, obj } from './shared.js';

export const poolAndFeeTools: ToolDef[] = [
  evmTool({
    name: 'txpool_status',
    title: 'Transaction pool status',
    description: 'Count the node\'s pending (executable) and queued (future nonce) C-Chain transactions.',
    input: z.strictObject({ chain }),
    output: z.object({ pending: z.string(), queued: z.string() }),
    params: () => [],
    decode: (raw) => ({ pending: dec(obj(raw).pending) || '0', queued: dec(obj(raw).queued) || '0' }),
    summarize: (o) => `Transaction pool: ${o.pending} pending, ${o.queued} queued.`,
  }),
  evmTool({
    name: 'eth_getAssetBalance',
    title: 'C-Chain asset balance',
    description: 'Get a 0x address\'s balance of an X-Chain asset moved to the C-Chain.',
    input: z.strictObject({ address: hexAddress(), block: blockTag().default('latest'), assetID: assetIdOrAlias('Asset ID (cb58).'), chain }),
    output: z.object({ address: z.string(), assetID: z.string(), balance: AmountOut }),
    params: (i) => [i.address, i.block, i.assetID],
    decode: async (raw, i, ctx) => {
      const { value, display } = await amountOf(ctx, await networkOrBlank(ctx), i.assetID, num(raw));
      return { address: i.address, assetID: i.assetID, balance: { value, display } };
    },
    summarize: (o) => `${o.address} holds ${o.balance.display} of asset ${o.assetID} on the C-Chain.`,
  }),
  evmTool({
    name: 'eth_baseFee',
    title: 'Next base fee',
    description: 'Get the base fee of the next C-Chain block, in wei and gwei.',
    input: z.strictObject({ chain }),
    output: z.object({ baseFee: z.string().describe('Wei.'), display: z.string() }),
    params: () => [],
    decode: (raw) => ({ baseFee: dec(raw), display: gwei(num(raw)) }),
    summarize: (o) => `Base fee of the next block: ${o.display}.`,
  }),
  evmTool({
    name: 'eth_maxPriorityFeePerGas',
    title: 'Priority fee',
    description: 'Get the priority fee (tip) per gas for inclusion on the C-Chain, in wei and gwei.',
    input: z.strictObject({ chain }),
    output: z.object({ maxPriorityFeePerGas: z.string().describe('Wei.'), display: z.string() }),
    params: () => [],
    decode: (raw) => ({ maxPriorityFeePerGas: dec(raw), display: gwei(num(raw)) }),
    summarize: (o) => `Priority fee needed: ${o.display}.`,
  }),
];
