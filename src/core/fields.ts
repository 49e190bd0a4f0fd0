import { z } from 'zod';
import { type ChainLetter, isCb58Id, isHexAddress, parseChainAddress, parseCb58Id, parseNodeId, parseUint64 } from '../codec/index.js';

/**
 * Input field schemas shared by the catalogue. Each checks what can be checked without
 * the node (form, checksum, range) and says what it expects, so a refusal names the field.
 */

function refineWith<T>(schema: z.ZodType<T>, check: (value: T) => void) {
  return schema.superRefine((value, ctx) => {
    try {
      check(value);
    } catch (err) {
      ctx.addIssue({ code: 'custom', message: (err as Error).message });
    }
  });
}

/** An address on one of the given chains, e.g. `X-camino1...`; bech32 checksum checked. */
export function chainAddress(chains: readonly ChainLetter[], description?: string) {
  const example = chains.map((c) => `${c}-...`).join(' or ');
  return refineWith(z.string().max(200), (v) => parseChainAddress(v, { chains })).describe(description ?? `Address (${example}).`);
}

export const xAddress = (description = 'X-Chain address (X-...).') => chainAddress(['X'], description);
export const pAddress = (description = 'P-Chain address (P-...).') => chainAddress(['P'], description);

export const addressList = (chains: readonly ChainLetter[], description: string, max = 256) =>
  z.array(chainAddress(chains)).min(1).max(max).describe(description);

/** A 32-byte cb58 ID (transaction, asset, block, chain, subnet). */
export const cb58Id = (description: string) => refineWith(z.string().max(100), (v) => parseCb58Id(v)).describe(description);

/** A chain ID (cb58) or an alias such as X, P or C. */
export const chainIdOrAlias = (description: string) =>
  refineWith(z.string().min(1).max(100), (v) => {
    if (/^[A-Za-z][A-Za-z0-9-]{0,31}$/.test(v) && v.length < 40) return;
    parseCb58Id(v);
  }).describe(description);

/**
 * Asset fields that also take an asset's symbol or name ("GLD", "Gold"): the pipeline
 * (src/registry/asset-names.ts) puts the ID in place before the input is parsed, or refuses a name
 * that is ambiguous or imitates another asset, naming the candidates.
 */
export const assetNameFields = z.registry<{ asset: true }>();

/** An asset ID (cb58) or an alias such as the native asset's symbol; a symbol or name is resolved first. */
export const assetIdOrAlias = (description = 'Asset ID (cb58), symbol or name (e.g. GLD).') => {
  const schema = refineWith(z.string().min(1).max(100), (v) => {
    if (/^[A-Za-z][A-Za-z0-9]{0,15}$/.test(v)) return;
    parseCb58Id(v);
  }).describe(description);
  assetNameFields.add(schema, { asset: true });
  return schema;
};

export const nodeId = (description = 'Node ID (NodeID-...).') => refineWith(z.string().max(100), (v) => parseNodeId(v)).describe(description);

/**
 * A uint64 as a decimal string (preferred) or a safe integer; always a bigint inside.
 * Large values must come as strings because JSON numbers lose precision above 2^53.
 */
export const uint64 = (description: string) =>
  z
    .union([z.string().max(40), z.number()])
    .transform((v, ctx) => {
      try {
        return parseUint64(v);
      } catch (err) {
        ctx.addIssue({ code: 'custom', message: (err as Error).message });
        return z.NEVER;
      }
    })
    .describe(description);

/** Where an amount field's asset comes from: the native asset, or a sibling field holding an asset ID or alias. */
export type AmountAsset = 'native' | { field: string };

/**
 * Amount fields that also take a display amount with its symbol ("1.5 CAM"); the spend path
 * (src/spend/amounts.ts) converts those with the asset's denomination before the input is parsed.
 */
export const displayAmountFields = z.registry<{ asset: AmountAsset }>();

/** "1.5 CAM", "1,000 CAM", ".5 GLD": a number and a symbol. */
export const DISPLAY_AMOUNT = /^\s*((?:\d[\d,]*)?(?:\.\d*)?)\s*([A-Za-z][A-Za-z0-9]{0,15})\s*$/;

/** How amounts are written, for descriptions: short, the way people write the native unit. */
export const NATIVE_UNITS = 'nCAM (1 CAM = 1,000,000,000 nCAM)';
/** The same for a field of any asset. */
export const ASSET_UNITS = 'Smallest units (1 CAM = 1,000,000,000 nCAM) or e.g. 1.5 CAM.';

/**
 * A positive uint64 amount in the smallest unit. With `asset`, the field also takes a display
 * amount with the asset's symbol ("1.5 CAM"), converted before parsing (spend tools only).
 */
export function amount(description = `${NATIVE_UNITS} or e.g. 1.5 CAM.`, asset?: AmountAsset) {
  const schema = uint64(description).refine((v) => v > 0n, 'expected a positive whole amount');
  if (asset) displayAmountFields.add(schema, { asset });
  return schema;
}

/** EVM hex address: 0x + 40 hex characters. */
export const hexAddress = (description = '0x address (40 hex).') =>
  z.string().refine(isHexAddress, 'expected 0x followed by 40 hex characters').describe(description);

/** Optional `chain` selecting another instance of a VM (`/ext/bc/<chain>`). */
export const chainSelector = (defaultAlias: 'X' | 'C') =>
  z
    .string()
    // refine, not regex: the rule guards the URL path and need not cost every tool's listing a pattern.
    .refine((v) => /^[A-Za-z0-9]{1,64}$/.test(v), 'expected a chain alias or blockchain ID')
    // Long values are blockchain IDs: check the cb58 checksum too (aliases are short words).
    .refine((v) => v.length <= 32 || isCb58Id(v), 'expected a blockchain ID (cb58) with a valid checksum, or a chain alias')
    .optional()
    // A JSON-schema default says the same as "Default C." in fewer bytes of every listing; parsing is unchanged.
    // What `chain` selects is said once, in the server instructions: a description here costs ~1.1 KB of the default list.
    .meta({ default: defaultAlias });

/**
 * Byte encodings a Camino node takes (caminogo utils/formatting/encoding.go): `hex` (its default,
 * with checksum), `hexc` (the same), `hexnc` (no checksum). It refuses `cb58` with an argument error.
 */
export const NODE_ENCODINGS = ['hex', 'hexc', 'hexnc'] as const;

/** Bytes a caller hands over, in any encoding a node or an older tool writes; the server re-encodes them for the node (spend/plan nodeHex). */
export const inputEncoding = (what: string) =>
  z.enum(['hex', 'hexnc', 'hexc', 'cb58']).optional().describe(`Encoding of ${what}: hex (0x, data, 4-byte checksum), hexnc or cb58; default hex for 0x text, else cb58.`);

export const encoding = (values: readonly [string, ...string[]], description = 'Answer encoding.') =>
  z.enum(values).optional().describe(description);

/** Parameters every spend tool accepts besides its own: the confirmation id. */
export const confirmField = z
  .string()
  .max(200)
  .optional()
  .describe("Omit to preview; then the preview's confirmationId.");

/** UTF-8 byte length, for the spec's byte limits (memo 256 bytes, NFT payload 1024 bytes). */
export function byteLength(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}

/** Drops undefined values so optional parameters the caller did not give are not sent (DESIGN section 5). */
export function compact<T extends Record<string, unknown>>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
