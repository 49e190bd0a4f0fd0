import { z } from 'zod';
import { type ByteEncoding, decodeEncoded, hexChecksumEncode, impliedEncoding, parseChainAddress } from '../codec/index.js';
import { type AssetInfo, KNOWN_NETWORKS, type NetworkInfo } from '../context/network.js';
import { ChainMcpError, InputError } from '../errors.js';
import type { SpendPlan, ToolContext } from '../core/tool.js';
import { assetAmount, big, nativeAmount } from '../summarize/format.js';
import { decodeUtxo } from '../summarize/utxo.js';
import { atomicFee, boundedBaseFee, importGas } from './atomic-fee.js';

/**
 * Shared pieces of spend previews (DESIGN "Confirmation of spends", 2): the keystore
 * credentials, fees, the user's addresses and balances, the asset behind an ID, and the
 * spec's rules that need the clock or the node. Everything here only reads.
 */

/** The Primary Network's subnet ID (all ones). */
export const PRIMARY_NETWORK = '11111111111111111111111111111111LpoYY';
export const NATIVE_UNIT = 10n ** 9n;
/** Spec document 3: no validator ever holds more than min(5 x own stake, 3 million native units). */
export const WEIGHT_CAP_UNITS = 3_000_000n * NATIVE_UNIT;
export const MIN_STAKE_SECONDS = 14 * 24 * 3600;
export const MAX_STAKE_SECONDS = 365 * 24 * 3600;
export const MIN_DELEGATION_FEE = 2;
/** Spec document 3: the validator stake is fixed on the main and test networks. */
export const FIXED_VALIDATOR_STAKE: Readonly<Record<string, bigint>> = { '1000': 100_000_000_000_000n, '1001': 2_000_000_000_000n };

/** Address state values of the spec's table (document 3, section 2). */
export const ADDRESS_STATES = {
  AddressStateRoleAdmin: 0,
  AddressStateRoleKyc: 1,
  AddressStateKycVerified: 32,
  AddressStateKycExpired: 33,
  AddressStateConsortium: 38,
  AddressStateNodeDeferred: 39,
} as const;

/** Unix seconds as a tool input: a whole number or decimal digits. */
export const unixSeconds = (description: string) =>
  z
    .union([z.number(), z.string()])
    // Checked in the transform so the listing shows a plain type list.
    .transform((v, ctx) => {
      const text = String(v);
      if (!/^\d{1,15}$/.test(text)) {
        ctx.addIssue({ code: 'custom', message: 'expected Unix seconds as a whole number' });
        return z.NEVER;
      }
      return Number(text);
    })
    .describe(description);

export function credentials(ctx: ToolContext): { username: string; password: string } {
  const keystore = ctx.config.keystore;
  if (!keystore) {
    throw new ChainMcpError('not_configured', 'No keystore user is configured.', {
      hint: 'Set CHAIN_MCP_KEYSTORE_USER and CHAIN_MCP_KEYSTORE_PASSWORD in the server environment.',
    });
  }
  return { username: keystore.username, password: keystore.password };
}

export async function txFees(ctx: ToolContext): Promise<{ txFee: bigint; creationTxFee: bigint }> {
  return readTxFees(await ctx.rpc('info', 'info.getTxFee', {}, { retry: true }));
}

/** info.getTxFee: a real node names the asset creation fee `createAssetTxFee`, the spec `creationTxFee` (docs/real-nodes.md). */
export function readTxFees(raw: unknown): { txFee: bigint; creationTxFee: bigint } {
  const r = (raw ?? {}) as Record<string, unknown>;
  return { txFee: big(r.txFee), creationTxFee: big(r.createAssetTxFee ?? r.creationTxFee) };
}

/** The addresses a spend draws on: `from` when given, else all of the keystore user's X addresses. */
export async function userXAddresses(ctx: ToolContext, from?: readonly string[]): Promise<string[]> {
  if (from && from.length > 0) return [...from];
  const raw = (await ctx.rpc('xvm', 'xvm.listAddresses', { ...credentials(ctx) }, { retry: true })) as { addresses?: unknown };
  return Array.isArray(raw?.addresses) ? raw.addresses.filter((a): a is string => typeof a === 'string') : [];
}

/** X address -> the same key's address on another chain (same bech32 payload). */
export function onChain(address: string, chain: 'X' | 'P' | 'C'): string {
  return `${chain}-${address.slice(address.indexOf('-') + 1)}`;
}

export interface ResolvedAsset {
  native: boolean;
  info: AssetInfo;
  show(value: bigint): string;
}

/** Whether `assetID` (ID or alias) is the native asset, and how to display its amounts. */
export async function resolveAsset(ctx: ToolContext, assetID: string, network: NetworkInfo): Promise<ResolvedAsset> {
  const nativeByName = assetID === network.assetID || (network.assetSymbol !== '' && assetID === network.assetSymbol);
  let info: AssetInfo | undefined;
  try {
    info = await ctx.asset(assetID);
  } catch (err) {
    if ((err as { kind?: string }).kind !== 'rpc') throw err;
    if (!nativeByName) throw new InputError('assetID', `the node does not know asset ${assetID} (${(err as Error).message})`);
  }
  const native = nativeByName || (info !== undefined && network.assetID !== '' && info.assetID === network.assetID);
  if (native) return { native, info: info ?? { assetID, name: '', symbol: network.assetSymbol, denomination: 9 }, show: (v) => nativeAmount(v, network).display };
  const known = info!;
  return { native, info: known, show: (v) => assetAmount(v, known, network).display };
}

/** Sum of an asset over X addresses, or undefined when the node would not say. */
export async function xBalance(ctx: ToolContext, addresses: readonly string[], assetID: string): Promise<bigint | undefined> {
  if (addresses.length === 0 || addresses.length > 40) return undefined;
  const answers = await Promise.allSettled(addresses.map((address) => ctx.rpc('xvm', 'xvm.getBalance', { address, assetID }, { retry: true })));
  let total = 0n;
  for (const a of answers) {
    if (a.status !== 'fulfilled') return undefined;
    total += big((a.value as { balance?: unknown })?.balance);
  }
  return total;
}

/** Unlocked native balance of P addresses, or undefined when unknown. */
export async function pUnlocked(ctx: ToolContext, addresses: readonly string[], assetID: string): Promise<bigint | undefined> {
  if (addresses.length === 0) return undefined;
  try {
    const raw = (await ctx.rpc('platform', 'platform.getBalance', { addresses }, { retry: true })) as Record<string, unknown>;
    const pick = (map: unknown): bigint | undefined => {
      if (!map || typeof map !== 'object') return undefined;
      const entries = Object.entries(map as Record<string, unknown>);
      const hit = entries.find(([k]) => k === assetID) ?? (entries.length === 1 ? entries[0] : undefined);
      return hit ? big(hit[1]) : undefined;
    };
    return pick(raw.unlockedOutputs) ?? pick(raw.balances);
  } catch {
    return undefined;
  }
}

/** "You end with ..." line, only where the balance is known. */
export function endsWithLine(before: bigint | undefined, leaving: bigint, show: (v: bigint) => string): string {
  if (before === undefined) return 'Balance after: unknown (the node did not report the balance).';
  if (before < leaving) return `Balance after: not enough funds: you hold ${show(before)} but this needs ${show(leaving)}; the node will refuse it.`;
  return `Balance after: ${show(before - leaving)} (now ${show(before)}).`;
}

/** Bytes given in one of the node's encodings (cb58 or 0x-hex when none is named), checksum verified; refused naming `field`. */
function decodeInput(field: string, data: string, encoding: ByteEncoding | undefined): Uint8Array {
  const named = impliedEncoding(data, encoding);
  try {
    return decodeEncoded(data, named);
  } catch (err) {
    throw new InputError(field, `not valid ${named}: ${(err as Error).message}`);
  }
}

/** The bytes the caller gave (signed bytes to issue), refused naming `field` when they do not decode. */
export function inputBytes(field: string, data: string, encoding: ByteEncoding | undefined): Uint8Array {
  return decodeInput(field, data, encoding);
}

/** Payload size of bytes given by the caller, refused here (naming `field`) before any request; the size excludes a checksum. */
export function payloadBytes(field: string, data: string, encoding: ByteEncoding | undefined): number {
  return decodeInput(field, data, encoding).length;
}

/**
 * The same bytes as a Camino node reads them: hex with checksum. A real node refuses cb58
 * (utils/formatting/encoding.go) and a spec node takes hex too, so spends always send hex.
 */
export function nodeHex(field: string, data: string, encoding: ByteEncoding | undefined): { encoding: 'hex'; data: string } {
  return { encoding: 'hex', data: hexChecksumEncode(decodeInput(field, data, encoding)) };
}

/** Validation period rules of `platform.addValidator` (2 weeks to 1 year, starting in the future). */
export function checkPeriod(startTime: number, endTime: number, nowMs: number, limits = true): void {
  const now = Math.floor(nowMs / 1000);
  if (startTime <= now) throw new InputError('startTime', `must be in the future (now is ${now} Unix seconds)`);
  if (endTime <= startTime) throw new InputError('endTime', 'must be after startTime');
  if (!limits) return;
  const length = endTime - startTime;
  if (length < MIN_STAKE_SECONDS) throw new InputError('endTime', `the period must be at least 2 weeks (${MIN_STAKE_SECONDS} s); it is ${length} s`);
  if (length > MAX_STAKE_SECONDS) throw new InputError('endTime', `the period must be at most 1 year (${MAX_STAKE_SECONDS} s); it is ${length} s`);
}

/** The stake `platform.addValidator` must carry: the spec's fixed values, else the node's minimum. */
export async function requiredValidatorStake(ctx: ToolContext, network: NetworkInfo): Promise<bigint | undefined> {
  const fixed = FIXED_VALIDATOR_STAKE[network.networkID];
  if (fixed !== undefined) return fixed;
  const raw = (await ctx.rpc('platform', 'platform.getMinStake', {}, { retry: true }).catch(() => undefined)) as Record<string, unknown> | undefined;
  const min = big(raw?.minValidatorStake);
  return min > 0n ? min : undefined;
}

export async function minDelegatorStake(ctx: ToolContext): Promise<bigint> {
  const raw = (await ctx.rpc('platform', 'platform.getMinStake', {}, { retry: true }).catch(() => undefined)) as Record<string, unknown> | undefined;
  return big(raw?.minDelegatorStake);
}

interface Staker {
  startTime: number;
  endTime: number;
  stake: bigint;
  delegated: bigint;
}

/** The delegatee's period and weight (own stake plus current and pending delegations), current or pending. */
export async function findValidator(ctx: ToolContext, nodeID: string, subnetID?: string): Promise<Staker | undefined> {
  const params = subnetID ? { subnetID, nodeIDs: [nodeID] } : { nodeIDs: [nodeID] };
  const [current, pending] = (await Promise.all(
    ['platform.getCurrentValidators', 'platform.getPendingValidators'].map((m) => ctx.rpc('platform', m, params, { retry: true })),
  )) as Array<{ validators?: unknown; delegators?: unknown }>;
  const list = (raw: { validators?: unknown } | undefined) => (Array.isArray(raw?.validators) ? (raw.validators as Array<Record<string, unknown>>) : []);
  const v = list(current).find((x) => x.nodeID === nodeID) ?? list(pending).find((x) => x.nodeID === nodeID);
  if (!v) return undefined;
  const own = Array.isArray(v.delegators) ? (v.delegators as Array<Record<string, unknown>>) : [];
  const queued = Array.isArray(pending?.delegators) ? (pending.delegators as Array<Record<string, unknown>>).filter((d) => d.nodeID === nodeID) : [];
  const delegated = [...own, ...queued].reduce((sum, d) => sum + big(d.stakeAmount), 0n);
  return { startTime: Number(big(v.startTime)), endTime: Number(big(v.endTime)), stake: big(v.stakeAmount ?? v.weight), delegated };
}

/** Rules of `platform.addDelegator`: inside the delegatee's period, at least the minimum, under the cap. */
export async function checkDelegation(
  ctx: ToolContext,
  input: { nodeID: string; startTime: number; endTime: number; stakeAmount: bigint },
  network: NetworkInfo,
): Promise<{ validator: Staker; cap: bigint }> {
  const validator = await findValidator(ctx, input.nodeID);
  if (!validator) throw new InputError('nodeID', `${input.nodeID} is not a current or pending validator of the Primary Network`);
  if (input.startTime < validator.startTime || input.endTime > validator.endTime) {
    throw new InputError(
      'startTime',
      `the delegation period ${input.startTime}-${input.endTime} must lie inside the validator's period ${validator.startTime}-${validator.endTime}`,
    );
  }
  const min = await minDelegatorStake(ctx);
  if (input.stakeAmount < min) throw new InputError('stakeAmount', `must be at least the minimum delegator stake ${nativeAmount(min, network).display}`);
  const cap = validator.stake * 5n < WEIGHT_CAP_UNITS ? validator.stake * 5n : WEIGHT_CAP_UNITS;
  const total = validator.stake + validator.delegated + input.stakeAmount;
  if (total > cap) {
    const room = cap - validator.stake - validator.delegated;
    throw new InputError(
      'stakeAmount',
      `the validator's total weight would be ${nativeAmount(total, network).display}, over its cap ${nativeAmount(cap, network).display} (min(5 x own stake, 3,000,000)); at most ${nativeAmount(room > 0n ? room : 0n, network).display} can still be delegated`,
    );
  }
  return { validator, cap };
}

/** The bech32 prefix of an address input, for messages. */
export function hrpOf(address: string): string {
  return parseChainAddress(address).hrp;
}

/** The first preview lines: which network and which addresses pay. */
export function headLines(network: NetworkInfo, from: readonly string[] | undefined, chain = 'X'): string[] {
  return [
    `Network: ${KNOWN_NETWORKS[network.networkID]?.name ?? 'network'} ${network.networkID} (prefix ${network.hrp}), chain ${chain}`,
    `From: ${from && from.length > 0 ? from.join(', ') : "any of the keystore user's addresses"}`,
  ];
}

/** How an address that should be the user's is marked: yours, NOT yours, or cannot be told. */
export async function ownMark(ctx: ToolContext, address: string): Promise<string> {
  const own = await ctx.ownAddress?.(address);
  if (own === true) return `${address} (your address)`;
  if (own === false) return `${address} (NOT your address)`;
  return `${address} (cannot be checked as yours)`;
}

/** The change line every UTXO spend shows: where what is left of the spent outputs goes. */
export async function changeLine(ctx: ToolContext, changeAddr: string | undefined): Promise<string> {
  return changeAddr === undefined ? "Change to: one of your addresses (the node picks)" : `Change to: ${await ownMark(ctx, changeAddr)}`;
}

export function feeLine(fee: bigint, network: NetworkInfo): string {
  return `Fee: ${nativeAmount(fee, network).display}`;
}


/** What waits in shared memory for an import: output count, native total, signatures per output and assets; undefined when unknown. */
export interface AtomicWaiting {
  count: number;
  native: bigint;
  /** Signatures each output needs (its threshold), in listing order. */
  signatures: number[];
  /** Distinct assets: an import into C makes one EVM output per asset. */
  assets: number;
}

export async function atomicWaiting(
  ctx: ToolContext,
  endpoint: 'xvm' | 'cx',
  addresses: readonly string[],
  sourceChain: string,
  network: NetworkInfo,
  chain?: string,
): Promise<AtomicWaiting | undefined> {
  if (addresses.length === 0) return undefined;
  try {
    const method = endpoint === 'xvm' ? 'xvm.getUTXOs' : 'cx.getUTXOs';
    const raw = (await ctx.rpc(endpoint, method, { addresses, limit: 1024, sourceChain }, { retry: true, chain })) as { utxos?: unknown };
    const utxos = (Array.isArray(raw?.utxos) ? raw.utxos : []).map((u) => decodeUtxo(String(u), network.hrp)).filter((u) => u !== undefined);
    const native = utxos.filter((u) => u.assetID === network.assetID).reduce((sum, u) => sum + BigInt(u.amount ?? '0'), 0n);
    return { count: utxos.length, native, signatures: utxos.map((u) => Math.max(1, u.threshold ?? 1)), assets: new Set(utxos.map((u) => u.assetID)).size };
  } catch {
    return undefined;
  }
}

/** The preview line of an import; `upTo` when the fee is a maximum (a C import the node builds). */
export function importLine(waiting: { count: number; native: bigint } | undefined, fee: bigint, network: NetworkInfo, from: string, upTo = false): string {
  if (!waiting) return `Imports: everything exported from chain ${from} (the node did not list it here).`;
  if (waiting.count === 0) return `Imports: nothing is waiting from chain ${from}; the node will refuse until the export is accepted.`;
  const after = waiting.native > fee ? waiting.native - fee : 0n;
  return `Imports: ${waiting.count} output(s) from chain ${from}, ${nativeAmount(waiting.native, network).display}; you receive ${upTo ? 'at least' : 'about'} ${nativeAmount(after, network).display} after the fee.`;
}

/** The fee line of a C-Chain atomic spend: the most it can burn, and how that follows from gas and base fee. */
export function atomicFeeLine(fee: bigint, gas: bigint, baseFee: bigint, current: bigint, network: NetworkInfo): string {
  return `Fee: at most ${nativeAmount(fee, network).display}, burnt on C (gas at most ${gas} x base fee ${baseFee} wei; the node's current base fee is ${current} wei)`;
}

/**
 * Preview of an import on X (`xvm.import`): network, recipient, what waits in shared memory for
 * `waitingOn`, and the X fee.
 */
export async function importPlan(
  ctx: ToolContext,
  opts: { to: string; sourceChain: string; chain?: string; waitingOn: readonly string[] },
): Promise<SpendPlan> {
  const network = await ctx.network();
  const { txFee } = await txFees(ctx);
  const waiting = await atomicWaiting(ctx, 'xvm', opts.waitingOn, opts.sourceChain, network, opts.chain);
  return {
    lines: [
      ...headLines(network, undefined, 'X').slice(0, 1),
      `To: ${await ownMark(ctx, opts.to)}`,
      importLine(waiting, txFee, network, opts.sourceChain),
      feeLine(txFee, network),
    ],
    details: { to: opts.to, sourceChain: opts.sourceChain, ...(waiting ? { amount: waiting.native.toString() } : {}) },
    fee: txFee,
  };
}

/**
 * Preview of an import into C (`cx.import`): the node builds it from every output waiting, so
 * the fee is bounded by those outputs (their signatures and assets) at the bounded base fee.
 * Without the list the fee has no bound, and the import is refused before anything is sent.
 */
export async function cImportPlan(
  ctx: ToolContext,
  opts: { to: string; sourceChain: string; chain?: string; waitingOn: readonly string[]; baseFee: bigint | undefined },
): Promise<SpendPlan> {
  const network = await ctx.network();
  const { baseFee, current } = await boundedBaseFee(ctx, opts.baseFee, opts.chain);
  // A user with no addresses has nothing waiting: the node will refuse, and there is no fee.
  const none: AtomicWaiting = { count: 0, native: 0n, signatures: [], assets: 0 };
  const waiting = opts.waitingOn.length === 0 ? none : await atomicWaiting(ctx, 'cx', opts.waitingOn, opts.sourceChain, network, opts.chain);
  if (!waiting) {
    throw new ChainMcpError('policy', `The node did not list the outputs waiting on C from chain ${opts.sourceChain}, so the import's fee has no bound; nothing was sent.`, {
      hint: 'Try again when cx_getUTXOs answers for your addresses.',
    });
  }
  const gas = importGas(waiting.signatures, Math.max(1, waiting.assets));
  const fee = atomicFee(gas, baseFee);
  return {
    lines: [
      ...headLines(network, undefined, 'C').slice(0, 1),
      `To: ${await ownMark(ctx, opts.to)}`,
      importLine(waiting, fee, network, opts.sourceChain, true),
      `${atomicFeeLine(fee, gas, baseFee, current, network)}; taken from the imported funds`,
    ],
    details: { to: opts.to, sourceChain: opts.sourceChain, amount: waiting.native.toString(), maxFee: fee.toString(), baseFeeWei: baseFee.toString() },
    fee,
    send: { baseFee },
  };
}

/** An amount for a result line in display units, falling back to smallest units when the asset cannot be looked up. */
export async function shownAmount(ctx: ToolContext, assetID: string, amount: bigint): Promise<string> {
  try {
    return (await resolveAsset(ctx, assetID, await ctx.network())).show(amount);
  } catch {
    return `${amount} units of ${assetID}`;
  }
}
