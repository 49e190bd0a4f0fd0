import { z } from 'zod';
import { relativeTime, timeLeft } from '../codec/index.js';
import type { NetworkInfo } from '../context/network.js';
import { AmountOut, big, nativeAmount, TimeOut, timeOut } from './format.js';

/** Validators and delegators of platform.getCurrentValidators / getPendingValidators, normalized. */

const str = (v: unknown): string => (v === undefined || v === null ? '' : String(v));
const EPOCH: TimeOut = { unix: '0', iso: '1970-01-01T00:00:00.000Z' };

export const RewardOwnerOut = z.object({ locktime: z.string(), threshold: z.string(), addresses: z.array(z.string()) });

export const DelegatorOut = z.object({
  txID: z.string(),
  nodeID: z.string(),
  startTime: TimeOut,
  endTime: TimeOut,
  stakeAmount: AmountOut.optional(),
  potentialReward: AmountOut.optional(),
  rewardOwner: RewardOwnerOut.optional(),
});
export type DelegatorOut = z.infer<typeof DelegatorOut>;

export const ValidatorOut = z.object({
  txID: z.string(),
  nodeID: z.string(),
  startTime: TimeOut,
  endTime: TimeOut,
  stakeAmount: AmountOut.optional().describe('Primary network only.'),
  weight: z.string().optional().describe('Subnets only.'),
  potentialReward: AmountOut.optional(),
  delegationFee: z.string().optional().describe('Percent.'),
  uptime: z.string().optional().describe('Percent, as seen by the queried node.'),
  connected: z.boolean().optional(),
  rewardOwner: RewardOwnerOut.optional(),
  delegatorCount: z.number().optional().describe('Absent when the node did not report it.'),
  delegatedStake: AmountOut.optional(),
  delegatorsListed: z.boolean().describe('False when the node sent no delegator list (it lists them only for exactly one nodeID).'),
  delegators: z.array(DelegatorOut).describe('The first delegators (see delegatorLimit).'),
});
export type ValidatorOut = z.infer<typeof ValidatorOut>;

function rewardOwner(raw: unknown) {
  if (!raw || typeof raw !== 'object') return undefined;
  const r = raw as Record<string, unknown>;
  return {
    locktime: big(r.locktime).toString(),
    threshold: big(r.threshold).toString(),
    addresses: Array.isArray(r.addresses) ? r.addresses.map(str) : [],
  };
}

export function decodeDelegator(raw: unknown, network: Pick<NetworkInfo, 'assetSymbol'>): DelegatorOut {
  const r = (raw ?? {}) as Record<string, unknown>;
  const out: DelegatorOut = {
    txID: str(r.txID),
    nodeID: str(r.nodeID),
    startTime: timeOut(r.startTime) ?? EPOCH,
    endTime: timeOut(r.endTime) ?? EPOCH,
  };
  if (r.stakeAmount !== undefined) out.stakeAmount = nativeAmount(big(r.stakeAmount), network);
  if (r.potentialReward !== undefined) out.potentialReward = nativeAmount(big(r.potentialReward), network);
  const owner = rewardOwner(r.rewardOwner);
  if (owner) out.rewardOwner = owner;
  return out;
}

/**
 * One validator; `delegatorLimit` caps the delegators listed. A real node sends `delegatorCount` and
 * `delegatorWeight` for every primary-network validator but the `delegators` list only when exactly
 * one nodeID was asked (caminogo service.go); without either, the count is left out, never 0.
 */
export function decodeValidator(raw: unknown, network: Pick<NetworkInfo, 'assetSymbol'>, delegatorLimit: number, primary = true): ValidatorOut {
  const r = (raw ?? {}) as Record<string, unknown>;
  const list = Array.isArray(r.delegators) ? r.delegators : undefined;
  const delegators = list ?? [];
  let delegated = 0n;
  for (const d of delegators) delegated += big((d as Record<string, unknown>)?.stakeAmount ?? (d as Record<string, unknown>)?.weight);
  const count = r.delegatorCount !== undefined ? Number(big(r.delegatorCount)) : list?.length;
  const weight = r.delegatorWeight !== undefined ? big(r.delegatorWeight) : list ? delegated : undefined;
  const out: ValidatorOut = {
    txID: str(r.txID),
    nodeID: str(r.nodeID),
    startTime: timeOut(r.startTime) ?? EPOCH,
    endTime: timeOut(r.endTime) ?? EPOCH,
    ...(count !== undefined ? { delegatorCount: count } : {}),
    ...(weight !== undefined ? { delegatedStake: nativeAmount(weight, network) } : {}),
    delegatorsListed: list !== undefined,
    delegators: delegators.slice(0, delegatorLimit).map((d) => decodeDelegator(d, network)),
  };
  // A real node sends `weight` and the deprecated `stakeAmount` (= weight) for every staker
  // (caminogo service.go apiStaker): on a subnet that is a unitless sampling weight, not CAM.
  if (primary && r.stakeAmount !== undefined) out.stakeAmount = nativeAmount(big(r.stakeAmount), network);
  if (!primary && (r.weight !== undefined || r.stakeAmount !== undefined)) out.weight = big(r.weight ?? r.stakeAmount).toString();
  else if (r.weight !== undefined) out.weight = big(r.weight).toString();
  if (r.potentialReward !== undefined) out.potentialReward = nativeAmount(big(r.potentialReward), network);
  const fee = r.delegationFee ?? r.delegationFeeRate;
  if (fee !== undefined) out.delegationFee = trimPercent(fee);
  if (r.uptime !== undefined) out.uptime = trimPercent(r.uptime);
  if (typeof r.connected === 'boolean') out.connected = r.connected;
  const owner = rewardOwner(r.rewardOwner);
  if (owner) out.rewardOwner = owner;
  return out;
}

/** "2.0000" -> "2", "99.5000" -> "99.5"; non-numbers are kept as sent. */
export function trimPercent(value: unknown): string {
  const n = typeof value === 'number' ? value : Number(value);
  return Number.isFinite(n) ? String(Math.round(n * 10_000) / 10_000) : str(value);
}

export type ValidatorSort = 'endTime' | 'startTime' | 'stake' | 'uptime';

export function sortValidators(list: ValidatorOut[], by: ValidatorSort | undefined): ValidatorOut[] {
  if (!by) return list;
  const copy = [...list];
  const cmpBig = (a: bigint, b: bigint) => (a < b ? -1 : a > b ? 1 : 0);
  switch (by) {
    case 'endTime':
      return copy.sort((a, b) => cmpBig(BigInt(a.endTime.unix), BigInt(b.endTime.unix)));
    case 'startTime':
      return copy.sort((a, b) => cmpBig(BigInt(a.startTime.unix), BigInt(b.startTime.unix)));
    case 'stake':
      return copy.sort((a, b) => cmpBig(stakeOf(b), stakeOf(a)));
    case 'uptime':
      return copy.sort((a, b) => Number(a.uptime ?? 100) - Number(b.uptime ?? 100));
  }
}

/** Own stake (primary network) or weight (subnet). */
export function stakeOf(v: ValidatorOut): bigint {
  return v.stakeAmount ? BigInt(v.stakeAmount.value) : BigInt(v.weight ?? '0');
}

export const ValidatorSetStats = z.object({
  count: z.number(),
  connectedCount: z.number(),
  totalStake: AmountOut.describe('Own stake of all validators (primary network).'),
  totalWeight: z.string().describe('Sum of weights (subnets) or of stakes in the smallest unit.'),
  delegatorCount: z.number(),
  totalDelegated: AmountOut,
  delegatorsUnreported: z.number().describe('Validators whose delegators the node did not report; not in the totals.'),
});
export type ValidatorSetStats = z.infer<typeof ValidatorSetStats>;

export function validatorStats(all: ValidatorOut[], network: Pick<NetworkInfo, 'assetSymbol'>): ValidatorSetStats {
  let stake = 0n;
  let weight = 0n;
  let delegated = 0n;
  let delegators = 0;
  let unreported = 0;
  for (const v of all) {
    if (v.stakeAmount) stake += BigInt(v.stakeAmount.value);
    weight += stakeOf(v);
    if (v.delegatedStake) delegated += BigInt(v.delegatedStake.value);
    if (v.delegatorCount === undefined) unreported++;
    else delegators += v.delegatorCount;
  }
  return {
    count: all.length,
    connectedCount: all.filter((v) => v.connected === true).length,
    totalStake: nativeAmount(stake, network),
    totalWeight: weight.toString(),
    delegatorCount: delegators,
    totalDelegated: nativeAmount(delegated, network),
    delegatorsUnreported: unreported,
  };
}

/** One line per validator, short enough that 20 lines stay well under a kilobyte each. */
export function validatorLine(v: ValidatorOut, nowUnix: bigint, pending = false): string {
  const stake = v.stakeAmount ? `stake ${v.stakeAmount.display}` : `weight ${v.weight ?? '?'}`;
  const parts = [`${v.nodeID}: ${stake}`];
  if (v.delegatorCount) parts.push(`${v.delegatorCount} delegator(s)${v.delegatedStake ? ` with ${v.delegatedStake.display}` : ''}`);
  if (v.delegationFee !== undefined) parts.push(`fee ${v.delegationFee} %`);
  if (v.uptime !== undefined) parts.push(`uptime ${v.uptime} %`);
  if (v.connected === false) parts.push('NOT connected');
  if (pending) parts.push(`starts ${relative(BigInt(v.startTime.unix), nowUnix)}`);
  parts.push(timeLeft(BigInt(v.endTime.unix), nowUnix));
  return parts.join(', ');
}

function relative(at: bigint, now: bigint): string {
  return relativeTime(at, now);
}

export const ValidatorHighlights = z.object({
  endingSoonest: z.array(z.object({ nodeID: z.string(), endTime: TimeOut })).describe('Across all matching validators, not only the page.'),
  lowestUptime: z.array(z.object({ nodeID: z.string(), uptime: z.string() })),
  disconnected: z.array(z.string()).describe('First 10 node IDs not connected.'),
  disconnectedCount: z.number(),
});
export type ValidatorHighlights = z.infer<typeof ValidatorHighlights>;

export function validatorHighlights(all: ValidatorOut[]): ValidatorHighlights {
  const down = all.filter((v) => v.connected === false);
  return {
    endingSoonest: sortValidators(all, 'endTime')
      .slice(0, 3)
      .map((v) => ({ nodeID: v.nodeID, endTime: v.endTime })),
    lowestUptime: sortValidators(
      all.filter((v) => v.uptime !== undefined),
      'uptime',
    )
      .slice(0, 3)
      .map((v) => ({ nodeID: v.nodeID, uptime: v.uptime ?? '' })),
    disconnected: down.slice(0, 10).map((v) => v.nodeID),
    disconnectedCount: down.length,
  };
}

/** Delegators of a set: counted only where the node reported them, and said so where it did not. */
function delegatorText(stats: ValidatorSetStats): string {
  const unreported = stats.delegatorsUnreported;
  if (unreported === stats.count && stats.count > 0) return '; delegators not reported by the node.';
  const counted = stats.delegatorCount > 0 ? `; ${stats.delegatorCount} delegator(s) add ${stats.totalDelegated.display}` : '; no delegators';
  return unreported > 0 ? `${counted} (${unreported} validator(s) did not report theirs).` : `${counted}.`;
}

/** Lines: totals, ending soonest, lowest uptime, disconnected. */
export function validatorSetLines(stats: ValidatorSetStats, h: ValidatorHighlights, nowUnix: bigint, what: string): string[] {
  const lines = [
    `${stats.count} ${what}; ${stats.connectedCount} connected.` +
      (stats.totalStake.value !== '0' ? ` Total own stake ${stats.totalStake.display}` : ` Total weight ${stats.totalWeight}`) +
      delegatorText(stats),
  ];
  if (h.endingSoonest.length > 0) {
    lines.push('Ending soonest:', ...h.endingSoonest.map((v) => `- ${v.nodeID} ${timeLeft(BigInt(v.endTime.unix), nowUnix)} (${v.endTime.iso})`));
  }
  if (h.lowestUptime.length > 0) lines.push(`Lowest uptime: ${h.lowestUptime.map((v) => `${v.nodeID} ${v.uptime} %`).join('; ')}.`);
  if (h.disconnectedCount > 0) {
    lines.push(`Not connected (${h.disconnectedCount}): ${h.disconnected.slice(0, 5).join(', ')}${h.disconnectedCount > 5 ? ', …' : ''}.`);
  }
  return lines;
}
