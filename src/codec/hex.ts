import { hex } from '@scure/base';
import { CodecError, describeValue } from './errors.js';

/**
 * EVM JSON-RPC quantity ("0x1f"). The spec forbids leading zeros, but some nodes send
 * them and uppercase digits, so both are accepted; only the `0x` prefix is required.
 */
export function parseHexQuantity(text: string): bigint {
  if (typeof text !== 'string' || !/^0x[0-9a-fA-F]+$/.test(text)) {
    throw new CodecError(`expected a 0x-prefixed hex quantity like "0x1f", got ${describeValue(text)}`);
  }
  return BigInt(text);
}

export function toHexQuantity(value: bigint): string {
  if (value < 0n) throw new CodecError(`expected a non-negative quantity, got ${value}`);
  return `0x${value.toString(16)}`;
}

/** `0x` followed by whole bytes (an even number of hex digits); "0x" is empty data. */
export function isHexData(text: unknown): text is string {
  return typeof text === 'string' && /^0x(?:[0-9a-fA-F]{2})*$/.test(text);
}

/** Hex data to bytes; the `0x` prefix is optional here. */
export function hexToBytes(text: string): Uint8Array {
  const digits = typeof text === 'string' && text.startsWith('0x') ? text.slice(2) : text;
  if (typeof digits !== 'string' || !/^(?:[0-9a-fA-F]{2})*$/.test(digits)) {
    throw new CodecError(`expected hex data with an even number of hex digits, got ${describeValue(text)}`);
  }
  return hex.decode(digits.toLowerCase());
}

export function bytesToHex(bytes: Uint8Array): string {
  return `0x${hex.encode(bytes)}`;
}
