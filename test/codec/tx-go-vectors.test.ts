import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { hexChecksumEncode, hexToBytes } from '../../src/codec/index.js';
import {
  atomicFee,
  atomicGas,
  decodeSignedTx,
  decodeUnsignedTx,
  encodeOutputOwners,
  encodeSignedTx,
  encodeUnsignedTx,
  txIdOf,
  type CExportTx,
  type CImportTx,
  type TransferableInput,
} from '../../src/codec/tx/index.js';
import { AVM_TX_VECTORS, type GoTxVector } from './vectors/caminogo.js';

/** The codec against caminogo's own serialization tests (vectors/caminogo.ts) and caminoethvm's gas tests. */

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');

/** Two Go serialization tests build txs a node would refuse (no exported output; outputs appended unsorted). */
const REFUSED: Record<string, RegExp> = {
  TestExportTxSerialization: /no export outputs/,
  TestCreateAssetTxSerializationAgain: /outputs not sorted/,
};

const split = (v: GoTxVector) => {
  const withZeroCreds = hexToBytes(v.expected);
  return { withZeroCreds, unsigned: withZeroCreds.subarray(0, withZeroCreds.length - 4), opts: { verify: REFUSED[v.test] === undefined } };
};

describe.each(AVM_TX_VECTORS)('caminogo $test', (v) => {
  const { withZeroCreds, unsigned, opts } = split(v);

  it('decodes the unsigned bytes and encodes them back byte for byte', () => {
    const tx = decodeUnsignedTx('X', unsigned, opts);
    expect(hex(encodeUnsignedTx(tx))).toBe(hex(unsigned));
  });

  it('reads the zero-credential tx and writes it back', () => {
    const decoded = decodeSignedTx('X', withZeroCreds, opts);
    expect(decoded.tx.credentials).toEqual([]);
    expect(hex(decoded.unsignedBytes)).toBe(hex(unsigned));
    expect(hex(encodeSignedTx(decoded.tx))).toBe(v.expected);
  });
});

describe.each(AVM_TX_VECTORS.filter((v) => v.credentials !== undefined))('caminogo $test, signed', (v) => {
  const { withZeroCreds, unsigned, opts } = split(v);

  it('gives the zero-credential tx the ID the Go test requires', () => {
    expect(decodeSignedTx('X', withZeroCreds, opts).txID).toBe(v.unsignedTxID);
  });

  it('reads the signed tx (two credentials of two signatures) with the signed ID', () => {
    const signed = Buffer.concat([unsigned, Buffer.from('00000002', 'hex'), Buffer.from(v.credentials as string, 'hex')]);
    const decoded = decodeSignedTx('X', signed, opts);
    expect(decoded.tx.credentials).toHaveLength(2);
    for (const c of decoded.tx.credentials) expect(c.signatures).toHaveLength(2);
    expect(decoded.txID).toBe(v.signedTxID);
    expect(txIdOf(encodeSignedTx(decoded.tx))).toBe(v.signedTxID);
    expect(hex(decoded.unsignedHash)).toBe(createHash('sha256').update(unsigned).digest('hex'));
  });
});

describe.each(Object.entries(REFUSED))('caminogo %s', (test, refusal) => {
  it('is parsed by the codec but refused by the syntactic rules, as the node would', () => {
    const v = AVM_TX_VECTORS.find((x) => x.test === test) as GoTxVector;
    const { withZeroCreds, unsigned } = split(v);
    expect(() => decodeUnsignedTx('X', unsigned)).toThrow(refusal);
    expect(() => decodeSignedTx('X', withZeroCreds)).toThrow(refusal);
  });
});

describe('caminogo TestBaseTxSerialization fields', () => {
  it('decodes to the values the Go test builds', () => {
    const v = AVM_TX_VECTORS[0];
    if (v === undefined) throw new Error('no vector');
    const bytes = hexToBytes(v.expected);
    const tx = decodeUnsignedTx('X', bytes.subarray(0, bytes.length - 4));
    if (tx.chain !== 'X' || tx.kind !== 'base') throw new Error(`unexpected ${tx.chain} ${tx.kind}`);
    expect(tx.networkID).toBe(10);
    expect(tx.outputs).toHaveLength(1);
    const out = tx.outputs[0]?.output;
    expect(out?.kind).toBe('secp.transfer');
    if (out?.kind !== 'secp.transfer') return;
    expect(out.amount).toBe(12345n);
    expect(out.owners.threshold).toBe(1);
    expect(hex(out.owners.addresses[0] as Uint8Array)).toBe('fceda8f90fcb5d30614b99d79fc4baa293077626');
    const input = tx.inputs[0] as TransferableInput;
    expect(input.outputIndex).toBe(1);
    expect(input.input).toEqual({ kind: 'secp.transfer', amount: 54321n, sigIndices: [2] });
    expect(hex(tx.memo)).toBe('00010203');
  });
});

/**
 * caminoethvm plugin/evm import_tx_test.go TestImportTxGasCost and export_tx_test.go TestExportTxGasCost:
 * gas depends only on the unsigned length and the signature count, so the same shapes with any IDs give
 * the Go test's expected gas and fee.
 */
describe('caminoethvm atomic gas and fee', () => {
  const id = (n: number) => new Uint8Array(32).fill(n);
  const addr = (n: number) => new Uint8Array(20).fill(n);
  const owners = { locktime: 0n, threshold: 1, addresses: [addr(9)] };
  const importIn = (n: number, asset: number, sigIndices: number[]): TransferableInput => ({
    txID: id(n),
    outputIndex: 0,
    assetID: id(asset),
    input: { kind: 'secp.transfer', amount: 5_000_000n, sigIndices },
  });
  const cImport = (ins: TransferableInput[], outs: number): CImportTx => ({
    chain: 'C',
    kind: 'import',
    networkID: 5,
    blockchainID: id(1),
    sourceChain: id(2),
    importedInputs: ins,
    outputs: Array.from({ length: outs }, (_, i) => ({ address: addr(i + 1), amount: 5_000_000n, assetID: id(3) })),
  });
  const cExport = (inputs: number): CExportTx => ({
    chain: 'C',
    kind: 'export',
    networkID: 5,
    blockchainID: id(1),
    destinationChain: id(2),
    inputs: Array.from({ length: inputs }, (_, i) => ({ address: addr(i + 1), amount: 5_000_000n, assetID: id(3), nonce: 0n })),
    exportedOutputs: [{ assetID: id(3), output: { kind: 'secp.transfer', amount: 15_000_000n, owners } }],
  });
  const gwei = 1_000_000_000n;
  const gasOf = (tx: CImportTx | CExportTx, sigs: number, fixed: boolean) =>
    atomicGas(encodeUnsignedTx(tx).length, sigs) - (fixed ? 0n : 10_000n);

  it.each([
    ['simple import', cImport([importIn(1, 3, [0])], 1), 1, false, 25n * gwei, 1230n, 30750n],
    ['simple import 1wei', cImport([importIn(1, 3, [0])], 1), 1, false, 1n, 1230n, 1n],
    ['simple import 1wei + fixed fee', cImport([importIn(1, 3, [0])], 1), 1, true, 1n, 11230n, 1n],
    ['simple ANT import', cImport([importIn(1, 3, [0]), importIn(2, 4, [0])], 1), 2, false, 25n * gwei, 2318n, 57950n],
    ['complex ANT import', cImport([importIn(1, 3, [0]), importIn(2, 4, [0])], 2), 2, false, 25n * gwei, 2378n, 59450n],
    ['multisig import', cImport([importIn(1, 3, [0, 1])], 1), 2, false, 25n * gwei, 2234n, 55850n],
    ['large import', cImport(Array.from({ length: 10 }, (_, i) => importIn(i + 1, 3, [0])), 1), 10, false, 25n * gwei, 11022n, 275550n],
    ['simple export 1wei BaseFee', cExport(1), 1, false, 1n, 1230n, 1n],
    ['simple export 1wei BaseFee + fixed fee', cExport(1), 1, true, 1n, 11230n, 1n],
    ['simple export 25Gwei BaseFee', cExport(1), 1, false, 25n * gwei, 1230n, 30750n],
    ['simple export 225Gwei BaseFee', cExport(1), 1, false, 225n * gwei, 1230n, 276750n],
    ['complex export 25Gwei BaseFee', cExport(3), 3, false, 25n * gwei, 3366n, 84150n],
    ['complex export 225Gwei BaseFee', cExport(3), 3, false, 225n * gwei, 3366n, 757350n],
  ] as const)('%s: gas and fee as the Go test expects', (_name, tx, sigs, fixed, baseFee, gas, fee) => {
    const used = gasOf(tx, sigs, fixed);
    expect(used).toBe(gas);
    expect(atomicFee(used, baseFee)).toBe(fee);
  });

  it('rounds the fee up, as calculateDynamicFee does', () => {
    expect(atomicFee(1n, 1n)).toBe(1n);
    expect(atomicFee(1_000_000_000n, 1n)).toBe(1n);
    expect(atomicFee(1_000_000_001n, 1n)).toBe(2n);
    expect(atomicFee(0n, 200n * gwei)).toBe(0n);
    expect(atomicFee(12_345n, 200n * gwei)).toBe(2_469_000n);
  });
});

/**
 * caminogo vms/platformvm/camino_service_test.go TestSpend: the owners list `platform.spend` returns for keys[0]
 * (threshold 1, locktime 0), hex with checksum: version, a list of one OutputOwners, its layout without a type ID.
 */
describe('caminogo TestSpend owners', () => {
  it('is the codec version, a count of 1 and the OutputOwners body, with the 4-byte checksum', () => {
    const keys0 = hexToBytes('0xfceda8f90fcb5d30614b99d79fc4baa293077626');
    const body = Buffer.concat([Buffer.from('000000000001', 'hex'), Buffer.from(encodeOutputOwners({ locktime: 0n, threshold: 1, addresses: [keys0] }))]);
    expect(hexChecksumEncode(body)).toBe('0x00000000000100000000000000000000000100000001fceda8f90fcb5d30614b99d79fc4baa2930776262dcf0a4e');
  });
});
