import { type ContractExample, KEYSTORE } from '../types.js';

/**
 * The assistant toolset (composites, DESIGN section 4). Each is checked on a request it
 * must send, written from the spec: the reads are sent in parallel, so one characteristic
 * request is named; the transfer's steps run in order, so both are named in that order.
 */

const X = '/ext/bc/X';
const P = '/ext/P';
const CX = '/ext/bc/C/cx';
const BARE = 'local1nzae6mw98nl99wyjzq6ht4ljt20kqecjmcltwd';
const ADDR = `X-${BARE}`;
const NODE = 'NodeID-7Xhw2mDxuDS44j42TCB6U5579esbSt3Lg';
const TX = '2RXG7x5q8zq3jxAvAJxrKPv9sp1YBuh8ZnqrickJL51RsYghay';
const TX2 = '295TiwPE5zETeMM3zbP6cdbcX4MbBccRH4k1TGmUAT6J5hnyS4';
const ASSET = '2DfD6Cx63yp21NNXSr4DhJAm8mLFQooNEy1uJ3xvR6bMYhY3ki';

export const examples: Record<string, ContractExample> = {
  account_overview: {
    args: { addresses: [ADDR] },
    // The same key on P: platform.getBalance takes a list of P- addresses (spec document 3).
    expect: { path: P, method: 'platform.getBalance', params: { addresses: [`P-${BARE}`] } },
  },
  validator_lookup: {
    args: { nodeID: NODE },
    expect: { path: P, method: 'platform.getCurrentValidators', params: { nodeIDs: [NODE] } },
  },
  network_overview: {
    args: {},
    expect: { path: P, method: 'platform.getHeight', params: {} },
  },
  tx_status: {
    args: { txID: TX },
    expect: { path: CX, method: 'cx.getAtomicTxStatus', params: { txID: TX } },
  },
  wait_for_tx: {
    args: { txID: TX, chain: 'X', timeoutSeconds: 2 },
    expect: { path: X, method: 'xvm.getTxStatus', params: { txID: TX } },
    answers: { 'xvm.getTxStatus': { status: 'Accepted' } },
  },
  transfer: {
    args: { to: ADDR, amount: '2500000000', sourceChain: 'C' },
    expect: [
      { path: CX, method: 'cx.export', params: { to: ADDR, amount: 2500000000, assetID: ASSET, baseFee: 200_000_000_000, username: KEYSTORE.username, password: KEYSTORE.password } },
      { path: X, method: 'xvm.import', params: { to: ADDR, sourceChain: 'C', username: KEYSTORE.username, password: KEYSTORE.password } },
    ],
    answers: {
      'xvm.listAddresses': { addresses: [ADDR] },
      eth_baseFee: '0x2e90edd000',
      'xvm.getAssetDescription': { assetID: ASSET, name: 'Camino', symbol: 'CAM', denomination: 9 },
      'cx.export': { txID: TX },
      'cx.getAtomicTxStatus': { status: 'Accepted', blockHeight: '4' },
      'xvm.import': { txID: TX2 },
    },
  },
};
