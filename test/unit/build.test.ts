import { describe, expect, it } from 'vitest';
import {
  BuildError,
  buildBaseTx,
  buildCExportTx,
  buildClaimTx,
  buildCImportTx,
  buildDepositTx,
  buildExportTx,
  buildImportTx,
  buildUnlockDepositTx,
  type BuiltTx,
  spendableUtxos,
} from '../../src/tx-builders/index.js';
import { formatCb58Id } from '../../src/codec/index.js';
import {
  atomicFee,
  type CExportTx,
  type CImportTx,
  decodeUnsignedTx,
  type ExportTx,
  type ImportTx,
  sha256,
  type TransferableOutput,
  type UnsignedTx,
} from '../../src/codec/tx/index.js';
import { caminojsUnsignedBytes } from '../codec/caminojs.js';
import { ANT, bonded, CAM, deposited, env, id, KEY, keyOwner, lockedUtxo, NOW, OTHER, short, THIS_TX_ID, utxo } from './build-fixtures.js';

/** Each builder on hand-made UTXO sets: exact fee, change, what is and is not spent, and the bytes caminojs writes. */

const cam = formatCb58Id(CAM);
const ant = formatCb58Id(ANT);
const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');

/** Every built tx: its bytes decode to it, its hash is sha256 of them, caminojs writes the same bytes. */
function checked(b: BuiltTx): BuiltTx {
  expect(decodeUnsignedTx(b.chain, b.bytes)).toEqual(b.unsigned);
  expect(hex(b.hash)).toBe(hex(sha256(b.bytes)));
  if (b.chain !== 'C' || b.unsigned.networkID === 1 || b.unsigned.networkID === 12345) expect(hex(caminojsUnsignedBytes(b.unsigned))).toBe(hex(b.bytes));
  return b;
}

const amounts = (outs: TransferableOutput[]) => outs.map((o) => (o.output.kind === 'secp.transfer' ? o.output.amount : o.output.output.amount));
const refusal = (run: () => unknown) => {
  try {
    run();
  } catch (err) {
    return err;
  }
  throw new Error('expected a refusal');
};

describe('spendableUtxos', () => {
  it('keeps only unlocked outputs the key alone can spend now, each once, largest first', () => {
    const set = [
      utxo(1, 0, 5n),
      utxo(1, 0, 5n), // the same UTXO twice (two pages)
      utxo(2, 0, 9n),
      utxo(3, 0, 7n, CAM, keyOwner({ locktime: NOW + 1n })),
      utxo(4, 0, 7n, CAM, keyOwner({ threshold: 2, addresses: [KEY, OTHER] })),
      utxo(5, 0, 7n, CAM, keyOwner({ addresses: [OTHER] })),
      lockedUtxo(6, 0, 7n, deposited(0x66)),
      utxo(7, 0, 3n, CAM, keyOwner({ locktime: NOW })),
      utxo(8, 1, 4n, CAM, { locktime: 0n, threshold: 1, addresses: [KEY, OTHER].sort(Buffer.compare) }),
    ];
    const got = spendableUtxos(env, set).map((u) => [u.txID[0], u.outputIndex, u.amount, u.sigIndex]);
    expect(got).toEqual([
      [2, 0, 9n, 0],
      [1, 0, 5n, 0],
      [8, 1, 4n, 0],
      [7, 0, 3n, 0],
    ]);
  });
});

describe('buildBaseTx', () => {
  it('sends 1.5 CAM on X with change to the key and burns exactly the fee', () => {
    const b = checked(buildBaseTx(env, { chain: 'X', utxos: [utxo(1, 0, 1_000_000_000n), utxo(2, 0, 1_000_000_000n)], payments: [{ assetID: CAM, amount: 1_500_000_000n, to: { addresses: [OTHER] } }] }));
    expect(b.unsigned.kind).toBe('base');
    expect(b.summary.inputs).toEqual({ [cam]: 2_000_000_000n });
    expect(b.summary.outputs).toEqual({ [cam]: 1_999_000_000n });
    expect(b.summary.fee).toBe(1_000_000n);
    expect(b.summary.change).toEqual({ [cam]: 499_000_000n });
    expect(b.sigIndices).toEqual([[0], [0]]);
  });

  it('sends two assets at once, the fee from CAM, each asset with its change', () => {
    const b = checked(
      buildBaseTx(env, {
        chain: 'X',
        utxos: [utxo(1, 0, 10_000_000n), utxo(2, 0, 50n, ANT), utxo(3, 0, 30n, ANT)],
        payments: [
          { assetID: ANT, amount: 60n, to: { addresses: [OTHER] } },
          { assetID: CAM, amount: 2_000_000n, to: { addresses: [OTHER] } },
        ],
        memo: new TextEncoder().encode('rent'),
      }),
    );
    expect(b.summary.change).toEqual({ [cam]: 7_000_000n, [ant]: 20n });
    expect(b.summary.inputs[ant]).toBe(80n);
    expect(b.summary.fee).toBe(1_000_000n);
    if (b.unsigned.chain === 'C') throw new Error('not C');
    expect(new TextDecoder().decode(b.unsigned.memo)).toBe('rent');
  });

  it('spends no change output when the inputs match amount + fee exactly', () => {
    const b = checked(buildBaseTx(env, { chain: 'P', utxos: [utxo(1, 0, 3_000_000n)], payments: [{ assetID: CAM, amount: 2_000_000n, to: { addresses: [OTHER] } }] }));
    expect(b.unsigned.kind).toBe('base');
    expect(b.summary.change).toEqual({});
    if (b.unsigned.chain === 'C') throw new Error('not C');
    expect(b.unsigned.outputs).toHaveLength(1);
  });

  it('refuses in one line when locked, time-locked or foreign funds would be needed', () => {
    const err = refusal(() =>
      buildBaseTx(env, {
        chain: 'P',
        utxos: [utxo(1, 0, 2_000_000n), lockedUtxo(2, 0, 100_000_000n, deposited(9)), utxo(3, 0, 100_000_000n, CAM, keyOwner({ locktime: NOW + 60n }))],
        payments: [{ assetID: CAM, amount: 5_000_000n, to: { addresses: [OTHER] } }],
      }),
    );
    expect(err).toBeInstanceOf(BuildError);
    expect((err as BuildError).code).toBe('insufficient-funds');
    expect((err as Error).message).toBe('insufficient funds on P: the tx needs 6000000 nCAM (fee 1000000 included), the key can spend 2000000 now');
  });

  it('refuses another asset than CAM on P', () => {
    expect(() => buildBaseTx(env, { chain: 'P', utxos: [utxo(1, 0, 9_000_000n, ANT)], payments: [{ assetID: ANT, amount: 1n, to: { addresses: [OTHER] } }] })).toThrow(/only the fee asset/);
  });

  it('refuses a zero amount and an empty recipient', () => {
    expect(() => buildBaseTx(env, { chain: 'X', utxos: [utxo(1, 0, 9n)], payments: [{ assetID: CAM, amount: 0n, to: { addresses: [OTHER] } }] })).toThrow(/positive/);
    expect(() => buildBaseTx(env, { chain: 'X', utxos: [utxo(1, 0, 9_000_000n)], payments: [{ assetID: CAM, amount: 1n, to: { addresses: [] } }] })).toThrow(/at least one address/);
  });
});

describe('exports and imports', () => {
  it('exports from X to C: the exported output is the key\'s, change stays on X', () => {
    const b = checked(buildExportTx(env, { chain: 'X', destination: 'C', utxos: [utxo(1, 0, 5_000_000_000n)], amount: 2_000_000_000n }));
    const tx = b.unsigned as ExportTx;
    expect(hex(tx.destinationChain)).toBe(hex(env.chainIDs.C));
    expect(amounts(tx.exportedOutputs)).toEqual([2_000_000_000n]);
    expect(amounts(tx.outputs)).toEqual([2_999_000_000n]);
    expect(b.summary.fee).toBe(env.txFee);
  });

  it('imports only the UTXOs of the named export, paying the fee from them', () => {
    const atomic = [utxo(0x51, 0, 2_000_000_000n), utxo(0x52, 0, 20_000_000_000n), utxo(0x51, 1, 5n, ANT)];
    const b = checked(buildImportTx(env, { chain: 'X', source: 'P', atomicUtxos: atomic, exportTxID: id(0x51) }));
    const tx = b.unsigned as ImportTx;
    expect(tx.importedInputs.map((i) => [i.txID[0], i.outputIndex])).toEqual([
      [0x51, 0],
      [0x51, 1],
    ]);
    expect(tx.inputs).toEqual([]);
    expect(b.summary.outputs).toEqual({ [cam]: 1_999_000_000n, [ant]: 5n });
  });

  it('with all, imports everything waiting and lists every input', () => {
    const atomic = [utxo(0x51, 0, 2_000_000_000n), utxo(0x52, 0, 20_000_000_000n)];
    const b = checked(buildImportTx(env, { chain: 'P', source: 'X', atomicUtxos: atomic, all: true }));
    expect((b.unsigned as ImportTx).importedInputs).toHaveLength(2);
    expect(b.summary.inputs).toEqual({ [cam]: 22_000_000_000n });
    expect(b.summary.fee).toBe(env.txFee);
  });

  it('asks for the export txID or all, and refuses when nothing of it is the key\'s', () => {
    expect(() => buildImportTx(env, { chain: 'X', source: 'P', atomicUtxos: [utxo(1, 0, 5n)] })).toThrow(/name the export txID/);
    expect(() => buildImportTx(env, { chain: 'X', source: 'P', atomicUtxos: [utxo(1, 0, 5n, CAM, keyOwner({ addresses: [OTHER] }))], exportTxID: id(1) })).toThrow(
      /nothing the key can import from export/,
    );
  });

  it('pays an import fee the import cannot cover from local UTXOs', () => {
    const b = checked(buildImportTx(env, { chain: 'X', source: 'P', atomicUtxos: [utxo(0x51, 0, 400_000n)], exportTxID: id(0x51), utxos: [utxo(1, 0, 3_000_000n)] }));
    expect(b.summary.inputs).toEqual({ [cam]: 3_400_000n });
    expect(b.summary.outputs).toEqual({ [cam]: 2_400_000n });
    expect(b.sigIndices).toEqual([[0], [0]]);
  });
});

describe('C-chain atomic txs', () => {
  const baseFee = 200_000_000_000n;

  it('exports from C: the EVM input pays amount + ⌈gas × baseFee / 1e9⌉ at the nonce', () => {
    const b = checked(buildCExportTx(env, { destination: 'X', amount: 2_000_000_000n, nonce: 7n, baseFeeWei: baseFee }));
    const tx = b.unsigned as CExportTx;
    const gas = BigInt(b.bytes.length) + 1_000n + 10_000n;
    expect(b.summary.fee).toBe((gas * baseFee + 999_999_999n) / 1_000_000_000n);
    expect(b.summary.fee).toBe(gas * 200n);
    expect(tx.inputs).toEqual([{ address: env.key.evmAddress, amount: 2_000_000_000n + b.summary.fee, assetID: CAM, nonce: 7n }]);
    expect(amounts(tx.exportedOutputs)).toEqual([2_000_000_000n]);
  });

  it('refuses a C export the balance cannot pay', () => {
    expect(() => buildCExportTx(env, { destination: 'P', amount: 2_000_000_000n, nonce: 0n, baseFeeWei: baseFee, balance: 2_000_000_000n })).toThrow(
      /insufficient funds on C: the export needs \d+ nCAM/,
    );
  });

  it('imports into C: the imported amount less the fee goes to the key\'s 0x address; other assets stay', () => {
    const atomic = [utxo(0x51, 0, 1_000_000_000n), utxo(0x51, 1, 1_000_000_000n), utxo(0x51, 2, 9n, ANT)];
    const b = checked(buildCImportTx(env, { source: 'X', atomicUtxos: atomic, exportTxID: id(0x51), baseFeeWei: baseFee }));
    const tx = b.unsigned as CImportTx;
    expect(tx.importedInputs).toHaveLength(2);
    const fee = atomicFee(BigInt(b.bytes.length) + 2_000n + 10_000n, baseFee);
    expect(b.summary.fee).toBe(fee);
    expect(tx.outputs).toEqual([{ address: env.key.evmAddress, amount: 2_000_000_000n - fee, assetID: CAM }]);
  });

  it('refuses a C import that does not cover its own fee', () => {
    expect(() => buildCImportTx(env, { source: 'P', atomicUtxos: [utxo(0x51, 0, 1_000n)], all: true, baseFeeWei: baseFee })).toThrow(/brings 1000 nCAM and its fee is/);
  });
});

describe('Camino P-chain spends', () => {
  it('deposits: the deposited amount becomes a locked.Out "locked by this tx", the rest returns unlocked', () => {
    const b = checked(
      buildDepositTx(env, { utxos: [utxo(1, 0, 10_000_000_000n), lockedUtxo(2, 0, 50_000_000_000n, bonded(3))], depositOfferID: id(0x0f), duration: 86_400 * 30, amount: 4_000_000_000n }),
    );
    const tx = b.unsigned as Extract<UnsignedTx, { kind: 'deposit' }>;
    const locked = tx.outputs.filter((o) => o.output.kind === 'locked');
    expect(locked).toHaveLength(1);
    const out = locked[0]?.output;
    if (out?.kind !== 'locked') throw new Error('no locked output');
    expect(hex(out.lockIDs.depositTxID)).toBe(hex(THIS_TX_ID));
    expect(out.output.amount).toBe(4_000_000_000n);
    expect(tx.inputs.map((i) => i.txID[0])).toEqual([1]);
    expect(b.summary.change).toEqual({ [cam]: 5_999_000_000n });
    expect(b.summary.fee).toBe(env.txFee);
    expect(tx.rewardsOwner).toEqual(keyOwner());
  });

  it('unlocks what is unlockable: locked.In with the UTXO\'s own lock IDs, the rest stays deposited, the fee from unlocked funds', () => {
    const utxos = [lockedUtxo(2, 0, 10_000_000_000n, deposited(7)), lockedUtxo(3, 1, 1_000n, deposited(8)), utxo(4, 0, 5_000_000n)];
    const b = checked(buildUnlockDepositTx(env, { utxos, deposits: [{ depositTxID: id(7), amount: 4_000_000_000n }] }));
    const tx = b.unsigned as Extract<UnsignedTx, { kind: 'unlockDeposit' }>;
    const lockedIn = tx.inputs.find((i) => i.input.kind === 'locked');
    if (lockedIn?.input.kind !== 'locked') throw new Error('no locked input');
    expect(lockedIn.input.lockIDs).toEqual(deposited(7));
    expect(lockedIn.input.input.amount).toBe(10_000_000_000n);
    expect(tx.inputs.map((i) => i.txID[0])).toEqual([2, 4]);
    const byKind = tx.outputs.map((o) => [o.output.kind, o.output.kind === 'secp.transfer' ? o.output.amount : o.output.output.amount]);
    expect(byKind).toEqual(expect.arrayContaining([['secp.transfer', 4_000_000_000n], ['locked', 6_000_000_000n], ['secp.transfer', 4_000_000n]]));
    expect(b.summary.fee).toBe(env.txFee);
  });

  it('unlocks an expired deposit whole, with no fee and no unlocked input, and refuses mixing it with an active one', () => {
    const utxos = [lockedUtxo(2, 0, 7_000n, deposited(7)), lockedUtxo(3, 0, 5_000n, deposited(7)), lockedUtxo(4, 0, 9n, deposited(8)), utxo(5, 0, 5_000_000n)];
    const b = checked(buildUnlockDepositTx(env, { utxos, deposits: [{ depositTxID: id(7), amount: 1n, expired: true }] }));
    const tx = b.unsigned as Extract<UnsignedTx, { kind: 'unlockDeposit' }>;
    expect(tx.inputs.map((i) => [i.txID[0], i.input.kind])).toEqual([
      [2, 'locked'],
      [3, 'locked'],
    ]);
    expect(tx.outputs.map((o) => [o.output.kind, o.output.kind === 'secp.transfer' ? o.output.amount : 0n])).toEqual([
      ['secp.transfer', 5_000n],
      ['secp.transfer', 7_000n],
    ]);
    expect(b.summary.fee).toBe(0n);
    expect(() =>
      buildUnlockDepositTx(env, {
        utxos,
        deposits: [
          { depositTxID: id(7), amount: 1n, expired: true },
          { depositTxID: id(8), amount: 9n },
        ],
      }),
    ).toThrow(/separate transactions/);
  });

  it('unlocking a deposited and bonded UTXO keeps it bonded', () => {
    const both = { depositTxID: id(7), bondTxID: id(9) };
    const b = checked(buildUnlockDepositTx(env, { utxos: [lockedUtxo(2, 0, 100n, both), utxo(4, 0, 5_000_000n)], deposits: [{ depositTxID: id(7), amount: 100n }] }));
    const outs = (b.unsigned as Extract<UnsignedTx, { kind: 'unlockDeposit' }>).outputs.filter((o) => o.output.kind === 'locked');
    expect(outs.map((o) => (o.output.kind === 'locked' ? [o.output.lockIDs.depositTxID[0], o.output.lockIDs.bondTxID[0], o.output.output.amount] : []))).toEqual([[0, 9, 100n]]);
  });

  it('claims: reward outputs to the key, fee from unlocked UTXOs, one credential per input and per claimable', () => {
    const b = checked(buildClaimTx(env, { utxos: [utxo(1, 0, 3_000_000n)], claims: [{ id: id(7), type: 3n, amount: 500_000_000n }] }));
    const tx = b.unsigned as Extract<UnsignedTx, { kind: 'claim' }>;
    expect(tx.claimables).toEqual([{ id: id(7), type: 3n, amount: 500_000_000n, ownerAuth: { sigIndices: [0] } }]);
    expect(b.sigIndices).toEqual([[0], [0]]);
    expect(b.summary.outputs).toEqual({ [cam]: 502_000_000n });
    expect(b.summary.inputs).toEqual({ [cam]: 3_000_000n });
    expect(b.summary.fee).toBe(env.txFee);
  });
});

describe('the key never signs for what it does not own', () => {
  it('never puts a foreign-owned output among a send\'s inputs even when it would cover the amount', () => {
    const b = checked(
      buildBaseTx(env, {
        chain: 'X',
        utxos: [utxo(1, 0, 3_000_000n), utxo(9, 0, 999_000_000_000n, CAM, keyOwner({ addresses: [short(0x33)] }))],
        payments: [{ assetID: CAM, amount: 1_000_000n, to: { addresses: [OTHER] } }],
      }),
    );
    expect((b.unsigned as Extract<UnsignedTx, { kind: 'base' }>).inputs.map((i) => i.txID[0])).toEqual([1]);
  });
});
