import { createServer, type IncomingMessage, request as httpRequest, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/**
 * A loopback HTTP proxy that sits between chain-mcp and the devnet (node, indexer or
 * runner) and misbehaves on demand. Tests queue faults with `fail(fault, times)`; every
 * request is counted and logged, and the proxy notices when the client hangs up before
 * the answer is complete (how a cancelled call shows on the wire).
 */
export type Fault =
  /** Forward unchanged. */
  | { kind: 'pass' }
  /** Stop listening: new connections get ECONNREFUSED until the fault is used up. */
  | { kind: 'refuse' }
  /** Send the status line and part of the upstream body, then reset the socket. */
  | { kind: 'reset' }
  /** Wait this long before forwarding (use more than CHAIN_MCP_TIMEOUT_MS for a timeout). */
  | { kind: 'delay'; ms: number }
  /** Forward the upstream answer a few bytes at a time. */
  | { kind: 'drip'; bytes: number; everyMs: number }
  /** Answer with this status and body instead of forwarding. */
  | { kind: 'status'; status: number; body: string; contentType?: string; headers?: Record<string, string> }
  /** HTTP 200 with a body that is not JSON at all. */
  | { kind: 'malformed' }
  /** HTTP 200 with the first half of the upstream body (content-length matches the half). */
  | { kind: 'truncated' }
  /** HTTP 200 with a JSON-RPC error object for the request's id. */
  | { kind: 'rpcError'; code: number; message: string }
  /** The upstream answer with the JSON-RPC `id` replaced. */
  | { kind: 'wrongId' }
  /** HTTP 200 streaming a JSON body of this many bytes (default 50 MB). */
  | { kind: 'huge'; bytes?: number };

export interface ProxiedRequest {
  method: string;
  path: string;
  /** The JSON-RPC method when the body is a JSON-RPC object (or the first of a batch). */
  rpcMethod?: string;
  fault: Fault['kind'];
  /** True when the client closed the connection before the answer was complete. */
  clientAborted: boolean;
  /** Body bytes sent back (forwarded or injected), when the answer was sent whole. */
  bytesOut: number;
}

export interface FaultProxy {
  url: string;
  port: number;
  /** Every request received, in order. */
  readonly requests: ProxiedRequest[];
  /**
   * Applies `fault` to the next `times` requests (default: until `clear()`) for which
   * `when` holds (default: all); other requests pass. Faults queue in order.
   */
  fail(fault: Fault, times?: number, when?: (req: Pick<ProxiedRequest, 'method' | 'path' | 'rpcMethod'>) => boolean): void;
  /** Back to plain forwarding; re-listens if a `refuse` fault stopped the listener. */
  clear(): Promise<void>;
  /** Requests whose client hung up before the answer was complete. */
  aborted(): number;
  /** Resolves when `n` requests have been received in total. */
  waitForRequests(n: number, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

const HOP_HEADERS = new Set(['connection', 'keep-alive', 'transfer-encoding', 'content-length', 'host']);

function rpcInfo(body: string): { method?: string; id?: unknown } {
  try {
    const parsed = JSON.parse(body) as unknown;
    const first = (Array.isArray(parsed) ? parsed[0] : parsed) as { method?: unknown; id?: unknown } | undefined;
    return { method: typeof first?.method === 'string' ? first.method : undefined, id: first?.id };
  } catch {
    return {};
  }
}

/** Starts a proxy on 127.0.0.1 in front of `target` (e.g. the devnet's node URL). */
export async function startFaultProxy(target: string, opts: { port?: number } = {}): Promise<FaultProxy> {
  const upstream = new URL(target);
  const requests: ProxiedRequest[] = [];
  const queue: Array<{ fault: Fault; left: number; when?: (req: Pick<ProxiedRequest, 'method' | 'path' | 'rpcMethod'>) => boolean }> = [];
  const sockets = new Set<Socket>();
  const waiters: Array<{ n: number; resolve: () => void }> = [];
  let listening = false;
  let port = opts.port ?? 0;

  const nextFault = (req: Pick<ProxiedRequest, 'method' | 'path' | 'rpcMethod'>): Fault => {
    const head = queue[0];
    if (!head || (head.when && !head.when(req))) return { kind: 'pass' };
    head.left -= 1;
    if (head.left <= 0) queue.shift();
    return head.fault;
  };

  /** Forwards the request and returns the upstream answer, fully read. */
  const forward = (req: IncomingMessage, body: Buffer) =>
    new Promise<{ status: number; headers: Record<string, string>; body: Buffer }>((resolve, reject) => {
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string' && !HOP_HEADERS.has(k)) headers[k] = v;
      headers['content-length'] = String(body.length);
      const up = httpRequest(
        { host: upstream.hostname, port: upstream.port, method: req.method, path: `${upstream.pathname.replace(/\/$/, '')}${req.url ?? '/'}`, headers },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => {
            const out: Record<string, string> = {};
            for (const [k, v] of Object.entries(res.headers)) if (typeof v === 'string' && !HOP_HEADERS.has(k)) out[k] = v;
            resolve({ status: res.statusCode ?? 502, headers: out, body: Buffer.concat(chunks) });
          });
          res.on('error', reject);
        },
      );
      up.on('error', reject);
      up.end(body);
    });

  const handle = async (req: IncomingMessage, res: ServerResponse, entry: ProxiedRequest, fault: Fault, body: Buffer) => {
    const text = body.toString('utf8');
    const send = (status: number, payload: Buffer | string, headers: Record<string, string> = {}) => {
      const buf = typeof payload === 'string' ? Buffer.from(payload) : payload;
      entry.bytesOut = buf.length;
      res.writeHead(status, { 'content-type': 'application/json', ...headers, 'content-length': String(buf.length) }).end(buf);
    };
    switch (fault.kind) {
      case 'status':
        return send(fault.status, fault.body, { 'content-type': fault.contentType ?? 'text/plain', ...fault.headers });
      case 'malformed':
        return send(200, '<html><body>502 Bad Gateway</body></html> not json {');
      case 'rpcError': {
        const { id } = rpcInfo(text);
        return send(200, JSON.stringify({ jsonrpc: '2.0', error: { code: fault.code, message: fault.message, data: null }, id: id ?? null }));
      }
      case 'huge': {
        const total = fault.bytes ?? 50 * 1024 * 1024;
        const { id } = rpcInfo(text);
        const head = Buffer.from(`{"jsonrpc":"2.0","id":${JSON.stringify(id ?? 1)},"result":{"blob":"`);
        const tail = Buffer.from('"}}');
        const chunk = Buffer.alloc(64 * 1024, 0x61);
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(total) });
        res.write(head);
        let sent = head.length;
        const pump = () => {
          while (sent < total - tail.length) {
            if (res.destroyed) return;
            const size = Math.min(chunk.length, total - tail.length - sent);
            sent += size;
            if (!res.write(size === chunk.length ? chunk : chunk.subarray(0, size))) {
              res.once('drain', pump);
              return;
            }
          }
          res.end(tail);
        };
        pump();
        return;
      }
      default:
        break;
    }
    if (fault.kind === 'delay') await new Promise((r) => setTimeout(r, fault.ms));
    if (res.destroyed) return;
    const answer = await forward(req, body);
    const headers = { ...answer.headers };
    switch (fault.kind) {
      case 'reset': {
        res.writeHead(answer.status, { ...headers, 'content-length': String(answer.body.length) });
        res.write(answer.body.subarray(0, Math.max(1, answer.body.length >> 1)));
        setImmediate(() => res.socket?.resetAndDestroy());
        return;
      }
      case 'truncated':
        return send(200, answer.body.subarray(0, answer.body.length >> 1), headers);
      case 'wrongId': {
        let out = answer.body.toString('utf8');
        try {
          const parsed = JSON.parse(out) as { id?: unknown };
          parsed.id = typeof parsed.id === 'number' ? parsed.id + 1000 : 'not-your-id';
          out = JSON.stringify(parsed);
        } catch {
          // not JSON-RPC: forward as is
        }
        return send(answer.status, out, headers);
      }
      case 'drip': {
        res.writeHead(answer.status, { ...headers, 'content-length': String(answer.body.length) });
        for (let at = 0; at < answer.body.length && !res.destroyed; at += fault.bytes) {
          res.write(answer.body.subarray(at, at + fault.bytes));
          await new Promise((r) => setTimeout(r, fault.everyMs));
        }
        if (!res.destroyed) res.end();
        return;
      }
      default:
        return send(answer.status, answer.body, headers);
    }
  };

  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const seen = { method: req.method ?? 'GET', path: req.url ?? '/', rpcMethod: rpcInfo(body.toString('utf8')).method };
      const fault = nextFault(seen);
      const entry: ProxiedRequest = { ...seen, fault: fault.kind, clientAborted: false, bytesOut: 0 };
      requests.push(entry);
      for (const w of waiters.filter((x) => requests.length >= x.n)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve();
      }
      res.on('close', () => {
        if (!res.writableFinished) entry.clientAborted = true;
      });
      if (fault.kind === 'refuse') {
        // Connections already open when refusing started: drop them like a dead host.
        res.socket?.resetAndDestroy();
        return;
      }
      handle(req, res, entry, fault, body).catch(() => {
        if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' }).end('fault proxy: upstream failed');
        else res.destroy();
      });
    });
  });
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });

  const listen = () =>
    new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        server.off('error', reject);
        port = (server.address() as AddressInfo).port;
        listening = true;
        resolve();
      });
    });
  const stopListening = () =>
    new Promise<void>((resolve) => {
      if (!listening) return resolve();
      listening = false;
      for (const s of sockets) s.destroy();
      server.close(() => resolve());
    });

  await listen();
  const proxy: FaultProxy = {
    get url() {
      return `http://127.0.0.1:${port}`;
    },
    get port() {
      return port;
    },
    requests,
    fail(fault, times = Number.POSITIVE_INFINITY, when) {
      if (fault.kind === 'refuse') {
        // Refusal happens at the TCP level: nothing is counted, the listener is closed.
        void stopListening();
        return;
      }
      queue.push({ fault, left: times, when });
    },
    async clear() {
      queue.length = 0;
      if (!listening) await listen();
    },
    aborted: () => requests.filter((r) => r.clientAborted).length,
    waitForRequests(n, timeoutMs = 5_000) {
      if (requests.length >= n) return Promise.resolve();
      return new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`fault proxy: ${requests.length} of ${n} requests after ${timeoutMs} ms`)), timeoutMs);
        waiters.push({
          n,
          resolve: () => {
            clearTimeout(timer);
            resolve();
          },
        });
      });
    },
    close: async () => {
      queue.length = 0;
      await stopListening();
    },
  };
  return proxy;
}
