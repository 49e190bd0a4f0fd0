/**
 * Real secp256k1 keys for the simulator: the account the local signer spends from, and the checks a
 * node makes on a credential (recover the public key from a 65-byte [r ‖ s ‖ v] signature over
 * sha256 of the unsigned bytes, derive its address). Only the simulator imports this file.
 */
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { ripemd160 } from '@noble/hashes/legacy.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { formatBareBech32 } from '../../codec/index.js';

export interface RealKey {
  /** 32 bytes: a secret, only in the simulator's handle (tests and the demo sign with it). */
  privateKey: Uint8Array;
  /** Compressed, 33 bytes. */
  publicKey: Uint8Array;
  /** ripemd160(sha256(compressed public key)): the X/P address payload. */
  shortId: Uint8Array;
  bech32: string;
  x: string;
  p: string;
  /** C-chain address, lowercase 0x hex. */
  c: string;
}

/** X/P payload of a public key (utils/hashing: ripemd160 of sha256 of the compressed key). */
export function shortIdOfPublicKey(publicKey: Uint8Array): Uint8Array {
  const compressed = publicKey.length === 33 ? publicKey : secp256k1.Point.fromBytes(publicKey).toBytes(true);
  return ripemd160(sha256(compressed));
}

/** C address of a public key: the last 20 bytes of keccak256 of the uncompressed key without its 0x04. */
export function evmAddressOfPublicKey(publicKey: Uint8Array): string {
  const uncompressed = secp256k1.Point.fromBytes(publicKey).toBytes(false);
  return `0x${Buffer.from(keccak_256(uncompressed.subarray(1)).subarray(12)).toString('hex')}`;
}

/** A key derived from a label (deterministic across runs), with its addresses on network `hrp`. */
export function realKey(hrp: string, label: string): RealKey {
  let privateKey = sha256(new TextEncoder().encode(`devnet-real-key:${label}`));
  // Vanishingly rare, but a hash outside the curve order is no key: hash again.
  while (!secp256k1.utils.isValidSecretKey(privateKey)) privateKey = sha256(privateKey);
  const publicKey = secp256k1.getPublicKey(privateKey, true);
  const shortId = shortIdOfPublicKey(publicKey);
  const bech32 = formatBareBech32(hrp, shortId);
  return { privateKey, publicKey, shortId, bech32, x: `X-${bech32}`, p: `P-${bech32}`, c: evmAddressOfPublicKey(publicKey) };
}

const HALF_ORDER = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n / 2n;

/**
 * The compressed public key behind a 65-byte [r ‖ s ‖ v] signature over `hash32`, or undefined when
 * the signature is malformed or recovers no point (secp256k1fx RecoverPublicKeyFromHash).
 */
export function recoverSigner(hash32: Uint8Array, signature: Uint8Array): Uint8Array | undefined {
  if (signature.length !== 65 || hash32.length !== 32) return undefined;
  const v = signature[64]!;
  if (v > 1) return undefined;
  // noble's recovered form puts the recovery byte first.
  const recovered = new Uint8Array(65);
  recovered[0] = v;
  recovered.set(signature.subarray(0, 64), 1);
  // A real node refuses a high-s signature (malleable: secp256k1 RecoverPublicKeyFromHash).
  if (BigInt(`0x${Buffer.from(signature.subarray(32, 64)).toString('hex')}`) > HALF_ORDER) return undefined;
  try {
    return secp256k1.recoverPublicKey(recovered, hash32, { prehash: false });
  } catch {
    return undefined;
  }
}

/** sha256 (noble), for the signing hash and transaction IDs. */
export function sha256Bytes(bytes: Uint8Array): Uint8Array {
  return sha256(bytes);
}
