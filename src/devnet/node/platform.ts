import { parseChainAddress } from '../../codec/index.js';
import { RpcFault, type Params, type RpcRouter, needString, needUint } from '../rpc.js';
import {
  balanceOf,
  bareAddress,
  type DevnetState,
  type Delegator,
  type Validator,
  pBlockJson,
  txJson,
  txString,
  utxosOf,
  utxoString,
} from '../state/index.js';

/** Platform chain API, /ext/P. Numbers come back as decimal strings, as real nodes send them. */

const s = (n: bigint | number): string => String(n);

/** The simulator's statuses as the P-Chain names them: decided blocks commit or abort. */
const P_STATUS: Record<string, string> = { Accepted: 'Committed', Rejected: 'Aborted', Processing: 'Processing', Dropped: 'Dropped' };

export function checkEncoding(p: Params, allowed: readonly string[], fallback = 'cb58'): string {
  const value = p.encoding;
  if (value === undefined || value === '') return fallback;
  if (typeof value !== 'string' || !allowed.includes(value)) throw new RpcFault(`invalid encoding: "${String(value)}"`);
  return value;
}

/** Parses an address the way the node does: chain prefix, bech32 checksum, the network's hrp. */
export function needAddress(state: DevnetState, value: unknown, chains: Array<'X' | 'P' | 'C'>): string {
  if (typeof value !== 'string') throw new RpcFault('couldn\'t parse address: expected a string');
  try {
    const parsed = parseChainAddress(value, { chains });
    if (parsed.hrp !== state.hrp) throw new Error(`expected hrp "${state.hrp}" but got "${parsed.hrp}"`);
  } catch (err) {
    throw new RpcFault(`couldn't parse address "${value}": ${(err as Error).message}`);
  }
  return value;
}

function rewardOwner(o: Validator['rewardOwner']) {
  return { locktime: s(o.locktime), threshold: s(o.threshold), addresses: o.addresses };
}

function delegatorJson(d: Delegator, primary: boolean) {
  return {
    txID: d.txID,
    startTime: s(d.startTime),
    endTime: s(d.endTime),
    ...(primary ? { stakeAmount: s(d.stakeAmount) } : {}),
    nodeID: d.nodeID,
    rewardOwner: rewardOwner(d.rewardOwner),
    potentialReward: s(d.potentialReward),
  };
}

function validatorJson(state: DevnetState, v: Validator) {
  const primary = v.subnetID === state.primaryNetworkID;
  return {
    txID: v.txID,
    startTime: s(v.startTime),
    endTime: s(v.endTime),
    ...(primary ? { stakeAmount: s(v.stakeAmount) } : { weight: s(v.stakeAmount) }),
    nodeID: v.nodeID,
    ...(primary ? {} : { permissioned: true }),
    rewardOwner: rewardOwner(v.rewardOwner),
    potentialReward: s(v.potentialReward),
    delegationFee: v.delegationFee,
    uptime: v.uptime,
    connected: v.connected,
    delegators: v.delegators.map((d) => delegatorJson(d, primary)),
  };
}

function subnetFilter(state: DevnetState, p: Params): string {
  const id = p.subnetID === undefined || p.subnetID === '' ? state.primaryNetworkID : String(p.subnetID);
  if (!state.subnets.some((sn) => sn.id === id)) throw new RpcFault(`subnet ${id} not found`);
  return id;
}

function nodeFilter(p: Params): Set<string> | undefined {
  return Array.isArray(p.nodeIDs) && p.nodeIDs.length > 0 ? new Set(p.nodeIDs.map(String)) : undefined;
}

/**
 * The answer of a node whose lockModeBondDeposit is off (caminogo vms/platformvm/service.go
 * GetBalanceResponse): native sums plus per-asset maps. This simulator counts every locked
 * kind as lockedNotStakeable.
 */
function avalancheBalance(
  state: DevnetState,
  kinds: Record<string, Record<string, string>>,
  totals: Record<string, string>,
  utxos: Array<{ txID: string; outputIndex: number }>,
) {
  const locked: Record<string, string> = {};
  for (const id of Object.keys(totals)) {
    const sum = ['bonded', 'deposited', 'bondedDeposited'].reduce((a, k) => a + BigInt(kinds[k]![id] ?? '0'), 0n);
    if (sum > 0n) locked[id] = s(sum);
  }
  const native = state.nativeAssetID;
  return {
    balance: totals[native] ?? '0',
    unlocked: kinds.unlocked![native] ?? '0',
    lockedStakeable: '0',
    lockedNotStakeable: locked[native] ?? '0',
    balances: totals,
    unlockeds: kinds.unlocked,
    lockedStakeables: {},
    lockedNotStakeables: locked,
    utxoIDs: utxos.map((u) => ({ txID: u.txID, outputIndex: u.outputIndex })),
  };
}

/**
 * A deposit offer as caminogo sends it (vms/platformvm/camino_service.go APIDepositOffer): lowercase
 * names, uint32 durations as numbers, the memo as 0x hex (JSONByteSlice), a nil list as null.
 */
function caminoOffer(o: DevnetState['depositOffers'][number]) {
  return {
    upgradeVersion: o.totalMaxRewardAmount ? 1 : 0,
    id: o.id,
    interestRateNominator: s(o.interestRateNominator),
    start: s(o.start),
    end: s(o.end),
    minAmount: s(o.minAmount),
    totalMaxAmount: s(o.totalMaxAmount ?? 0n),
    depositedAmount: s(o.depositedAmount ?? 0n),
    minDuration: o.minDuration,
    maxDuration: o.maxDuration,
    unlockPeriodDuration: o.unlockPeriodDuration,
    noRewardsPeriodDuration: o.noRewardsPeriodDuration,
    memo: `0x${Buffer.from(o.memo, 'base64').toString('hex')}`,
    flags: s(o.flags),
    totalMaxRewardAmount: s(o.totalMaxRewardAmount ?? 0n),
    rewardedAmount: s(o.rewardedAmount ?? 0n),
    ownerAddress: o.ownerAddress ?? '111111111111111111116DBWJs',
  };
}

export function registerPlatform(router: RpcRouter, state: DevnetState): void {
  const path = '/ext/P';
  router
    .on(path, 'platform.getAddressStates', (p) => {
      const address = needAddress(state, p.address, ['P']);
      return s(state.addressStates.get(bareAddress(address)) ?? 0n);
    })
    .on(path, 'platform.getAllDepositOffers', (p) => {
      const at = Number(needUint(p, 'timestamp'));
      const active = state.depositOffers.filter((o) => o.start <= at && at <= o.end);
      if (router.dialect === 'camino') return { depositOffers: active.length === 0 ? null : active.map(caminoOffer) };
      return {
        depositOffers: active.map((o) => ({
          ID: o.id,
          InterestRateNominator: s(o.interestRateNominator),
          Start: s(o.start),
          End: s(o.end),
          MinAmount: s(o.minAmount),
          MinDuration: o.minDuration,
          MaxDuration: o.maxDuration,
          UnlockPeriodDuration: o.unlockPeriodDuration,
          NoRewardsPeriodDuration: o.noRewardsPeriodDuration,
          Memo: o.memo,
          Flags: s(o.flags),
        })),
      };
    })
    .on(path, 'platform.getBalance', (p) => {
      if (!Array.isArray(p.addresses) || p.addresses.length === 0) throw new RpcFault('missing or invalid addresses');
      const addresses = p.addresses.map((a) => needAddress(state, a, ['P']));
      const kinds = { unlocked: {}, bonded: {}, deposited: {}, bondedDeposited: {} } as Record<string, Record<string, string>>;
      const totals: Record<string, string> = {};
      const utxos = utxosOf(state, 'P', addresses);
      const assets = new Set(utxos.map((u) => u.assetID));
      for (const assetID of assets) {
        let total = 0n;
        for (const lock of ['unlocked', 'bonded', 'deposited', 'bondedDeposited'] as const) {
          let sum = 0n;
          for (const a of addresses) sum += balanceOf(state, 'P', a, assetID, { lock });
          if (sum > 0n) kinds[lock]![assetID] = s(sum);
          total += sum;
        }
        totals[assetID] = s(total);
      }
      if (!state.config.lockModeBondDeposit) return avalancheBalance(state, kinds, totals, utxos);
      return {
        balances: totals,
        unlockedOutputs: kinds.unlocked,
        bondedOutputs: kinds.bonded,
        depositedOutputs: kinds.deposited,
        bondedDepositedOutputs: kinds.bondedDeposited,
        utxoIDs: utxos.map((u) => ({ txID: u.txID, outputIndex: u.outputIndex })),
      };
    })
    // The spec lists neither; a real node has both (caminogo vms/platformvm/service.go, status/status.go).
    .on(path, 'platform.getTxStatus', (p) => {
      const tx = state.txs.get(needString(p, 'txID'));
      if (tx?.chain !== 'P') return { status: 'Unknown' };
      const status = P_STATUS[tx.status] ?? 'Unknown';
      return status === 'Dropped' ? { status, reason: String(tx.details?.reason ?? 'failed verification') } : { status };
    })
    .on(path, 'platform.getTx', (p) => {
      const id = needString(p, 'txID');
      const encoding = checkEncoding(p, router.dialect === 'camino' ? ['hex', 'hexnc', 'hexc', 'json'] : ['cb58', 'hex', 'hexnc', 'hexc', 'json'], 'hex');
      const tx = state.txs.get(id);
      if (tx?.chain !== 'P') throw new RpcFault('couldn\'t get tx: not found');
      if (encoding === 'json') return { tx: txJson(state, tx), encoding };
      return { tx: encoding === 'hexnc' ? tx.bytes : txString(tx, encoding === 'hexc' ? 'hex' : encoding), encoding };
    })
    .on(path, 'platform.getBlock', (p) => {
      const id = needString(p, 'blockID');
      const encoding = checkEncoding(p, ['cb58', 'hex', 'json']);
      const block = state.pBlocks.find((b) => b.id === id);
      if (!block) throw new RpcFault(`couldn't get block with id ${id}: not found`);
      if (encoding === 'json') {
        return { block: pBlockJson(state, block), encoding };
      }
      const bytes = Buffer.from(JSON.stringify({ parentID: block.parentID, height: block.height, txIDs: block.txIDs }), 'utf8');
      const fake = { bytes: `0x${bytes.toString('hex')}` } as Parameters<typeof txString>[0];
      return { block: txString(fake, encoding), encoding };
    })
    .on(path, 'platform.getBlockchains', () => ({
      blockchains: state.blockchains.map(({ id, name, subnetID, vmID }) => ({ id, name, subnetID, vmID })),
    }))
    .on(path, 'platform.getBlockchainStatus', (p) => {
      const id = needString(p, 'blockchainID');
      if (id === state.chains.P) return { status: 'Validating' };
      return { status: state.blockchains.find((b) => b.id === id)?.status ?? 'Unknown' };
    })
    .on(path, 'platform.getConfiguration', () => {
      const c = state.config;
      return {
        networkID: c.networkID,
        assetID: c.assetID,
        assetSymbol: c.assetSymbol,
        hrp: c.hrp,
        blockchains: state.blockchains
          .filter((b) => b.subnetID === state.primaryNetworkID)
          .map(({ id, name, subnetID, vmID }) => ({ id, name, subnetID, vmID })),
        minStakeDuration: s(c.minStakeDuration),
        maxStakeDuration: s(c.maxStakeDuration),
        minValidatorStake: s(c.minValidatorStake),
        maxValidatorStake: s(c.maxValidatorStake),
        minDelegationFee: s(c.minDelegationFee),
        minDelegatorStake: s(c.minDelegatorStake),
        minConsumptionRate: s(c.minConsumptionRate),
        maxConsumptionRate: s(c.maxConsumptionRate),
        supplyCap: s(c.supplyCap),
        codecVersion: s(c.codecVersion),
        verifyNodeSignature: c.verifyNodeSignature,
        lockModeBondDeposit: c.lockModeBondDeposit,
      };
    })
    .on(path, 'platform.getCurrentSupply', () => ({ supply: s(state.supply) }))
    .on(path, 'platform.getCurrentValidators', (p) => {
      const subnetID = subnetFilter(state, p);
      const nodes = nodeFilter(p);
      const validators = state.validators.filter((v) => v.subnetID === subnetID && (!nodes || nodes.has(v.nodeID))).map((v) => validatorJson(state, v));
      if (router.dialect !== 'camino') return { validators: validators.map(({ permissioned: _, ...v }) => v) };
      // caminogo service.go GetCurrentValidators: primary-network validators carry delegatorCount and
      // delegatorWeight; the delegators themselves only when exactly one node ID was asked.
      const one = Array.isArray(p.nodeIDs) && p.nodeIDs.length === 1;
      return {
        validators: validators.map(({ delegators, permissioned, ...v }) => {
          // apiStaker: `weight` and the deprecated `stakeAmount` (= weight) on every staker; a
          // permissioned subnet validator is Staker + connected + uptime (api/static_service.go).
          const amount = 'stakeAmount' in v ? v.stakeAmount : v.weight;
          if (permissioned) return { txID: v.txID, startTime: v.startTime, endTime: v.endTime, weight: amount, nodeID: v.nodeID, stakeAmount: amount, connected: v.connected, uptime: v.uptime };
          if (subnetID !== state.primaryNetworkID) return v;
          const weight = delegators.reduce((sum, d) => sum + BigInt(d.stakeAmount ?? '0'), 0n);
          return { ...v, weight: amount, delegatorCount: s(delegators.length), delegatorWeight: s(weight), ...(one ? { delegators } : {}) };
        }),
      };
    })
    .on(path, 'platform.getHeight', () => ({ height: s(state.pBlocks.length - 1) }))
    .on(path, 'platform.getMaxStakeAmount', (p) => {
      const subnetID = subnetFilter(state, p);
      const nodeID = needString(p, 'nodeID');
      const start = Number(needUint(p, 'startTime'));
      const end = Number(needUint(p, 'endTime'));
      if (end <= start) throw new RpcFault('endTime must be after startTime');
      const v = [...state.validators, ...state.pendingValidators].find((x) => x.nodeID === nodeID && x.subnetID === subnetID);
      if (!v) return { amount: '0' };
      // Peak of own stake plus overlapping delegations at any delegation start within the period.
      const delegs = [...v.delegators, ...state.pendingDelegators.filter((d) => d.nodeID === nodeID)];
      const points = [start, ...delegs.map((d) => d.startTime).filter((t) => t >= start && t <= end)];
      let peak = 0n;
      for (const t of points) {
        if (t < v.startTime || t > v.endTime) continue;
        const at = v.stakeAmount + delegs.filter((d) => d.startTime <= t && t < d.endTime).reduce((sum, d) => sum + d.stakeAmount, 0n);
        if (at > peak) peak = at;
      }
      return { amount: s(peak) };
    })
    .on(path, 'platform.getMinStake', () => ({ minValidatorStake: s(state.config.minValidatorStake), minDelegatorStake: s(state.config.minDelegatorStake) }))
    .on(path, 'platform.getPendingValidators', (p) => {
      const subnetID = subnetFilter(state, p);
      const nodes = nodeFilter(p);
      return {
        validators: state.pendingValidators
          .filter((v) => v.subnetID === subnetID && (!nodes || nodes.has(v.nodeID)))
          .map((v) => ({
            txID: v.txID,
            startTime: s(v.startTime),
            endTime: s(v.endTime),
            ...(subnetID === state.primaryNetworkID ? { stakeAmount: s(v.stakeAmount) } : { weight: s(v.stakeAmount) }),
            nodeID: v.nodeID,
            delegationFee: v.delegationFee,
            connected: v.connected,
          })),
        // caminogo service.go: asked for node IDs, a node lists pending delegators only beside that
        // node's pending validator; asked for none, every pending delegator.
        delegators: state.pendingDelegators
          .filter((d) => !nodes || (nodes.has(d.nodeID) && (router.dialect !== 'camino' || state.pendingValidators.some((v) => v.nodeID === d.nodeID && v.subnetID === subnetID))))
          .map((d) => ({ txID: d.txID, startTime: s(d.startTime), endTime: s(d.endTime), stakeAmount: s(d.stakeAmount), nodeID: d.nodeID })),
      };
    })
    .on(path, 'platform.getRewardUTXOs', (p) => {
      const txID = needString(p, 'txID');
      const encoding = checkEncoding(p, ['cb58', 'hex']);
      const ids = state.rewardUtxos.get(txID) ?? [];
      const utxos = ids.map((id) => utxoString(state.utxos.get(id)!, encoding));
      return { numFetched: s(utxos.length), utxos, encoding };
    })
    .on(path, 'platform.getStakingAssetID', (p) => {
      if (p.subnetID !== undefined && p.subnetID !== state.primaryNetworkID) {
        if (!state.subnets.some((sn) => sn.id === p.subnetID)) throw new RpcFault(`subnet ${String(p.subnetID)} not found`);
      }
      return { assetID: state.nativeAssetID };
    })
    .on(path, 'platform.getSubnets', (p) => {
      const ids = Array.isArray(p.ids) && p.ids.length > 0 ? new Set(p.ids.map(String)) : undefined;
      return {
        subnets: state.subnets.filter((sn) => !ids || ids.has(sn.id)).map((sn) => ({ id: sn.id, controlKeys: sn.controlKeys, threshold: s(sn.threshold) })),
      };
    })
    .on(path, 'platform.validatedBy', (p) => {
      const id = needString(p, 'blockchainID');
      if (id === state.chains.P) return { subnetID: state.primaryNetworkID };
      const chain = state.blockchains.find((b) => b.id === id);
      if (!chain) throw new RpcFault(`problem getting blockchain's subnet: blockchain ${id} not found`);
      return { subnetID: chain.subnetID };
    })
    .on(path, 'platform.validates', (p) => {
      const id = needString(p, 'subnetID');
      if (!state.subnets.some((sn) => sn.id === id)) throw new RpcFault(`problem getting validated blockchains: subnet ${id} not found`);
      return { blockchainIDs: state.blockchains.filter((b) => b.subnetID === id).map((b) => b.id) };
    });
}
