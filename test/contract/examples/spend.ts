import type { ContractExample } from '../types.js';
import { KEYSTORE } from '../types.js';

/**
 * Spend tier, spec document 2 ("Asset chain", "Contract chain specific methods", EVM) and
 * document 3 ("Platform chain"): the request of the confirmed call. Amounts are the spec's
 * `int` (JSON numbers); username and password come from the configuration, last.
 */

const X1 = 'X-camino1qyqszqgpqyqszqgpqyqszqgpqyqszqgpua39v8';
const X2 = 'X-camino1qgpqyqszqgpqyqszqgpqyqszqgpqyqszdehq83';
const P1 = 'P-camino1qyqszqgpqyqszqgpqyqszqgpqyqszqgpua39v8';
const P3 = 'P-camino1qvpsxqcrqvpsxqcrqvpsxqcrqvpsxqcrvfkpds';
const C1 = 'C-camino1qyqszqgpqyqszqgpqyqszqgpqyqszqgpua39v8';
const HEX = '0x0101010101010101010101010101010101010101';
const NODE = 'NodeID-F1m9ekw12DUJP1vRXxNvJkkcojAuvHEh6';
const ASSET = '2d4X84o3PHVTv1acUuVp8p9tDfduV3gxgpnHUxT6P7VvMTDVQn';
const SUBNET = 'Bi5Q54kv5bXyNAMpP7FUVmEGT1cdtPe4DX6hWqqAVNvzMZs8Q';
/** 'nft payload' in hex with its 4-byte checksum: a Camino node takes hex, not cb58. */
const PAYLOAD = '0x6e6674207061796c6f616462e574be';
const SIGNED = '0x7369676e656420747820627974657354fef185';
/** The ID a node answers for those bytes ('signed tx bytes'): sha256 of them in cb58. */
const SIGNED_ID = 'tzRfoU6qPq5hBUqw86rmEg25drEKZRP2fjmPWq2pKMStp6W2D';
const TX = { txID: 'D3pYy1iG2d73vt63iEk1uvdDzvLt9XBNjJy9NWrxMLZWQjuio', changeAddr: X1 };
/** EIP-155 example transaction: nonce 9, 20 gwei, 21000 gas, to 0x3535..., 1 ether, chain 1. */
const RAW_EVM_TX =
  '0xf86c098504a817c800825208943535353535353535353535353535353535353535880de0b6b3a76400008025a028ef61340bd939bc2195fe537567866003e1a15d3c71ff63e1590620aa636276a067cbe9d8997f761aecb703304b3800ccf555c9f3dc64214b297fb1966a3b6d83';
const START = 2_000_000_000;
const VALIDATOR = {
  validators: [{ nodeID: NODE, startTime: String(START - 86_400), endTime: String(START + 100 * 86_400), stakeAmount: '2000000000000', delegators: [] }],
};
const creds = { username: KEYSTORE.username, password: KEYSTORE.password };
const X = (method: string, params: Record<string, unknown>) => ({ path: '/ext/bc/X', method, params: { ...params, ...creds } });
const P = (method: string, params: Record<string, unknown>) => ({ path: '/ext/P', method, params: { ...params, ...creds } });
const CX = (method: string, params: Record<string, unknown>) => ({ path: '/ext/bc/C/cx', method, params: { ...params, ...creds } });

export const examples: Record<string, ContractExample> = {
  xvm_createFixedCapAsset: {
    args: { name: 'Gold', symbol: 'GLD', denomination: 2, initialHolders: [{ address: X1, amount: '10000' }], from: [X2], changeAddr: X2 },
    expect: X('xvm.createFixedCapAsset', { name: 'Gold', symbol: 'GLD', denomination: 2, initialHolders: [{ address: X1, amount: 10000 }], from: [X2], changeAddr: X2 }),
    answers: { 'xvm.createFixedCapAsset': { assetID: ASSET, changeAddr: X2 } },
  },
  xvm_createVariableCapAsset: {
    args: { name: 'Silver', symbol: 'SLV', minterSets: [{ minters: [X1, X2], threshold: 2 }] },
    expect: X('xvm.createVariableCapAsset', { name: 'Silver', symbol: 'SLV', minterSets: [{ minters: [X1, X2], threshold: 2 }] }),
    answers: { 'xvm.createVariableCapAsset': { assetID: ASSET, changeAddr: X1 } },
  },
  xvm_createNFTAsset: {
    args: { name: 'Art', symbol: 'ART', minterSets: [{ minters: [X1], threshold: 1 }] },
    expect: X('xvm.createNFTAsset', { name: 'Art', symbol: 'ART', minterSets: [{ minters: [X1], threshold: 1 }] }),
    answers: { 'xvm.createNFTAsset': { assetID: ASSET, changeAddr: X1 } },
  },
  xvm_mint: {
    args: { amount: '5000', assetID: ASSET, to: X1 },
    expect: X('xvm.mint', { amount: 5000, assetID: ASSET, to: X1 }),
    answers: { 'xvm.mint': TX },
  },
  xvm_mintNFT: {
    args: { assetID: ASSET, payload: PAYLOAD, to: X1, encoding: 'hex' },
    expect: X('xvm.mintNFT', { assetID: ASSET, payload: PAYLOAD, to: X1, encoding: 'hex' }),
    answers: { 'xvm.mintNFT': TX },
  },
  xvm_send: {
    args: { amount: '10000', assetID: ASSET, to: X1, memo: 'hi mom', from: [X2], changeAddr: X2 },
    expect: X('xvm.send', { amount: 10000, assetID: ASSET, to: X1, memo: 'hi mom', from: [X2], changeAddr: X2 }),
    answers: { 'xvm.send': TX },
  },
  xvm_sendMultiple: {
    args: { outputs: [{ assetID: ASSET, amount: '500', to: X1 }, { assetID: ASSET, amount: '1000', to: X2 }], memo: 'x' },
    expect: X('xvm.sendMultiple', { outputs: [{ assetID: ASSET, amount: 500, to: X1 }, { assetID: ASSET, amount: 1000, to: X2 }], memo: 'x' }),
    answers: { 'xvm.sendMultiple': TX },
  },
  xvm_sendNFT: {
    args: { assetID: ASSET, groupID: 0, to: X1 },
    expect: X('xvm.sendNFT', { assetID: ASSET, groupID: 0, to: X1 }),
    answers: { 'xvm.sendNFT': TX },
  },
  xvm_export: {
    args: { to: C1, amount: '10', assetID: ASSET },
    expect: X('xvm.export', { to: C1, amount: 10, assetID: ASSET }),
    answers: { 'xvm.export': TX },
  },
  xvm_import: {
    args: { to: X1, sourceChain: 'C' },
    expect: X('xvm.import', { to: X1, sourceChain: 'C' }),
    answers: { 'xvm.import': { txID: TX.txID } },
  },
  xvm_issueTx: {
    // cb58 in, hex on the wire: the same bytes (a Camino node refuses cb58).
    args: { tx: 'N8TQrVFYun5GREZ7XKwYsgxauJ' },
    expect: { path: '/ext/bc/X', method: 'xvm.issueTx', params: { tx: SIGNED, encoding: 'hex' } },
    answers: { 'xvm.issueTx': { txID: SIGNED_ID } },
  },
  platform_addValidator: {
    // nodeOwnerAddress: a real node's field (lock mode requires it); the spec's node ignores it.
    args: { nodeID: NODE, startTime: START, endTime: START + 30 * 86_400, stakeAmount: '2000000000000', rewardAddress: P1, nodeOwnerAddress: P1, delegationFeeRate: 2.5 },
    expect: P('platform.addValidator', {
      nodeID: NODE,
      startTime: START,
      endTime: START + 30 * 86_400,
      stakeAmount: 2_000_000_000_000,
      nodeOwnerAddress: P1,
      rewardAddress: P1,
      delegationFeeRate: 2.5,
    }),
    answers: { 'platform.addValidator': TX },
  },
  platform_addDelegator: {
    args: { nodeID: NODE, startTime: START, endTime: START + 14 * 86_400, stakeAmount: '25000000000', rewardAddress: P1, from: [P3], changeAddr: P3 },
    expect: P('platform.addDelegator', {
      nodeID: NODE,
      startTime: START,
      endTime: START + 14 * 86_400,
      stakeAmount: 25_000_000_000,
      rewardAddress: P1,
      from: [P3],
      changeAddr: P3,
    }),
    answers: { 'platform.getCurrentValidators': VALIDATOR, 'platform.addDelegator': TX },
  },
  platform_addSubnetValidator: {
    args: { nodeID: NODE, subnetID: SUBNET, startTime: START, endTime: START + 86_400, weight: '100' },
    expect: P('platform.addSubnetValidator', { nodeID: NODE, subnetID: SUBNET, startTime: START, endTime: START + 86_400, weight: 100 }),
    answers: { 'platform.getCurrentValidators': VALIDATOR, 'platform.addSubnetValidator': TX },
  },
  platform_createBlockchain: {
    args: { subnetID: SUBNET, vmID: 'xvm', name: 'my chain', genesisData: '469ErCbQQJ9HijLMLfVid', encoding: 'cb58' },
    expect: P('platform.createBlockchain', { subnetID: SUBNET, vmID: 'xvm', name: 'my chain', genesisData: PAYLOAD, encoding: 'hex' }),
    answers: { 'platform.createBlockchain': TX },
  },
  platform_createSubnet: {
    args: { controlKeys: [P1, P3], threshold: 2 },
    expect: P('platform.createSubnet', { controlKeys: [P1, P3], threshold: 2 }),
    answers: { 'platform.createSubnet': TX },
  },
  platform_exportNative: {
    args: { amount: '1000000000', to: X1 },
    expect: P('platform.exportNative', { amount: 1_000_000_000, to: X1 }),
    answers: { 'platform.exportNative': TX },
  },
  // Camino's keystore claim (caminogo camino_service.go Claim): owners are platformapi.Owner, claimType a number.
  platform_claim: {
    args: { claims: [{ kind: 'validator', owner: P1, amount: '5' }, { kind: 'deposit', depositTxID: TX.txID, amount: '7' }], to: P3 },
    expect: [
      { path: '/ext/P', method: 'platform.getDeposits', params: { depositTxIDs: [TX.txID] } },
      { path: '/ext/P', method: 'platform.getClaimables', params: { owners: [{ locktime: '0', threshold: '1', addresses: [P1] }] } },
      P('platform.claim', {
        claimables: [
          { depositTxID: '', claimableOwner: { locktime: '0', threshold: '1', addresses: [P1] }, amount: '5', claimType: 0 },
          { depositTxID: TX.txID, claimableOwner: { locktime: '0', threshold: '0', addresses: [] }, amount: '7', claimType: 3 },
        ],
        claimTo: { locktime: '0', threshold: '1', addresses: [P3] },
        change: { locktime: '0', threshold: '1', addresses: [P3] },
      }),
    ],
    answers: {
      'platform.getDeposits': { deposits: [{ depositTxID: TX.txID }], availableRewards: ['10'], timestamp: '1700000000' },
      'platform.getClaimables': { claimables: [{ rewardOwner: { locktime: '0', threshold: '1', addresses: [P1] }, validatorRewards: '5', expiredDepositRewards: '0' }] },
      'platform.claim': { txID: TX.txID },
    },
  },
  // No keystore method exists for these (caminogo camino_service.go): they need the local signer.
  platform_deposit: {
    args: { offerID: TX.txID, amount: '1000000000', duration: 5184000, rewardAddress: P1 },
    expect: [],
    refusal: 'it needs the local signer (CHAIN_MCP_SIGNER=local',
  },
  platform_unlockDeposit: {
    args: { depositTxIDs: [TX.txID] },
    expect: [],
    refusal: 'it needs the local signer (CHAIN_MCP_SIGNER=local',
  },
  platform_setAddressState: {
    args: { address: P1, state: 'AddressStateKycVerified', remove: false },
    expect: P('platform.setAddressState', { address: P1, state: 32, remove: false }),
    answers: { 'platform.setAddressState': { txID: TX.txID } },
  },
  cx_export: {
    args: { to: X1, amount: '1000', assetID: 'CAM', baseFee: '30000000000' },
    // A base fee at most twice the node's current one (eth_baseFee, 25 gwei here) is sent as given.
    expect: CX('cx.export', { to: X1, amount: 1000, assetID: 'CAM', baseFee: 30_000_000_000 }),
    answers: { eth_baseFee: '0x5d21dba00', 'cx.export': { txID: TX.txID } },
  },
  cx_import: {
    args: { to: HEX, sourceChain: 'X' },
    // Without one, the node's current base fee (200 gwei on Camino) is sent: the one the preview counted.
    expect: CX('cx.import', { to: HEX, sourceChain: 'X', baseFee: 200_000_000_000 }),
    answers: { 'xvm.listAddresses': { addresses: [X1] }, eth_baseFee: '0x2e90edd000', 'cx.getUTXOs': { numFetched: '0', utxos: [], endIndex: { address: '', utxo: '' } }, 'cx.import': { txID: TX.txID } },
  },
  cx_issueTx: {
    args: { tx: SIGNED, encoding: 'hex' },
    expect: { path: '/ext/bc/C/cx', method: 'cx.issueTx', params: { tx: SIGNED, encoding: 'hex' } },
    answers: { 'cx.issueTx': { txID: SIGNED_ID } },
  },
  eth_sendRawTransaction: {
    args: { signedTx: RAW_EVM_TX },
    expect: { path: '/ext/bc/C/rpc', method: 'eth_sendRawTransaction', params: [RAW_EVM_TX] },
    answers: { eth_sendRawTransaction: '0x33469b22e9f636356c4160a87eb19df52b7412e8eac32a4a55ffe88ea8350788' },
  },
};
