import { createHash } from 'node:crypto';
import { cb58Decode } from './cb58.js';
import { CodecError } from './errors.js';
import { hexToBytes } from './hex.js';

/**
 * The node's byte encodings: `cb58`, `hex` (0x + data + the last 4 bytes of sha256(data),
 * the same checksum as cb58) and `hexnc` (0x + data, no checksum). Decoding returns the
 * payload, so sizes are of the data and never of the string or its checksum.
 */
export type ByteEncoding = 'cb58' | 'hex' | 'hexc' | 'hexnc';

const CHECKSUM_BYTES = 4;

/** `hex` with its checksum verified; the payload without it. */
export function hexChecksumDecode(text: string): Uint8Array {
  if (typeof text !== 'string' || !text.startsWith('0x')) throw new CodecError('expected 0x-prefixed hex');
  const framed = hexToBytes(text);
  if (framed.length < CHECKSUM_BYTES) throw new CodecError(`expected at least ${CHECKSUM_BYTES} bytes (data + 4-byte checksum), got ${framed.length}`);
  const payload = framed.subarray(0, framed.length - CHECKSUM_BYTES);
  const digest = createHash('sha256').update(payload).digest();
  const expected = digest.subarray(digest.length - CHECKSUM_BYTES);
  for (let i = 0; i < CHECKSUM_BYTES; i++) {
    if (framed[payload.length + i] !== expected[i]) throw new CodecError('bad hex checksum (the last 4 bytes must be the end of sha256 of the data)');
  }
  return payload;
}

/** `hex` as a Camino node reads it by default: 0x + data + the last 4 bytes of sha256(data). */
export function hexChecksumEncode(data: Uint8Array): string {
  const digest = createHash('sha256').update(data).digest();
  return `0x${Buffer.from(data).toString('hex')}${digest.subarray(digest.length - CHECKSUM_BYTES).toString('hex')}`;
}

/** The encoding a byte string given without one is read in: `0x` text is hex (with checksum), anything else cb58. */
export function impliedEncoding(text: string, encoding: ByteEncoding | undefined): ByteEncoding {
  return encoding ?? (text.startsWith('0x') ? 'hex' : 'cb58');
}

/** Payload bytes of `text` in `encoding` (default cb58); throws CodecError on a bad checksum or bad digits. */
export function decodeEncoded(text: string, encoding: ByteEncoding | undefined): Uint8Array {
  switch (encoding ?? 'cb58') {
    case 'cb58':
      return cb58Decode(text);
    case 'hex':
    case 'hexc':
      return hexChecksumDecode(text);
    case 'hexnc':
      if (typeof text !== 'string' || !text.startsWith('0x')) throw new CodecError('expected 0x-prefixed hex');
      return hexToBytes(text);
    default:
      throw new CodecError(`unknown encoding ${String(encoding)}`);
  }
}
