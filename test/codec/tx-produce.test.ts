import { describe, expect, it } from 'vitest';
import {
  type CExportTx,
  type CImportTx,
  consumedUtxos,
  type DepositTx,
  type ExportTx,
  type ImportTx,
  producedUtxos,
  THIS_TX,
  THIS_TX_ID,
  viewTx,
  type TransferableOutput,
  type XCreateAssetTx,
  ZERO_ID,
} from '../../src/codec/tx/index.js';

/** The UTXOs a tx leaves and takes, indexed as the node indexes them. */

const id = (n: number) => new Uint8Array(32).fill(n);
const owners = { locktime: 0n, threshold: 1, addresses: [new Uint8Array(20).fill(1)] };
const out = (amount: bigint): TransferableOutput => ({ assetID: id(9), output: { kind: 'secp.transfer', amount, owners } });
const input = (tx: number) => ({ txID: id(tx), outputIndex: 0, assetID: id(9), input: { kind: 'secp.transfer' as const, amount: 5n, sigIndices: [0] } });
const base = { networkID: 1000, blockchainID: id(0), inputs: [input(1)], memo: new Uint8Array() };
const TX = id(0x77);

describe('producedUtxos', () => {
  it('numbers an X/P export\'s exported outputs after its own outputs', () => {
    const tx: ExportTx = { chain: 'P', kind: 'export', ...base, outputs: [out(1n), out(2n)], destinationChain: id(3), exportedOutputs: [out(5n)] };
    const p = producedUtxos(tx, TX);
    expect(p.local.map((u) => [u.outputIndex, u.output.kind === 'secp.transfer' ? u.output.amount : 0n])).toEqual([
      [0, 1n],
      [1, 2n],
    ]);
    expect(p.exported.map((u) => u.outputIndex)).toEqual([2]);
    expect(p.exported[0]?.txID).toEqual(TX);
  });

  it('numbers a C export\'s outputs from 0, and a C import produces no UTXO', () => {
    const exp: CExportTx = {
      chain: 'C',
      kind: 'export',
      networkID: 1000,
      blockchainID: id(0),
      destinationChain: id(3),
      inputs: [{ address: new Uint8Array(20), amount: 7n, assetID: id(9), nonce: 0n }],
      exportedOutputs: [out(5n), out(6n)],
    };
    expect(producedUtxos(exp, TX).exported.map((u) => u.outputIndex)).toEqual([0, 1]);
    const imp: CImportTx = { chain: 'C', kind: 'import', networkID: 1000, blockchainID: id(0), sourceChain: id(3), importedInputs: [input(4)], outputs: [] };
    expect(producedUtxos(imp, TX)).toEqual({ local: [], exported: [] });
    expect(consumedUtxos(imp)).toEqual([{ txID: id(4), outputIndex: 0, sourceChain: id(3) }]);
  });

  it('gives a deposit\'s "locked by this tx" output the tx\'s own ID', () => {
    const tx: DepositTx = {
      chain: 'P',
      kind: 'deposit',
      upgradeVersion: 0,
      ...base,
      outputs: [{ assetID: id(9), output: { kind: 'locked', lockIDs: { depositTxID: THIS_TX_ID, bondTxID: ZERO_ID }, output: { kind: 'secp.transfer', amount: 3n, owners } } }],
      depositOfferID: id(5),
      depositDuration: 60,
      rewardsOwner: owners,
    };
    const u = producedUtxos(tx, TX).local[0];
    if (u?.output.kind !== 'locked') throw new Error('expected a locked UTXO');
    expect(u.output.lockIDs.depositTxID).toEqual(TX);
    expect(Buffer.from(THIS_TX_ID.subarray(0, 10)).toString()).toBe('this tx id');
    // Before it is accepted, the preview names that lock "this tx", not the cb58 of its placeholder bytes.
    expect(viewTx(tx, { hrp: 'camino' }).outputs[0]?.lock).toEqual({ depositTxID: THIS_TX, bondTxID: null });
  });

  it('puts a new asset\'s initial outputs after the tx outputs, with the tx ID as asset ID', () => {
    const tx: XCreateAssetTx = {
      chain: 'X',
      kind: 'createAsset',
      ...base,
      outputs: [out(1n)],
      name: 'Token',
      symbol: 'TOK',
      denomination: 0,
      states: [{ fxIndex: 0, outputs: [{ kind: 'secp.transfer', amount: 100n, owners }] }],
    };
    const local = producedUtxos(tx, TX).local;
    expect(local.map((u) => [u.outputIndex, u.assetID[0]])).toEqual([
      [0, 9],
      [1, 0x77],
    ]);
  });
});

describe('consumedUtxos', () => {
  it('lists the inputs, then the imported inputs with their source chain', () => {
    const tx: ImportTx = { chain: 'X', kind: 'import', ...base, outputs: [], sourceChain: id(8), importedInputs: [input(2), input(3)] };
    expect(consumedUtxos(tx)).toEqual([
      { txID: id(1), outputIndex: 0 },
      { txID: id(2), outputIndex: 0, sourceChain: id(8) },
      { txID: id(3), outputIndex: 0, sourceChain: id(8) },
    ]);
  });
});
