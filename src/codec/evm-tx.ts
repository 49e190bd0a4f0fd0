/**
 * EVM transactions on the C-Chain, byte for byte as Ethereum lays them out (EIP-2718 envelope,
 * EIP-1559 type 2; legacy EIP-155 read back only): RLP, the signing hash and the signed form. A
 * few dozen lines instead of a library in the start path; test/codec/evm-tx.test.ts proves them
 * against viem's serializeTransaction and parseTransaction. Not re-exported from codec/index.ts:
 * it loads keccak, which only a spend needs.
 */
import { keccak_256 } from '@noble/hashes/sha3.js';

export type RlpItem = Uint8Array | RlpItem[];

function lengthPrefix(length: number, short: number): Uint8Array {
  if (length < 56) return Uint8Array.of(short + length);
  const bytes: number[] = [];
  for (let v = length; v > 0; v = Math.floor(v / 256)) bytes.unshift(v % 256);
  return Uint8Array.of(short + 55 + bytes.length, ...bytes);
}

function concat(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

export function rlpEncode(item: RlpItem): Uint8Array {
  if (item instanceof Uint8Array) return item.length === 1 && item[0]! < 0x80 ? item : concat([lengthPrefix(item.length, 0x80), item]);
  const body = concat(item.map(rlpEncode));
  return concat([lengthPrefix(body.length, 0xc0), body]);
}

/** One RLP item from `bytes` at `start`; strict: lengths inside the input, canonical single bytes. */
function decodeAt(bytes: Uint8Array, start: number): [RlpItem, number] {
  const b = bytes[start];
  if (b === undefined) throw new Error('rlp: truncated input');
  const long = (offset: number, n: number) => {
    if (bytes[offset] === 0) throw new Error('rlp: non-canonical length');
    let v = 0;
    for (let i = 0; i < n; i++) v = v * 256 + (bytes[offset + i] ?? 0);
    return v;
  };
  const take = (from: number, length: number): Uint8Array => {
    if (from + length > bytes.length) throw new Error('rlp: value size exceeds available input length');
    return bytes.subarray(from, from + length);
  };
  if (b < 0x80) return [bytes.subarray(start, start + 1), start + 1];
  if (b < 0xb8) {
    const v = take(start + 1, b - 0x80);
    if (v.length === 1 && v[0]! < 0x80) throw new Error('rlp: non-canonical size information');
    return [v, start + 1 + v.length];
  }
  if (b < 0xc0) {
    const n = b - 0xb7;
    const l = long(start + 1, n);
    return [take(start + 1 + n, l), start + 1 + n + l];
  }
  const n = b < 0xf8 ? 0 : b - 0xf7;
  const l = b < 0xf8 ? b - 0xc0 : long(start + 1, n);
  const from = start + 1 + n;
  take(from, l);
  const items: RlpItem[] = [];
  let at = from;
  while (at < from + l) {
    const [item, next] = decodeAt(bytes, at);
    items.push(item);
    at = next;
  }
  if (at !== from + l) throw new Error('rlp: list content exceeds its size');
  return [items, from + l];
}

export function rlpDecode(bytes: Uint8Array): RlpItem {
  const [item, end] = decodeAt(bytes, 0);
  if (end !== bytes.length) throw new Error('rlp: input contains more data than expected');
  return item;
}

/** A quantity as RLP wants it: big-endian, no leading zero bytes, empty for zero. */
function quantity(v: bigint): Uint8Array {
  if (v < 0n) throw new RangeError('negative quantity');
  if (v === 0n) return new Uint8Array();
  const hex = v.toString(16);
  return Uint8Array.from(Buffer.from(hex.length % 2 ? `0${hex}` : hex, 'hex'));
}

function toBig(item: RlpItem | undefined, what: string): bigint {
  if (!(item instanceof Uint8Array)) throw new Error(`rlp: expected a ${what} value`);
  if (item.length > 0 && item[0] === 0) throw new Error(`rlp: non-canonical integer (leading zero bytes) for ${what}`);
  return item.length === 0 ? 0n : BigInt(`0x${Buffer.from(item).toString('hex')}`);
}

const hex = (b: Uint8Array): `0x${string}` => `0x${Buffer.from(b).toString('hex')}`;

/** An EIP-1559 transaction's fields (wei; `to` a 0x address or undefined for a creation). */
export interface Eip1559Fields {
  chainId: bigint;
  nonce: bigint;
  maxPriorityFeePerGas: bigint;
  maxFeePerGas: bigint;
  gas: bigint;
  to?: `0x${string}`;
  value: bigint;
  data: Uint8Array;
}

export interface EvmSignature {
  r: bigint;
  s: bigint;
  yParity: 0 | 1;
}

function eip1559List(tx: Eip1559Fields): RlpItem[] {
  return [
    quantity(tx.chainId),
    quantity(tx.nonce),
    quantity(tx.maxPriorityFeePerGas),
    quantity(tx.maxFeePerGas),
    quantity(tx.gas),
    tx.to ? Uint8Array.from(Buffer.from(tx.to.slice(2), 'hex')) : new Uint8Array(),
    quantity(tx.value),
    tx.data,
    [],
  ];
}

/** 0x02 ‖ rlp([chainId, nonce, tip, maxFee, gas, to, value, data, accessList]) and, signed, ‖ [yParity, r, s]. */
export function serializeEip1559(tx: Eip1559Fields, sig?: EvmSignature): Uint8Array {
  const list = eip1559List(tx);
  if (sig) list.push(quantity(BigInt(sig.yParity)), quantity(sig.r), quantity(sig.s));
  return concat([Uint8Array.of(2), rlpEncode(list)]);
}

export function keccak256(bytes: Uint8Array): Uint8Array {
  return keccak_256(bytes);
}

export interface ParsedEvmTx {
  type: 'eip1559' | 'legacy';
  fields: Eip1559Fields & { gasPrice?: bigint };
  signature?: EvmSignature;
  /** The hash the sender signed: keccak256 of the unsigned form (EIP-155 for legacy). */
  signingHash: Uint8Array;
}

function addressOf(item: RlpItem | undefined): `0x${string}` | undefined {
  if (!(item instanceof Uint8Array)) throw new Error('rlp: expected an address');
  if (item.length === 0) return undefined;
  if (item.length !== 20) throw new Error('rlp: an address is 20 bytes');
  return hex(item);
}

/** Reads a type-2 transaction (signed or not) or a signed legacy EIP-155 one. */
export function parseEvmTx(bytes: Uint8Array): ParsedEvmTx {
  if (bytes[0] === 2) {
    const list = rlpDecode(bytes.subarray(1));
    if (!Array.isArray(list) || (list.length !== 9 && list.length !== 12)) throw new Error('an EIP-1559 transaction has 9 fields, or 12 signed');
    const data = list[7];
    if (!(data instanceof Uint8Array) || !Array.isArray(list[8])) throw new Error('rlp: bad data or access list');
    if (list[8].length > 0) throw new Error('access lists are not read here');
    const fields: Eip1559Fields = {
      chainId: toBig(list[0], 'chainId'),
      nonce: toBig(list[1], 'nonce'),
      maxPriorityFeePerGas: toBig(list[2], 'maxPriorityFeePerGas'),
      maxFeePerGas: toBig(list[3], 'maxFeePerGas'),
      gas: toBig(list[4], 'gas'),
      to: addressOf(list[5]),
      value: toBig(list[6], 'value'),
      data: Uint8Array.from(data),
    };
    const signingHash = keccak256(serializeEip1559(fields));
    if (list.length === 9) return { type: 'eip1559', fields, signingHash };
    const y = toBig(list[9], 'yParity');
    if (y > 1n) throw new Error('invalid yParity');
    return { type: 'eip1559', fields, signingHash, signature: { yParity: Number(y) as 0 | 1, r: toBig(list[10], 'r'), s: toBig(list[11], 's') } };
  }
  if (bytes[0] !== undefined && bytes[0] >= 0xc0) {
    const list = rlpDecode(bytes);
    if (!Array.isArray(list) || list.length !== 9) throw new Error('a signed legacy transaction has 9 fields');
    const v = toBig(list[6], 'v');
    if (v < 35n) throw new Error('only replay-protected (EIP-155) transactions allowed over RPC');
    const chainId = (v - 35n) / 2n;
    const data = list[5];
    if (!(data instanceof Uint8Array)) throw new Error('rlp: bad data');
    const gasPrice = toBig(list[1], 'gasPrice');
    const fields = { chainId, nonce: toBig(list[0], 'nonce'), maxPriorityFeePerGas: gasPrice, maxFeePerGas: gasPrice, gasPrice, gas: toBig(list[2], 'gas'), to: addressOf(list[3]), value: toBig(list[4], 'value'), data: Uint8Array.from(data) };
    const unsigned = rlpEncode([...list.slice(0, 6), quantity(chainId), new Uint8Array(), new Uint8Array()]);
    return { type: 'legacy', fields, signingHash: keccak256(unsigned), signature: { yParity: Number((v - 35n) % 2n) as 0 | 1, r: toBig(list[7], 'r'), s: toBig(list[8], 's') } };
  }
  throw new Error(`transaction type ${bytes[0] ?? 'none'} not supported`);
}
