import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  type AuthInfo,
  isJsonContentType,
  type JSONRPCMessage,
  type MessageExtraInfo,
  parseJSONRPCMessage,
  SUPPORTED_PROTOCOL_VERSIONS,
  type Transport,
  type TransportSendOptions,
} from '@modelcontextprotocol/server';

/**
 * One 2025-11-25 Streamable HTTP session on Node's own `(req, res)`: the wire behaviour of the SDK's
 * `WebStandardStreamableHTTPServerTransport` (the same checks, statuses and messages; each POST's
 * answers as one event stream; server-to-client messages of a call on that call's stream, the
 * others on the standing GET stream) without what this server never uses (an event store and
 * resumption, DNS-rebinding options: http-server.ts checks hosts first), and without building a
 * web Request, a ReadableStream and a Response per POST. Those were half of a session call's
 * server CPU (docs/benchmarks.md, "HTTP sessions on Node's own request").
 */

type RequestId = string | number;
type Refusal = [status: number, code: number, message: string];

/** The SDK transport's bounds, kept so the two answer alike. */
const MAX_BATCH = 100;
const KEEP_ALIVE_MS = 15_000;

const SSE_HEADERS = { 'content-type': 'text/event-stream', 'cache-control': 'no-cache, no-transform', connection: 'keep-alive', 'x-accel-buffering': 'no' };

/** A POST's answer: an event stream that ends once every request it carried is answered. */
interface CallStream {
  res: ServerResponse;
  pending: Set<RequestId>;
  /** The client hung up: what is still sent for it is dropped. */
  gone: boolean;
}

const isRequest = (m: JSONRPCMessage): m is JSONRPCMessage & { id: RequestId; method: string } => 'method' in m && 'id' in m;
const isResponse = (m: JSONRPCMessage): m is JSONRPCMessage & { id: RequestId } => !('method' in m) && ('result' in m || 'error' in m);
const isInitialize = (m: JSONRPCMessage) => isRequest(m) && m.method === 'initialize';
const isRefusal = (value: JSONRPCMessage[] | Refusal): value is Refusal => typeof value[0] === 'number';
const event = (message: JSONRPCMessage) => `event: message\ndata: ${JSON.stringify(message)}\n\n`;

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}

export class SessionTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage, extra?: MessageExtraInfo) => void;
  private supported: readonly string[] = SUPPORTED_PROTOCOL_VERSIONS;
  private initialized = false;
  private started = false;
  private closed = false;
  /** Each request id being answered, to the stream its answer goes on. */
  private readonly calls = new Map<RequestId, CallStream>();
  private standing: ServerResponse | undefined;
  private keepAlive: NodeJS.Timeout | undefined;

  constructor(
    readonly sessionId: string,
    private readonly onInitialized: (id: string) => void,
  ) {}

  async start(): Promise<void> {
    if (this.started) throw new Error('Transport already started');
    this.started = true;
    // One timer per session keeps every open stream alive through proxies (a call waiting for the human may take minutes).
    this.keepAlive = setInterval(() => this.ping(), KEEP_ALIVE_MS);
    this.keepAlive.unref();
  }

  setSupportedProtocolVersions(versions: string[]): void {
    this.supported = versions;
  }

  /** Serves one HTTP request of this session; `body` is the POST's body, already parsed. */
  handle(req: IncomingMessage, res: ServerResponse, body: unknown, authInfo?: AuthInfo): void {
    if (this.closed) this.refuse(res, 404, -32001, 'Session not found');
    else if (req.method === 'POST') this.post(req, res, body, authInfo);
    else if (req.method === 'GET') this.get(req, res);
    else if (req.method === 'DELETE') this.delete(req, res);
    else this.refuse(res, 405, -32000, 'Method not allowed.', { allow: 'GET, POST, DELETE' });
  }

  async send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    const answer = isResponse(message);
    const id = answer ? message.id : options?.relatedRequestId;
    if (id === undefined) {
      if (answer) throw new Error('Cannot send a response on a standalone SSE stream unless resuming a previous client request');
      if (this.standing && !this.standing.writableEnded) this.standing.write(event(message));
      return;
    }
    const call = this.calls.get(id);
    if (!call) throw new Error(`No connection established for request ID: ${String(id)}`);
    if (answer) {
      this.calls.delete(id);
      call.pending.delete(id);
    }
    if (call.gone) {
      if (answer) this.onerror?.(new Error(`Response for request ID ${String(id)} is undeliverable: the client hung up`));
      return;
    }
    // Headers, events and the end leave together: a quick call's answer is one write.
    if (answer && call.pending.size === 0) call.res.end(event(message));
    else call.res.write(event(message));
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.keepAlive);
    // A call still listed is unanswered: its stream is open (or its client gone, where end() is a no-op).
    for (const call of new Set(this.calls.values())) call.res.end();
    this.calls.clear();
    if (this.standing && !this.standing.writableEnded) this.standing.end();
    this.standing = undefined;
    this.onclose?.();
  }

  /** A POST's messages, or why it is refused, in the SDK transport's order and words. */
  private accepted(req: IncomingMessage, body: unknown): JSONRPCMessage[] | Refusal {
    const accept = header(req, 'accept') ?? '';
    if (!accept.includes('application/json') || !accept.includes('text/event-stream')) {
      return [406, -32000, 'Not Acceptable: Client must accept both application/json and text/event-stream'];
    }
    if (!isJsonContentType(header(req, 'content-type') ?? null)) return [415, -32000, 'Unsupported Media Type: Content-Type must be application/json'];
    if (body === undefined) return [400, -32700, 'Parse error: Invalid JSON'];
    if (Array.isArray(body) && body.length > MAX_BATCH) return [400, -32600, `Invalid Request: Batch must not exceed ${MAX_BATCH} messages`];
    let messages: JSONRPCMessage[];
    try {
      messages = (Array.isArray(body) ? body : [body]).map((m) => parseJSONRPCMessage(m));
    } catch {
      return [400, -32700, 'Parse error: Invalid JSON-RPC message'];
    }
    if (!messages.some(isInitialize)) return this.sessionRefusal(req) ?? messages;
    if (this.initialized) return [400, -32600, 'Invalid Request: Server already initialized'];
    if (messages.length > 1) return [400, -32600, 'Invalid Request: Only one initialization request is allowed'];
    this.initialized = true;
    this.onInitialized(this.sessionId);
    return messages;
  }

  private post(req: IncomingMessage, res: ServerResponse, body: unknown, authInfo: AuthInfo | undefined): void {
    const messages = this.accepted(req, body);
    if (isRefusal(messages)) {
      this.refuse(res, ...messages);
      return;
    }
    const extra: MessageExtraInfo = authInfo === undefined ? {} : { authInfo };
    const requests = messages.filter(isRequest);
    if (requests.length === 0) {
      for (const message of messages) this.onmessage?.(message, extra);
      res.writeHead(202).end();
      return;
    }
    res.writeHead(200, { ...SSE_HEADERS, 'mcp-session-id': this.sessionId });
    const call: CallStream = { res, pending: new Set(requests.map((m) => m.id)), gone: false };
    for (const id of call.pending) this.calls.set(id, call);
    // A client that hangs up gets no answer: its calls are cancelled the way MCP cancels them, so
    // the node request is aborted at once instead of running on to its timeout.
    res.once('close', () => {
      if (res.writableFinished) return;
      call.gone = true;
      for (const requestId of call.pending) {
        this.onmessage?.({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId, reason: 'the HTTP client disconnected' } }, extra);
      }
    });
    for (const message of messages) this.onmessage?.(message, extra);
  }

  private get(req: IncomingMessage, res: ServerResponse): void {
    if (!(header(req, 'accept') ?? '').includes('text/event-stream')) {
      this.refuse(res, 406, -32000, 'Not Acceptable: Client must accept text/event-stream');
      return;
    }
    const refusal = this.sessionRefusal(req);
    if (refusal) {
      this.refuse(res, ...refusal);
      return;
    }
    if (this.standing) {
      this.refuse(res, 409, -32000, 'Conflict: Only one SSE stream is allowed per session');
      return;
    }
    this.standing = res;
    // Only one stands at a time, and the next is taken only once this one is gone.
    res.once('close', () => {
      this.standing = undefined;
    });
    // The client waits for these headers to count the stream as open.
    res.writeHead(200, { ...SSE_HEADERS, 'mcp-session-id': this.sessionId });
    res.flushHeaders();
  }

  private delete(req: IncomingMessage, res: ServerResponse): void {
    const refusal = this.sessionRefusal(req);
    if (refusal) {
      this.refuse(res, ...refusal);
      return;
    }
    res.writeHead(200).end();
    void this.close();
  }

  private ping(): void {
    const open = new Set(this.calls.values());
    for (const call of open) if (!call.gone) call.res.write(': keepalive\n\n');
    if (this.standing && !this.standing.writableEnded) this.standing.write(': keepalive\n\n');
  }

  /** Why a request other than initialize may not use this session (status, code, message), as the SDK transport words it; undefined when it may. */
  private sessionRefusal(req: IncomingMessage): Refusal | undefined {
    if (!this.initialized) return [400, -32000, 'Bad Request: Server not initialized'];
    const id = header(req, 'mcp-session-id');
    if (!id) return [400, -32000, 'Bad Request: Mcp-Session-Id header is required'];
    if (id !== this.sessionId) return [404, -32001, 'Session not found'];
    const version = header(req, 'mcp-protocol-version');
    if (version !== undefined && !this.supported.includes(version)) {
      return [400, -32000, `Bad Request: Unsupported protocol version: ${version} (supported versions: ${this.supported.join(', ')})`];
    }
    return undefined;
  }

  private refuse(res: ServerResponse, status: number, code: number, message: string, headers: Record<string, string> = {}): void {
    this.onerror?.(new Error(message));
    const text = JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null });
    res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers }).end(text);
  }
}
