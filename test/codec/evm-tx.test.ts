import { secp256k1 } from '@noble/curves/secp256k1.js';
import fc from 'fast-check';
import { keccak256 as viemKeccak, parseTransaction, recoverTransactionAddress, serializeTransaction } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { describe, expect, it } from 'vitest';
import { keccak256, parseEvmTx, rlpDecode, rlpEncode, serializeEip1559 } from '../../src/codec/evm-tx.js';

/** The product's EVM transaction bytes, proven byte for byte against viem (the library the issue names). */

const hex = (b: Uint8Array) => `0x${Buffer.from(b).toString('hex')}` as `0x${string}`;
const u64 = fc.bigInt({ min: 0n, max: 2n ** 64n - 1n });
const u256 = fc.bigInt({ min: 0n, max: 2n ** 256n - 1n });
const fields = fc.record({
  chainId: fc.bigInt({ min: 1n, max: 2n ** 32n }),
  nonce: u64,
  maxPriorityFeePerGas: u256,
  maxFeePerGas: u256,
  gas: u64,
  to: fc.option(fc.uint8Array({ minLength: 20, maxLength: 20 }).map(hex), { nil: undefined }),
  value: u256,
  data: fc.uint8Array({ maxLength: 200 }),
});
type Fields = Parameters<typeof serializeEip1559>[0];
const viemTx = (f: Fields) =>
  ({
    type: 'eip1559',
    chainId: Number(f.chainId),
    nonce: Number(f.nonce),
    maxPriorityFeePerGas: f.maxPriorityFeePerGas,
    maxFeePerGas: f.maxFeePerGas,
    gas: f.gas,
    ...(f.to ? { to: f.to } : {}),
    value: f.value,
    ...(f.data.length > 0 ? { data: hex(f.data) } : {}),
  }) as never;

describe('EIP-1559 transactions against viem', () => {
  it('unsigned and signed bytes equal viem serializeTransaction; both parse back to the same fields', () => {
    fc.assert(
      fc.property(fields, fc.bigInt({ min: 1n, max: 2n ** 255n }), fc.bigInt({ min: 1n, max: 2n ** 255n }), fc.boolean(), (f, r, s, odd) => {
        // viem takes the nonce as a number, and refuses a tip over the fee cap: keep within both.
        const [low, high] = f.maxPriorityFeePerGas <= f.maxFeePerGas ? [f.maxPriorityFeePerGas, f.maxFeePerGas] : [f.maxFeePerGas, f.maxPriorityFeePerGas];
        const g = { ...f, nonce: f.nonce % 2n ** 52n, maxPriorityFeePerGas: low, maxFeePerGas: high };
        const ours = serializeEip1559(g);
        expect(hex(ours)).toBe(serializeTransaction(viemTx(g)));
        const sig = { r, s, yParity: (odd ? 1 : 0) as 0 | 1 };
        const signed = serializeEip1559(g, sig);
        expect(hex(signed)).toBe(serializeTransaction(viemTx(g), { r: `0x${r.toString(16).padStart(64, '0')}`, s: `0x${s.toString(16).padStart(64, '0')}`, yParity: sig.yParity }));
        const back = parseEvmTx(signed);
        expect(back.fields).toEqual({ ...g, data: Uint8Array.from(g.data) });
        expect(back.signature).toEqual(sig);
        expect(hex(back.signingHash)).toBe(viemKeccak(ours));
        const v = parseTransaction(hex(signed));
        expect(v.value ?? 0n).toBe(g.value);
      }),
      { numRuns: 200 },
    );
  });

  it('a signature over keccak256 of the unsigned bytes recovers the signer, as viem reads it', async () => {
    const key = secp256k1.utils.randomSecretKey();
    const account = privateKeyToAccount(hex(key));
    const f = { chainId: 500n, nonce: 7n, maxPriorityFeePerGas: 10n ** 9n, maxFeePerGas: 5n * 10n ** 10n, gas: 21_000n, to: account.address, value: 123n, data: new Uint8Array() };
    const rec = secp256k1.sign(keccak256(serializeEip1559(f)), key, { prehash: false, format: 'recovered' });
    const signed = serializeEip1559(f, { r: BigInt(hex(rec.subarray(1, 33))), s: BigInt(hex(rec.subarray(33, 65))), yParity: rec[0] as 0 | 1 });
    expect((await recoverTransactionAddress({ serializedTransaction: hex(signed) as never })).toLowerCase()).toBe(account.address.toLowerCase());
    // And a legacy EIP-155 tx signed by viem is read with its chain ID and signing hash.
    const legacy = await account.signTransaction({ type: 'legacy', chainId: 500, nonce: 3, gasPrice: 25n * 10n ** 9n, gas: 21_000n, to: account.address, value: 5n });
    const parsed = parseEvmTx(Uint8Array.from(Buffer.from(legacy.slice(2), 'hex')));
    expect(parsed.type).toBe('legacy');
    expect(parsed.fields.chainId).toBe(500n);
    const pub = secp256k1.Signature.fromBytes(
      Uint8Array.from([parsed.signature!.yParity, ...Buffer.from(parsed.signature!.r.toString(16).padStart(64, '0'), 'hex'), ...Buffer.from(parsed.signature!.s.toString(16).padStart(64, '0'), 'hex')]),
      'recovered',
    ).recoverPublicKey(parsed.signingHash);
    expect(hex(keccak256(pub.toBytes(false).subarray(1)).subarray(12))).toBe(account.address.toLowerCase());
  });

  it('RLP is strict: trailing bytes, truncation and non-canonical forms are refused', () => {
    expect(rlpDecode(rlpEncode([Uint8Array.of(1, 2), [Uint8Array.of(0x7f)]]))).toEqual([Uint8Array.of(1, 2), [Uint8Array.of(0x7f)]]);
    expect(() => rlpDecode(Uint8Array.of(0x82, 1))).toThrow(/exceeds/);
    expect(() => rlpDecode(Uint8Array.of(0x01, 0x02))).toThrow(/more data/);
    expect(() => rlpDecode(Uint8Array.of(0x81, 0x05))).toThrow(/non-canonical/);
    expect(() => parseEvmTx(Uint8Array.of(0x01, 0xc0))).toThrow(/not supported/);
  });
});
