import type { ContractExample } from '../types.js';

/** Spec document 2, "Asset chain, endpoint /ext/bc/X" and "Static API, endpoint /ext/vm/xvm". Written by hand. */

const X = '/ext/bc/X';
const ADDR = 'X-local1nzae6mw98nl99wyjzq6ht4ljt20kqecjmcltwd';
const BARE = 'local1nzae6mw98nl99wyjzq6ht4ljt20kqecjmcltwd';
const ASSET = '2DfD6Cx63yp21NNXSr4DhJAm8mLFQooNEy1uJ3xvR6bMYhY3ki';
const TX = '2RXG7x5q8zq3jxAvAJxrKPv9sp1YBuh8ZnqrickJL51RsYghay';
const UTXO = '295TiwPE5zETeMM3zbP6cdbcX4MbBccRH4k1TGmUAT6J5hnyS4';
const OTHER_CHAIN = '2dCYEL7uu79xBpYCTiBP4E4fUZyQK51yC83J6P5Thcf7QKC3FB';

export const examples: Record<string, ContractExample> = {
  xvm_getBalance: {
    args: { address: ADDR, assetID: 'CAM' },
    expect: { path: X, method: 'xvm.getBalance', params: { address: ADDR, assetID: 'CAM' } },
    answers: { 'xvm.getBalance': { balance: '1500000000', utxoIDs: [{ txID: TX, outputIndex: 0 }] } },
  },
  xvm_getAllBalances: {
    args: { address: ADDR, chain: OTHER_CHAIN },
    expect: { path: `/ext/bc/${OTHER_CHAIN}`, method: 'xvm.getAllBalances', params: { address: ADDR } },
    answers: { 'xvm.getAllBalances': { balances: [{ asset: ASSET, balance: '102' }] } },
  },
  xvm_getAssetDescription: {
    args: { assetID: ASSET },
    expect: { path: X, method: 'xvm.getAssetDescription', params: { assetID: ASSET } },
    answers: { 'xvm.getAssetDescription': { assetId: ASSET, name: 'Gold Bar', symbol: 'GLD', denomination: '2' } },
  },
  xvm_getAddressTxs: {
    args: { address: ADDR, assetID: ASSET, cursor: '5', pageSize: 10 },
    expect: { path: X, method: 'xvm.getAddressTxs', params: { address: ADDR, assetID: ASSET, cursor: 5, pageSize: 10 } },
    answers: { 'xvm.getAddressTxs': { txIDs: [TX], cursor: '6' } },
  },
  xvm_getTx: {
    args: { txID: TX, encoding: 'json' },
    expect: { path: X, method: 'xvm.getTx', params: { txID: TX, encoding: 'json' } },
    answers: { 'xvm.getTx': { tx: { unsignedTx: { outputs: [], inputs: [], memo: '0x' }, credentials: [] }, encoding: 'json' } },
  },
  xvm_getTxStatus: {
    args: { txID: TX },
    expect: { path: X, method: 'xvm.getTxStatus', params: { txID: TX } },
    answers: { 'xvm.getTxStatus': { status: 'Accepted' } },
  },
  xvm_getUTXOs: {
    args: { addresses: [ADDR], limit: 5, startIndex: { address: ADDR, utxo: UTXO }, sourceChain: 'P', encoding: 'hex' },
    expect: {
      path: X,
      method: 'xvm.getUTXOs',
      params: { addresses: [ADDR], limit: 5, startIndex: { address: ADDR, utxo: UTXO }, sourceChain: 'P', encoding: 'hex' },
    },
    answers: { 'xvm.getUTXOs': { numFetched: '0', utxos: [], endIndex: { address: ADDR, utxo: UTXO }, sourceChain: 'P', encoding: 'hex' } },
  },
  xvm_buildGenesis: {
    args: {
      networkID: 12345,
      genesisData: { gold: { name: 'Gold', symbol: 'GLD', initialState: { fixedCap: [{ amount: 1000, address: BARE }] } } },
      encoding: 'hex',
    },
    expect: {
      path: '/ext/vm/xvm',
      method: 'xvm.buildGenesis',
      params: { networkID: 12345, genesisData: { gold: { name: 'Gold', symbol: 'GLD', initialState: { fixedCap: [{ amount: 1000, address: BARE }] } } }, encoding: 'hex' },
    },
    answers: { 'xvm.buildGenesis': { bytes: '0x0000', encoding: 'hex' } },
  },
};
