/** Deterministic IDs, addresses and keys derived from labels (cb58 over sha256, bech32 with the network's hrp). */
import { createHash } from 'node:crypto';
import { cb58Encode, formatBareBech32, formatCb58Id, formatChainAddress, formatNodeId } from '../../codec/index.js';
import type { Chain, DevnetState, UserKey } from './types.js';

// ---------------------------------------------------------------------------
// Deterministic encodings

export function sha256(data: string | Uint8Array): Uint8Array {
  return new Uint8Array(createHash('sha256').update(data).digest());
}

/** A cb58 32-byte ID derived from a label. */
export function idFor(label: string): string {
  return formatCb58Id(sha256(label));
}

/** A 20-byte short ID derived from a label. */
export function shortIdFor(label: string): Uint8Array {
  return sha256(`short:${label}`).slice(0, 20);
}

export function nodeIdFor(label: string): string {
  return formatNodeId(sha256(`node:${label}`).slice(0, 20));
}

export function hexAddressFor(label: string): string {
  return `0x${Buffer.from(sha256(`evm:${label}`).slice(0, 20)).toString('hex')}`;
}

export function hexHashFor(label: string): string {
  return `0x${Buffer.from(sha256(`hash:${label}`)).toString('hex')}`;
}

/** Chain-prefixed address for a label on this network. */
export function addressFor(state: Pick<DevnetState, 'hrp'>, chain: Chain, label: string): string {
  return formatChainAddress(chain, state.hrp, shortIdFor(label));
}

/** Strips the chain prefix: `X-local1abc` -> `local1abc`. */
export function bareAddress(address: string): string {
  const dash = address.indexOf('-');
  return dash >= 0 ? address.slice(dash + 1) : address;
}

export function utxoIdFor(txID: string, outputIndex: number): string {
  return idFor(`utxo:${txID}:${outputIndex}`);
}

export function makeKey(hrp: string, label: string): UserKey {
  const shortId = shortIdFor(label);
  const bech32 = formatBareBech32(hrp, shortId);
  return {
    label,
    privateKey: `PrivateKey-${cb58Encode(sha256(`key:${label}`))}`,
    shortId,
    bech32,
    x: `X-${bech32}`,
    p: `P-${bech32}`,
    c: hexAddressFor(label),
  };
}

/** Reverse tables filled as the state makes IDs and addresses, so the wire encodings can give their bytes. */
export const ID_BYTES = new Map<string, Uint8Array>();
export function rememberId(bytes: Uint8Array): string {
  const id = formatCb58Id(bytes);
  ID_BYTES.set(id, bytes);
  return id;
}
export function registeredId(label: string): string {
  return rememberId(sha256(label));
}
export const ADDRESS_BYTES = new Map<string, Uint8Array>();
