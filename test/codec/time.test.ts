import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CodecError } from '../../src/codec/errors.js';
import { humanDuration, nanosToSeconds, parseDateTime, relativeTime, roughDuration, timeLeft, unixToIso } from '../../src/codec/time.js';

describe('unixToIso', () => {
  it('renders known values', () => {
    expect(unixToIso(0n)).toBe('1970-01-01T00:00:00.000Z');
    expect(unixToIso(1704067200n)).toBe('2024-01-01T00:00:00.000Z');
    expect(unixToIso('1704067200')).toBe('2024-01-01T00:00:00.000Z');
    expect(unixToIso(951782400)).toBe('2000-02-29T00:00:00.000Z');
  });

  it('rejects invalid input', () => {
    for (const bad of [-1, 1.5, '1e9', 'x', 2n ** 64n - 1n]) expect(() => unixToIso(bad)).toThrow(CodecError);
  });
});

describe('parseDateTime', () => {
  it('accepts Unix seconds', () => {
    expect(parseDateTime(1704067200)).toBe(1704067200n);
    expect(parseDateTime('1704067200')).toBe(1704067200n);
  });

  it('accepts RFC 3339 with zones and fractions', () => {
    expect(parseDateTime('2024-01-01T00:00:00Z')).toBe(1704067200n);
    expect(parseDateTime('2024-01-01T00:00:00.999Z')).toBe(1704067200n);
    expect(parseDateTime('2024-01-01T02:30:00+02:30')).toBe(1704067200n);
    expect(parseDateTime('2023-12-31T19:00:00-05:00')).toBe(1704067200n);
    expect(parseDateTime('2024-01-01 00:00:00z')).toBe(1704067200n);
    expect(parseDateTime('2024-01-01')).toBe(1704067200n);
  });

  it('rejects malformed or impossible times', () => {
    for (const bad of ['2024-02-30T00:00:00Z', '2024-01-01T24:00:00Z', '2024-01-01T00:00:00', '01/01/2024', 'tomorrow', '', '1.5', -5, 1.5, '1969-12-31T23:59:59Z']) {
      expect(() => parseDateTime(bad)).toThrow(CodecError);
    }
  });

  it('agrees with unixToIso for random times', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 253402300799 }), (s) => {
        expect(parseDateTime(unixToIso(s))).toBe(BigInt(s));
      }),
    );
  });
});

describe('durations', () => {
  it('uses compact words with at most two adjacent units', () => {
    expect(humanDuration(0n)).toBe('0 s');
    expect(humanDuration(45n)).toBe('45 s');
    expect(humanDuration(12_000n)).toBe('3 h 20 min');
    expect(humanDuration(86_400n)).toBe('1 day');
    expect(humanDuration(14n * 86_400n)).toBe('14 days');
    expect(humanDuration(365n * 86_400n)).toBe('365 days');
    expect(humanDuration(86_400n + 3_600n + 60n)).toBe('1 day 1 h');
    expect(humanDuration(-60n)).toBe('-1 min');
  });

  it('converts nanoseconds and describes deadlines', () => {
    expect(nanosToSeconds(1_999_999_999n)).toBe(1n);
    expect(timeLeft(1000n + 3n * 86_400n + 4n * 3_600n, 1000n)).toBe('ends in about 3 days');
    expect(timeLeft(1000n, 1000n + 7_200n)).toBe('ended 2 h ago');
    expect(timeLeft(5n, 5n)).toBe('ends now');
  });

  it('rounds relative times as a person says them, never cutting 47 h 59 min to "1 day 23 h"', () => {
    const H = 3_600n;
    expect(roughDuration(48n * H - 60n)).toBe('about 2 days');
    expect(relativeTime(1000n + 48n * H - 5n, 1000n)).toBe('in about 2 days');
    expect(relativeTime(1000n, 1000n + 26n * H + 40n * 60n)).toBe('about 1 day 3 h ago');
    expect(roughDuration(3n * 86_400n + 13n * H)).toBe('about 4 days');
    expect(roughDuration(2n * H + 29n * 60n + 40n)).toBe('about 2 h');
    expect(roughDuration(14n * 86_400n)).toBe('14 days');
    expect(roughDuration(45n)).toBe('45 s');
    expect(relativeTime(7n, 7n)).toBe('now');
  });
});
