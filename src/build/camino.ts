import type { Utxo } from '../codec/tx/index.js';
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

/** Unlock from each deposit what `platform.getDeposits` says is unlockable now. */
export interface UnlockDepositIntent {
  utxos: readonly Utxo[];
  deposits: readonly { depositTxID: Uint8Array; amount: bigint }[];
  memo?: Uint8Array;
}

/** Claim rewards: each claimable by its deposit tx ID or owner ID, type (CLAIM_TYPES) and amount; paid to `to` (default the key). */
export interface ClaimIntent {
  utxos: readonly Utxo[];
  claims: readonly { id: Uint8Array; type: bigint; amount: bigint }[];
  to?: Recipient;
  memo?: Uint8Array;
}

export function buildDepositTx(env: BuildEnv, intent: DepositIntent): BuiltTx {
  void env;
  void intent;
  throw new Error('buildDepositTx: not implemented yet');
}

export function buildUnlockDepositTx(env: BuildEnv, intent: UnlockDepositIntent): BuiltTx {
  void env;
  void intent;
  throw new Error('buildUnlockDepositTx: not implemented yet');
}

export function buildClaimTx(env: BuildEnv, intent: ClaimIntent): BuiltTx {
  void env;
  void intent;
  throw new Error('buildClaimTx: not implemented yet');
}
