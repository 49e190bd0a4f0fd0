import { secp256k1 } from '@noble/curves/secp256k1.js';
import { ripemd160 } from '@noble/hashes/legacy.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { type EvmSignature, type LocalSigner, type SignerAddresses, SignerLockedError } from './types.js';

/*
 * The curve code (about 40 ms to load unbundled): reached only through `await import()` from the key file
 * or from tests and the demo, so a server that never signs never loads it.
 */

function toHex(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex');
}

/** EIP-55: a hex digit is upper case where the matching nibble of keccak256(lowercase address) is 8 or more. */
export function checksumEvmAddress(address20: Uint8Array): `0x${string}` {
  const lower = toHex(address20);
  const hash = keccak_256(new TextEncoder().encode(lower));
  const out = [...lower].map((ch, i) => {
    const nibble = ((hash[i >> 1] ?? 0) >> (i % 2 === 0 ? 4 : 0)) & 15;
    return nibble >= 8 ? ch.toUpperCase() : ch;
  });
  return `0x${out.join('')}`;
}

/** The X/P short ID and the C address of a 32-byte secp256k1 key. Throws on a key outside the curve's range. */
export function addressesOfKey(key: Uint8Array): SignerAddresses {
  if (!(key instanceof Uint8Array) || key.length !== 32 || !secp256k1.utils.isValidSecretKey(key)) {
    throw new Error('expected a 32-byte secp256k1 private key');
  }
  const publicKey = secp256k1.getPublicKey(key, true);
  const uncompressed = secp256k1.getPublicKey(key, false);
  return {
    shortId: ripemd160(sha256(publicKey)),
    publicKey,
    evm: checksumEvmAddress(keccak_256(uncompressed.subarray(1)).subarray(12)),
  };
}

function check32(bytes: Uint8Array, what: string): void {
  if (!(bytes instanceof Uint8Array) || bytes.length !== 32) throw new Error(`expected a 32-byte ${what}`);
}

/** noble's 'recovered' form is [v ‖ r ‖ s]; the node and Ethereum put the recovery byte last. */
function signRecoverable(key: Uint8Array, hash32: Uint8Array): Uint8Array {
  const rec = secp256k1.sign(hash32, key, { prehash: false, format: 'recovered', lowS: true });
  const out = new Uint8Array(65);
  out.set(rec.subarray(1), 0);
  out[64] = rec[0] ?? 0;
  return out;
}

export interface PrivateKeySignerOptions {
  /** Lock after this many minutes without a confirmed spend (`confirmedUse`); unset or 0: never. */
  idleMinutes?: number;
  /** The locked error's text: how to unlock this signer. */
  lockedMessage?: () => string;
}

/**
 * A signer over a raw key, unlocked. The key is copied; `lock()` zeroes the copy (best effort: a JS
 * engine may have left other copies), after which nothing can unlock it again.
 */
export function signerFromPrivateKey(key: Uint8Array, opts: PrivateKeySignerOptions = {}): LocalSigner {
  const addresses = addressesOfKey(key);
  let secret: Uint8Array | undefined = Uint8Array.from(key);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const idleMs = (opts.idleMinutes ?? 0) * 60_000;

  const lock = (): void => {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
    secret?.fill(0);
    secret = undefined;
  };
  const touch = (): void => {
    if (idleMs <= 0) return;
    if (timer !== undefined) clearTimeout(timer);
    timer = setTimeout(lock, idleMs);
    // An idle key must not keep the process alive.
    timer.unref?.();
  };
  const unlocked = (): Uint8Array => {
    if (secret === undefined) throw new SignerLockedError(opts.lockedMessage?.());
    return secret;
  };
  touch();

  return {
    addresses,
    isUnlocked: () => secret !== undefined,
    signHash(hash32) {
      check32(hash32, 'hash');
      return signRecoverable(unlocked(), hash32);
    },
    signEvmDigest(digest32): EvmSignature {
      check32(digest32, 'digest');
      const sig = signRecoverable(unlocked(), digest32);
      return { r: `0x${toHex(sig.subarray(0, 32))}`, s: `0x${toHex(sig.subarray(32, 64))}`, yParity: sig[64] === 1 ? 1 : 0 };
    },
    confirmedUse() {
      // Only a live key's wait restarts; a locked one stays locked.
      if (secret !== undefined) touch();
    },
    lock,
  };
}
