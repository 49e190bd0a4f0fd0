import { z } from 'zod';
import { humanDuration } from '../codec/index.js';
import type { ToolContext } from '../core/tool.js';
import type { NetworkInfo } from '../context/network.js';
import { type AmountOut, assetAmount, nativeAmount } from './format.js';

/** Helpers shared by the platform, asset and contract chain toolsets. */

export const DurationOut = z.object({ seconds: z.string(), human: z.string() });
export type DurationOut = z.infer<typeof DurationOut>;

export function durationOut(seconds: bigint): DurationOut {
  return { seconds: seconds.toString(), human: humanDuration(seconds) };
}

/** The network, or a neutral stand-in when the node cannot tell (amounts then show no symbol). */
export async function networkOrBlank(ctx: ToolContext): Promise<NetworkInfo> {
  return ctx.network().catch(() => ({ networkID: '', hrp: '', assetSymbol: '', assetID: '', source: 'known-networks' as const }));
}

/**
 * An amount of any asset in display units: the native asset with 9 decimals and the
 * network's symbol, other assets with their own denomination and symbol (cached lookups).
 * `assetID` is the asset's ID even when the node named it by an alias (a real node's
 * avm.getAllBalances names the native asset "CAM"), and `native` says whether it is the
 * native asset. If the asset cannot be described, the raw value is shown without decimals.
 */
export async function amountOf(
  ctx: ToolContext,
  network: NetworkInfo,
  assetID: string,
  value: bigint,
): Promise<AmountOut & { symbol: string; assetID: string; native: boolean }> {
  if (assetID === network.assetID || (network.assetSymbol !== '' && assetID === network.assetSymbol)) {
    return { ...nativeAmount(value, network), symbol: network.assetSymbol, assetID: network.assetID || assetID, native: true };
  }
  try {
    const asset = await ctx.asset(assetID);
    // An alias other than the symbol (or a node whose configuration is unknown) still resolves to the native ID.
    if (network.assetID !== '' && asset.assetID === network.assetID) {
      return { ...nativeAmount(value, network), symbol: network.assetSymbol, assetID: asset.assetID, native: true };
    }
    return { ...assetAmount(value, asset, network), symbol: asset.symbol, assetID: asset.assetID, native: false };
  } catch {
    return { value: value.toString(), display: `${value} (units of ${assetID.slice(0, 12)}…)`, symbol: '', assetID, native: false };
  }
}

/** Transaction status words of the X, C (atomic) and P chains, explained. */
export const TX_STATUS_MEANING: Record<string, string> = {
  Accepted: 'final: the network accepted it',
  Committed: 'final: committed in an accepted P-Chain block',
  Aborted: 'final: the network decided against it; it changed nothing',
  Processing: 'not decided yet; check again shortly',
  Rejected: 'final: it will never be accepted; its inputs were not spent',
  Dropped: 'this node dropped it as invalid; it was not accepted',
  Unknown: 'not seen by this node (wrong chain, a typo, or not yet issued)',
};

export const BLOCKCHAIN_STATUS_MEANING: Record<string, string> = {
  Validating: 'validated by this node',
  Created: 'exists but is not validated by this node',
  Preferred: 'proposed and likely to be created; its transaction is not yet accepted',
  Syncing: 'this node participates as a non-validating node',
  Unknown: 'never proposed, or the proposal is not preferred; it may be resubmitted',
};

export function meaningOf(table: Record<string, string>, status: string): string {
  return table[status] ?? 'a status this server does not know';
}

/** Hex memo ("0x...") to text when it is printable UTF-8, else the hex. */
export function memoText(hexMemo: unknown): string {
  if (typeof hexMemo !== 'string' || hexMemo === '' || hexMemo === '0x') return '';
  const digits = hexMemo.startsWith('0x') ? hexMemo.slice(2) : hexMemo;
  if (!/^(?:[0-9a-fA-F]{2})*$/.test(digits)) return hexMemo;
  const bytes = Buffer.from(digits, 'hex');
  try {
    const text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    const binary = [...bytes].some((b) => (b < 0x20 && b !== 0x09 && b !== 0x0a && b !== 0x0d) || b === 0x7f);
    return binary ? hexMemo : text;
  } catch {
    return hexMemo;
  }
}
