import { cb58Decode, hexToBytes, parseNodeId } from '../../codec/index.js';
import { type Params, RpcFault, type RpcRouter, needString, needUint } from '../rpc.js';
import { ADDRESS_STATE, addTx, bareAddress, type DevnetState, type KeystoreUser, type Validator } from '../state.js';
import { needKey, needUser } from './keystore.admin.js';
import { needAddress } from './platform.js';
import { changeAddress, changeOutputs, owners, pay } from './xvm.spend.js';

/**
 * Platform chain transactions (/ext/P, spec document 3): stakers go to the pending set,
 * subnets and blockchains with control-key checks, native exports to X, address states
 * with the role rules. Times use the devnet clock (Unix seconds).
 */

const NANOS = 1_000_000_000n;
const UNIT = 1_000_000_000n;

function needNodeId(p: Params): string {
  const nodeID = needString(p, 'nodeID');
  try {
    parseNodeId(nodeID);
  } catch (err) {
    throw new RpcFault(`couldn't parse nodeID: ${(err as Error).message}`);
  }
  return nodeID;
}

function period(state: DevnetState, p: Params): { start: number; end: number } {
  const start = Number(needUint(p, 'startTime'));
  const end = Number(needUint(p, 'endTime'));
  if (start <= state.now()) throw new RpcFault('start time must be in the future');
  if (end <= start) throw new RpcFault('end time must be after start time');
  return { start, end };
}

/** Moves `stake` of the user's unlocked P funds into a bonded UTXO (and pays `fee`); returns the tx. */
function bond(state: DevnetState, user: KeystoreUser, p: Params, type: string, stake: bigint, fee: bigint, details: Record<string, unknown>) {
  const from = owners(state, user, 'P', p.from);
  const changeAddr = changeAddress(state, user, 'P', p);
  const { inputs, change } = pay(state, 'P', from, new Map([[state.nativeAssetID, stake + fee]]));
  const outputs = [
    ...(stake > 0n ? [{ assetID: state.nativeAssetID, amount: stake, addresses: [from[0]!], chain: 'P' as const, lock: 'bonded' as const }] : []),
    ...changeOutputs(change, changeAddr, 'P'),
  ];
  return { tx: addTx(state, { chain: 'P', type, inputs, outputs, fee, details }), changeAddr };
}

/**
 * A Camino node in lock mode builds a CaminoAddValidatorTx that the node owner's key signs
 * (caminogo service.go AddValidator, txs/builder/camino_builder.go): the address must parse
 * and the keystore user must hold its key.
 */
function nodeOwner(state: DevnetState, user: KeystoreUser, p: Params): string {
  let owner: string;
  try {
    owner = needAddress(state, p.nodeOwnerAddress ?? '', ['P']);
  } catch (err) {
    throw new RpcFault(`problem while parsing node owner address: ${(err as Error).message}`);
  }
  if (!user.keys.some((k) => k.bech32 === bareAddress(owner))) throw new RpcFault('unable to spend this UTXO');
  return owner;
}

function primaryValidator(state: DevnetState, nodeID: string): Validator | undefined {
  return [...state.validators, ...state.pendingValidators].find((v) => v.nodeID === nodeID && v.subnetID === state.primaryNetworkID);
}

/** The user must hold `threshold` of the subnet's control keys. */
function subnetAuth(state: DevnetState, user: KeystoreUser, subnetID: string) {
  if (subnetID === state.primaryNetworkID) throw new RpcFault('the Primary Network cannot be used here');
  const subnet = state.subnets.find((s) => s.id === subnetID);
  if (!subnet) throw new RpcFault(`subnet ${subnetID} not found`);
  const mine = new Set(user.keys.map((k) => k.bech32));
  const held = subnet.controlKeys.filter((k) => mine.has(bareAddress(k))).length;
  if (held < subnet.threshold) throw new RpcFault(`user "${user.username}" holds ${held} of the ${subnet.threshold} control keys needed for subnet ${subnetID}`);
  return subnet;
}

const VM_ALIASES: Record<string, string> = {
  xvm: 'jvYyfQTxGMJLuGWa55kdP2p2zSUYsQ5Raupu4TW34ZAUBAbtq',
  timestamp: 'tGas3T58KzdjLHhBDMnH2TvrddhqTji5iZAMZ3RXs2NLpSnhH',
};

export function registerPlatformSpend(router: RpcRouter, state: DevnetState): void {
  const path = '/ext/P';
  router
    .on(path, 'platform.addValidator', (p) => {
      const user = needUser(state, p);
      const nodeID = needNodeId(p);
      const { start, end } = period(state, p);
      const length = BigInt(end - start) * NANOS;
      if (length < state.config.minStakeDuration) throw new RpcFault('staking period is too short: at least 2 weeks');
      if (length > state.config.maxStakeDuration) throw new RpcFault('staking period is too long: at most 1 year');
      const stake = needUint(p, 'stakeAmount');
      if (stake !== state.config.minValidatorStake) throw new RpcFault(`validator stake must be ${state.config.minValidatorStake}, got ${stake}`);
      const rate = Number(p.delegationFeeRate);
      if (!Number.isFinite(rate) || rate < 0 || rate > 100) throw new RpcFault('delegationFeeRate must be between 0 and 100');
      if (rate * 10_000 < state.config.minDelegationFee) throw new RpcFault(`delegation fee ${rate} is below the minimum of ${state.config.minDelegationFee / 10_000} percent`);
      if (router.dialect === 'camino' && state.config.lockModeBondDeposit) nodeOwner(state, user, p);
      const reward = needAddress(state, p.rewardAddress, ['P']);
      if (primaryValidator(state, nodeID)) throw new RpcFault(`${nodeID} is already a validator of the Primary Network`);
      const { tx, changeAddr } = bond(state, user, p, 'add_validator', stake, 0n, { nodeID });
      state.pendingValidators.push({
        txID: tx.id,
        nodeID,
        subnetID: state.primaryNetworkID,
        startTime: start,
        endTime: end,
        stakeAmount: stake,
        rewardOwner: { locktime: 0n, threshold: 1, addresses: [reward] },
        potentialReward: 0n,
        delegationFee: (Math.floor(rate * 10_000) / 10_000).toFixed(4),
        uptime: '0.0000',
        connected: false,
        delegators: [],
      });
      return { txID: tx.id, changeAddr };
    })
    .on(path, 'platform.addDelegator', (p) => {
      // caminogo camino_tx_executor.go AddDelegatorTx: refused whenever lockModeBondDeposit is on.
      if (router.dialect === 'camino' && state.config.lockModeBondDeposit) throw new RpcFault('wrong transaction type');
      const user = needUser(state, p);
      const nodeID = needNodeId(p);
      const { start, end } = period(state, p);
      const v = primaryValidator(state, nodeID);
      if (!v) throw new RpcFault(`${nodeID} is not a validator of the Primary Network`);
      if (start < v.startTime || end > v.endTime) throw new RpcFault('delegation period must be a subset of the validation period');
      const stake = needUint(p, 'stakeAmount');
      if (stake < state.config.minDelegatorStake) throw new RpcFault(`stake ${stake} is below the minimum delegator stake ${state.config.minDelegatorStake}`);
      const cap = v.stakeAmount * 5n < 3_000_000n * UNIT ? v.stakeAmount * 5n : 3_000_000n * UNIT;
      const delegated = [...v.delegators, ...state.pendingDelegators.filter((d) => d.nodeID === nodeID)].reduce((s, d) => s + d.stakeAmount, 0n);
      if (v.stakeAmount + delegated + stake > cap) throw new RpcFault(`validator would exceed its maximum weight of ${cap}`);
      const reward = needAddress(state, p.rewardAddress, ['P']);
      const { tx, changeAddr } = bond(state, user, p, 'add_delegator', stake, 0n, { nodeID });
      state.pendingDelegators.push({
        txID: tx.id,
        nodeID,
        startTime: start,
        endTime: end,
        stakeAmount: stake,
        rewardOwner: { locktime: 0n, threshold: 1, addresses: [reward] },
        potentialReward: 0n,
      });
      return { txID: tx.id, changeAddr };
    })
    .on(path, 'platform.addSubnetValidator', (p) => {
      const user = needUser(state, p);
      const nodeID = needNodeId(p);
      const subnetID = needString(p, 'subnetID');
      subnetAuth(state, user, subnetID);
      const { start, end } = period(state, p);
      const weight = needUint(p, 'weight');
      if (weight === 0n) throw new RpcFault('weight must be positive');
      const v = primaryValidator(state, nodeID);
      if (!v || start < v.startTime || end > v.endTime) throw new RpcFault('the node must validate the Primary Network for the whole subnet validation period');
      const { tx, changeAddr } = bond(state, user, p, 'add_subnet_validator', 0n, state.fees.txFee, { nodeID, subnetID });
      state.pendingValidators.push({
        txID: tx.id,
        nodeID,
        subnetID,
        startTime: start,
        endTime: end,
        stakeAmount: weight,
        rewardOwner: { locktime: 0n, threshold: 1, addresses: [] },
        potentialReward: 0n,
        delegationFee: '0.0000',
        uptime: '0.0000',
        connected: false,
        delegators: [],
      });
      return { txID: tx.id, changeAddr };
    })
    .on(path, 'platform.createSubnet', (p) => {
      const user = needUser(state, p);
      const controlKeys = Array.isArray(p.controlKeys) ? p.controlKeys.map((k) => needAddress(state, k, ['P'])) : [];
      const threshold = Number(p.threshold);
      if (controlKeys.length === 0) throw new RpcFault('controlKeys must not be empty');
      if (!Number.isInteger(threshold) || threshold < 1 || threshold > controlKeys.length) throw new RpcFault('threshold must be between 1 and the number of control keys');
      const { tx, changeAddr } = bond(state, user, p, 'create_subnet', 0n, state.fees.txFee, { controlKeys });
      state.subnets.push({ id: tx.id, controlKeys, threshold });
      return { txID: tx.id, changeAddr };
    })
    .on(path, 'platform.createBlockchain', (p) => {
      const user = needUser(state, p);
      const subnetID = needString(p, 'subnetID');
      subnetAuth(state, user, subnetID);
      const vmRaw = needString(p, 'vmID');
      const vmID = VM_ALIASES[vmRaw] ?? vmRaw;
      if (!Object.values(VM_ALIASES).includes(vmID)) throw new RpcFault(`unsupported VM ${vmRaw}: only the asset VM and the timestamp VM can be instantiated`);
      const name = needString(p, 'name');
      const genesis = needString(p, 'genesisData');
      try {
        if (p.encoding === 'hex') hexToBytes(genesis);
        else cb58Decode(genesis);
      } catch (err) {
        throw new RpcFault(`problem decoding genesisData: ${(err as Error).message}`);
      }
      const { tx, changeAddr } = bond(state, user, p, 'create_blockchain', 0n, state.fees.txFee, { subnetID, vmID, name });
      state.blockchains.push({ id: tx.id, name, subnetID, vmID, status: 'Created' });
      return { txID: tx.id, changeAddr };
    })
    .on(path, 'platform.exportNative', (p) => {
      const user = needUser(state, p);
      const amount = needUint(p, 'amount');
      if (amount === 0n) throw new RpcFault('amount must be positive');
      const to = needAddress(state, p.to, ['X']);
      const from = owners(state, user, 'P', p.from);
      const changeAddr = changeAddress(state, user, 'P', p);
      const { inputs, change } = pay(state, 'P', from, new Map([[state.nativeAssetID, amount + state.fees.txFee]]));
      const tx = addTx(state, {
        chain: 'P',
        type: 'export',
        inputs,
        outputs: [{ assetID: state.nativeAssetID, amount, addresses: [to], chain: 'X' }, ...changeOutputs(change, changeAddr, 'P')],
        fee: state.fees.txFee,
        destinationChain: 'X',
      });
      return { txID: tx.id, changeAddr };
    })
    .on(path, 'platform.setAddressState', (p) => {
      const user = needUser(state, p);
      const address = needAddress(state, p.address, ['P']);
      const flag = Number(p.state);
      if (!(Object.values(ADDRESS_STATE) as number[]).includes(flag)) throw new RpcFault(`invalid address state ${String(p.state)}`);
      const signers = owners(state, user, 'P', p.from);
      const roles = signers.reduce((mask, a) => mask | (state.addressStates.get(bareAddress(a)) ?? 0n), 0n);
      const has = (bit: number) => (roles & (1n << BigInt(bit))) !== 0n;
      const kyc = flag === ADDRESS_STATE.AddressStateKycVerified || flag === ADDRESS_STATE.AddressStateKycExpired;
      // Roles and the other flags need the admin role; KYC flags the KYC role. The validator role's value is not shown, so admin stands in for it.
      const allowed = kyc ? has(ADDRESS_STATE.AddressStateRoleKyc) : has(ADDRESS_STATE.AddressStateRoleAdmin);
      if (!allowed) throw new RpcFault(`not permitted: the signer lacks the role needed to change address state ${flag}`);
      const remove = p.remove === true;
      const { tx } = bond(state, user, p, 'address_state', 0n, state.fees.txFee, { address, state: flag, remove });
      const bare = bareAddress(address);
      const bit = 1n << BigInt(flag);
      const current = state.addressStates.get(bare) ?? 0n;
      state.addressStates.set(bare, remove ? current & ~bit : current | bit);
      return { txID: tx.id };
    })
    .on(path, 'platform.exportKey', (p) => {
      const user = needUser(state, p);
      return { privateKey: needKey(user, needAddress(state, p.address, ['P'])).privateKey };
    });
}
