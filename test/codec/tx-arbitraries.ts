import fc from 'fast-check';
import { encodeTransferableOut } from '../../src/codec/tx/encode.js';
import {
  compareBytes,
  type ClaimTx,
  type CExportTx,
  type CImportTx,
  type DepositTx,
  type ExportTx,
  type ImportTx,
  type LockIDs,
  type OutputOwners,
  type PBaseTx,
  type SecpTransferInput,
  type SecpTransferOutput,
  sortEvmInputs,
  sortEvmOutputs,
  sortInputs,
  sortOutputs,
  type TransferableIn,
  type TransferableInput,
  type TransferableOut,
  type TransferableOutput,
  type UnlockDepositTx,
  type Utxo,
  type UtxoOutput,
  type XBaseTx,
  type XCreateAssetTx,
} from '../../src/codec/tx/index.js';

/** fast-check generators of syntactically valid Camino txs (sorted, unique, non-zero), for codec round trips. */

export const id32 = fc.uint8Array({ minLength: 32, maxLength: 32 });
export const shortId = fc.uint8Array({ minLength: 20, maxLength: 20 });
export const u32 = fc.integer({ min: 0, max: 0xffffffff });
export const u64 = fc.bigInt({ min: 0n, max: (1n << 64n) - 1n });
export const amount = fc.bigInt({ min: 1n, max: (1n << 64n) - 1n });

function uniqueSorted(list: Uint8Array[]): Uint8Array[] {
  const sorted = [...list].sort(compareBytes);
  return sorted.filter((a, i) => i === 0 || compareBytes(a, sorted[i - 1] as Uint8Array) !== 0);
}

/** At least one address: caminojs writes threshold 0 as 1, so the empty owner is tested on our codec alone. */
export const owners: fc.Arbitrary<OutputOwners> = fc
  .tuple(u64, fc.array(shortId, { minLength: 1, maxLength: 3 }), fc.nat())
  .map(([locktime, addrs, t]) => {
    const addresses = uniqueSorted(addrs);
    return { locktime, threshold: 1 + (t % addresses.length), addresses };
  });

export const secpOut: fc.Arbitrary<SecpTransferOutput> = fc.record({ kind: fc.constant('secp.transfer' as const), amount, owners });

export const lockIDs: fc.Arbitrary<LockIDs> = fc
  .tuple(id32, id32, fc.integer({ min: 0, max: 2 }))
  .map(([d, b, which]) => ({
    depositTxID: which === 1 ? new Uint8Array(32) : d.some((x) => x !== 0) ? d : Uint8Array.of(1, ...d.subarray(1)),
    bondTxID: which === 0 ? new Uint8Array(32) : b.some((x) => x !== 0) ? b : Uint8Array.of(1, ...b.subarray(1)),
  }));

const sigIndices = fc.uniqueArray(u32, { maxLength: 3 }).map((l) => [...l].sort((a, b) => a - b));
export const secpIn: fc.Arbitrary<SecpTransferInput> = fc.record({ kind: fc.constant('secp.transfer' as const), amount, sigIndices });

function transferableOut(locked: boolean): fc.Arbitrary<TransferableOut> {
  if (!locked) return secpOut;
  return fc.oneof(secpOut, fc.record({ kind: fc.constant('locked' as const), lockIDs, output: secpOut }));
}

function transferableIn(locked: boolean): fc.Arbitrary<TransferableIn> {
  if (!locked) return secpIn;
  return fc.oneof(secpIn, fc.record({ kind: fc.constant('locked' as const), lockIDs, input: secpIn }));
}

export function inputs(locked = false, minLength = 0): fc.Arbitrary<TransferableInput[]> {
  return fc
    .uniqueArray(fc.record({ txID: id32, outputIndex: u32, assetID: id32, input: transferableIn(locked) }), {
      minLength,
      maxLength: 4,
      selector: (i) => `${Buffer.from(i.txID).toString('hex')}:${i.outputIndex}`,
    })
    .map(sortInputs);
}

export function outputs(chain: 'X' | 'P' | 'C', locked = false, minLength = 0): fc.Arbitrary<TransferableOutput[]> {
  return fc.array(fc.record({ assetID: id32, output: transferableOut(locked) }), { minLength, maxLength: 4 }).map((o) => sortOutputs(chain, o));
}

const memo = fc.uint8Array({ maxLength: 256 });

function base<C extends 'X' | 'P'>(chain: C, locked = false) {
  return fc.record({
    chain: fc.constant(chain),
    networkID: u32,
    blockchainID: id32,
    outputs: outputs(chain, locked),
    inputs: inputs(locked),
    memo,
  });
}

export const xBaseTx: fc.Arbitrary<XBaseTx> = base('X').map((b) => ({ ...b, kind: 'base' as const }));
export const pBaseTx: fc.Arbitrary<PBaseTx> = base('P', true).map((b) => ({ ...b, kind: 'base' as const }));
export const unlockDepositTx: fc.Arbitrary<UnlockDepositTx> = base('P', true).map((b) => ({ ...b, kind: 'unlockDeposit' as const }));

export function importTx(chain: 'X' | 'P'): fc.Arbitrary<ImportTx> {
  return fc
    .tuple(base(chain), id32, inputs(false, 1))
    .map(([b, sourceChain, importedInputs]) => ({ ...b, kind: 'import' as const, sourceChain, importedInputs }));
}

export function exportTx(chain: 'X' | 'P'): fc.Arbitrary<ExportTx> {
  return fc
    .tuple(base(chain), id32, outputs(chain, false, 1))
    .map(([b, destinationChain, exportedOutputs]) => ({ ...b, kind: 'export' as const, destinationChain, exportedOutputs }));
}

export const depositTx: fc.Arbitrary<DepositTx> = fc
  .tuple(base('P', true), id32, u32, owners, fc.constantFrom(0 as const, 1 as const), shortId, sigIndices, sigIndices)
  .map(([b, depositOfferID, depositDuration, rewardsOwner, upgradeVersion, creator, a1, a2]) => ({
    ...b,
    kind: 'deposit' as const,
    upgradeVersion,
    depositOfferID,
    depositDuration,
    rewardsOwner,
    ...(upgradeVersion === 1 ? { depositCreatorAddress: creator, depositCreatorAuth: { sigIndices: a1 }, depositOfferOwnerAuth: { sigIndices: a2 } } : {}),
  }));

export const claimTx: fc.Arbitrary<ClaimTx> = fc
  .tuple(
    base('P'),
    fc.uniqueArray(fc.record({ id: id32, type: fc.bigInt({ min: 0n, max: 3n }), amount, ownerAuth: sigIndices.map((s) => ({ sigIndices: s })) }), {
      minLength: 1,
      maxLength: 3,
      selector: (c) => Buffer.from(c.id).toString('hex'),
    }),
  )
  .map(([b, claimables]) => ({ ...b, kind: 'claim' as const, claimables }));

export const createAssetTx: fc.Arbitrary<XCreateAssetTx> = fc
  .tuple(
    base('X'),
    fc.string({ minLength: 1, maxLength: 20 }),
    fc.string({ minLength: 1, maxLength: 4 }),
    fc.integer({ min: 0, max: 32 }),
    fc.uniqueArray(secpOut, { minLength: 1, maxLength: 3, selector: (o) => Buffer.from(encodeTransferableOut('X', o)).toString('hex') }),
  )
  .map(([b, name, symbol, denomination, outs]) => ({
    ...b,
    kind: 'createAsset' as const,
    name,
    symbol,
    denomination,
    states: [{ fxIndex: 0, outputs: sortOutputs('X', outs.map((o) => ({ assetID: new Uint8Array(32), output: o }))).map((o) => o.output) }],
  }));

const evmOut = fc.record({ address: shortId, amount: u64, assetID: id32 });
const evmIn = fc.record({ address: shortId, amount: u64, assetID: id32, nonce: u64 });
const evmKey = (e: { address: Uint8Array; assetID: Uint8Array }) => Buffer.from([...e.address, ...e.assetID]).toString('hex');

export function cImportTx(networkIDs: fc.Arbitrary<number> = u32): fc.Arbitrary<CImportTx> {
  return fc
    .tuple(networkIDs, id32, id32, inputs(false, 1), fc.uniqueArray(evmOut, { minLength: 1, maxLength: 3, selector: evmKey }))
    .map(([networkID, blockchainID, sourceChain, importedInputs, outs]) => ({
      chain: 'C' as const,
      kind: 'import' as const,
      networkID,
      blockchainID,
      sourceChain,
      importedInputs,
      outputs: sortEvmOutputs(outs),
    }));
}

export const cExportTx: fc.Arbitrary<CExportTx> = fc
  .tuple(u32, id32, id32, fc.uniqueArray(evmIn, { minLength: 1, maxLength: 3, selector: evmKey }), outputs('C', false, 1))
  .map(([networkID, blockchainID, destinationChain, ins, exportedOutputs]) => ({
    chain: 'C' as const,
    kind: 'export' as const,
    networkID,
    blockchainID,
    destinationChain,
    inputs: sortEvmInputs(ins),
    exportedOutputs,
  }));

const nftPayload = fc.uint8Array({ maxLength: 64 });

export function utxo(chain: 'X' | 'P'): fc.Arbitrary<Utxo> {
  const xOutputs: fc.Arbitrary<UtxoOutput> = fc.oneof(
    secpOut,
    fc.record({ kind: fc.constant('secp.mint' as const), owners }),
    fc.record({ kind: fc.constant('nft.transfer' as const), groupID: u32, payload: nftPayload, owners }),
    fc.record({ kind: fc.constant('nft.mint' as const), groupID: u32, owners }),
  );
  const pOutputs: fc.Arbitrary<UtxoOutput> = fc.oneof(
    secpOut,
    fc.record({ kind: fc.constant('locked' as const), lockIDs, output: secpOut }),
    fc.record({ kind: fc.constant('stakeable' as const), locktime: amount, output: secpOut }),
  );
  return fc.record({ txID: id32, outputIndex: u32, assetID: id32, output: chain === 'X' ? xOutputs : pOutputs });
}
