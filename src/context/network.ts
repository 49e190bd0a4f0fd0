import { tolerantBigInt } from '../codec/index.js';

/** The native asset has 9 decimals on the X and P chains (DESIGN section 5). */
export const NATIVE_DECIMALS = 9;
/** EVM balances are in wei: 18 decimals. */
export const WEI_DECIMALS = 18;

export interface NetworkInfo {
  networkID: string;
  /** bech32 prefix of addresses on this network. */
  hrp: string;
  /** Symbol of the native asset. */
  assetSymbol: string;
  /** ID of the native asset (empty when the node did not say). */
  assetID: string;
  /** Where the facts came from: the node's configuration or the table of known networks. */
  source: 'configuration' | 'known-networks';
  /**
   * Camino's bond/deposit lock mode (`lockModeBondDeposit`, on for every Camino network): stake is
   * bonded, `platform.addValidator` needs a node owner and `platform.addDelegator` is refused.
   * Undefined when the node did not say.
   */
  lockModeBondDeposit?: boolean;
}

export interface AssetInfo {
  assetID: string;
  name: string;
  symbol: string;
  denomination: number;
}

/** Networks of this family, used only when the node cannot tell (DESIGN section 5). */
export const KNOWN_NETWORKS: Record<string, { name: string; hrp: string; evmChainId?: string; lockModeBondDeposit?: boolean }> = {
  '1000': { name: 'main', hrp: 'camino', evmChainId: '500', lockModeBondDeposit: true },
  '1001': { name: 'test', hrp: 'columbus', evmChainId: '501', lockModeBondDeposit: true },
  '1002': { name: 'dev', hrp: 'kopernikus', evmChainId: '502', lockModeBondDeposit: true },
  '12345': { name: 'local', hrp: 'local' },
};

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
