import { describe, expect, it } from 'vitest';
import { formatCb58Id } from '../../src/codec/index.js';
import { decodeUnsignedTx, type TransferableOutput, type UnsignedTx } from '../../src/codec/tx/index.js';
import { finish } from '../../src/tx-builders/common.js';
import { BuildError, buildBaseTx, buildDepositTx } from '../../src/tx-builders/index.js';
import { ANT, CAM, env, id, KEY, OTHER, short, utxo } from './build-fixtures.js';

/** Issue 44: builder behaviour the node depends on that an earlier mutation run showed untested. */

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');

describe('owners as the node takes them (secp256k1fx OutputOwners: sorted, unique addresses)', () => {
  it('a recipient listing an address twice gets it once, sorted, in the bytes', () => {
    const third = short(0x01);
    const b = buildBaseTx(env, { chain: 'X', utxos: [utxo(1, 0, 5_000_000n)], payments: [{ assetID: CAM, amount: 1_000_000n, to: { addresses: [OTHER, third, OTHER], threshold: 2 } }] });
    const tx = decodeUnsignedTx('X', b.bytes) as Extract<UnsignedTx, { kind: 'base' }>;
    const paid = tx.outputs.find((o) => o.output.kind === 'secp.transfer' && o.output.owners.addresses.some((a) => hex(a) === hex(OTHER)))!;
    if (paid.output.kind !== 'secp.transfer') throw new Error('not a transfer');
    expect(paid.output.owners.addresses.map(hex)).toEqual([hex(third), hex(OTHER)]);
    expect(paid.output.owners.threshold).toBe(2);
  });

  it('a threshold above the distinct addresses is refused, however often one is repeated', () => {
    const run = () => buildBaseTx(env, { chain: 'X', utxos: [utxo(1, 0, 5_000_000n)], payments: [{ assetID: CAM, amount: 1_000_000n, to: { addresses: [OTHER, OTHER, OTHER], threshold: 2 } }] });
    expect(run).toThrow(BuildError);
    expect(run).toThrow('threshold 2 must be between 1 and the 1 address(es)');
  });
});

describe("the builder's own invariant", () => {
  it('refuses a tx that burns any asset other than the fee, even by one unit', () => {
    const b = buildBaseTx(env, {
      chain: 'X',
      utxos: [utxo(1, 0, 10_000_000n), utxo(2, 0, 50n, ANT)],
      payments: [{ assetID: ANT, amount: 20n, to: { addresses: [OTHER] } }],
    });
    // The same tx with the ANT change one unit short: it burns exactly the fee in CAM and 1 ANT.
    const tx = structuredClone(b.unsigned) as Extract<UnsignedTx, { kind: 'base' }>;
    const change = tx.outputs.find((o: TransferableOutput) => hex(o.assetID) === hex(ANT) && o.output.kind === 'secp.transfer' && hex(o.output.owners.addresses[0]!) === hex(KEY))!;
    if (change.output.kind !== 'secp.transfer') throw new Error('not a transfer');
    change.output.amount -= 1n;
    expect(() => finish(env, tx, b.sigIndices, env.txFee, b.summary.change)).toThrow(`builder invariant broken: burns 1 of ${formatCb58Id(ANT)}, expected 0`);
    // Untouched, it passes.
    expect(finish(env, b.unsigned, b.sigIndices, env.txFee, b.summary.change).bytes).toEqual(b.bytes);
  });
});

describe('a deposit selects for the amount and the fee', () => {
  it('takes one more UTXO when the first covers the amount but not the fee', () => {
    const b = buildDepositTx(env, { utxos: [utxo(1, 0, 4_000_000_000n), utxo(2, 0, 1_000_000_000n)], depositOfferID: id(0x0f), duration: 86_400 * 30, amount: 4_000_000_000n });
    const tx = b.unsigned as Extract<UnsignedTx, { kind: 'deposit' }>;
    expect(tx.inputs.map((i) => i.txID[0]).sort()).toEqual([1, 2]);
    expect(b.summary.fee).toBe(env.txFee);
    expect(b.summary.change).toEqual({ [formatCb58Id(CAM)]: 1_000_000_000n - env.txFee });
  });
});
