/** The simulator's data model: every record the network holds, and the state object itself. */
import type { ChainLetter } from '../../codec/index.js';
import type { RealKey } from './keys.js';

export type Chain = ChainLetter;
export type LockState = 'unlocked' | 'bonded' | 'deposited' | 'bondedDeposited';
export type TxStatus = 'Accepted' | 'Processing' | 'Rejected' | 'Unknown' | 'Dropped';
export type AssetKind = 'native' | 'fixedCap' | 'variableCap' | 'nft';

export interface MinterSet {
  minters: string[];
  threshold: number;
}

export interface Asset {
  id: string;
  name: string;
  symbol: string;
  denomination: number;
  kind: AssetKind;
  alias?: string;
  minterSets: MinterSet[];
  /** Transaction that created the asset (the asset ID equals it for non-native assets). */
  createdBy: string;
  timestamp: number;
  /** Units in existence now (minted minus nothing: burnt fees are not subtracted). */
  supply: bigint;
}

export interface UserKey {
  label: string;
  /** `PrivateKey-<cb58>`: a secret, never put it in a log. */
  privateKey: string;
  /** 20-byte short ID; the X and P addresses share it. */
  shortId: Uint8Array;
  bech32: string;
  x: string;
  p: string;
  /** C-chain hex address, lowercase. */
  c: string;
}

export interface KeystoreUser {
  username: string;
  password: string;
  keys: UserKey[];
}

export interface Utxo {
  id: string;
  txID: string;
  outputIndex: number;
  assetID: string;
  amount: bigint;
  /** Chain-prefixed addresses (`X-local1...`). */
  addresses: string[];
  locktime: bigint;
  threshold: number;
  /** The chain on which it can be consumed. */
  chain: Chain;
  /** For atomic UTXOs: the chain they were exported from (they wait in shared memory). */
  sourceChain?: Chain;
  /** P-chain only. */
  lock: LockState;
  /** P-chain locked outputs (caminogo locked.Out lockIDs): the deposit and the bond that hold it. */
  depositTxID?: string;
  bondTxID?: string;
  /** NFT outputs: group and payload (hex). */
  groupID?: number;
  payload?: string;
  /** Spending transaction ID once consumed. */
  spentBy?: string;
  timestamp: number;
}

export interface TxInput {
  utxoID: string;
  txID: string;
  outputIndex: number;
  assetID: string;
  amount: bigint;
  addresses: string[];
}

export interface Tx {
  id: string;
  chain: Chain;
  /** Indexer-style type: base, create_asset, operation, import, export, add_validator, add_delegator, create_subnet, create_chain, deposit, ... */
  type: string;
  status: TxStatus;
  timestamp: number;
  inputs: TxInput[];
  /** IDs of the UTXOs this transaction created, in output order (exported ones included). */
  outputs: string[];
  /** Memo bytes as hex (`0x...`, "0x" when empty). */
  memo: string;
  fee: bigint;
  blockHeight?: number;
  sourceChain?: Chain;
  destinationChain?: Chain;
  /** Signed bytes as the node would return them (hex, with 0x). */
  bytes: string;
  /** Transaction-specific facts (e.g. nodeID of a staking tx, assetID created). */
  details?: Record<string, unknown>;
}

export interface PBlock {
  id: string;
  parentID: string;
  height: number;
  timestamp: number;
  txIDs: string[];
}

export interface CLog {
  address: string;
  topics: string[];
  data: string;
  logIndex: number;
}

export interface CTransaction {
  hash: string;
  blockNumber: number;
  index: number;
  from: string;
  to: string | null;
  value: bigint;
  nonce: number;
  gasPrice: bigint;
  maxFeePerGas: bigint;
  maxPriorityFeePerGas: bigint;
  gasLimit: bigint;
  gasUsed: bigint;
  input: string;
  status: 1 | 0;
  contractAddress: string | null;
  logs: CLog[];
}

export interface CBlock {
  number: number;
  hash: string;
  parentHash: string;
  timestamp: number;
  miner: string;
  gasLimit: bigint;
  gasUsed: bigint;
  baseFeePerGas: bigint;
  extraData: string;
  transactions: CTransaction[];
}

export interface RewardOwner {
  locktime: bigint;
  threshold: number;
  addresses: string[];
}

export interface Delegator {
  txID: string;
  nodeID: string;
  startTime: number;
  endTime: number;
  stakeAmount: bigint;
  rewardOwner: RewardOwner;
  potentialReward: bigint;
}

export interface Validator {
  txID: string;
  nodeID: string;
  subnetID: string;
  startTime: number;
  endTime: number;
  /** Primary network: stake; subnets: weight (the node sends one or the other). */
  stakeAmount: bigint;
  rewardOwner: RewardOwner;
  potentialReward: bigint;
  /** Percent as the node prints it, e.g. "2.0000". */
  delegationFee: string;
  /** Percent as the node prints it, e.g. "99.5000". */
  uptime: string;
  connected: boolean;
  delegators: Delegator[];
}

export interface Subnet {
  id: string;
  controlKeys: string[];
  threshold: number;
}

export interface Blockchain {
  id: string;
  name: string;
  subnetID: string;
  vmID: string;
  /** What platform.getBlockchainStatus answers for this node. */
  status: 'Validating' | 'Created' | 'Preferred' | 'Syncing';
}

export interface DepositOffer {
  id: string;
  interestRateNominator: bigint;
  start: number;
  end: number;
  minAmount: bigint;
  minDuration: number;
  maxDuration: number;
  unlockPeriodDuration: number;
  noRewardsPeriodDuration: number;
  /** base64 */
  memo: string;
  flags: bigint;
  /** Caps of a real node's offer (0 = none); the spec's offer has no such fields. */
  totalMaxAmount?: bigint;
  depositedAmount?: bigint;
  totalMaxRewardAmount?: bigint;
  rewardedAmount?: bigint;
  /** cb58 short ID of an owner whose signed permission each deposit needs (none: ids.ShortEmpty). */
  ownerAddress?: string;
}

/** A P-Chain owner as caminogo's platformapi.Owner: P- addresses, threshold, locktime. */
export interface Owner {
  locktime: bigint;
  threshold: number;
  addresses: string[];
}

/** A deposit (caminogo vms/platformvm/deposit/camino_deposit.go Deposit), keyed by its DepositTx ID. */
export interface Deposit {
  txID: string;
  offerID: string;
  amount: bigint;
  unlockedAmount: bigint;
  claimedRewardAmount: bigint;
  /** Unix seconds. */
  start: number;
  /** Seconds. */
  duration: number;
  rewardOwner: Owner;
}

/** What an owner can claim (caminogo state Claimable): validator rewards and rewards of expired deposits. */
export interface Claimable {
  owner: Owner;
  validatorRewards: bigint;
  expiredDepositRewards: bigint;
}

/** A multisig alias (caminogo multisig.Alias): an address standing for owners with a threshold. */
export interface MultisigAlias {
  /** Bare bech32 address of the alias. */
  address: string;
  /** Memo bytes as 0x hex. */
  memo: string;
  owner: Owner;
}

export interface PlatformConfig {
  networkID: number;
  assetID: string;
  assetSymbol: string;
  hrp: string;
  /** Nanoseconds. */
  minStakeDuration: bigint;
  maxStakeDuration: bigint;
  minValidatorStake: bigint;
  maxValidatorStake: bigint;
  minDelegationFee: number;
  minDelegatorStake: bigint;
  minConsumptionRate: bigint;
  maxConsumptionRate: bigint;
  supplyCap: bigint;
  codecVersion: number;
  verifyNodeSignature: boolean;
  lockModeBondDeposit: boolean;
}

/** Address state flag values of the spec's table (bit numbers of the bitmask). */
export const ADDRESS_STATE = {
  AddressStateRoleAdmin: 0,
  AddressStateRoleKyc: 1,
  AddressStateKycVerified: 32,
  AddressStateKycExpired: 33,
  AddressStateConsortium: 38,
  AddressStateNodeDeferred: 39,
  AddressStateRoleOffersAdmin: 2,
  AddressStateOffersCreator: 50,
} as const;

export interface DevnetState {
  networkID: number;
  networkName: string;
  hrp: string;
  assetSymbol: string;
  nodeID: string;
  nodeIP: string;
  version: { version: string; databaseVersion: string; gitCommit: string; vmVersions: Record<string, string> };
  chains: Record<'X' | 'P' | 'C', string>;
  vms: Record<string, string[]>;
  bootstrapped: Set<string>;
  fees: { txFee: bigint; creationTxFee: bigint };
  peers: Array<{
    ip: string;
    publicIP: string;
    nodeID: string;
    version: string;
    lastSent: string;
    lastReceived: string;
    benched: string[];
    observedUptime: string;
  }>;
  uptime: { rewardingStakePercentage: number; weightedAveragePercentage: number };
  /** Simulated clock in Unix seconds; tests move it. */
  now(): number;

  // --- network model (see the comment at the top) ---
  /** Unix seconds at creation; seed times are relative to it. */
  genesisTime: number;
  config: PlatformConfig;
  primaryNetworkID: string;
  nativeAssetID: string;
  /** Alias usable in place of the native asset ID (xvm calls). */
  nativeAssetAlias: string;
  assets: Map<string, Asset>;
  users: Map<string, KeystoreUser>;
  utxos: Map<string, Utxo>;
  txs: Map<string, Tx>;
  pBlocks: PBlock[];
  cBlocks: CBlock[];
  cBalances: Map<string, bigint>;
  cNonces: Map<string, number>;
  /** Asset balances on C other than the native one: address -> assetID -> amount. */
  cAssetBalances: Map<string, Map<string, bigint>>;
  /** EVM chain ID of the contract chain. */
  evmChainId: number;
  cBaseFee: bigint;
  cPriorityFee: bigint;
  /** When set, /ext/bc/C/rpc and /ext/bc/C/ws are forwarded to this real EVM node (anvil). */
  evmUpstream?: { url: string; wsUrl: string };
  /** Called with every new C-chain block (the devnet's own eth_subscribe feeds on it). */
  cBlockListeners: Set<(block: CBlock) => void>;
  validators: Validator[];
  pendingValidators: Validator[];
  pendingDelegators: Delegator[];
  subnets: Subnet[];
  blockchains: Blockchain[];
  depositOffers: DepositOffer[];
  /** DepositTx ID -> deposit (platform.getDeposits). */
  deposits: Map<string, Deposit>;
  /** Claimable rewards per owner (platform.getClaimables), matched on the exact owner. */
  claimables: Claimable[];
  /** Bare alias address -> multisig alias (platform.getMultisigAlias). */
  multisigAliases: Map<string, MultisigAlias>;
  /** Registered node links (platform.getRegisteredShortIDLink): NodeID-… -> the consortium member's P- address. */
  nodeLinks: Map<string, string>;
  /** Unix seconds when the Athens phase starts (platform.getUpgradePhases). */
  athensPhaseTime: number;
  /** Bare bech32 address (`local1...`) -> bitmask. */
  addressStates: Map<string, bigint>;
  /** Current supply upper bound (platform.getCurrentSupply), smallest units. */
  supply: bigint;
  /** Staking/delegation tx ID -> reward UTXO IDs. */
  rewardUtxos: Map<string, string[]>;
  /** Whether xvm.getAddressTxs works (`index-transactions`). */
  indexTransactions: boolean;
  /**
   * Whether the node serves its keystore (`--api-keystore-enabled`). Off, a real node still has the
   * keystore-backed methods, but every user is refused (REAL-WIRE.md "Keystore API off").
   */
  keystoreApi: boolean;
  /** The local signer's account (a real key; its private key only in the devnet handle). */
  localKey?: RealKey;
  /** The devnet keystore user's name (`devnet`). */
  devnetUser: string;
  /** Counter for deterministic labels of new objects. */
  seq: number;
}
