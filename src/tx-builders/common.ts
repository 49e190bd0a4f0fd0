import { formatCb58Id } from '../codec/index.js';
import {
  burnedByAsset,
  compareBytes,
  decodeUnsignedTx,
  encodeUnsignedTx,
  type OutputOwners,
  sha256,
  sortAddresses,
  sortInputs,
  sortOutputs,
  type TransferableInput,
  type TransferableOutput,
  type TxChain,
  type UnsignedTx,
  type Utxo,
} from '../codec/tx/index.js';
import { BuildError } from './errors.js';
import type { AssetTotals, BuildEnv, BuiltTx, Recipient, SpendableUtxo } from './types.js';

export const hexOf = (b: Uint8Array): string => Buffer.from(b).toString('hex');
export const cb58 = (id: Uint8Array): string => formatCb58Id(id);
export const sameBytes = (a: Uint8Array, b: Uint8Array): boolean => compareBytes(a, b) === 0;

/** The key alone may spend an output it owns with threshold 1 once its locktime has passed. */
export function keyCanSpend(env: BuildEnv, owners: OutputOwners): number | undefined {
  if (owners.threshold !== 1 || owners.locktime > env.now) return undefined;
  const index = owners.addresses.findIndex((a) => sameBytes(a, env.key.shortID));
  return index < 0 ? undefined : index;
}

/**
 * The owner the P-chain's lock accounting groups by (txs.GetOwnerID): Camino txs that lock or unlock keep each
 * owner's amounts apart, so their builders take only UTXOs owned by exactly the key (threshold 1, locktime 0).
 */
export function isKeyOwner(env: BuildEnv, owners: OutputOwners): boolean {
  return owners.threshold === 1 && owners.locktime === 0n && owners.addresses.length === 1 && sameBytes(owners.addresses[0] as Uint8Array, env.key.shortID);
}

/**
 * Unlocked secp UTXOs the key alone can spend now, each once, largest first and then by UTXO ID, so the same
 * UTXO set always gives the same selection. Locked (deposited, bonded, stakeable), mint, NFT, time-locked,
 * multi-signature and foreign outputs are left out.
 */
export function spendable(env: BuildEnv, utxos: readonly Utxo[], keyOnly = false): SpendableUtxo[] {
  const seen = new Set<string>();
  const out: SpendableUtxo[] = [];
  for (const u of utxos) {
    if (u.output.kind !== 'secp.transfer') continue;
    if (keyOnly && !isKeyOwner(env, u.output.owners)) continue;
    const sigIndex = keyCanSpend(env, u.output.owners);
    if (sigIndex === undefined) continue;
    const key = `${hexOf(u.txID)}:${u.outputIndex}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ ...u, amount: u.output.amount, sigIndex });
  }
  return out.sort(
    (a, b) =>
      compareBytes(a.assetID, b.assetID) ||
      (a.amount === b.amount ? 0 : a.amount > b.amount ? -1 : 1) ||
      compareBytes(a.txID, b.txID) ||
      a.outputIndex - b.outputIndex,
  );
}

export function inputOf(u: SpendableUtxo): TransferableInput {
  return { txID: u.txID, outputIndex: u.outputIndex, assetID: u.assetID, input: { kind: 'secp.transfer', amount: u.amount, sigIndices: [u.sigIndex] } };
}

/** Picks, per asset in `needs`, UTXOs until the asset is covered; refuses in one line when it cannot be. */
export function select(
  env: BuildEnv,
  chain: TxChain,
  pool: readonly SpendableUtxo[],
  needs: ReadonlyMap<string, { assetID: Uint8Array; amount: bigint }>,
): { inputs: TransferableInput[]; totals: Map<string, bigint> } {
  const inputs: TransferableInput[] = [];
  const totals = new Map<string, bigint>();
  for (const [asset, need] of [...needs].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    if (need.amount <= 0n) continue;
    let got = 0n;
    const available = pool.filter((u) => hexOf(u.assetID) === asset);
    for (const u of available) {
      if (got >= need.amount) break;
      inputs.push(inputOf(u));
      got += u.amount;
    }
    if (got < need.amount) {
      const have = available.reduce((s, u) => s + u.amount, 0n);
      const what = sameBytes(need.assetID, env.feeAssetID) ? `${need.amount} nCAM (fee ${env.txFee} included)` : `${need.amount} of asset ${cb58(need.assetID)}`;
      throw new BuildError('insufficient-funds', `insufficient funds on ${chain}: the tx needs ${what}, the key can spend ${have} now`);
    }
    totals.set(asset, got);
  }
  return { inputs: sortInputs(inputs), totals };
}

export function ownersOf(to: Recipient): OutputOwners {
  const addresses = sortAddresses(to.addresses);
  if (addresses.length === 0) throw new BuildError('bad-intent', 'a recipient needs at least one address');
  const threshold = to.threshold ?? 1;
  if (!Number.isInteger(threshold) || threshold < 1 || threshold > addresses.length) {
    throw new BuildError('bad-intent', `threshold ${threshold} must be between 1 and the ${addresses.length} address(es)`);
  }
  return { locktime: to.locktime ?? 0n, threshold, addresses };
}

export function keyRecipient(env: BuildEnv): Recipient {
  return { addresses: [env.key.shortID] };
}

export function outputOf(assetID: Uint8Array, amount: bigint, to: Recipient): TransferableOutput {
  return { assetID, output: { kind: 'secp.transfer', amount, owners: ownersOf(to) } };
}

export function needMap(entries: readonly { assetID: Uint8Array; amount: bigint }[]): Map<string, { assetID: Uint8Array; amount: bigint }> {
  const m = new Map<string, { assetID: Uint8Array; amount: bigint }>();
  for (const e of entries) {
    const k = hexOf(e.assetID);
    const prev = m.get(k);
    m.set(k, { assetID: e.assetID, amount: (prev?.amount ?? 0n) + e.amount });
  }
  return m;
}

export function checkAmount(amount: bigint, what: string): void {
  if (typeof amount !== 'bigint' || amount <= 0n || amount >= 1n << 64n) throw new BuildError('bad-intent', `${what} must be a positive whole number of base units below 2^64`);
}

export function sorted(chain: TxChain, outs: TransferableOutput[]): TransferableOutput[] {
  return sortOutputs(chain, outs);
}

function add(t: AssetTotals, asset: Uint8Array, amount: bigint): void {
  const k = cb58(asset);
  t[k] = (t[k] ?? 0n) + amount;
}

function totalsOf(tx: UnsignedTx): { inputs: AssetTotals; outputs: AssetTotals } {
  const inputs: AssetTotals = {};
  const outputs: AssetTotals = {};
  const inAmt = (i: TransferableInput) => (i.input.kind === 'locked' ? i.input.input.amount : i.input.amount);
  const outAmt = (o: TransferableOutput) => (o.output.kind === 'secp.transfer' ? o.output.amount : o.output.output.amount);
  if (tx.chain === 'C') {
    if (tx.kind === 'import') {
      for (const i of tx.importedInputs) add(inputs, i.assetID, inAmt(i));
      for (const o of tx.outputs) add(outputs, o.assetID, o.amount);
    } else {
      for (const i of tx.inputs) add(inputs, i.assetID, i.amount);
      for (const o of tx.exportedOutputs) add(outputs, o.assetID, outAmt(o));
    }
  } else {
    for (const i of tx.inputs) add(inputs, i.assetID, inAmt(i));
    if (tx.kind === 'import') for (const i of tx.importedInputs) add(inputs, i.assetID, inAmt(i));
    for (const o of tx.outputs) add(outputs, o.assetID, outAmt(o));
    if (tx.kind === 'export') for (const o of tx.exportedOutputs) add(outputs, o.assetID, outAmt(o));
  }
  return { inputs, outputs };
}

/**
 * Encodes, re-decodes (so a tx the node would refuse syntactically never leaves the builder), checks that it
 * burns exactly `fee` of the fee asset and nothing of any other, and hashes.
 */
export function finish(env: BuildEnv, unsigned: UnsignedTx, sigIndices: number[][], fee: bigint, change: AssetTotals, minted = 0n): BuiltTx {
  const bytes = encodeUnsignedTx(unsigned);
  decodeUnsignedTx(unsigned.chain, bytes);
  const burned = burnedByAsset(unsigned);
  const feeKey = cb58(env.feeAssetID);
  // A ClaimTx pays out rewards the node mints, so its outputs exceed its inputs by what it claims.
  for (const [asset, amount] of Object.entries(burned)) {
    const expected = asset === feeKey ? fee - minted : 0n;
    if (amount !== expected) throw new Error(`builder invariant broken: burns ${amount} of ${asset}, expected ${expected}`);
  }
  if (fee - minted !== 0n && burned[feeKey] !== fee - minted) throw new Error(`builder invariant broken: burns ${burned[feeKey] ?? 0n} of the fee asset, expected ${fee - minted}`);
  const { inputs, outputs } = totalsOf(unsigned);
  return { chain: unsigned.chain, unsigned, bytes, hash: sha256(bytes), sigIndices, summary: { inputs, outputs, fee, change } };
}

export function credentialPlan(inputs: readonly TransferableInput[]): number[][] {
  return inputs.map((i) => [...(i.input.kind === 'locked' ? i.input.input.sigIndices : i.input.sigIndices)]);
}

export function changeTotals(outs: readonly TransferableOutput[]): AssetTotals {
  const t: AssetTotals = {};
  for (const o of outs) if (o.output.kind === 'secp.transfer') add(t, o.assetID, o.output.amount);
  return t;
}

export function memoOf(memo: Uint8Array | undefined): Uint8Array {
  const m = memo ?? new Uint8Array();
  if (m.length > 256) throw new BuildError('bad-intent', `memo is ${m.length} bytes; the node takes at most 256`);
  return m;
}
