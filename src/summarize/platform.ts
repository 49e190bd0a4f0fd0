import { quote } from './stranger.js';
import { z } from 'zod';
import { decodeBase64Text } from '../codec/index.js';
import type { NetworkInfo } from '../context/network.js';
import { DurationOut, durationOut, memoText } from './chain.js';
import { AmountOut, big, nativeAmount, TimeOut, timeOut } from './format.js';

/** Address states and deposit offers of the platform chain (spec document 3, section 2). */

/**
 * State name -> bit number of the bitmask: the spec's table, and every bit a real node defines
 * (caminogo txs/camino_address_state_tx.go: 2 offers admin, 50 offers creator; the dev branch's
 * addrstate/camino_address_state.go: 3, 4, 34, 51).
 */
export const ADDRESS_STATES: ReadonlyArray<readonly [string, number]> = [
  ['AddressStateRoleAdmin', 0],
  ['AddressStateRoleKyc', 1],
  ['AddressStateRoleOffersAdmin', 2],
  ['AddressStateRoleConsortiumSecretary', 3],
  ['AddressStateRoleValidatorAdmin', 4],
  ['AddressStateKycVerified', 32],
  ['AddressStateKycExpired', 33],
  ['AddressStateKybVerified', 34],
  ['AddressStateConsortium', 38],
  ['AddressStateNodeDeferred', 39],
  ['AddressStateOffersCreator', 50],
  ['AddressStateFoundationAdmin', 51],
];

/** What each named bit lets its holder do or says about it, in a few words. */
export const ADDRESS_STATE_MEANING: Readonly<Record<string, string>> = {
  AddressStateRoleAdmin: 'may set role bits',
  AddressStateRoleKyc: 'may set KYC/KYB bits',
  AddressStateRoleOffersAdmin: 'may grant the offers-creator bit',
  AddressStateRoleConsortiumSecretary: 'may propose adding or excluding consortium members (dev)',
  AddressStateRoleValidatorAdmin: 'may set the node-deferred bit (dev)',
  AddressStateKycVerified: 'passed KYC',
  AddressStateKycExpired: 'KYC expired',
  AddressStateKybVerified: 'passed KYB (dev)',
  AddressStateConsortium: 'consortium member',
  AddressStateNodeDeferred: "its node is deferred",
  AddressStateOffersCreator: 'may create deposit offers',
  AddressStateFoundationAdmin: 'may propose base fee and fee distribution (dev)',
};

export function decodeAddressStates(mask: bigint): { states: string[]; unknownBits: number[] } {
  const states: string[] = [];
  const unknownBits: number[] = [];
  for (let bit = 0; bit < 64; bit++) {
    if ((mask >> BigInt(bit)) & 1n) {
      const known = ADDRESS_STATES.find(([, b]) => b === bit);
      if (known) states.push(known[0]);
      else unknownBits.push(bit);
    }
  }
  return { states, unknownBits };
}

/** Deposit offer flag bits; bit 0 means locked (DESIGN section 5). */
export const OFFER_FLAGS: ReadonlyArray<readonly [string, number]> = [['locked', 0]];

export const DepositOfferOut = z.object({
  id: z.string(),
  interestRateNominator: z.string(),
  interestRatePercent: z.string().describe('Yearly interest, percent (nominator / 10,000).'),
  start: TimeOut,
  end: TimeOut,
  minAmount: AmountOut,
  minDuration: DurationOut,
  maxDuration: DurationOut,
  unlockPeriodDuration: DurationOut,
  noRewardsPeriodDuration: DurationOut,
  memo: z.string().describe('Decoded from base64 or 0x hex when it is text.'),
  flags: z.string(),
  flagNames: z.array(z.string()),
  totalMaxAmount: AmountOut.optional(),
  depositedAmount: AmountOut.optional(),
  open: z.boolean().describe('Takes new deposits now.'),
  notOpen: z.array(z.string()).describe('Why not: locked, not started, ended, full.'),
});
export type DepositOfferOut = z.infer<typeof DepositOfferOut>;

/** caminogo deposit/camino_deposit_offer.go: yearly rate = nominator / 1,000,000 over a 365-day year. */
const RATE_DENOMINATOR = 1_000_000n * 365n * 24n * 3600n;

/**
 * What `amount` deposited for `duration` seconds earns in total: caminogo deposit.TotalReward,
 * amount x nominator x (duration - noRewardsPeriodDuration) / (1,000,000 x 365 days), rounded down.
 */
export function depositTotalReward(amount: bigint, nominator: bigint, duration: bigint, noRewards: bigint): bigint {
  const rewarded = duration - noRewards;
  return rewarded > 0n ? (amount * nominator * rewarded) / RATE_DENOMINATOR : 0n;
}

/**
 * Why an offer takes no new deposit now, by caminogo's deposit tx rules (txs/executor/camino_tx_executor.go):
 * the offer must be active (start <= now <= end, flags bit 0 "locked" clear), the deposit at least
 * minAmount and, when totalMaxAmount is set, at most what is left; when totalMaxRewardAmount is set,
 * the deposit's reward must fit in what is left of it. Empty when it is open.
 */
export function offerClosedReasons(
  o: { start: bigint; end: bigint; flags: bigint; minAmount: bigint; minDuration: bigint; noRewards: bigint; nominator: bigint; totalMax: bigint; deposited: bigint; totalMaxReward: bigint; rewarded: bigint },
  now: bigint,
): string[] {
  const why: string[] = [];
  if (o.flags & 1n) why.push('locked (flags bit 0): the node refuses new deposits');
  if (now < o.start) why.push(`not started: opens ${timeOut(o.start)?.iso ?? o.start}`);
  if (now > o.end) why.push(`ended ${timeOut(o.end)?.iso ?? o.end}`);
  const room = o.deposited >= o.totalMax ? 0n : o.totalMax - o.deposited;
  if (o.totalMax > 0n && room < (o.minAmount > 0n ? o.minAmount : 1n)) {
    why.push('full: its total maximum is deposited');
  }
  if (o.totalMaxReward > 0n) {
    const left = o.totalMaxReward > o.rewarded ? o.totalMaxReward - o.rewarded : 0n;
    const period = o.minDuration > o.noRewards ? o.minDuration - o.noRewards : 0n;
    const smallest = (o.minAmount * period * o.nominator) / RATE_DENOMINATOR;
    if (left === 0n || smallest > left) why.push('full: its rewards are used up');
  }
  return why;
}

/** Reads a field in the spec's spelling (`MinAmount`) or the nodes' lowercase one (`minAmount`). */
function field(r: Record<string, unknown>, name: string): unknown {
  if (r[name] !== undefined) return r[name];
  const lower = name[0]!.toLowerCase() + name.slice(1);
  if (r[lower] !== undefined) return r[lower];
  return r[name.toLowerCase()];
}

/** Percent with up to 4 decimals from a nominator over 1,000,000. */
export function ratePercent(nominator: bigint): string {
  const scaled = nominator; // percent * 10^4 == nominator / 10^6 * 100 * 10^4
  const whole = scaled / 10_000n;
  const frac = (scaled % 10_000n).toString().padStart(4, '0').replace(/0+$/, '');
  return frac ? `${whole}.${frac}` : whole.toString();
}

/** A deposit offer's terms as numbers, from a node's answer in either spelling (`MinDuration` or `minDuration`). */
export interface OfferTerms {
  id: string;
  start: bigint;
  end: bigint;
  flags: bigint;
  minAmount: bigint;
  minDuration: bigint;
  maxDuration: bigint;
  unlockPeriod: bigint;
  noRewards: bigint;
  nominator: bigint;
  /** Caps a real node sends (APIDepositOffer); 0 where the spec's offer has none. */
  totalMax: bigint;
  deposited: bigint;
  totalMaxReward: bigint;
  rewarded: bigint;
  /** cb58 short ID of the offer's owner; empty where the node names none. */
  ownerAddress: string;
}

/** The one reader of an offer, shared by the read tools and the local signer's deposit. */
export function offerTerms(raw: unknown): OfferTerms {
  const r = (raw ?? {}) as Record<string, unknown>;
  return {
    id: String(field(r, 'ID') ?? field(r, 'Id') ?? ''),
    start: big(field(r, 'Start')),
    end: big(field(r, 'End')),
    flags: big(field(r, 'Flags')),
    minAmount: big(field(r, 'MinAmount')),
    minDuration: big(field(r, 'MinDuration')),
    maxDuration: big(field(r, 'MaxDuration')),
    unlockPeriod: big(field(r, 'UnlockPeriodDuration')),
    noRewards: big(field(r, 'NoRewardsPeriodDuration')),
    nominator: big(field(r, 'InterestRateNominator')),
    totalMax: big(field(r, 'TotalMaxAmount')),
    deposited: big(field(r, 'DepositedAmount')),
    totalMaxReward: big(field(r, 'TotalMaxRewardAmount')),
    rewarded: big(field(r, 'RewardedAmount')),
    ownerAddress: String(field(r, 'OwnerAddress') ?? ''),
  };
}

/** `now`: Unix seconds, for whether the offer takes deposits now. */
export function decodeDepositOffer(raw: unknown, network: Pick<NetworkInfo, 'assetSymbol'>, now: bigint): DepositOfferOut {
  const r = (raw ?? {}) as Record<string, unknown>;
  const t = offerTerms(raw);
  const { nominator, flags, totalMax, deposited } = t;
  const notOpen = offerClosedReasons(t, now);
  const memoRaw = field(r, 'Memo');
  const epoch = { unix: '0', iso: '1970-01-01T00:00:00.000Z' };
  return {
    id: t.id,
    interestRateNominator: nominator.toString(),
    interestRatePercent: ratePercent(nominator),
    start: timeOut(field(r, 'Start')) ?? epoch,
    end: timeOut(field(r, 'End')) ?? epoch,
    minAmount: nativeAmount(big(field(r, 'MinAmount')), network),
    minDuration: durationOut(big(field(r, 'MinDuration'))),
    maxDuration: durationOut(big(field(r, 'MaxDuration'))),
    unlockPeriodDuration: durationOut(big(field(r, 'UnlockPeriodDuration'))),
    noRewardsPeriodDuration: durationOut(big(field(r, 'NoRewardsPeriodDuration'))),
    // A real node sends the memo as hexnc ("0x…", vms/types JSONByteSlice); the spec, base64.
    memo: typeof memoRaw === 'string' ? (memoRaw.startsWith('0x') ? memoText(memoRaw) : decodeBase64Text(memoRaw)) : '',
    flags: flags.toString(),
    flagNames: [
      ...OFFER_FLAGS.filter(([, bit]) => (flags >> BigInt(bit)) & 1n).map(([name]) => name),
      ...Array.from({ length: 64 }, (_, bit) => bit)
        .filter((bit) => !OFFER_FLAGS.some(([, b]) => b === bit) && (flags >> BigInt(bit)) & 1n)
        .map((bit) => `bit ${bit}`),
    ],
    ...(totalMax > 0n ? { totalMaxAmount: nativeAmount(totalMax, network), depositedAmount: nativeAmount(deposited, network) } : {}),
    open: notOpen.length === 0,
    notOpen,
  };
}

/** "open for new deposits" or "NOT open: locked (…)", the marker every offer line carries. */
export function offerStatus(o: Pick<DepositOfferOut, 'open' | 'notOpen'>): string {
  return o.open ? 'open for new deposits' : `NOT open: ${o.notOpen.join('; ')}`;
}

/** "2 offers, 1 open for new deposits". */
export function offerCount(offers: ReadonlyArray<Pick<DepositOfferOut, 'open'>>): string {
  return `${offers.length} offer(s), ${offers.filter((o) => o.open).length} open for new deposits`;
}

export function offerLine(o: DepositOfferOut): string {
  const memo = o.memo ? ` ${quote(o.memo, 60)}` : '';
  const other = o.flagNames.filter((f) => f !== 'locked');
  const flags = other.length ? ` [flags: ${other.join(', ')}]` : '';
  return (
    `${o.interestRatePercent} % a year${memo} [${offerStatus(o)}]${flags}: deposit ${o.minDuration.human} to ${o.maxDuration.human}, ` +
    `min ${o.minAmount.display}, unlock period ${o.unlockPeriodDuration.human}` +
    (o.noRewardsPeriodDuration.seconds !== '0' ? `, no rewards in the last ${o.noRewardsPeriodDuration.human}` : '') +
    (o.totalMaxAmount ? `, ${o.depositedAmount?.display} of ${o.totalMaxAmount.display} deposited` : '') +
    `; period ${o.start.iso.slice(0, 10)} to ${o.end.iso.slice(0, 10)} (ID ${o.id})`
  );
}
