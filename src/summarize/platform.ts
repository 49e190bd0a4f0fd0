import { quote } from './stranger.js';
import { z } from 'zod';
import { decodeBase64Text } from '../codec/index.js';
import type { NetworkInfo } from '../context/network.js';
import { DurationOut, durationOut, memoText } from './chain.js';
import { AmountOut, big, nativeAmount, TimeOut, timeOut } from './format.js';

/** Address states and deposit offers of the platform chain (spec document 3, section 2). */

/** The spec's table: state name -> bit number of the bitmask. */
export const ADDRESS_STATES: ReadonlyArray<readonly [string, number]> = [
  ['AddressStateRoleAdmin', 0],
  ['AddressStateRoleKyc', 1],
  ['AddressStateKycVerified', 32],
  ['AddressStateKycExpired', 33],
  ['AddressStateConsortium', 38],
  ['AddressStateNodeDeferred', 39],
];

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
});
export type DepositOfferOut = z.infer<typeof DepositOfferOut>;

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

export function decodeDepositOffer(raw: unknown, network: Pick<NetworkInfo, 'assetSymbol'>): DepositOfferOut {
  const r = (raw ?? {}) as Record<string, unknown>;
  const nominator = big(field(r, 'InterestRateNominator'));
  const flags = big(field(r, 'Flags'));
  const memoRaw = field(r, 'Memo');
  const epoch = { unix: '0', iso: '1970-01-01T00:00:00.000Z' };
  return {
    id: String(field(r, 'ID') ?? field(r, 'Id') ?? ''),
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
  };
}

export function offerLine(o: DepositOfferOut): string {
  const memo = o.memo ? ` ${quote(o.memo, 60)}` : '';
  const flags = o.flagNames.length ? ` [${o.flagNames.join(', ')}]` : '';
  return (
    `${o.interestRatePercent} % a year${memo}${flags}: deposit ${o.minDuration.human} to ${o.maxDuration.human}, ` +
    `min ${o.minAmount.display}, unlock period ${o.unlockPeriodDuration.human}` +
    (o.noRewardsPeriodDuration.seconds !== '0' ? `, no rewards in the last ${o.noRewardsPeriodDuration.human}` : '') +
    `; open until ${o.end.iso.slice(0, 10)} (ID ${o.id})`
  );
}
