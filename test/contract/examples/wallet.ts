import type { ContractExample } from '../types.js';
import { KEYSTORE } from '../types.js';

/** Wallet API (/ext/bc/X/wallet) and the keystore user's addresses, spec documents 2 and 3. */

const X1 = 'X-camino1qyqszqgpqyqszqgpqyqszqgpqyqszqgpua39v8';
const ASSET = '2d4X84o3PHVTv1acUuVp8p9tDfduV3gxgpnHUxT6P7VvMTDVQn';
const SIGNED = '0x7369676e656420747820627974657354fef185';
/** The ID a node answers for those bytes ('signed tx bytes'): sha256 of them in cb58. */
const SIGNED_ID = 'tzRfoU6qPq5hBUqw86rmEg25drEKZRP2fjmPWq2pKMStp6W2D';
const TX = { txID: 'D3pYy1iG2d73vt63iEk1uvdDzvLt9XBNjJy9NWrxMLZWQjuio', changeAddr: X1 };
const creds = { username: KEYSTORE.username, password: KEYSTORE.password };

export const examples: Record<string, ContractExample> = {
  wallet_send: {
    args: { amount: '7', assetID: ASSET, to: X1, memo: 'm' },
    expect: { path: '/ext/bc/X/wallet', method: 'wallet.send', params: { amount: 7, assetID: ASSET, to: X1, memo: 'm', ...creds } },
    answers: { 'wallet.send': TX },
  },
  wallet_issueTx: {
    args: { tx: SIGNED, encoding: 'hex' },
    expect: { path: '/ext/bc/X/wallet', method: 'wallet.issueTx', params: { tx: SIGNED, encoding: 'hex' } },
    answers: { 'wallet.issueTx': { txID: SIGNED_ID } },
  },
  xvm_createAddress: {
    args: {},
    expect: { path: '/ext/bc/X', method: 'xvm.createAddress', params: creds },
    answers: { 'xvm.createAddress': { address: X1 } },
  },
  xvm_listAddresses: {
    args: {},
    expect: { path: '/ext/bc/X', method: 'xvm.listAddresses', params: creds },
    answers: { 'xvm.listAddresses': { addresses: [X1] } },
  },
  platform_createAddress: {
    args: {},
    expect: { path: '/ext/P', method: 'platform.createAddress', params: creds },
    answers: { 'platform.createAddress': { address: 'P-camino1qyqszqgpqyqszqgpqyqszqgpqyqszqgpua39v8' } },
  },
};
