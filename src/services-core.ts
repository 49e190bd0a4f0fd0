import { randomUUID } from 'node:crypto';
import { type Config, ConfigError } from './config.js';
import { ConfirmationBook } from './confirm.js';
import type { CallOptions, ToolDef } from './core/tool.js';
import { loadCatalogue } from './catalogue/load.js';
import { NetworkCache } from './context/network.js';
import { DialectCache, type DialectInfo } from './context/dialect.js';
import { ChainMcpError, HttpStatusError, RpcError } from './errors.js';
import type { Logger } from './log.js';
import { HttpClient } from './transport/http.js';
import { JsonRpcClient, type RpcParams } from './transport/jsonrpc.js';
import { RestClient } from './transport/rest.js';
import type { ApprovalBook } from './approval/book.js';
import type { ApprovalPages } from './approval/page.js';
import { CardSecrets } from './approval/card.js';
import type { KeyFileSigner } from './signer/keyfile.js';
import { OwnAddresses } from './spend/own.js';
import type { SpendLedger } from './spend/ledger.js';
import type { BuildMachinery, SpendMachinery } from './spend/machinery.js';
import { MemoryStore } from './state/memory.js';
import { stateSecret } from './state/seal.js';
import type { StateStore } from './state/store.js';
import type { LocalRecords } from './local/records.js';
import { type Endpoint, endpointPath, needsDialect, PRESETS, resolveWire, type WireNames, wireMethod, wireParams } from './wire.js';

/** What a composite's steps share to send their reads (registry/batcher.ts). */
export interface RpcSender {
  call(path: string, method: string, params: RpcParams, retry: boolean): Promise<unknown>;
}

export interface ServicesOptions {
  config: Config;
  log: Logger;
  /** The operations composite tools may call; loaded lazily when not given. */
  catalogue?: readonly ToolDef[];
  now?: () => number;
  /**
   * The opened state store: main.ts opens the configured one (CHAIN_MCP_STATE) before serving.
   * Absent (tests, developer tools): this process's memory, whatever config.state says.
   */
  state?: StateStore;
}

/**
 * Everything a tool call needs and that outlives one call: the HTTP agent, the clients,
 * the network cache and the confirmation book. One per server process.
 *
 * The spend machinery (approvals and their pages, the daily total, the local key file, kept local
 * previews: src/spend/machinery.ts) is built at construction when a builder is given (the
 * `Services` of services.ts), else loaded by {@link loadMachinery} where the configuration can
 * reach it (main.ts at start, a tools/call before it runs): a read-only stdio start never loads it.
 */
export class ServicesCore {
  readonly config: Config;
  readonly log: Logger;
  readonly http: HttpClient;
  readonly node: JsonRpcClient;
  readonly indexerClient?: RestClient;
  readonly runnerClient?: RestClient;
  /** Confirmation ids, approvals, card secrets and the daily total (CHAIN_MCP_STATE, src/state/). */
  readonly state: StateStore;
  readonly confirmations: ConfirmationBook;
  readonly cardSecrets: CardSecrets;
  readonly now: () => number;
  /** The keystore user's addresses, cached: change and import destinations are checked against them. */
  readonly ownAddresses: OwnAddresses;
  /**
   * Whether this configuration can reach the spend machinery: spends or admin writes allowed, or a
   * local key file to open (a key file that cannot be opened stops the start).
   */
  readonly spends: boolean;
  private machinery?: SpendMachinery;
  private loading?: Promise<SpendMachinery>;
  private readonly secret: Buffer;
  private byName?: Promise<Map<string, ToolDef>>;
  private readonly catalogueSource: () => Promise<readonly ToolDef[]>;
  private readonly networkCache: NetworkCache;
  readonly dialect: DialectCache;
  private readonly staticWire: WireNames;

  constructor(opts: ServicesOptions, build?: BuildMachinery) {
    this.config = opts.config;
    this.log = opts.log;
    this.now = opts.now ?? Date.now;
    this.http = new HttpClient({ timeoutMs: opts.config.timeoutMs, secrets: opts.config.secrets });
    this.node = new JsonRpcClient(this.http, opts.config.nodeUrl, opts.config.authToken);
    if (opts.config.indexerUrl) this.indexerClient = new RestClient(this.http, opts.config.indexerUrl, 'indexer');
    if (opts.config.runnerUrl) this.runnerClient = new RestClient(this.http, opts.config.runnerUrl, 'network runner');
    const given = opts.catalogue;
    this.catalogueSource = given ? () => Promise.resolve(given) : loadCatalogue;
    this.state = opts.state ?? new MemoryStore();
    // Approvals, kept previews and confirmation ids are authenticated with a secret of this
    // process alone; only replicas sharing a store share a key (DESIGN section 9). A key in the
    // environment of a single process is not used: any process of the same OS user can read it.
    const secret = stateSecret(this.state.shared, opts.config.stateKey);
    this.secret = secret;
    if (!this.state.shared && opts.config.stateKey !== undefined) {
      opts.log.info({ state: this.state.kind }, `CHAIN_MCP_STATE_KEY is not used with a ${this.state.kind} state store: approvals and previews are bound to a secret of this process (a restart drops pending ones)`);
    }
    this.confirmations = new ConfirmationBook(this.state, secret.toString('hex'));
    this.cardSecrets = new CardSecrets(this.state);
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
    this.spends = opts.config.allowSpend || opts.config.allowAdmin || opts.config.signer === 'local';
    if (build) this.machinery = build(this.machineryOptions());
    this.dialect = new DialectCache(opts.config.wire, (path, method, params) => this.node.call({ path, method, params }, { retry: true }), opts.log);
    this.staticWire = resolveWire(opts.config.wire, 'spec');
    this.networkCache = new NetworkCache((endpoint, method, params) => this.rpc(endpoint, method, params, { retry: true }));
  }

  private machineryOptions() {
    return { config: this.config, log: this.log, state: this.state, now: this.now, secret: this.secret, unlockText: () => this.unlockText() };
  }

  /**
   * Builds the spend machinery once (its modules load here); a key file that cannot be opened
   * rejects with the ConfigError that stops the start. Safe to call for any configuration.
   */
  loadMachinery(): Promise<SpendMachinery> {
    if (this.machinery) return Promise.resolve(this.machinery);
    this.loading ??= import('./spend/machinery.js').then(({ buildMachinery }) => {
      this.machinery ??= buildMachinery(this.machineryOptions());
      return this.machinery;
    });
    return this.loading;
  }

  /** The machinery, which must have been built (see {@link loadMachinery}); reaching it unbuilt is a bug, said loudly. */
  private built(): SpendMachinery {
    if (!this.machinery) throw new Error('chain-mcp: the spend machinery was used before it was loaded (ServicesCore.loadMachinery)');
    return this.machinery;
  }

  /** Approvals of spends and admin writes (CHAIN_MCP_STATE, src/state/). */
  get approvals(): ApprovalBook {
    return this.built().approvals;
  }

  get approvalPages(): ApprovalPages {
    return this.built().approvalPages;
  }

  /** What was sent in the last 24 hours, for CHAIN_MCP_MAX_SPEND_PER_DAY. */
  get ledger(): SpendLedger {
    return this.built().ledger;
  }

  /** Each local preview's exact unsigned bytes, kept until its confirmation: what is approved is what is signed. */
  get localRecords(): LocalRecords {
    return this.built().localRecords;
  }

  /**
   * The local signer (CHAIN_MCP_SIGNER=local): the key file's public addresses at once, signatures
   * once the human unlocked it on the approval page (or CHAIN_MCP_KEY_PASSPHRASE_FILE did at start).
   * Without a local signer there is none, machinery loaded or not.
   */
  get signer(): KeyFileSigner | undefined {
    return this.config.signer === 'local' ? this.built().signer : undefined;
  }

  /**
   * At start, for the local signer: unlocks the key from CHAIN_MCP_KEY_PASSPHRASE_FILE (a wrong
   * one stops the start with one line), else starts the approval page so the locked-key refusal
   * can name the unlock page's address. Nothing to do for another signer.
   */
  async prepareSigner(): Promise<void> {
    if (this.config.signer !== 'local') return;
    await this.loadMachinery();
    if (!this.signer) return;
    if (this.config.keyPassphrase === undefined) {
      const url = await this.approvalPages.unlockUrl();
      // For the person who started the server: where the key is unlocked (a page, not a secret).
      this.log.info({ key: this.signer.addresses.evm, unlockUrl: url }, `signing key locked: to sign spends, open ${url} in a browser on this computer and type the passphrase`);
      return;
    }
    const { WrongPassphraseError } = await import('./signer/keyfile.js');
    try {
      await this.signer.unlock(this.config.keyPassphrase);
    } catch (err) {
      if (err instanceof WrongPassphraseError) {
        throw new ConfigError(`CHAIN_MCP_KEY_PASSPHRASE_FILE: the passphrase in ${this.config.keyPassphraseFile} does not open ${this.config.keyFile}`);
      }
      throw err;
    }
    this.log.info({ audit: 'key_unlocked', channel: 'passphrase-file', key: this.signer.addresses.evm }, 'signing key unlocked from CHAIN_MCP_KEY_PASSPHRASE_FILE');
  }

  /**
   * The refusal line for a spend that needs the locked key: how the human unlocks it, and that
   * nothing was signed. It never names the unlock page's address: a page token the model holds is
   * one it could pace out against the human. The address reaches the human through the client's
   * URL elicitation when it offers one (a page token of its own), else through the terminal: the
   * line logged at start, logged again now.
   */
  async lockedKeyMessage(elicitUrl?: (message: string, url: string, elicitationId: string) => Promise<'accept' | 'decline' | 'cancel'>): Promise<string> {
    return `The signing key is locked: ${await this.howToUnlock(elicitUrl)}. Nothing was signed.`;
  }

  private async howToUnlock(elicitUrl?: (message: string, url: string, elicitationId: string) => Promise<'accept' | 'decline' | 'cancel'>): Promise<string> {
    if (!this.signer || this.config.keyPassphrase !== undefined) return this.unlockText();
    if (elicitUrl) {
      const url = await this.approvalPages.newUnlockUrl();
      if (url) {
        const answer = await elicitUrl('Unlock the signing key: type its passphrase on this page (never in the chat).', url, randomUUID());
        this.log.info({ audit: 'unlock_offered', channel: 'url-elicitation', answer }, 'unlock page offered through the client');
        if (answer === 'accept') return 'the human was shown the unlock page by their client; once they type the passphrase there it unlocks';
      }
    }
    const url = await this.approvalPages.unlockUrl();
    // For the person at the terminal, not the model: the result says only where to look.
    this.log.info({ key: this.signer.addresses.evm, unlockUrl: url }, `signing key locked: to sign spends, open ${url} in a browser on this computer and type the passphrase`);
    return this.unlockText();
  }

  private unlockText(): string {
    if (this.config.keyPassphrase !== undefined) return 'restart chain-mcp: it unlocks the key from CHAIN_MCP_KEY_PASSPHRASE_FILE at start';
    return "the human opens the unlock page whose address chain-mcp's log (stderr, the host's MCP server log) names, and types the passphrase there (never in the chat)";
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
    // Names no dialect changes still take the operator's overrides (a platform path, a method).
    const wire = needsDialect(endpoint, method) ? (await this.dialect.get()).wire : (this.dialect.peek()?.wire ?? this.staticWire);
    return { path: endpointPath(endpoint, wire, chain), method: wireMethod(method, wire) };
  }

  /**
   * Sends one JSON-RPC call (through `via` when a composite shares one). A call whose names depend
   * on the dialect and that the node answers as a node of the other dialect would (`can't find
   * service`, a renamed method unknown, a dialect path 404) makes the server learn the names
   * again, once. A read is then sent again under the new names. Anything else (a spend, a wallet
   * or admin write) is not: gorilla/rpc resolves the method before it runs anything, so nothing
   * was executed, but a write is never sent twice by the server; the caller is told to call again.
   */
  async rpc(endpoint: Endpoint, method: string, params?: RpcParams, opts: CallOptions & { signal?: AbortSignal; via?: RpcSender } = {}) {
    const retry = opts.retry ?? true;
    // The names this call went out under: other calls may re-learn them while it is in flight.
    let used: DialectInfo | undefined;
    const send = async () => {
      const route = await this.route(endpoint, method, opts.chain);
      used = this.dialect.peek();
      // Shapes a real node reads differently (avax baseFee as 0x-hex) follow the wire method.
      const sent = wireParams(route.method, params);
      if (opts.via) return opts.via.call(route.path, route.method, sent, retry);
      return this.node.call({ ...route, params: sent }, { retry, signal: opts.signal });
    };
    try {
      return await send();
    } catch (err) {
      if (endpoint === 'keystore') throw keystoreDisabled(err);
      if (!needsDialect(endpoint, method) || !answeredAsOtherDialect(err, endpoint, method)) throw err;
      const stale = used;
      // When the names cannot be learned again either, the call's own failure says most.
      const fresh = await this.dialect.relearn(stale).catch(() => undefined);
      if (!fresh || fresh.dialect === stale?.dialect) throw err;
      if (!retry) {
        throw new ChainMcpError('rpc', `The node refused ${method} under the names of the ${stale?.dialect ?? 'assumed'} dialect: it now speaks the ${fresh.dialect} names. Nothing was executed.`, {
          hint: 'The server has learned the new names; call the tool again (a spend needs a new preview and approval).',
        });
      }
      return await send();
    }
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
    // Pages are only ever served by a machinery that was built.
    await this.machinery?.approvalPages.close();
    await this.http.close();
    await this.state.close();
  }
}

/**
 * What a node of the other dialect answers: unknown namespace, unknown renamed method, or no such
 * path where the path itself differs by dialect (the C-chain atomic API, the asset VM's static API).
 */
function answeredAsOtherDialect(err: unknown, endpoint: Endpoint, method: string): boolean {
  if (err instanceof RpcError) {
    if (/can't find service/i.test(err.message)) return true;
    return /can't find method/i.test(err.message) && Object.values(PRESETS).some((preset) => Object.hasOwn(preset.methods, method));
  }
  return err instanceof HttpStatusError && err.status === 404 && (endpoint === 'cx' || endpoint === 'xvmStatic');
}

/** A real node serves /ext/keystore only when started with --api-keystore-enabled=true (off by default): it answers 404. */
function keystoreDisabled(err: unknown): unknown {
  if (!(err instanceof HttpStatusError) || err.status !== 404) return err;
  // Still an HttpStatusError: callers (the doctor) tell a disabled API by its status.
  return new HttpStatusError(404, "The node's keystore API is disabled: /ext/keystore answered HTTP 404 (not found).", {
    hint: 'Start the node with --api-keystore-enabled=true; wallet and spend tools need it.',
  });
}
