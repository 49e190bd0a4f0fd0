import { formatChainAddress } from '../codec/index.js';

/**
 * What the rest of chain-mcp may know about the key without unlocking it: the public side only.
 * This module loads no curve code, so the start path can import it freely.
 */
export interface SignerAddresses {
  /** ripemd160(sha256(compressed public key)): the X/P address payload, 20 bytes. */
  shortId: Uint8Array;
  /** The compressed secp256k1 public key, 33 bytes. */
  publicKey: Uint8Array;
  /** The C-chain address, EIP-55 checksummed. */
  evm: `0x${string}`;
}

/** A spend asked for a signature while the key is locked. The message says how to unlock, never a secret. */
export class SignerLockedError extends Error {
  constructor(message = 'the signing key is locked: unlock it on the approval page') {
    super(message);
    this.name = 'SignerLockedError';
  }
}

export interface EvmSignature {
  r: `0x${string}`;
  s: `0x${string}`;
  yParity: 0 | 1;
}

export interface LocalSigner {
  /** Public: readable without unlocking (the key file stores it in clear). */
  readonly addresses: SignerAddresses;
  isUnlocked(): boolean;
  /** sha256 already applied by the caller: returns the 65-byte [r ‖ s ‖ v] recoverable signature; throws SignerLockedError. Does not restart the idle timer. */
  signHash(hash32: Uint8Array): Uint8Array;
  /** An EVM digest (keccak256 of the serialized tx): returns { r, s, yParity } for viem's serializeTransaction. Does not restart the idle timer. */
  signEvmDigest(digest32: Uint8Array): EvmSignature;
  /**
   * A spend the human approved is being signed: restarts the idle timer. Only this does; a
   * preview (even one that signs to learn an ID) never keeps the key unlocked.
   */
  confirmedUse(): void;
  lock(): void;
}

/** `X-camino1…` / `P-columbus1…` for a short ID on the network with prefix `hrp`. */
export function xpAddress(shortId: Uint8Array, hrp: string, chain: 'X' | 'P' | 'C'): string {
  return formatChainAddress(chain, hrp, shortId);
}
