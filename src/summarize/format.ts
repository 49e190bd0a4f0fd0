import { z } from 'zod';
import { formatAmount, tolerantBigInt, unixToIso } from '../codec/index.js';
import { type AssetInfo, NATIVE_DECIMALS, type NetworkInfo, WEI_DECIMALS } from '../context/network.js';
import { imitatesNative, imitationWarning, type NativeIdentity, quote, shortAsset } from './stranger.js';

/** An amount in results: the exact smallest-unit value as a decimal string, and a display form. */
export const AmountOut = z.object({
  value: z.string().describe('Smallest unit, decimal string.'),
  display: z.string().describe('Display units with symbol.'),
});
export type AmountOut = z.infer<typeof AmountOut>;

/** A point in time in results: Unix seconds as a decimal string and ISO 8601. */
export const TimeOut = z.object({ unix: z.string(), iso: z.string() });
export type TimeOut = z.infer<typeof TimeOut>;

export function nativeAmount(value: bigint, network: Pick<NetworkInfo, 'assetSymbol'>): AmountOut {
  return { value: value.toString(), display: formatAmount(value, { decimals: NATIVE_DECIMALS, symbol: network.assetSymbol || undefined }) };
}

/**
 * An amount of a non-native asset: its symbol quoted (strangers choose symbols), and a warning with
 * the asset's short ID when it imitates the native asset, so `5,000 "CAM"` never reads as native CAM.
 */
export function assetAmount(value: bigint, asset: Pick<AssetInfo, 'assetID' | 'denomination' | 'symbol' | 'name'>, native: NativeIdentity): AmountOut {
  const number = formatAmount(value, { decimals: asset.denomination });
  const label = asset.symbol ? quote(asset.symbol, 16) : `units of ${shortAsset(asset.assetID)}`;
  const warning = imitatesNative(asset, native) ? ` ${imitationWarning(asset.assetID, native)}` : '';
  return { value: value.toString(), display: `${number} ${label}${warning}` };
}

/** EVM values are wei: 18 decimals of the native asset. */
export function weiAmount(value: bigint, symbol: string): AmountOut {
  return { value: value.toString(), display: formatAmount(value, { decimals: WEI_DECIMALS, symbol: symbol || undefined }) };
}

export function timeOut(unix: unknown): TimeOut | undefined {
  const seconds = tolerantBigInt(unix);
  if (seconds === undefined) return undefined;
  try {
    return { unix: seconds.toString(), iso: unixToIso(seconds) };
  } catch {
    return undefined;
  }
}

/** Tolerant uint64 read of a node field (number, decimal string or hex); 0 when absent. */
export function big(value: unknown): bigint {
  return tolerantBigInt(value) ?? 0n;
}

/** First `max` items rendered one per line, then how many were left out. */
export function listLines<T>(items: readonly T[], max: number, render: (item: T) => string): string[] {
  const lines = items.slice(0, max).map((item) => `- ${render(item)}`);
  if (items.length > max) lines.push(`- … and ${items.length - max} more`);
  return lines;
}

/** Cuts text to a UTF-8 byte budget on a line boundary and says so. */
export function clipText(text: string, maxBytes: number): string {
  if (Buffer.byteLength(text, 'utf8') <= maxBytes) return text;
  const note = '\n… (cut to fit the output budget; use paging arguments or structuredContent for the rest)';
  let cut = Buffer.from(text, 'utf8').subarray(0, maxBytes - Buffer.byteLength(note)).toString('utf8');
  cut = cut.replace(/\uFFFD$/, '');
  const lastBreak = cut.lastIndexOf('\n');
  if (lastBreak > maxBytes / 2) cut = cut.slice(0, lastBreak);
  return cut + note;
}

/**
 * The encoding of bytes a node answered: as it says, else as asked, else as the text looks
 * (`0x…` is hex, a Camino node's default; other text cb58, a spec node's default).
 */
export function answeredEncoding(said: unknown, asked: string | undefined, sample: unknown): string {
  if (typeof said === 'string' && said !== '') return said;
  if (asked) return asked;
  if (typeof sample === 'string' && sample !== '') return sample.startsWith('0x') ? 'hex' : 'cb58';
  return sample !== null && typeof sample === 'object' ? 'json' : 'unknown';
}
