import { secp256k1 } from '@noble/curves/secp256k1.js';
import { sha256 } from '@noble/hashes/sha2.js';
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { checksumEvmAddress, SignerLockedError, signerFromPrivateKey, xpAddress } from '../../src/signer/index.js';

const hex = (s: string) => Uint8Array.from(Buffer.from(s.replace(/^0x/, ''), 'hex'));
// The well-known ewoq test key of Avalanche/Camino local networks, with its published addresses.
const EWOQ = hex('56289e99c94b6912bfc12adc093c9b51124f0dc54ac7a766b2bc5ccf558d8027');

describe('signerFromPrivateKey', () => {
  it('an EVM signature recovers to the key\'s own C address with its yParity, for digests of either parity', async () => {
    const { recoverAddress } = await import('viem');
    const s = signerFromPrivateKey(EWOQ);
    const seen = new Set<number>();
    for (let i = 0; i < 16; i++) {
      const digest = sha256(Uint8Array.of(i));
      const sig = s.signEvmDigest(digest);
      seen.add(sig.yParity);
      const back = await recoverAddress({ hash: `0x${Buffer.from(digest).toString('hex')}`, signature: { r: sig.r, s: sig.s, yParity: sig.yParity } });
      expect(back).toBe(s.addresses.evm);
    }
    // Both parities occur among these digests, so a yParity stuck at one value fails above.
    expect([...seen].sort()).toEqual([0, 1]);
  });

  afterEach(() => vi.useRealTimers());

  it('derives the published X/P and C addresses of the ewoq key', () => {
    const s = signerFromPrivateKey(EWOQ);
    expect(xpAddress(s.addresses.shortId, 'local', 'X')).toBe('X-local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u');
    expect(xpAddress(s.addresses.shortId, 'camino', 'P')).toMatch(/^P-camino1/);
    expect(s.addresses.evm).toBe('0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC');
    expect(Buffer.from(s.addresses.publicKey).toString('hex')).toBe(Buffer.from(secp256k1.getPublicKey(EWOQ, true)).toString('hex'));
    expect(s.addresses.shortId).toHaveLength(20);
  });

  it('checksums EVM addresses as EIP-55 spells them', () => {
    for (const a of ['0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed', '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359', '0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB', '0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb']) {
      expect(checksumEvmAddress(hex(a))).toBe(a);
    }
  });

  it('signs as [r ‖ s ‖ v] with low s, recoverable to the key, over the hash as given', () => {
    const s = signerFromPrivateKey(EWOQ);
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 32, maxLength: 32 }), (hash) => {
        const sig = s.signHash(hash);
        expect(sig).toHaveLength(65);
        expect([0, 1]).toContain(sig[64]);
        const rec = new Uint8Array(65);
        rec[0] = sig[64] ?? 0;
        rec.set(sig.subarray(0, 64), 1);
        const pub = secp256k1.recoverPublicKey(rec, hash, { prehash: false });
        expect(Buffer.from(pub).equals(Buffer.from(s.addresses.publicKey))).toBe(true);
        expect(secp256k1.verify(sig.subarray(0, 64), hash, s.addresses.publicKey, { prehash: false })).toBe(true);
        // Not hashed again: a signature over sha256(hash) would not verify against the hash itself.
        expect(secp256k1.verify(sig.subarray(0, 64), sha256(hash), s.addresses.publicKey, { prehash: false })).toBe(false);
        const sInt = BigInt(`0x${Buffer.from(sig.subarray(32, 64)).toString('hex')}`);
        expect(sInt <= secp256k1.Point.CURVE().n / 2n).toBe(true);
      }),
      { numRuns: 25 },
    );
  });

  it('gives viem the same signature as r, s and yParity', () => {
    const s = signerFromPrivateKey(EWOQ);
    const digest = sha256(new TextEncoder().encode('tx'));
    const raw = s.signHash(digest);
    const evm = s.signEvmDigest(digest);
    expect(evm.r).toBe(`0x${Buffer.from(raw.subarray(0, 32)).toString('hex')}`);
    expect(evm.s).toBe(`0x${Buffer.from(raw.subarray(32, 64)).toString('hex')}`);
    expect(evm.yParity).toBe(raw[64]);
  });

  it('refuses a key or a hash of the wrong size', () => {
    expect(() => signerFromPrivateKey(new Uint8Array(31))).toThrow('expected a 32-byte secp256k1 private key');
    expect(() => signerFromPrivateKey(new Uint8Array(32))).toThrow('expected a 32-byte secp256k1 private key');
    expect(() => signerFromPrivateKey(EWOQ).signHash(new Uint8Array(33))).toThrow('expected a 32-byte hash');
    expect(() => signerFromPrivateKey(EWOQ).signEvmDigest(new Uint8Array(31))).toThrow('expected a 32-byte digest');
  });

  it('once locked, refuses to sign with a message that holds no secret, and stays locked', () => {
    const s = signerFromPrivateKey(EWOQ, { lockedMessage: () => 'the signing key is locked: unlock it at http://127.0.0.1:1/unlock' });
    s.lock();
    expect(s.isUnlocked()).toBe(false);
    let err: unknown;
    try {
      s.signHash(new Uint8Array(32).fill(1));
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(SignerLockedError);
    expect((err as Error).message).toBe('the signing key is locked: unlock it at http://127.0.0.1:1/unlock');
    expect((err as Error).message).not.toContain(Buffer.from(EWOQ).toString('hex'));
    expect(() => s.signEvmDigest(new Uint8Array(32))).toThrow(SignerLockedError);
    expect(s.addresses.evm).toBe('0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC');
  });

  it('locks after the idle time without a confirmed spend: each confirmed use restarts the wait, a signature alone does not', () => {
    vi.useFakeTimers();
    const s = signerFromPrivateKey(EWOQ, { idleMinutes: 2 });
    vi.advanceTimersByTime(119_000);
    expect(s.isUnlocked()).toBe(true);
    s.confirmedUse();
    vi.advanceTimersByTime(119_000);
    expect(s.isUnlocked()).toBe(true);
    // Previews sign (a transfer's export, to learn its ID) every 40 s: the key still locks on time.
    s.signHash(new Uint8Array(32).fill(7));
    s.signEvmDigest(new Uint8Array(32).fill(8));
    vi.advanceTimersByTime(1_000);
    expect(s.isUnlocked()).toBe(false);
    expect(() => s.signHash(new Uint8Array(32).fill(7))).toThrow(SignerLockedError);
    s.confirmedUse();
    expect(s.isUnlocked()).toBe(false);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('can be locked again, by hand or after the idle lock, without error', () => {
    vi.useFakeTimers();
    const s = signerFromPrivateKey(EWOQ, { idleMinutes: 1 });
    s.lock();
    expect(() => s.lock()).not.toThrow();
    const idle = signerFromPrivateKey(EWOQ, { idleMinutes: 1 });
    vi.advanceTimersByTime(60_000);
    expect(idle.isUnlocked()).toBe(false);
    expect(() => idle.lock()).not.toThrow();
    expect(() => idle.signHash(new Uint8Array(32))).toThrow(SignerLockedError);
  });

  it('cancels its idle timer when locked by hand, leaving nothing scheduled', () => {
    vi.useFakeTimers();
    const s = signerFromPrivateKey(EWOQ, { idleMinutes: 5 });
    expect(vi.getTimerCount()).toBe(1);
    s.confirmedUse();
    // Each confirmed use replaces the wait; it does not add one.
    expect(vi.getTimerCount()).toBe(1);
    s.lock();
    expect(vi.getTimerCount()).toBe(0);
    expect(signerFromPrivateKey(EWOQ).isUnlocked()).toBe(true);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('never locks by itself without an idle time', () => {
    vi.useFakeTimers();
    const s = signerFromPrivateKey(EWOQ);
    vi.advanceTimersByTime(10 * 24 * 3_600_000);
    expect(s.isUnlocked()).toBe(true);
  });
});
