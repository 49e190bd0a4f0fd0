import { z } from 'zod';
import { formatAmount, parseUnits } from '../codec/index.js';
import { NATIVE_DECIMALS, type NetworkInfo } from '../context/network.js';
import { type AmountAsset, DISPLAY_AMOUNT, displayAmountFields } from '../core/fields.js';
import type { AnyObject, ToolContext } from '../core/tool.js';
import { InputError } from '../errors.js';
import { quote } from '../summarize/stranger.js';

/**
 * Amounts as people write them (issue 22): a spend's amount field takes the smallest unit as
 * digits ("1500000000", as always) or a display amount with the asset's symbol ("1.5 CAM"),
 * converted here with the asset's denomination before the input is parsed, so limits, preview,
 * confirmation and request all see the same whole number. The preview then shows both forms and
 * flags a likely unit mistake. One place for every spend entry: the fields say which asset they
 * count through `amount(…, asset)` in src/core/fields.ts.
 *
 * Likely unit mistake (documented choice): a native amount below the transaction fee, or any
 * amount below one millionth of one whole unit of its asset (for CAM: under 1,000 nCAM).
 */

/** One amount field found in the arguments, with the asset it counts. */
interface AmountSite {
  path: string;
  holder: Record<string, unknown>;
  key: string;
  asset: AmountAsset;
}

/** How one amount reads in both forms, for the preview. */
export interface AmountFact {
  path: string;
  units: bigint;
  decimals: number;
  symbol: string;
  native: boolean;
  /** The display amount the caller wrote, when they wrote one. */
  given?: string;
}

type Shape = Record<string, z.ZodType>;

function unwrap(schema: z.ZodType): z.ZodType {
  let inner = schema;
  while (inner instanceof z.ZodOptional || inner instanceof z.ZodDefault || inner instanceof z.ZodNullable) inner = inner.unwrap() as z.ZodType;
  return inner;
}

/** Every registered amount field present in `args`, top level and inside arrays of objects (sendMultiple's outputs). */
function sitesOf(shape: Shape, args: Record<string, unknown>, prefix = ''): AmountSite[] {
  const sites: AmountSite[] = [];
  for (const [key, field] of Object.entries(shape)) {
    const value = args[key];
    if (value === undefined) continue;
    const meta = displayAmountFields.get(field) ?? displayAmountFields.get(unwrap(field));
    if (meta) {
      sites.push({ path: `${prefix}${key}`, holder: args, key, asset: meta.asset });
      continue;
    }
    const inner = unwrap(field);
    if (inner instanceof z.ZodArray && Array.isArray(value)) {
      const element = unwrap(inner.element as z.ZodType);
      if (!(element instanceof z.ZodObject)) continue;
      value.forEach((item, i) => {
        if (item && typeof item === 'object') sites.push(...sitesOf(element.shape as Shape, item as Record<string, unknown>, `${prefix}${key}[${i}].`));
      });
    }
  }
  return sites;
}

interface AssetUnits {
  decimals: number;
  symbol: string;
  native: boolean;
}

/** The asset an amount field counts: the native one, or the ID/alias in its sibling field. */
async function assetOf(site: AmountSite, ctx: ToolContext, network: NetworkInfo): Promise<AssetUnits | undefined> {
  const native: AssetUnits = { decimals: NATIVE_DECIMALS, symbol: network.assetSymbol, native: true };
  if (site.asset === 'native') return native;
  const id = site.holder[site.asset.field];
  if (typeof id !== 'string' || id === '') return undefined;
  if (id === network.assetID || (network.assetSymbol !== '' && id === network.assetSymbol)) return native;
  try {
    const info = await ctx.asset(id);
    if (network.assetID !== '' && info.assetID === network.assetID) return native;
    return { decimals: info.denomination, symbol: info.symbol, native: false };
  } catch {
    return undefined;
  }
}

const sameSymbol = (a: string, b: string) => a !== '' && a.toLowerCase() === b.toLowerCase();

/** "1.5 CAM" -> 1500000000 for an asset with 9 decimals; refuses another symbol, naming the field. */
function convert(site: AmountSite, text: string, asset: AssetUnits | undefined): bigint {
  const [, number = '', symbol = ''] = DISPLAY_AMOUNT.exec(text) ?? [];
  if (!/\d/.test(number)) throw new InputError(site.path, `expected nCAM digits or an amount with its symbol such as "1.5 CAM", got ${quote(text, 40)}`);
  if (!asset) throw new InputError(site.path, `cannot convert ${quote(text, 40)}: the asset's denomination is unknown; give the amount in its smallest unit (digits)`);
  let decimals: number;
  if (sameSymbol(asset.symbol, symbol)) decimals = asset.decimals;
  else if (asset.native && sameSymbol(`n${asset.symbol}`, symbol)) decimals = 0;
  else {
    const mine = asset.symbol ? `${asset.native ? '' : "the asset's "}symbol ${quote(asset.symbol, 16)}` : 'no symbol';
    throw new InputError(site.path, `${quote(symbol, 16)} is not this asset's symbol (it has ${mine}); write the amount with that symbol or in its smallest unit (digits)`);
  }
  let units: bigint;
  try {
    units = parseUnits(number.replaceAll(',', ''), decimals);
  } catch (err) {
    throw new InputError(site.path, `${quote(text, 40)}: ${(err as Error).message}`);
  }
  if (units <= 0n) throw new InputError(site.path, 'expected a positive amount');
  return units;
}

const isDisplay = (v: unknown): v is string => typeof v === 'string' && /[A-Za-z]/.test(v);

/**
 * Arguments with every display amount replaced by its smallest-unit digits, and what was given.
 * `validate` parses the arguments first with placeholders, so a malformed input is refused before
 * the lookups these conversions need (the network, the asset's denomination).
 */
export async function resolveDisplayAmounts(
  input: AnyObject,
  args: unknown,
  ctx: ToolContext,
  validate: (args: unknown) => void,
): Promise<{ args: unknown; given: Map<string, string> }> {
  const given = new Map<string, string>();
  if (!args || typeof args !== 'object') return { args, given };
  // Most calls hold no display amount: they are looked at, not copied (a copy per call is most of this function's cost).
  if (!sitesOf(input.shape as Shape, args as Record<string, unknown>).some((s) => isDisplay(s.holder[s.key]))) return { args, given };
  const copy = structuredClone(args) as Record<string, unknown>;
  const sites = sitesOf(input.shape as Shape, copy).filter((s) => isDisplay(s.holder[s.key]));
  if (sites.length === 0) return { args, given };
  const placeholder = structuredClone(copy);
  for (const s of sitesOf(input.shape as Shape, placeholder)) if (isDisplay(s.holder[s.key])) s.holder[s.key] = '1';
  validate(placeholder);
  const network = await ctx.network();
  for (const site of sites) {
    const text = String(site.holder[site.key]);
    site.holder[site.key] = convert(site, text, await assetOf(site, ctx, network)).toString();
    given.set(site.path, text.trim());
  }
  return { args: copy, given };
}

/** Each amount of the parsed input in both forms, with the display amount the caller wrote. */
export async function amountFacts(input: AnyObject, args: Record<string, unknown>, ctx: ToolContext, given: ReadonlyMap<string, string>): Promise<AmountFact[]> {
  const sites = sitesOf(input.shape as Shape, args);
  if (sites.length === 0) return [];
  const network = await ctx.network();
  const facts: AmountFact[] = [];
  for (const site of sites) {
    const value = site.holder[site.key];
    if (typeof value !== 'bigint') continue;
    const asset = await assetOf(site, ctx, network);
    if (!asset) continue;
    const text = given.get(site.path);
    facts.push({ path: site.path, units: value, decimals: asset.decimals, symbol: asset.symbol, native: asset.native, ...(text ? { given: text } : {}) });
  }
  return facts;
}

/** "1.5 CAM = 1,500,000,000 nCAM"; a non-native asset's symbol is quoted (strangers choose symbols). */
function bothForms(f: AmountFact): string {
  const display = formatAmount(f.units, { decimals: f.decimals });
  const symbol = f.native ? f.symbol : f.symbol ? quote(f.symbol, 16) : '';
  const small = formatAmount(f.units, { decimals: 0 });
  const smallUnit = f.native && f.symbol ? `n${f.symbol}` : 'smallest units';
  return `${display}${symbol ? ` ${symbol}` : ''} = ${small} ${smallUnit}`;
}

const MAX_LINES = 5;

/**
 * Preview lines: each amount in both forms (with what the caller wrote), then a warning when an
 * amount is likely in the wrong unit: native below the fee, or below a millionth of one whole unit.
 */
export function amountLines(facts: readonly AmountFact[], fee: bigint | undefined): string[] {
  const lines = facts.slice(0, MAX_LINES).map((f) => `Amount in both units${facts.length > 1 ? ` (${f.path})` : ''}: ${bothForms(f)}${f.given ? ` (you wrote ${quote(f.given, 40)})` : ''}`);
  if (facts.length > MAX_LINES) lines.push(`… and ${facts.length - MAX_LINES} more amount(s)`);
  for (const f of facts) {
    const tiny = f.decimals >= 6 && f.units < 10n ** BigInt(f.decimals - 6);
    const belowFee = f.native && fee !== undefined && f.units < fee;
    if (!tiny && !belowFee) continue;
    const why = belowFee ? `less than the fee (${formatAmount(fee!, { decimals: f.decimals, symbol: f.symbol || undefined })})` : 'less than a millionth of one whole unit';
    const hint = f.native && f.symbol ? `Digits without a symbol are n${f.symbol} (1 ${f.symbol} = 1,000,000,000 n${f.symbol}); to send 1 ${f.symbol} write "1 ${f.symbol}".` : 'Digits without a symbol are the smallest unit.';
    lines.push(`LIKELY UNIT MISTAKE: ${bothForms(f)} is ${why}. ${hint}`);
    break;
  }
  return lines;
}
