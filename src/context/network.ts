import { tolerantBigInt } from '../codec/index.js';
import { InputError } from '../errors.js';

import { type AssetInfo, KNOWN_NETWORKS, type NetworkInfo } from '../core/network.js';

export { type AssetInfo, KNOWN_NETWORKS, NATIVE_DECIMALS, type NetworkInfo, WEI_DECIMALS } from '../core/network.js';

type RpcFn = (endpoint: 'platform' | 'info' | 'xvm', method: string, params?: Record<string, unknown>) => Promise<unknown>;

/**
 * Learns the network once per process: `platform.getConfiguration` gives hrp, symbol and
 * IDs; if the node does not serve it, `info.getNetworkID` plus the known-networks table.
 * A failed lookup is not cached, so the next call tries again.
 */
export class NetworkCache {
  private network?: Promise<NetworkInfo>;
  private known?: NetworkInfo;
  private readonly assets = new Map<string, Promise<AssetInfo>>();

  constructor(private readonly rpc: RpcFn) {}

  get(): Promise<NetworkInfo> {
    if (!this.network) {
      this.network = this.load().then(
        (info) => {
          this.known = info;
          return info;
        },
        (err: unknown) => {
          this.network = undefined;
          throw err;
        },
      );
    }
    return this.network;
  }

  /** The network if it was already learned, without a request (the spend guards' first stage). */
  peek(): NetworkInfo | undefined {
    return this.known;
  }

  asset(assetID: string): Promise<AssetInfo> {
    let entry = this.assets.get(assetID);
    if (!entry) {
      entry = this.loadAsset(assetID).catch((err: unknown) => {
        this.assets.delete(assetID);
        throw err;
      });
      this.assets.set(assetID, entry);
    }
    return entry;
  }

  private async load(): Promise<NetworkInfo> {
    try {
      const raw = (await this.rpc('platform', 'platform.getConfiguration')) as Record<string, unknown>;
      const networkID = tolerantBigInt(raw.networkID);
      if (typeof raw.hrp === 'string' && networkID !== undefined) {
        return {
          networkID: networkID.toString(),
          hrp: raw.hrp,
          assetSymbol: typeof raw.assetSymbol === 'string' ? raw.assetSymbol : '',
          assetID: typeof raw.assetID === 'string' ? raw.assetID : '',
          source: 'configuration',
          ...(typeof raw.lockModeBondDeposit === 'boolean' ? { lockModeBondDeposit: raw.lockModeBondDeposit } : {}),
        };
      }
    } catch (err) {
      if ((err as { kind?: string }).kind !== 'rpc') throw err;
    }
    const raw = (await this.rpc('info', 'info.getNetworkID')) as Record<string, unknown>;
    const networkID = String(tolerantBigInt(raw.networkID) ?? '');
    const known = KNOWN_NETWORKS[networkID];
    return {
      networkID,
      hrp: known?.hrp ?? 'custom',
      assetSymbol: '',
      assetID: '',
      source: 'known-networks',
      ...(known?.lockModeBondDeposit !== undefined ? { lockModeBondDeposit: known.lockModeBondDeposit } : {}),
    };
  }

  private async loadAsset(assetID: string): Promise<AssetInfo> {
    const raw = (await this.rpc('xvm', 'xvm.getAssetDescription', { assetID })) as Record<string, unknown>;
    const denomination = Number(tolerantBigInt(raw.denomination) ?? 0n);
    return {
      assetID: String(raw.assetID ?? raw.assetId ?? assetID),
      name: String(raw.name ?? ''),
      symbol: String(raw.symbol ?? ''),
      denomination: Number.isSafeInteger(denomination) && denomination <= 32 ? denomination : 0,
    };
  }
}

/** "camino (main network, ID 1000)" for a bech32 prefix, as far as the known-networks table tells. */
export function describeNetwork(hrp: string, networkID?: string): string {
  const entry = Object.entries(KNOWN_NETWORKS).find(([id, n]) => n.hrp === hrp && (networkID === undefined || networkID === '' || id === networkID));
  const id = networkID || entry?.[0];
  const name = entry ? `${entry[1].name} network` : '';
  const details = [name, id ? `ID ${id}` : ''].filter(Boolean).join(', ');
  return `"${hrp}"${details ? ` (${details})` : ''}`;
}

/**
 * Refuses bech32 chain addresses (`X-columbus1…`) whose prefix is not the node's network's, naming
 * both networks. Needs only the network (one cached lookup); an unknown network cannot be checked.
 */
export function checkAddressNetworks(addresses: readonly string[], network: NetworkInfo, field: string, indexed = true): void {
  if (network.hrp === '' || (network.source !== 'configuration' && network.hrp === 'custom')) return;
  addresses.forEach((address, i) => {
    const match = /^[XPC]-([a-z0-9]+)1[a-z0-9]+$/.exec(address);
    if (!match || match[1] === network.hrp) return;
    throw new InputError(
      indexed ? `${field}[${i}]` : field,
      `${address} is an address of network ${describeNetwork(match[1]!)}, but the node is on network ${describeNetwork(network.hrp, network.networkID)}; use this network's address of the same key (prefix "${network.hrp}") or point the server at the other network`,
    );
  });
}

/**
 * The same check for any read tool's top-level address arguments (a string or a list of strings),
 * against the network only when the node itself told it and it is already cached: no request.
 */
export function checkInputNetwork(input: Record<string, unknown>, network: NetworkInfo | undefined): void {
  if (network?.source !== 'configuration') return;
  for (const [key, value] of Object.entries(input)) {
    if (typeof value === 'string') checkAddressNetworks([value], network, key, false);
    // Non-strings become '' (never an address) so the index named is the item's own.
    else if (Array.isArray(value)) checkAddressNetworks(value.map((v: unknown) => (typeof v === 'string' ? v : '')), network, key);
  }
}
