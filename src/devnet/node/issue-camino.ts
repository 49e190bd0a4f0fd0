/**
 * Camino's own signed P-Chain transactions as `platform.issueTx` runs them (caminogo
 * vms/platformvm/txs/executor/camino_tx_executor.go DepositTx, UnlockDepositTx, ClaimTx, and the
 * lock accounting of utxo/camino_locked.go VerifyLock and VerifyUnlockDepositedUTXOs), with the
 * node's own wording. What each changes: a deposit record and UTXOs "deposited by this tx"; a
 * deposit's unlocked amount (an expired one removed, its unclaimed reward moved to the owner's
 * claimable); claimed rewards minted to the outputs.
 */
import { formatCb58Id, formatChainAddress } from '../../codec/index.js';
import {
  type ClaimTx,
  type DecodedSignedTx,
  type DepositTx,
  type LockIDs,
  ownerId,
  THIS_TX_ID,
  type SecpTransferOutput,
  type TransferableInput,
  type TransferableOutput,
  type UnlockDepositTx,
  type UnsignedTx,
  ZERO_ID,
} from '../../codec/tx/index.js';
import { addTx, type Claimable, claimableReward, sameOwner, totalReward, unlockableAmount, type Deposit, type DevnetState, type LockState, type NewUtxo, type Owner, type Utxo } from '../state/index.js';
import { checkCredential, checkSigners, findUtxo, hexOf, ownerBytes, Refused } from './issue-verify.js';

export const CAMINO_KINDS: ReadonlySet<UnsignedTx['kind']> = new Set(['deposit', 'unlockDeposit', 'claim']);

const ZERO = formatCb58Id(ZERO_ID);
const THIS = formatCb58Id(THIS_TX_ID);
const FLOW = 'flow check failed';

/** A lock ID as the ledger keeps it: undefined for none. */
const lockId = (id: Uint8Array): string | undefined => (formatCb58Id(id) === ZERO ? undefined : formatCb58Id(id));
const lockOf = (deposit: string | undefined, bond: string | undefined): LockState =>
  deposit && bond ? 'bondedDeposited' : deposit ? 'deposited' : bond ? 'bonded' : 'unlocked';

/** The owner a lock accounting groups by (txs.GetOwnerID): locktime, threshold and the sorted owner set. */
const ownerKeyOf = (locktime: bigint, threshold: number, addresses: readonly Buffer[]) =>
  `${locktime}/${threshold}/${[...addresses].map((a) => a.toString('hex')).sort().join(',')}`;

interface Spent {
  utxo: Utxo;
  amount: bigint;
}

/** What an input spends: the UTXO, unspent on P, same asset and amount, its locks as the input says. */
function spentBy(state: DevnetState, input: TransferableInput, n: number): { utxo: Utxo; inner: { amount: bigint; sigIndices: number[] }; inLock?: LockIDs } {
  const utxo = findUtxo(state, 'P', input, undefined);
  if (!utxo) throw new Refused(`${FLOW}: failed to read consumed UTXO ${formatCb58Id(input.txID)}:${input.outputIndex} due to: not found`);
  const native = state.nativeAssetID;
  if (utxo.assetID !== native) throw new Refused(`${FLOW}: utxo ${n} has asset ID ${utxo.assetID} but expect ${native}: utxo/input/output assetID is different from expected asset id`);
  if (formatCb58Id(input.assetID) !== native) throw new Refused(`${FLOW}: input ${n} has asset ID ${formatCb58Id(input.assetID)} but expect ${native}: utxo/input/output assetID is different from expected asset id`);
  const inner = input.input.kind === 'locked' ? input.input.input : input.input;
  return { utxo, inner, ...(input.input.kind === 'locked' ? { inLock: input.input.lockIDs } : {}) };
}

/** A locked input must name exactly its UTXO's locks; an unlocked one may not spend a locked UTXO. */
function checkLockIDs(utxo: Utxo, inLock: LockIDs | undefined): void {
  const locked = utxo.depositTxID !== undefined || utxo.bondTxID !== undefined;
  if (inLock) {
    if (lockId(inLock.depositTxID) !== utxo.depositTxID || lockId(inLock.bondTxID) !== utxo.bondTxID) throw new Refused(`${FLOW}: input lock ids is different from utxo lock ids`);
  } else if (locked) throw new Refused(`${FLOW}: locked funds not marked as locked`);
}

function checkTransfer(state: DevnetState, d: DecodedSignedTx, utxo: Utxo, inner: { amount: bigint; sigIndices: number[] }, cred: number): void {
  if (utxo.locktime > BigInt(state.now())) throw new Refused(`${FLOW}: failed to verify transfer: output is time locked`);
  if (inner.amount !== utxo.amount) throw new Refused(`${FLOW}: failed to verify transfer: utxo amount and input amount are not equivalent`);
  const c = d.tx.credentials[cred];
  if (!c) throw new Refused(`${FLOW}: there are more inputs than credentials: number of inputs is different from number of credentials`);
  try {
    checkCredential(utxo, inner.sigIndices, c.signatures, d.unsignedHash);
  } catch (err) {
    throw new Refused(`${FLOW}: ${(err as Error).message.startsWith('failed to verify transfer') ? '' : 'failed to verify transfer: '}${(err as Error).message}`);
  }
}

/** An output's inner transfer and lock IDs. */
function outParts(o: TransferableOutput): { inner: SecpTransferOutput; lock: LockIDs | undefined } {
  if (o.output.kind === 'stakeable') throw new Refused(`${FLOW}: wrong output type`);
  return o.output.kind === 'locked' ? { inner: o.output.output, lock: o.output.lockIDs } : { inner: o.output, lock: undefined };
}

/**
 * VerifyLock (utxo/camino_locked.go): for `applied` "deposited" inputs may be unlocked or only bonded,
 * for "unlocked" only unlocked; every owner produces at most what it consumed under the same other
 * lock; the unlocked remainder (with `minted`) covers `burn`. Returns the UTXOs spent.
 */
function verifyLock(state: DevnetState, d: DecodedSignedTx, ins: readonly TransferableInput[], outs: readonly TransferableOutput[], credentials: number, minted: bigint, burn: bigint, applied: 'deposited' | 'unlocked'): Spent[] {
  if (ins.length !== credentials) throw new Refused(`${FLOW}: there are ${ins.length} inputs and ${credentials} credentials: number of inputs is different from number of credentials`);
  const consumed = new Map<string, Map<string, bigint>>([['', new Map([['', minted]])]]);
  const add = (owner: string, other: string, amount: bigint) => {
    const m = consumed.get(owner) ?? new Map<string, bigint>();
    consumed.set(owner, m);
    m.set(other, (m.get(other) ?? 0n) + amount);
  };
  const spent = ins.map((input, n): Spent => {
    const { utxo, inner, inLock } = spentBy(state, input, n);
    if (utxo.depositTxID !== undefined || utxo.bondTxID !== undefined) {
      if (applied === 'unlocked') throw new Refused(`${FLOW}: can't spend locked utxo`);
      if (utxo.depositTxID !== undefined) throw new Refused(`${FLOW}: utxo consumed for locking are already locked`);
    }
    checkLockIDs(utxo, inLock);
    checkTransfer(state, d, utxo, inner, n);
    const other = (applied === 'deposited' ? utxo.bondTxID : utxo.depositTxID) ?? '';
    add(other ? ownerKeyOf(utxo.locktime, utxo.threshold, ownerBytes(utxo.addresses)) : '', other, inner.amount);
    return { utxo, amount: inner.amount };
  });
  outs.forEach((o, n) => {
    if (formatCb58Id(o.assetID) !== state.nativeAssetID) throw new Refused(`${FLOW}: output ${n} has asset ID ${formatCb58Id(o.assetID)} but expect ${state.nativeAssetID}: utxo/input/output assetID is different from expected asset id`);
    const { inner, lock } = outParts(o);
    const otherId = lock ? (applied === 'deposited' ? lock.bondTxID : lock.depositTxID) : ZERO_ID;
    const other = lockId(otherId) ?? '';
    const owner = other ? ownerKeyOf(inner.owners.locktime, inner.owners.threshold, inner.owners.addresses.map((a) => Buffer.from(a))) : '';
    const have = consumed.get(owner)?.get(other) ?? 0n;
    if (have < inner.amount) throw new Refused(`${FLOW}: address produces ${inner.amount} and consumes ${have} with lock '${applied}': produced more tokens, than input had`);
    consumed.get(owner)!.set(other, have - inner.amount);
  });
  let toBurn = burn;
  for (const m of consumed.values()) {
    const unlocked = m.get('') ?? 0n;
    if (unlocked >= toBurn) return spent;
    toBurn -= unlocked;
  }
  throw new Refused(`${FLOW}: asset ${state.nativeAssetID} burned ${burn - toBurn} unlocked, but needed to burn ${burn}: burned less tokens, than needed to`);
}

/** The ledger's form of the tx's outputs, "locked by this tx" fixed to its ID when it deposits. */
function ledgerOutputs(state: DevnetState, outs: readonly TransferableOutput[], txID: string, fixDeposit: boolean): NewUtxo[] {
  return outs.map((o) => {
    const { inner, lock } = outParts(o);
    let deposit = lock ? lockId(lock.depositTxID) : undefined;
    const bond = lock ? lockId(lock.bondTxID) : undefined;
    if (fixDeposit && deposit === THIS) deposit = txID;
    return {
      assetID: formatCb58Id(o.assetID),
      amount: inner.amount,
      addresses: inner.owners.addresses.map((a) => formatChainAddress('P', state.hrp, a)),
      chain: 'P',
      locktime: inner.owners.locktime,
      threshold: inner.owners.threshold,
      lock: lockOf(deposit, bond),
      ...(deposit ? { depositTxID: deposit } : {}),
      ...(bond ? { bondTxID: bond } : {}),
    };
  });
}

function applyDeposit(state: DevnetState, d: DecodedSignedTx, tx: DepositTx): string {
  if (!state.config.lockModeBondDeposit) throw new Refused('this tx can\'t be used with this caminoGenesis.LockModeBondDeposit');
  const offer = state.depositOffers.find((o) => o.id === formatCb58Id(tx.depositOfferID));
  if (!offer) throw new Refused("can't get deposit offer: not found");
  const amount = tx.outputs.reduce((s, o) => s + (o.output.kind === 'locked' && formatCb58Id(o.output.lockIDs.depositTxID) === THIS ? o.output.output.amount : 0n), 0n);
  const now = state.now();
  const athens = now >= state.athensPhaseTime;
  const active = offer.start <= now && now <= offer.end && (offer.flags & 1n) === 0n;
  if (!active) throw new Refused('deposit offer is inactive');
  if (tx.depositDuration < offer.minDuration) throw new Refused('deposit duration is less than deposit offer minmum duration');
  if (tx.depositDuration > offer.maxDuration) throw new Refused('deposit duration is greater than deposit offer maximum duration');
  if (amount < offer.minAmount) throw new Refused('deposit amount is less than deposit offer minimum amount');
  if ((offer.totalMaxAmount ?? 0n) > 0n && amount > offer.totalMaxAmount! - (offer.depositedAmount ?? 0n)) throw new Refused('deposit amount is greater than deposit offer available amount');
  if (!athens && (offer.totalMaxRewardAmount ?? 0n) > 0n) throw new Refused('not allowed before AthensPhase');
  const reward = totalReward(amount, tx.depositDuration, offer);
  if ((offer.totalMaxRewardAmount ?? 0n) > 0n && reward > offer.totalMaxRewardAmount! - (offer.rewardedAmount ?? 0n)) throw new Refused('deposit amount is greater than deposit offer available amount');
  const owner = tx.rewardsOwner;
  if (owner.threshold > owner.addresses.length || (owner.threshold === 0 && owner.addresses.length > 0)) throw new Refused('output is unspendable');
  const spent = verifyLock(state, d, tx.inputs, tx.outputs, d.tx.credentials.length, 0n, state.fees.txFee, 'deposited');
  if (state.supply + reward > state.config.supplyCap) throw new Refused('resulting total supply would be more than allowed maximum');
  if ((offer.totalMaxAmount ?? 0n) > 0n) offer.depositedAmount = (offer.depositedAmount ?? 0n) + amount;
  else if ((offer.totalMaxRewardAmount ?? 0n) > 0n) offer.rewardedAmount = (offer.rewardedAmount ?? 0n) + reward;
  state.supply += reward;
  const rewardOwner: Owner = { locktime: owner.locktime, threshold: owner.threshold, addresses: owner.addresses.map((a) => formatChainAddress('P', state.hrp, a)) };
  state.deposits.set(d.txID, { txID: d.txID, offerID: offer.id, amount, unlockedAmount: 0n, claimedRewardAmount: 0n, start: now, duration: tx.depositDuration, rewardOwner });
  return record(state, d, tx, spent, ledgerOutputs(state, tx.outputs, d.txID, true), 'deposit', state.fees.txFee);
}

function applyUnlock(state: DevnetState, d: DecodedSignedTx, tx: UnlockDepositTx): string {
  if (!state.config.lockModeBondDeposit) throw new Refused('this tx can\'t be used with this caminoGenesis.LockModeBondDeposit');
  const now = state.now();
  const isExpired = (dep: Deposit) => dep.start + dep.duration <= now;
  const consumedByDeposit = new Map<string, bigint>();
  let expired = false;
  let activeOrUnlocked = false;
  for (const input of tx.inputs) {
    const deposit = input.input.kind === 'locked' ? lockId(input.input.lockIDs.depositTxID) : undefined;
    if (deposit) {
      if (!consumedByDeposit.has(deposit)) {
        const dep = state.deposits.get(deposit);
        if (!dep) throw new Refused('not found');
        const e = isExpired(dep);
        if ((expired && !e) || (activeOrUnlocked && e)) throw new Refused('tx has expired deposit input and active-deposit/unlocked input');
        expired = e;
        activeOrUnlocked = !e;
      }
      consumedByDeposit.set(deposit, (consumedByDeposit.get(deposit) ?? 0n) + (input.input.kind === 'locked' ? input.input.input.amount : 0n));
    } else if (expired) throw new Refused('tx has expired deposit input and active-deposit/unlocked input');
    else activeOrUnlocked = true;
  }
  const amountOf = (i: TransferableInput) => (i.input.kind === 'locked' ? i.input.input.amount : i.input.amount);
  const consumed = tx.inputs.reduce((s, i) => s + amountOf(i), 0n);
  const producedByDeposit = new Map<string, bigint>();
  let produced = 0n;
  for (const o of tx.outputs) {
    const { inner, lock } = outParts(o);
    const deposit = lock ? lockId(lock.depositTxID) : undefined;
    if (deposit) producedByDeposit.set(deposit, (producedByDeposit.get(deposit) ?? 0n) + inner.amount);
    produced += inner.amount;
  }
  if (expired && consumed !== produced) throw new Refused('burned undeposited tokens');
  const burn = expired ? 0n : state.fees.txFee;
  const spent = verifyUnlockDeposited(state, d, tx, burn);
  const changes: Array<() => void> = [];
  for (const [id, used] of consumedByDeposit) {
    const dep = state.deposits.get(id)!;
    const offer = state.depositOffers.find((o) => o.id === dep.offerID);
    if (!offer) throw new Refused('not found');
    const total = dep.unlockedAmount + used - (producedByDeposit.get(id) ?? 0n);
    if (total === dep.unlockedAmount) throw new Refused('no tokens unlocked');
    if (isExpired(dep)) {
      if (total !== dep.amount) throw new Refused('unlocked only part of expired deposit');
      const left = totalReward(dep.amount, dep.duration, offer) - dep.claimedRewardAmount;
      changes.push(() => {
        if (left > 0n) {
          const found = state.claimables.find((c) => sameOwner(c.owner, dep.rewardOwner));
          if (found) found.expiredDepositRewards += left;
          else state.claimables.push({ owner: dep.rewardOwner, validatorRewards: 0n, expiredDepositRewards: left });
        }
        state.deposits.delete(id);
      });
    } else {
      // The node's own comparison (deposit.UnlockableAmount, already net of what was unlocked, against
      // the new total unlocked): a second unlock of one deposit is held to that.
      if (unlockableAmount(dep, offer, now) < total) throw new Refused('unlocked more deposited tokens than was available for unlock');
      changes.push(() => {
        dep.unlockedAmount = total;
      });
    }
  }
  for (const apply of changes) apply();
  return record(state, d, tx, spent, ledgerOutputs(state, tx.outputs, d.txID, false), 'unlock_deposit', burn);
}

/**
 * VerifyUnlockDepositedUTXOs: inputs deposited (not only bonded) or unlocked; per owner, what stays
 * locked under a bond comes from that owner's locked inputs; unlocked outputs take from them first,
 * then from the unlocked inputs, which must keep `burn`.
 */
function verifyUnlockDeposited(state: DevnetState, d: DecodedSignedTx, tx: UnlockDepositTx, burn: bigint): Spent[] {
  if (tx.inputs.length !== d.tx.credentials.length) throw new Refused(`${FLOW}: there are ${tx.inputs.length} inputs and ${d.tx.credentials.length} credentials: number of inputs is different from number of credentials`);
  let unlocked = 0n;
  const consumed = new Map<string, Map<string, bigint>>();
  const spent = tx.inputs.map((input, n): Spent => {
    const { utxo, inner, inLock } = spentBy(state, input, n);
    if (utxo.depositTxID === undefined && utxo.bondTxID !== undefined) throw new Refused(`${FLOW}: utxo consumed for unlocking are already unlocked`);
    checkLockIDs(utxo, inLock);
    checkTransfer(state, d, utxo, inner, n);
    if (utxo.depositTxID !== undefined) {
      const owner = ownerKeyOf(utxo.locktime, utxo.threshold, ownerBytes(utxo.addresses));
      const m = consumed.get(owner) ?? new Map<string, bigint>();
      consumed.set(owner, m);
      m.set(utxo.bondTxID ?? '', (m.get(utxo.bondTxID ?? '') ?? 0n) + inner.amount);
    } else unlocked += inner.amount;
    return { utxo, amount: inner.amount };
  });
  for (const o of tx.outputs) {
    const { inner, lock } = outParts(o);
    const owner = ownerKeyOf(inner.owners.locktime, inner.owners.threshold, inner.owners.addresses.map((a) => Buffer.from(a)));
    const bond = (lock ? lockId(lock.bondTxID) : undefined) ?? '';
    const m = consumed.get(owner) ?? new Map<string, bigint>();
    consumed.set(owner, m);
    const have = m.get(bond) ?? 0n;
    let take = inner.amount;
    if (have < take) {
      if (lock) throw new Refused(`${FLOW}: address produces ${inner.amount} and consumes ${have} with unlock 'deposited': produced more tokens, than input had`);
      take = have;
      const fromUnlocked = inner.amount - have;
      if (unlocked < fromUnlocked) throw new Refused(`${FLOW}: address produces ${inner.amount} and consumes ${unlocked} unlocked and ${have} locked: produced more tokens, than input had`);
      unlocked -= fromUnlocked;
    }
    m.set(bond, have - take);
  }
  if (unlocked < burn) throw new Refused(`${FLOW}: asset ${state.nativeAssetID} burned ${unlocked} unlocked, but needed to burn ${burn}: burned less tokens, than needed to`);
  return spent;
}

const CLAIM_TYPE = { validator: 0n, expiredDeposit: 1n, allTreasury: 2n, activeDeposit: 3n } as const;

/** The claimable an owner ID names (txs.GetOwnerID of its owner). */
function claimableById(state: DevnetState, id: string): Claimable | undefined {
  return state.claimables.find((c) => ownerIdOf(c.owner) === id);
}

function applyClaim(state: DevnetState, d: DecodedSignedTx, tx: ClaimTx): string {
  if (!state.config.lockModeBondDeposit) throw new Refused('this tx can\'t be used with this caminoGenesis.LockModeBondDeposit');
  if (tx.claimables.length === 0) throw new Refused('no claimables');
  const now = state.now();
  const creds = d.tx.credentials;
  if (creds.length < tx.claimables.length) throw new Refused('unexpected number of credentials');
  const claimCreds = creds.slice(creds.length - tx.claimables.length);
  const changes: Array<() => void> = [];
  let minted = 0n;
  tx.claimables.forEach((c, i) => {
    const id = formatCb58Id(c.id);
    const permit = (owner: Owner) => {
      try {
        checkSigners(ownerBytes(owner.addresses), owner.threshold, c.ownerAuth.sigIndices, claimCreds[i]!.signatures, d.unsignedHash);
      } catch (err) {
        throw new Refused(`claimable credential isn't matching: ${(err as Error).message}`);
      }
    };
    if (c.type === CLAIM_TYPE.activeDeposit) {
      const dep = state.deposits.get(id);
      if (!dep) throw new Refused('deposit not found: not found');
      permit(dep.rewardOwner);
      const offer = state.depositOffers.find((o) => o.id === dep.offerID);
      if (!offer) throw new Refused("couldn't get deposit offer: not found");
      if (claimableReward(dep, offer, now) < c.amount) throw new Refused('claiming more than was available to claim');
      changes.push(() => {
        dep.claimedRewardAmount += c.amount;
      });
    } else if (c.type <= CLAIM_TYPE.allTreasury) {
      const found = claimableById(state, id);
      if (!found) throw new Refused(`no claimable found for the ownerID (${id}): claiming more than was available to claim`);
      permit(found.owner);
      let left = c.amount;
      let validator = found.validatorRewards;
      let expired = found.expiredDepositRewards;
      if (c.type === CLAIM_TYPE.validator || c.type === CLAIM_TYPE.allTreasury) {
        // biome-ignore lint/complexity/useMathMinMax: bigint, which Math.min does not take
        const take = left > validator ? validator : left;
        validator -= take;
        left -= take;
      }
      if (c.type === CLAIM_TYPE.expiredDeposit || c.type === CLAIM_TYPE.allTreasury) {
        // biome-ignore lint/complexity/useMathMinMax: bigint, which Math.min does not take
        const take = left > expired ? expired : left;
        expired -= take;
        left -= take;
      }
      if (left > 0n) throw new Refused('claiming more than was available to claim');
      changes.push(() => {
        found.validatorRewards = validator;
        found.expiredDepositRewards = expired;
        if (validator === 0n && expired === 0n) state.claimables.splice(state.claimables.indexOf(found), 1);
      });
    } else throw new Refused('wrong claim type');
    minted += c.amount;
  });
  const spent = verifyLock(state, d, tx.inputs, tx.outputs, creds.length - tx.claimables.length, minted, state.fees.txFee, 'unlocked');
  for (const apply of changes) apply();
  const native = state.assets.get(state.nativeAssetID);
  if (native) native.supply += minted;
  return record(state, d, tx, spent, ledgerOutputs(state, tx.outputs, d.txID, false), 'claim', state.fees.txFee);
}

/** The owner ID (txs.GetOwnerID) of a ledger owner, as cb58. */
function ownerIdOf(owner: Owner): string {
  return formatCb58Id(ownerId({ locktime: owner.locktime, threshold: owner.threshold, addresses: ownerBytes(owner.addresses).map((b) => new Uint8Array(b)) }));
}

function record(state: DevnetState, d: DecodedSignedTx, tx: DepositTx | UnlockDepositTx | ClaimTx, spent: Spent[], outputs: NewUtxo[], type: string, fee: bigint): string {
  return addTx(state, { chain: 'P', type, inputs: spent.map((s) => s.utxo.id), outputs, memo: `0x${hexOf(tx.memo)}`, fee, id: d.txID, bytes: d.signedBytes }).id;
}

/** A DepositTx, UnlockDepositTx or ClaimTx, verified and applied; its tx ID. */
export function applyCamino(state: DevnetState, d: DecodedSignedTx): { txID: string } {
  const u = d.tx.unsigned;
  if (u.kind === 'deposit') return { txID: applyDeposit(state, d, u) };
  if (u.kind === 'unlockDeposit') return { txID: applyUnlock(state, d, u) };
  if (u.kind === 'claim') return { txID: applyClaim(state, d, u) };
  throw new Refused(`not a Camino transaction: ${u.kind}`);
}
