import { type ChainLetter, bytesToHex, formatCb58Id, formatChainAddress } from '../index.js';
import { THIS_TX_ID } from './hash.js';
import { compareBytes } from './sort.js';
import type { InputView, LockIDs, OutputOwners, OutputView, TransferableInput, TransferableOutput, TxView, UnsignedTx } from './types.js';

/** How a preview names the lock "by this very tx" (locked.ThisTxID) that the node replaces with the tx's ID. */
export const THIS_TX = 'this tx';

export interface ViewOptions {
  /** The network's bech32 prefix (`camino`, `columbus`, `kopernikus`, `local`). */
  hrp: string;
  /** The network's chain IDs in cb58, to name source/destination chains and address letters. */
  chainIDs?: Partial<Record<ChainLetter, string>>;
}

function isZero(id: Uint8Array): boolean {
  return id.every((b) => b === 0);
}

/** A lock ID as a person reads it: none, "this tx" (locked by the tx being approved), or the locking tx's ID. */
function lockIdView(id: Uint8Array): string | null {
  if (isZero(id)) return null;
  return compareBytes(id, THIS_TX_ID) === 0 ? THIS_TX : formatCb58Id(id);
}

function lockView(ids: LockIDs): { depositTxID: string | null; bondTxID: string | null } {
  return { depositTxID: lockIdView(ids.depositTxID), bondTxID: lockIdView(ids.bondTxID) };
}

function letterOf(id: Uint8Array, opts: ViewOptions): ChainLetter | undefined {
  const cb58 = formatCb58Id(id);
  for (const [letter, known] of Object.entries(opts.chainIDs ?? {})) if (known === cb58) return letter as ChainLetter;
  return undefined;
}

function inputView(input: TransferableInput, imported: boolean): InputView {
  const txID = formatCb58Id(input.txID);
  const inner = input.input.kind === 'locked' ? input.input.input : input.input;
  const view: InputView = {
    utxo: `${txID}:${input.outputIndex}`,
    txID,
    outputIndex: input.outputIndex,
    assetID: formatCb58Id(input.assetID),
    amount: inner.amount,
    sigIndices: [...inner.sigIndices],
    imported,
  };
  if (input.input.kind === 'locked') view.lock = lockView(input.input.lockIDs);
  return view;
}

function ownerAddresses(owners: OutputOwners, letter: ChainLetter, hrp: string): string[] {
  return owners.addresses.map((a) => formatChainAddress(letter, hrp, a));
}

function outputView(out: TransferableOutput, letter: ChainLetter, hrp: string, exported: boolean): OutputView {
  const o = out.output;
  const inner = o.kind === 'secp.transfer' ? o : o.output;
  const view: OutputView = {
    assetID: formatCb58Id(out.assetID),
    amount: inner.amount,
    addresses: ownerAddresses(inner.owners, letter, hrp),
    locktime: o.kind === 'stakeable' ? o.locktime : inner.owners.locktime,
    threshold: inner.owners.threshold,
    exported,
  };
  if (o.kind === 'locked') view.lock = lockView(o.lockIDs);
  return view;
}

function add(totals: Map<string, bigint>, asset: Uint8Array, amount: bigint): void {
  const key = formatCb58Id(asset);
  totals.set(key, (totals.get(key) ?? 0n) + amount);
}

/** Per asset (cb58): what the inputs bring minus what the outputs take, i.e. the fee the tx burns. */
export function burnedByAsset(tx: UnsignedTx): Record<string, bigint> {
  const totals = new Map<string, bigint>();
  const inAmount = (i: TransferableInput) => (i.input.kind === 'locked' ? i.input.input.amount : i.input.amount);
  const outAmount = (o: TransferableOutput) => (o.output.kind === 'secp.transfer' ? o.output.amount : o.output.output.amount);
  if (tx.chain === 'C') {
    if (tx.kind === 'import') {
      for (const i of tx.importedInputs) add(totals, i.assetID, inAmount(i));
      for (const o of tx.outputs) add(totals, o.assetID, -o.amount);
    } else {
      for (const i of tx.inputs) add(totals, i.assetID, i.amount);
      for (const o of tx.exportedOutputs) add(totals, o.assetID, -outAmount(o));
    }
  } else {
    for (const i of tx.inputs) add(totals, i.assetID, inAmount(i));
    for (const o of tx.outputs) add(totals, o.assetID, -outAmount(o));
    if (tx.kind === 'import') for (const i of tx.importedInputs) add(totals, i.assetID, inAmount(i));
    if (tx.kind === 'export') for (const o of tx.exportedOutputs) add(totals, o.assetID, -outAmount(o));
  }
  return Object.fromEntries(totals);
}

/** The decoded tx as a preview renders it: every input, every output, the memo, the chains, what is burned. */
export function viewTx(tx: UnsignedTx, opts: ViewOptions): TxView {
  const view: TxView = {
    chain: tx.chain,
    kind: tx.kind,
    networkID: tx.networkID,
    blockchainID: formatCb58Id(tx.blockchainID),
    inputs: [],
    outputs: [],
    memo: '0x',
    burned: burnedByAsset(tx),
  };
  if (tx.chain === 'C') {
    if (tx.kind === 'import') {
      view.sourceChain = formatCb58Id(tx.sourceChain);
      view.inputs = tx.importedInputs.map((i) => inputView(i, true));
      view.outputs = tx.outputs.map((o) => ({
        assetID: formatCb58Id(o.assetID),
        amount: o.amount,
        addresses: [bytesToHex(o.address)],
        locktime: 0n,
        threshold: 1,
        exported: false,
      }));
    } else {
      view.destinationChain = formatCb58Id(tx.destinationChain);
      const letter = letterOf(tx.destinationChain, opts) ?? 'X';
      view.inputs = tx.inputs.map((i) => ({
        utxo: bytesToHex(i.address),
        txID: '',
        outputIndex: 0,
        assetID: formatCb58Id(i.assetID),
        amount: i.amount,
        sigIndices: [0],
        evm: { address: bytesToHex(i.address), nonce: i.nonce },
        imported: false,
      }));
      view.outputs = tx.exportedOutputs.map((o) => outputView(o, letter, opts.hrp, true));
    }
    return view;
  }
  view.memo = bytesToHex(tx.memo);
  view.inputs = tx.inputs.map((i) => inputView(i, false));
  view.outputs = tx.outputs.map((o) => outputView(o, tx.chain, opts.hrp, false));
  if (tx.kind === 'import') {
    view.sourceChain = formatCb58Id(tx.sourceChain);
    view.inputs.push(...tx.importedInputs.map((i) => inputView(i, true)));
  }
  if (tx.kind === 'export') {
    view.destinationChain = formatCb58Id(tx.destinationChain);
    const letter = letterOf(tx.destinationChain, opts) ?? (tx.chain === 'X' ? 'P' : 'X');
    view.outputs.push(...tx.exportedOutputs.map((o) => outputView(o, letter, opts.hrp, true)));
  }
  if (tx.kind === 'deposit') {
    view.deposit = {
      depositOfferID: formatCb58Id(tx.depositOfferID),
      depositDuration: tx.depositDuration,
      rewardsOwner: { addresses: ownerAddresses(tx.rewardsOwner, 'P', opts.hrp), locktime: tx.rewardsOwner.locktime, threshold: tx.rewardsOwner.threshold },
    };
  }
  if (tx.kind === 'claim') view.claimables = tx.claimables.map((c) => ({ id: formatCb58Id(c.id), type: c.type, amount: c.amount }));
  return view;
}
