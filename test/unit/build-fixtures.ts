import type { BuildEnv } from '../../src/tx-builders/index.js';
import { type LockIDs, type OutputOwners, THIS_TX_ID, type Utxo, ZERO_ID } from '../../src/codec/tx/index.js';

/** A network, a key and UTXOs for the builder tests; IDs are filled bytes so failures read easily. */

export const id = (n: number) => new Uint8Array(32).fill(n);
export const short = (n: number) => new Uint8Array(20).fill(n);

export const KEY = short(0x11);
export const OTHER = short(0x22);
export const CAM = id(0xca);
export const ANT = id(0xa1);
export const NOW = 1_700_000_000n;

export const env: BuildEnv = {
  networkID: 1001,
  chainIDs: { X: id(0x0a), P: id(0x0b), C: id(0x0c) },
  feeAssetID: CAM,
  key: { shortID: KEY, evmAddress: short(0xee) },
  txFee: 1_000_000n,
  now: NOW,
};

export const keyOwner = (over: Partial<OutputOwners> = {}): OutputOwners => ({ locktime: 0n, threshold: 1, addresses: [KEY], ...over });

export function utxo(tx: number, index: number, amount: bigint, asset = CAM, owners: OutputOwners = keyOwner()): Utxo {
  return { txID: id(tx), outputIndex: index, assetID: asset, output: { kind: 'secp.transfer', amount, owners } };
}

export function lockedUtxo(tx: number, index: number, amount: bigint, lockIDs: LockIDs, owners: OutputOwners = keyOwner()): Utxo {
  return { txID: id(tx), outputIndex: index, assetID: CAM, output: { kind: 'locked', lockIDs, output: { kind: 'secp.transfer', amount, owners } } };
}

export const deposited = (n: number): LockIDs => ({ depositTxID: id(n), bondTxID: ZERO_ID });
export const bonded = (n: number): LockIDs => ({ depositTxID: ZERO_ID, bondTxID: id(n) });
export { THIS_TX_ID, ZERO_ID };
