import { bech32 } from '@scure/base';
import { describe, expect, it } from 'vitest';
import {
  type ByteEncoding,
  type ChainLetter,
  CodecError,
  cb58Decode,
  decodeBase64Text,
  decodeEncoded,
  describeValue,
  formatAmount,
  formatBareBech32,
  formatChainAddress,
  formatUnits,
  hexChecksumDecode,
  hexToBytes,
  isHexAddress,
  isHexData,
  normalizeHexAddress,
  parseBareBech32,
  parseCb58Id,
  parseChainAddress,
  parseDateTime,
  parseHexQuantity,
  parseNodeId,
  parsePrivateKey,
  parseUint64,
  parseUnits,
  tolerantBigInt,
  unixToIso,
} from '../../src/codec/index.js';

/**
 * Edge cases of the codec layer: exact boundaries, anchored patterns, inputs of the wrong
 * JS type, and the exact message a person reads for each refusal.
 */

/** The message of the CodecError `fn` throws; any other throw (e.g. a TypeError) fails the test. */
function codecMessage(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    if (err instanceof CodecError) return err.message;
    throw err;
  }
  throw new Error('expected a CodecError, but nothing was thrown');
}

const ADDRESS_PAYLOAD = Uint8Array.from({ length: 20 }, (_, i) => i + 1);
const LOCAL_ADDRESS = formatBareBech32('local', ADDRESS_PAYLOAD);
const EVM_ADDRESS = '0x8db97c7cece249c2b98bdc0226cc4c2a57bf52fc';
/** sha256 of zero bytes ends in 78 52 b8 55: a valid `hex` frame with an empty payload. */
const EMPTY_HEX_FRAME = '0x7852b855';

/** Non-strings handed to string parsers, with describeValue's rendering of each. */
const NON_STRINGS: readonly (readonly [string, unknown, string])[] = [
  ['a number', 5, '5'],
  ['null', null, 'null'],
  ['undefined', undefined, 'a value of type undefined'],
  ['an object', {}, 'a value of type object'],
  ['an array', ['0x1f'], 'an array'],
];

describe('describeValue', () => {
  it('quotes strings up to 48 characters whole', () => {
    const text = `${'a'.repeat(47)}z`;
    expect(describeValue(text)).toBe(`"${text}"`);
    expect(describeValue('')).toBe('""');
  });

  it('clips a 49-character string to its first 45 characters plus "..."', () => {
    const text = `${'a'.repeat(45)}bcde`;
    expect(describeValue(text)).toBe(`"${'a'.repeat(45)}..."`);
  });

  it('prints numbers, bigints and booleans as they read', () => {
    expect(describeValue(1.5)).toBe('1.5');
    expect(describeValue(Number.NaN)).toBe('NaN');
    expect(describeValue(12n)).toBe('12');
    expect(describeValue(true)).toBe('true');
    expect(describeValue(false)).toBe('false');
  });

  it('names null, undefined, arrays and other objects', () => {
    expect(describeValue(null)).toBe('null');
    expect(describeValue(undefined)).toBe('a value of type undefined');
    expect(describeValue([1, 2])).toBe('an array');
    expect(describeValue({ a: 1 })).toBe('a value of type object');
    expect(describeValue(() => 1)).toBe('a value of type function');
  });
});

describe('parsers given a non-string refuse it with their own CodecError', () => {
  it.each(NON_STRINGS)('%s', (_label, value, shown) => {
    const text = value as string;
    expect(codecMessage(() => parseBareBech32(text))).toBe(`expected a bech32 address, got ${shown}`);
    expect(codecMessage(() => parseChainAddress(text))).toBe(`expected a chain address like X-camino1..., got ${shown}`);
    expect(codecMessage(() => normalizeHexAddress(text))).toBe(`expected an EVM address (0x + 40 hex digits), got ${shown}`);
    expect(codecMessage(() => parseHexQuantity(text))).toBe(`expected a 0x-prefixed hex quantity like "0x1f", got ${shown}`);
    expect(codecMessage(() => hexToBytes(text))).toBe(`expected hex data with an even number of hex digits, got ${shown}`);
    expect(codecMessage(() => hexChecksumDecode(text))).toBe('expected 0x-prefixed hex');
    expect(codecMessage(() => decodeEncoded(text, 'hex'))).toBe('expected 0x-prefixed hex');
    expect(codecMessage(() => decodeEncoded(text, 'hexnc'))).toBe('expected 0x-prefixed hex');
    expect(codecMessage(() => cb58Decode(text))).toBe('expected cb58 text');
    expect(codecMessage(() => parseCb58Id(text))).toBe('expected cb58 text');
    expect(codecMessage(() => parseNodeId(text))).toBe(`expected a node ID like NodeID-..., got ${typeof value}`);
    expect(codecMessage(() => parsePrivateKey(text))).toBe('expected a private key like PrivateKey-...');
    expect(codecMessage(() => parseUnits(text, 9))).toBe(`expected a decimal number like "1.5", got ${shown}`);
  });

  it.each(NON_STRINGS.filter(([, value]) => typeof value !== 'number'))('%s as a time or uint64', (_label, value, shown) => {
    expect(codecMessage(() => parseDateTime(value as string))).toBe(
      `expected Unix seconds or an RFC 3339 time like "2024-01-01T00:00:00Z", got ${shown}`,
    );
    expect(codecMessage(() => parseUint64(value))).toBe(`expected value to be a whole non-negative number in decimal digits, got ${shown}`);
  });

  it('a number given to parseUnits is refused, not read as its digits', () => {
    expect(codecMessage(() => parseUnits(5 as unknown as string, 9))).toBe('expected a decimal number like "1.5", got 5');
  });

  it('an array holding a valid value is refused, not coerced to its string form', () => {
    expect(isHexAddress([EVM_ADDRESS])).toBe(false);
    expect(isHexData(['0xab'])).toBe(false);
    expect(tolerantBigInt(['12'])).toBeUndefined();
    expect(tolerantBigInt({ toString: () => '12' })).toBeUndefined();
    expect(codecMessage(() => parseHexQuantity(['0x1f'] as unknown as string))).toBe(
      'expected a 0x-prefixed hex quantity like "0x1f", got an array',
    );
    expect(codecMessage(() => hexToBytes(['abcd'] as unknown as string))).toBe('expected hex data with an even number of hex digits, got an array');
    expect(codecMessage(() => parseDateTime(['2024-01-01'] as unknown as string))).toBe(
      'expected Unix seconds or an RFC 3339 time like "2024-01-01T00:00:00Z", got an array',
    );
    expect(codecMessage(() => parseDateTime(['123'] as unknown as string))).toBe(
      'expected Unix seconds or an RFC 3339 time like "2024-01-01T00:00:00Z", got an array',
    );
  });

  it('decodeBase64Text hands back null and undefined unchanged', () => {
    expect(decodeBase64Text(null as unknown as string)).toBeNull();
    expect(decodeBase64Text(undefined as unknown as string)).toBeUndefined();
    expect(decodeBase64Text(5 as unknown as string)).toBe(5);
  });
});

describe('anchored patterns refuse junk before or after a valid value', () => {
  it('EVM addresses', () => {
    expect(isHexAddress(EVM_ADDRESS)).toBe(true);
    for (const bad of [`x${EVM_ADDRESS}`, ` ${EVM_ADDRESS}`, `${EVM_ADDRESS}\n`, `${EVM_ADDRESS}0`]) expect(isHexAddress(bad)).toBe(false);
    expect(codecMessage(() => normalizeHexAddress(`x${EVM_ADDRESS}`))).toBe(`expected an EVM address (0x + 40 hex digits), got "x${EVM_ADDRESS}"`);
  });

  it('hex quantities', () => {
    expect(codecMessage(() => parseHexQuantity('0x1fzz'))).toBe('expected a 0x-prefixed hex quantity like "0x1f", got "0x1fzz"');
    expect(codecMessage(() => parseHexQuantity('0x1f '))).toBe('expected a 0x-prefixed hex quantity like "0x1f", got "0x1f "');
    expect(codecMessage(() => parseHexQuantity('zz0x1f'))).toBe('expected a 0x-prefixed hex quantity like "0x1f", got "zz0x1f"');
  });

  it('hex data', () => {
    expect(isHexData('0xab')).toBe(true);
    expect(isHexData('zz0xab')).toBe(false);
    expect(isHexData('0xabz')).toBe(false);
  });

  it('tolerantBigInt reads 0x quantities only when the whole text is one', () => {
    expect(tolerantBigInt('0x1f')).toBe(31n);
    for (const bad of ['x0x1f', ' 0x1f', '0x1f ', '0x1fzz', '0x', '-0x1']) expect(tolerantBigInt(bad)).toBeUndefined();
  });

  it('RFC 3339 times, including around the zone designator', () => {
    for (const bad of ['2024-01-01T00:00:00Zjunk', 'x2024-01-01T00:00:00Z', '2024-01-01T00:00:00ZZ', '2024-01-01T00:00:00+01:00x']) {
      expect(codecMessage(() => parseDateTime(bad))).toBe(`expected Unix seconds or an RFC 3339 time like "2024-01-01T00:00:00Z", got "${bad}"`);
    }
  });
});

describe('hex decoding', () => {
  it('decodes upper-case digits to the same bytes as lower-case ones', () => {
    expect(hexToBytes('0xABCDEF')).toEqual(Uint8Array.of(0xab, 0xcd, 0xef));
    expect(hexToBytes('ABCDEF')).toEqual(hexToBytes('0xabcdef'));
    expect(parseHexQuantity('0xFF')).toBe(parseHexQuantity('0xff'));
    expect(hexChecksumDecode(EMPTY_HEX_FRAME.toUpperCase().replace('0X', '0x'))).toEqual(new Uint8Array(0));
  });

  it('a hex frame of exactly 4 bytes is a valid checksum over empty data', () => {
    expect(hexChecksumDecode(EMPTY_HEX_FRAME)).toEqual(new Uint8Array(0));
    expect(decodeEncoded(EMPTY_HEX_FRAME, 'hex')).toEqual(new Uint8Array(0));
    expect(codecMessage(() => hexChecksumDecode('0x52b855'))).toBe('expected at least 4 bytes (data + 4-byte checksum), got 3');
  });

  it('hexnc requires the 0x prefix even though hexToBytes alone does not', () => {
    expect(hexToBytes('abcd')).toEqual(Uint8Array.of(0xab, 0xcd));
    expect(codecMessage(() => decodeEncoded('abcd', 'hexnc'))).toBe('expected 0x-prefixed hex');
    expect(decodeEncoded('0xabcd', 'hexnc')).toEqual(Uint8Array.of(0xab, 0xcd));
  });

  it('an unknown encoding name is refused by name', () => {
    expect(codecMessage(() => decodeEncoded('0xabcd', 'base64' as ByteEncoding))).toBe('unknown encoding base64');
  });
});

describe('bech32 edges', () => {
  // 51-char prefix + '1' + 32 data words + 6 checksum words = exactly 90 characters.
  const at90 = bech32.encode('a'.repeat(51), bech32.toWords(ADDRESS_PAYLOAD), 100);
  const at91 = bech32.encode('a'.repeat(52), bech32.toWords(ADDRESS_PAYLOAD), 100);

  it('accepts an address of exactly 90 characters', () => {
    expect(at90).toHaveLength(90);
    expect(parseBareBech32(at90)).toEqual({ hrp: 'a'.repeat(51), bytes: ADDRESS_PAYLOAD, bech32: at90 });
  });

  it('refuses one of 91 characters with its length', () => {
    expect(at91).toHaveLength(91);
    expect(codecMessage(() => parseBareBech32(at91))).toBe('expected a bech32 address of at most 90 characters, got 91');
  });

  it('an empty string gets the plain "expected a bech32 address" message', () => {
    expect(codecMessage(() => parseBareBech32(''))).toBe('expected a bech32 address, got ""');
  });

  it('names a checksum failure as a typo', () => {
    const last = LOCAL_ADDRESS.at(-1) === 'q' ? 'p' : 'q';
    expect(codecMessage(() => parseBareBech32(`${LOCAL_ADDRESS.slice(0, -1)}${last}`))).toBe('bad bech32 checksum: the address has a typo');
  });

  it('does not call other decoder failures a checksum problem', () => {
    // Too short for bech32 (the library refuses under 8 characters), not a typo.
    expect(codecMessage(() => parseBareBech32('a1qqqqq'))).toBe('expected a bech32 address, got "a1qqqqq"');
  });

  it('refuses a valid checksum over data that is not whole bytes', () => {
    const oneWord = bech32.encode('camino', [31]);
    expect(codecMessage(() => parseBareBech32(oneWord))).toBe('expected a bech32 address with byte-aligned data');
  });

  it('formatting refuses a payload that is not 20 bytes', () => {
    expect(codecMessage(() => formatBareBech32('camino', new Uint8Array(19)))).toBe('expected 20 bytes for an address, got 19');
    expect(codecMessage(() => formatBareBech32('camino', new Uint8Array(21)))).toBe('expected 20 bytes for an address, got 21');
    expect(codecMessage(() => formatChainAddress('X', 'camino', new Uint8Array(0)))).toBe('expected 20 bytes for an address, got 0');
  });

  it('formatting refuses an empty or upper-case network prefix', () => {
    expect(codecMessage(() => formatBareBech32('', ADDRESS_PAYLOAD))).toBe('expected a lowercase network prefix, got ""');
    expect(codecMessage(() => formatBareBech32('Camino', ADDRESS_PAYLOAD))).toBe('expected a lowercase network prefix, got "Camino"');
    expect(codecMessage(() => formatChainAddress('P', 'LOCAL', ADDRESS_PAYLOAD))).toBe('expected a lowercase network prefix, got "LOCAL"');
  });

  it('formatting refuses a chain letter other than X, P or C', () => {
    expect(codecMessage(() => formatChainAddress('x' as ChainLetter, 'local', ADDRESS_PAYLOAD))).toBe('expected chain X, P or C, got "x"');
    expect(codecMessage(() => formatChainAddress('Y' as ChainLetter, 'local', ADDRESS_PAYLOAD))).toBe('expected chain X, P or C, got "Y"');
  });

  it('parsing names an unknown chain prefix, an empty one and a long one clipped to 16 characters', () => {
    expect(codecMessage(() => parseChainAddress(`x-${LOCAL_ADDRESS}`))).toBe('unknown chain prefix "x-"; expected X-, P- or C-');
    expect(codecMessage(() => parseChainAddress(`-${LOCAL_ADDRESS}`))).toBe('unknown chain prefix "-"; expected X-, P- or C-');
    expect(codecMessage(() => parseChainAddress(`ABCDEFGHIJKLMNOPQRST-${LOCAL_ADDRESS}`))).toBe(
      'unknown chain prefix "ABCDEFGHIJKLMNOP-"; expected X-, P- or C-',
    );
    expect(codecMessage(() => parseChainAddress(LOCAL_ADDRESS, { chains: ['P', 'C'] }))).toBe(
      `expected an address with a chain prefix (P-... or C-...), got "${LOCAL_ADDRESS}"`,
    );
  });
});

describe('node ID and private key prefixes', () => {
  it('a node ID without its prefix is quoted, clipped to 48 characters', () => {
    expect(codecMessage(() => parseNodeId('abc'))).toBe('expected a node ID like NodeID-..., got "abc"');
    const long = `${'x'.repeat(48)}tail`;
    expect(codecMessage(() => parseNodeId(long))).toBe(`expected a node ID like NodeID-..., got "${'x'.repeat(48)}"`);
  });

  it('a private key without its prefix is refused without echoing the text', () => {
    expect(codecMessage(() => parsePrivateKey('NodeID-abc'))).toBe('expected a private key like PrivateKey-...');
    expect(codecMessage(() => parsePrivateKey('privatekey-abc'))).toBe('expected a private key like PrivateKey-...');
  });
});

describe('uint64 and amounts', () => {
  it('gives an unsafe integer, a fraction and NaN different messages', () => {
    expect(codecMessage(() => parseUint64(2 ** 53))).toBe('expected value as a decimal string: 9007199254740992 is too large for an exact JS number');
    expect(codecMessage(() => parseUint64(1.5))).toBe('expected value to be a whole non-negative number in decimal digits, got 1.5');
    expect(codecMessage(() => parseUint64(Number.NaN))).toBe('expected value to be a whole non-negative number in decimal digits, got NaN');
    expect(codecMessage(() => parseUint64(Number.POSITIVE_INFINITY, 'amount'))).toBe(
      'expected amount to be a whole non-negative number in decimal digits, got Infinity',
    );
  });

  it('refuses a signed digit string for its form, and a negative number for its sign', () => {
    expect(codecMessage(() => parseUint64('-1'))).toBe('expected value to be a whole non-negative number in decimal digits, got "-1"');
    expect(codecMessage(() => parseUint64(-1))).toBe('expected value to be non-negative, got -1');
    expect(codecMessage(() => parseUint64(-1n))).toBe('expected value to be non-negative, got -1');
  });

  it('formats negative values with one leading minus', () => {
    expect(formatUnits(-1500000000n, 9)).toBe('-1.5');
    expect(formatUnits(-1n, 9)).toBe('-0.000000001');
    expect(formatUnits(-1000000000n, 9)).toBe('-1');
    expect(formatUnits(0n, 0)).toBe('0');
    expect(formatAmount(-1234567500000000n, { decimals: 9, symbol: 'CAM' })).toBe('-1,234,567.5 CAM');
  });
});

describe('base64 text detection', () => {
  const b64 = (bytes: number[]): string => Buffer.from(bytes).toString('base64');

  it('decodes text containing tab, newline or carriage return', () => {
    expect(decodeBase64Text(b64([0x61, 0x09, 0x62]))).toBe('a\tb');
    expect(decodeBase64Text(b64([0x61, 0x0a, 0x62]))).toBe('a\nb');
    expect(decodeBase64Text(b64([0x61, 0x0d, 0x62]))).toBe('a\rb');
    expect(decodeBase64Text(b64([0x61, 0x20, 0x62]))).toBe('a b');
  });

  it('treats any other control byte, or DEL (0x7f), as binary and returns the input', () => {
    for (const control of [0x00, 0x01, 0x08, 0x0b, 0x0c, 0x0e, 0x1f, 0x7f]) {
      const encoded = b64([0x61, control, 0x62]);
      expect(decodeBase64Text(encoded)).toBe(encoded);
    }
  });
});

describe('timestamps', () => {
  const MAX_DATE_SECONDS = 8_640_000_000_000n;

  it('renders the largest JS date and refuses one second more', () => {
    expect(unixToIso(MAX_DATE_SECONDS)).toBe('+275760-09-13T00:00:00.000Z');
    expect(codecMessage(() => unixToIso(MAX_DATE_SECONDS + 1n))).toBe('expected a Unix timestamp before year 275760, got 8640000000001');
  });

  it('accepts the epoch itself as 0 and refuses one second earlier', () => {
    expect(parseDateTime('1970-01-01T00:00:00Z')).toBe(0n);
    expect(parseDateTime('1970-01-01')).toBe(0n);
    expect(parseDateTime('1970-01-01T01:00:00+01:00')).toBe(0n);
    expect(codecMessage(() => parseDateTime('1969-12-31T23:59:59Z'))).toBe(
      'expected a time after 1970-01-01T00:00:00Z, got "1969-12-31T23:59:59Z"',
    );
    expect(codecMessage(() => parseDateTime('1970-01-01T00:00:00+00:01'))).toBe(
      'expected a time after 1970-01-01T00:00:00Z, got "1970-01-01T00:00:00+00:01"',
    );
  });

  it('applies +hh:mm and -hh:mm offsets in opposite directions, and reads z as Z', () => {
    const noon = 1704110400n; // 2024-01-01T12:00:00Z
    expect(parseDateTime('2024-01-01T12:00:00Z')).toBe(noon);
    expect(parseDateTime('2024-01-01T12:00:00z')).toBe(noon);
    expect(parseDateTime('2024-01-01t12:00:00Z')).toBe(noon);
    expect(parseDateTime('2024-01-01T12:00:00+00:00')).toBe(noon);
    expect(parseDateTime('2024-01-01T12:00:00-00:00')).toBe(noon);
    expect(parseDateTime('2024-01-01T12:00:00+05:30')).toBe(noon - 19_800n);
    expect(parseDateTime('2024-01-01T12:00:00-05:30')).toBe(noon + 19_800n);
    expect(parseDateTime('2024-01-01T12:00:00+00:45')).toBe(noon - 2_700n);
  });

  it.each([
    ['month 13', '2024-13-01'],
    ['month 00', '2024-00-10'],
    ['day 32', '2024-01-32'],
    ['day 00', '2024-01-00'],
    ['Feb 30', '2024-02-30'],
    ['Feb 29 of a non-leap year', '2023-02-29'],
    ['hour 24', '2024-01-01T24:00:00Z'],
    ['minute 60', '2024-01-01T23:60:00Z'],
    ['second 60', '2024-01-01T23:59:60Z'],
    // Date.UTC reads years 0-99 as 1900-1999, so the year field does not round-trip.
    ['year 0050', '0050-01-01'],
  ])('refuses %s as not a real calendar date', (_label, text) => {
    expect(codecMessage(() => parseDateTime(text))).toBe(`expected a real calendar date and time, got "${text}"`);
  });

  it('accepts the last valid value of each field', () => {
    expect(parseDateTime('2024-02-29')).toBe(1709164800n);
    expect(parseDateTime('2024-12-31T23:59:59Z')).toBe(1735689599n);
  });
});
