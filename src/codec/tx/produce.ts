import { THIS_TX_ID } from './hash.js';
import { compareBytes } from './sort.js';
import type { TransferableInput, TransferableOutput, UnsignedTx, Utxo } from './types.js';

/** What an accepted tx leaves behind: UTXOs on its own chain and UTXOs in the destination's atomic memory. */
export interface Produced {
  local: Utxo[];
  /** Exported UTXOs, for the destination chain to import (`destinationChain` of the tx). */
  exported: Utxo[];
}

/** A UTXO a tx spends, with the chain it comes from when it is imported. */
export interface Consumed {
  txID: Uint8Array;
  outputIndex: number;
  /** The source chain ID for imported inputs; absent for the tx's own chain. */
  sourceChain?: Uint8Array;
}

function utxoOf(txID: Uint8Array, index: number, out: TransferableOutput, fixDeposit: boolean): Utxo {
  const o = out.output;
  // utxo.ProduceLocked: a deposit's "locked by this tx" lock ID becomes the tx's own ID.
  const fixed =
    fixDeposit && o.kind === 'locked' && compareBytes(o.lockIDs.depositTxID, THIS_TX_ID) === 0 ? { ...o, lockIDs: { ...o.lockIDs, depositTxID: txID } } : o;
  return { txID, outputIndex: index, assetID: out.assetID, output: fixed };
}

/**
 * The UTXOs a tx with ID `txID` produces, indexed as the node indexes them: outputs first (0…n−1), then X/P
 * exported outputs from n on (avm executor ExportTx, platformvm StandardTxExecutor.ExportTx); a C export's
 * outputs from 0 (caminoethvm UnsignedExportTx.AtomicOps); a CreateAssetTx's initial states after its
 * outputs, of the asset whose ID is the tx ID. A C import produces none (it credits EVM balances).
 */
export function producedUtxos(tx: UnsignedTx, txID: Uint8Array): Produced {
  if (tx.chain === 'C') {
    if (tx.kind === 'import') return { local: [], exported: [] };
    return { local: [], exported: tx.exportedOutputs.map((o, i) => utxoOf(txID, i, o, false)) };
  }
  const fix = tx.kind === 'deposit';
  const local = tx.outputs.map((o, i) => utxoOf(txID, i, o, fix));
  if (tx.kind === 'createAsset') {
    for (const state of tx.states) {
      for (const out of state.outputs) local.push({ txID, outputIndex: local.length, assetID: txID, output: out });
    }
  }
  const exported = tx.kind === 'export' ? tx.exportedOutputs.map((o, i) => utxoOf(txID, tx.outputs.length + i, o, false)) : [];
  return { local, exported };
}

/** Every UTXO a tx consumes: its inputs, then its imported inputs with their source chain. */
export function consumedUtxos(tx: UnsignedTx): Consumed[] {
  const own = (i: TransferableInput): Consumed => ({ txID: i.txID, outputIndex: i.outputIndex });
  if (tx.chain === 'C') return tx.kind === 'import' ? tx.importedInputs.map((i) => ({ ...own(i), sourceChain: tx.sourceChain })) : [];
  const list = tx.inputs.map(own);
  if (tx.kind === 'import') list.push(...tx.importedInputs.map((i) => ({ ...own(i), sourceChain: tx.sourceChain })));
  return list;
}
