import { createHash, randomUUID, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type AuthInfo, classifyInboundRequest, createMcpHandler, isInitializeRequest, PROTOCOL_VERSION_META_KEY } from '@modelcontextprotocol/server';
import { checkHttpConfig, type Config, ConfigError } from './config.js';
import type { Logger } from './log.js';
import type { Services } from './services.js';
import type { ToolDef } from './core/tool.js';
import { buildServer } from './server.js';
import type { ResourceServer } from './auth/resource.js';
import type { LoginApprovalPages } from './auth/approval-login.js';
import { hangUpSignal, webRequest, writeResponse } from './http-bridge.js';
import { SessionTransport } from './http-session.js';

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);
const MAX_BODY = 4 * 1024 * 1024;

const hostNames = new Map<string, string | undefined>();

/** The host name in a Host or Origin header; each distinct value parsed once (a client sends the same one on every request). */
function hostName(value: string | undefined): string | undefined {
  if (!value) return undefined;
  if (hostNames.has(value)) return hostNames.get(value);
  let name: string | undefined;
  try {
    name = new URL(value.includes('://') ? value : `http://${value}`).hostname;
  } catch {
    name = undefined;
  }
  // Bounded: headers are chosen by clients, the cache must not grow with them.
  if (hostNames.size >= 256) hostNames.clear();
  hostNames.set(value, name);
  return name;
}

/** DNS-rebinding protection: only loopback Host headers, and loopback Origins when present. */
function loopbackOnly(req: IncomingMessage): boolean {
  const host = hostName(req.headers.host);
  if (!host || !LOOPBACK_HOSTS.has(host)) return false;
  const origin = req.headers.origin;
  return origin === undefined || LOOPBACK_HOSTS.has(hostName(origin) ?? '');
}

/** The body parsed as JSON (undefined when empty); rejects when it is not JSON or over MAX_BODY. */
function readJson(req: IncomingMessage): Promise<unknown> {
  // Listeners rather than `for await`: the async iterator costs more than the parse of a small body.
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY) {
        req.removeAllListeners('data');
        req.resume();
        reject(new Error('body too large'));
        return;
      }
      chunks.push(chunk);
    });
    req.once('end', () => {
      if (size > MAX_BODY) return;
      try {
        const text = chunks.length === 1 ? chunks[0]!.toString('utf8') : Buffer.concat(chunks).toString('utf8');
        resolve(text ? JSON.parse(text) : undefined);
      } catch (err) {
        reject(err);
      }
    });
    req.once('error', reject);
  });
}

function jsonError(res: ServerResponse, status: number, code: number, message: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }));
}

/** The request target's path: origin-form taken as sent (no URL object per request), any other form parsed (throws when it cannot be). */
function pathOf(target: string | undefined): string {
  if (!target) return '/';
  if (target.startsWith('/') && !target.startsWith('//')) {
    const query = target.indexOf('?');
    return query === -1 ? target : target.slice(0, query);
  }
  return new URL(target, 'http://127.0.0.1').pathname;
}

const digest = (text: string) => createHash('sha256').update(text).digest();

/** `Authorization: Bearer <token>` compared in constant time (both sides hashed to one length first; the token's digest once). */
function bearerCheck(token: string): (req: IncomingMessage) => boolean {
  const expected = digest(token);
  return (req) => {
    const given = /^Bearer[ ]+(.+)$/i.exec(req.headers.authorization ?? '')?.[1]?.trim() ?? '';
    return timingSafeEqual(digest(given), expected) && given.length > 0;
  };
}

interface Session {
  transport: SessionTransport;
  lastUsed: number;
  /** Calls being answered now: a session busy with a long call (a spend waiting for approval) is not idle. */
  busy: number;
}

/** What a load balancer probes: the process is up and serving; says nothing about the node (that is --check's job). */
function healthz(res: ServerResponse): void {
  res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' }).end('{"status":"ok"}');
}

/** Hosts a request may name: loopback, and under OAuth the public URL's host (a proxy passes it on). */
function hostCheck(publicUrl: string): (req: IncomingMessage) => boolean {
  const { hostname: publicHost, origin: publicOrigin } = new URL(publicUrl);
  return (req) => {
    const host = hostName(req.headers.host);
    if (!host || (host !== publicHost && !LOOPBACK_HOSTS.has(host))) return false;
    const origin = req.headers.origin;
    return origin === undefined || origin === publicOrigin || LOOPBACK_HOSTS.has(hostName(origin) ?? '');
  };
}

const byNames = new WeakMap<Services, Promise<(name: string) => ToolDef | undefined>>();

/** The catalogue by name, built once per process: the scope check runs on every request. */
function toolsByName(services: Services): Promise<(name: string) => ToolDef | undefined> {
  let found = byNames.get(services);
  if (!found) {
    found = services.catalogue().then((all) => {
      const map = new Map(all.map((t) => [t.name, t]));
      return (name: string) => map.get(name);
    });
    byNames.set(services, found);
  }
  return found;
}

type NodeHandler = (req: IncomingMessage, res: ServerResponse, body: unknown, authInfo?: AuthInfo) => Promise<void>;

/** The JSON-RPC id an error answer echoes: a single request's string or number id, else null. */
function requestId(body: unknown): string | number | null {
  const id = typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as { id?: unknown }).id : undefined;
  return typeof id === 'string' || typeof id === 'number' ? id : null;
}

/**
 * The SDK's per-request entry (createMcpHandler): a fresh MCP server per request from the shared
 * services, no session id. `legacy: 'stateless'` also answers a 2025-11-25 client that way (under
 * OAuth); `'reject'` serves the 2026-07-28 revision only (next to our own 2025 sessions). The
 * body was read and parsed once already (to route it); it is handed over parsed (http-bridge.ts).
 */
function perRequest(opts: { config: Config; log: Logger; services: Services }, legacy: 'stateless' | 'reject'): NodeHandler {
  // The method each web Request carries, for the factory (it is handed the Request, not the body).
  const methods = new WeakMap<Request, unknown>();
  const handler = createMcpHandler(
    (ctx) => {
      const method = ctx.requestInfo && methods.get(ctx.requestInfo);
      const toolsOnly = method === 'tools/call' || method === 'tools/list';
      return buildServer({ config: opts.config, log: opts.log, services: opts.services, stateless: true, toolsOnly }).mcp;
    },
    {
      legacy,
      onerror: (err) => opts.log.debug({ err: err.message }, 'MCP request refused'),
      maxRequestBodySize: MAX_BODY,
    },
  );
  return async (req, res, body, authInfo) => {
    const hangUp = hangUpSignal(res);
    const request = webRequest(req, hangUp.signal);
    if (typeof body === 'object' && body !== null && !Array.isArray(body)) methods.set(request, (body as { method?: unknown }).method);
    let response: Response;
    try {
      response = await handler.fetch(request, { ...(authInfo !== undefined && { authInfo }), ...(body !== undefined && { parsedBody: body }) });
    } catch (err) {
      opts.log.error({ err: (err as Error).message }, 'HTTP request failed');
      response = Response.json({ jsonrpc: '2.0', error: { code: -32603, message: 'Internal server error' }, id: requestId(body) }, { status: 500 });
    }
    await writeResponse(res, response, hangUp.signal);
    hangUp.done();
  };
}

/** The 2026-07-28 per-request envelope's claim: `params._meta` names a protocol version (what the SDK's classification keys on). */
function claimsModern(body: unknown): boolean {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return false;
  const message = body as { jsonrpc?: unknown; method?: unknown; id?: unknown; params?: unknown };
  if (message.jsonrpc !== '2.0' || typeof message.method !== 'string' || 'result' in message || 'error' in message) return false;
  if ('id' in message && typeof message.id !== 'string' && typeof message.id !== 'number') return false;
  const meta = (message.params as { _meta?: unknown } | undefined)?._meta;
  return typeof meta === 'object' && meta !== null && !Array.isArray(meta) && PROTOCOL_VERSION_META_KEY in meta;
}

/**
 * A 2026-07-28 request: its body carries the per-request `_meta` envelope. The SDK's own
 * classification (what createMcpHandler and isLegacyRequest run), on the parsed body and the
 * headers, without building a web Request for it.
 */
function isModern(req: IncomingMessage, body: unknown): boolean {
  if (req.method !== 'POST' || body === undefined) return false;
  // The common case decided without the SDK's schema checks (a tenth of a stateless request's
  // work); the SDK's entry classifies it again itself and answers what it refuses.
  if (claimsModern(body)) return true;
  const header = (name: string) => {
    const value = req.headers[name];
    return Array.isArray(value) ? value.join(', ') : value;
  };
  const outcome = classifyInboundRequest({
    httpMethod: 'POST',
    body,
    protocolVersionHeader: header('mcp-protocol-version'),
    mcpMethodHeader: header('mcp-method'),
    mcpNameHeader: header('mcp-name'),
  });
  // A modern claim the modern path refuses (a malformed envelope, headers that disagree with the
  // body) is answered there; a body that is no JSON-RPC message at all belongs to no era.
  return outcome.kind === 'modern' || (outcome.kind === 'reject' && outcome.rung !== 'jsonrpc-shape');
}

/**
 * Under OAuth each POST is served on its own (a fresh server per request, no session id), so any
 * replica can take any request; what must outlive a request (confirmation ids, approvals, the
 * daily total, a 2026-07-28 approval's request state) lives in the state store.
 */
async function serveStateless(serve: NodeHandler, opts: { services: Services }, rs: ResourceServer, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const auth = await rs.authenticate(req, res);
  if (!auth) return;
  if (req.method !== 'POST') {
    // No session to stream to or delete: every answer comes on its own POST.
    return jsonError(res, 405, -32000, 'Method not allowed: this server is stateless; send each JSON-RPC message as a POST.', { allow: 'POST' });
  }
  const body = await readJson(req).catch(() => Symbol.for('bad'));
  if (body === Symbol.for('bad')) return jsonError(res, 400, -32700, 'Parse error: the body is not JSON.');
  if (rs.refuseOutOfScope(res, auth, body, await toolsByName(opts.services))) return;
  await serve(req, res, body, auth);
}

/** The one line for a port that cannot be listened on, or undefined for another error. */
function portTrouble(port: number, host: string, code: string | undefined): string | undefined {
  if (code !== 'EADDRINUSE' && code !== 'EACCES') return undefined;
  return `--port ${port}: ${code === 'EADDRINUSE' ? `the port is in use on ${host} (another chain-mcp?)` : 'not allowed to listen on this port'}; stop what uses it or choose another with --port N`;
}

/** For `--check --http`: listens on the port and closes at once; the start's own line when it cannot. */
export function probePort(port: number, host: string): Promise<string | undefined> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', (err: NodeJS.ErrnoException) => resolve(portTrouble(port, host, err.code) ?? `--port ${port}: cannot listen on ${host} (${err.code ?? err.message})`));
    probe.listen(port, host, () => probe.close(() => resolve(undefined)));
  });
}

/**
 * Streamable HTTP on 127.0.0.1 at /mcp, sharing the process's services: a 2025-11-25 client gets
 * one MCP server per session (server-initiated elicitation, the card), a 2026-07-28 client one per
 * request (no session; approval through input_required).
 */
export async function serveHttp(opts: { config: Config; log: Logger; services: Services; port: number; host?: string; now?: () => number }) {
  checkHttpConfig(opts.config);
  const host = opts.host ?? '127.0.0.1';
  // Off loopback every request must prove who sends it: only OAuth does that per user.
  if (!['127.0.0.1', '::1', 'localhost'].includes(host) && !opts.config.oauth) {
    throw new ConfigError(`--host ${host}: only with OAuth (CHAIN_MCP_OAUTH_ISSUER and CHAIN_MCP_PUBLIC_URL); without it --http serves 127.0.0.1 only`);
  }
  let resourceServer: ResourceServer | undefined;
  let loginPages: LoginApprovalPages | undefined;
  if (opts.config.oauth) {
    const [{ ResourceServer }, { RateLimits }, { LoginApprovalPages }] = await Promise.all([import('./auth/resource.js'), import('./auth/rate.js'), import('./auth/approval-login.js')]);
    const { oauth } = opts.config;
    // Replicas on one PostgreSQL count together, on the store's own pool (an opened store; main.ts opens it before serving).
    const pool = opts.services.state.kind === 'postgres' ? (opts.services.state as { pool?: unknown }).pool : undefined;
    const limits = new RateLimits(opts.config.rateLimit, opts.log, typeof pool === 'object' ? pool : undefined);
    await limits.ready;
    resourceServer = new ResourceServer(oauth, limits, opts.log, opts.config.trustedProxies);
    if (oauth.clientId) {
      // The login-guarded pages decide approvals: they need the spend machinery's book and pages.
      await opts.services.loadMachinery();
      // The sign-in cookie's key: the replicas' shared key only with a shared store; one process keeps its own random one.
      loginPages = new LoginApprovalPages({ publicUrl: oauth.publicUrl, clientId: oauth.clientId, issuer: resourceServer.issuer, book: opts.services.approvals, log: opts.log, stateKey: opts.services.state.shared ? opts.config.stateKey : undefined, now: opts.services.now });
      // Spend previews link this page (on the public origin) instead of the loopback one.
      opts.services.approvalPages.served = loginPages;
    }
  }
  const now = opts.now ?? Date.now;
  const onAllowedHost = resourceServer ? hostCheck(resourceServer.oauth.publicUrl) : loopbackOnly;
  // 2026-07-28 requests (and, under OAuth, 2025-11-25 ones too) on the SDK's per-request entry.
  const modern = perRequest(opts, resourceServer ? 'stateless' : 'reject');
  const { httpToken, httpIdleMs, httpMaxSessions } = opts.config;
  const bearerMatches = httpToken === undefined ? undefined : bearerCheck(httpToken);
  const sessions = new Map<string, Session>();
  // Sessions being initialized count against the bound too (their id is not known yet).
  let opening = 0;
  const expireIdle = () => {
    for (const [id, s] of sessions) {
      if (s.busy === 0 && now() - s.lastUsed > httpIdleMs) {
        sessions.delete(id);
        opts.log.info({ session: id.slice(0, 8) }, 'HTTP session expired (idle)');
        void s.transport.close().catch(() => undefined);
      }
    }
  };
  const sweeper = setInterval(expireIdle, Math.min(httpIdleMs, 60_000));
  sweeper.unref();
  const http = createServer(async (req, res) => {
    try {
      const pathname = pathOf(req.url);
      if (pathname === '/healthz') return healthz(res);
      if (resourceServer) {
        if (!onAllowedHost(req)) return jsonError(res, 403, -32000, 'Forbidden: this host or origin is not the public URL of this server.');
        if (resourceServer.serveMetadata(req, res, pathname)) return;
        if (loginPages && (await loginPages.handle(req, res, pathname))) return;
        if (pathname !== resourceServer.mcpPath) return jsonError(res, 404, -32000, `Not found: the MCP endpoint is ${resourceServer.mcpPath}.`);
        return await serveStateless(modern, opts, resourceServer, req, res);
      }
      if (!onAllowedHost(req)) return jsonError(res, 403, -32000, 'Forbidden: only loopback hosts and origins are served.');
      if (pathname !== '/mcp') return jsonError(res, 404, -32000, 'Not found: the MCP endpoint is /mcp.');
      if (bearerMatches && !bearerMatches(req)) {
        return jsonError(res, 401, -32001, 'Unauthorized: send Authorization: Bearer <CHAIN_MCP_HTTP_TOKEN>.', {
          'www-authenticate': 'Bearer realm="chain-mcp", error="invalid_token"',
        });
      }
      expireIdle();
      const sessionId = req.headers['mcp-session-id'];
      const session = typeof sessionId === 'string' ? sessions.get(sessionId) : undefined;
      let transport = session?.transport;
      const body = req.method === 'POST' ? await readJson(req).catch(() => Symbol.for('bad')) : undefined;
      if (body === Symbol.for('bad')) return jsonError(res, 400, -32700, 'Parse error: the body is not JSON.');
      // A 2026-07-28 client has no session: each of its requests is served on its own.
      if (!session && isModern(req, body)) return await modern(req, res, body);
      if (!transport) {
        if (sessionId !== undefined) return jsonError(res, 404, -32001, 'Session not found (expired after being idle, or closed); initialize again.');
        if (req.method !== 'POST' || !isInitializeRequest(body)) {
          return jsonError(res, 400, -32000, 'Bad request: no session; send initialize first.');
        }
        // Never evict an active session to make room: the newcomer is refused instead.
        if (sessions.size + opening >= httpMaxSessions) {
          return jsonError(res, 503, -32000, `Too many MCP sessions (${httpMaxSessions}, CHAIN_MCP_HTTP_MAX_SESSIONS); close one (DELETE /mcp) or wait for idle ones to expire.`, {
            'retry-after': '60',
          });
        }
        opening++;
        let opened = false;
        const created = new SessionTransport(randomUUID(), (id) => {
          opened = true;
          opening--;
          sessions.set(id, { transport: created, lastUsed: now(), busy: 0 });
        });
        created.onclose = () => {
          sessions.delete(created.sessionId);
        };
        const { mcp } = buildServer({ config: opts.config, log: opts.log, services: opts.services });
        await mcp.connect(created);
        transport = created;
        res.once('close', () => {
          if (opened) return;
          // The initialize was refused (a header, the body): nothing of it stays, its timer neither.
          opening--;
          void created.close();
        });
      }
      if (session) {
        session.lastUsed = now();
        // A call in progress keeps its session (a spend may wait minutes for the human); the
        // standing GET event stream does not, or no SDK client's session would ever expire.
        if (req.method === 'POST') {
          session.busy++;
          res.once('close', () => {
            session.busy--;
            session.lastUsed = now();
          });
        }
      }
      transport.handle(req, res, body);
    } catch (err) {
      opts.log.error({ err: (err as Error).message }, 'HTTP request failed');
      if (!res.headersSent) jsonError(res, 500, -32603, 'Internal error.');
    }
  });
  await new Promise<void>((resolve, reject) => {
    // A port in use is a setup mistake, said in one line (main prints ConfigError), not a stack trace.
    http.once('error', (err: NodeJS.ErrnoException) => {
      const line = portTrouble(opts.port, host, err.code);
      reject(line ? new ConfigError(line) : err);
    });
    http.listen(opts.port, host, resolve);
  });
  return {
    port: (http.address() as AddressInfo).port,
    /** Open sessions (for tests and the log). */
    sessionCount: () => sessions.size,
    close: () =>
      new Promise<void>((r) => {
        clearInterval(sweeper);
        http.closeAllConnections();
        http.close(() => r());
      }),
  };
}
