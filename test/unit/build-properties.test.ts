import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  BuildError,
  buildBaseTx,
  buildCExportTx,
  buildCImportTx,
  buildDepositTx,
  buildExportTx,
  buildImportTx,
  buildUnlockDepositTx,
  type BuiltTx,
} from '../../src/tx-builders/index.js';
import {
  type CExportTx,
  type CImportTx,
  decodeUnsignedTx,
  type TransferableInput,
  type TransferableOutput,
  type UnsignedTx,
  type Utxo,
  ZERO_ID,
} from '../../src/codec/tx/index.js';
import { ANT, CAM, env, id, KEY, NOW, OTHER, short } from './build-fixtures.js';

/**
 * Property tests over random UTXO sets (unlocked, deposited, bonded, stakeable, time-locked, multi-signature,
 * foreign, mint outputs; several assets): every built tx decodes back to itself, burns exactly the node's fee
 * and nothing else, spends only outputs the key alone may spend now, and refuses only when funds really lack.
 */

const RUNS = { numRuns: 150 };
const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');
const key = (txID: Uint8Array, index: number) => `${hex(txID)}:${index}`;

const ASSETS = [CAM, ANT, id(0xa2)];
const asset = fc.constantFrom(...ASSETS);
const amount = fc.bigInt({ min: 1n, max: 20_000_000_000n });
const anyId = fc.uint8Array({ minLength: 32, maxLength: 32 });
const nonZeroId = anyId.map((b) => (b.some((x) => x !== 0) ? b : Uint8Array.of(1, ...b.subarray(1))));
const sortedPair = [KEY, OTHER].sort(Buffer.compare);

type Kind = 'own' | 'own-shared' | 'timelocked' | 'past-locktime' | 'multisig' | 'foreign' | 'deposited' | 'bonded' | 'stakeable' | 'mint';
const kinds: Kind[] = ['own', 'own', 'own', 'own-shared', 'timelocked', 'past-locktime', 'multisig', 'foreign', 'deposited', 'bonded', 'stakeable', 'mint'];

const utxoArb: fc.Arbitrary<Utxo> = fc
  .record({ txID: anyId, outputIndex: fc.integer({ min: 0, max: 5 }), assetID: asset, amount, kind: fc.constantFrom(...kinds), lockID: nonZeroId })
  .map(({ txID, outputIndex, assetID, amount, kind, lockID }) => {
    const owners = (() => {
      switch (kind) {
        case 'own-shared':
          return { locktime: 0n, threshold: 1, addresses: sortedPair };
        case 'timelocked':
          return { locktime: NOW + 1n, threshold: 1, addresses: [KEY] };
        case 'past-locktime':
          return { locktime: NOW, threshold: 1, addresses: [KEY] };
        case 'multisig':
          return { locktime: 0n, threshold: 2, addresses: sortedPair };
        case 'foreign':
          return { locktime: 0n, threshold: 1, addresses: [OTHER] };
        default:
          return { locktime: 0n, threshold: 1, addresses: [KEY] };
      }
    })();
    const inner = { kind: 'secp.transfer' as const, amount, owners };
    const output: Utxo['output'] =
      kind === 'deposited'
        ? { kind: 'locked', lockIDs: { depositTxID: lockID, bondTxID: ZERO_ID }, output: inner }
        : kind === 'bonded'
          ? { kind: 'locked', lockIDs: { depositTxID: ZERO_ID, bondTxID: lockID }, output: inner }
          : kind === 'stakeable'
            ? { kind: 'stakeable', locktime: NOW + 100n, output: inner }
            : kind === 'mint'
              ? { kind: 'secp.mint', owners }
              : inner;
    return { txID, outputIndex, assetID: kind === 'deposited' || kind === 'bonded' || kind === 'stakeable' ? CAM : assetID, output };
  });

const utxoSet = fc.uniqueArray(utxoArb, { maxLength: 14, selector: (u) => key(u.txID, u.outputIndex) });

/** The oracle, written apart from the builder: what the key alone may spend now. */
function oracleSpendable(u: Utxo): boolean {
  if (u.output.kind !== 'secp.transfer') return false;
  const o = u.output.owners;
  return o.threshold === 1 && o.locktime <= NOW && o.addresses.some((a) => hex(a) === hex(KEY));
}

function available(set: readonly Utxo[], assetID: Uint8Array): bigint {
  return set.filter((u) => oracleSpendable(u) && hex(u.assetID) === hex(assetID)).reduce((s, u) => s + (u.output.kind === 'secp.transfer' ? u.output.amount : 0n), 0n);
}

/** Math.min takes no bigint. */
const minBig = (a: bigint, b: bigint): bigint => (a < b ? a : b);

/**
 * caminogo's lock accounting of an UnlockDepositTx (utxo/camino_locked.go VerifyUnlockDepositedUTXOs), as an
 * oracle: deposited inputs pool per owner and bond; outputs, in their (sorted) order, draw on their owner's pool
 * for their bond first, unlocked ones then on the unlocked inputs, which must keep the fee.
 */
function nodeUnlockAccounting(tx: Extract<UnsignedTx, { kind: 'unlockDeposit' }>, set: readonly Utxo[], fee: bigint): string {
  const ownerOf = (o: { locktime: bigint; threshold: number; addresses: Uint8Array[] }) => `${o.locktime}/${o.threshold}/${o.addresses.map(hex).sort().join()}`;
  const pools = new Map<string, bigint>();
  let unlocked = 0n;
  for (const i of tx.inputs) {
    const u = set.find((x) => key(x.txID, x.outputIndex) === key(i.txID, i.outputIndex))!;
    if (u.output.kind === 'locked') {
      const k = `${ownerOf(u.output.output.owners)}|${hex(u.output.lockIDs.bondTxID)}`;
      pools.set(k, (pools.get(k) ?? 0n) + inAmount(i));
    } else unlocked += inAmount(i);
  }
  for (const o of tx.outputs) {
    const inner = o.output.kind === 'locked' ? o.output.output : o.output.kind === 'secp.transfer' ? o.output : undefined;
    if (!inner) return 'refused: output type';
    const k = `${ownerOf(inner.owners)}|${hex(o.output.kind === 'locked' ? o.output.lockIDs.bondTxID : ZERO_ID)}`;
    const have = pools.get(k) ?? 0n;
    if (have >= inner.amount) pools.set(k, have - inner.amount);
    else {
      if (o.output.kind === 'locked') return 'refused: produced more tokens, than input had';
      if (unlocked < inner.amount - have) return 'refused: produced more unlocked tokens, than input had';
      unlocked -= inner.amount - have;
      pools.set(k, 0n);
    }
  }
  return unlocked < fee ? 'refused: burned less tokens, than needed to' : 'accepted';
}
const inAmount = (i: TransferableInput) => (i.input.kind === 'locked' ? i.input.input.amount : i.input.amount);
const outAmount = (o: TransferableOutput) => (o.output.kind === 'secp.transfer' ? o.output.amount : o.output.output.amount);

/** Per asset, inputs − outputs of the decoded tx, computed here and not by the codec. */
function burned(tx: UnsignedTx): Map<string, bigint> {
  const m = new Map<string, bigint>();
  const add = (a: Uint8Array, n: bigint) => m.set(hex(a), (m.get(hex(a)) ?? 0n) + n);
  if (tx.chain === 'C') {
    if (tx.kind === 'import') {
      for (const i of tx.importedInputs) add(i.assetID, inAmount(i));
      for (const o of tx.outputs) add(o.assetID, -o.amount);
    } else {
      for (const i of tx.inputs) add(i.assetID, i.amount);
      for (const o of tx.exportedOutputs) add(o.assetID, -outAmount(o));
    }
    return m;
  }
  for (const i of tx.inputs) add(i.assetID, inAmount(i));
  for (const o of tx.outputs) add(o.assetID, -outAmount(o));
  if (tx.kind === 'import') for (const i of tx.importedInputs) add(i.assetID, inAmount(i));
  if (tx.kind === 'export') for (const o of tx.exportedOutputs) add(o.assetID, -outAmount(o));
  return m;
}

/** The checks every built tx passes. */
function invariants(b: BuiltTx, fee: bigint, spentFrom: readonly Utxo[][]): void {
  expect(decodeUnsignedTx(b.chain, b.bytes)).toEqual(b.unsigned);
  for (const [asset, n] of burned(b.unsigned)) expect([asset, n]).toEqual([asset, asset === hex(CAM) ? fee : 0n]);
  if (fee > 0n) expect(burned(b.unsigned).get(hex(CAM))).toBe(fee);
  expect(b.summary.fee).toBe(fee);
  const tx = b.unsigned;
  const groups: TransferableInput[][] = tx.chain === 'C' ? (tx.kind === 'import' ? [tx.importedInputs] : []) : tx.kind === 'import' ? [tx.inputs, tx.importedInputs] : [tx.inputs];
  groups.forEach((inputs, g) => {
    const pool = new Map((spentFrom[g] ?? []).map((u) => [key(u.txID, u.outputIndex), u]));
    for (const i of inputs) {
      const u = pool.get(key(i.txID, i.outputIndex));
      expect(u, 'every input spends a UTXO it was given').toBeDefined();
      if (u === undefined) continue;
      if (i.input.kind === 'locked') {
        expect(u.output.kind).toBe('locked');
      } else {
        expect(oracleSpendable(u), 'never an unspendable, locked or foreign output').toBe(true);
        expect(i.input.amount).toBe(u.output.kind === 'secp.transfer' ? u.output.amount : -1n);
      }
    }
  });
  expect(b.sigIndices).toHaveLength(groups.flat().length + (tx.chain === 'C' && tx.kind === 'export' ? tx.inputs.length : 0) + (tx.kind === 'claim' ? tx.claimables.length : 0));
}

function refusedHonestly(err: unknown, lacking: boolean): void {
  if (!(err instanceof BuildError)) throw err;
  expect(err.code).toBe('insufficient-funds');
  expect(lacking, `refused although the key has enough: ${err.message}`).toBe(true);
  expect(err.message).not.toContain('\n');
}

const payment = fc.record({ assetID: asset, amount: fc.bigInt({ min: 1n, max: 30_000_000_000n }) });

describe('builder properties over random UTXO sets', () => {
  it('sends on X or P: exact fee, only spendable inputs, every payment present, change to the key', () => {
    fc.assert(
      fc.property(utxoSet, fc.array(payment, { minLength: 1, maxLength: 3 }), fc.constantFrom('X' as const, 'P' as const), (set, pays, chain) => {
        // The P-chain holds only CAM.
        const payments = pays.map((p) => ({ ...p, assetID: chain === 'P' ? CAM : p.assetID, to: { addresses: [short(0x44)] } }));
        const need = new Map<string, bigint>([[hex(CAM), env.txFee]]);
        for (const p of payments) need.set(hex(p.assetID), (need.get(hex(p.assetID)) ?? 0n) + p.amount);
        const lacking = [...need].some(([a, n]) => available(set, ASSETS.find((x) => hex(x) === a) as Uint8Array) < n);
        let b: BuiltTx;
        try {
          b = buildBaseTx(env, { chain, utxos: set, payments });
        } catch (err) {
          refusedHonestly(err, lacking);
          return;
        }
        expect(lacking).toBe(false);
        invariants(b, env.txFee, [set]);
        const tx = b.unsigned as Extract<UnsignedTx, { kind: 'base' }>;
        for (const p of payments) {
          expect(tx.outputs.some((o) => hex(o.assetID) === hex(p.assetID) && outAmount(o) === p.amount && o.output.kind === 'secp.transfer' && hex(o.output.owners.addresses[0] as Uint8Array) === hex(short(0x44)))).toBe(true);
        }
        for (const o of tx.outputs) {
          if (o.output.kind !== 'secp.transfer') throw new Error('a send makes only plain outputs');
          const owner = hex(o.output.owners.addresses[0] as Uint8Array);
          expect([hex(short(0x44)), hex(KEY)]).toContain(owner);
        }
      }),
      RUNS,
    );
  });

  it('exports from X or P: the exported amount, exact fee, only spendable inputs', () => {
    fc.assert(
      fc.property(utxoSet, fc.bigInt({ min: 1n, max: 30_000_000_000n }), fc.constantFrom(['X', 'P'] as const, ['X', 'C'] as const, ['P', 'X'] as const, ['P', 'C'] as const), (set, amt, [chain, destination]) => {
        const lacking = available(set, CAM) < amt + env.txFee;
        let b: BuiltTx;
        try {
          b = buildExportTx(env, { chain, destination, utxos: set, amount: amt });
        } catch (err) {
          refusedHonestly(err, lacking);
          return;
        }
        expect(lacking).toBe(false);
        invariants(b, env.txFee, [set]);
        const tx = b.unsigned as Extract<UnsignedTx, { kind: 'export' }>;
        expect(tx.exportedOutputs.map(outAmount)).toEqual([amt]);
        expect(hex(tx.destinationChain)).toBe(hex(env.chainIDs[destination]));
      }),
      RUNS,
    );
  });

  it('imports into X or P only the named export\'s spendable UTXOs (or all), exact fee', () => {
    fc.assert(
      fc.property(utxoSet, utxoSet, fc.boolean(), fc.constantFrom('X' as const, 'P' as const), (atomic, local, all, chain) => {
        const exportTxID = atomic[0]?.txID ?? id(1);
        const chosen = atomic.filter((u) => all || hex(u.txID) === hex(exportTxID)).filter(oracleSpendable).filter((u) => chain === 'X' || hex(u.assetID) === hex(CAM));
        let b: BuiltTx;
        try {
          b = buildImportTx(env, { chain, source: chain === 'X' ? 'P' : 'X', atomicUtxos: atomic, ...(all ? { all: true } : { exportTxID }), utxos: local });
        } catch (err) {
          if (!(err instanceof BuildError)) throw err;
          if (err.code === 'nothing-to-import') {
            expect(chosen).toEqual([]);
            return;
          }
          const importedCam = chosen.filter((u) => hex(u.assetID) === hex(CAM)).reduce((s, u) => s + (u.output.kind === 'secp.transfer' ? u.output.amount : 0n), 0n);
          refusedHonestly(err, importedCam + available(local, CAM) < env.txFee);
          return;
        }
        invariants(b, env.txFee, [local, atomic]);
        const tx = b.unsigned as Extract<UnsignedTx, { kind: 'import' }>;
        expect(tx.importedInputs.map((i) => key(i.txID, i.outputIndex)).sort()).toEqual(chosen.map((u) => key(u.txID, u.outputIndex)).sort());
      }),
      RUNS,
    );
  });

  it('C exports and imports pay exactly ⌈(bytes + 1000 × signatures + 10000) × baseFee / 1e9⌉', () => {
    const baseFee = fc.bigInt({ min: 1n, max: 500_000_000_000n });
    fc.assert(
      fc.property(fc.bigInt({ min: 1n, max: 10n ** 15n }), fc.bigInt({ min: 0n, max: 1000n }), baseFee, fc.constantFrom('X' as const, 'P' as const), (amt, nonce, fee, destination) => {
        const b = buildCExportTx(env, { destination, amount: amt, nonce, baseFeeWei: fee });
        const expected = ((BigInt(b.bytes.length) + 1_000n + 10_000n) * fee + 999_999_999n) / 1_000_000_000n;
        invariants(b, expected, []);
        expect((b.unsigned as CExportTx).inputs[0]?.nonce).toBe(nonce);
      }),
      RUNS,
    );
    fc.assert(
      fc.property(utxoSet, baseFee, (atomic, fee) => {
        const chosen = atomic.filter(oracleSpendable).filter((u) => hex(u.assetID) === hex(CAM));
        let b: BuiltTx;
        try {
          b = buildCImportTx(env, { source: 'X', atomicUtxos: atomic, all: true, baseFeeWei: fee });
        } catch (err) {
          if (!(err instanceof BuildError)) throw err;
          if (err.code === 'nothing-to-import') return void expect(chosen).toEqual([]);
          return refusedHonestly(err, true);
        }
        const sigs = BigInt((b.unsigned as CImportTx).importedInputs.length);
        const expected = ((BigInt(b.bytes.length) + 1_000n * sigs + 10_000n) * fee + 999_999_999n) / 1_000_000_000n;
        invariants(b, expected, [atomic]);
        expect((b.unsigned as CImportTx).outputs.map((o) => hex(o.address))).toEqual([hex(env.key.evmAddress)]);
      }),
      RUNS,
    );
  });

  it('deposits lock exactly the amount, from the key\'s own unlocked UTXOs only', () => {
    fc.assert(
      fc.property(utxoSet, fc.bigInt({ min: 1n, max: 30_000_000_000n }), (set, amt) => {
        const keyOnly = set.filter((u) => oracleSpendable(u) && u.output.kind === 'secp.transfer' && u.output.owners.addresses.length === 1 && u.output.owners.locktime === 0n);
        const have = keyOnly.filter((u) => hex(u.assetID) === hex(CAM)).reduce((s, u) => s + (u.output.kind === 'secp.transfer' ? u.output.amount : 0n), 0n);
        let b: BuiltTx;
        try {
          b = buildDepositTx(env, { utxos: set, depositOfferID: id(0x0f), duration: 3600, amount: amt });
        } catch (err) {
          refusedHonestly(err, have < amt + env.txFee);
          return;
        }
        invariants(b, env.txFee, [keyOnly]);
        const tx = b.unsigned as Extract<UnsignedTx, { kind: 'deposit' }>;
        expect(tx.outputs.filter((o) => o.output.kind === 'locked').map(outAmount)).toEqual([amt]);
      }),
      RUNS,
    );
  });

  it('unlocks no more than is unlockable, keeps lock IDs, and pays the fee from unlocked funds', () => {
    fc.assert(
      fc.property(utxoSet, fc.bigInt({ min: 0n, max: 30_000_000_000n }), (set, unlockable) => {
        const target = set.find((u) => u.output.kind === 'locked' && u.output.lockIDs.depositTxID.some((x) => x !== 0));
        fc.pre(target !== undefined && target.output.kind === 'locked');
        if (target?.output.kind !== 'locked') return;
        const depositTxID = target.output.lockIDs.depositTxID;
        let b: BuiltTx;
        try {
          b = buildUnlockDepositTx(env, { utxos: set, deposits: [{ depositTxID, amount: unlockable }] });
        } catch (err) {
          if (!(err instanceof BuildError)) throw err;
          if (unlockable === 0n) return void expect(err.code).toBe('nothing-to-unlock');
          const keyOnlyCam = set.filter((u) => oracleSpendable(u) && u.output.kind === 'secp.transfer' && u.output.owners.addresses.length === 1 && u.output.owners.locktime === 0n && hex(u.assetID) === hex(CAM));
          return refusedHonestly(err, keyOnlyCam.reduce((s, u) => s + (u.output.kind === 'secp.transfer' ? u.output.amount : 0n), 0n) < env.txFee);
        }
        invariants(b, env.txFee, [set]);
        const tx = b.unsigned as Extract<UnsignedTx, { kind: 'unlockDeposit' }>;
        const lockedIns = tx.inputs.filter((i) => i.input.kind === 'locked');
        const depositedTotal = lockedIns.reduce((s, i) => s + inAmount(i), 0n);
        for (const i of lockedIns) {
          const u = set.find((x) => key(x.txID, x.outputIndex) === key(i.txID, i.outputIndex));
          if (i.input.kind !== 'locked' || u?.output.kind !== 'locked') throw new Error('locked input without its locked UTXO');
          expect(i.input.lockIDs).toEqual(u.output.lockIDs);
        }
        const freed = tx.outputs.filter((o) => o.output.kind !== 'locked' || o.output.lockIDs.depositTxID.every((x) => x === 0)).reduce((s, o) => s + outAmount(o), 0n);
        const feeChange = b.summary.change[Object.keys(b.summary.change)[0] ?? ''] ?? 0n;
        expect(freed - feeChange).toBe(minBig(unlockable, depositedTotal));
        expect(nodeUnlockAccounting(tx, set, env.txFee)).toBe('accepted');
      }),
      RUNS,
    );
  });
});
