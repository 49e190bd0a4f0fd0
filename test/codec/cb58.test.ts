import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cb58Decode, cb58Encode } from '../../src/codec/cb58.js';
import { CodecError } from '../../src/codec/errors.js';

// Independent reference (BigInt base58 + node:crypto), so vectors don't trust the implementation.
const ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
const sha256 = (b: Uint8Array): Buffer => createHash('sha256').update(b).digest();

function rawBase58(bytes: Uint8Array): string {
  let n = BigInt(`0x${Buffer.from(bytes).toString('hex') || '0'}`);
  let out = '';
  for (; n > 0n; n /= 58n) out = ALPHABET[Number(n % 58n)] + out;
  const zeros = bytes.findIndex((b) => b !== 0);
  return '1'.repeat(zeros < 0 ? bytes.length : zeros) + out;
}

/** cb58 framing: payload ++ last 4 bytes of a single sha256. */
const framed = (bytes: Uint8Array): Buffer => Buffer.concat([bytes, sha256(bytes).subarray(-4)]);
const referenceCb58 = (bytes: Uint8Array): string => rawBase58(framed(bytes));

describe('cb58', () => {
  it('matches vectors computed independently with node:crypto', () => {
    const bytes = new Uint8Array(32).map((_, i) => i);
    const expected = referenceCb58(bytes);
    expect(cb58Encode(bytes)).toBe(expected);
    expect(cb58Decode(expected)).toEqual(bytes);
    expect(cb58Encode(new Uint8Array([0, 0, 1]))).toBe(referenceCb58(new Uint8Array([0, 0, 1])));
  });

  it('uses a single sha256 tail, not bitcoin double-sha256 base58check', () => {
    const bytes = new TextEncoder().encode('hello');
    const bitcoin = rawBase58(Buffer.concat([bytes, sha256(sha256(bytes)).subarray(0, 4)]));
    expect(cb58Encode(bytes)).not.toBe(bitcoin);
    expect(() => cb58Decode(bitcoin)).toThrow('bad cb58 checksum');
  });

  it('round-trips random bytes and agrees with the reference', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 80 }), (bytes) => {
        const text = cb58Encode(bytes);
        expect(text).toBe(referenceCb58(bytes));
        expect(cb58Decode(text)).toEqual(bytes);
      }),
    );
  });

  it('rejects any single-character substitution', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 1, maxLength: 40 }),
        fc.nat(),
        fc.constantFrom(...ALPHABET, '0', 'O', 'I', 'l', '-', ' '),
        (bytes, pos, ch) => {
          const text = cb58Encode(bytes);
          const i = pos % text.length;
          fc.pre(text[i] !== ch);
          expect(() => cb58Decode(text.slice(0, i) + ch + text.slice(i + 1))).toThrow(CodecError);
        },
      ),
    );
  });

  it('rejects any flipped bit in payload or checksum', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 1, maxLength: 40 }), fc.nat(), fc.integer({ min: 0, max: 7 }), (bytes, pos, bit) => {
        const raw = framed(bytes);
        const i = pos % raw.length;
        raw[i] = (raw[i] ?? 0) ^ (1 << bit);
        expect(() => cb58Decode(rawBase58(raw))).toThrow('bad cb58 checksum');
      }),
    );
  });

  it('gives short messages for bad input', () => {
    expect(() => cb58Decode('abc0')).toThrow('outside the base58 alphabet');
    expect(() => cb58Decode('')).toThrow('expected at least 4 bytes of cb58 data, got 0');
    expect(() => cb58Decode('2')).toThrow('got 1');
  });
});
