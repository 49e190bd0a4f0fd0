import type { ContractExample } from '../types.js';

/** Spec document 3, "Platform chain, endpoint /ext/P, JSON-RPC". Written by hand from the spec. */

const P = '/ext/P';
const ADDR = 'P-local1nzae6mw98nl99wyjzq6ht4ljt20kqecjmcltwd';
const NODE = 'NodeID-7Xhw2mDxuDS44j42TCB6U5579esbSt3Lg';
const PRIMARY = '11111111111111111111111111111111LpoYY';
const SUBNET = '2kqVEY6Khz2ShzBeEHaDQGtRmkbXT8suCZ8wwMqxEmusZDoXdy';
const CHAIN = '2eNy1mUFdmaxXNj1eQHUe7Np4gju9sJsEtWQ4MX3ToiNKuADed';
const TX = '2RXG7x5q8zq3jxAvAJxrKPv9sp1YBuh8ZnqrickJL51RsYghay';

export const examples: Record<string, ContractExample> = {
  platform_getAddressStates: {
    args: { address: ADDR },
    expect: { path: P, method: 'platform.getAddressStates', params: { address: ADDR } },
    answers: { 'platform.getAddressStates': '4294967297' },
  },
  platform_getAllDepositOffers: {
    args: { timestamp: 1700000000 },
    expect: { path: P, method: 'platform.getAllDepositOffers', params: { timestamp: 1700000000 } },
    // Real nodes answer with lowercase keys and some numbers as strings (DESIGN section 5).
    answers: {
      'platform.getAllDepositOffers': {
        depositOffers: [
          { id: TX, interestRateNominator: '80000', start: '1690000000', end: 1710000000, minAmount: '1000000000', minDuration: 5184000, maxDuration: 31536000, unlockPeriodDuration: 2592000, noRewardsPeriodDuration: 0, memo: 'U3RhbmRhcmQ=', flags: 1 },
        ],
      },
    },
  },
  platform_getBalance: {
    args: { addresses: [ADDR] },
    expect: { path: P, method: 'platform.getBalance', params: { addresses: [ADDR] } },
  },
  platform_getBlock: {
    args: { blockID: TX, encoding: 'json' },
    expect: { path: P, method: 'platform.getBlock', params: { blockID: TX, encoding: 'json' } },
    answers: { 'platform.getBlock': { block: { parentID: TX, height: 7, txs: [] }, encoding: 'json' } },
  },
  platform_getBlockchains: { args: {}, expect: { path: P, method: 'platform.getBlockchains', params: {} } },
  platform_getBlockchainStatus: {
    args: { blockchainID: CHAIN },
    expect: { path: P, method: 'platform.getBlockchainStatus', params: { blockchainID: CHAIN } },
    answers: { 'platform.getBlockchainStatus': { status: 'Validating' } },
  },
  // Not in the spec: a real node's platform.getTx / getTxStatus (caminogo vms/platformvm/service.go).
  platform_getTx: {
    args: { txID: TX, encoding: 'hexnc' },
    expect: { path: P, method: 'platform.getTx', params: { txID: TX, encoding: 'hexnc' } },
    answers: { 'platform.getTx': { tx: '0x00000000001200000001', encoding: 'hexnc' } },
  },
  platform_getTxStatus: {
    args: { txID: TX },
    expect: { path: P, method: 'platform.getTxStatus', params: { txID: TX } },
    answers: { 'platform.getTxStatus': { status: 'Dropped', reason: 'failed to verify' } },
  },
  // Camino's own methods (caminogo vms/platformvm/camino_service.go; REAL-WIRE.md, Camino section).
  platform_getDeposits: {
    args: { depositTxIDs: [TX] },
    expect: [
      { path: P, method: 'platform.getDeposits', params: { depositTxIDs: [TX] } },
      // The offer, as active at the deposit's start.
      { path: P, method: 'platform.getAllDepositOffers', params: { timestamp: 1690000000 } },
    ],
    answers: {
      'platform.getDeposits': {
        deposits: [
          {
            depositTxID: TX,
            depositOfferID: CHAIN,
            unlockedAmount: '0',
            claimedRewardAmount: '0',
            start: '1690000000',
            duration: 31536000,
            amount: '1000000000000',
            rewardOwner: { locktime: '0', threshold: '1', addresses: [ADDR] },
          },
        ],
        availableRewards: ['1000000'],
        timestamp: '1700000000',
      },
      'platform.getAllDepositOffers': {
        depositOffers: [{ id: CHAIN, interestRateNominator: '80000', start: '1680000000', end: '1790000000', minAmount: '1', minDuration: 60, maxDuration: 31536000, unlockPeriodDuration: 2592000, noRewardsPeriodDuration: 0, memo: '0x', flags: '0' }],
      },
    },
  },
  platform_getClaimables: {
    args: { addresses: [ADDR] },
    expect: { path: P, method: 'platform.getClaimables', params: { owners: [{ locktime: '0', threshold: '1', addresses: [ADDR] }] } },
    answers: { 'platform.getClaimables': { claimables: [{ rewardOwner: { locktime: '0', threshold: '1', addresses: [ADDR] }, validatorRewards: '5', expiredDepositRewards: '0' }] } },
  },
  platform_getMultisigAlias: {
    args: { address: ADDR },
    expect: { path: P, method: 'platform.getMultisigAlias', params: { address: ADDR } },
    answers: { 'platform.getMultisigAlias': { memo: '0x', locktime: '0', threshold: '1', addresses: [ADDR] } },
  },
  platform_getRegisteredShortIDLink: {
    args: { address: NODE },
    expect: { path: P, method: 'platform.getRegisteredShortIDLink', params: { address: NODE } },
    answers: { 'platform.getRegisteredShortIDLink': { address: ADDR } },
  },
  platform_getLastAcceptedBlock: {
    args: {},
    expect: { path: P, method: 'platform.getLastAcceptedBlock', params: {} },
    answers: { 'platform.getLastAcceptedBlock': { block: { parentID: TX, height: 7, time: 1700000000, txs: [] }, encoding: 'json' } },
  },
  platform_getBlockAtHeight: {
    args: { height: 7 },
    // A plain uint32: a JSON number.
    expect: { path: P, method: 'platform.getBlockAtHeight', params: { height: 7 } },
    answers: { 'platform.getBlockAtHeight': { block: { parentID: TX, height: 7, time: 1700000000, txs: [] }, encoding: 'json' } },
  },
  platform_getUpgradePhases: {
    args: {},
    expect: { path: P, method: 'platform.getUpgradePhases', params: {} },
    answers: { 'platform.getUpgradePhases': { athensPhase: '1' } },
  },
  platform_getConfiguration: { args: {}, expect: { path: P, method: 'platform.getConfiguration', params: {} } },
  platform_getCurrentSupply: { args: {}, expect: { path: P, method: 'platform.getCurrentSupply', params: {} } },
  platform_getCurrentValidators: {
    args: { subnetID: SUBNET, nodeIDs: [NODE], limit: 5 },
    expect: { path: P, method: 'platform.getCurrentValidators', params: { subnetID: SUBNET, nodeIDs: [NODE] } },
  },
  platform_getHeight: { args: {}, expect: { path: P, method: 'platform.getHeight', params: {} } },
  platform_getMaxStakeAmount: {
    args: { nodeID: NODE, startTime: 1700000000, endTime: '2023-12-14T22:13:20Z' },
    expect: { path: P, method: 'platform.getMaxStakeAmount', params: { subnetID: PRIMARY, nodeID: NODE, startTime: 1700000000, endTime: 1702592000 } },
  },
  platform_getMinStake: { args: {}, expect: { path: P, method: 'platform.getMinStake', params: {} } },
  platform_getPendingValidators: { args: {}, expect: { path: P, method: 'platform.getPendingValidators', params: {} } },
  platform_getRewardUTXOs: {
    args: { txID: TX, encoding: 'hex' },
    expect: { path: P, method: 'platform.getRewardUTXOs', params: { txID: TX, encoding: 'hex' } },
  },
  platform_getStakingAssetID: {
    args: { subnetID: PRIMARY },
    expect: { path: P, method: 'platform.getStakingAssetID', params: { subnetID: PRIMARY } },
  },
  platform_getSubnets: { args: { ids: [SUBNET] }, expect: { path: P, method: 'platform.getSubnets', params: { ids: [SUBNET] } } },
  platform_validatedBy: {
    args: { blockchainID: CHAIN },
    expect: { path: P, method: 'platform.validatedBy', params: { blockchainID: CHAIN } },
  },
  platform_validates: { args: { subnetID: SUBNET }, expect: { path: P, method: 'platform.validates', params: { subnetID: SUBNET } } },
};
