import type { z } from 'zod';
import type { Config } from '../config.js';
import { ConfirmationBook } from '../confirm.js';
import type { CallOptions, SpendPlan, ToolContext, ToolDef } from '../catalogue/types.js';
import { loadCatalogue } from '../catalogue/load.js';
import { NetworkCache } from '../context/network.js';
import { ChainMcpError, HttpStatusError, InputError, renderError, toChainMcpError } from '../errors.js';
import type { Logger } from '../log.js';
import { RpcBatcher } from './batcher.js';
import { redactSecrets, redactValue } from '../redact.js';
import { clipText } from '../summarize/format.js';
import { checkWithoutRequests, pinNetwork, spendLimits } from '../spend/guard.js';
import { HttpClient } from '../transport/http.js';
import { JsonRpcClient, type RpcParams } from '../transport/jsonrpc.js';
import { RestClient } from '../transport/rest.js';
import { ApprovalBook } from '../approval/book.js';
import { humanDecision, needsLink } from '../approval/flow.js';
import { ApprovalPages } from '../approval/page.js';
import { CardSecrets, cardMeta } from '../approval/card.js';
import { DialectCache } from '../context/dialect.js';
import { type Endpoint, endpointPath, needsDialect, PRESETS, wireMethod } from '../wire.js';
import { cleanValue } from '../summarize/stranger.js';
import { effectiveSchemas } from './listing.js';
import { fitStructured } from './structured-budget.js';

export interface ToolResult {
  [key: string]: unknown;
  content: Array<{ type: 'text'; text: string }>;
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

/** Per-call hooks from the protocol layer. */
export interface CallHooks {
  signal?: AbortSignal;
  progress?: (done: number, total?: number, message?: string) => Promise<void>;
  /** Asks the human yes or no; undefined when the client cannot be asked (no form elicitation). */
  elicit?: (message: string) => Promise<'accept' | 'decline' | 'cancel'>;
  /** Asks the client to open a URL for the human (URL-mode elicitation); undefined when it cannot. */
  elicitUrl?: (message: string, url: string, elicitationId: string) => Promise<'accept' | 'decline' | 'cancel'>;
  /** The host shows MCP Apps views: spend previews link the approval card. */
  appCard?: boolean;
}

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
  private byName?: Promise<Map<string, ToolDef>>;
  private readonly catalogueSource: () => Promise<readonly ToolDef[]>;
  private readonly networkCache: NetworkCache;
  readonly dialect: DialectCache;

  constructor(opts: ServicesOptions) {
    this.config = opts.config;
    this.log = opts.log;
    this.now = opts.now ?? Date.now;
    this.http = new HttpClient({ timeoutMs: opts.config.timeoutMs });
    this.node = new JsonRpcClient(this.http, opts.config.nodeUrl, opts.config.authToken);
    if (opts.config.indexerUrl) this.indexerClient = new RestClient(this.http, opts.config.indexerUrl, 'indexer');
    if (opts.config.runnerUrl) this.runnerClient = new RestClient(this.http, opts.config.runnerUrl, 'network runner');
    const given = opts.catalogue;
    this.catalogueSource = given ? () => Promise.resolve(given) : loadCatalogue;
    this.approvals = new ApprovalBook(this.now);
    this.approvalPages = new ApprovalPages(this.approvals, opts.log);
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

/**
 * Builds the context one tool call sees. Reads retry; wallet, spend and admin calls never do.
 * The steps of a composite (ctx.call) share `batcher`: their node reads go out as one batch per endpoint.
 */
export function makeContext(services: Services, tool: ToolDef, hooks: CallHooks, batcher?: RpcBatcher): ToolContext {
  const signal = hooks.signal ?? new AbortController().signal;
  const retryDefault = tool.tier === 'read';
  let stepBatcher: RpcBatcher | undefined;
  const ctx: ToolContext = {
    config: services.config,
    log: services.log,
    signal,
    rpc: (endpoint, method, params, opts = {}) => {
      const retry = opts.retry ?? retryDefault;
      if (!batcher) return services.rpc(endpoint, method, params, { retry, chain: opts.chain, signal });
      return services.route(endpoint, method, opts.chain).then((route) => batcher.call(route.path, route.method, params, retry));
    },
    indexer: (path, query = []) => {
      if (!services.indexerClient) {
        throw new ChainMcpError('not_configured', 'The indexer is not configured.', {
          hint: 'Set CHAIN_MCP_INDEXER_URL to the indexer base URL (for example http://127.0.0.1:8080) and restart the server.',
        });
      }
      return services.indexerClient.get(path, query, signal);
    },
    runner: (path, body) => {
      if (!services.runnerClient) {
        throw new ChainMcpError('not_configured', 'The local network runner is not configured.', {
          hint: 'Set CHAIN_MCP_RUNNER_URL to the runner HTTP gateway (for example http://127.0.0.1:8081) and restart the server.',
        });
      }
      return services.runnerClient.post(path, body, signal);
    },
    network: () => services.network(),
    asset: (assetID) => services.asset(assetID),
    call: async (name, args) => {
      const other = await services.tool(name);
      if (other?.tier !== 'read') throw new ChainMcpError('internal', `Composite step ${name} is not a read operation.`);
      const input = parseInput(other, other.input, args);
      stepBatcher ??= batcher ?? new RpcBatcher(services.node, signal);
      return (await runOperation(other, input, makeContext(services, other, hooks, stepBatcher))) as Record<string, unknown>;
    },
    progress: hooks.progress ?? (async () => undefined),
    now: services.now,
  };
  return ctx;
}

/** Validates arguments; a refusal names the field(s) and nothing is sent. */
export function parseInput(tool: ToolDef, schema: z.ZodType, args: unknown): Record<string, unknown> {
  const result = schema.safeParse(args ?? {});
  if (result.success) return result.data as Record<string, unknown>;
  const issues = result.error.issues.slice(0, 3);
  const first = issues[0]!;
  const field = fieldPath(first.path, first);
  const rest = issues.slice(1).map((i) => `${fieldPath(i.path, i)}: ${issueMessage(i, args)}`);
  throw new InputError(field, issueMessage(first, args) + (rest.length ? `; also ${rest.join('; ')}` : '') + ` (tool ${tool.name}).`);
}

/** The argument at an issue's path (zod does not keep the input on its issues). */
function valueAt(args: unknown, path: ReadonlyArray<PropertyKey>): unknown {
  let value = args;
  for (const key of path) value = value !== null && typeof value === 'object' ? (value as Record<PropertyKey, unknown>)[key] : undefined;
  return value;
}

function fieldPath(path: ReadonlyArray<PropertyKey>, issue: z.core.$ZodIssue): string {
  if (issue.code === 'unrecognized_keys') return issue.keys.map(String).join(', ');
  if (path.length === 0) return 'arguments';
  return path.map((p, i) => (typeof p === 'number' ? `[${p}]` : i === 0 ? String(p) : `.${String(p)}`)).join('');
}

function issueMessage(issue: z.core.$ZodIssue, args: unknown): string {
  switch (issue.code) {
    case 'unrecognized_keys':
      return 'unknown argument; remove it';
    case 'invalid_type':
      return valueAt(args, issue.path) === undefined ? `required (${issue.expected})` : `expected ${issue.expected}`;
    case 'invalid_value':
      return `expected one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}`;
    case 'too_big':
      return `must be at most ${String(issue.maximum)}${issue.origin === 'string' ? ' characters' : issue.origin === 'array' ? ' items' : ''}`;
    case 'too_small':
      return `must be at least ${String(issue.minimum)}${issue.origin === 'string' ? ' characters' : issue.origin === 'array' ? ' items' : ''}`;
    default:
      return issue.message;
  }
}

/** Runs an operation to its structured output (no summary). */
export async function runOperation(tool: ToolDef, input: Record<string, unknown>, ctx: ToolContext): Promise<unknown> {
  let raw: unknown;
  if (tool.run) {
    raw = await tool.run(input, ctx);
  } else if (tool.request) {
    const answer = await sendRequest(tool, input, ctx);
    raw = tool.decode ? await tool.decode(answer, input, ctx) : answer;
  } else {
    throw new ChainMcpError('internal', `Tool ${tool.name} has neither run nor request.`);
  }
  const parsed = tool.output.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new ChainMcpError('malformed', `The answer for ${tool.name} does not have the expected shape (${issue.path.join('.') || 'result'}: ${issue.message}).`, {
      hint: 'The node may run a different API version; report this with the node version (info_getNodeVersion).',
    });
  }
  return parsed.data;
}

const LOCAL_FIELDS = new Set(['chain', 'confirm']);

/** A real node serves /ext/keystore only when started with --api-keystore-enabled=true (off by default): it answers 404. */
function keystoreDisabled(err: unknown): unknown {
  if (!(err instanceof HttpStatusError) || err.status !== 404) return err;
  // Still an HttpStatusError: callers (the doctor) tell a disabled API by its status.
  return new HttpStatusError(404, "The node's keystore API is disabled: /ext/keystore answered HTTP 404 (not found).", {
    hint: 'Start the node with --api-keystore-enabled=true; wallet and spend tools need it.',
  });
}

async function sendRequest(tool: ToolDef, input: Record<string, unknown>, ctx: ToolContext): Promise<unknown> {
  const spec = tool.request!;
  switch (spec.kind) {
    case 'rpc': {
      let params: RpcParams = spec.params
        ? spec.params(input, ctx)
        : Object.fromEntries(Object.entries(input).filter(([k, v]) => v !== undefined && !LOCAL_FIELDS.has(k)));
      if (spec.credentials) {
        const keystore = ctx.config.keystore;
        if (!keystore) {
          throw new ChainMcpError('not_configured', 'No keystore user is configured.', {
            hint: 'Set CHAIN_MCP_KEYSTORE_USER and CHAIN_MCP_KEYSTORE_PASSWORD in the server environment.',
          });
        }
        params = { ...(params as Record<string, unknown>), username: keystore.username, password: keystore.password };
      }
      if (spec.adminSecret && ctx.config.adminSecret !== undefined) {
        params = { ...(params as Record<string, unknown>), secret: ctx.config.adminSecret };
      }
      const chain = typeof input.chain === 'string' ? input.chain : undefined;
      return ctx.rpc(spec.endpoint, spec.method, params, { chain });
    }
    case 'rest':
      return ctx.indexer(spec.path(input), spec.query ? spec.query(input) : []);
    case 'runner':
      return ctx.runner(spec.path, spec.body ? spec.body(input, ctx) : {});
  }
}

function textResult(text: string, structured: Record<string, unknown> | undefined, config: Config): ToolResult {
  if (!structured) return { content: [{ type: 'text', text: clipText(redactSecrets(text, config.secrets), config.maxOutputBytes) }] };
  const fitted = fitStructured(cleanValue(redactValue(structured, config.secrets)), config.maxStructuredBytes);
  const full = fitted.note ? `${text}\n${fitted.note}` : text;
  return { content: [{ type: 'text', text: clipText(redactSecrets(full, config.secrets), config.maxOutputBytes) }], structuredContent: fitted.value };
}

export function errorResult(err: unknown, config: Config): ToolResult {
  const error = toChainMcpError(err);
  const text = clipText(redactSecrets(renderError(error), config.secrets), config.maxOutputBytes);
  return { content: [{ type: 'text', text }], isError: true };
}

/** One tools/call: validate, (preview | confirm | run), summarize, keep inside the budget, never throw. */
export async function callTool(services: Services, tool: ToolDef, args: unknown, hooks: CallHooks = {}): Promise<ToolResult> {
  const { config, log } = services;
  try {
    const { input: schema } = effectiveSchemas(tool);
    const input = parseInput(tool, schema, args);
    const ctx = makeContext(services, tool, hooks);
    if (tool.tier === 'spend') return await callSpend(services, tool, input, ctx, hooks);
    const output = (await runOperation(tool, input, ctx)) as Record<string, unknown>;
    const text = await tool.summarize(output, input, ctx);
    return textResult(text, output, config);
  } catch (err) {
    const error = toChainMcpError(err);
    if (error.kind === 'internal') log.error({ tool: tool.name, err: redactSecrets(String((err as Error)?.stack ?? err), config.secrets) }, 'tool failed');
    else log.debug({ tool: tool.name, kind: error.kind }, 'tool error');
    return errorResult(error, config);
  }
}

function redeemOrRefuse(services: Services, tool: ToolDef, args: Record<string, unknown>, confirm: string, audit: Record<string, unknown>): void {
  try {
    services.confirmations.redeem(confirm, tool.name, args, services.now());
  } catch (err) {
    services.log.info({ audit: 'refused', ...audit, why: (err as Error).message }, 'spend confirmation refused');
    throw err;
  }
}

/** The limits in force, for the human to see beside the preview. */
function limitsInForce(config: Config): string[] {
  const lines: string[] = [];
  if (config.maxSpend !== undefined) lines.push(`Limit in force: at most ${config.maxSpend} smallest units per spend (CHAIN_MCP_MAX_SPEND)`);
  if (config.allowedRecipients) lines.push(`Limit in force: recipients only from CHAIN_MCP_ALLOWED_RECIPIENTS (${config.allowedRecipients.length})`);
  if (config.expectNetworkId) lines.push(`Limit in force: network ${config.expectNetworkId} only (CHAIN_MCP_EXPECT_NETWORK_ID)`);
  return lines;
}

/**
 * Under CHAIN_MCP_APPROVAL=human: the id must be valid, and the human must have approved this
 * exact preview through a channel the model cannot drive. Returns a declined result, throws when
 * not (yet) approved, and returns undefined once the id is consumed and the spend may go.
 */
async function humanApproval(
  services: Services,
  tool: ToolDef,
  args: Record<string, unknown>,
  confirm: string,
  plan: SpendPlan,
  hooks: CallHooks,
): Promise<ToolResult | undefined> {
  const { config, log } = services;
  const audit = { tool: tool.name };
  let nonce: string;
  try {
    nonce = services.confirmations.verify(confirm, tool.name, args, services.now());
  } catch (err) {
    log.info({ audit: 'refused', ...audit, why: (err as Error).message }, 'spend confirmation refused');
    throw err;
  }
  const approval = services.approvals.get(nonce);
  if (!approval) {
    throw new ChainMcpError('confirmation', 'Confirmation refused: this preview has no approval waiting (expired, or the server restarted). Nothing was sent.', {
      hint: 'Call the tool again without confirm to get a fresh preview.',
    });
  }
  const state = await humanDecision({ book: services.approvals, pages: services.approvalPages, log, waitMs: config.approvalWaitMs }, approval, hooks);
  if (state === 'pending') {
    log.info({ audit: 'not_approved', ...audit }, 'spend not approved yet');
    const where = needsLink(hooks) ? ` The human approves at ${await services.approvalPages.url(approval)} .` : '';
    throw new ChainMcpError('confirmation', `Not approved by the human yet; nothing was sent.${where}`, {
      hint: 'Ask the human to approve (or decline) this exact preview, then call again with the same confirm. The model cannot approve it.',
    });
  }
  services.confirmations.redeem(confirm, tool.name, args, services.now());
  services.approvals.forget(approval);
  if (state === 'declined') {
    log.info({ audit: 'declined', ...audit, channel: approval.decidedBy }, 'spend declined');
    return textResult('Declined by the human; nothing was sent.', { status: 'declined', preview: plan.lines }, config);
  }
  log.info({ audit: 'approved', ...audit, channel: approval.decidedBy }, 'spend approved by the human');
  return undefined;
}

/** Where to look when a spend's outcome is unknown, by toolset. */
const OUTCOME_CHECK: Record<string, string> = {
  xvm: "xvm_getAddressTxs or xvm_getBalance for the user's addresses (and xvm_getTxStatus with a txID if you have one)",
  wallet: "xvm_getAddressTxs or xvm_getBalance for the user's addresses (and xvm_getTxStatus with a txID if you have one)",
  platform: 'platform_getPendingValidators, platform_getSubnets or platform_getBalance, whichever the spend changes',
  cx: 'cx_getUTXOs on the destination and cx_getAtomicTxStatus with a txID if you have one',
  evm: 'eth_getTransactionCount of the sender (a higher nonce means it was accepted) and eth_getTransactionReceipt',
};

/** JSON-safe copy (bigints as decimal strings) for structuredContent. */
function jsonSafe(value: unknown): Record<string, unknown> | undefined {
  if (value === undefined) return undefined;
  return JSON.parse(JSON.stringify(value, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v))) as Record<string, unknown>;
}

/**
 * The confirmation protocol (DESIGN "Confirmation of spends"): without `confirm` a preview and
 * a bound id; with it, the same checks again, the id consumed, the human asked when the client
 * can be asked, then exactly one request. Never retried; a lost answer is an unknown outcome.
 */
async function callSpend(services: Services, tool: ToolDef, input: Record<string, unknown>, ctx: ToolContext, hooks: CallHooks): Promise<ToolResult> {
  const { config, log } = services;
  const { confirm, ...args } = input;
  if (!tool.plan) throw new ChainMcpError('internal', `Spend tool ${tool.name} has no preview; refusing to run it.`);
  // Guard order (DESIGN section 6): limits needing no request, the network pin, then the preview's reads.
  tool.validate?.(args, services.now());
  const limits = spendLimits(tool, args);
  const cached = services.cachedNetwork();
  checkWithoutRequests(limits, config, cached);
  await pinNetwork(limits, config, () => ctx.network(), cached !== undefined);
  const plan: SpendPlan = await tool.plan(args, ctx);
  const audit = { tool: tool.name, amount: limits.amount?.toString(), recipients: limits.recipients };
  if (typeof confirm !== 'string') {
    const { id, expiresAt } = services.confirmations.issue(tool.name, args, services.now());
    log.info({ audit: 'preview', ...audit }, 'spend preview');
    for (const gone of services.approvals.sweep()) log.info({ audit: 'expired', tool: gone.tool, state: gone.state }, 'spend approval expired');
    const preview = [...plan.lines];
    let how = `To execute once, ask the human to approve, then call ${tool.name} again with the same arguments and confirm: "${id}" (valid 5 minutes).`;
    let approvalUrl: string | undefined;
    let meta: Record<string, unknown> | undefined;
    if (config.approval === 'human') {
      const exact = limits.amount !== undefined ? [`Amount in smallest units: ${limits.amount}`] : [];
      const lines = [...preview, ...exact, ...limitsInForce(config)];
      const approval = services.approvals.open(id.split('.')[0]!, { tool: tool.name, title: tool.title, lines }, expiresAt);
      if (hooks.appCard) meta = cardMeta(services.cardSecrets, approval);
      if (needsLink(hooks)) {
        approvalUrl = await services.approvalPages.url(approval);
        how = `Only the human can approve this: give them this link to open in their browser on this computer: ${approvalUrl} . After they approve there, call ${tool.name} again with the same arguments and confirm: "${id}" (valid 5 minutes). Your confirm alone sends nothing.`;
      } else if (hooks.appCard) {
        how = `The human approves or declines on the approval card shown with this preview. After they approve, call ${tool.name} again with the same arguments and confirm: "${id}" (valid 5 minutes). Your confirm alone sends nothing.`;
      } else {
        how = `To execute once, call ${tool.name} again with the same arguments and confirm: "${id}" (valid 5 minutes); the human is then asked to approve in their client. Your confirm alone sends nothing.`;
      }
    }
    const text = [`PREVIEW, nothing sent: ${tool.title}`, ...preview.map((l) => `- ${l}`), how].join('\n');
    const result = textResult(
      text,
      {
        status: 'preview',
        preview,
        confirmationId: id,
        expiresAt: new Date(expiresAt).toISOString(),
        ...(approvalUrl ? { approvalUrl } : {}),
        details: jsonSafe(plan.details),
      },
      config,
    );
    // The card's secret travels in _meta, which hosts give the view and not the model.
    return meta ? { ...result, _meta: meta } : result;
  }
  if (config.approval === 'human') {
    const declined = await humanApproval(services, tool, args, confirm, plan, hooks);
    if (declined) return declined;
  } else {
    redeemOrRefuse(services, tool, args, confirm, audit);
  }
  if (config.approval === 'confirm-id' && hooks.elicit) {
    const answer = await hooks.elicit([`Approve ${tool.title}?`, ...plan.lines].join('\n'));
    if (answer !== 'accept') {
      log.info({ audit: 'declined', ...audit, answer }, 'spend declined');
      return textResult(`Declined by the human (${answer}); nothing was sent.`, { status: 'declined', preview: plan.lines }, config);
    }
  }
  log.info({ audit: 'confirmed', ...audit }, 'spend confirmed');
  let output: Record<string, unknown>;
  try {
    output = (await runOperation(tool, args, ctx)) as Record<string, unknown>;
  } catch (err) {
    const error = toChainMcpError(err);
    const lost =
      error.kind === 'timeout' ||
      error.kind === 'connection' ||
      error.kind === 'malformed' ||
      error.kind === 'cancelled' ||
      // An answer cut off at the size cap was an answer: the spend may have gone through.
      error.kind === 'too_large' ||
      (error instanceof HttpStatusError && error.status >= 500);
    if (lost) {
      log.warn({ audit: 'unknown_outcome', ...audit, kind: error.kind }, 'spend outcome unknown');
      throw new ChainMcpError('unknown_outcome', `The outcome of ${tool.name} is unknown: ${error.message} It was sent once and will not be retried.`, {
        hint: `Do not send it again blindly. First check ${OUTCOME_CHECK[tool.toolset] ?? 'the balances (account_overview)'}; only then decide with the human whether to preview it again.`,
      });
    }
    log.info({ audit: 'failed', ...audit, kind: error.kind }, 'spend failed');
    throw error;
  }
  log.info({ audit: 'issued', ...audit, txID: output.txID ?? output.txHash }, 'spend issued');
  const text = await tool.summarize(output, args, ctx);
  return textResult(text, { status: 'issued', preview: plan.lines, result: output }, config);
}
