import { cb58Decode, cb58Encode } from './cb58.js';
import { CodecError } from './errors.js';

/** Tx, asset, chain, block and subnet IDs are 32-byte hashes in cb58. */
export const ID_BYTES = 32;
/** Node IDs are 20-byte hashes of the staking certificate. */
export const NODE_ID_BYTES = 20;
export const NODE_ID_PREFIX = 'NodeID-';
export const PRIVATE_KEY_PREFIX = 'PrivateKey-';
const PRIVATE_KEY_BYTES = 32;

function expectLength(bytes: Uint8Array, length: number, what: string): Uint8Array {
  if (bytes.length !== length) throw new CodecError(`expected ${length} bytes for ${what}, got ${bytes.length}`);
  return bytes;
}

export function parseCb58Id(text: string): Uint8Array {
  return expectLength(cb58Decode(text), ID_BYTES, 'an ID');
}

export function isCb58Id(text: unknown): text is string {
  if (typeof text !== 'string') return false;
  try {
    parseCb58Id(text);
    return true;
  } catch {
    return false;
  }
}

export function formatCb58Id(bytes: Uint8Array): string {
  return cb58Encode(expectLength(bytes, ID_BYTES, 'an ID'));
}

export function parseNodeId(text: string): Uint8Array {
  if (typeof text !== 'string' || !text.startsWith(NODE_ID_PREFIX)) {
    throw new CodecError(`expected a node ID like ${NODE_ID_PREFIX}..., got ${typeof text === 'string' ? JSON.stringify(text.slice(0, 48)) : typeof text}`);
  }
  return expectLength(cb58Decode(text.slice(NODE_ID_PREFIX.length)), NODE_ID_BYTES, 'a node ID');
}

export function formatNodeId(bytes: Uint8Array): string {
  return NODE_ID_PREFIX + cb58Encode(expectLength(bytes, NODE_ID_BYTES, 'a node ID'));
}

/** secp256k1 private key in the node's `PrivateKey-<cb58>` form. Errors never include the text. */
export function parsePrivateKey(text: string): Uint8Array {
  if (typeof text !== 'string' || !text.startsWith(PRIVATE_KEY_PREFIX)) {
    throw new CodecError(`expected a private key like ${PRIVATE_KEY_PREFIX}...`);
  }
  return expectLength(cb58Decode(text.slice(PRIVATE_KEY_PREFIX.length)), PRIVATE_KEY_BYTES, 'a private key');
}
