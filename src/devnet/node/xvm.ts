import { cb58Encode, parseBareBech32 } from '../../codec/index.js';
import { RpcFault, type Params, type RpcRouter, needString, needUint } from '../rpc.js';
import {
  bareAddress,
  type Chain,
  type DevnetState,
  hexWithChecksum,
  resolveAsset,
  txJson,
  txString,
  type Utxo,
  utxosOf,
  utxoString,
} from '../state/index.js';
import { checkEncoding, needAddress } from './platform.js';

/** Asset chain API (/ext/bc/X and /ext/bc/<X chain ID>) and its static API (/ext/vm/xvm). */

const s = (n: bigint | number): string => String(n);
const PAGE_MAX = 1024;

/** Resolves `sourceChain` (alias or chain ID) to a chain letter, as the node does. */
export function chainLetter(state: DevnetState, value: unknown): Chain {
  const text = String(value);
  if (text === 'X' || text === 'P' || text === 'C') return text;
  const found = (Object.entries(state.chains) as Array<[Chain, string]>).find(([, id]) => id === text);
  if (!found) throw new RpcFault(`problem parsing source chainID "${text}": there is no chain with alias/ID '${text}'`);
  return found[0];
}

/**
 * getUTXOs paging: addresses in the order given, each address's UTXOs by UTXO ID;
 * `startIndex` resumes after {address, utxo}; `endIndex` is the last UTXO returned. A UTXO
 * owned by two of the addresses appears under each (pages may overlap, as the spec warns).
 */
export function pageUtxos(state: DevnetState, chain: Chain, p: Params, addressChains: Chain[], sourceRequired: boolean) {
  if (!Array.isArray(p.addresses) || p.addresses.length === 0) throw new RpcFault('missing or invalid addresses');
  if (p.addresses.length > PAGE_MAX) throw new RpcFault(`number of addresses given, ${p.addresses.length}, exceeds maximum, ${PAGE_MAX}`);
  const addresses = [...new Set(p.addresses.map((a) => needAddress(state, a, addressChains)))];
  let limit = PAGE_MAX;
  if (p.limit !== undefined) {
    const asked = Number(needUint(p, 'limit'));
    limit = asked === 0 || asked > PAGE_MAX ? PAGE_MAX : asked;
  }
  const encoding = checkEncoding(p, ['cb58', 'hex']);
  let source: Chain | undefined;
  if (p.sourceChain !== undefined && p.sourceChain !== '') source = chainLetter(state, p.sourceChain);
  else if (sourceRequired) throw new RpcFault('sourceChain is required');
  if (source === chain) source = undefined;
  const start = p.startIndex as { address?: unknown; utxo?: unknown } | undefined;
  let addressAt = 0;
  let after: string | undefined;
  if (start && (start.address || start.utxo)) {
    const at = addresses.findIndex((a) => bareAddress(a) === bareAddress(String(start.address)));
    if (at < 0) throw new RpcFault(`startIndex address ${String(start.address)} is not in addresses`);
    addressAt = at;
    after = String(start.utxo ?? '');
  }
  const picked: Array<{ address: string; utxo: Utxo }> = [];
  for (let i = addressAt; i < addresses.length && picked.length < limit; i++) {
    const mine = utxosOf(state, chain, [addresses[i]!], { sourceChain: source }).sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    for (const u of mine) {
      if (i === addressAt && after !== undefined && u.id <= after) continue;
      picked.push({ address: addresses[i]!, utxo: u });
      if (picked.length >= limit) break;
    }
  }
  const last = picked[picked.length - 1];
  const endIndex = last ? { address: last.address, utxo: last.utxo.id } : { address: start?.address ?? addresses[0], utxo: start?.utxo ?? '' };
  return {
    numFetched: s(picked.length),
    utxos: picked.map((x) => utxoString(x.utxo, encoding)),
    endIndex,
    ...(p.sourceChain !== undefined ? { sourceChain: String(p.sourceChain) } : {}),
    encoding,
  };
}

function needAsset(state: DevnetState, p: Params, key = 'assetID') {
  const id = p[key];
  const asset = resolveAsset(state, typeof id === 'string' ? id : '');
  if (!asset) throw new RpcFault(`couldn't find asset "${String(id)}"`);
  return asset;
}

export function registerXvm(router: RpcRouter, state: DevnetState): void {
  for (const path of ['/ext/bc/X', `/ext/bc/${state.chains.X}`]) {
    router
      .on(path, 'xvm.getBalance', (p) => {
        const address = needAddress(state, p.address, ['X']);
        const asset = needAsset(state, p);
        const utxos = utxosOf(state, 'X', [address]).filter((u) => u.assetID === asset.id);
        return {
          balance: s(utxos.reduce((sum, u) => sum + u.amount, 0n)),
          utxoIDs: utxos.map((u) => ({ txID: u.txID, outputIndex: u.outputIndex })),
        };
      })
      .on(path, 'xvm.getAllBalances', (p) => {
        const address = needAddress(state, p.address, ['X']);
        const byAsset = new Map<string, bigint>();
        for (const u of utxosOf(state, 'X', [address])) byAsset.set(u.assetID, (byAsset.get(u.assetID) ?? 0n) + (u.groupID !== undefined ? 1n : u.amount));
        // A real node (caminogo vms/avm/service.go GetAllBalances) names each asset by its primary alias
        // when it has one: "CAM" for the native asset (REAL-WIRE.md). The spec dialect answers IDs only.
        const name = (id: string) => {
          if (router.dialect !== 'camino') return id;
          return id === state.nativeAssetID ? state.nativeAssetAlias : (state.assets.get(id)?.alias ?? id);
        };
        return { balances: [...byAsset].map(([id, balance]) => ({ asset: name(id), balance: s(balance) })) };
      })
      .on(path, 'xvm.getAssetDescription', (p) => {
        const asset = needAsset(state, p);
        return { assetID: asset.id, name: asset.name, symbol: asset.symbol, denomination: s(asset.denomination) };
      })
      .on(path, 'xvm.getAddressTxs', (p) => {
        if (!state.indexTransactions) throw new RpcFault('address transaction indexing is disabled: enable index-transactions in the chain configuration');
        const address = needAddress(state, p.address, ['X']);
        const asset = needAsset(state, p);
        const cursor = p.cursor === undefined || p.cursor === '' ? 0 : Number(needUint(p, 'cursor'));
        let pageSize = PAGE_MAX;
        if (p.pageSize !== undefined) pageSize = Math.min(Number(needUint(p, 'pageSize')) || PAGE_MAX, PAGE_MAX);
        const bare = bareAddress(address);
        const touches = (addrs: string[]) => addrs.some((a) => bareAddress(a) === bare);
        const txs = [...state.txs.values()]
          .filter((t) => t.chain === 'X' && t.status === 'Accepted')
          .filter(
            (t) =>
              t.inputs.some((i) => i.assetID === asset.id && touches(i.addresses)) ||
              t.outputs.some((id) => {
                const u = state.utxos.get(id);
                return u !== undefined && u.assetID === asset.id && touches(u.addresses);
              }),
          )
          .sort((a, b) => a.timestamp - b.timestamp);
        const page = txs.slice(cursor, cursor + pageSize);
        return { txIDs: page.map((t) => t.id), cursor: s(cursor + page.length) };
      })
      .on(path, 'xvm.getTx', (p) => {
        const id = needString(p, 'txID');
        const encoding = checkEncoding(p, ['cb58', 'hex', 'json']);
        const tx = state.txs.get(id);
        if (tx?.chain !== 'X') throw new RpcFault('not found');
        return { tx: encoding === 'json' ? txJson(state, tx) : txString(tx, encoding), encoding };
      })
      .on(path, 'xvm.getTxStatus', (p) => {
        const id = needString(p, 'txID');
        const tx = state.txs.get(id);
        return { status: tx && tx.chain === 'X' ? tx.status : 'Unknown' };
      })
      .on(path, 'xvm.getUTXOs', (p) => pageUtxos(state, 'X', p, ['X'], false));
  }

  router.on('/ext/vm/xvm', 'xvm.buildGenesis', (p) => {
    needUint(p, 'networkID');
    const data = p.genesisData;
    if (!data || typeof data !== 'object' || Array.isArray(data)) throw new RpcFault('missing genesisData');
    const encoding = checkEncoding(p, ['cb58', 'hex']);
    for (const [alias, asset] of Object.entries(data as Record<string, Record<string, unknown>>)) {
      if (typeof asset?.symbol === 'string' && asset.symbol.length > 4) throw new RpcFault(`asset ${alias}: symbol is too long`);
      const st = (asset?.initialState ?? {}) as Record<string, unknown>;
      for (const h of (st.fixedCap as Array<{ address?: string }> | undefined) ?? []) {
        try {
          parseBareBech32(String(h.address));
        } catch (err) {
          throw new RpcFault(`problem parsing holder address: ${(err as Error).message}`);
        }
      }
    }
    const bytes = Buffer.concat([Buffer.from([0, 0]), Buffer.from(JSON.stringify({ networkID: p.networkID, genesisData: data }), 'utf8')]);
    return { bytes: encoding === 'hex' ? hexWithChecksum(bytes) : cb58Encode(bytes), encoding };
  });
}
