import type { TxChain, Utxo } from '../codec/tx/index.js';
import type { BuildEnv, BuiltTx, Payment, Recipient } from './types.js';

/** X send (avm BaseTx) or P send (Camino BaseTx): payments of one or several assets, change back to the key. */
export interface BaseIntent {
  chain: 'X' | 'P';
  utxos: readonly Utxo[];
  payments: readonly Payment[];
  memo?: Uint8Array;
}

/** X→P/C or P→X/C: `amount` of `assetID` (default the fee asset) exported to `to` (default the key). */
export interface ExportIntent {
  chain: 'X' | 'P';
  destination: TxChain;
  utxos: readonly Utxo[];
  amount: bigint;
  assetID?: Uint8Array;
  to?: Recipient;
  memo?: Uint8Array;
}

/**
 * Import into X or P from `source`: only the atomic UTXOs of `exportTxID`, or all of them with `all`.
 * The fee comes out of the imported fee asset; `utxos` (local) pay it when the import cannot.
 */
export interface ImportIntent {
  chain: 'X' | 'P';
  source: TxChain;
  atomicUtxos: readonly Utxo[];
  exportTxID?: Uint8Array;
  all?: boolean;
  utxos?: readonly Utxo[];
  to?: Recipient;
  memo?: Uint8Array;
}

export function buildBaseTx(env: BuildEnv, intent: BaseIntent): BuiltTx {
  void env;
  void intent;
  throw new Error('buildBaseTx: not implemented yet');
}

export function buildExportTx(env: BuildEnv, intent: ExportIntent): BuiltTx {
  void env;
  void intent;
  throw new Error('buildExportTx: not implemented yet');
}

export function buildImportTx(env: BuildEnv, intent: ImportIntent): BuiltTx {
  void env;
  void intent;
  throw new Error('buildImportTx: not implemented yet');
}
