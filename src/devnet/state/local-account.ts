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

/** What the account holds at the start, for tests to compare against. */
export const LOCAL_ACCOUNT = {
  x: [100n * CAM, 3n * CAM],
  pUnlocked: [50n * CAM],
  pDeposited: 10n * CAM,
  pBonded: 20n * CAM,
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
  const bondTxID = registeredId('local-signer:bond');
  addTx(state, {
    chain: 'P',
    type: 'base',
    inputs: [],
    outputs: [
      { assetID: state.nativeAssetID, amount: LOCAL_ACCOUNT.pDeposited, addresses: [key.p], chain: 'P', lock: 'deposited', depositTxID },
      { assetID: state.nativeAssetID, amount: LOCAL_ACCOUNT.pBonded, addresses: [key.p], chain: 'P', lock: 'bonded', bondTxID },
    ],
    newBlock: false,
  });
  const native = state.assets.get(state.nativeAssetID);
  if (native) native.supply += LOCAL_ACCOUNT.pDeposited + LOCAL_ACCOUNT.pBonded;
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
