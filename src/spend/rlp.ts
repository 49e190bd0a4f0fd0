import { hexToBytes } from '../codec/index.js';
import { bytesToHex } from '../codec/index.js';

/**
 * Just enough RLP to read a signed EVM transaction's recipient, value, chain ID, gas, price
 * and calldata, so eth_sendRawTransaction is held to the spend limits like every other spend.
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
  /** Gas limit. */
  gas: bigint;
  /** The most one unit of gas can cost: gasPrice (legacy, type 1) or maxFeePerGas (type 2), wei. */
  maxGasPrice: bigint;
  /** Calldata (or, for a contract creation, the init code). */
  data: Uint8Array;
}

/** The highest fee the transaction can pay, wei: gas limit x the highest price per gas. */
export function maxFeeWei(facts: EvmTxFacts): bigint {
  return facts.gas * facts.maxGasPrice;
}

const ERC20_TRANSFER = 'a9059cbb';

/** An ERC-20 `transfer(address,uint256)` call: the token's recipient and amount (token's smallest unit). */
export function erc20Transfer(data: Uint8Array): { recipient: string; amount: bigint } | undefined {
  if (data.length !== 68 || bytesToHex(data.subarray(0, 4)).slice(2) !== ERC20_TRANSFER) return undefined;
  return { recipient: `0x${bytesToHex(data.subarray(16, 36)).slice(2)}`, amount: BigInt(bytesToHex(data.subarray(36, 68))) };
}

export function decodeRawEvmTx(hex: string): EvmTxFacts {
  const bytes = hexToBytes(hex);
  // EIP-2718: a first byte 0x00-0x7f is a transaction type; legacy RLP lists start at 0xc0.
  const typed = bytes[0] !== undefined && bytes[0] <= 0x7f;
  const [item] = decodeItem(bytes, typed ? 1 : 0);
  if (!Array.isArray(item)) throw new Error('not an RLP list');
  const field = (i: number) => item[i];
  // Field positions: legacy [nonce, gasPrice, gas, to, value, data, v, r, s];
  // type 1 [chainId, nonce, gasPrice, gas, to, value, data, ...];
  // type 2 [chainId, nonce, maxPriorityFeePerGas, maxFeePerGas, gas, to, value, data, ...].
  let at: { price: number; gas: number; to: number; value: number; data: number };
  let chainId: bigint | undefined;
  if (!typed) {
    at = { price: 1, gas: 2, to: 3, value: 4, data: 5 };
    const v = num(field(6));
    chainId = v >= 35n ? (v - 35n) / 2n : undefined;
  } else if (bytes[0] === 1) {
    chainId = num(field(0));
    at = { price: 2, gas: 3, to: 4, value: 5, data: 6 };
  } else if (bytes[0] === 2) {
    chainId = num(field(0));
    at = { price: 3, gas: 4, to: 5, value: 6, data: 7 };
  } else {
    throw new Error(`unsupported transaction type ${bytes[0]}`);
  }
  const to = field(at.to);
  const data = field(at.data);
  const toHex = to instanceof Uint8Array && to.length === 20 ? bytesToHex(to) : undefined;
  return {
    to: toHex,
    value: num(field(at.value)),
    chainId,
    gas: num(field(at.gas)),
    maxGasPrice: num(field(at.price)),
    data: data instanceof Uint8Array ? data : new Uint8Array(),
  };
}
