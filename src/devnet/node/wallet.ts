import type { RpcRouter } from '../rpc.js';
import type { DevnetState } from '../state/index.js';
import { issueTx } from './issue.js';
import { needUser } from './keystore.admin.js';
import { addKey, issueSigned, send } from './xvm.spend.js';

/** Wallet API (/ext/bc/X/wallet) and platform.createAddress: the devnet accepts at once, so "assumes acceptance" holds. */
export function registerWallet(router: RpcRouter, state: DevnetState): void {
  router
    .on('/ext/bc/X/wallet', 'wallet.send', (p) => send(state, p))
    .on('/ext/bc/X/wallet', 'wallet.issueTx', (p) => (router.dialect === 'camino' ? issueTx(state, p, 'X') : issueSigned(state, p, 'X')))
    .on('/ext/P', 'platform.createAddress', (p) => ({ address: addKey(state, needUser(state, p)).p }));
}
