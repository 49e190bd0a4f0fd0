import {
  type ClaimTx,
  compareBytes,
  type DepositTx,
  type LockIDs,
  sortInputs,
  THIS_TX_ID,
  type TransferableInput,
  type TransferableOutput,
  type UnlockDepositTx,
  type Utxo,
  ZERO_ID,
} from '../codec/tx/index.js';
import {
  cb58,
  changeTotals,
  checkAmount,
  credentialPlan,
  finish,
  hexOf,
  inputOf,
  keyCanSpend,
  keyRecipient,
  memoOf,
  needMap,
  outputOf,
  ownersOf,
  sameBytes,
  select,
  sorted,
  spendable,
} from './common.js';
import { BuildError } from './errors.js';
import type { BuildEnv, BuiltTx, Recipient } from './types.js';

/** Deposit `amount` into the open offer `depositOfferID` for `duration` seconds; rewards to `rewardsOwner` (default the key). */
export interface DepositIntent {
  utxos: readonly Utxo[];
  depositOfferID: Uint8Array;
  duration: number;
  amount: bigint;
  rewardsOwner?: Recipient;
  /** 1 once the node runs the Athens upgrade (platform.getUpgradePhases `athensPhase`). */
  upgradeVersion?: 0 | 1;
  memo?: Uint8Array;
}

/**
 * Unlock from each deposit what `platform.getDeposits` says is unlockable now. An expired deposit (past
 * start + duration) is unlocked whole and burns no fee, and cannot share a tx with an active one
 * (camino_tx_executor.go UnlockDepositTx: errMixedDeposits, errExpiredDepositNotFullyUnlocked).
 */
export interface UnlockDepositIntent {
  utxos: readonly Utxo[];
  deposits: readonly { depositTxID: Uint8Array; amount: bigint; expired?: boolean }[];
  memo?: Uint8Array;
}

/**
 * Claim rewards: each claimable by its deposit tx ID (active deposit rewards) or owner ID (`ownerId` of the
 * claimable owner: validator and expired deposit rewards), type (CLAIM_TYPES) and amount; paid to `to`
 * (default the key). `ownerAuth` are the key's signature indices in that owner (default [0]: the key alone).
 */
export interface ClaimIntent {
  utxos: readonly Utxo[];
  claims: readonly { id: Uint8Array; type: bigint; amount: bigint; ownerAuth?: number[] }[];
  to?: Recipient;
  memo?: Uint8Array;
  /**
   * Where the fee comes from: the key's unlocked UTXOs, or the claimed rewards (the node mints them
   * before it checks the burn, camino_tx_executor.go ClaimTx VerifyLock with the claimed amount),
   * or `auto` (default): the UTXOs when they cover it, else the rewards.
   */
  feeFrom?: 'utxos' | 'reward' | 'auto';
}

/**
 * The fee, paid from unlocked UTXOs owned by the key alone, change back to it (utxo.Lock with StateUnlocked).
 * `apartFromDeposit`: an unlock leaves part of a deposit locked, and the node (VerifyUnlockDepositedUTXOs)
 * lets the unlocked outputs of the deposit's owner, which sort before every locked one, draw first on
 * that owner's deposited inputs: change to the same owner would take what must stay deposited, and the
 * node refuses the tx. So a UTXO of exactly the fee is spent if the key has one, and otherwise the change
 * goes to the key under locktime 1 (long past: spendable at once, yet another owner to the node).
 */
function feeInputs(env: BuildEnv, utxos: readonly Utxo[], apartFromDeposit = false): { inputs: TransferableInput[]; change: TransferableOutput[] } {
  const pool = spendable(env, utxos, true);
  if (apartFromDeposit) {
    const exact = pool.find((u) => sameBytes(u.assetID, env.feeAssetID) && u.amount === env.txFee);
    if (exact) return { inputs: [inputOf(exact)], change: [] };
  }
  const needs = needMap([{ assetID: env.feeAssetID, amount: env.txFee }]);
  const { inputs, totals } = select(env, 'P', pool, needs);
  const got = totals.get(hexOf(env.feeAssetID)) ?? 0n;
  const owner = apartFromDeposit ? { ...keyRecipient(env), locktime: 1n } : keyRecipient(env);
  const change = got > env.txFee ? [outputOf(env.feeAssetID, got - env.txFee, owner)] : [];
  return { inputs, change };
}

export function buildDepositTx(env: BuildEnv, intent: DepositIntent): BuiltTx {
  checkAmount(intent.amount, 'the deposit amount');
  if (!Number.isInteger(intent.duration) || intent.duration <= 0 || intent.duration > 0xffffffff) {
    throw new BuildError('bad-intent', 'the deposit duration must be a positive whole number of seconds (u32)');
  }
  if (!(intent.depositOfferID instanceof Uint8Array) || intent.depositOfferID.length !== 32) throw new BuildError('bad-intent', 'the deposit offer ID must be 32 bytes');
  if ((intent.upgradeVersion ?? 0) !== 0) {
    throw new BuildError('bad-intent', 'a version-1 deposit carries the offer owner\'s signature; only open offers (version 0) are built here');
  }
  // utxo.Lock(amount, fee, StateDeposited): unlocked UTXOs of the key; the deposited part becomes a locked.Out
  // "locked by this tx" with the same owner, the rest returns unlocked.
  const needs = needMap([{ assetID: env.feeAssetID, amount: intent.amount + env.txFee }]);
  const { inputs, totals } = select(env, 'P', spendable(env, intent.utxos, true), needs);
  const got = totals.get(hexOf(env.feeAssetID)) ?? 0n;
  const key = keyRecipient(env);
  const deposited: TransferableOutput = {
    assetID: env.feeAssetID,
    output: { kind: 'locked', lockIDs: { depositTxID: THIS_TX_ID, bondTxID: ZERO_ID }, output: { kind: 'secp.transfer', amount: intent.amount, owners: ownersOf(key) } },
  };
  const rest = got - intent.amount - env.txFee;
  const change = rest > 0n ? [outputOf(env.feeAssetID, rest, key)] : [];
  const unsigned: DepositTx = {
    chain: 'P',
    kind: 'deposit',
    upgradeVersion: 0,
    networkID: env.networkID,
    blockchainID: env.chainIDs.P,
    outputs: sorted('P', [deposited, ...change]),
    inputs,
    memo: memoOf(intent.memo),
    depositOfferID: intent.depositOfferID,
    depositDuration: intent.duration,
    rewardsOwner: ownersOf(intent.rewardsOwner ?? key),
  };
  return finish(env, unsigned, credentialPlan(inputs), env.txFee, changeTotals(change));
}

export function buildUnlockDepositTx(env: BuildEnv, intent: UnlockDepositIntent): BuiltTx {
  const unlockable = new Map<string, bigint>();
  const expired = intent.deposits.filter((d) => d.expired === true).length;
  if (expired > 0 && expired < intent.deposits.length) {
    throw new BuildError('bad-intent', 'unlock expired and active deposits in separate transactions (the node refuses them mixed)');
  }
  for (const d of intent.deposits) {
    if (!(d.depositTxID instanceof Uint8Array) || d.depositTxID.length !== 32) throw new BuildError('bad-intent', 'a deposit tx ID must be 32 bytes');
    if (typeof d.amount !== 'bigint' || d.amount < 0n) throw new BuildError('bad-intent', 'an unlockable amount must be a non-negative whole number');
    // An expired deposit must be unlocked whole: no cap.
    if (d.expired === true) unlockable.set(hexOf(d.depositTxID), (1n << 64n) - 1n);
    else if (d.amount > 0n) unlockable.set(hexOf(d.depositTxID), d.amount);
  }
  if (unlockable.size === 0) throw new BuildError('nothing-to-unlock', 'nothing is unlockable now in the deposits named');
  // utxo.UnlockDeposit: every UTXO deposited with one of these deposits that the key can spend, in UTXO order.
  const seen = new Set<string>();
  const deposited = intent.utxos
    .filter((u) => {
      const k = `${hexOf(u.txID)}:${u.outputIndex}`;
      if (seen.has(k)) return false;
      seen.add(k);
      return u.output.kind === 'locked' && unlockable.has(hexOf(u.output.lockIDs.depositTxID)) && sameBytes(u.assetID, env.feeAssetID);
    })
    .sort((a, b) => compareBytes(a.txID, b.txID) || a.outputIndex - b.outputIndex);
  const ins: TransferableInput[] = [];
  const outs: TransferableOutput[] = [];
  for (const u of deposited) {
    if (u.output.kind !== 'locked') continue;
    const inner = u.output.output;
    const sigIndex = keyCanSpend(env, inner.owners);
    if (sigIndex === undefined) continue;
    const depositKey = hexOf(u.output.lockIDs.depositTxID);
    const left = unlockable.get(depositKey) ?? 0n;
    if (left === 0n) continue;
    const toUnlock = left < inner.amount ? left : inner.amount;
    unlockable.set(depositKey, left - toUnlock);
    const lockIDs: LockIDs = u.output.lockIDs;
    ins.push({ txID: u.txID, outputIndex: u.outputIndex, assetID: u.assetID, input: { kind: 'locked', lockIDs, input: { kind: 'secp.transfer', amount: inner.amount, sigIndices: [sigIndex] } } });
    const stillBonded = !sameBytes(lockIDs.bondTxID, ZERO_ID);
    outs.push(
      stillBonded
        ? { assetID: u.assetID, output: { kind: 'locked', lockIDs: { depositTxID: ZERO_ID, bondTxID: lockIDs.bondTxID }, output: { kind: 'secp.transfer', amount: toUnlock, owners: inner.owners } } }
        : { assetID: u.assetID, output: { kind: 'secp.transfer', amount: toUnlock, owners: inner.owners } },
    );
    const remaining = inner.amount - toUnlock;
    if (remaining > 0n) outs.push({ assetID: u.assetID, output: { kind: 'locked', lockIDs, output: { kind: 'secp.transfer', amount: remaining, owners: inner.owners } } });
  }
  if (ins.length === 0) throw new BuildError('nothing-to-unlock', 'the key holds no deposited UTXO of the deposits named');
  // Unlocking expired deposits burns nothing and may take no unlocked input.
  const txFee = expired > 0 ? 0n : env.txFee;
  const keepsDeposited = outs.some((o) => o.output.kind === 'locked' && !sameBytes(o.output.lockIDs.depositTxID, ZERO_ID) && sameBytes(o.output.lockIDs.bondTxID, ZERO_ID));
  const fee = expired > 0 ? { inputs: [], change: [] } : feeInputs(env, intent.utxos, keepsDeposited);
  const inputs = sortInputs([...ins, ...fee.inputs]);
  const unsigned: UnlockDepositTx = {
    chain: 'P',
    kind: 'unlockDeposit',
    networkID: env.networkID,
    blockchainID: env.chainIDs.P,
    outputs: sorted('P', [...outs, ...fee.change]),
    inputs,
    memo: memoOf(intent.memo),
  };
  return finish(env, unsigned, credentialPlan(inputs), txFee, changeTotals(fee.change));
}

/** Whether a claim's fee comes out of what it claims (see ClaimIntent.feeFrom). */
function claimFeeFromReward(env: BuildEnv, intent: ClaimIntent, minted: bigint): boolean {
  const from = intent.feeFrom ?? 'auto';
  const coverable = minted > env.txFee;
  if (from === 'reward') {
    if (!coverable) throw new BuildError('insufficient-funds', `the rewards claimed (${minted} nCAM) do not cover the fee (${env.txFee} nCAM)`);
    return true;
  }
  if (from === 'utxos' || !coverable) return false;
  const pool = spendable(env, intent.utxos, true).filter((u) => sameBytes(u.assetID, env.feeAssetID));
  return pool.reduce((s, u) => s + u.amount, 0n) < env.txFee;
}

export function buildClaimTx(env: BuildEnv, intent: ClaimIntent): BuiltTx {
  if (intent.claims.length === 0) throw new BuildError('bad-intent', 'name at least one reward to claim');
  const ids = new Set<string>();
  for (const c of intent.claims) {
    checkAmount(c.amount, 'a claimed amount');
    if (!(c.id instanceof Uint8Array) || c.id.length !== 32) throw new BuildError('bad-intent', 'a claimable ID must be 32 bytes');
    if (typeof c.type !== 'bigint' || c.type < 0n || c.type > 3n) throw new BuildError('bad-intent', 'a claim type must be 0 to 3');
    if (ids.has(hexOf(c.id))) throw new BuildError('bad-intent', `claimable ${cb58(c.id)} is named twice`);
    ids.add(hexOf(c.id));
  }
  const to = intent.to ?? keyRecipient(env);
  const minted = intent.claims.reduce((s, c) => s + c.amount, 0n);
  const fromReward = claimFeeFromReward(env, intent, minted);
  const fee = fromReward ? { inputs: [], change: [] } : feeInputs(env, intent.utxos);
  // From the reward: no inputs, one output of what is claimed less the fee.
  const claimed = fromReward ? [outputOf(env.feeAssetID, minted - env.txFee, to)] : intent.claims.map((c) => outputOf(env.feeAssetID, c.amount, to));
  const claimables = intent.claims.map((c) => ({ id: c.id, type: c.type, amount: c.amount, ownerAuth: { sigIndices: [...(c.ownerAuth ?? [0])] } }));
  const unsigned: ClaimTx = {
    chain: 'P',
    kind: 'claim',
    networkID: env.networkID,
    blockchainID: env.chainIDs.P,
    outputs: sorted('P', [...claimed, ...fee.change]),
    inputs: fee.inputs,
    memo: memoOf(intent.memo),
    claimables,
  };
  // Credentials: one per input, then one per claimable for its owner (txs builder NewClaimTx).
  const plan = [...credentialPlan(fee.inputs), ...claimables.map((c) => c.ownerAuth.sigIndices)];
  return finish(env, unsigned, plan, env.txFee, changeTotals(fee.change), minted);
}
