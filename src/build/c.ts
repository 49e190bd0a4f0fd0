import type { Utxo } from '../codec/tx/index.js';
import type { BuildEnv, BuiltTx, Recipient } from './types.js';

/**
 * C→X/P: the key's 0x address pays `amount` + the atomic fee at `nonce` (eth_getTransactionCount);
 * `amount` of the fee asset lands in `destination`'s atomic memory for `to` (default the key).
 */
export interface CExportIntent {
  destination: 'X' | 'P';
  amount: bigint;
  nonce: bigint;
  /** The node's base fee in wei (eth_baseFee); Camino's is 200 gwei. */
  baseFeeWei: bigint;
  /** The 0x address's balance in nCAM, if known: refuse early when it cannot cover amount + fee. */
  balance?: bigint;
  to?: Recipient;
}

/**
 * X/P→C: imports the fee-asset atomic UTXOs of `exportTxID` (or all with `all`) to `to` (default the key's
 * 0x address); the imported amount pays the fee, the rest is credited.
 */
export interface CImportIntent {
  source: 'X' | 'P';
  atomicUtxos: readonly Utxo[];
  exportTxID?: Uint8Array;
  all?: boolean;
  baseFeeWei: bigint;
  to?: Uint8Array;
}

export function buildCExportTx(env: BuildEnv, intent: CExportIntent): BuiltTx {
  void env;
  void intent;
  throw new Error('buildCExportTx: not implemented yet');
}

export function buildCImportTx(env: BuildEnv, intent: CImportIntent): BuiltTx {
  void env;
  void intent;
  throw new Error('buildCImportTx: not implemented yet');
}
