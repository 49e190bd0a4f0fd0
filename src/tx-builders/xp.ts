import { type ExportTx, type ImportTx, type PBaseTx, sortInputs, type TransferableInput, type TransferableOutput, type TxChain, type Utxo, type XBaseTx } from '../codec/tx/index.js';
import {
  cb58,
  changeTotals,
  checkAmount,
  credentialPlan,
  finish,
  hexOf,
  inputOf,
  keyRecipient,
  memoOf,
  needMap,
  outputOf,
  sameBytes,
  select,
  sorted,
  spendable,
} from './common.js';
import { BuildError } from './errors.js';
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

function checkChain(chain: unknown): asserts chain is 'X' | 'P' {
  if (chain !== 'X' && chain !== 'P') throw new BuildError('bad-intent', `chain must be X or P, got ${String(chain)}`);
}

/** Change back to the key, one output per asset that has any. */
function changeOutputs(env: BuildEnv, totals: Map<string, bigint>, needs: Map<string, { assetID: Uint8Array; amount: bigint }>): TransferableOutput[] {
  const outs: TransferableOutput[] = [];
  for (const [asset, got] of totals) {
    const need = needs.get(asset);
    if (need === undefined) continue;
    const rest = got - need.amount;
    if (rest > 0n) outs.push(outputOf(need.assetID, rest, keyRecipient(env)));
  }
  return outs;
}

export function buildBaseTx(env: BuildEnv, intent: BaseIntent): BuiltTx {
  checkChain(intent.chain);
  if (intent.payments.length === 0) throw new BuildError('bad-intent', 'a send needs at least one payment');
  for (const p of intent.payments) checkAmount(p.amount, 'an amount');
  if (intent.chain === 'P' && intent.payments.some((p) => !sameBytes(p.assetID, env.feeAssetID))) {
    throw new BuildError('bad-intent', 'the P-chain holds only the fee asset (CAM)');
  }
  const needs = needMap([...intent.payments.map((p) => ({ assetID: p.assetID, amount: p.amount })), { assetID: env.feeAssetID, amount: env.txFee }]);
  const { inputs, totals } = select(env, intent.chain, spendable(env, intent.utxos), needs);
  const change = changeOutputs(env, totals, needs);
  const outputs = sorted(intent.chain, [...intent.payments.map((p) => outputOf(p.assetID, p.amount, p.to)), ...change]);
  const base = { networkID: env.networkID, blockchainID: env.chainIDs[intent.chain], outputs, inputs, memo: memoOf(intent.memo) };
  const unsigned: XBaseTx | PBaseTx = intent.chain === 'X' ? { chain: 'X', kind: 'base', ...base } : { chain: 'P', kind: 'base', ...base };
  return finish(env, unsigned, credentialPlan(inputs), env.txFee, changeTotals(change));
}

export function buildExportTx(env: BuildEnv, intent: ExportIntent): BuiltTx {
  checkChain(intent.chain);
  if (intent.destination === intent.chain || !['X', 'P', 'C'].includes(intent.destination)) {
    throw new BuildError('bad-intent', `cannot export from ${intent.chain} to ${String(intent.destination)}`);
  }
  checkAmount(intent.amount, 'the amount');
  const assetID = intent.assetID ?? env.feeAssetID;
  if (intent.chain === 'P' && !sameBytes(assetID, env.feeAssetID)) throw new BuildError('bad-intent', 'the P-chain holds only the fee asset (CAM)');
  const needs = needMap([
    { assetID, amount: intent.amount },
    { assetID: env.feeAssetID, amount: env.txFee },
  ]);
  const { inputs, totals } = select(env, intent.chain, spendable(env, intent.utxos), needs);
  const change = changeOutputs(env, totals, needs);
  const unsigned: ExportTx = {
    chain: intent.chain,
    kind: 'export',
    networkID: env.networkID,
    blockchainID: env.chainIDs[intent.chain],
    outputs: sorted(intent.chain, change),
    inputs,
    memo: memoOf(intent.memo),
    destinationChain: env.chainIDs[intent.destination],
    exportedOutputs: [outputOf(assetID, intent.amount, intent.to ?? keyRecipient(env))],
  };
  return finish(env, unsigned, credentialPlan(inputs), env.txFee, changeTotals(change));
}

/** The atomic UTXOs an import takes: those of `exportTxID`, or all with `all`; the key must be able to spend each. */
export function importable(env: BuildEnv, atomicUtxos: readonly Utxo[], exportTxID: Uint8Array | undefined, all: boolean | undefined, feeAssetOnly: boolean) {
  if (exportTxID === undefined && all !== true) {
    throw new BuildError('bad-intent', 'name the export txID to import its outputs, or ask for all to import everything waiting');
  }
  const chosen = exportTxID === undefined ? atomicUtxos : atomicUtxos.filter((u) => sameBytes(u.txID, exportTxID));
  const usable = spendable(env, chosen).filter((u) => !feeAssetOnly || sameBytes(u.assetID, env.feeAssetID));
  if (usable.length === 0) {
    const which = exportTxID === undefined ? 'waiting in atomic memory' : `from export ${exportTxID.length === 32 ? cb58(exportTxID) : '(not a 32-byte ID)'}`;
    throw new BuildError('nothing-to-import', `nothing the key can import ${which}`);
  }
  return usable;
}

export function buildImportTx(env: BuildEnv, intent: ImportIntent): BuiltTx {
  checkChain(intent.chain);
  if (intent.source === intent.chain || !['X', 'P', 'C'].includes(intent.source)) {
    throw new BuildError('bad-intent', `cannot import into ${intent.chain} from ${String(intent.source)}`);
  }
  const usable = importable(env, intent.atomicUtxos, intent.exportTxID, intent.all, intent.chain === 'P');
  const importedInputs = sortInputs(usable.map(inputOf));
  const imported = new Map<string, { assetID: Uint8Array; amount: bigint }>();
  for (const u of usable) {
    const k = hexOf(u.assetID);
    imported.set(k, { assetID: u.assetID, amount: (imported.get(k)?.amount ?? 0n) + u.amount });
  }
  const feeKey = hexOf(env.feeAssetID);
  const importedFee = imported.get(feeKey)?.amount ?? 0n;
  // The fee comes out of what is imported; local UTXOs pay it only when the import cannot.
  let inputs: TransferableInput[] = [];
  let localChange: TransferableOutput[] = [];
  if (importedFee < env.txFee) {
    const needs = needMap([{ assetID: env.feeAssetID, amount: env.txFee - importedFee }]);
    const picked = select(env, intent.chain, spendable(env, intent.utxos ?? []), needs);
    inputs = picked.inputs;
    localChange = changeOutputs(env, picked.totals, needs);
  }
  const to = intent.to ?? keyRecipient(env);
  const outs: TransferableOutput[] = [...localChange];
  for (const [k, v] of imported) {
    const amount = k === feeKey ? (importedFee >= env.txFee ? v.amount - env.txFee : 0n) : v.amount;
    if (amount > 0n) outs.push(outputOf(v.assetID, amount, to));
  }
  const unsigned: ImportTx = {
    chain: intent.chain,
    kind: 'import',
    networkID: env.networkID,
    blockchainID: env.chainIDs[intent.chain],
    outputs: sorted(intent.chain, outs),
    inputs,
    memo: memoOf(intent.memo),
    sourceChain: env.chainIDs[intent.source],
    importedInputs,
  };
  // Credentials: the BaseTx inputs first, then the imported ones (avm and platformvm ImportTx).
  return finish(env, unsigned, [...credentialPlan(inputs), ...credentialPlan(importedInputs)], env.txFee, changeTotals(localChange));
}
