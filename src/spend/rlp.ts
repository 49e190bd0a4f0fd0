import { hexToBytes } from '../codec/index.js';
import { bytesToHex } from '../codec/index.js';

/**
 * Just enough RLP to read a signed EVM transaction's recipient, value and chain ID, so
 * eth_sendRawTransaction is held to the spend limits like every other spend.
 */
type Item = Uint8Array | Item[];

function decodeItem(bytes: Uint8Array, start: number): [Item, number] {
  const b = bytes[start];
  if (b === undefined) throw new Error('truncated RLP');
  const len = (offset: number, n: number) => {
    let v = 0;
    for (let i = 0; i < n; i++) v = v * 256 + (bytes[offset + i] ?? 0);
    return v;
  };
  if (b < 0x80) return [bytes.subarray(start, start + 1), start + 1];
  if (b < 0xb8) return [bytes.subarray(start + 1, start + 1 + b - 0x80), start + 1 + b - 0x80];
  if (b < 0xc0) {
    const n = b - 0xb7;
    const l = len(start + 1, n);
    return [bytes.subarray(start + 1 + n, start + 1 + n + l), start + 1 + n + l];
  }
  let offset: number;
  let end: number;
  if (b < 0xf8) {
    offset = start + 1;
    end = offset + b - 0xc0;
  } else {
    const n = b - 0xf7;
    offset = start + 1 + n;
    end = offset + len(start + 1, n);
  }
  if (end > bytes.length) throw new Error('truncated RLP');
  const items: Item[] = [];
  while (offset < end) {
    const [item, next] = decodeItem(bytes, offset);
    items.push(item);
    offset = next;
  }
  return [items, end];
}

const num = (item: Item | undefined): bigint => {
  if (!(item instanceof Uint8Array) || item.length === 0) return 0n;
  return BigInt(bytesToHex(item));
};

export interface EvmTxFacts {
  to?: string;
  value: bigint;
  chainId?: bigint;
}

export function decodeRawEvmTx(hex: string): EvmTxFacts {
  const bytes = hexToBytes(hex);
  // EIP-2718: a first byte 0x00-0x7f is a transaction type; legacy RLP lists start at 0xc0.
  const typed = bytes[0] !== undefined && bytes[0] <= 0x7f;
  const [item] = decodeItem(bytes, typed ? 1 : 0);
  if (!Array.isArray(item)) throw new Error('not an RLP list');
  const field = (i: number) => item[i];
  let to: Item | undefined;
  let value: Item | undefined;
  let chainId: bigint | undefined;
  if (!typed) {
    to = field(3);
    value = field(4);
    const v = num(field(6));
    chainId = v >= 35n ? (v - 35n) / 2n : undefined;
  } else if (bytes[0] === 1) {
    chainId = num(field(0));
    to = field(4);
    value = field(5);
  } else if (bytes[0] === 2) {
    chainId = num(field(0));
    to = field(5);
    value = field(6);
  } else {
    throw new Error(`unsupported transaction type ${bytes[0]}`);
  }
  const toHex = to instanceof Uint8Array && to.length === 20 ? bytesToHex(to) : undefined;
  return { to: toHex, value: num(value), chainId };
}
