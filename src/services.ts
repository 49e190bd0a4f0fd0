import type { Config } from './config.js';
import { ConfirmationBook } from './confirm.js';
import type { CallOptions, ToolDef } from './core/tool.js';
import { loadCatalogue } from './catalogue/load.js';
import { NetworkCache } from './context/network.js';
import { DialectCache } from './context/dialect.js';
import { HttpStatusError } from './errors.js';
import type { Logger } from './log.js';
import { HttpClient } from './transport/http.js';
import { JsonRpcClient, type RpcParams } from './transport/jsonrpc.js';
import { RestClient } from './transport/rest.js';
import { ApprovalBook } from './approval/book.js';
import { ApprovalPages } from './approval/page.js';
import { PasskeyStore } from './approval/passkey.js';
import { CardSecrets } from './approval/card.js';
import { OwnAddresses } from './spend/own.js';
import { SpendLedger } from './spend/ledger.js';
import { type Endpoint, endpointPath, needsDialect, PRESETS, wireMethod } from './wire.js';

export interface ServicesOptions {
  config: Config;
  log: Logger;
  /** The operations composite tools may call; loaded lazily when not given. */
  catalogue?: readonly ToolDef[];
  now?: () => number;
}

/**
 * Everything a tool call needs and that outlives one call: the HTTP agent, the clients,
 * the network cache and the confirmation book. One per server process.
 */
export class Services {
  readonly config: Config;
  readonly log: Logger;
  readonly http: HttpClient;
  readonly node: JsonRpcClient;
  readonly indexerClient?: RestClient;
  readonly runnerClient?: RestClient;
  readonly confirmations = new ConfirmationBook();
  readonly approvals: ApprovalBook;
  readonly approvalPages: ApprovalPages;
  readonly cardSecrets = new CardSecrets();
  readonly now: () => number;
  /** What was sent in the last 24 hours, for CHAIN_MCP_MAX_SPEND_PER_DAY. */
  readonly ledger: SpendLedger;
  /** The keystore user's addresses, cached: change and import destinations are checked against them. */
  readonly ownAddresses: OwnAddresses;
  private byName?: Promise<Map<string, ToolDef>>;
  private readonly catalogueSource: () => Promise<readonly ToolDef[]>;
  private readonly networkCache: NetworkCache;
  readonly dialect: DialectCache;

  constructor(opts: ServicesOptions) {
    this.config = opts.config;
    this.log = opts.log;
    this.now = opts.now ?? Date.now;
    this.http = new HttpClient({ timeoutMs: opts.config.timeoutMs, secrets: opts.config.secrets });
    this.node = new JsonRpcClient(this.http, opts.config.nodeUrl, opts.config.authToken);
    if (opts.config.indexerUrl) this.indexerClient = new RestClient(this.http, opts.config.indexerUrl, 'indexer');
    if (opts.config.runnerUrl) this.runnerClient = new RestClient(this.http, opts.config.runnerUrl, 'network runner');
    const given = opts.catalogue;
    this.catalogueSource = given ? () => Promise.resolve(given) : loadCatalogue;
    this.approvals = new ApprovalBook(this.now);
    this.ledger = new SpendLedger(this.now);
    const keystore = opts.config.keystore;
    this.ownAddresses = new OwnAddresses(
      keystore
        ? async (chain) => {
            const list = async (endpoint: 'xvm' | 'platform') => {
              const raw = (await this.rpc(endpoint, `${endpoint}.listAddresses`, { ...keystore }, { retry: true })) as { addresses?: unknown };
              return Array.isArray(raw?.addresses) ? raw.addresses.filter((a): a is string => typeof a === 'string') : [];
            };
            // The P list where the node keeps one; else the X list (same keys, same payload).
            return chain === 'P' ? list('platform').catch(() => list('xvm')) : list('xvm');
          }
        : undefined,
    );
    this.approvalPages = new ApprovalPages(this.approvals, opts.log, opts.config.approvalLink === 'passkey' ? new PasskeyStore(opts.config.passkeyFile, opts.log) : undefined);
    this.dialect = new DialectCache(opts.config.wire, (path, method, params) => this.node.call({ path, method, params }, { retry: true }), opts.log);
    this.networkCache = new NetworkCache((endpoint, method, params) => this.rpc(endpoint, method, params, { retry: true }));
  }

  catalogue(): Promise<readonly ToolDef[]> {
    return this.catalogueSource();
  }

  async tool(name: string): Promise<ToolDef | undefined> {
    this.byName ??= this.catalogueSource().then((all) => new Map(all.map((t) => [t.name, t])));
    return (await this.byName).get(name);
  }

  /** Path and method on the wire; learns the node's dialect first when the names depend on it. */
  async route(endpoint: Endpoint, method: string, chain?: string): Promise<{ path: string; method: string }> {
    const wire = needsDialect(endpoint, method) ? (await this.dialect.get()).wire : PRESETS.spec;
    return { path: endpointPath(endpoint, wire, chain), method: wireMethod(method, wire) };
  }

  async rpc(endpoint: Endpoint, method: string, params?: RpcParams, opts: CallOptions & { signal?: AbortSignal } = {}) {
    const route = await this.route(endpoint, method, opts.chain);
    const answer = this.node.call({ ...route, params }, { retry: opts.retry ?? true, signal: opts.signal });
    return endpoint === 'keystore' ? answer.catch((err: unknown) => Promise.reject(keystoreDisabled(err))) : answer;
  }

  network() {
    return this.networkCache.get();
  }

  /** The network if already cached; never a request. */
  cachedNetwork() {
    return this.networkCache.peek();
  }

  asset(assetID: string) {
    return this.networkCache.asset(assetID);
  }

  async close(): Promise<void> {
    await this.approvalPages.close();
    await this.http.close();
  }
}

/** A real node serves /ext/keystore only when started with --api-keystore-enabled=true (off by default): it answers 404. */
function keystoreDisabled(err: unknown): unknown {
  if (!(err instanceof HttpStatusError) || err.status !== 404) return err;
  // Still an HttpStatusError: callers (the doctor) tell a disabled API by its status.
  return new HttpStatusError(404, "The node's keystore API is disabled: /ext/keystore answered HTTP 404 (not found).", {
    hint: 'Start the node with --api-keystore-enabled=true; wallet and spend tools need it.',
  });
}
