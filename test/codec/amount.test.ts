import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatAmount, formatUnits, MAX_UINT64, parseUint64, parseUnits, tolerantBigInt } from '../../src/codec/amount.js';
import { CodecError } from '../../src/codec/errors.js';

describe('parseUint64', () => {
  it('accepts bigint, digit strings (leading zeros too) and safe integers', () => {
    expect(parseUint64(5n)).toBe(5n);
    expect(parseUint64('007')).toBe(7n);
    expect(parseUint64('18446744073709551615')).toBe(MAX_UINT64);
    expect(parseUint64(Number.MAX_SAFE_INTEGER)).toBe(2n ** 53n - 1n);
    fc.assert(fc.property(fc.bigInt({ min: 0n, max: MAX_UINT64 }), (v) => {
      expect(parseUint64(v.toString())).toBe(v);
    }));
  });

  it('rejects signs, decimals, exponents, overflow and inexact numbers', () => {
    for (const bad of ['-1', '+1', '1.0', '1e3', '0x10', ' 1', '', '18446744073709551616', -1n, 2n ** 64n, -1, 1.5, 1e300, 2 ** 53, Number.NaN, Number.POSITIVE_INFINITY, null, undefined, [1], {}]) {
      expect(() => parseUint64(bad, 'amount')).toThrow(CodecError);
    }
    expect(() => parseUint64('1.5', 'amount')).toThrow('expected amount to be a whole non-negative number in decimal digits, got "1.5"');
    expect(() => parseUint64(2 ** 53, 'amount')).toThrow('too large for an exact JS number');
    expect(() => parseUint64('18446744073709551616')).toThrow('at most 18446744073709551615');
    fc.assert(fc.property(fc.bigInt({ min: MAX_UINT64 + 1n, max: 2n ** 80n }), (v) => {
      expect(() => parseUint64(v.toString())).toThrow(CodecError);
    }));
    fc.assert(fc.property(fc.bigInt({ max: -1n }), (v) => {
      expect(() => parseUint64(v)).toThrow(CodecError);
    }));
    fc.assert(fc.property(fc.double({ noNaN: true }).filter((d) => !Number.isSafeInteger(d) || d < 0), (d) => {
      expect(() => parseUint64(d)).toThrow(CodecError);
    }));
  });
});

describe('formatUnits / parseUnits', () => {
  it('formats exactly', () => {
    expect(formatUnits(1500000000n, 9)).toBe('1.5');
    expect(formatUnits(0n, 9)).toBe('0');
    expect(formatUnits(1n, 18)).toBe('0.000000000000000001');
    expect(formatUnits(-1500000000n, 9)).toBe('-1.5');
    expect(formatUnits(-1n, 9)).toBe('-0.000000001');
    expect(formatUnits(123n, 0)).toBe('123');
    expect(formatUnits(10n ** 40n + 5n, 40)).toBe('1.0000000000000000000000000000000000000005');
    expect(formatUnits(MAX_UINT64, 18)).toBe('18.446744073709551615');
  });

  it('parses exactly', () => {
    expect(parseUnits('1.5', 9)).toBe(1500000000n);
    expect(parseUnits('0.000000001', 9)).toBe(1n);
    expect(parseUnits('.5', 1)).toBe(5n);
    expect(parseUnits('-2', 9)).toBe(-2000000000n);
    expect(parseUnits('1.50000000000', 9)).toBe(1500000000n);
    expect(() => parseUnits('0.0000000001', 9)).toThrow('expected at most 9 decimal places, got 10');
    for (const bad of ['', '.', '1e9', '1,5', '+1', ' 1', '1.2.3', 'abc', '--1']) {
      expect(() => parseUnits(bad, 9)).toThrow(CodecError);
    }
    expect(() => parseUnits('1', -1)).toThrow('expected decimals');
    expect(() => formatUnits(1n, 1.5)).toThrow('expected decimals');
    expect(() => formatUnits(1n, 256)).toThrow('expected decimals to be an integer from 0 to 255, got 256');
    expect(formatUnits(10n ** 255n, 255)).toBe('1');
    expect(formatUnits(1n, 0)).toBe('1');
  });

  it('round-trips random values for decimals 0..18', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -(2n ** 100n), max: 2n ** 100n }), fc.integer({ min: 0, max: 18 }), (value, decimals) => {
        expect(parseUnits(formatUnits(value, decimals), decimals)).toBe(value);
      }),
    );
  });
});

describe('formatAmount', () => {
  it('groups thousands deterministically', () => {
    expect(formatAmount(1234567500000000n, { decimals: 9, symbol: 'CAM' })).toBe('1,234,567.5 CAM');
    expect(formatAmount(1500000000n, { decimals: 9, symbol: 'CAM' })).toBe('1.5 CAM');
    expect(formatAmount(-1000n, { decimals: 0 })).toBe('-1,000');
    expect(formatAmount(999n, { decimals: 0 })).toBe('999');
    expect(formatAmount(10n ** 18n * 1000n + 1n, { decimals: 18, symbol: 'CAM' })).toBe('1,000.000000000000000001 CAM');
  });
});

describe('tolerantBigInt', () => {
  it('reads the encodings nodes use and returns undefined otherwise', () => {
    expect(tolerantBigInt(7n)).toBe(7n);
    expect(tolerantBigInt('12345678901234567890')).toBe(12345678901234567890n);
    expect(tolerantBigInt(42)).toBe(42n);
    expect(tolerantBigInt('0x1F')).toBe(31n);
    for (const bad of ['1.5', '0x', '0xg', '', 1.5, 2 ** 60, null, undefined, {}, true]) {
      expect(tolerantBigInt(bad)).toBeUndefined();
    }
  });
});
