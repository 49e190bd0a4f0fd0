/** UTXO and transaction bookkeeping: create, spend, query; assets, keystore users and funding. */
import { bech32 as scureBech32 } from '@scure/base';
import { addPBlock } from './blocks.js';
import { ADDRESS_BYTES, bareAddress, makeKey, registeredId, rememberId, sha256 } from './ids.js';
import type { Asset, AssetKind, Chain, DevnetState, KeystoreUser, LockState, MinterSet, Tx, TxStatus, UserKey, Utxo } from './types.js';
import { u16 } from './wire.js';

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
  depositTxID?: string;
  bondTxID?: string;
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
  if (out.depositTxID !== undefined) utxo.depositTxID = out.depositTxID;
  if (out.bondTxID !== undefined) utxo.bondTxID = out.bondTxID;
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
  /** A signed transaction issued to the node: its ID (sha256 of these bytes) and its bytes. */
  id?: string;
  bytes?: Uint8Array;
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
  const bytes = spec.bytes ? Buffer.from(spec.bytes) : Buffer.concat([u16(0), Buffer.from(body, 'utf8')]);
  const id = spec.id ?? (spec.label ? registeredId(spec.label) : rememberId(sha256(bytes)));
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
export function fund(
  state: DevnetState,
  chain: Chain,
  address: string,
  amounts: bigint[],
  opts: { lock?: LockState; assetID?: string; depositTxID?: string; bondTxID?: string } = {},
): Tx {
  const assetID = opts.assetID ?? state.nativeAssetID;
  const asset = state.assets.get(assetID);
  const tx = addTx(state, {
    chain,
    type: 'base',
    inputs: [],
    outputs: amounts.map((amount) => ({
      assetID,
      amount,
      addresses: [address],
      chain,
      lock: opts.lock ?? 'unlocked',
      ...(opts.depositTxID ? { depositTxID: opts.depositTxID } : {}),
      ...(opts.bondTxID ? { bondTxID: opts.bondTxID } : {}),
    })),
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
