import { tolerantBigInt } from '../codec/index.js';

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
        };
      }
    } catch (err) {
      if ((err as { kind?: string }).kind !== 'rpc') throw err;
    }
    const raw = (await this.rpc('info', 'info.getNetworkID')) as Record<string, unknown>;
    const networkID = String(tolerantBigInt(raw.networkID) ?? '');
    const known = KNOWN_NETWORKS[networkID];
    return { networkID, hrp: known?.hrp ?? 'custom', assetSymbol: '', assetID: '', source: 'known-networks' };
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
