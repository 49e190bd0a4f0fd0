/** What every `*.issueTx` check shares: the refusal type, finding a consumed UTXO, owners and signatures. */
import { bech32 } from '@scure/base';
import { cb58Encode, formatCb58Id } from '../../codec/index.js';
import type { TransferableInput } from '../../codec/tx/index.js';
import { type Chain, type DevnetState, recoverSigner, shortIdOfPublicKey, type Utxo, utxoIdFor } from '../state/index.js';

/** A verifier's refusal, worded as the node words it; issueTx adds the chain's prefix. */
export class Refused extends Error {}

export const hexOf = (b: Uint8Array) => Buffer.from(b).toString('hex');

/** The UTXO an input names: on `chain`, or waiting in shared memory from `source` for an import. */
export function findUtxo(state: DevnetState, chain: Chain, input: TransferableInput, source: Chain | undefined): Utxo | undefined {
  const u = state.utxos.get(utxoIdFor(formatCb58Id(input.txID), input.outputIndex));
  if (!u || u.spentBy || u.chain !== chain || u.sourceChain !== source) return undefined;
  return u;
}

/** The 20 bytes of a chain-prefixed or bare bech32 address. */
export function addressPayload(address: string): Buffer {
  const bare = address.slice(address.indexOf('-') + 1);
  const { words } = bech32.decode(bare as `${string}1${string}`, 90);
  return Buffer.from(bech32.fromWords(words));
}

/** 20-byte owners of a UTXO or owner, sorted as the codec sorts them (the order sigIndices point into). */
export function ownerBytes(addresses: readonly string[]): Buffer[] {
  return addresses.map(addressPayload).sort(Buffer.compare);
}

/**
 * Checks a credential against owners (secp256k1fx VerifyCredentials): at least `threshold` signers,
 * one signature each, and every signature recovers to the owner its index names.
 */
export function checkSigners(owners: readonly Buffer[], threshold: number, sigIndices: readonly number[], signatures: readonly Uint8Array[], hash: Uint8Array): void {
  if (sigIndices.length < threshold) throw new Refused('failed to verify transfer: input has less signers than expected');
  if (signatures.length !== sigIndices.length) throw new Refused('failed to verify transfer: input has a different number of signatures than signers');
  sigIndices.forEach((index, n) => {
    const expected = owners[index];
    if (!expected) throw new Refused('failed to verify transfer: input signer index out of range');
    const pk = recoverSigner(hash, signatures[n]!);
    if (!pk) throw new Refused('failed to verify transfer: invalid signature');
    const got = shortIdOfPublicKey(pk);
    if (!Buffer.from(got).equals(expected)) {
      throw new Refused(`wrong signature: expected signature from ${cb58Encode(expected)} but got from ${cb58Encode(got)}`);
    }
  });
}

/** Checks one input's credential against the UTXO it spends. */
export function checkCredential(u: Utxo, sigIndices: readonly number[], signatures: readonly Uint8Array[], hash: Uint8Array): void {
  checkSigners(ownerBytes(u.addresses), u.threshold, sigIndices, signatures, hash);
}
