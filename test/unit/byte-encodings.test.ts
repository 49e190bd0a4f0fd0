import { describe, expect, it } from 'vitest';
import { cb58Encode, hexChecksumEncode, hexToBytes } from '../../src/codec/index.js';
import { nodeHex, payloadBytes } from '../../src/spend/plan.js';
import { answeredEncoding } from '../../src/summarize/format.js';

const bytes = new TextEncoder().encode('genesis bytes');

describe('byte strings the caller gives (nodeHex, payloadBytes)', () => {
  it('reads 0x text as hex with checksum and other text as cb58 when no encoding is named', () => {
    expect(payloadBytes('tx', hexChecksumEncode(bytes), undefined)).toBe(bytes.length);
    expect(payloadBytes('tx', cb58Encode(bytes), undefined)).toBe(bytes.length);
    expect(nodeHex('tx', cb58Encode(bytes), undefined)).toEqual({ encoding: 'hex', data: hexChecksumEncode(bytes) });
    expect(nodeHex('tx', hexChecksumEncode(bytes), undefined)).toEqual({ encoding: 'hex', data: hexChecksumEncode(bytes) });
  });

  it('adds the checksum to hexnc bytes and keeps hexc as hex', () => {
    const plain = `0x${Buffer.from(bytes).toString('hex')}`;
    expect(nodeHex('genesisData', plain, 'hexnc').data).toBe(hexChecksumEncode(bytes));
    expect(nodeHex('genesisData', hexChecksumEncode(bytes), 'hexc').data).toBe(hexChecksumEncode(bytes));
    expect(hexToBytes(nodeHex('genesisData', plain, 'hexnc').data).length).toBe(bytes.length + 4);
  });

  it('refuses what does not decode in the named or implied encoding, naming the field', () => {
    expect(() => nodeHex('payload', `0x${Buffer.from(bytes).toString('hex')}`, undefined)).toThrow(/payload: not valid hex: bad hex checksum/);
    expect(() => nodeHex('payload', hexChecksumEncode(bytes), 'cb58')).toThrow(/payload: not valid cb58/);
    expect(() => payloadBytes('user', 'not-base58-0OIl', undefined)).toThrow(/user: not valid cb58/);
  });
});

describe('answeredEncoding: the label of bytes a node answered', () => {
  it('is what the node said, else what was asked, else what the text looks like', () => {
    expect(answeredEncoding('hexnc', 'hex', '0x00')).toBe('hexnc');
    expect(answeredEncoding(undefined, 'hexc', 'abc')).toBe('hexc');
    expect(answeredEncoding(undefined, undefined, '0x1234')).toBe('hex');
    expect(answeredEncoding('', undefined, '2Jv')).toBe('cb58');
    expect(answeredEncoding(undefined, undefined, { unsignedTx: {} })).toBe('json');
    expect(answeredEncoding(undefined, undefined, undefined)).toBe('unknown');
  });
});
