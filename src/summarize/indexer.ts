import { imitatesNative, imitationWarning, type NativeIdentity, quote } from './stranger.js';
import { z } from 'zod';
import type { ToolContext } from '../core/tool.js';
import { decodeBase64Text, formatAmount, isCb58Id, parseDateTime, tolerantBigInt } from '../codec/index.js';
import { NATIVE_DECIMALS, WEI_DECIMALS } from '../context/network.js';
import { ChainMcpError, HttpStatusError, InputError } from '../errors.js';
import { AmountOut, type TimeOut, timeOut } from './format.js';

/**
 * Indexer answers made readable: the indexer's own status and asset records (cached per
 * server process and configuration), amounts in display units, times as Unix + ISO.
 */

export interface IndexerChain {
  chainID: string;
  alias: string;
  vm: string;
  nativeAssetID: string;
}

export interface IndexerStatus {
  networkID: string;
  chains: IndexerChain[];
  /** Magellan's shape (it names the native asset `avaxAssetID`): its aggregate routes need a chainID. */
  magellan?: boolean;
}

export interface IndexerAsset {
  assetID: string;
  symbol: string;
  name: string;
  denomination: number;
  /** False when the indexer had no record: amounts are then shown in the smallest unit. */
  known: boolean;
  /** The native asset of a chain the indexer follows (its symbol is shown unquoted). */
  native?: boolean;
  /** Set when this non-native asset's symbol or name imitates the native asset's: what it imitates. */
  imitates?: NativeIdentity;
}

interface Cache {
  status?: Promise<IndexerStatus>;
  assets: Map<string, Promise<IndexerAsset>>;
}

/** One cache per configuration object, i.e. per server process; failures are not cached. */
const caches = new WeakMap<object, Cache>();

function cacheFor(ctx: ToolContext): Cache {
  let cache = caches.get(ctx.config);
  if (!cache) {
    cache = { assets: new Map() };
    caches.set(ctx.config, cache);
  }
  return cache;
}

const text = (v: unknown): string => (v === undefined || v === null ? '' : String(v));
const rec = (v: unknown): Record<string, unknown> => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {});
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

/**
 * GET /v2 (or GET /x, one chain). Magellan names the native asset `avaxAssetID` and writes aliases in
 * lower case (docs/real-nodes.md); the spec says `nativeAssetID`. Aliases are kept upper case (X, P, C).
 */
export function parseChain(raw: unknown, id = ''): IndexerChain {
  const chain = rec(raw);
  return {
    chainID: text(chain.chainID) || id,
    alias: text(chain.chainAlias).toUpperCase(),
    vm: text(chain.vm),
    nativeAssetID: text(chain.avaxAssetID ?? chain.nativeAssetID),
  };
}

export function parseStatus(raw: unknown): IndexerStatus {
  const r = rec(raw);
  const entries = Object.entries(rec(r.chains));
  const chains = entries.map(([id, c]) => parseChain(c, id));
  return { networkID: text(r.network_id ?? r.networkID), chains, magellan: entries.some(([, c]) => 'avaxAssetID' in rec(c)) };
}

/** GET /v2 once per process. */
export function indexerStatus(ctx: ToolContext): Promise<IndexerStatus> {
  const cache = cacheFor(ctx);
  if (!cache.status) {
    cache.status = Promise.resolve()
      .then(() => ctx.indexer('/v2'))
      .then(parseStatus)
      .catch((err: unknown) => {
        cache.status = undefined;
        throw err;
      });
  }
  return cache.status;
}

/** The status when it can be had; summaries degrade (chain IDs instead of aliases) when not. */
export async function statusOrEmpty(ctx: ToolContext): Promise<IndexerStatus> {
  try {
    return await indexerStatus(ctx);
  } catch (err) {
    if ((err as { kind?: string }).kind === 'not_configured') throw err;
    return { networkID: '', chains: [] };
  }
}

export function chainAlias(status: IndexerStatus, chainID: string): string {
  return status.chains.find((c) => c.chainID === chainID)?.alias ?? '';
}

/**
 * chainID inputs accept the cb58 ID or an alias the indexer reports (X, P, C); aliases are
 * replaced by IDs from GET /v2, because the indexer filters by ID.
 */
export async function resolveChainIds(ctx: ToolContext, values: readonly string[] | undefined): Promise<string[] | undefined> {
  if (!values || values.every(isId)) return values ? [...values] : undefined;
  const status = await indexerStatus(ctx);
  return values.map((v: string, i) => {
    if (isId(v)) return v;
    const chain = status.chains.find((c) => c.alias.toLowerCase() === v.toLowerCase());
    if (!chain) {
      const known = status.chains.map((c) => c.alias).filter(Boolean).join(', ') || 'none';
      throw new InputError(`chainID[${i}]`, `unknown chain alias "${v}"; the indexer knows ${known}, or pass a chain ID (cb58).`);
    }
    return chain.chainID;
  });
}

const isId = (v: string): boolean => isCb58Id(v);

function fallbackAsset(assetID: string): IndexerAsset {
  return { assetID, symbol: '', name: '', denomination: 0, known: false };
}

export function parseAssetRecord(raw: unknown, assetID: string): IndexerAsset {
  const r = rec(raw);
  const denomination = Number(tolerantBigInt(r.denomination) ?? 0n);
  const known = r.id !== undefined || r.symbol !== undefined || r.denomination !== undefined;
  return {
    assetID: text(r.id) || assetID,
    symbol: text(r.symbol),
    name: text(r.name),
    denomination: Number.isSafeInteger(denomination) && denomination >= 0 && denomination <= 32 ? denomination : 0,
    known,
  };
}

/** An asset's symbol and denomination from the indexer's own record (GET /v2/assets/<id>), cached. */
export function indexerAsset(ctx: ToolContext, assetID: string): Promise<IndexerAsset> {
  if (!assetID) return Promise.resolve(fallbackAsset(assetID));
  const cache = cacheFor(ctx);
  let entry = cache.assets.get(assetID);
  if (!entry) {
    entry = Promise.resolve()
      .then(() => ctx.indexer(`/v2/assets/${encodeURIComponent(assetID)}`))
      .then(async (raw) => {
        if (raw === null || typeof raw !== 'object') throw new ChainMcpError('not_found', `asset ${assetID} unknown`);
        return flagImitation(ctx, parseAssetRecord(raw, assetID));
      });
    const stored = entry.catch((err: unknown) => {
      cache.assets.delete(assetID);
      throw err;
    });
    cache.assets.set(assetID, stored);
    entry = stored;
  }
  return entry.catch(() => fallbackAsset(assetID));
}

/** The native asset of the chains the indexer follows, for telling imitations; undefined when the indexer will not say. */
export async function nativeIdentity(ctx: ToolContext): Promise<NativeIdentity | undefined> {
  const status = await statusOrEmpty(ctx).catch(() => ({ networkID: '', chains: [] }) as IndexerStatus);
  const nativeID = status.chains.map((c) => c.nativeAssetID).find(Boolean);
  if (!nativeID) return undefined;
  const native = await indexerAsset(ctx, nativeID);
  return { assetID: nativeID, assetSymbol: native.symbol, name: native.name };
}

/** Marks an asset that passes itself off as the native asset of a chain the indexer follows. */
async function flagImitation(ctx: ToolContext, asset: IndexerAsset): Promise<IndexerAsset> {
  const status = await statusOrEmpty(ctx).catch(() => ({ networkID: '', chains: [] }) as IndexerStatus);
  const nativeIDs = new Set(status.chains.map((c) => c.nativeAssetID).filter(Boolean));
  if (nativeIDs.has(asset.assetID)) return { ...asset, native: true };
  const identity = await nativeIdentity(ctx);
  if (!identity) return asset;
  return imitatesNative(asset, identity) ? { ...asset, imitates: identity } : asset;
}

/** Resolves many assets at once; the map always has an entry per ID. */
export async function indexerAssets(ctx: ToolContext, ids: Iterable<string>): Promise<Map<string, IndexerAsset>> {
  const unique = [...new Set(ids)].filter(Boolean);
  const infos = await Promise.all(unique.map((id) => indexerAsset(ctx, id)));
  return new Map(unique.map((id, i) => [id, infos[i]!]));
}

export function shortId(id: string): string {
  return id.length > 14 ? `${id.slice(0, 8)}…${id.slice(-4)}` : id;
}

/** Amount of an asset in display units: "12.5 CAM", or "1200 (asset 2Fx…9aB, smallest unit)" when unknown. */
/** Non-native symbols are quoted (their creators chose them); native amounts go through nativeAmountOf. */
export function amountOf(value: unknown, asset: IndexerAsset | undefined): AmountOut {
  const v = tolerantBigInt(value) ?? 0n;
  if (!asset?.known) {
    return { value: v.toString(), display: `${formatAmount(v, { decimals: 0 })}${asset?.assetID ? ` (asset ${shortId(asset.assetID)}, smallest unit)` : ''}` };
  }
  const label = !asset.symbol ? shortId(asset.assetID) : asset.native ? asset.symbol : quote(asset.symbol, 16);
  const warning = asset.imitates ? ` ${imitationWarning(asset.assetID, asset.imitates)}` : '';
  return { value: v.toString(), display: `${formatAmount(v, { decimals: asset.denomination })} ${label}${warning}` };
}

export function nativeAmountOf(value: unknown, asset: IndexerAsset | undefined): AmountOut {
  const v = tolerantBigInt(value) ?? 0n;
  const decimals = asset?.known ? asset.denomination : NATIVE_DECIMALS;
  return { value: v.toString(), display: formatAmount(v, { decimals, symbol: asset?.symbol || undefined }) };
}

/** EVM values are wei (18 decimals of the native asset). */
export function weiOf(value: unknown, symbol: string): AmountOut {
  const v = tolerantBigInt(value) ?? 0n;
  return { value: v.toString(), display: formatAmount(v, { decimals: WEI_DECIMALS, symbol: symbol || undefined }) };
}

/** The indexer's timestamps are RFC 3339 strings (or Unix seconds). */
export function timeOf(value: unknown): TimeOut | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  try {
    const seconds = typeof value === 'number' || typeof value === 'string' ? parseDateTime(value) : undefined;
    return seconds === undefined ? undefined : timeOut(seconds);
  } catch {
    return undefined;
  }
}

export function isoShort(t: TimeOut | undefined): string {
  return t ? t.iso.replace('.000Z', 'Z') : '(no time)';
}

export function memoText(base64: unknown): string {
  const raw = text(base64);
  return raw ? decodeBase64Text(raw) : '';
}

/** A 404 or a `null` body for a by-ID request means the indexer does not know the ID. */
export function isNotFound(err: unknown): boolean {
  return (err instanceof HttpStatusError && err.status === 404) || (err as { kind?: string })?.kind === 'not_found';
}

export const AssetAmount = z.object({ assetID: z.string(), symbol: z.string(), amount: AmountOut });
export type AssetAmount = z.infer<typeof AssetAmount>;

/** `{assetID: "amount"}` maps as a list with display units, largest first. */
export function totalsList(map: unknown, assets: Map<string, IndexerAsset>): AssetAmount[] {
  return Object.entries(rec(map)).map(([assetID, amount]) => ({
    assetID,
    symbol: assets.get(assetID)?.symbol ?? '',
    amount: amountOf(amount, assets.get(assetID) ?? fallbackAsset(assetID)),
  }));
}

export const helpers = { text, rec, arr };
