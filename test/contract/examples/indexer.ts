import type { ContractExample } from '../types.js';

/**
 * Spec document 3, "Indexer API": GET {indexer_url}/v2/... with URL query parameters;
 * repeatable parameters (chainID, address) as repeated keys. Written from the spec's
 * endpoint table; the times below are Unix seconds (2026-01-01T00:00:00Z = 1767225600),
 * the form this server documents for `datetime`.
 */
const X = '2eNy1mUFdmaxXNj1eQHUe7Np4gju9sJsEtWQ4MX3ToiNKuADed';
const P = '11111111111111111111111111111111LpoYY';
const TX = 'rbPZYchWXWAzViw6uBRLCY7diur4nnYYG5uubZ636UYtnNzxt';
const ASSET = '25eNMcwqR3Fp7TBCp6whUefNYKr6is5UKATxo7ohmTUCMDKp3d';
const OUT = 'nZn8CrakAt4c3WAcdBwrNEQpQFGmeh7wNJXXUpppsg7Ar1XsZ';
const A1 = 'camino1740lzmmx7sekqfntjhdklrlvq8tkqvg9ulrcu8';
const A2 = 'camino19sayyjwhwpcqtpjfm0vz9h9009t4sm7w503s54';
const EVM1 = '0x8db97c7cece249c2b98bdc0226cc4c2a57bf52fc';
const EVM2 = '0x1111111111111111111111111111111111111111';
const HASH = `0x${'ab'.repeat(32)}`;

export const examples: Record<string, ContractExample> = {
  indexer_getStatus: {
    args: {},
    expect: { path: '/v2', query: [] },
    answers: { '/v2': { network_id: 1000, chains: { [X]: { chainID: X, chainAlias: 'X', vm: 'avm', nativeAssetID: ASSET, networkID: 1000 } } } },
  },
  indexer_search: {
    args: { query: '2eNy1' },
    expect: { path: '/v2/search', query: [['query', '2eNy1']] },
    answers: { '/v2/search': { count: 1, results: [{ type: 'transaction', data: { id: TX }, score: 1 }] } },
  },
  indexer_getAggregates: {
    args: { chainID: [X, P], assetID: ASSET, intervalSize: 'day', startTime: '2026-01-01T00:00:00Z', endTime: 1767312000 },
    expect: {
      path: '/v2/aggregates',
      query: [
        ['chainID', X],
        ['chainID', P],
        ['assetID', ASSET],
        ['intervalSize', 'day'],
        ['startTime', '1767225600'],
        ['endTime', '1767312000'],
      ],
    },
  },
  indexer_getTxfeeAggregates: {
    args: { startTime: 1767225600 },
    expect: { path: '/v2/txfeeAggregates', query: [['startTime', '1767225600']] },
    answers: { '/v2/txfeeAggregates': { aggregates: { startTime: '2026-01-01T00:00:00Z', endTime: '2026-01-02T00:00:00Z', txfee: '3000000' } } },
  },
  indexer_getAddressChains: {
    // A chain prefix is accepted and stripped: the indexer ignores it.
    args: { address: [`X-${A1}`, A2] },
    expect: {
      path: '/v2/addressChains',
      query: [
        ['address', A1],
        ['address', A2],
      ],
    },
    answers: { '/v2/addressChains': { addressChains: { [A1]: [X] } } },
  },
  indexer_listTransactions: {
    args: { chainID: [X], assetID: ASSET, address: [`X-${A1}`, `P-${A2}`], sort: 'timestamp-desc', limit: 50, query: 'rbP', startTime: 1767225600, endTime: '2026-01-02T00:00:00Z' },
    expect: {
      path: '/v2/transactions',
      query: [
        ['chainID', X],
        ['assetID', ASSET],
        ['address', A1],
        ['address', A2],
        ['sort', 'timestamp-desc'],
        ['limit', '50'],
        ['query', 'rbP'],
        ['startTime', '1767225600'],
        ['endTime', '1767312000'],
      ],
    },
    answers: { '/v2/transactions': { transactions: [], startTime: '2026-01-01T00:00:00Z', endTime: '2026-01-02T00:00:00Z' } },
  },
  indexer_getTransaction: {
    args: { id: TX },
    expect: { path: `/v2/transactions/${TX}`, query: [] },
    answers: {
      [`/v2/transactions/${TX}`]: { id: TX, chainID: X, type: 'base', memo: 'aGVsbG8gY2hhaW4=', inputs: [], outputs: [], inputTotals: {}, outputTotals: {}, txFee: 1000000, timestamp: '2026-01-01T00:00:00Z' },
    },
  },
  indexer_listAddresses: {
    args: { chainID: [X], address: [A1] },
    expect: {
      path: '/v2/addresses',
      query: [
        ['chainID', X],
        ['address', A1],
        ['limit', '100'],
      ],
    },
  },
  indexer_getAddress: {
    args: { address: `X-${A1}` },
    expect: { path: `/v2/addresses/${A1}`, query: [] },
    answers: { [`/v2/addresses/${A1}`]: { address: A1, publicKey: null, assets: {} } },
  },
  indexer_listAssets: {
    args: { limit: 10, query: '25e' },
    expect: {
      path: '/v2/assets',
      query: [
        ['limit', '10'],
        ['query', '25e'],
      ],
    },
  },
  indexer_getAsset: {
    args: { id: ASSET },
    expect: { path: `/v2/assets/${ASSET}`, query: [] },
    answers: { [`/v2/assets/${ASSET}`]: { id: ASSET, chainID: X, name: 'Camino', symbol: 'CAM', alias: 'CAM', currentSupply: '1000000000', denomination: 9, variableCap: 0, nft: 0 } },
  },
  indexer_listOutputs: {
    args: { chainID: [X], address: [A1, A2], spent: false, limit: 20 },
    expect: {
      path: '/v2/outputs',
      query: [
        ['chainID', X],
        ['address', A1],
        ['address', A2],
        ['spent', 'false'],
        ['limit', '20'],
      ],
    },
  },
  indexer_getOutput: {
    args: { id: OUT },
    expect: { path: `/v2/outputs/${OUT}`, query: [] },
    answers: { [`/v2/outputs/${OUT}`]: { id: OUT, transactionID: TX, outputIndex: 0, assetID: ASSET, amount: '5', addresses: [A1], redeemingTransactionID: '' } },
  },
  indexer_getCBlock: {
    args: { number: 42 },
    expect: { path: '/v2/ctxdata/42', query: [] },
    answers: { '/v2/ctxdata/42': { hash: HASH, header: { number: '0x2a', timestamp: '0x6955b900' }, transactions: [] } },
  },
  indexer_listCBlocks: {
    // Two `limit` keys, blocks first, then transactions, as in the spec's example.
    args: { limit: 5, transactionLimit: 3, blockStart: 100, transactionId: 2, address: [EVM1, EVM2] },
    expect: {
      path: '/v2/cblocks',
      query: [
        ['limit', '5'],
        ['limit', '3'],
        ['blockStart', '100'],
        ['transactionId', '2'],
        ['address', EVM1],
        ['address', EVM2],
      ],
    },
  },
  indexer_listCTransactions: {
    args: { toAddress: EVM1, fromAddress: EVM2, hash: HASH, blockStart: 10, blockEnd: 20, limit: 5 },
    expect: {
      path: '/v2/ctransactions',
      query: [
        ['toAddress', EVM1],
        ['fromAddress', EVM2],
        ['hash', HASH],
        ['blockStart', '10'],
        ['blockEnd', '20'],
        ['limit', '5'],
      ],
    },
  },
  indexer_getLegacyX: {
    args: {},
    expect: { path: '/x', query: [] },
    answers: { '/x': { networkID: 1000, vm: 'avm', chainAlias: 'X', chainID: X, nativeAssetID: ASSET } },
  },
};
