import { z } from 'zod';
import type { ChainLetter } from '../codec/index.js';
import { byteLength, chainAddress, xAddress } from '../core/fields.js';
import { ADDRESS_STATES } from './plan.js';

/** Input fields of the spend and wallet tiers, with the spec's limits (documents 2 and 3). */

export const fromField = (chains: readonly ChainLetter[]) =>
  z.array(chainAddress(chains)).min(1).max(64).optional().describe("Spend from; default all the user's.");

export const changeAddrField = (chains: readonly ChainLetter[]) =>
  chainAddress(chains).optional().describe("Change address; default the user's.");

export const memoField = z
  .string()
  .refine((v) => byteLength(v) <= 256, 'must be at most 256 bytes (UTF-8)')
  .optional()
  .describe('Memo, at most 256 bytes.');

export const symbolField = z.string().max(4, 'must be 0 to 4 characters').describe('Ticker, 0 to 4 characters.');
export const assetName = z.string().min(1).max(128).describe('Human-readable name; need not be unique.');
export const denominationField = z
  .number()
  .int()
  .min(0)
  .max(32)
  .optional()
  .describe('Display decimals: 100 units with d=2 show as 1.00. Default 0.');

export const minterSets = z
  .array(
    z
      .strictObject({
        minters: z.array(xAddress()).min(1).max(64).describe('X addresses allowed to mint.'),
        threshold: z.number().int().min(1).describe('How many minters must sign; 1 to the number of minters.'),
      })
      .refine((s) => s.threshold <= s.minters.length, { message: 'threshold must be between 1 and the number of minters', path: ['threshold'] }),
  )
  .min(1)
  .max(16)
  .describe('Who may mint: each set lets `threshold` of its `minters` mint together.');

const STATE_NAMES = Object.keys(ADDRESS_STATES) as [keyof typeof ADDRESS_STATES, ...Array<keyof typeof ADDRESS_STATES>];
const STATE_VALUES = new Set<number>(Object.values(ADDRESS_STATES));

/** An address state by name or number, as in the spec's table; always the number inside. */
export const addressStateField = z
  .union([z.enum(STATE_NAMES), z.number().int()])
  .transform((v, ctx) => {
    if (typeof v === 'string') return ADDRESS_STATES[v];
    if (!STATE_VALUES.has(v)) {
      ctx.addIssue({ code: 'custom', message: `expected a state of the spec's table: ${Object.entries(ADDRESS_STATES).map(([k, n]) => `${k}=${n}`).join(', ')}` });
      return z.NEVER;
    }
    return v;
  })
  .describe('State: a name (AddressStateKycVerified) or its number (0, 1, 32, 33, 38, 39).');

export function stateName(value: number): string {
  return Object.entries(ADDRESS_STATES).find(([, n]) => n === value)?.[0] ?? String(value);
}
