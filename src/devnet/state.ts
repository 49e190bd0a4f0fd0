/**
 * The simulator's one in-memory network. Every endpoint family (node JSON-RPC and the
 * indexer) reads and changes this object, so node and indexer tell one consistent story.
 * It is a test double, not a node: it never claims consensus.
 *
 * The model (all IDs are real-looking encodings: cb58 over sha256 of a label, bech32
 * addresses with the network's hrp over 20-byte payloads, node IDs via formatNodeId):
 * - `config`: what platform.getConfiguration answers (durations in nanoseconds, bigint).
 * - `assets`: by asset ID; the native asset (9 decimals, symbol `assetSymbol`), a fixed-cap,
 *   a variable-cap (with minter sets) and an NFT asset. `supply` is what exists now.
 * - `users`: keystore users; each owns keys, and one key gives the same bech32 payload on
 *   X and P (`X-local1...`, `P-local1...`) and a C hex address (`0x...`).
 * - `utxos`: every output ever created, by UTXO ID, spent or not (`spentBy`). `chain` is
 *   where it can be consumed; an atomic UTXO (in shared memory, waiting for an import)
 *   has `sourceChain` = the chain it was exported from. P-chain UTXOs carry a lock state.
 *   Addresses are chain-prefixed (`X-local1...`, `P-...`, `C-...` for atomic UTXOs on C).
 * - `txs`: every X/P/C(atomic) transaction, by ID: inputs (spent UTXO IDs with their
 *   amounts), outputs (UTXO IDs it created, including exported ones), status, block height.
 * - `pBlocks`: platform-chain blocks (height = index); `cBlocks`: contract-chain blocks
 *   with EVM transactions (for the indexer and the devnet's own EVM answers);
 *   `cBalances`: wei per lowercase 0x address; `cNonces`.
 * - `validators` (current, with delegators), `pendingValidators`, `pendingDelegators`,
 *   `subnets`, `blockchains`, `depositOffers`, `addressStates` (bitmask per bare bech32),
 *   `rewardUtxos` (staking tx ID -> reward UTXO IDs), `supply`, height = pBlocks.length-1.
 *
 * Change state only through the functions below (createUtxo, spendUtxos, addTx,
 * addCBlock, ...) so that balances, transactions and the indexer's views stay consistent.
 * Seed data is deterministic apart from times, which are relative to the creation time.
 */
import { createHash } from 'node:crypto';
import { bech32 as scureBech32 } from '@scure/base';
import {
  cb58Decode,
  cb58Encode,
  formatBareBech32,
  formatCb58Id,
  formatChainAddress,
  formatNodeId,
  type ChainLetter,
} from '../codec/index.js';

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
  /** Bare bech32 address (`local1...`) -> bitmask. */
  addressStates: Map<string, bigint>;
  /** Current supply upper bound (platform.getCurrentSupply), smallest units. */
  supply: bigint;
  /** Staking/delegation tx ID -> reward UTXO IDs. */
  rewardUtxos: Map<string, string[]>;
  /** Whether xvm.getAddressTxs works (`index-transactions`). */
  indexTransactions: boolean;
  /** The devnet keystore user's name (`devnet`). */
  devnetUser: string;
  /** Counter for deterministic labels of new objects. */
  seq: number;
}

// ---------------------------------------------------------------------------
// Deterministic encodings

export function sha256(data: string | Uint8Array): Uint8Array {
  return new Uint8Array(createHash('sha256').update(data).digest());
}

/** A cb58 32-byte ID derived from a label. */
export function idFor(label: string): string {
  return formatCb58Id(sha256(label));
}

/** A 20-byte short ID derived from a label. */
export function shortIdFor(label: string): Uint8Array {
  return sha256(`short:${label}`).slice(0, 20);
}

export function nodeIdFor(label: string): string {
  return formatNodeId(sha256(`node:${label}`).slice(0, 20));
}

export function hexAddressFor(label: string): string {
  return `0x${Buffer.from(sha256(`evm:${label}`).slice(0, 20)).toString('hex')}`;
}

export function hexHashFor(label: string): string {
  return `0x${Buffer.from(sha256(`hash:${label}`)).toString('hex')}`;
}

/** Chain-prefixed address for a label on this network. */
export function addressFor(state: Pick<DevnetState, 'hrp'>, chain: Chain, label: string): string {
  return formatChainAddress(chain, state.hrp, shortIdFor(label));
}

/** Strips the chain prefix: `X-local1abc` -> `local1abc`. */
export function bareAddress(address: string): string {
  const dash = address.indexOf('-');
  return dash >= 0 ? address.slice(dash + 1) : address;
}

export function utxoIdFor(txID: string, outputIndex: number): string {
  return idFor(`utxo:${txID}:${outputIndex}`);
}

export function makeKey(hrp: string, label: string): UserKey {
  const shortId = shortIdFor(label);
  const bech32 = formatBareBech32(hrp, shortId);
  return {
    label,
    privateKey: `PrivateKey-${cb58Encode(sha256(`key:${label}`))}`,
    shortId,
    bech32,
    x: `X-${bech32}`,
    p: `P-${bech32}`,
    c: hexAddressFor(label),
  };
}

// ---------------------------------------------------------------------------
// Wire encodings of UTXOs and transactions (the simulator's own, stable and decodable)

const SECP_TRANSFER_OUTPUT = 7;
const NFT_TRANSFER_OUTPUT = 11;

function u16(n: number): Buffer {
  const b = Buffer.alloc(2);
  b.writeUInt16BE(n);
  return b;
}
function u32(n: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n);
  return b;
}
function u64(n: bigint): Buffer {
  const b = Buffer.alloc(8);
  b.writeBigUInt64BE(n);
  return b;
}

function idBytes(id: string): Buffer {
  // IDs are made by idFor/formatCb58Id; decode by re-deriving would be impossible, so keep
  // a reverse table filled as IDs are produced by the state functions.
  const bytes = ID_BYTES.get(id);
  if (bytes) return Buffer.from(bytes);
  // An ID made elsewhere (a test's own asset) decodes as a node would decode it.
  try {
    const decoded = cb58Decode(id);
    if (decoded.length === 32) return Buffer.from(decoded);
  } catch {
    // not cb58: fall through
  }
  return Buffer.from(sha256(`unknown:${id}`));
}
const ID_BYTES = new Map<string, Uint8Array>();
function rememberId(bytes: Uint8Array): string {
  const id = formatCb58Id(bytes);
  ID_BYTES.set(id, bytes);
  return id;
}
function registeredId(label: string): string {
  return rememberId(sha256(label));
}

function addressBytes(address: string): Buffer {
  const bare = bareAddress(address);
  const bytes = ADDRESS_BYTES.get(bare);
  return Buffer.from(bytes ?? sha256(`unknown:${bare}`).slice(0, 20));
}
const ADDRESS_BYTES = new Map<string, Uint8Array>();

/**
 * The codec form of a UTXO as xvm.getUTXOs returns it: codec version (u16), txID (32),
 * output index (u32), asset ID (32), output type ID (u32: 7 secp256k1 transfer, 11 NFT
 * transfer), then for type 7 amount (u64), locktime (u64), threshold (u32), address
 * count (u32), 20-byte addresses; for type 11 group ID (u32), payload length (u32),
 * payload, locktime, threshold, addresses.
 */
export function encodeUtxo(u: Utxo): Uint8Array {
  const addrs = [...u.addresses].map(addressBytes).sort(Buffer.compare);
  const owners = Buffer.concat([u64(u.locktime), u32(u.threshold), u32(addrs.length), ...addrs]);
  const head = Buffer.concat([u16(0), idBytes(u.txID), u32(u.outputIndex), idBytes(u.assetID)]);
  if (u.groupID !== undefined) {
    const payload = Buffer.from((u.payload ?? '0x').slice(2), 'hex');
    return new Uint8Array(Buffer.concat([head, u32(NFT_TRANSFER_OUTPUT), u32(u.groupID), u32(payload.length), payload, owners]));
  }
  return new Uint8Array(Buffer.concat([head, u32(SECP_TRANSFER_OUTPUT), u64(u.amount), owners]));
}

/** Hex (0x...) with the 4-byte checksum, as nodes send `hex` encodings. */
export function hexWithChecksum(bytes: Uint8Array): string {
  const sum = sha256(bytes).slice(-4);
  return `0x${Buffer.concat([Buffer.from(bytes), Buffer.from(sum)]).toString('hex')}`;
}

/** A UTXO in the requested wire encoding (`cb58` default, `hex`). */
export function utxoString(u: Utxo, encoding: string): string {
  const bytes = encodeUtxo(u);
  return encoding === 'hex' ? hexWithChecksum(bytes) : cb58Encode(bytes);
}

/** The JSON form of a transaction (`encoding: json` of xvm.getTx / platform.getBlock). */
export function txJson(state: DevnetState, tx: Tx): Record<string, unknown> {
  const outputs = tx.outputs.map((id) => state.utxos.get(id)!).filter(Boolean);
  const outputJson = (u: Utxo) => ({
    assetID: u.assetID,
    fxID: 'spdfYwFdpGCLEYp2kjbr6UrdYjMxtfinYkKAvWoA5jdRyjBPw',
    output:
      u.groupID !== undefined
        ? { groupID: u.groupID, payload: u.payload, addresses: u.addresses, locktime: u.locktime, threshold: u.threshold }
        : // Plain Go uint64 fields: bare JSON numbers, every digit (the router writes bigints bare).
          { addresses: u.addresses, amount: u.amount, locktime: u.locktime, threshold: u.threshold },
  });
  const local = outputs.filter((u) => u.chain === tx.chain && !u.sourceChain);
  const exported = outputs.filter((u) => u.sourceChain === tx.chain && u.chain !== tx.chain);
  const inputJson = (i: TxInput) => ({
    txID: i.txID,
    outputIndex: i.outputIndex,
    assetID: i.assetID,
    fxID: 'spdfYwFdpGCLEYp2kjbr6UrdYjMxtfinYkKAvWoA5jdRyjBPw',
    input: { amount: i.amount, signatureIndices: [0] },
  });
  const unsignedTx: Record<string, unknown> = {
    networkID: state.networkID,
    blockchainID: state.chains[tx.chain],
    outputs: local.map(outputJson),
    inputs: tx.sourceChain ? [] : tx.inputs.map(inputJson),
    memo: tx.memo,
  };
  if (tx.sourceChain) {
    unsignedTx.sourceChain = state.chains[tx.sourceChain];
    unsignedTx.importedInputs = tx.inputs.map(inputJson);
  }
  if (tx.destinationChain) {
    unsignedTx.destinationChain = state.chains[tx.destinationChain];
    unsignedTx.exportedOutputs = exported.map(outputJson);
  }
  if (tx.details) Object.assign(unsignedTx, tx.details);
  const signatures = tx.inputs.map((i) => `0x${Buffer.from(sha256(`sig:${i.utxoID}`)).toString('hex')}${'00'.repeat(33)}`);
  return {
    unsignedTx,
    credentials: signatures.map((sig) => ({ fxID: 'spdfYwFdpGCLEYp2kjbr6UrdYjMxtfinYkKAvWoA5jdRyjBPw', credential: { signatures: [sig] } })),
  };
}

/** A transaction's bytes in the requested encoding (`cb58` default, `hex`). */
export function txString(tx: Tx, encoding: string): string {
  const bytes = Buffer.from(tx.bytes.slice(2), 'hex');
  return encoding === 'hex' ? hexWithChecksum(bytes) : cb58Encode(bytes);
}

// ---------------------------------------------------------------------------
// State changes

export interface NewUtxo {
  assetID: string;
  amount: bigint;
  addresses: string[];
  chain: Chain;
  locktime?: bigint;
  threshold?: number;
  sourceChain?: Chain;
  lock?: LockState;
  groupID?: number;
  payload?: string;
}

/** Creates one UTXO (output `outputIndex` of `txID`) and records it. */
export function createUtxo(state: DevnetState, txID: string, outputIndex: number, out: NewUtxo): Utxo {
  const id = rememberId(sha256(`utxo:${txID}:${outputIndex}`));
  for (const a of out.addresses) ADDRESS_BYTES.set(bareAddress(a), shortIdOf(a));
  const utxo: Utxo = {
    id,
    txID,
    outputIndex,
    assetID: out.assetID,
    amount: out.amount,
    addresses: [...out.addresses],
    locktime: out.locktime ?? 0n,
    threshold: out.threshold ?? 1,
    chain: out.chain,
    lock: out.lock ?? 'unlocked',
    timestamp: state.now(),
  };
  if (out.sourceChain) utxo.sourceChain = out.sourceChain;
  if (out.groupID !== undefined) utxo.groupID = out.groupID;
  if (out.payload !== undefined) utxo.payload = out.payload;
  state.utxos.set(id, utxo);
  return utxo;
}

function shortIdOf(address: string): Uint8Array {
  const known = ADDRESS_BYTES.get(bareAddress(address));
  if (known) return known;
  // Decode the bech32 payload without importing the parser into the hot path.
  return decodeBech32Payload(bareAddress(address));
}

function decodeBech32Payload(text: string): Uint8Array {
  try {
    const { words } = scureBech32.decode(text as `${string}1${string}`, 90);
    return scureBech32.fromWords(words);
  } catch {
    return sha256(`unknown:${text}`).slice(0, 20);
  }
}

/** Marks UTXOs spent by `txID`; throws if one is unknown or already spent. */
export function spendUtxos(state: DevnetState, ids: string[], txID: string): Utxo[] {
  const spent: Utxo[] = [];
  for (const id of ids) {
    const u = state.utxos.get(id);
    if (!u) throw new Error(`utxo ${id} not found`);
    if (u.spentBy) throw new Error(`utxo ${id} already spent by ${u.spentBy}`);
    spent.push(u);
  }
  for (const u of spent) u.spentBy = txID;
  return spent;
}

/** Whether an address string (chain-prefixed or bare) is among a UTXO's owners. */
function owns(u: Utxo, address: string): boolean {
  const bare = bareAddress(address);
  return u.addresses.some((a) => bareAddress(a) === bare);
}

/**
 * Unspent UTXOs on `chain` owned by any of `addresses` (bare or prefixed). With
 * `sourceChain`, only atomic UTXOs exported from it; without, only the chain's own.
 */
export function utxosOf(state: DevnetState, chain: Chain, addresses: string[], opts: { sourceChain?: Chain } = {}): Utxo[] {
  const out: Utxo[] = [];
  for (const u of state.utxos.values()) {
    if (u.spentBy || u.chain !== chain) continue;
    if ((u.sourceChain ?? undefined) !== opts.sourceChain) continue;
    if (addresses.some((a) => owns(u, a))) out.push(u);
  }
  return out;
}

/** Unspent balance of `assetID` for `address` on `chain` (own UTXOs only, not atomic). */
export function balanceOf(state: DevnetState, chain: Chain, address: string, assetID: string, opts: { lock?: LockState } = {}): bigint {
  let total = 0n;
  for (const u of utxosOf(state, chain, [address])) {
    if (u.assetID !== assetID) continue;
    if (opts.lock && u.lock !== opts.lock) continue;
    total += u.amount;
  }
  return total;
}

export interface NewTx {
  chain: Chain;
  type: string;
  /** UTXO IDs consumed (local ones, or atomic ones for an import). */
  inputs: string[];
  /** Outputs in order; an output whose `chain` differs from the tx's chain is exported. */
  outputs: NewUtxo[];
  memo?: string;
  fee?: bigint;
  status?: TxStatus;
  timestamp?: number;
  sourceChain?: Chain;
  destinationChain?: Chain;
  details?: Record<string, unknown>;
  /** For P-chain txs: put the tx in a new block (default true when accepted). */
  newBlock?: boolean;
  /** Give the ID explicitly (e.g. an asset ID label); default derived from the content. */
  label?: string;
}

/**
 * Records a transaction: spends its inputs, creates its outputs (exported outputs become
 * atomic UTXOs on the destination chain with `sourceChain` = this chain), puts accepted
 * P-chain transactions into a new block and returns the Tx. Rejected or dropped
 * transactions change no UTXOs.
 */
export function addTx(state: DevnetState, spec: NewTx): Tx {
  state.seq += 1;
  const status = spec.status ?? 'Accepted';
  const timestamp = spec.timestamp ?? state.now();
  const inputUtxos = spec.inputs.map((id) => {
    const u = state.utxos.get(id);
    if (!u) throw new Error(`utxo ${id} not found`);
    return u;
  });
  const body = JSON.stringify({
    seq: spec.label ?? state.seq,
    chain: spec.chain,
    type: spec.type,
    inputs: spec.inputs,
    outputs: spec.outputs.map((o) => ({ ...o, amount: String(o.amount), locktime: String(o.locktime ?? 0n) })),
    memo: spec.memo ?? '0x',
  });
  const bytes = Buffer.concat([u16(0), Buffer.from(body, 'utf8')]);
  const id = spec.label ? registeredId(spec.label) : rememberId(sha256(bytes));
  const tx: Tx = {
    id,
    chain: spec.chain,
    type: spec.type,
    status,
    timestamp,
    inputs: inputUtxos.map((u) => ({
      utxoID: u.id,
      txID: u.txID,
      outputIndex: u.outputIndex,
      assetID: u.assetID,
      amount: u.amount,
      addresses: u.addresses,
    })),
    outputs: [],
    memo: spec.memo ?? '0x',
    fee: spec.fee ?? 0n,
    bytes: `0x${bytes.toString('hex')}`,
  };
  if (spec.sourceChain) tx.sourceChain = spec.sourceChain;
  if (spec.destinationChain) tx.destinationChain = spec.destinationChain;
  if (spec.details) tx.details = spec.details;
  const changes = status === 'Accepted' || status === 'Processing';
  if (changes) {
    spendUtxos(state, spec.inputs, id);
    spec.outputs.forEach((o, i) => {
      const exported = o.chain !== spec.chain;
      const u = createUtxo(state, id, i, exported ? { ...o, sourceChain: o.sourceChain ?? spec.chain } : o);
      u.timestamp = timestamp;
      tx.outputs.push(u.id);
    });
  }
  if (status === 'Accepted' && spec.chain === 'P' && spec.newBlock !== false) {
    tx.blockHeight = addPBlock(state, [id], timestamp).height;
  } else if (status === 'Accepted' && spec.chain === 'C') {
    tx.blockHeight = state.cBlocks.length > 0 ? state.cBlocks[state.cBlocks.length - 1]!.number : 0;
  }
  state.txs.set(id, tx);
  return tx;
}

export function addPBlock(state: DevnetState, txIDs: string[], timestamp = state.now()): PBlock {
  const parent = state.pBlocks[state.pBlocks.length - 1];
  const height = state.pBlocks.length;
  const block: PBlock = {
    id: registeredId(`pblock:${height}:${txIDs.join(',')}`),
    parentID: parent?.id ?? registeredId('pblock:genesis-parent'),
    height,
    timestamp,
    txIDs,
  };
  state.pBlocks.push(block);
  return block;
}

/** Height of the last accepted P-chain block. */
export function pHeight(state: DevnetState): number {
  return state.pBlocks.length - 1;
}

export interface NewCTx {
  from: string;
  to: string | null;
  value: bigint;
  input?: string;
  gasLimit?: bigint;
  gasUsed?: bigint;
  status?: 1 | 0;
  logs?: Array<Omit<CLog, 'logIndex'>>;
}

/** Appends a C-chain block with the given EVM transactions; moves wei and nonces. */
export function addCBlock(state: DevnetState, txs: NewCTx[], timestamp = state.now()): CBlock {
  const parent = state.cBlocks[state.cBlocks.length - 1];
  const number = state.cBlocks.length;
  let logIndex = 0;
  const transactions: CTransaction[] = txs.map((t, index) => {
    const from = t.from.toLowerCase();
    const nonce = state.cNonces.get(from) ?? 0;
    state.cNonces.set(from, nonce + 1);
    const gasUsed = t.gasUsed ?? 21_000n;
    const gasPrice = state.cBaseFee + state.cPriorityFee;
    const ok = t.status ?? 1;
    const fee = gasUsed * gasPrice;
    state.cBalances.set(from, (state.cBalances.get(from) ?? 0n) - fee - (ok ? t.value : 0n));
    if (ok && t.to) state.cBalances.set(t.to.toLowerCase(), (state.cBalances.get(t.to.toLowerCase()) ?? 0n) + t.value);
    const hash = hexHashFor(`ctx:${number}:${index}:${from}:${nonce}`);
    return {
      hash,
      blockNumber: number,
      index,
      from,
      to: t.to ? t.to.toLowerCase() : null,
      value: t.value,
      nonce,
      gasPrice,
      maxFeePerGas: state.cBaseFee * 2n,
      maxPriorityFeePerGas: state.cPriorityFee,
      gasLimit: t.gasLimit ?? 21_000n,
      gasUsed,
      input: t.input ?? '0x',
      status: ok,
      contractAddress: t.to ? null : hexAddressFor(`contract:${from}:${nonce}`),
      logs: (t.logs ?? []).map((l) => ({ ...l, logIndex: logIndex++ })),
    };
  });
  const block: CBlock = {
    number,
    hash: hexHashFor(`cblock:${number}`),
    parentHash: parent?.hash ?? `0x${'00'.repeat(32)}`,
    timestamp,
    miner: '0x0100000000000000000000000000000000000000',
    gasLimit: 8_000_000n,
    gasUsed: transactions.reduce((s, t) => s + t.gasUsed, 0n),
    baseFeePerGas: state.cBaseFee,
    extraData: '0x',
    transactions,
  };
  state.cBlocks.push(block);
  for (const listener of state.cBlockListeners) listener(block);
  return block;
}

/** Creates an asset (its ID is the creating tx's ID) and records it. */
export function addAsset(
  state: DevnetState,
  a: { name: string; symbol: string; denomination: number; kind: AssetKind; minterSets?: MinterSet[]; txID: string; alias?: string },
): Asset {
  const asset: Asset = {
    id: a.txID,
    name: a.name,
    symbol: a.symbol,
    denomination: a.denomination,
    kind: a.kind,
    minterSets: a.minterSets ?? [],
    createdBy: a.txID,
    timestamp: state.now(),
    supply: 0n,
  };
  if (a.alias) asset.alias = a.alias;
  state.assets.set(asset.id, asset);
  return asset;
}

/** Resolves an asset ID or alias (the native alias, an asset's alias, or its symbol is not enough). */
export function resolveAsset(state: DevnetState, idOrAlias: string): Asset | undefined {
  if (idOrAlias === state.nativeAssetAlias || idOrAlias === '') return state.assets.get(state.nativeAssetID);
  const direct = state.assets.get(idOrAlias);
  if (direct) return direct;
  for (const a of state.assets.values()) if (a.alias === idOrAlias) return a;
  return undefined;
}

/** Finds the keystore user owning an address (any chain form), if any. */
export function ownerOf(state: DevnetState, address: string): { user: KeystoreUser; key: UserKey } | undefined {
  const bare = address.startsWith('0x') ? address.toLowerCase() : bareAddress(address);
  for (const user of state.users.values()) {
    for (const key of user.keys) if (key.bech32 === bare || key.c === bare) return { user, key };
  }
  return undefined;
}

/** Adds a key to a user (deterministic from the user's name and key count). */
export function addUserKey(state: DevnetState, user: KeystoreUser, label = `${user.username}-${user.keys.length}`): UserKey {
  const key = makeKey(state.hrp, label);
  ADDRESS_BYTES.set(key.bech32, key.shortId);
  user.keys.push(key);
  return key;
}

export function addUser(state: DevnetState, username: string, password: string, keyCount = 1): KeystoreUser {
  const user: KeystoreUser = { username, password, keys: [] };
  for (let i = 0; i < keyCount; i++) addUserKey(state, user);
  state.users.set(username, user);
  return user;
}

/** Mints native funds out of thin air (a genesis-style base tx) to an address. */
export function fund(state: DevnetState, chain: Chain, address: string, amounts: bigint[], opts: { lock?: LockState; assetID?: string } = {}): Tx {
  const assetID = opts.assetID ?? state.nativeAssetID;
  const asset = state.assets.get(assetID);
  const tx = addTx(state, {
    chain,
    type: 'base',
    inputs: [],
    outputs: amounts.map((amount) => ({ assetID, amount, addresses: [address], chain, lock: opts.lock ?? 'unlocked' })),
    newBlock: false,
  });
  if (asset) asset.supply += amounts.reduce((s, a) => s + a, 0n);
  return tx;
}

/** Adds `count` single-output UTXOs of `amount` for one address (for paging and budget tests). */
export function addManyUtxos(state: DevnetState, chain: Chain, address: string, count: number, amount = 1_000_000n): void {
  const per = 256;
  for (let done = 0; done < count; done += per) {
    const n = Math.min(per, count - done);
    fund(state, chain, address, Array.from({ length: n }, (_, i) => amount + BigInt(done + i)));
  }
}

const DAY = 86_400;

function makeValidator(state: DevnetState, i: number, opts: { start: number; end: number; stake: bigint; delegators: number; subnetID?: string; label?: string }): Validator {
  const label = opts.label ?? `validator-${i}`;
  const reward = addressFor(state, 'P', `${label}-reward`);
  const delegators: Delegator[] = Array.from({ length: opts.delegators }, (_, d) => ({
    txID: registeredId(`${label}:delegator:${d}`),
    nodeID: nodeIdFor(label),
    startTime: opts.start + DAY * (d + 1),
    endTime: opts.end - DAY * (d + 1),
    stakeAmount: 25_000_000_000n * BigInt(d + 1),
    rewardOwner: { locktime: 0n, threshold: 1, addresses: [addressFor(state, 'P', `${label}-delegator-${d}`)] },
    potentialReward: 120_000_000n * BigInt(d + 1),
  }));
  return {
    txID: registeredId(`${label}:tx`),
    nodeID: nodeIdFor(label),
    subnetID: opts.subnetID ?? state.primaryNetworkID,
    startTime: opts.start,
    endTime: opts.end,
    stakeAmount: opts.stake,
    rewardOwner: { locktime: 0n, threshold: 1, addresses: [reward] },
    potentialReward: (opts.stake * 8n) / 100n,
    delegationFee: (2 + (i % 5)).toFixed(4),
    uptime: (100 - ((i * 7) % 13) * 0.75).toFixed(4),
    connected: i % 6 !== 5,
    delegators,
  };
}

/** Adds `count` more current primary-network validators (for output-budget tests). */
export function addManyValidators(state: DevnetState, count: number, delegatorsEach = 2): void {
  const base = state.validators.length;
  const t0 = state.genesisTime;
  for (let k = 0; k < count; k++) {
    const i = base + k;
    state.validators.push(
      makeValidator(state, i, {
        start: t0 - 30 * DAY - (i % 50) * 3600,
        end: t0 + (10 + (i % 300)) * DAY + (i % 24) * 3600,
        stake: 2_000_000_000_000n + BigInt(i) * 10_000_000_000n,
        delegators: delegatorsEach,
        label: `bulk-validator-${i}`,
      }),
    );
  }
}

function seed(state: DevnetState): void {
  const t0 = state.genesisTime;

  // Keystore users: devnet (3 keys) and alice (2 keys).
  const devnet = addUser(state, 'devnet', 'Devnet-Passw0rd!', 3);
  const alice = addUser(state, 'alice', 'Alice-Passw0rd!', 2);
  const [d0, d1, d2] = devnet.keys as [UserKey, UserKey, UserKey];
  const [a0, a1] = alice.keys as [UserKey, UserKey];

  // Assets. The native asset exists from genesis; the others are created by X txs.
  const native: Asset = {
    id: state.nativeAssetID,
    name: 'Camino',
    symbol: state.assetSymbol,
    denomination: 9,
    kind: 'native',
    alias: state.nativeAssetAlias,
    minterSets: [],
    createdBy: state.nativeAssetID,
    timestamp: t0 - 400 * DAY,
    supply: 0n,
  };
  state.assets.set(native.id, native);

  // Genesis P block.
  addPBlock(state, [], t0 - 400 * DAY);

  // X balances: devnet key 0 holds big UTXOs and 300 small ones (paging), key 1 some.
  fund(state, 'X', d0.x, [5_000_000_000_000n, 1_250_000_000_000n, 42_000_000_000n]);
  addManyUtxos(state, 'X', d0.x, 300, 10_000_000n);
  fund(state, 'X', d1.x, [750_000_000_000n]);
  fund(state, 'X', a0.x, [200_000_000_000n, 3_500_000_000n]);

  // Fixed-cap asset with initial holders.
  const gldID = registeredId('asset:GLD');
  const gldTx = addTx(state, {
    chain: 'X',
    type: 'create_asset',
    label: 'asset:GLD',
    inputs: [],
    outputs: [
      { assetID: gldID, amount: 100_000n, addresses: [d0.x], chain: 'X' },
      { assetID: gldID, amount: 25_050n, addresses: [a0.x], chain: 'X' },
    ],
    fee: state.fees.creationTxFee,
    timestamp: t0 - 200 * DAY,
    details: { name: 'Gold Bar', symbol: 'GLD', denomination: 2 },
  });
  const gld = addAsset(state, { name: 'Gold Bar', symbol: 'GLD', denomination: 2, kind: 'fixedCap', txID: gldTx.id, alias: 'gold' });
  gld.supply = 125_050n;

  // Variable-cap asset with two minter sets; minted once.
  const slvTx = addTx(state, {
    chain: 'X',
    type: 'create_asset',
    label: 'asset:SLV',
    inputs: [],
    outputs: [],
    fee: state.fees.creationTxFee,
    timestamp: t0 - 150 * DAY,
    details: { name: 'Silver Coin', symbol: 'SLV', denomination: 6 },
  });
  const slv = addAsset(state, {
    name: 'Silver Coin',
    symbol: 'SLV',
    denomination: 6,
    kind: 'variableCap',
    txID: slvTx.id,
    minterSets: [
      { minters: [d0.x], threshold: 1 },
      { minters: [d1.x, d2.x, a0.x], threshold: 2 },
    ],
  });
  addTx(state, {
    chain: 'X',
    type: 'operation',
    inputs: [],
    outputs: [{ assetID: slv.id, amount: 7_500_000_000n, addresses: [d0.x], chain: 'X' }],
    timestamp: t0 - 140 * DAY,
  });
  slv.supply = 7_500_000_000n;

  // NFT asset with two tokens minted in groups 0 and 1.
  const nftTx = addTx(state, {
    chain: 'X',
    type: 'create_asset',
    label: 'asset:ART',
    inputs: [],
    outputs: [],
    fee: state.fees.creationTxFee,
    timestamp: t0 - 100 * DAY,
    details: { name: 'Devnet Art', symbol: 'ART', denomination: 0 },
  });
  const art = addAsset(state, { name: 'Devnet Art', symbol: 'ART', denomination: 0, kind: 'nft', txID: nftTx.id, minterSets: [{ minters: [d0.x], threshold: 1 }] });
  addTx(state, {
    chain: 'X',
    type: 'operation',
    inputs: [],
    outputs: [
      { assetID: art.id, amount: 0n, addresses: [d0.x], chain: 'X', groupID: 0, payload: '0x68656c6c6f' },
      { assetID: art.id, amount: 0n, addresses: [a0.x], chain: 'X', groupID: 1, payload: '0x776f726c64' },
    ],
    timestamp: t0 - 90 * DAY,
  });
  art.supply = 2n;

  // A send from devnet key 1 to alice with a memo, then a processing and a rejected tx.
  const d1Utxo = utxosOf(state, 'X', [d1.x])[0]!;
  addTx(state, {
    chain: 'X',
    type: 'base',
    inputs: [d1Utxo.id],
    outputs: [
      { assetID: native.id, amount: 50_000_000_000n, addresses: [a0.x], chain: 'X' },
      { assetID: native.id, amount: d1Utxo.amount - 50_000_000_000n - state.fees.txFee, addresses: [d1.x], chain: 'X' },
    ],
    memo: `0x${Buffer.from('rent for November').toString('hex')}`,
    fee: state.fees.txFee,
    timestamp: t0 - 10 * DAY,
  });
  const a0Small = utxosOf(state, 'X', [a0.x]).find((u) => u.amount === 3_500_000_000n)!;
  addTx(state, {
    chain: 'X',
    type: 'base',
    inputs: [a0Small.id],
    outputs: [
      { assetID: native.id, amount: 1_000_000_000n, addresses: [a1.x], chain: 'X' },
      { assetID: native.id, amount: 2_500_000_000n - state.fees.txFee, addresses: [a0.x], chain: 'X' },
    ],
    fee: state.fees.txFee,
    status: 'Processing',
    timestamp: t0 - 60,
  });
  addTx(state, {
    chain: 'X',
    type: 'base',
    inputs: [],
    outputs: [{ assetID: native.id, amount: 1n, addresses: [a1.x], chain: 'X' }],
    fee: state.fees.txFee,
    status: 'Rejected',
    timestamp: t0 - 3600,
    label: 'tx:rejected',
  });

  // P balances of devnet key 0 in every lock state; alice unlocked.
  fund(state, 'P', d0.p, [3_000_000_000_000n, 100_000_000_000n]);
  fund(state, 'P', d0.p, [2_000_000_000_000n], { lock: 'bonded' });
  fund(state, 'P', d0.p, [500_000_000_000n], { lock: 'deposited' });
  fund(state, 'P', d0.p, [1_000_000_000_000n], { lock: 'bondedDeposited' });
  fund(state, 'P', a0.p, [80_000_000_000n]);

  // Atomic UTXOs waiting for an import: X -> C (to devnet key 0's C side), P -> X, C -> X.
  const d0xBig = utxosOf(state, 'X', [d0.x]).find((u) => u.amount === 42_000_000_000n)!;
  addTx(state, {
    chain: 'X',
    type: 'export',
    inputs: [d0xBig.id],
    outputs: [
      { assetID: native.id, amount: 20_000_000_000n, addresses: [`C-${d0.bech32}`], chain: 'C' },
      { assetID: native.id, amount: 22_000_000_000n - state.fees.txFee, addresses: [d0.x], chain: 'X' },
    ],
    destinationChain: 'C',
    fee: state.fees.txFee,
    timestamp: t0 - 2 * DAY,
  });
  const d0pFirst = utxosOf(state, 'P', [d0.p]).find((u) => u.amount === 100_000_000_000n)!;
  addTx(state, {
    chain: 'P',
    type: 'export',
    inputs: [d0pFirst.id],
    outputs: [
      { assetID: native.id, amount: 30_000_000_000n, addresses: [d0.x], chain: 'X' },
      { assetID: native.id, amount: 70_000_000_000n - state.fees.txFee, addresses: [d0.p], chain: 'P' },
    ],
    destinationChain: 'X',
    fee: state.fees.txFee,
    timestamp: t0 - DAY,
  });
  // A C -> X export (atomic tx on C) and a dropped atomic tx.
  addCBlock(state, [], t0 - 3 * DAY);
  addTx(state, {
    chain: 'C',
    type: 'export',
    inputs: [],
    outputs: [{ assetID: native.id, amount: 5_000_000_000n, addresses: [d1.x], chain: 'X' }],
    destinationChain: 'X',
    fee: 280_000n,
    timestamp: t0 - 3 * DAY,
    details: { ins: [{ address: d1.c, amount: 5_000_280_000, assetID: native.id, nonce: 0 }] },
  });
  addTx(state, {
    chain: 'C',
    type: 'import',
    inputs: [],
    outputs: [],
    sourceChain: 'X',
    status: 'Dropped',
    timestamp: t0 - 2 * DAY,
    label: 'atomic:dropped',
  });

  // C balances (wei) and a few EVM blocks.
  const WEI = 1_000_000_000n;
  state.cBalances.set(d0.c, 1_000n * 1_000_000_000n * WEI);
  state.cBalances.set(d1.c, 25n * 1_000_000_000n * WEI);
  state.cBalances.set(a0.c, 3n * 1_000_000_000n * WEI);
  state.cAssetBalances.set(d0.c, new Map([[gld.id, 1_234n]]));
  for (let b = 1; b <= 5; b++) {
    addCBlock(
      state,
      [
        { from: d0.c, to: a0.c, value: BigInt(b) * 10n ** 17n },
        ...(b % 2 === 0
          ? [
              {
                from: d1.c,
                to: hexAddressFor('token-contract'),
                value: 0n,
                input: '0xa9059cbb',
                gasUsed: 51_000n,
                gasLimit: 60_000n,
                logs: [
                  {
                    address: hexAddressFor('token-contract'),
                    topics: ['0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef'],
                    data: `0x${(BigInt(b) * 1000n).toString(16).padStart(64, '0')}`,
                  },
                ],
              },
            ]
          : []),
      ],
      t0 - (6 - b) * 600,
    );
  }

  // Subnets and blockchains.
  const subnetA: Subnet = { id: registeredId('subnet:A'), controlKeys: [d0.p, d1.p], threshold: 1 };
  const subnetB: Subnet = { id: registeredId('subnet:B'), controlKeys: [a0.p], threshold: 1 };
  state.subnets.push({ id: state.primaryNetworkID, controlKeys: [], threshold: 0 }, subnetA, subnetB);
  state.blockchains.push(
    { id: state.chains.X, name: 'X-Chain', subnetID: state.primaryNetworkID, vmID: 'jvYyfQTxGMJLuGWa55kdP2p2zSUYsQ5Raupu4TW34ZAUBAbtq', status: 'Validating' },
    { id: state.chains.C, name: 'C-Chain', subnetID: state.primaryNetworkID, vmID: 'mgj786NP7uDwBCcq6YwThhaN8FLyybkCa4zBWTQbNgmK6k9A6', status: 'Validating' },
    { id: registeredId('chain:timestamp'), name: 'timestamp-chain', subnetID: subnetA.id, vmID: 'tGas3T58KzdjLHhBDMnH2TvrddhqTji5iZAMZ3RXs2NLpSnhH', status: 'Created' },
    { id: registeredId('chain:assets-b'), name: 'asset-chain-b', subnetID: subnetB.id, vmID: 'jvYyfQTxGMJLuGWa55kdP2p2zSUYsQ5Raupu4TW34ZAUBAbtq', status: 'Syncing' },
  );
  for (const [s, label] of [
    [subnetA, 'subnet:A'],
    [subnetB, 'subnet:B'],
  ] as const) {
    addTx(state, { chain: 'P', type: 'create_subnet', label, inputs: [], outputs: [], fee: state.fees.creationTxFee, timestamp: t0 - 50 * DAY, details: { controlKeys: s.controlKeys } });
  }

  // Validators: 8 current on the primary network (the node itself first), 1 on subnet A,
  // 2 pending with a pending delegator.
  for (let i = 0; i < 8; i++) {
    const v = makeValidator(state, i, {
      start: t0 - (60 - i) * DAY,
      end: t0 + (3 + i * 9) * DAY + i * 3600,
      stake: 2_000_000_000_000n + BigInt(i) * 250_000_000_000n,
      delegators: i % 3,
    });
    if (i === 0) v.nodeID = state.nodeID;
    for (const d of v.delegators) d.nodeID = v.nodeID;
    state.validators.push(v);
    addTx(state, { chain: 'P', type: 'add_validator', label: `validator-${i}:tx`, inputs: [], outputs: [], timestamp: v.startTime, details: { nodeID: v.nodeID } });
  }
  // Reward UTXOs of a finished staking period of validator 1.
  const finished = registeredId('validator-finished:tx');
  const rewardTx = fund(state, 'P', state.validators[1]!.rewardOwner.addresses[0]!, [160_000_000_000n, 3_200_000_000n]);
  state.rewardUtxos.set(finished, rewardTx.outputs);
  state.rewardUtxos.set(state.validators[0]!.txID, []);

  state.validators.push({
    ...makeValidator(state, 90, { start: t0 - 5 * DAY, end: t0 + 20 * DAY, stake: 100n, delegators: 0, subnetID: subnetA.id }),
    nodeID: state.validators[2]!.nodeID,
  });
  for (let i = 0; i < 2; i++) {
    state.pendingValidators.push(
      makeValidator(state, 100 + i, {
        start: t0 + (2 + i) * DAY,
        end: t0 + (30 + i * 30) * DAY,
        stake: 2_000_000_000_000n,
        delegators: 0,
        label: `pending-validator-${i}`,
      }),
    );
  }
  state.pendingValidators[1]!.connected = false;
  state.pendingDelegators.push({
    txID: registeredId('pending-delegator:0'),
    nodeID: state.validators[3]!.nodeID,
    startTime: t0 + DAY,
    endTime: t0 + 15 * DAY,
    stakeAmount: 50_000_000_000n,
    rewardOwner: { locktime: 0n, threshold: 1, addresses: [a0.p] },
    potentialReward: 0n,
  });

  // Deposit offers: active, active+locked, expired, future.
  const offer = (label: string, o: Omit<DepositOffer, 'id' | 'memo'> & { memo: string }): DepositOffer => ({
    ...o,
    id: registeredId(`offer:${label}`),
    memo: Buffer.from(o.memo, 'utf8').toString('base64'),
  });
  state.depositOffers.push(
    offer('standard', {
      interestRateNominator: 80_000n,
      start: t0 - 100 * DAY,
      end: t0 + 265 * DAY,
      minAmount: 1_000_000_000n,
      minDuration: 60 * DAY,
      maxDuration: 365 * DAY,
      unlockPeriodDuration: 30 * DAY,
      noRewardsPeriodDuration: 15 * DAY,
      memo: 'Standard 8% offer',
      flags: 0n,
    }),
    offer('premium', {
      interestRateNominator: 125_000n,
      start: t0 - 10 * DAY,
      end: t0 + 90 * DAY,
      minAmount: 100_000_000_000n,
      minDuration: 365 * DAY,
      maxDuration: 730 * DAY,
      unlockPeriodDuration: 60 * DAY,
      noRewardsPeriodDuration: 0,
      memo: 'Premium two-year lock',
      flags: 1n,
    }),
    offer('expired', {
      interestRateNominator: 50_000n,
      start: t0 - 400 * DAY,
      end: t0 - 35 * DAY,
      minAmount: 1_000_000_000n,
      minDuration: 30 * DAY,
      maxDuration: 180 * DAY,
      unlockPeriodDuration: 7 * DAY,
      noRewardsPeriodDuration: 0,
      memo: 'Launch promotion (ended)',
      flags: 0n,
    }),
    offer('future', {
      interestRateNominator: 100_000n,
      start: t0 + 30 * DAY,
      end: t0 + 200 * DAY,
      minAmount: 5_000_000_000n,
      minDuration: 90 * DAY,
      maxDuration: 365 * DAY,
      unlockPeriodDuration: 30 * DAY,
      noRewardsPeriodDuration: 10 * DAY,
      memo: 'Spring offer',
      flags: 0n,
    }),
  );

  // Address states: admin + KYC verified; KYC verified + consortium; an unknown bit.
  const bit = (n: number) => 1n << BigInt(n);
  state.addressStates.set(d0.bech32, bit(ADDRESS_STATE.AddressStateRoleAdmin) | bit(ADDRESS_STATE.AddressStateKycVerified));
  state.addressStates.set(a0.bech32, bit(ADDRESS_STATE.AddressStateKycVerified) | bit(ADDRESS_STATE.AddressStateConsortium));
  state.addressStates.set(a1.bech32, bit(ADDRESS_STATE.AddressStateKycExpired) | bit(5));

  // Supply: everything minted so far plus staked amounts (an upper bound).
  let staked = 0n;
  for (const v of state.validators) staked += v.stakeAmount + v.delegators.reduce((s, d) => s + d.stakeAmount, 0n);
  state.supply = native.supply + staked + 300_000_000n * 1_000_000_000n;
}

export function createState(): DevnetState {
  const chains = {
    X: '2eNy1mUFdmaxXNj1eQHUe7Np4gju9sJsEtWQ4MX3ToiNKuADed',
    P: '11111111111111111111111111111111LpoYY',
    C: '2CA6j5zYzasynPsFeNoqWkmTCt3VScMvXUZHbfDJ8k3oGzAPtU',
  } as const;
  const peers = Array.from({ length: 4 }, (_, i) => ({
    ip: `127.0.0.1:${9653 + 2 * i}`,
    publicIP: `127.0.0.1:${9653 + 2 * i}`,
    nodeID: PEER_NODE_IDS[i]!,
    version: i === 3 ? 'camino/1.1.17' : 'camino/1.1.18',
    lastSent: '2026-11-22T10:00:00Z',
    lastReceived: '2026-11-22T10:00:01Z',
    benched: i === 2 ? [chains.C] : [],
    observedUptime: String(99 - i),
  }));
  const genesisTime = Math.floor(Date.now() / 1000);
  const hrp = 'local';
  const assetSymbol = 'CAM';
  const nativeAssetID = registeredId('asset:native');
  const state: DevnetState = {
    networkID: 12345,
    networkName: 'local',
    hrp,
    assetSymbol,
    nodeID: 'NodeID-7Xhw2mDxuDS44j42TCB6U5579esbSt3Lg',
    nodeIP: '127.0.0.1:9651',
    version: {
      version: 'camino/1.1.18',
      databaseVersion: 'v1.4.5',
      gitCommit: '8d1f2a7c54b0e9f3a6c2d1e0b9a8f7e6d5c4b3a2',
      vmVersions: { xvm: 'v1.1.18', platform: 'v1.1.18', evm: 'v0.5.4' },
    },
    chains,
    vms: {
      jvYyfQTxGMJLuGWa55kdP2p2zSUYsQ5Raupu4TW34ZAUBAbtq: ['xvm'],
      mgj786NP7uDwBCcq6YwThhaN8FLyybkCa4zBWTQbNgmK6k9A6: ['evm'],
      rWhpuQPF1kb72esV2momhMuTYGkEb1oHU8sDgZFNvpDbwVWAx: ['platform'],
    },
    bootstrapped: new Set(['X', 'P', 'C', chains.X, chains.P, chains.C]),
    fees: { txFee: 1_000_000n, creationTxFee: 10_000_000n },
    peers,
    uptime: { rewardingStakePercentage: 100, weightedAveragePercentage: 99.5 },
    now: () => Math.floor(Date.now() / 1000),
    genesisTime,
    config: {
      networkID: 12345,
      assetID: nativeAssetID,
      assetSymbol,
      hrp,
      minStakeDuration: 14n * 86_400n * 1_000_000_000n,
      maxStakeDuration: 365n * 86_400n * 1_000_000_000n,
      minValidatorStake: 2_000_000_000_000n,
      maxValidatorStake: 3_000_000_000_000_000n,
      minDelegationFee: 20_000,
      minDelegatorStake: 25_000_000_000n,
      minConsumptionRate: 100_000n,
      maxConsumptionRate: 120_000n,
      supplyCap: 1_000_000_000_000_000_000n,
      codecVersion: 0,
      verifyNodeSignature: true,
      lockModeBondDeposit: true,
    },
    primaryNetworkID: chains.P,
    nativeAssetID,
    nativeAssetAlias: assetSymbol,
    assets: new Map(),
    users: new Map(),
    utxos: new Map(),
    txs: new Map(),
    pBlocks: [],
    cBlocks: [],
    cBalances: new Map(),
    cNonces: new Map(),
    cAssetBalances: new Map(),
    evmChainId: 500,
    cBaseFee: 25_000_000_000n,
    cPriorityFee: 1_000_000_000n,
    cBlockListeners: new Set(),
    validators: [],
    pendingValidators: [],
    pendingDelegators: [],
    subnets: [],
    blockchains: [],
    depositOffers: [],
    addressStates: new Map(),
    supply: 0n,
    rewardUtxos: new Map(),
    indexTransactions: true,
    devnetUser: 'devnet',
    seq: 0,
  };
  seed(state);
  return state;
}

const PEER_NODE_IDS = [
  'NodeID-MFrZFVCXPv5iCn6M9K6XduxGTYp891xXZ',
  'NodeID-NFBbbJ4qCmNaCzeW7sxErhvWqvEQMnYcN',
  'NodeID-GWPcbFJZFfZreETSoWjPimr846mXEKCtu',
  'NodeID-P7oB2McjBGgW2NXXWVYjV8JEDFoW9xDE5',
];

// STATE-READY
