import { atomicFee, atomicGas, type CExportTx, type CImportTx, encodeUnsignedTx, sortInputs, type Utxo } from '../codec/tx/index.js';
import { checkAmount, credentialPlan, finish, inputOf, keyRecipient, outputOf } from './common.js';
import { BuildError } from './errors.js';
import type { BuildEnv, BuiltTx, Recipient } from './types.js';
import { importable } from './xp.js';

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

function checkBaseFee(baseFeeWei: bigint): void {
  if (typeof baseFeeWei !== 'bigint' || baseFeeWei <= 0n) throw new BuildError('bad-intent', 'the base fee must be a positive number of wei');
}

/** The fee of an atomic tx: its unsigned length does not depend on the amounts, so one encoding prices it. */
function feeOf(tx: CImportTx | CExportTx, signatures: number, baseFeeWei: bigint): bigint {
  return atomicFee(atomicGas(encodeUnsignedTx(tx).length, signatures), baseFeeWei);
}

export function buildCExportTx(env: BuildEnv, intent: CExportIntent): BuiltTx {
  if (intent.destination !== 'X' && intent.destination !== 'P') throw new BuildError('bad-intent', `cannot export from C to ${String(intent.destination)}`);
  checkAmount(intent.amount, 'the amount');
  checkBaseFee(intent.baseFeeWei);
  if (typeof intent.nonce !== 'bigint' || intent.nonce < 0n) throw new BuildError('bad-intent', 'the nonce must be a non-negative whole number');
  const draft: CExportTx = {
    chain: 'C',
    kind: 'export',
    networkID: env.networkID,
    blockchainID: env.chainIDs.C,
    destinationChain: env.chainIDs[intent.destination],
    inputs: [{ address: env.key.evmAddress, amount: intent.amount, assetID: env.feeAssetID, nonce: intent.nonce }],
    exportedOutputs: [outputOf(env.feeAssetID, intent.amount, intent.to ?? keyRecipient(env))],
  };
  // One EVM input, one signature.
  const fee = feeOf(draft, 1, intent.baseFeeWei);
  const debit = intent.amount + fee;
  if (debit >= 1n << 64n) throw new BuildError('bad-intent', 'the amount plus the fee does not fit in 64 bits');
  if (intent.balance !== undefined && intent.balance < debit) {
    throw new BuildError('insufficient-funds', `insufficient funds on C: the export needs ${debit} nCAM (amount + fee ${fee}), the address holds ${intent.balance}`);
  }
  const unsigned: CExportTx = { ...draft, inputs: [{ ...(draft.inputs[0] as CExportTx['inputs'][number]), amount: debit }] };
  return finish(env, unsigned, [[0]], fee, {});
}

export function buildCImportTx(env: BuildEnv, intent: CImportIntent): BuiltTx {
  if (intent.source !== 'X' && intent.source !== 'P') throw new BuildError('bad-intent', `cannot import into C from ${String(intent.source)}`);
  checkBaseFee(intent.baseFeeWei);
  const to = intent.to ?? env.key.evmAddress;
  if (!(to instanceof Uint8Array) || to.length !== 20) throw new BuildError('bad-intent', 'the C-chain recipient must be a 20-byte address');
  // The C-chain credits only the fee asset (caminoethvm refuses other assets' EVM outputs), so only its UTXOs are taken.
  const usable = importable(env, intent.atomicUtxos, intent.exportTxID, intent.all, true);
  const importedInputs = sortInputs(usable.map(inputOf));
  const total = usable.reduce((s, u) => s + u.amount, 0n);
  const draft: CImportTx = {
    chain: 'C',
    kind: 'import',
    networkID: env.networkID,
    blockchainID: env.chainIDs.C,
    sourceChain: env.chainIDs[intent.source],
    importedInputs,
    outputs: [{ address: to, amount: total, assetID: env.feeAssetID }],
  };
  const plan = credentialPlan(importedInputs);
  const fee = feeOf(draft, plan.reduce((n, s) => n + s.length, 0), intent.baseFeeWei);
  if (total <= fee) {
    throw new BuildError('insufficient-funds', `insufficient funds: the import brings ${total} nCAM and its fee is ${fee} nCAM`);
  }
  const unsigned: CImportTx = { ...draft, outputs: [{ address: to, amount: total - fee, assetID: env.feeAssetID }] };
  return finish(env, unsigned, plan, fee, {});
}
