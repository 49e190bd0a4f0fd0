import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeBase64Text } from '../../src/codec/base64.js';

/** No control characters other than tab/LF/CR, mirroring the decoder's binary check. */
const isPrintable = (s: string): boolean =>
  [...s].every((ch) => {
    const c = ch.codePointAt(0) ?? 0;
    return (c >= 0x20 && c !== 0x7f) || c === 0x09 || c === 0x0a || c === 0x0d;
  });

describe('decodeBase64Text', () => {
  it('decodes base64 text, padded or not', () => {
    expect(decodeBase64Text('aGVsbG8gd29ybGQ=')).toBe('hello world');
    expect(decodeBase64Text('aGVsbG8gd29ybGQ')).toBe('hello world');
    expect(decodeBase64Text('w6lsw6hWZQ==')).toBe('élèVe');
  });

  it('returns the input when it is not base64 text', () => {
    for (const text of ['', 'not base64!', 'test', 'AAAA', 'abc=def']) expect(decodeBase64Text(text)).toBe(text);
  });

  it('round-trips printable strings', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', minLength: 1 }).filter(isPrintable), (s) => {
        expect(decodeBase64Text(Buffer.from(s, 'utf8').toString('base64'))).toBe(s);
      }),
    );
  });
});
