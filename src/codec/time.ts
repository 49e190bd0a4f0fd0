import { parseUint64 } from './amount.js';
import { CodecError, describeValue } from './errors.js';

// JS Dates cover +/-8.64e15 ms around the epoch; larger uint64 values (e.g. a MaxUint64
// "never" end time) have no ISO form.
const MAX_DATE_SECONDS = 8_640_000_000_000n;

/** Unix seconds -> ISO 8601 UTC ("2024-01-01T00:00:00.000Z"). */
export function unixToIso(seconds: bigint | string | number): string {
  const value = parseUint64(seconds, 'timestamp');
  if (value > MAX_DATE_SECONDS) throw new CodecError(`expected a Unix timestamp before year 275760, got ${value}`);
  return new Date(Number(value) * 1000).toISOString();
}

// RFC 3339 date-time; a bare date is taken as midnight UTC, and a space may replace 'T'.
const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})(?:[Tt ](\d{2}):(\d{2}):(\d{2})(?:\.\d+)?([Zz]|[+-]\d{2}:\d{2}))?$/;

/**
 * User-supplied time -> Unix seconds. Accepts Unix seconds (number or digit string) or
 * an RFC 3339 string; fractional seconds are dropped. Refuses dates before 1970 since
 * the node's timestamps are uint64.
 */
export function parseDateTime(value: string | number): bigint {
  if (typeof value === 'number' || (typeof value === 'string' && /^[0-9]+$/.test(value))) {
    return parseUint64(value, 'timestamp');
  }
  const m = typeof value === 'string' ? RFC3339.exec(value) : null;
  if (!m) {
    throw new CodecError(`expected Unix seconds or an RFC 3339 time like "2024-01-01T00:00:00Z", got ${describeValue(value)}`);
  }
  const [year, month, day, hour = 0, minute = 0, second = 0] = m.slice(1, 7).map((part) => Number(part ?? 0));
  const ms = Date.UTC(year ?? 0, (month ?? 1) - 1, day ?? 1, hour, minute, second);
  // Date.UTC silently rolls over (Feb 30 -> Mar 2), so check the fields round-trip.
  const check = new Date(ms);
  const valid =
    check.getUTCFullYear() === year && check.getUTCMonth() + 1 === month && check.getUTCDate() === day &&
    check.getUTCHours() === hour && check.getUTCMinutes() === minute && check.getUTCSeconds() === second;
  if (!valid) throw new CodecError(`expected a real calendar date and time, got ${describeValue(value)}`);
  const zone = m[7] ?? 'Z';
  const offset = /^[Zz]$/.test(zone) ? 0 : (zone[0] === '-' ? -1 : 1) * (Number(zone.slice(1, 3)) * 3600 + Number(zone.slice(4, 6)) * 60);
  const seconds = BigInt(ms / 1000 - offset);
  if (seconds < 0n) throw new CodecError(`expected a time after 1970-01-01T00:00:00Z, got ${describeValue(value)}`);
  return seconds;
}

const UNITS: readonly { seconds: bigint; one: string; many: string }[] = [
  { seconds: 86_400n, one: 'day', many: 'days' },
  { seconds: 3_600n, one: 'h', many: 'h' },
  { seconds: 60n, one: 'min', many: 'min' },
  { seconds: 1n, one: 's', many: 's' },
];

/**
 * Compact words, at most two adjacent units, zero parts dropped: "45 s", "3 h 20 min",
 * "1 day 4 h", "14 days", "365 days". Days are the largest unit because staking periods
 * are set in days; years/months would be ambiguous.
 */
export function humanDuration(seconds: bigint): string {
  if (seconds < 0n) return `-${humanDuration(-seconds)}`;
  const first = UNITS.findIndex((unit) => seconds >= unit.seconds);
  if (first < 0) return '0 s';
  const parts: string[] = [];
  let rest = seconds;
  for (const unit of UNITS.slice(first, first + 2)) {
    const count = rest / unit.seconds;
    rest %= unit.seconds;
    if (count > 0n) parts.push(`${count} ${count === 1n ? unit.one : unit.many}`);
  }
  return parts.join(' ');
}

/**
 * A duration as a person says it, rounded rather than cut: to the day from 3 days, to the hour from
 * 1 h, to the minute from 1 min; "about" when rounding changed it ("about 2 days" for 47 h 59 min,
 * never "1 day 23 h").
 */
export function roughDuration(seconds: bigint): string {
  if (seconds < 0n) return roughDuration(-seconds);
  if (seconds < 60n) return humanDuration(seconds);
  const unit = seconds >= 3n * 86_400n ? 86_400n : seconds >= 3_600n ? 3_600n : 60n;
  const rounded = ((seconds + unit / 2n) / unit) * unit;
  return `${rounded === seconds ? '' : 'about '}${humanDuration(rounded)}`;
}

/** "in about 2 days", "about 3 h ago", "now": a time relative to `nowUnix`, rounded. */
export function relativeTime(atUnix: bigint, nowUnix: bigint): string {
  if (atUnix === nowUnix) return 'now';
  return atUnix > nowUnix ? `in ${roughDuration(atUnix - nowUnix)}` : `${roughDuration(nowUnix - atUnix)} ago`;
}

/** Node durations/uptimes in nanoseconds -> whole seconds (truncated). */
export function nanosToSeconds(n: bigint): bigint {
  return n / 1_000_000_000n;
}

/** "ends in 3 days 4 h" / "ended 2 h ago" relative to `nowUnix`. */
export function timeLeft(endUnix: bigint, nowUnix: bigint): string {
  const diff = endUnix - nowUnix;
  if (diff > 0n) return `ends in ${roughDuration(diff)}`;
  if (diff < 0n) return `ended ${roughDuration(-diff)} ago`;
  return 'ends now';
}
