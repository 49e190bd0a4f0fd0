import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { type Config, ConfigError } from './config.js';
import type { Logger } from './log.js';
import type { Services } from './services.js';
import { buildServer } from './server.js';

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);
const MAX_BODY = 4 * 1024 * 1024;

function hostName(value: string | undefined): string | undefined {
  if (!value) return undefined;
  try {
    return new URL(value.includes('://') ? value : `http://${value}`).hostname;
  } catch {
    return undefined;
  }
}

/** DNS-rebinding protection: only loopback Host headers, and loopback Origins when present. */
function loopbackOnly(req: IncomingMessage): boolean {
  const host = hostName(req.headers.host);
  if (!host || !LOOPBACK_HOSTS.has(host)) return false;
  const origin = req.headers.origin;
  return origin === undefined || LOOPBACK_HOSTS.has(hostName(origin) ?? '');
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY) throw new Error('body too large');
    chunks.push(chunk);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  return text ? JSON.parse(text) : undefined;
}

function jsonError(res: ServerResponse, status: number, code: number, message: string): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }));
}

/**
 * A client that hangs up before its answer is written gets no answer, so its calls are cancelled
 * the way MCP cancels them (notifications/cancelled): the node request is aborted at once instead
 * of running on to its timeout. Over stdio the same happens when the pipe closes.
 */
function abortOnHangUp(transport: StreamableHTTPServerTransport, req: IncomingMessage, res: ServerResponse, body: unknown): void {
  if (req.method !== 'POST') return;
  const ids = (Array.isArray(body) ? body : [body])
    .filter((m): m is { id: string | number; method: string } => typeof m === 'object' && m !== null && 'method' in m && 'id' in m)
    .map((m) => m.id);
  if (ids.length === 0) return;
  res.once('close', () => {
    if (res.writableFinished) return;
    for (const requestId of ids) {
      transport.onmessage?.({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId, reason: 'the HTTP client disconnected' } });
    }
  });
}

/** Streamable HTTP on 127.0.0.1 at /mcp, one MCP server per session, sharing the process's services. */
export async function serveHttp(opts: { config: Config; log: Logger; services: Services; port: number }) {
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  const http = createServer(async (req, res) => {
    try {
      if (!loopbackOnly(req)) return jsonError(res, 403, -32000, 'Forbidden: only loopback hosts and origins are served.');
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      if (url.pathname !== '/mcp') return jsonError(res, 404, -32000, 'Not found: the MCP endpoint is /mcp.');
      const sessionId = req.headers['mcp-session-id'];
      let transport = typeof sessionId === 'string' ? sessions.get(sessionId) : undefined;
      const body = req.method === 'POST' ? await readJson(req).catch(() => Symbol.for('bad')) : undefined;
      if (body === Symbol.for('bad')) return jsonError(res, 400, -32700, 'Parse error: the body is not JSON.');
      if (!transport) {
        if (sessionId !== undefined) return jsonError(res, 404, -32001, 'Session not found; initialize again.');
        if (req.method !== 'POST' || !isInitializeRequest(body)) {
          return jsonError(res, 400, -32000, 'Bad request: no session; send initialize first.');
        }
        const created = new StreamableHTTPServerTransport({
          sessionIdGenerator: () => randomUUID(),
          onsessioninitialized: (id) => {
            sessions.set(id, created);
          },
        });
        created.onclose = () => {
          if (created.sessionId) sessions.delete(created.sessionId);
        };
        const { mcp } = buildServer({ config: opts.config, log: opts.log, services: opts.services });
        await mcp.connect(created);
        transport = created;
      }
      abortOnHangUp(transport, req, res, body);
      await transport.handleRequest(req, res, body);
    } catch (err) {
      opts.log.error({ err: (err as Error).message }, 'HTTP request failed');
      if (!res.headersSent) jsonError(res, 500, -32603, 'Internal error.');
    }
  });
  await new Promise<void>((resolve, reject) => {
    // A port in use is a setup mistake, said in one line (main prints ConfigError), not a stack trace.
    http.once('error', (err: NodeJS.ErrnoException) => {
      const busy = err.code === 'EADDRINUSE';
      const denied = err.code === 'EACCES';
      if (!busy && !denied) return reject(err);
      reject(
        new ConfigError(
          `--port ${opts.port}: ${busy ? 'the port is in use on 127.0.0.1 (another chain-mcp?)' : 'not allowed to listen on this port'}; stop what uses it or choose another with --port N`,
        ),
      );
    });
    http.listen(opts.port, '127.0.0.1', resolve);
  });
  return { port: (http.address() as AddressInfo).port, close: () => new Promise<void>((r) => http.close(() => r())) };
}
