/** Why P-Chain funds are locked (deposit, bond) and until when, and what an owner can claim now. */
import { z } from 'zod';
import type { ToolContext } from '../../core/tool.js';
import type { NetworkInfo } from '../../core/network.js';
import { AmountOut, big, nativeAmount, TimeOut, timeOut } from '../../summarize/format.js';
import { caminoRpc } from '../../context/camino.js';
import { type DepositOut, ownerText, pUtxos, readDeposits } from '../camino.js';
import { arr, rec, str } from './shared.js';

export const Lock = z.object({
  reason: z.enum(['deposit', 'bond', 'deposit and bond']),
  amount: AmountOut,
  depositTxID: z.string().optional(),
  bondTxID: z.string().optional(),
  until: TimeOut.optional().describe('When it is free: the deposit unlock time, the staking end, the later of both.'),
  depositUnlockTime: TimeOut.optional().describe('Deposits: start + duration.'),
  bondStart: TimeOut.optional().describe('Bonds: the start of the staking period (a pending validator has not started).'),
  bondEnd: TimeOut.optional().describe('Bonds: the end of the staking period.'),
  unlockPeriodStart: TimeOut.optional().describe('Deposits: from here it unlocks linearly until `until`.'),
  unlockableNow: AmountOut.optional(),
  nodeID: z.string().optional().describe('Bonds: the validator staked on.'),
  depositReward: AmountOut.optional().describe('Deposits: reward claimable now.'),
  depositRewardOwner: z.string().optional().describe('Deposits whose reward owner is not this address alone: who claims the reward.'),
});
export type Lock = z.infer<typeof Lock>;

export const Claim = z.object({
  depositRewards: AmountOut.describe('Rewards of running deposits owned by this address, claimable now.'),
  validatorRewards: AmountOut,
  expiredDepositRewards: AmountOut,
  total: AmountOut,
});
export type Claim = z.infer<typeof Claim>;

/** The validators (current and pending) by their transaction ID, which a bond's lock ID is: node and staking period. Not read without a bond. */
async function bondEnds(ctx: ToolContext, bondIDs: readonly string[]): Promise<Map<string, { nodeID: string; start: bigint; end: bigint }>> {
  const out = new Map<string, { nodeID: string; start: bigint; end: bigint }>();
  if (bondIDs.length === 0) return out;
  for (const method of ['platform.getCurrentValidators', 'platform.getPendingValidators']) {
    const r = rec(await ctx.rpc('platform', method, {}, { retry: true }));
    for (const v of [...arr(r.validators), ...arr(r.delegators)].map(rec)) out.set(str(v.txID), { nodeID: str(v.nodeID), start: big(v.startTime), end: big(v.endTime) });
  }
  return out;
}

/**
 * The locks of one P address from its UTXOs' lock IDs (caminogo locked.Out): deposits read with
 * platform.getDeposits (unlock time, unlockable now, reward claimable now), bonds matched to their
 * validator's staking period; and what the address can claim (platform.getClaimables for the owner
 * of this one address, threshold 1, plus the claimable rewards of the deposits it owns).
 */
export async function pLocks(ctx: ToolContext, address: string, network: NetworkInfo): Promise<{ locks: Lock[]; claim: Claim }> {
  const show = (v: bigint) => nativeAmount(v, network);
  const utxos = await pUtxos(ctx, address, network.hrp);
  const groups = new Map<string, { depositTxID?: string; bondTxID?: string; amount: bigint }>();
  for (const u of utxos) {
    if (!u.depositTxID && !u.bondTxID) continue;
    if (network.assetID && u.assetID !== network.assetID) continue;
    const key = `${u.depositTxID ?? ''}/${u.bondTxID ?? ''}`;
    const g = groups.get(key) ?? { depositTxID: u.depositTxID, bondTxID: u.bondTxID, amount: 0n };
    g.amount += big(u.amount);
    groups.set(key, g);
  }
  const depositIDs = [...new Set([...groups.values()].flatMap((g) => (g.depositTxID ? [g.depositTxID] : [])))];
  const bondIDs = [...new Set([...groups.values()].flatMap((g) => (g.bondTxID ? [g.bondTxID] : [])))];
  const [deposits, bonds, claimables] = await Promise.all([
    depositIDs.length ? readDeposits(ctx, depositIDs).then((r) => new Map(r.deposits.map((d) => [d.depositTxID, d]))) : new Map<string, DepositOut>(),
    bondEnds(ctx, bondIDs),
    caminoRpc(ctx, 'platform.getClaimables', { owners: [{ locktime: '0', threshold: '1', addresses: [address] }] }),
  ]);
  // Deposit rewards belong to the deposit's reward owner: this address's own only when it is that owner
  // alone (threshold 1, this one address), the owner the lock names otherwise.
  const ownedAlone = (d: DepositOut) => ownerText(d.rewardOwner) === address;
  const locks: Lock[] = [...groups.values()].map((g) => {
    const d = g.depositTxID ? deposits.get(g.depositTxID) : undefined;
    const b = g.bondTxID ? bonds.get(g.bondTxID) : undefined;
    const ends = [d ? BigInt(d.unlockTime.unix) : undefined, b?.end].filter((t): t is bigint => t !== undefined);
    const lock: Lock = { reason: g.depositTxID && g.bondTxID ? 'deposit and bond' : g.depositTxID ? 'deposit' : 'bond', amount: show(g.amount) };
    if (g.depositTxID) lock.depositTxID = g.depositTxID;
    if (g.bondTxID) lock.bondTxID = g.bondTxID;
    // biome-ignore lint/complexity/useMathMinMax: bigint, which Math.min and Math.max do not take
    if (ends.length) lock.until = timeOut(ends.reduce((a, c) => (c > a ? c : a)))!;
    if (d) lock.depositUnlockTime = d.unlockTime;
    if (b) lock.bondStart = timeOut(b.start)!;
    if (b) lock.bondEnd = timeOut(b.end)!;
    if (d?.unlockPeriodStart) lock.unlockPeriodStart = d.unlockPeriodStart;
    if (d?.unlockableNow) lock.unlockableNow = d.unlockableNow;
    if (d) lock.depositReward = d.claimableReward;
    if (d && !ownedAlone(d)) lock.depositRewardOwner = ownerText(d.rewardOwner);
    if (b) lock.nodeID = b.nodeID;
    return lock;
  });
  const mine = [...deposits.values()].filter(ownedAlone);
  const depositRewards = mine.reduce((s, d) => s + BigInt(d.claimableReward.value), 0n);
  const reply = arr(rec(claimables).claimables).map(rec).find((c) => arr(rec(c.rewardOwner).addresses).map(str).join() === address);
  const validatorRewards = big(reply?.validatorRewards);
  const expired = big(reply?.expiredDepositRewards);
  return {
    locks,
    claim: { depositRewards: show(depositRewards), validatorRewards: show(validatorRewards), expiredDepositRewards: show(expired), total: show(depositRewards + validatorRewards + expired) },
  };
}
