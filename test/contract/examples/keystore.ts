import type { ContractExample } from '../types.js';

/** Spec document 1, "Keystore API, endpoint /ext/keystore": keystore.listUsers takes no parameters. */
export const examples: Record<string, ContractExample> = {
  keystore_listUsers: {
    args: {},
    expect: { path: '/ext/keystore', method: 'keystore.listUsers', params: {} },
    answers: { 'keystore.listUsers': { users: ['alice', 'devnet'] } },
  },
};
