/**
 * The account the local signer spends from (issue 32): a real secp256k1 key, so signatures over the
 * exact bytes can be checked as a node checks them. Its funds cover every spend path: unlocked X
 * and P, P outputs held by a deposit and by a bond (locked.Out), a C balance, and 20 CAM already
 * waiting in shared memory on C, exported from X earlier (what an import must not sweep up).
 */
import { ADDRESS_BYTES, registeredId } from './ids.js';
import { type RealKey, realKey } from './keys.js';
import { addTx, fund, utxosOf } from './ledger.js';
import type { DevnetState } from './types.js';

const CAM = 1_000_000_000n;
const WEI_PER_UNIT = 1_000_000_000n;
const DAY = 86_400;

/** What the account holds at the start, for tests to compare against. */
export const LOCAL_ACCOUNT = {
  x: [100n * CAM, 3n * CAM],
  pUnlocked: [50n * CAM],
  pDeposited: 10n * CAM,
  /** A deposit that ended and was never unlocked: unlocked whole, with no fee. */
  pDepositedExpired: 2n * CAM,
  pBonded: 20n * CAM,
  /** Validator rewards the key may claim. */
  validatorRewards: 1_500_000_000n,
  cWei: 10n * CAM * WEI_PER_UNIT,
  waitingOnC: 20n * CAM,
} as const;

export function seedLocalAccount(state: DevnetState): RealKey {
  const key = realKey(state.hrp, 'local-signer');
  ADDRESS_BYTES.set(key.bech32, key.shortId);
  fund(state, 'X', key.x, [...LOCAL_ACCOUNT.x]);
  fund(state, 'P', key.p, [...LOCAL_ACCOUNT.pUnlocked]);
  // Held by a deposit and by a bond: a node refuses to spend them as unlocked outputs.
  const depositTxID = registeredId('local-signer:deposit');
  const expiredTxID = registeredId('local-signer:expired-deposit');
  const bondTxID = registeredId('local-signer:bond');
  addTx(state, {
    chain: 'P',
    type: 'base',
    inputs: [],
    outputs: [
      { assetID: state.nativeAssetID, amount: LOCAL_ACCOUNT.pDeposited, addresses: [key.p], chain: 'P', lock: 'deposited', depositTxID },
      { assetID: state.nativeAssetID, amount: LOCAL_ACCOUNT.pDepositedExpired, addresses: [key.p], chain: 'P', lock: 'deposited', depositTxID: expiredTxID },
      { assetID: state.nativeAssetID, amount: LOCAL_ACCOUNT.pBonded, addresses: [key.p], chain: 'P', lock: 'bonded', bondTxID },
    ],
    newBlock: false,
  });
  const native = state.assets.get(state.nativeAssetID);
  if (native) native.supply += LOCAL_ACCOUNT.pDeposited + LOCAL_ACCOUNT.pDepositedExpired + LOCAL_ACCOUNT.pBonded;
  // Its deposits in the standard offer (30-day unlock period, 15 days without rewards): one 20 days
  // into its unlock period (two thirds unlockable, rewards accrued until 5 days ago), one that
  // ended 100 days ago; and validator rewards to claim.
  const offer = state.depositOffers[0];
  const owner = { locktime: 0n, threshold: 1, addresses: [key.p] };
  const t0 = state.genesisTime;
  if (offer) {
    state.deposits.set(depositTxID, { txID: depositTxID, offerID: offer.id, amount: LOCAL_ACCOUNT.pDeposited, unlockedAmount: 0n, claimedRewardAmount: 0n, start: t0 - 90 * DAY, duration: 100 * DAY, rewardOwner: owner });
    state.deposits.set(expiredTxID, { txID: expiredTxID, offerID: offer.id, amount: LOCAL_ACCOUNT.pDepositedExpired, unlockedAmount: 0n, claimedRewardAmount: 0n, start: t0 - 200 * DAY, duration: 100 * DAY, rewardOwner: owner });
  }
  state.claimables.push({ owner, validatorRewards: LOCAL_ACCOUNT.validatorRewards, expiredDepositRewards: 0n });
  state.cBalances.set(key.c, LOCAL_ACCOUNT.cWei);
  // An earlier X -> C export nobody imported yet.
  const source = fund(state, 'X', key.x, [LOCAL_ACCOUNT.waitingOnC + state.fees.txFee]);
  addTx(state, {
    chain: 'X',
    type: 'export',
    inputs: utxosOf(state, 'X', [key.x]).filter((u) => u.txID === source.id).map((u) => u.id),
    outputs: [{ assetID: state.nativeAssetID, amount: LOCAL_ACCOUNT.waitingOnC, addresses: [`C-${key.bech32}`], chain: 'C' }],
    destinationChain: 'C',
    fee: state.fees.txFee,
  });
  state.localKey = key;
  return key;
}

/**
 * A deposit of `amount` held by `pAddress` in the first (open) offer, 20 days into its 30-day unlock
 * period (two thirds unlockable, rewards accrued), with its locked.Out UTXO: a holder's questions
 * (when does it unlock, what can I claim) and spends (unlock, claim) work at once.
 */
export function holdDeposit(state: DevnetState, pAddress: string, label: string, amount: bigint): string | undefined {
  const offer = state.depositOffers[0];
  if (!offer) return undefined;
  const depositTxID = registeredId(label);
  addTx(state, { chain: 'P', type: 'deposit', inputs: [], outputs: [{ assetID: state.nativeAssetID, amount, addresses: [pAddress], chain: 'P', lock: 'deposited', depositTxID }], newBlock: false });
  const native = state.assets.get(state.nativeAssetID);
  if (native) native.supply += amount;
  const start = state.now() - 90 * DAY;
  const rewardOwner = { locktime: 0n, threshold: 1, addresses: [pAddress] };
  state.deposits.set(depositTxID, { txID: depositTxID, offerID: offer.id, amount, unlockedAmount: 0n, claimedRewardAmount: 0n, start, duration: 100 * DAY, rewardOwner });
  return depositTxID;
}
