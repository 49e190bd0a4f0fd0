import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeUnsignedTx, decodeUtxo, encodeUnsignedTx, encodeUtxo, type UnsignedTx } from '../../src/codec/tx/index.js';
import { caminojsParsedNonces, caminojsReparse, caminojsReparseUtxo, caminojsUnsignedBytes, caminojsWrittenThreshold } from './caminojs.js';
import * as arb from './tx-arbitraries.js';

/**
 * Every tx kind the codec writes, built again with @c4tplatform/caminojs 1.4.0's own classes: the bytes
 * must be identical, our decoder must read caminojs's bytes back to the same tx, and caminojs must read ours.
 */

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');
const RUNS = { numRuns: 60 };

/**
 * caminojs's C ImportTx constructor looks the fee asset up in a hard-coded table that knows only networks 1
 * and 12345 (not Camino's 1000 or 1001: it throws there), so the C import runs on those two.
 */
const knownNetwork = fc.constantFrom(1, 12345);

const kinds: [string, fc.Arbitrary<UnsignedTx>][] = [
  ['X BaseTx', arb.xBaseTx],
  ['X CreateAssetTx', arb.createAssetTx],
  ['X ImportTx', arb.importTx('X')],
  ['X ExportTx', arb.exportTx('X')],
  ['P BaseTx (Camino, locked in/outs)', arb.pBaseTx],
  ['P ImportTx', arb.importTx('P')],
  ['P ExportTx', arb.exportTx('P')],
  ['P DepositTx (versions 0 and 1)', arb.depositTx],
  ['P UnlockDepositTx', arb.unlockDepositTx],
  ['P ClaimTx', arb.claimTx],
  ['C ImportTx', arb.cImportTx(knownNetwork)],
  ['C ExportTx', arb.cExportTx],
];

/**
 * caminojs cannot read ClaimTx bytes back: ClaimAmount.fromBuffer adds the absolute offset SubnetAuth.fromBuffer
 * returns to the offset it already had, so it reads past the end (its writer is right, and is compared above).
 */
const readableByCaminojs = kinds.filter(([name]) => name !== 'P ClaimTx');

describe.each(kinds)('%s against caminojs', (_name, txs) => {
  it('writes the bytes caminojs writes', () => {
    fc.assert(
      fc.property(txs, (tx) => {
        expect(hex(encodeUnsignedTx(tx))).toBe(hex(caminojsUnsignedBytes(tx)));
      }),
      RUNS,
    );
  });

  it('decodes caminojs bytes back to the same tx', () => {
    fc.assert(
      fc.property(txs, (tx) => {
        expect(decodeUnsignedTx(tx.chain, caminojsUnsignedBytes(tx))).toEqual(tx);
      }),
      RUNS,
    );
  });
});

describe.each(readableByCaminojs)('%s read by caminojs', (_name, txs) => {
  it('caminojs reads our bytes and writes them back unchanged', () => {
    fc.assert(
      fc.property(txs, (tx) => {
        const ours = encodeUnsignedTx(tx);
        expect(hex(caminojsReparse(tx.chain, ours))).toBe(hex(ours));
      }),
      RUNS,
    );
  });
});

describe('caminojs quirks the codec does not share', () => {
  it('caminojs misreads a ClaimTx with two claimables; our decoder reads it', () => {
    const tx = fc.sample(arb.claimTx.filter((t) => t.claimables.length >= 2), { numRuns: 1, seed: 7 })[0] as UnsignedTx;
    const bytes = encodeUnsignedTx(tx);
    expect(() => caminojsReparse('P', bytes)).toThrow();
    expect(decodeUnsignedTx('P', bytes)).toEqual(tx);
  });

  it('caminojs reads a C export nonce as 0; our decoder reads the nonce in the bytes', () => {
    const tx = fc.sample(arb.cExportTx.filter((t) => t.inputs.every((i) => i.nonce > 0n)), { numRuns: 1, seed: 3 })[0] as UnsignedTx;
    const bytes = encodeUnsignedTx(tx);
    expect(caminojsParsedNonces(bytes).every((n) => n === '0')).toBe(true);
    const decoded = decodeUnsignedTx('C', bytes);
    if (decoded.chain !== 'C' || decoded.kind !== 'export' || tx.chain !== 'C' || tx.kind !== 'export') throw new Error('not a C export');
    expect(decoded.inputs.map((i) => i.nonce)).toEqual(tx.inputs.map((i) => i.nonce));
  });

  it('caminojs writes threshold 0 as 1', () => {
    expect(caminojsWrittenThreshold([new Uint8Array(20).fill(1)])).toBe(1);
  });
});

describe.each(['X', 'P'] as const)('%s-chain UTXOs against caminojs', (chain) => {
  it('caminojs reads every output kind a UTXO can hold and writes the same bytes; we decode them back', () => {
    fc.assert(
      fc.property(arb.utxo(chain), (u) => {
        const bytes = encodeUtxo(chain, u);
        expect(hex(caminojsReparseUtxo(chain, bytes))).toBe(hex(bytes));
        expect(decodeUtxo(chain, bytes)).toEqual(u);
      }),
      RUNS,
    );
  });
});
