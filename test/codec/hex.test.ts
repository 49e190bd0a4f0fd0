import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CodecError } from '../../src/codec/errors.js';
import { bytesToHex, hexToBytes, isHexData, parseHexQuantity, toHexQuantity } from '../../src/codec/hex.js';

describe('hex', () => {
  it('converts quantities both ways', () => {
    expect(toHexQuantity(0n)).toBe('0x0');
    expect(toHexQuantity(31n)).toBe('0x1f');
    expect(parseHexQuantity('0x0')).toBe(0n);
    expect(parseHexQuantity('0x001F')).toBe(31n);
    for (const bad of ['0x', '1f', '0xg', '-0x1', '0X1f', '']) expect(() => parseHexQuantity(bad)).toThrow(CodecError);
    expect(() => toHexQuantity(-1n)).toThrow(CodecError);
    fc.assert(fc.property(fc.bigInt({ min: 0n, max: 2n ** 256n }), (v) => {
      expect(parseHexQuantity(toHexQuantity(v))).toBe(v);
    }));
  });

  it('converts data both ways', () => {
    expect(isHexData('0x')).toBe(true);
    expect(isHexData('0xAbCd')).toBe(true);
    expect(isHexData('0xabc')).toBe(false);
    expect(isHexData('abcd')).toBe(false);
    expect(hexToBytes('0xABcd')).toEqual(new Uint8Array([0xab, 0xcd]));
    expect(hexToBytes('abcd')).toEqual(new Uint8Array([0xab, 0xcd]));
    expect(() => hexToBytes('0xabc')).toThrow('expected hex data with an even number of hex digits');
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), (bytes) => {
        const text = bytesToHex(bytes);
        expect(isHexData(text)).toBe(true);
        expect(text).toBe(`0x${Buffer.from(bytes).toString('hex')}`);
        expect(hexToBytes(text)).toEqual(bytes);
      }),
    );
  });
});
