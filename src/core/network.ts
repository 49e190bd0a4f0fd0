/** What the server knows of the node's network and its assets: plain data every layer may read. */

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
export const KNOWN_NETWORKS: Record<string, { name: string; hrp: string; evmChainId: string; lockModeBondDeposit?: boolean }> = {
  '1000': { name: 'main', hrp: 'camino', evmChainId: '500', lockModeBondDeposit: true },
  '1001': { name: 'test', hrp: 'columbus', evmChainId: '501', lockModeBondDeposit: true },
  '1002': { name: 'dev', hrp: 'kopernikus', evmChainId: '502', lockModeBondDeposit: true },
  '12345': { name: 'local', hrp: 'local', evmChainId: '43112' },
};
