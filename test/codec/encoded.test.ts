import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { cb58Encode, decodeEncoded, hexChecksumDecode } from '../../src/codec/index.js';

/** The node's byte encodings: sizes are of the payload, checksums are verified. */

const data = Buffer.from('an NFT payload');
const sum = createHash('sha256').update(data).digest().subarray(-4);
const hex = `0x${Buffer.concat([data, sum]).toString('hex')}`;

describe('hex with checksum', () => {
  it('returns the payload without the 4-byte checksum', () => {
    expect(Buffer.from(hexChecksumDecode(hex))).toEqual(data);
    expect(decodeEncoded(hex, 'hex')).toHaveLength(data.length);
  });

  it('refuses a changed checksum byte, a changed data byte, and data without a checksum', () => {
    const lastByte = hex.slice(-2) === 'ff' ? '00' : 'ff';
    expect(() => hexChecksumDecode(`${hex.slice(0, -2)}${lastByte}`)).toThrow(/bad hex checksum/);
    expect(() => hexChecksumDecode(`0x00${hex.slice(4)}`)).toThrow(/bad hex checksum/);
    expect(() => hexChecksumDecode(`0x${data.toString('hex')}`)).toThrow(/bad hex checksum/);
  });

  it('refuses fewer than 4 bytes, odd digits and a missing 0x', () => {
    expect(() => hexChecksumDecode('0x0102')).toThrow(/at least 4 bytes/);
    expect(() => hexChecksumDecode(`${hex}0`)).toThrow(/even number of hex digits/);
    expect(() => hexChecksumDecode(hex.slice(2))).toThrow(/0x-prefixed/);
  });
});

describe('decodeEncoded', () => {
  it('hexnc is the data as is, with no checksum', () => {
    expect(Buffer.from(decodeEncoded(`0x${data.toString('hex')}`, 'hexnc'))).toEqual(data);
  });

  it('cb58 is the default and its checksum is verified', () => {
    expect(Buffer.from(decodeEncoded(cb58Encode(data), undefined))).toEqual(data);
    const text = cb58Encode(data);
    const changed = `${text.slice(0, -1)}${text.endsWith('1') ? '2' : '1'}`;
    expect(() => decodeEncoded(changed, 'cb58')).toThrow(/checksum|base58/);
  });
});
