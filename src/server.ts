import { CLIENT_CAPABILITIES_META_KEY, type ClientCapabilities, McpServer, ProtocolErrorCode, type ServerContext, type Tool } from '@modelcontextprotocol/server';
import { decideFromCard } from './approval/card-tool.js';
import { CARD_DESCRIPTION, CARD_TOOL, CARD_URI, cardResource, hostShowsCards, RESOURCE_MIME_TYPE } from './approval/card.js';
import { appsListing } from './views/apps-listing.js';
import { needsConfirmation, type ToolDef } from './core/tool.js';
import type { Config } from './config.js';
import type { Logger } from './log.js';
import { type CallHooks, ownerOf } from './registry/context.js';
import { channel, isModernRequest, takeRound, verifyRound, withHumanRounds } from './input-required.js';
import type { Services } from './services.js';
import { ServicesCore } from './services-core.js';
import type { StateStore } from './state/store.js';
import { type ToolListing, toolListing } from './registry/listing.js';
import { DISCOVERY_LISTING, sessioned, ToolsetSession } from './registry/dynamic.js';
import { VIEWS, viewHtml } from './views/views.js';
import { selectTools, whyHidden } from './registry/select.js';
import { registerAssistantExtras, SERVER_INSTRUCTIONS } from './assistant/extras.js';
import { VERSION } from './version.js';
import { mayUse } from './auth/scopes.js';
import { ownerOfAuth } from './auth/owner.js';

export interface BuildOptions {
  config: Config;
  log: Logger;
  /** Shared services (HTTP agent, caches, confirmation book); one per process, shared by HTTP sessions. */
  services?: Services;
  catalogue?: readonly ToolDef[];
  /** One server per HTTP request (createMcpHandler): nothing it holds outlives the request. */
  stateless?: boolean;
  /**
   * A stateless server built for one tools/list or tools/call request: only the tool handlers are
   * registered (the views, resources and prompts are half of what a server costs to build, and that
   * request reaches none of them).
   */
  toolsOnly?: boolean;
}

export interface BuiltServer {
  mcp: McpServer;
  services: Services;
  /** The tools this configuration exposes (the catalogue loads after initialize). */
  tools(): Promise<readonly ToolDef[]>;
}

interface Selection {
  catalogue: readonly ToolDef[];
  tools: readonly ToolDef[];
  byName: Map<string, ToolDef>;
  listing: ToolListing[];
}

type CallPath = typeof import('./registry/execute.js');
let callPath: CallPath | undefined;

/**
 * The tools/call pipeline (validation, spends, summaries, the result budget and what they import,
 * such as the confusables table of summarize/stranger.ts) is not needed to answer initialize: it
 * loads on the first call, or right after initialize (main.ts), like the catalogue.
 */
export async function loadCallPath(): Promise<CallPath> {
  callPath ??= await import('./registry/execute.js');
  return callPath;
}

/** Selection and tools/list are computed once per configuration (HTTP sessions share them): schemas never change at run time. */
const selections = new WeakMap<Config, Promise<Selection>>();

function select(catalogue: readonly ToolDef[], config: Config): Selection {
  const tools = selectTools(catalogue, config);
  return { catalogue, tools, byName: new Map(tools.map((t) => [t.name, t])), listing: tools.map(toolListing) };
}

/** The process's services; the spend machinery loads where the configuration can reach it (services-core.ts). */
export function createServices(config: Config, log: Logger, catalogue?: readonly ToolDef[], state?: StateStore): Services {
  return new ServicesCore({ config, log, catalogue, state });
}

/** Form elicitation: declared as `form`, or as a bare `elicitation: {}` (clients older than URL mode). */
function formElicitation(caps: ClientCapabilities | undefined): boolean {
  const e = caps?.elicitation as { form?: unknown; url?: unknown } | undefined;
  if (!e) return false;
  return e.form !== undefined || e.url === undefined;
}

/**
 * What the client declared it can do: at initialize (2025-11-25, a session), or in this request's
 * `_meta` (2026-07-28, no initialize and no session: every request says it again).
 */
function clientCapabilities(server: McpServer['server'], ctx: ServerContext): ClientCapabilities | undefined {
  const envelope = ctx.mcpReq.envelope as Record<string, unknown> | undefined;
  return (envelope?.[CLIENT_CAPABILITIES_META_KEY] as ClientCapabilities | undefined) ?? server.getClientCapabilities();
}

/** Builds one MCP server: catalogue -> filters (tier, toolset, tools, exclude) -> tool handlers. */
export function buildServer(opts: BuildOptions): BuiltServer {
  const services = opts.services ?? createServices(opts.config, opts.log, opts.catalogue);
  const own = opts.catalogue ? Promise.resolve(select(opts.catalogue, opts.config)) : undefined;
  // Once resolved, kept here so a tools/call finds it without waiting a turn.
  let ready: Selection | undefined;
  const selection = (): Promise<Selection> => {
    if (own) return own;
    let shared = selections.get(opts.config);
    if (!shared) {
      shared = services.catalogue().then((catalogue) => select(catalogue, opts.config));
      selections.set(opts.config, shared);
    }
    return shared;
  };
  const selected = async (): Promise<Selection> => {
    ready ??= await selection();
    return ready;
  };
  const mcp = new McpServer(
    { name: 'chain-mcp', title: 'Blockchain node (chain-mcp)', version: VERSION },
    {
      capabilities: { tools: { listChanged: sessioned(opts.config) }, logging: {} },
      instructions: SERVER_INSTRUCTIONS,
      // A 2026-07-28 retry's requestState is unsealed (AEAD) before the handler runs; anything else is -32602.
      requestState: { verify: verifyRound(services) },
    },
  );
  const server = mcp.server;

  const cards = opts.config.allowSpend && opts.config.approval === 'human';
  // CHAIN_MCP_DYNAMIC: this session's enabled toolsets (each MCP session has its own; a stateless request's die with it).
  let toolsets: ToolsetSession | undefined;
  const session = async (): Promise<ToolsetSession | undefined> => {
    if (!sessioned(opts.config)) return undefined;
    const { tools, catalogue } = await selection();
    toolsets ??= new ToolsetSession(tools, catalogue, opts.config, opts.stateless);
    return toolsets;
  };

  server.setRequestHandler('tools/list', async (_request, ctx) => {
    const selected = await selection();
    const dynamic = await session();
    const byName = selected.byName;
    const shown = dynamic ? [...selected.listing.filter((t) => dynamic.visible(byName.get(t.name)!)), ...DISCOVERY_LISTING] : selected.listing;
    // Under OAuth each user sees only the tools their token's scopes open (src/auth/scopes.ts).
    const scopes = ctx.http?.authInfo?.scopes;
    const listing = scopes ? shown.filter((t) => !byName.has(t.name) || mayUse(byName.get(t.name)!, scopes)) : shown;
    if (!hostShowsCards(clientCapabilities(server, ctx))) return { tools: listing as Tool[] };
    const confirms = (name: string) => {
      const tool = byName.get(name);
      return tool !== undefined && needsConfirmation(tool);
    };
    return { tools: appsListing(listing, confirms, cards) as Tool[] };
  });

  server.setRequestHandler('tools/call', async (request, ctx) => {
    // App-only (listed to MCP Apps hosts with visibility ["app"]): only the approval card holds a
    // secret it accepts, so a call from the model, or from any host that does not enforce visibility, decides nothing.
    if (request.params.name === CARD_TOOL && cards) {
      await services.loadMachinery();
      return decideFromCard({ book: services.approvals, secrets: services.cardSecrets, log: services.log, owner: ownerOfAuth(ctx.http?.authInfo) }, request.params.arguments ?? {});
    }
    const { byName, catalogue } = ready ?? (await selected());
    const dynamic = await session();
    if (dynamic?.isDiscovery(request.params.name)) {
      const { changed, ...result } = dynamic.call(request.params.name, request.params.arguments ?? {});
      if (changed) await server.sendToolListChanged();
      return result;
    }
    const tool = byName.get(request.params.name);
    // The HTTP layer answers 403 before this; kept so no other path can reach a tool outside the scopes.
    const scopes = ctx.http?.authInfo?.scopes;
    if (tool && scopes && !mayUse(tool, scopes)) return { content: [{ type: 'text', text: `Tool "${tool.name}" is outside this token's scopes.` }], isError: true };
    // By default a family left out of the list still answers when called by name; only the dynamic start refuses.
    if (tool && dynamic && opts.config.dynamic && !dynamic.callable(tool)) return { content: [{ type: 'text', text: dynamic.notEnabled(tool) }], isError: true };
    if (!tool) {
      const hidden = catalogue.find((t) => t.name === request.params.name);
      // A tool that exists but is hidden by a tier or filter is a tool result the model reads (and can
      // pass on to the operator); only a name that exists nowhere is the protocol error the spec asks for.
      if (hidden) {
        const why = `Tool "${hidden.name}" is not enabled on this server: ${whyHidden(hidden, opts.config)}. Call tools/list for the tools this server exposes.`;
        return { content: [{ type: 'text', text: why }], isError: true };
      }
      // A plain Error with a code: McpError would prefix "MCP error -32602" once more on the client.
      throw Object.assign(new Error(`Unknown tool "${request.params.name}". Call tools/list for the tools this server exposes.`), { code: ProtocolErrorCode.InvalidParams });
    }
    const progressToken = request.params._meta?.progressToken;
    const caps = clientCapabilities(server, ctx);
    const args = request.params.arguments ?? {};
    const owner = ownerOfAuth(ctx.http?.authInfo);
    const hooks: CallHooks = {
      signal: ctx.mcpReq.signal,
      session: ctx.sessionId,
      owner,
      progress:
        progressToken === undefined
          ? undefined
          : async (progress, total, message) => {
              await ctx.mcpReq.notify({ method: 'notifications/progress', params: { progressToken, progress, total, message } });
            },
      appCard: hostShowsCards(caps),
    };
    const { callTool } = callPath ?? (await loadCallPath());
    // Spends and admin writes reach the approval book, the daily total and the key file (built once).
    if (services.spends || needsConfirmation(tool)) await services.loadMachinery();
    if (isModernRequest(ctx)) {
      // 2026-07-28: no server-to-client requests; the human is asked through input_required
      // (only where a spend needs the human: under confirm-id the confirm alone sends).
      const call = { tool: tool.name, args, owner: ownerOf(hooks) };
      const answered = await takeRound(services, ctx, call);
      if (opts.config.approval === 'human') {
        if (caps?.elicitation?.url) hooks.elicitUrl = channel('url', answered);
        if (formElicitation(caps)) hooks.elicit = channel('form', answered);
      }
      return withHumanRounds(services, call, () => callTool(services, tool, args, hooks));
    }
    // Each question goes out as part of this call (relatedRequestId): over HTTP on the call's own
    // event stream, so a client that opened no standing GET stream still gets it.
    if (caps?.elicitation?.url) {
      hooks.elicitUrl = async (message, url, elicitationId) => {
        const answer = await server.elicitInput({ mode: 'url', message, url, elicitationId }, { signal: ctx.mcpReq.signal, relatedRequestId: ctx.mcpReq.id }).catch(() => ({ action: 'cancel' as const }));
        return answer.action;
      };
    }
    if (formElicitation(caps)) {
      hooks.elicit = async (message) => {
        const answer = await server
          .elicitInput(
            {
              message,
              requestedSchema: {
                type: 'object',
                properties: { approve: { type: 'boolean', title: 'Approve', description: 'Send this transaction once.' } },
                required: ['approve'],
              },
            },
            { signal: ctx.mcpReq.signal, relatedRequestId: ctx.mcpReq.id },
          )
          // A client that claims elicitation but fails to ask counts as no approval.
          .catch(() => ({ action: 'cancel' as const, content: undefined }));
        if (answer.action !== 'accept') return answer.action;
        return answer.content?.approve === true ? 'accept' : 'decline';
      };
    }
    return callTool(services, tool, args, hooks);
  });

  const tools = async () => (await selection()).tools;
  if (opts.toolsOnly) return { mcp, services, tools };
  for (const view of VIEWS) {
    // A view that offers to copy (a whole node ID) asks for clipboard-write; the host may refuse, and the view then shows the text to select.
    const meta = { ui: { csp: { connectDomains: [], resourceDomains: [] }, prefersBorder: true, ...(view.copies ? { permissions: { clipboardWrite: {} } } : {}) } };
    mcp.registerResource(view.name, view.uri, { title: `${view.title} view`, description: view.description, mimeType: RESOURCE_MIME_TYPE }, async () => ({
      contents: [{ uri: view.uri, mimeType: RESOURCE_MIME_TYPE, text: await viewHtml(view), _meta: meta }],
    }));
  }
  if (cards) {
    mcp.registerResource('approval-card', CARD_URI, { title: 'Spend approval card', description: CARD_DESCRIPTION, mimeType: RESOURCE_MIME_TYPE }, async () => ({ contents: [await cardResource()] }));
  }
  registerAssistantExtras(mcp, services, tools);
  return { mcp, services, tools };
}
