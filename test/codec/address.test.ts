import { bech32 } from '@scure/base';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type ChainLetter,
  formatChainAddress,
  isHexAddress,
  normalizeHexAddress,
  parseBareBech32,
  parseChainAddress,
} from '../../src/codec/address.js';
import { CodecError } from '../../src/codec/errors.js';

const HRPS = ['camino', 'columbus', 'kopernikus', 'local'] as const;
const CHARSET = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l';
// The local network's funded "ewoq" address, as printed by avalanchego/caminogo docs.
const EWOQ_X = 'X-local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u';

const payload = fc.uint8Array({ minLength: 20, maxLength: 20 });
const hrp = fc.constantFrom(...HRPS);
const chain = fc.constantFrom<ChainLetter>('X', 'P', 'C');

describe('chain addresses', () => {
  it('decodes the BIP-173 vector whose data words are 0..31', () => {
    const { hrp: prefix, bytes } = parseBareBech32('abcdef1qpzry9x8gf2tvdw0s3jn54khce6mua7lmqqqxw');
    expect(prefix).toBe('abcdef');
    expect(Buffer.from(bytes).toString('hex')).toBe('00443214c74254b635cf84653a56d7c675be77df');
  });

  it('parses a known address', () => {
    const parsed = parseChainAddress(EWOQ_X, { chains: ['X'], hrp: 'local' });
    expect(parsed).toMatchObject({ chain: 'X', hrp: 'local', bech32: EWOQ_X.slice(2) });
    expect(formatChainAddress('P', 'local', parsed.bytes)).toBe(`P-${EWOQ_X.slice(2)}`);
  });

  it('round-trips random payloads on every chain and network', () => {
    fc.assert(
      fc.property(chain, hrp, payload, (c, h, bytes) => {
        const text = formatChainAddress(c, h, bytes);
        expect(text.startsWith(`${c}-${h}1`)).toBe(true);
        const parsed = parseChainAddress(text, { chains: [c], hrp: h });
        expect(parsed).toEqual({ chain: c, hrp: h, bytes, bech32: text.slice(2) });
        expect(parseBareBech32(text.slice(2), h).bytes).toEqual(bytes);
      }),
    );
  });

  it('rejects any single corrupted character in the data part', () => {
    fc.assert(
      fc.property(chain, hrp, payload, fc.nat(), fc.constantFrom(...CHARSET, 'b', 'i', 'o', '1'), (c, h, bytes, pos, ch) => {
        const text = formatChainAddress(c, h, bytes);
        const start = text.lastIndexOf('1') + 1;
        const i = start + (pos % (text.length - start));
        fc.pre(text[i] !== ch);
        const corrupted = text.slice(0, i) + ch + text.slice(i + 1);
        expect(() => parseChainAddress(corrupted)).toThrow(/checksum|invalid character/);
      }),
    );
  });

  it('rejects a wrong chain with a message naming the expected chain', () => {
    fc.assert(
      fc.property(hrp, payload, (h, bytes) => {
        expect(() => parseChainAddress(formatChainAddress('P', h, bytes), { chains: ['X'] })).toThrow(
          'expected an address on the X chain (X-...), got P-...',
        );
        expect(() => parseChainAddress(formatChainAddress('C', h, bytes), { chains: ['X', 'P'] })).toThrow(
          'expected an address on the X or P chain (X-... or P-...), got C-...',
        );
      }),
    );
    expect(() => parseChainAddress(`Y-${EWOQ_X.slice(2)}`)).toThrow('unknown chain prefix "Y-"');
    expect(() => parseChainAddress(EWOQ_X.slice(2))).toThrow('expected an address with a chain prefix');
  });

  it('rejects a wrong network prefix', () => {
    fc.assert(
      fc.property(hrp, hrp, payload, (actual, wanted, bytes) => {
        fc.pre(actual !== wanted);
        expect(() => parseChainAddress(formatChainAddress('X', actual, bytes), { hrp: wanted })).toThrow(
          `address is for network prefix "${actual}" but the node's network uses "${wanted}"`,
        );
      }),
    );
  });

  it('rejects wrong payload lengths, upper case and garbage', () => {
    const short = bech32.encode('camino', bech32.toWords(new Uint8Array(19)));
    expect(() => parseBareBech32(short)).toThrow('expected 20 bytes in the address, got 19');
    // BIP-173 valid test vector with an empty payload.
    expect(() => parseBareBech32('a12uel5l')).toThrow('expected 20 bytes in the address, got 0');
    expect(() => parseChainAddress(EWOQ_X.toUpperCase())).toThrow('expected a lowercase bech32 address');
    expect(() => parseBareBech32('local1qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqq')).toThrow(CodecError);
    expect(() => parseBareBech32('')).toThrow('expected a bech32 address');
    expect(() => parseBareBech32('nonsense')).toThrow('expected a bech32 address like camino1...');
    expect(() => parseBareBech32(`local1${'q'.repeat(90)}`)).toThrow('at most 90 characters');
  });
});

describe('hex addresses', () => {
  it('accepts 0x + 40 hex digits in any case and normalizes to lower case', () => {
    const mixed = '0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC';
    expect(isHexAddress(mixed)).toBe(true);
    expect(normalizeHexAddress(mixed)).toBe(mixed.toLowerCase());
    for (const bad of ['8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC', '0x123', `0x${'g'.repeat(40)}`, `0x${'a'.repeat(41)}`, 7]) {
      expect(isHexAddress(bad)).toBe(false);
    }
    expect(() => normalizeHexAddress('0x123')).toThrow('expected an EVM address (0x + 40 hex digits), got "0x123"');
  });
});
