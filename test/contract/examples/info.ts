import type { ContractExample } from '../types.js';

const NODE = 'NodeID-7Xhw2mDxuDS44j42TCB6U5579esbSt3Lg';

/** Spec document 1, "Information API, endpoint /ext/info". */
export const examples: Record<string, ContractExample> = {
  info_getBlockchainID: {
    args: { alias: 'X' },
    expect: { path: '/ext/info', method: 'info.getBlockchainID', params: { alias: 'X' } },
    answers: { 'info.getBlockchainID': { blockchainID: '2eNy1mUFdmaxXNj1eQHUe7Np4gju9sJsEtWQ4MX3ToiNKuADed' } },
  },
  info_getNetworkID: { args: {}, expect: { path: '/ext/info', method: 'info.getNetworkID', params: {} }, answers: { 'info.getNetworkID': { networkID: '1000' } } },
  info_getNetworkName: { args: {}, expect: { path: '/ext/info', method: 'info.getNetworkName', params: {} } },
  info_getNodeID: {
    args: {},
    expect: { path: '/ext/info', method: 'info.getNodeID', params: {} },
    // caminogo api/info/service.go GetNodeIDReply: the BLS key and proof of possession (hexNC).
    answers: { 'info.getNodeID': { nodeID: 'NodeID-7Xhw2mDxuDS44j42TCB6U5579esbSt3Lg', nodePOP: { publicKey: `0x${'ab'.repeat(48)}`, proofOfPossession: `0x${'cd'.repeat(96)}` } } },
  },
  info_getNodeIP: { args: {}, expect: { path: '/ext/info', method: 'info.getNodeIP', params: {} } },
  info_getNodeVersion: { args: {}, expect: { path: '/ext/info', method: 'info.getNodeVersion', params: {} } },
  info_getVMs: { args: {}, expect: { path: '/ext/info', method: 'info.getVMs', params: {} } },
  info_isBootstrapped: {
    args: { chain: 'C' },
    expect: { path: '/ext/info', method: 'info.isBootstrapped', params: { chain: 'C' } },
    answers: { 'info.isBootstrapped': { isBootstrapped: true } },
  },
  info_peers: {
    args: { nodeIDs: [NODE] },
    expect: { path: '/ext/info', method: 'info.peers', params: { nodeIDs: [NODE] } },
    answers: { 'info.peers': { numPeers: '1', peers: [{ nodeID: NODE, ip: '10.0.0.1:9651', version: 'camino/1.1.18', benched: [] }] } },
  },
  info_getTxFee: { args: {}, expect: { path: '/ext/info', method: 'info.getTxFee', params: {} }, answers: { 'info.getTxFee': { txFee: '1000000', creationTxFee: '10000000' } } },
  info_uptime: {
    args: {},
    expect: { path: '/ext/info', method: 'info.uptime', params: {} },
    answers: { 'info.uptime': { rewardingStakePercentage: '100.0000', weightedAveragePercentage: 99.1 } },
  },
};
