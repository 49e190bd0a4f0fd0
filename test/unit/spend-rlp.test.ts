import { describe, expect, it } from 'vitest';
import { decodeRawEvmTx, erc20Transfer, maxFeeWei } from '../../src/spend/rlp.js';

/** The recipient, value and chain ID (the fee fields and calldata are asserted on their own below). */
const head = (f: ReturnType<typeof decodeRawEvmTx>) => ({ to: f.to, value: f.value, chainId: f.chainId });

/**
 * decodeRawEvmTx reads the recipient, value and chain ID of a signed EVM transaction so
 * eth_sendRawTransaction is held to the spend limits. The transactions are built here with a
 * small RLP encoder written from the Ethereum yellow paper (appendix B), plus one published
 * vector (EIP-155), and each decoded field is asserted.
 */

type Rlp = Uint8Array | Rlp[];

function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** Big-endian bytes of a length, no leading zero. */
function lengthBytes(n: number): number[] {
  const out: number[] = [];
  for (let v = n; v > 0; v = Math.floor(v / 256)) out.unshift(v % 256);
  return out;
}

function header(base: number, length: number): Uint8Array {
  if (length <= 55) return Uint8Array.of(base + length);
  const lb = lengthBytes(length);
  return Uint8Array.of(base + 55 + lb.length, ...lb);
}

function rlp(item: Rlp): Uint8Array {
  if (item instanceof Uint8Array) {
    if (item.length === 1 && (item[0] ?? 0) < 0x80) return item;
    return concat(header(0x80, item.length), item);
  }
  const payload = concat(...item.map(rlp));
  return concat(header(0xc0, payload.length), payload);
}

/** A scalar as RLP wants it: big-endian, no leading zeros, zero as the empty string. */
function uint(value: bigint): Uint8Array {
  const out: number[] = [];
  for (let v = value; v > 0n; v /= 256n) out.unshift(Number(v % 256n));
  return Uint8Array.from(out);
}

const fill = (length: number, byte: number) => new Uint8Array(length).fill(byte);
const hex = (bytes: Uint8Array) => `0x${Buffer.from(bytes).toString('hex')}`;
const typed = (type: number, fields: Rlp[]) => hex(concat(Uint8Array.of(type), rlp(fields)));
const legacy = (fields: Rlp[]) => hex(rlp(fields));

const TO = fill(20, 0x35);
const TO_HEX = `0x${'35'.repeat(20)}`;
const R = fill(32, 0x11);
const S = fill(32, 0x22);

/** nonce, gasPrice, gas, to, value, data, v, r, s */
const legacyTx = (o: { to?: Uint8Array; value?: Rlp; data?: Uint8Array; v: bigint }): Rlp[] => [
  uint(9n),
  uint(20_000_000_000n),
  uint(21_000n),
  o.to ?? TO,
  o.value ?? uint(10n ** 18n),
  o.data ?? new Uint8Array(),
  uint(o.v),
  R,
  S,
];

/** EIP-155's own example: nonce 9, 20 gwei, 21000 gas, to 0x3535..., 1 ether, chain ID 1 (v = 37). */
const EIP155_VECTOR =
  '0xf86c098504a817c800825208943535353535353535353535353535353535353535880de0b6b3a76400008025a028ef61340bd939bc2195fe537567866003e1a15d3c71ff63e1590620aa636276a067cbe9d8997f761aecb703304b3800ccf555c9f3dc64214b297fb1966a3b6d83';

describe('decodeRawEvmTx: legacy transactions', () => {
  it('reads the EIP-155 example vector (a 0xf8 list): to, 1 ether and chain ID 1', () => {
    expect(head(decodeRawEvmTx(EIP155_VECTOR))).toStrictEqual({ to: TO_HEX, value: 10n ** 18n, chainId: 1n });
  });

  it('our encoder reproduces the EIP-155 vector byte for byte', () => {
    const v = BigInt(`0x${EIP155_VECTOR.slice(-134, -132)}`);
    const signature = [hexBytes(EIP155_VECTOR.slice(-130, -66)), hexBytes(EIP155_VECTOR.slice(-64))];
    expect(v).toBe(37n);
    const fields: Rlp[] = [uint(9n), uint(20_000_000_000n), uint(21_000n), TO, uint(10n ** 18n), new Uint8Array(), uint(v), ...signature];
    expect(legacy(fields)).toBe(EIP155_VECTOR);
  });

  it('derives the chain ID from an EIP-155 v: (v - 35) / 2 for v = 35, 36, 1035 and 1036', () => {
    expect(head(decodeRawEvmTx(legacy(legacyTx({ v: 35n }))))).toStrictEqual({ to: TO_HEX, value: 10n ** 18n, chainId: 0n });
    expect(head(decodeRawEvmTx(legacy(legacyTx({ v: 36n }))))).toStrictEqual({ to: TO_HEX, value: 10n ** 18n, chainId: 0n });
    expect(head(decodeRawEvmTx(legacy(legacyTx({ v: 1035n }))))).toStrictEqual({ to: TO_HEX, value: 10n ** 18n, chainId: 500n });
    expect(head(decodeRawEvmTx(legacy(legacyTx({ v: 1036n }))))).toStrictEqual({ to: TO_HEX, value: 10n ** 18n, chainId: 500n });
  });

  it('reports no chain ID for a pre-EIP-155 v of 27 or 28', () => {
    expect(head(decodeRawEvmTx(legacy(legacyTx({ v: 27n }))))).toStrictEqual({ to: TO_HEX, value: 10n ** 18n, chainId: undefined });
    expect(head(decodeRawEvmTx(legacy(legacyTx({ v: 28n }))))).toStrictEqual({ to: TO_HEX, value: 10n ** 18n, chainId: undefined });
  });

  it('reads a value of zero written as the empty string (0x80) as 0', () => {
    const raw = legacy(legacyTx({ value: new Uint8Array(), v: 37n }));
    expect(raw).toContain(`94${'35'.repeat(20)}8080`); // to, then value and data both 0x80
    expect(head(decodeRawEvmTx(raw))).toStrictEqual({ to: TO_HEX, value: 0n, chainId: 1n });
  });

  it('reads one-byte values on both sides of the 0x80 boundary: 0x7f is itself, 128 needs a 0x81 prefix', () => {
    expect(head(decodeRawEvmTx(legacy(legacyTx({ value: uint(0x7fn), v: 37n }))))).toStrictEqual({ to: TO_HEX, value: 127n, chainId: 1n });
    expect(head(decodeRawEvmTx(legacy(legacyTx({ value: uint(128n), v: 37n }))))).toStrictEqual({ to: TO_HEX, value: 128n, chainId: 1n });
    expect(head(decodeRawEvmTx(legacy(legacyTx({ value: uint(1n), v: 37n }))))).toStrictEqual({ to: TO_HEX, value: 1n, chainId: 1n });
  });

  it('reports no recipient for a contract creation (empty to)', () => {
    expect(head(decodeRawEvmTx(legacy(legacyTx({ to: new Uint8Array(), data: fill(40, 0x60), v: 1035n }))))).toStrictEqual({
      to: undefined,
      value: 10n ** 18n,
      chainId: 500n,
    });
  });

  it('reports no recipient when the to field is not 20 bytes long', () => {
    expect(head(decodeRawEvmTx(legacy(legacyTx({ to: fill(19, 0x35), v: 37n }))))).toStrictEqual({ to: undefined, value: 10n ** 18n, chainId: 1n });
  });

  it('keeps the recipient lowercase hex as the bytes give it', () => {
    const to = Uint8Array.from({ length: 20 }, (_, i) => 0xa0 + i);
    expect(decodeRawEvmTx(legacy(legacyTx({ to, v: 37n }))).to).toBe('0xa0a1a2a3a4a5a6a7a8a9aaabacadaeafb0b1b2b3');
  });

  it('reads long strings (0xb8 with one length byte, 0xb9 with two) inside a long list (0xf9)', () => {
    // A 60-byte value (non-canonical but readable), 300 bytes of data, chain ID 500.
    const value = Uint8Array.from({ length: 60 }, (_, i) => i + 1);
    const data = fill(300, 0xab);
    const raw = legacy(legacyTx({ value, data, v: 1035n }));
    const bytes = Buffer.from(raw.slice(2), 'hex');
    const listLength = bytes.length - 3;
    expect([bytes[0], bytes[1], bytes[2]]).toEqual([0xf9, listLength >> 8, listLength & 0xff]);
    const valueAt = bytes.indexOf(0xb8);
    expect([bytes[valueAt + 1], bytes[valueAt + 2]]).toEqual([60, 1]);
    expect([bytes[valueAt + 62], bytes[valueAt + 63], bytes[valueAt + 64]]).toEqual([0xb9, 0x01, 0x2c]);
    expect(head(decodeRawEvmTx(raw))).toStrictEqual({ to: TO_HEX, value: BigInt(hex(value)), chainId: 500n });
  });

  it('reads a long string of exactly 56 bytes (the smallest 0xb8 string) and steps past it', () => {
    const value = fill(56, 0x01);
    const raw = legacy(legacyTx({ value, v: 37n }));
    expect(raw).toContain(`b838${'01'.repeat(56)}`);
    expect(head(decodeRawEvmTx(raw))).toStrictEqual({ to: TO_HEX, value: BigInt(hex(value)), chainId: 1n });
  });

  it('reads missing trailing fields as absent: no recipient, value 0, no chain ID', () => {
    expect(head(decodeRawEvmTx(legacy([uint(1n), uint(2n), uint(3n)])))).toStrictEqual({ to: undefined, value: 0n, chainId: undefined });
  });

  it('reads an empty list (0xc0) as a transaction with no fields', () => {
    expect(head(decodeRawEvmTx('0xc0'))).toStrictEqual({ to: undefined, value: 0n, chainId: undefined });
  });
});

describe('decodeRawEvmTx: the fee fields and calldata (issue 21)', () => {
  it('reads gas and gasPrice of a legacy and a type 1 transaction, and gas and maxFeePerGas (not the tip) of a type 2', () => {
    const legacyFacts = decodeRawEvmTx(EIP155_VECTOR);
    expect([legacyFacts.gas, legacyFacts.maxGasPrice, maxFeeWei(legacyFacts)]).toEqual([21_000n, 20_000_000_000n, 420_000_000_000_000n]);
    const t1 = decodeRawEvmTx(typed(1, [uint(501n), uint(3n), uint(25_000_000_000n), uint(21_000n), TO, uint(1n), new Uint8Array(), [], uint(1n), R, S]));
    expect([t1.gas, t1.maxGasPrice]).toEqual([21_000n, 25_000_000_000n]);
    const t2 = decodeRawEvmTx(typed(2, [uint(502n), uint(7n), uint(1_000_000_000n), uint(50_000_000_000n), uint(60_000n), TO, uint(1n), fill(4, 0xa9), [], uint(0n), R, S]));
    expect([t2.gas, t2.maxGasPrice, maxFeeWei(t2)]).toEqual([60_000n, 50_000_000_000n, 3_000_000_000_000_000n]);
    expect(t2.data).toEqual(fill(4, 0xa9));
  });

  it('decodes an ERC-20 transfer(address,uint256) and nothing else', () => {
    const to = fill(20, 0x77);
    const call = concat(Uint8Array.of(0xa9, 0x05, 0x9c, 0xbb), fill(12, 0), to, fill(31, 0), Uint8Array.of(42));
    expect(erc20Transfer(call)).toEqual({ recipient: `0x${'77'.repeat(20)}`, amount: 42n });
    expect(erc20Transfer(call.subarray(0, 67))).toBeUndefined();
    expect(erc20Transfer(concat(Uint8Array.of(0x09, 0x5e, 0xa7, 0xb3), call.subarray(4)))).toBeUndefined();
  });
});

describe('decodeRawEvmTx: typed transactions', () => {
  it('reads an EIP-2930 (type 1) transaction: chain ID from field 0, to and value from fields 4 and 5', () => {
    // chainId, nonce, gasPrice, gas, to, value, data, accessList, yParity, r, s
    const fields: Rlp[] = [uint(501n), uint(3n), uint(25_000_000_000n), uint(21_000n), TO, uint(123_456_789n), new Uint8Array(), [], uint(1n), R, S];
    expect(head(decodeRawEvmTx(typed(1, fields)))).toStrictEqual({ to: TO_HEX, value: 123_456_789n, chainId: 501n });
  });

  it('reads an EIP-1559 (type 2) transaction: chain ID from field 0, to and value from fields 5 and 6', () => {
    // chainId, nonce, maxPriorityFee, maxFee, gas, to, value, data, accessList, yParity, r, s
    const accessList: Rlp = [[TO, [fill(32, 0), fill(32, 1)]]];
    const fields: Rlp[] = [uint(502n), uint(7n), uint(1_000_000_000n), uint(50_000_000_000n), uint(60_000n), TO, uint(5n * 10n ** 17n), fill(4, 0xa9), accessList, uint(0n), R, S];
    expect(head(decodeRawEvmTx(typed(2, fields)))).toStrictEqual({ to: TO_HEX, value: 5n * 10n ** 17n, chainId: 502n });
  });

  it('reads a type 2 contract creation (empty to) as no recipient, with its value and chain ID', () => {
    const fields: Rlp[] = [uint(1n), uint(0n), uint(1n), uint(2n), uint(3n), new Uint8Array(), uint(0n), fill(100, 0x60), [], uint(1n), R, S];
    expect(head(decodeRawEvmTx(typed(2, fields)))).toStrictEqual({ to: undefined, value: 0n, chainId: 1n });
  });

  it('refuses transaction types other than 1 and 2 by number', () => {
    const fields: Rlp[] = [uint(1n), uint(0n), uint(1n), uint(2n), uint(3n), TO, uint(9n), new Uint8Array(), [], uint(1n), R, S];
    expect(() => decodeRawEvmTx(typed(3, fields))).toThrow(new Error('unsupported transaction type 3'));
    expect(() => decodeRawEvmTx(typed(0, fields))).toThrow(new Error('unsupported transaction type 0'));
    // EIP-2718 types run to 0x7f inclusive.
    expect(() => decodeRawEvmTx(typed(0x7f, fields))).toThrow(new Error('unsupported transaction type 127'));
  });
});

describe('decodeRawEvmTx: malformed input', () => {
  it('refuses empty input and a type byte with nothing after it as truncated', () => {
    expect(() => decodeRawEvmTx('0x')).toThrow(new Error('truncated RLP'));
    expect(() => decodeRawEvmTx('0x02')).toThrow(new Error('truncated RLP'));
  });

  it('refuses a transaction cut off inside its last field as truncated', () => {
    expect(() => decodeRawEvmTx(EIP155_VECTOR.slice(0, -20))).toThrow(new Error('truncated RLP'));
  });

  it('refuses a list whose header promises more than the input holds', () => {
    expect(() => decodeRawEvmTx('0xc50102')).toThrow(new Error('truncated RLP'));
  });

  it('refuses a payload that is a string, not a list', () => {
    expect(() => decodeRawEvmTx('0x83010203')).toThrow(new Error('not an RLP list'));
    expect(() => decodeRawEvmTx(`0x02${'83010203'}`)).toThrow(new Error('not an RLP list'));
  });
});

function hexBytes(digits: string): Uint8Array {
  return Uint8Array.from(Buffer.from(digits, 'hex'));
}
