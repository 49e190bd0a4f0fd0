import type { RpcRouter } from '../rpc.js';
import type { DevnetState } from '../state/index.js';

/** Keystore API, /ext/keystore: the read operation (user administration lives in keystore.admin.ts). */
export function registerKeystore(router: RpcRouter, state: DevnetState): void {
  router.on('/ext/keystore', 'keystore.listUsers', () => ({ users: [...state.users.keys()] }));
}
