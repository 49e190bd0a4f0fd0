import type { ContractExample } from '../types.js';

/**
 * Spec document 2, "Contract chain EVM JSON-RPC": /ext/bc/C/rpc with positional params
 * (the standard EVM JSON-RPC parameter order), the chain's extra methods, and eth_subscribe
 * over /ext/bc/C/ws. Written by hand.
 */

const RPC = '/ext/bc/C/rpc';
const A = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266';
const B = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8';
const H = `0x${'ab'.repeat(32)}`;
const ASSET = '2DfD6Cx63yp21NNXSr4DhJAm8mLFQooNEy1uJ3xvR6bMYhY3ki';
const rpc = (method: string, params: unknown[]) => ({ path: RPC, method, params });

export const examples: Record<string, ContractExample> = {
  web3_clientVersion: { args: {}, expect: rpc('web3_clientVersion', []), answers: { web3_clientVersion: 'anvil/v1.7.1' } },
  net_version: { args: {}, expect: rpc('net_version', []), answers: { net_version: '500' } },
  net_listening: { args: {}, expect: rpc('net_listening', []), answers: { net_listening: true } },
  net_peerCount: { args: {}, expect: rpc('net_peerCount', []) },
  eth_chainId: { args: {}, expect: rpc('eth_chainId', []), answers: { eth_chainId: '0x1f4' } },
  eth_blockNumber: { args: { chain: '2CA6j5zYzasynPsFeNoqWkmTCt3VScMvXUZHbfDJ8k3oGzAPtU' }, expect: { path: '/ext/bc/2CA6j5zYzasynPsFeNoqWkmTCt3VScMvXUZHbfDJ8k3oGzAPtU/rpc', method: 'eth_blockNumber', params: [] } },
  eth_syncing: { args: {}, expect: rpc('eth_syncing', []), answers: { eth_syncing: false } },
  eth_getBalance: { args: { address: A }, expect: rpc('eth_getBalance', [A, 'latest']), answers: { eth_getBalance: '0xde0b6b3a7640000' } },
  eth_getTransactionCount: { args: { address: A, block: 12 }, expect: rpc('eth_getTransactionCount', [A, '0xc']) },
  eth_getCode: { args: { address: A, block: 'pending' }, expect: rpc('eth_getCode', [A, 'pending']) },
  eth_getStorageAt: { args: { address: A, position: '1', block: '0x10' }, expect: rpc('eth_getStorageAt', [A, '0x1', '0x10']) },
  eth_call: {
    args: { transaction: { to: A, data: '0x70a08231' } },
    expect: rpc('eth_call', [{ to: A, data: '0x70a08231' }]),
  },
  eth_estimateGas: {
    args: { transaction: { from: A, to: B, value: '1000' }, block: 'latest' },
    expect: rpc('eth_estimateGas', [{ from: A, to: B, value: '0x3e8' }, 'latest']),
  },
  eth_gasPrice: { args: {}, expect: rpc('eth_gasPrice', []) },
  eth_feeHistory: {
    args: { blockCount: 4, newestBlock: 'latest', rewardPercentiles: [25, 75] },
    expect: rpc('eth_feeHistory', ['0x4', 'latest', [25, 75]]),
    answers: { eth_feeHistory: { oldestBlock: '0x1', baseFeePerGas: ['0x1', '0x1', '0x1', '0x1', '0x1'], gasUsedRatio: [0, 0.5, 0, 0], reward: [['0x1', '0x2']] } },
  },
  eth_getBlockByNumber: { args: { block: '100', fullTransactions: true }, expect: rpc('eth_getBlockByNumber', ['0x64', true]) },
  eth_getBlockByHash: { args: { hash: H }, expect: rpc('eth_getBlockByHash', [H, false]), answers: { eth_getBlockByHash: null } },
  eth_getTransactionByHash: { args: { hash: H }, expect: rpc('eth_getTransactionByHash', [H]), answers: { eth_getTransactionByHash: null } },
  eth_getTransactionReceipt: {
    args: { hash: H },
    expect: rpc('eth_getTransactionReceipt', [H]),
    answers: { eth_getTransactionReceipt: { status: '0x1', blockNumber: '0x5', gasUsed: '0x5208', effectiveGasPrice: '0x3b9aca00', logs: [], from: A, to: B } },
  },
  eth_getLogs: {
    args: { fromBlock: 1, toBlock: 'latest', address: A, topics: [H, null] },
    expect: rpc('eth_getLogs', [{ fromBlock: '0x1', toBlock: 'latest', address: A, topics: [H, null] }]),
    answers: { eth_getLogs: [] },
  },
  txpool_status: { args: {}, expect: rpc('txpool_status', []), answers: { txpool_status: { pending: '0x1', queued: '0x0' } } },
  eth_getAssetBalance: { args: { address: A, assetID: ASSET }, expect: rpc('eth_getAssetBalance', [A, 'latest', ASSET]) },
  eth_baseFee: { args: {}, expect: rpc('eth_baseFee', []) },
  eth_maxPriorityFeePerGas: { args: {}, expect: rpc('eth_maxPriorityFeePerGas', []) },
  evm_rpc: {
    args: { method: 'eth_getBlockTransactionCountByNumber', params: ['0x1'] },
    expect: rpc('eth_getBlockTransactionCountByNumber', ['0x1']),
  },
  debug_traceTransaction: {
    args: { hash: H, tracer: 'callTracer' },
    expect: rpc('debug_traceTransaction', [H, { tracer: 'callTracer' }]),
    answers: { debug_traceTransaction: { type: 'CALL', from: A, to: B } },
  },
  evm_watch: {
    args: { subscription: 'logs', address: A, topics: [H], maxEvents: 1, timeoutSeconds: 1 },
    expect: [
      { path: '/ext/bc/C/ws', method: 'eth_subscribe', params: ['logs', { address: A, topics: [H] }] },
      { path: '/ext/bc/C/ws', method: 'eth_unsubscribe', params: ['0x1'] },
    ],
  },
};
