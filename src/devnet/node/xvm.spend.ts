import { cb58Decode, hexToBytes } from '../../codec/index.js';
import type { TxChain } from '../../codec/tx/index.js';
import { type Params, RpcFault, type RpcRouter, needString, needUint } from '../rpc.js';
import {
  addAsset,
  addTx,
  addUserKey,
  idFor,
  bareAddress,
  type Chain,
  type DevnetState,
  type KeystoreUser,
  type MinterSet,
  type NewUtxo,
  resolveAsset,
  sha256,
  type Tx,
  utxosOf,
} from '../state/index.js';
import { importPrivateKey, needKey, needUser } from './keystore.admin.js';
import { issueBytes, issueTx } from './issue.js';
import { needAddress } from './platform.js';

/**
 * Asset chain transactions (/ext/bc/X, spec document 2) on the shared state: UTXO
 * selection with change, fees, assets and minter sets, NFTs, atomic export/import.
 * The helpers here (owners, pay) are shared with the P and C families.
 */

/** The addresses a spend may draw on, in `chain` form: `from` (each the user's) or all the user's keys. */
export function owners(state: DevnetState, user: KeystoreUser, chain: Chain, from: unknown): string[] {
  if (Array.isArray(from) && from.length > 0) {
    return from.map((a) => {
      const address = needAddress(state, a, [chain]);
      needKey(user, address);
      return address;
    });
  }
  return user.keys.map((k) => (chain === 'P' ? k.p : k.x));
}

export function changeAddress(state: DevnetState, user: KeystoreUser, chain: Chain, p: Params): string {
  if (p.changeAddr !== undefined && p.changeAddr !== '') return needAddress(state, p.changeAddr, [chain]);
  const key = user.keys[0];
  if (!key) throw new RpcFault(`user "${user.username}" has no addresses`);
  return chain === 'P' ? key.p : key.x;
}

/**
 * Picks unlocked UTXOs of `owners` on `chain` covering `needs` (asset ID -> amount) and
 * returns them with the change per asset. Throws the node's insufficient-funds message.
 */
export function pay(state: DevnetState, chain: Chain, from: string[], needs: Map<string, bigint>): { inputs: string[]; change: Map<string, bigint> } {
  const inputs: string[] = [];
  const change = new Map<string, bigint>();
  const now = BigInt(state.now());
  for (const [assetID, need] of needs) {
    if (need === 0n) continue;
    const candidates = utxosOf(state, chain, from)
      .filter((u) => u.assetID === assetID && u.groupID === undefined && u.lock === 'unlocked' && u.locktime <= now)
      .sort((a, b) => (a.amount > b.amount ? -1 : a.amount < b.amount ? 1 : 0));
    let have = 0n;
    for (const u of candidates) {
      if (have >= need) break;
      inputs.push(u.id);
      have += u.amount;
    }
    if (have < need) {
      const total = candidates.reduce((s, u) => s + u.amount, 0n);
      throw new RpcFault(chain === 'X' ? `want to spend ${need} of asset ${assetID} but only have ${total}` : 'insufficient funds');
    }
    if (have > need) change.set(assetID, have - need);
  }
  return { inputs, change };
}

export function changeOutputs(change: Map<string, bigint>, to: string, chain: Chain): NewUtxo[] {
  return [...change].map(([assetID, amount]) => ({ assetID, amount, addresses: [to], chain }));
}

function needAsset(state: DevnetState, p: Params, key = 'assetID') {
  const asset = resolveAsset(state, needString(p, key));
  if (!asset) throw new RpcFault(`couldn't find asset ${String(p[key])}`);
  return asset;
}

function needPositive(p: Params, key: string): bigint {
  const v = needUint(p, key);
  if (v === 0n) throw new RpcFault(`${key} must be positive`);
  return v;
}

function memoHex(p: Params): string {
  if (p.memo === undefined || p.memo === '') return '0x';
  const bytes = Buffer.from(String(p.memo), 'utf8');
  if (bytes.length > 256) throw new RpcFault(`memo length ${bytes.length} is larger than max memo length 256`);
  return `0x${bytes.toString('hex')}`;
}

function decodeBytes(text: string, encoding: unknown, what: string): Uint8Array {
  try {
    if (encoding === 'hex') {
      const all = hexToBytes(text);
      const body = all.subarray(0, Math.max(0, all.length - 4));
      if (all.length < 4 || !Buffer.from(sha256(body).slice(-4)).equals(Buffer.from(all.subarray(-4)))) throw new Error('invalid hex checksum');
      return body;
    }
    if (encoding !== undefined && encoding !== '' && encoding !== 'cb58') throw new Error(`invalid encoding "${String(encoding)}"`);
    return cb58Decode(text);
  } catch (err) {
    throw new RpcFault(`problem decoding ${what}: ${(err as Error).message}`);
  }
}

function needMinterSets(state: DevnetState, p: Params): MinterSet[] {
  if (!Array.isArray(p.minterSets) || p.minterSets.length === 0) throw new RpcFault('minterSets must not be empty');
  return p.minterSets.map((raw: { minters?: unknown; threshold?: unknown }) => {
    const minters = Array.isArray(raw?.minters) ? raw.minters.map((m) => needAddress(state, m, ['X'])) : [];
    const threshold = Number(raw?.threshold);
    if (!Number.isInteger(threshold) || threshold < 1 || threshold > minters.length) {
      throw new RpcFault('minter set threshold must be between 1 and the number of minters');
    }
    return { minters, threshold };
  });
}

function needNameSymbol(p: Params): { name: string; symbol: string; denomination: number } {
  const name = needString(p, 'name');
  const symbol = typeof p.symbol === 'string' ? p.symbol : '';
  if (symbol.length > 4) throw new RpcFault('asset symbol must be at most 4 characters');
  const denomination = p.denomination === undefined ? 0 : Number(p.denomination);
  if (!Number.isInteger(denomination) || denomination < 0 || denomination > 32) throw new RpcFault('denomination must be 0 to 32');
  return { name, symbol, denomination };
}

/** Pays `fee` of the native asset (plus other needs) from the user's X addresses and records the tx. */
function issueX(
  state: DevnetState,
  user: KeystoreUser,
  p: Params,
  spec: { type: string; needs?: Map<string, bigint>; fee: bigint; outputs: NewUtxo[]; memo?: string; destinationChain?: Chain; details?: Record<string, unknown>; label?: string },
): { tx: Tx; changeAddr: string } {
  const from = owners(state, user, 'X', p.from);
  const changeAddr = changeAddress(state, user, 'X', p);
  const needs = new Map(spec.needs ?? []);
  needs.set(state.nativeAssetID, (needs.get(state.nativeAssetID) ?? 0n) + spec.fee);
  const { inputs, change } = pay(state, 'X', from, needs);
  const tx = addTx(state, {
    chain: 'X',
    type: spec.type,
    inputs,
    outputs: [...spec.outputs, ...changeOutputs(change, changeAddr, 'X')],
    memo: spec.memo,
    fee: spec.fee,
    destinationChain: spec.destinationChain,
    details: spec.details,
    label: spec.label,
  });
  return { tx, changeAddr };
}

/** xvm.send and wallet.send. */
export function send(state: DevnetState, p: Params): { txID: string; changeAddr: string } {
  const user = needUser(state, p);
  const asset = needAsset(state, p);
  const amount = needPositive(p, 'amount');
  const to = needAddress(state, p.to, ['X']);
  const { tx, changeAddr } = issueX(state, user, p, {
    type: 'base',
    needs: new Map([[asset.id, amount]]),
    fee: state.fees.txFee,
    outputs: [{ assetID: asset.id, amount, addresses: [to], chain: 'X' }],
    memo: memoHex(p),
  });
  return { txID: tx.id, changeAddr };
}

/**
 * xvm.issueTx, wallet.issueTx, cx.issueTx of a spec-API node: the spec's encodings (cb58 by
 * default, or hex), then the same decoding, verification and effects as a Camino node's.
 */
export function issueSigned(state: DevnetState, p: Params, chain: TxChain): { txID: string } {
  return issueBytes(state, decodeBytes(needString(p, 'tx'), p.encoding, 'tx'), chain);
}

function controls(user: KeystoreUser, set: MinterSet): boolean {
  const mine = new Set(user.keys.map((k) => k.bech32));
  return set.minters.filter((m) => mine.has(bareAddress(m))).length >= set.threshold;
}

export function registerXvmSpend(router: RpcRouter, state: DevnetState): void {
  const path = '/ext/bc/X';
  router
    .on(path, 'xvm.createFixedCapAsset', (p) => {
      const user = needUser(state, p);
      const { name, symbol, denomination } = needNameSymbol(p);
      if (!Array.isArray(p.initialHolders) || p.initialHolders.length === 0) throw new RpcFault('initialHolders must not be empty');
      const holders = p.initialHolders.map((h: { address?: unknown; amount?: unknown }) => ({
        address: needAddress(state, h?.address, ['X']),
        amount: needPositive(h as Params, 'amount'),
      }));
      const label = `asset:${state.seq + 1}:${name}`;
      const assetID = idFor(label);
      const { tx, changeAddr } = issueX(state, user, p, {
        type: 'create_asset',
        fee: state.fees.creationTxFee,
        outputs: holders.map((h) => ({ assetID, amount: h.amount, addresses: [h.address], chain: 'X' as const })),
        details: { name, symbol, denomination },
        label,
      });
      const asset = addAsset(state, { name, symbol, denomination, kind: 'fixedCap', txID: tx.id });
      asset.supply = holders.reduce((s, h) => s + h.amount, 0n);
      return { assetID: asset.id, changeAddr };
    })
    .on(path, 'xvm.createVariableCapAsset', (p) => {
      const user = needUser(state, p);
      const { name, symbol, denomination } = needNameSymbol(p);
      const minterSets = needMinterSets(state, p);
      const { tx, changeAddr } = issueX(state, user, p, {
        type: 'create_asset',
        fee: state.fees.creationTxFee,
        outputs: [],
        details: { name, symbol, denomination },
        label: `asset:${state.seq + 1}:${name}`,
      });
      const asset = addAsset(state, { name, symbol, denomination, kind: 'variableCap', minterSets, txID: tx.id });
      return { assetID: asset.id, changeAddr };
    })
    .on(path, 'xvm.createNFTAsset', (p) => {
      const user = needUser(state, p);
      const { name, symbol } = needNameSymbol({ ...p, denomination: 0 });
      const minterSets = needMinterSets(state, p);
      const { tx, changeAddr } = issueX(state, user, p, {
        type: 'create_asset',
        fee: state.fees.creationTxFee,
        outputs: [],
        details: { name, symbol, denomination: 0 },
        label: `asset:${state.seq + 1}:${name}`,
      });
      const asset = addAsset(state, { name, symbol, denomination: 0, kind: 'nft', minterSets, txID: tx.id });
      return { assetID: asset.id, changeAddr };
    })
    .on(path, 'xvm.mint', (p) => {
      const user = needUser(state, p);
      const asset = needAsset(state, p);
      if (asset.kind !== 'variableCap') throw new RpcFault(`asset ${asset.id} is not a variable-cap asset`);
      const amount = needPositive(p, 'amount');
      const to = needAddress(state, p.to, ['X']);
      if (!asset.minterSets.some((set) => controls(user, set))) {
        throw new RpcFault(`user "${user.username}" lacks permission to mint: it controls fewer than threshold keys of every minter set`);
      }
      const { tx, changeAddr } = issueX(state, user, p, {
        type: 'operation',
        fee: state.fees.txFee,
        outputs: [{ assetID: asset.id, amount, addresses: [to], chain: 'X' }],
      });
      asset.supply += amount;
      return { txID: tx.id, changeAddr };
    })
    .on(path, 'xvm.mintNFT', (p) => {
      const user = needUser(state, p);
      const asset = needAsset(state, p);
      if (asset.kind !== 'nft') throw new RpcFault(`asset ${asset.id} is not an NFT asset`);
      const payload = decodeBytes(needString(p, 'payload'), p.encoding, 'payload');
      if (payload.length > 1024) throw new RpcFault(`payload is ${payload.length} bytes, more than the maximum of 1024`);
      const to = needAddress(state, p.to, ['X']);
      const groupID = asset.minterSets.findIndex((set) => controls(user, set));
      if (groupID < 0) throw new RpcFault(`user "${user.username}" lacks permission to mint: it controls fewer than threshold keys of every minter set`);
      const { tx, changeAddr } = issueX(state, user, p, {
        type: 'operation',
        fee: state.fees.txFee,
        outputs: [{ assetID: asset.id, amount: 0n, addresses: [to], chain: 'X', groupID, payload: `0x${Buffer.from(payload).toString('hex')}` }],
      });
      asset.supply += 1n;
      return { txID: tx.id, changeAddr };
    })
    .on(path, 'xvm.send', (p) => send(state, p))
    .on(path, 'xvm.sendMultiple', (p) => {
      const user = needUser(state, p);
      if (!Array.isArray(p.outputs) || p.outputs.length === 0) throw new RpcFault('outputs must not be empty');
      const needs = new Map<string, bigint>();
      const outputs: NewUtxo[] = p.outputs.map((o: Params) => {
        const asset = needAsset(state, o);
        const amount = needPositive(o, 'amount');
        needs.set(asset.id, (needs.get(asset.id) ?? 0n) + amount);
        return { assetID: asset.id, amount, addresses: [needAddress(state, o.to, ['X'])], chain: 'X' as const };
      });
      const { tx, changeAddr } = issueX(state, user, p, { type: 'base', needs, fee: state.fees.txFee, outputs, memo: memoHex(p) });
      return { txID: tx.id, changeAddr };
    })
    .on(path, 'xvm.sendNFT', (p) => {
      const user = needUser(state, p);
      const asset = needAsset(state, p);
      const groupID = Number(needUint(p, 'groupID'));
      const to = needAddress(state, p.to, ['X']);
      const from = owners(state, user, 'X', p.from);
      const nft = utxosOf(state, 'X', from).find((u) => u.assetID === asset.id && u.groupID === groupID);
      if (!nft) throw new RpcFault(`insufficient funds: no NFT of asset ${asset.id} in group ${groupID}`);
      const changeAddr = changeAddress(state, user, 'X', p);
      const { inputs, change } = pay(state, 'X', from, new Map([[state.nativeAssetID, state.fees.txFee]]));
      const tx = addTx(state, {
        chain: 'X',
        type: 'operation',
        inputs: [nft.id, ...inputs],
        outputs: [
          { assetID: asset.id, amount: 0n, addresses: [to], chain: 'X', groupID, payload: nft.payload },
          ...changeOutputs(change, changeAddr, 'X'),
        ],
        fee: state.fees.txFee,
      });
      return { txID: tx.id, changeAddr };
    })
    .on(path, 'xvm.export', (p) => {
      const user = needUser(state, p);
      const asset = needAsset(state, p);
      const amount = needPositive(p, 'amount');
      const to = needAddress(state, p.to, ['P', 'C']);
      const dest = to.slice(0, 1) as Chain;
      const { tx, changeAddr } = issueX(state, user, p, {
        type: 'export',
        needs: new Map([[asset.id, amount]]),
        fee: state.fees.txFee,
        outputs: [{ assetID: asset.id, amount, addresses: [to], chain: dest }],
        destinationChain: dest,
      });
      return { txID: tx.id, changeAddr };
    })
    .on(path, 'xvm.import', (p) => {
      const user = needUser(state, p);
      const to = needAddress(state, p.to, ['X']);
      needKey(user, to);
      const source = sourceChain(state, p, ['P', 'C']);
      const atomic = utxosOf(state, 'X', [to], { sourceChain: source });
      if (atomic.length === 0) throw new RpcFault(`no atomic UTXOs to import from ${source} for ${to}`);
      const totals = new Map<string, bigint>();
      for (const u of atomic) totals.set(u.assetID, (totals.get(u.assetID) ?? 0n) + u.amount);
      const native = totals.get(state.nativeAssetID) ?? 0n;
      if (native < state.fees.txFee) throw new RpcFault('insufficient funds: the imported amount does not cover the fee');
      totals.set(state.nativeAssetID, native - state.fees.txFee);
      const tx = addTx(state, {
        chain: 'X',
        type: 'import',
        inputs: atomic.map((u) => u.id),
        outputs: [...totals].filter(([, a]) => a > 0n).map(([assetID, amount]) => ({ assetID, amount, addresses: [to], chain: 'X' as const })),
        fee: state.fees.txFee,
        sourceChain: source,
      });
      return { txID: tx.id };
    })
    // A Camino node decodes and verifies what it issues; the spec dialect records opaque bytes.
    .on(path, 'xvm.issueTx', (p) => (router.dialect === 'camino' ? issueTx(state, p, 'X') : issueSigned(state, p, 'X')))
    .on(path, 'xvm.createAddress', (p) => ({ address: addKey(state, needUser(state, p)).x }))
    .on(path, 'xvm.listAddresses', (p) => ({ addresses: needUser(state, p).keys.map((k) => k.x) }))
    .on(path, 'xvm.exportKey', (p) => {
      const user = needUser(state, p);
      return { privateKey: needKey(user, needAddress(state, p.address, ['X'])).privateKey };
    })
    .on(path, 'xvm.importKey', (p) => {
      const user = needUser(state, p);
      return { address: importPrivateKey(state, user, needString(p, 'privateKey')).x };
    });
}

/** `sourceChain` as an alias (X, P, C) or a chain ID. */
export function sourceChain(state: DevnetState, p: Params, allowed: Chain[]): Chain {
  const raw = needString(p, 'sourceChain');
  const chain = (Object.entries(state.chains).find(([alias, id]) => raw === alias || raw === id)?.[0] ?? '') as Chain | '';
  if (!chain || !allowed.includes(chain)) throw new RpcFault(`problem parsing sourceChain: unknown or invalid chain "${raw}"`);
  return chain;
}

/** A new key for the user (xvm.createAddress, platform.createAddress). */
export function addKey(state: DevnetState, user: KeystoreUser) {
  const label = `${user.username}-${user.keys.length}-${state.seq}`;
  return addUserKey(state, user, label);
}

