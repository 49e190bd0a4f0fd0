/** Input fields of the indexer tools: addresses, times, chain filters, paging, block numbers. */
import { z } from 'zod';
import { isCb58Id, isHexAddress, parseBareBech32, parseChainAddress, parseDateTime, parseUint64, tolerantBigInt } from '../../codec/index.js';
import { helpers } from '../../summarize/indexer.js';

export const { text, rec, arr } = helpers;
export const str = (v: unknown): string => text(v);
export const count = (v: unknown): string => (tolerantBigInt(v) ?? 0n).toString();

// ---------------------------------------------------------------- input fields

function transformed<T>(base: z.ZodType<string | number>, parse: (v: string | number) => T) {
  return base.transform((v, ctx) => {
    try {
      return parse(v);
    } catch (err) {
      ctx.addIssue({ code: 'custom', message: (err as Error).message });
      return z.NEVER;
    }
  });
}

/** X/P address with or without chain prefix; sent bare (checksum checked). */
export const address = (description?: string) => {
  const schema = transformed(z.string().max(200), (v) => {
    const s = String(v);
    return /^[A-Za-z]-/.test(s) ? parseChainAddress(s).bech32 : parseBareBech32(s).bech32;
  });
  return description ? schema.describe(description) : schema;
};

export const addresses = (description: string) => z.array(address()).min(1).max(64).describe(`${description} X-/P- prefix optional.`);

const datetime = (description: string) =>
  transformed(z.union([z.string().max(40), z.number()]), (v) => parseDateTime(v)).describe(`${description}; Unix seconds or RFC 3339.`);

export const chainIDs = z
  .array(
    z
      .string()
      .min(1)
      .max(100)
      .refine((v) => /^[A-Za-z][A-Za-z0-9-]{0,31}$/.test(v) || isCb58Id(v), 'expected a chain ID (cb58) or an alias such as X'),
  )
  .min(1)
  .max(16)
  .optional()
  .describe('Only these chains (X, P, C or IDs).');

export const limit = z.number().int().min(1).max(5000).default(100).describe('Items per page.');
export const query = z.string().min(1).max(100).refine((v) => /^[A-Za-z0-9-]+$/.test(v), 'expected an ID prefix (letters and digits)').optional().describe('ID prefix.');
export const startTime = datetime('From, inclusive').optional();
export const endTime = datetime('Until, inclusive').optional();
export const next = z
  .string()
  .min(1)
  .max(2000)
  .optional()
  .describe('`next` from the previous page.');
export const listParams = { limit, query, startTime, endTime, next };

export const hexAddr = (d: string) => z.string().refine(isHexAddress, 'expected 0x followed by 40 hex characters').describe(d);
export const blockNumber = (d: string) => transformed(z.union([z.number(), z.string().max(40)]), (v) => parseUint64(v, 'block number')).describe(d);
