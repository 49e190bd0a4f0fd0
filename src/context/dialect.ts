import { ChainMcpError, HttpStatusError, RpcError } from '../errors.js';
import type { Logger } from '../log.js';
import type { RpcParams } from '../transport/jsonrpc.js';
import { type Dialect, PRESETS, resolveWire, type WireNames, type WireSetting } from '../wire.js';

type NodeCall = (path: string, method: string, params?: RpcParams) => Promise<unknown>;

export interface DialectInfo {
  dialect: Dialect;
  /** How it was learned: the override, `info.getNodeVersion`'s vmVersions, or a probe of the X chain. */
  source: 'configured' | 'vmVersions' | 'probe';
  wire: WireNames;
}

const HINT = 'Set CHAIN_MCP_WIRE_NAMES=camino for a Camino node (avm, avax) or CHAIN_MCP_WIRE_NAMES=spec, and restart the server.';

/**
 * Learns which names the node speaks, once per process (again only when a call shows the node
 * changed, see relearn). A real node reports its VMs by alias
 * in `info.getNodeVersion` (`avm`, `evm`, `platform`); when that answer says nothing, one cheap
 * call on the X chain tells: an unknown namespace is answered `can't find service`. A failed
 * detection is not cached, so the next call tries again.
 */
export class DialectCache {
  private pending?: Promise<DialectInfo>;
  private known?: DialectInfo;

  constructor(
    private readonly setting: WireSetting,
    private readonly call: NodeCall,
    private readonly log: Logger,
  ) {
    if (setting.base !== 'auto') this.known = { dialect: setting.base, source: 'configured', wire: resolveWire(setting, setting.base) };
  }

  /** The names in force if already known; never a request. */
  peek(): DialectInfo | undefined {
    return this.known;
  }

  get(): Promise<DialectInfo> {
    if (this.known) return Promise.resolve(this.known);
    this.pending ??= this.detect().then(
      (info) => {
        this.known = info;
        this.log.info({ dialect: info.dialect, source: info.source, wire: info.wire }, 'node dialect learned');
        return info;
      },
      (err: unknown) => {
        this.pending = undefined;
        throw err;
      },
    );
    return this.pending;
  }

  /**
   * Learns the names again after a call that depended on them was answered as by a node of the
   * other dialect (the node was replaced or upgraded while this server ran). Calls that fail
   * together share one detection; a configured dialect is the operator's word and is kept.
   * Resolves to the new names, or undefined when there is nothing to re-learn.
   */
  async relearn(stale: DialectInfo | undefined): Promise<DialectInfo | undefined> {
    if (this.setting.base !== 'auto') return undefined;
    if (this.known === stale) {
      this.known = undefined;
      this.pending = undefined;
      this.log.warn({ was: stale?.dialect }, 'node answered as another dialect; learning its names again');
    }
    return this.get();
  }

  private async detect(): Promise<DialectInfo> {
    const from = (dialect: Dialect, source: DialectInfo['source']): DialectInfo => ({ dialect, source, wire: resolveWire(this.setting, dialect) });
    const byVersions = await this.fromVmVersions();
    if (byVersions) return from(byVersions, 'vmVersions');
    for (const dialect of ['camino', 'spec'] as const) {
      if (await this.speaks(dialect)) return from(dialect, 'probe');
    }
    throw new ChainMcpError('not_configured', 'Could not learn which API names this node speaks (neither avm nor xvm answers on /ext/bc/X).', { hint: HINT });
  }

  private async fromVmVersions(): Promise<Dialect | undefined> {
    try {
      const raw = (await this.call('/ext/info', 'info.getNodeVersion')) as { vmVersions?: unknown } | null;
      const vms = raw?.vmVersions;
      if (vms && typeof vms === 'object') {
        if ('avm' in vms) return 'camino';
        if ('xvm' in vms) return 'spec';
      }
    } catch (err) {
      // A node that refuses this method can still be probed; one that cannot be reached cannot.
      if (!(err instanceof RpcError) && !(err instanceof HttpStatusError && err.status === 404)) throw err;
    }
    return undefined;
  }

  /** True when the X chain knows this dialect's namespace: any answer but `can't find service`. */
  private async speaks(dialect: Dialect): Promise<boolean> {
    try {
      await this.call('/ext/bc/X', `${PRESETS[dialect].xvm}.getAssetDescription`, { assetID: 'X' });
      return true;
    } catch (err) {
      if (err instanceof RpcError) return !/can't find service/i.test(err.message);
      if (err instanceof HttpStatusError && err.status === 404) return false;
      throw err;
    }
  }
}
