import { z } from 'zod';
import { isCb58Id } from '../codec/index.js';
import { assetNameFields, DISPLAY_AMOUNT, displayAmountFields } from '../core/fields.js';
import type { AnyObject, ToolContext } from '../core/tool.js';
import { InputError } from '../errors.js';
import { skeleton } from '../summarize/stranger.js';

/**
 * Asset fields named by symbol or name ("GLD", "Gold"): the ID is put in place before the input is
 * parsed, when exactly one asset carries that symbol or name and no other asset looks like it.
 * Ambiguous or look-alike names are refused, naming the candidates; the native asset's own symbol
 * stays as it is (every node resolves it as an alias), read from the node, so an indexer outage does
 * not stop a native-asset spend. The other names come from the indexer's asset list.
 */

interface Site {
  path: string;
  holder: Record<string, unknown>;
  key: string;
}

interface Candidate {
  id: string;
  symbol: string;
  name: string;
}

function unwrap(schema: z.ZodType): z.ZodType {
  let inner = schema;
  while (inner instanceof z.ZodOptional || inner instanceof z.ZodDefault || inner instanceof z.ZodNullable) inner = inner.unwrap() as z.ZodType;
  return inner;
}

type Registry = { has(schema: z.ZodType): boolean };

function sitesOf(shape: Record<string, z.ZodType>, args: Record<string, unknown>, prefix = '', registry: Registry = assetNameFields): Site[] {
  const sites: Site[] = [];
  for (const [key, field] of Object.entries(shape)) {
    const value = args[key];
    if (value === undefined) continue;
    if (registry.has(field) || registry.has(unwrap(field))) {
      if (typeof value === 'string') sites.push({ path: `${prefix}${key}`, holder: args, key });
      continue;
    }
    const inner = unwrap(field);
    if (inner instanceof z.ZodArray && Array.isArray(value)) {
      const element = unwrap(inner.element as z.ZodType);
      if (!(element instanceof z.ZodObject)) continue;
      value.forEach((item, i) => {
        if (item && typeof item === 'object') sites.push(...sitesOf(element.shape as Record<string, z.ZodType>, item as Record<string, unknown>, `${prefix}${key}[${i}].`, registry));
      });
    }
  }
  return sites;
}

const describe = (c: Candidate) => `${c.symbol || '?'} "${c.name}" (${c.id})`;

/** The indexer's assets (first page, up to its cap), or none without an indexer. */
async function candidates(ctx: ToolContext): Promise<Candidate[]> {
  if (!ctx.config.indexerUrl) return [];
  const raw = (await ctx.indexer('/v2/assets', [['limit', '5000']])) as { assets?: unknown };
  const list = Array.isArray(raw?.assets) ? raw.assets : [];
  return list.map((a) => {
    const r = (a ?? {}) as Record<string, unknown>;
    return { id: String(r.id ?? ''), symbol: String(r.symbol ?? ''), name: String(r.name ?? '') };
  });
}

const isCb58Shaped = (t: string) => /^[1-9A-HJ-NP-Za-km-z]+$/.test(t);

/** A well-formed asset ID, standing in for a name while the rest of the input is checked. */
const PLACEHOLDER = '11111111111111111111111111111111LpoYY';

export async function resolveAssetNames(input: AnyObject, args: unknown, ctx: ToolContext, validate: (args: unknown) => void): Promise<unknown> {
  if (!args || typeof args !== 'object') return args;
  const nameSites = (a: Record<string, unknown>) => sitesOf(input.shape as Record<string, z.ZodType>, a).filter((s) => !isCb58Id(String(s.holder[s.key])));
  // Most calls name no asset: the input is copied (to be rewritten) only when one does.
  if (nameSites(args as Record<string, unknown>).length === 0) return args;
  const copy = structuredClone(args) as Record<string, unknown>;
  const sites = nameSites(copy);
  // Every other field is checked first, so a malformed input is refused before any lookup.
  const placeholder = structuredClone(copy);
  const shape = input.shape as Record<string, z.ZodType>;
  for (const s of sitesOf(shape, placeholder)) if (!isCb58Id(String(s.holder[s.key]))) s.holder[s.key] = PLACEHOLDER;
  // Display amounts ("1.5 CAM") are converted later, once the asset is known.
  for (const s of sitesOf(shape, placeholder, '', displayAmountFields)) if (DISPLAY_AMOUNT.test(String(s.holder[s.key]))) s.holder[s.key] = '1';
  validate(placeholder);
  const aliasShaped = (t: string) => /^[A-Za-z][A-Za-z0-9]{0,15}$/.test(t);
  // An alias-shaped name goes to the node as it is unless the indexer knows an asset by it: no
  // request is spent on "CAM" when there is no indexer to name other assets.
  let known: Candidate[] | undefined;
  const named = async (t: string) => {
    known ??= await candidates(ctx);
    return known.some((c) => [c.symbol, c.name].some((n) => n.toLowerCase() === t.toLowerCase() || (skeleton(n) !== '' && skeleton(n) === skeleton(t))));
  };
  const todo = [];
  let network: Awaited<ReturnType<ToolContext['network']>> | undefined;
  for (const site of sites) {
    const text = String(site.holder[site.key]).trim();
    // Without an indexer there are no names to resolve: the schema refuses what is no ID or alias.
    if (!ctx.config.indexerUrl) continue;
    // The native symbol is the node's (its network and avm.getAssetDescription), never the
    // indexer's: an indexer that is down, or lists a token of the same symbol, does not change it.
    network ??= await ctx.network();
    if (network.assetSymbol !== '' && text.toLowerCase() === network.assetSymbol.toLowerCase()) {
      site.holder[site.key] = network.assetSymbol;
      continue;
    }
    // Only what reads as a name: a mistyped ID or stray symbols are left to the schema's refusal.
    const nameShaped = text.length <= 40 && /^[\p{L}\p{N}][\p{L}\p{N} ._-]*$/u.test(text) && /\p{L}/u.test(text) && !(text.length >= 40 && isCb58Shaped(text)) && !/^([XPC]-|NodeID-|0x)/i.test(text);
    if (text !== '' && nameShaped && (!aliasShaped(text) || (await named(text)))) todo.push(site);
  }
  if (todo.length === 0) return copy;
  for (const site of todo) {
    const text = String(site.holder[site.key]).trim();
    if (text === '') continue;
    const wanted = skeleton(text);
    known ??= await candidates(ctx);
    // One asset carries exactly this symbol or name and none looks like it: its ID, with no node request.
    const exactFirst = known.filter((c) => c.symbol === text || c.name === text);
    const alikeFirst = known.filter((c) => !exactFirst.includes(c) && wanted !== '' && (skeleton(c.symbol) === wanted || skeleton(c.name) === wanted));
    if (exactFirst.length === 1 && alikeFirst.length === 0) {
      site.holder[site.key] = exactFirst[0]!.id;
      continue;
    }
    network ??= await ctx.network();
    if (text === network.assetSymbol) continue;
    const native = { id: network.assetID, symbol: network.assetSymbol, name: '' };
    // A look-alike of the native symbol ("CΑM" with a Greek alpha) is never the native asset.
    if (wanted !== '' && wanted === skeleton(network.assetSymbol) && text.toLowerCase() !== network.assetSymbol.toLowerCase()) {
      throw new InputError(site.path, `"${text}" only looks like the native ${network.assetSymbol}; give ${network.assetSymbol} or its ID ${network.assetID}.`);
    }
    if (text.toLowerCase() === network.assetSymbol.toLowerCase()) {
      site.holder[site.key] = network.assetSymbol;
      continue;
    }
    const exact = known.filter((c) => c.symbol.toLowerCase() === text.toLowerCase() || c.name.toLowerCase() === text.toLowerCase());
    const alike = known.filter((c) => !exact.includes(c) && wanted !== '' && (skeleton(c.symbol) === wanted || skeleton(c.name) === wanted));
    const all = [...exact, ...alike];
    if (exact.length === 1 && alike.length === 0 && exact[0]!.id !== native.id) {
      site.holder[site.key] = exact[0]!.id;
      continue;
    }
    if (all.length > 1) {
      throw new InputError(site.path, `"${text}" names or looks like ${all.length} assets: ${all.slice(0, 5).map(describe).join('; ')}${all.length > 5 ? '; …' : ''}. Give the asset ID.`);
    }
    if (alike.length === 1) {
      throw new InputError(site.path, `"${text}" only looks like ${describe(alike[0]!)}; give that asset's exact ID if you mean it.`);
    }
    // No match: a plain alias the node may still know; anything else is refused here.
    if (!/^[A-Za-z][A-Za-z0-9]{0,15}$/.test(text)) {
      throw new InputError(
        site.path,
        ctx.config.indexerUrl
          ? `no asset has the symbol or name "${text}"; give the asset ID (indexer_search finds assets).`
          : `"${text}" is not an asset ID; naming assets by symbol or name needs the indexer (CHAIN_MCP_INDEXER_URL). Give the asset ID.`,
      );
    }
  }
  return copy;
}
