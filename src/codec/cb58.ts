import { createHash } from 'node:crypto';
import { base58 } from '@scure/base';
import { CodecError } from './errors.js';

/**
 * cb58 = base58(bytes ++ checksum), where the checksum is the LAST 4 bytes of a
 * SINGLE sha256. Bitcoin's base58check (createBase58check) uses the first 4 bytes
 * of a double sha256, and @scure/base 2.x no longer exports `utils.checksum`, so
 * only the base58 alphabet coder comes from the library.
 */
const CHECKSUM_BYTES = 4;

function checksum(payload: Uint8Array): Uint8Array {
  const digest = createHash('sha256').update(payload).digest();
  return new Uint8Array(digest.subarray(digest.length - CHECKSUM_BYTES));
}

export function cb58Encode(bytes: Uint8Array): string {
  const framed = new Uint8Array(bytes.length + CHECKSUM_BYTES);
  framed.set(bytes);
  framed.set(checksum(bytes), bytes.length);
  return base58.encode(framed);
}

export function cb58Decode(text: string): Uint8Array {
  if (typeof text !== 'string') throw new CodecError('expected cb58 text');
  let framed: Uint8Array;
  try {
    framed = base58.decode(text);
  } catch {
    // No echo of the input: cb58 also carries private keys.
    throw new CodecError('expected cb58 text, found a character outside the base58 alphabet');
  }
  if (framed.length < CHECKSUM_BYTES) {
    throw new CodecError(`expected at least ${CHECKSUM_BYTES} bytes of cb58 data, got ${framed.length}`);
  }
  const payload = framed.slice(0, framed.length - CHECKSUM_BYTES);
  const expected = checksum(payload);
  for (let i = 0; i < CHECKSUM_BYTES; i++) {
    if (framed[payload.length + i] !== expected[i]) throw new CodecError('bad cb58 checksum');
  }
  return payload;
}
