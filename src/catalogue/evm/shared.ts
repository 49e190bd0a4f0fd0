/** What the EVM tools share: loose readers of 0x quantities, the block tag and other fields, and `evmTool` for a plain JSON-RPC read. */
import { z } from 'zod';
import { formatAmount, tolerantBigInt } from '../../codec/index.js';
import { chainSelector, hexAddress } from '../../core/fields.js';
import { type AnyObject, defineTool, type ToolContext, type ToolDef } from '../../core/tool.js';
import { networkOrBlank } from '../../summarize/chain.js';

export const obj = (raw: unknown): Record<string, unknown> => (raw && typeof raw === 'object' ? (raw as Record<string, unknown>) : {});
export const str = (v: unknown): string => (v === undefined || v === null ? '' : String(v));
/** 0x quantity (or decimal) -> decimal string; '' when absent. */
export const dec = (v: unknown): string => {
  const n = tolerantBigInt(v);
  return n === undefined ? '' : n.toString();
};
export const num = (v: unknown): bigint => tolerantBigInt(v) ?? 0n;
export const gwei = (wei: bigint) => formatAmount(wei, { decimals: 9, symbol: 'gwei' });

const BLOCK_TAGS = ['latest', 'earliest', 'pending', 'safe', 'finalized'] as const;

/**
 * A whole number given as text or a JS number, sent as a 0x quantity. `read` turns the text
 * into what is sent (undefined: refused with `refusal`). The whole-number check is in the
 * transform, not .int().min(0): the listed schema then reads as a plain type list.
 */
const sentAsQuantity = (maxLength: number, what: string, read: (v: string) => string | undefined, refusal: string) =>
  z.union([z.string().max(maxLength), z.number()]).transform((v, ctx) => {
    if (typeof v === 'number') {
      if (Number.isSafeInteger(v) && v >= 0) return `0x${v.toString(16)}`;
      ctx.addIssue({ code: 'custom', message: `expected a whole ${what}, 0 or more` });
      return z.NEVER;
    }
    const sent = read(v);
    if (sent !== undefined) return sent;
    ctx.addIssue({ code: 'custom', message: refusal });
    return z.NEVER;
  });

/** A block number (decimal or 0x hex) or tag; sent as the node expects it: a tag or a 0x quantity. */
export const blockTag = (description = 'Number (decimal/0x) or tag; default latest.') =>
  sentAsQuantity(
    20,
    'block number',
    (v) => {
      if ((BLOCK_TAGS as readonly string[]).includes(v)) return v;
      if (/^0x[0-9a-fA-F]{1,16}$/.test(v) || /^\d{1,20}$/.test(v)) return `0x${BigInt(v).toString(16)}`;
      return undefined;
    },
    `expected a block number or one of ${BLOCK_TAGS.join(', ')}`,
  ).describe(description);

export const hash32 = (description: string) =>
  z
    .string()
    .regex(/^0x[0-9a-fA-F]{64}$/, 'expected 0x followed by 64 hex characters')
    .describe(description);
/** A log topic in a filter: the regex is checked in a refine so it is not repeated in every listed topic slot. */
export const topic = z.string().refine((v) => /^0x[0-9a-fA-F]{64}$/.test(v), 'expected 0x followed by 64 hex characters');
const hexData = (description: string) =>
  z
    .string()
    .max(262_144)
    .regex(/^0x(?:[0-9a-fA-F]{2})*$/, 'expected 0x-prefixed hex bytes')
    .describe(description);
export const quantity = (description: string) =>
  sentAsQuantity(
    80,
    'number',
    (v) => (/^0x[0-9a-fA-F]{1,64}$/.test(v) || /^\d{1,78}$/.test(v) ? `0x${BigInt(v).toString(16)}` : undefined),
    'expected a whole number (decimal or 0x hex)',
  ).describe(description);

export const CallObject = z
  .strictObject({
    from: hexAddress('').optional(),
    to: hexAddress('').optional(),
    gas: quantity('').optional(),
    gasPrice: quantity('Wei.').optional(),
    value: quantity('Wei.').optional(),
    data: hexData('').optional(),
  })
  .describe('Call fields; numbers decimal or 0x.');

export const chain = chainSelector('C');
export const balanceSymbol = async (ctx: ToolContext) => (await networkOrBlank(ctx)).assetSymbol;

interface EvmSpec<I extends AnyObject, O extends AnyObject> {
  name: string;
  title: string;
  description: string;
  input: I;
  output: O;
  params(input: z.output<I>): unknown[];
  decode(raw: unknown, input: z.output<I>, ctx: ToolContext): z.input<O> | Promise<z.input<O>>;
  summarize(output: z.output<O>, input: z.output<I>): string;
  tier?: 'read' | 'admin';
}

export function evmTool<I extends AnyObject, O extends AnyObject>(spec: EvmSpec<I, O>): ToolDef<I, O> {
  return defineTool({
    name: spec.name,
    title: spec.title,
    description: spec.description,
    tier: spec.tier ?? 'read',
    toolset: 'evm',
    input: spec.input,
    output: spec.output,
    request: { kind: 'rpc', endpoint: 'evm', method: spec.name, params: (i) => spec.params(i) },
    decode: spec.decode,
    summarize: spec.summarize,
  });
}

/** How much of a raw result the text shows; the structured result holds all of it. */
export const RESULT_TEXT_MAX = 3000;
