import { secp256k1 } from '@noble/curves/secp256k1.js';
import { describe, expect, it } from 'vitest';
import { evmAddressOfPublicKey, realKey, recoverSigner } from '../../src/devnet/state/keys.js';

/** [r ‖ s ‖ v], as the node and the local signer write a signature. */
function sign(key: Uint8Array, hash: Uint8Array): Uint8Array {
  const rec = secp256k1.sign(hash, key, { prehash: false, format: 'recovered' });
  const sig = new Uint8Array(65);
  sig.set(rec.subarray(1), 0);
  sig[64] = rec[0]!;
  return sig;
}

describe('simulator keys', () => {
  it('derives X/P from ripemd160(sha256(compressed key)) and C from keccak of the uncompressed key', () => {
    // Known vector: private key 1 (the generator point).
    const one = new Uint8Array(32);
    one[31] = 1;
    const k = realKey('local', 'ignored');
    expect(k.x.startsWith('X-local1')).toBe(true);
    expect(k.p.slice(2)).toBe(k.x.slice(2));
    expect(k.c).toMatch(/^0x[0-9a-f]{40}$/);
    // The address of key 1 on Ethereum is well known.
    expect(evmAddressOfPublicKey(secp256k1.getPublicKey(one, true))).toBe('0x7e5f4552091a69125d5dfcb7b8c2659029395bdf');
  });

  it('recovers the signer of a signature and refuses a tampered or high-s one', () => {
    const k = realKey('local', 'a');
    const hash = new Uint8Array(32).fill(7);
    const sig = sign(k.privateKey, hash);
    expect(Buffer.from(recoverSigner(hash, sig)!)).toEqual(Buffer.from(k.publicKey));
    const other = new Uint8Array(32).fill(8);
    expect(Buffer.from(recoverSigner(other, sig) ?? [])).not.toEqual(Buffer.from(k.publicKey));
    const badV = sig.slice();
    badV[64] = 4;
    expect(recoverSigner(hash, badV)).toBeUndefined();
    const n = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
    const s = BigInt(`0x${Buffer.from(sig.subarray(32, 64)).toString('hex')}`);
    const high = sig.slice();
    high.set(Buffer.from((n - s).toString(16).padStart(64, '0'), 'hex'), 32);
    high[64] = sig[64]! ^ 1;
    expect(recoverSigner(hash, high)).toBeUndefined();
  });
});
