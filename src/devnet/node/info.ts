import { RpcFault, type RpcRouter, needString } from '../rpc.js';
import { type DevnetState, sha256 } from '../state/index.js';

/** Deterministic bytes of a label, as 0x hex of `length` bytes. */
function hexOf(label: string, length: number): string {
  let out = '';
  for (let i = 0; out.length < length * 2; i++) out += Buffer.from(sha256(`${label}:${i}`)).toString('hex');
  return `0x${out.slice(0, length * 2)}`;
}

/** Information API, /ext/info. Numbers come back as decimal strings, as real nodes send them. */
export function registerInfo(router: RpcRouter, state: DevnetState): void {
  const path = '/ext/info';
  router
    .on(path, 'info.getBlockchainID', (p) => {
      const alias = needString(p, 'alias');
      const id = state.chains[alias as 'X' | 'P' | 'C'];
      if (!id) throw new RpcFault(`there is no chain with alias/ID '${alias}'`);
      return { blockchainID: id };
    })
    .on(path, 'info.getNetworkID', () => ({ networkID: String(state.networkID) }))
    .on(path, 'info.getNetworkName', () => ({ networkName: state.networkName }))
    // caminogo api/info/service.go GetNodeIDReply: the BLS key and its proof of possession, hexNC.
    .on(path, 'info.getNodeID', () =>
      router.dialect === 'camino'
        ? { nodeID: state.nodeID, nodePOP: { publicKey: hexOf(`bls-pk:${state.nodeID}`, 48), proofOfPossession: hexOf(`bls-pop:${state.nodeID}`, 96) } }
        : { nodeID: state.nodeID },
    )
    .on(path, 'info.getNodeIP', () => ({ ip: state.nodeIP }))
    .on(path, 'info.getNodeVersion', () => ({ ...state.version }))
    .on(path, 'info.getVMs', () => ({ vms: state.vms }))
    .on(path, 'info.isBootstrapped', (p) => {
      const chain = needString(p, 'chain');
      if (!state.bootstrapped.has(chain) && !Object.values(state.chains).includes(chain)) {
        throw new RpcFault(`there is no chain with alias/ID '${chain}'`);
      }
      return { isBootstrapped: state.bootstrapped.has(chain) };
    })
    .on(path, 'info.peers', (p) => {
      const wanted = Array.isArray(p.nodeIDs) && p.nodeIDs.length > 0 ? new Set(p.nodeIDs as string[]) : undefined;
      const peers = state.peers.filter((peer) => !wanted || wanted.has(peer.nodeID));
      return { numPeers: String(peers.length), peers };
    })
    .on(path, 'info.getTxFee', () => {
      const txFee = String(state.fees.txFee);
      const creation = String(state.fees.creationTxFee);
      if (router.dialect !== 'camino') return { txFee, creationTxFee: creation };
      // caminogo api/info/service.go GetTxFeeResponse: createAssetTxFee and the staking/subnet fees, all json.Uint64.
      return {
        txFee,
        createAssetTxFee: creation,
        createSubnetTxFee: creation,
        transformSubnetTxFee: creation,
        createBlockchainTxFee: creation,
        addPrimaryNetworkValidatorFee: '0',
        addPrimaryNetworkDelegatorFee: '0',
        addSubnetValidatorFee: txFee,
        addSubnetDelegatorFee: txFee,
      };
    })
    // caminogo's json.Float64: a quoted decimal with 4 digits (utils/json/float64.go).
    .on(path, 'info.uptime', () => ({
      rewardingStakePercentage: state.uptime.rewardingStakePercentage.toFixed(4),
      weightedAveragePercentage: state.uptime.weightedAveragePercentage.toFixed(4),
    }));
}
