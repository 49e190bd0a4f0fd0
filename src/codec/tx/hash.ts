import { createHash } from 'node:crypto';
import { cb58Encode, hexChecksumEncode } from '../index.js';
import { encodeCredentials, encodeOutputOwners } from './encode.js';
import type { Credential, OutputOwners, TxChain } from './types.js';
import { Writer } from './wire.js';

/** ids.Empty: the "no lock" / "no ID" value. */
export const ZERO_ID: Uint8Array = new Uint8Array(32);

/**
 * locked.ThisTxID: the lock ID a tx writes for "locked by this tx" (the node replaces it with the tx's own
 * ID when it stores the UTXO): the ASCII bytes of "this tx id", zero-padded to 32.
 */
export const THIS_TX_ID: Uint8Array = (() => {
  const id = new Uint8Array(32);
  id.set(new TextEncoder().encode('this tx id'));
  return id;
})();

export function sha256(data: Uint8Array): Uint8Array {
  return new Uint8Array(createHash('sha256').update(data).digest());
}

/** The node's tx ID: sha256 of the signed bytes, in cb58. */
export function txIdOf(signedBytes: Uint8Array): string {
  return cb58Encode(sha256(signedBytes));
}

/** What `*.issueTx` takes with `encoding: "hex"`: 0x + bytes + the 4-byte sha256 checksum. */
export function signedTxHex(signedBytes: Uint8Array): string {
  return hexChecksumEncode(signedBytes);
}

/**
 * Signed bytes = unsigned bytes (codec version + type ID + body) followed by the credential list:
 * the Tx struct's second field, so nothing before it changes (txs.Tx.Initialize slices it back).
 */
export function attachCredentials(chain: TxChain, unsignedBytes: Uint8Array, credentials: readonly Credential[]): Uint8Array {
  const creds = encodeCredentials(chain, credentials);
  const out = new Uint8Array(unsignedBytes.length + creds.length);
  out.set(unsignedBytes);
  out.set(creds, unsignedBytes.length);
  return out;
}

/**
 * txs.GetOwnerID: sha256 of the owner marshalled with the codec version and no type ID (it is passed
 * as a concrete *OutputOwners), the ID `platform.getClaimables` and ClaimTx's claimables match on.
 */
export function ownerId(owners: OutputOwners): Uint8Array {
  const w = new Writer().u16(0).bytes(encodeOutputOwners(owners));
  return sha256(w.finish());
}

/** A map key for a UTXO: `cb58(txID):outputIndex`. */
export function utxoKey(txID: Uint8Array, outputIndex: number): string {
  return `${cb58Encode(txID)}:${outputIndex}`;
}
