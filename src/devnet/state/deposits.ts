/** Deposit arithmetic and owner matching as caminogo does them (vms/platformvm/deposit/camino_deposit.go, txs/camino_owner_id.go). */
import { bareAddress } from './ids.js';
import type { Deposit, DepositOffer, Owner } from './types.js';

const YEAR = 31_536_000n;
const RATE_DENOMINATOR = 1_000_000n * YEAR;

/** The reward claimable at `at` (caminogo deposit.ClaimableReward): accrued to min(at, end - noRewards) less claimed. */
export function claimableReward(d: Deposit, offer: DepositOffer, at: number): bigint {
  if (d.start > at) return 0n;
  const rewardsEnd = d.start + d.duration - offer.noRewardsPeriodDuration;
  const until = Math.min(at, rewardsEnd);
  const total = (d.amount * BigInt(Math.max(0, until - d.start)) * offer.interestRateNominator) / RATE_DENOMINATOR;
  return total - d.claimedRewardAmount;
}

/** What may be unlocked at `at` (caminogo deposit.UnlockableAmount): linear over the unlock period. */
export function unlockableAmount(d: Deposit, offer: DepositOffer, at: number): bigint {
  const periodStart = d.start + d.duration - offer.unlockPeriodDuration;
  if (periodStart > at) return 0n;
  if (offer.unlockPeriodDuration === 0) return d.amount - d.unlockedAmount;
  const passed = BigInt(Math.min(at - periodStart, offer.unlockPeriodDuration));
  return (d.amount * passed) / BigInt(offer.unlockPeriodDuration) - d.unlockedAmount;
}

/** The node hashes the sorted owner (txs/camino_owner_id.go): same locktime, threshold and address set. */
export function sameOwner(a: Owner, b: Owner): boolean {
  const set = (o: Owner) => [...new Set(o.addresses.map(bareAddress))].sort().join(',');
  return a.locktime === b.locktime && a.threshold === b.threshold && set(a) === set(b);
}


/** A deposit's whole reward (deposit.TotalReward): amount x nominator x rewarded seconds / (10^6 x a year). */
export function totalReward(amount: bigint, duration: number, offer: DepositOffer): bigint {
  return (amount * BigInt(duration - offer.noRewardsPeriodDuration) * offer.interestRateNominator) / RATE_DENOMINATOR;
}
