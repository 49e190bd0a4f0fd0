import { setTimeout as sleep } from 'node:timers/promises';
import type { Agent } from 'undici';
import { ChainMcpError, HttpStatusError } from '../errors.js';
import { redactSecrets } from '../redact.js';

export interface HttpOptions {
  timeoutMs: number;
  /** Bodies larger than this are cut off: a node answer must not exhaust memory. */
  maxBodyBytes?: number;
  /** Milliseconds since the epoch; tests move it to check what deadline each attempt gets. */
  now?: () => number;
  /** Masked in error excerpts before they are clipped (a clip could cut a secret past the later redaction). */
  secrets?: readonly string[];
}

export interface HttpRequest {
  method: 'GET' | 'POST';
  url: string;
  headers?: Record<string, string>;
  body?: string;
  /** Reads may be retried on transient failures; anything else is sent exactly once. */
  retry: boolean;
  signal?: AbortSignal;
  /** Names the service in messages: "node", "indexer", "network runner". */
  service: string;
  /**
   * Parses a successful body; runs inside the retry loop, so a transient parse failure
   * (a truncated or garbled body) is retried for reads like any other transient fault.
   */
  decode?: (text: string) => unknown;
}

export interface HttpResponse {
  status: number;
  contentType: string;
  text: string;
  /** What `decode` returned, when the request had one. */
  value?: unknown;
}

/**
 * 4 MB: far above what one person's question needs (the largest real answers, a full validator
 * set or a 1,024-item page, are well under 1 MB) and small enough that a few concurrent calls
 * cannot take the memory of the machine the assistant runs on.
 */
export const DEFAULT_MAX_BODY = 4 * 1024 * 1024;
const RETRY_DELAYS_MS = [100, 300, 900];
const TRANSIENT_STATUS = new Set([429, 502, 503, 504]);

/** Strips user:password from a URL before it appears in any message. */
export function safeUrl(url: string): string {
  try {
    const u = new URL(url);
    u.username = '';
    u.password = '';
    return `${u.origin}${u.pathname}`;
  } catch {
    return '(invalid URL)';
  }
}

/** undici's module.exports: a CommonJS package's default export under every loader. */
type Undici = (typeof import('undici'))['default'];

/**
 * The one HTTP client of the server: one keep-alive Agent for node, indexer and runner,
 * a deadline per call that covers retries, a body size cap, and typed errors.
 */
export class HttpClient {
  private undici?: Promise<Undici>;
  /** undici once loaded: a request then starts without waiting a turn for the promise. */
  private loaded?: Undici;
  private agent?: Agent;
  private readonly maxBodyBytes: number;
  private readonly now: () => number;

  constructor(private readonly opts: HttpOptions) {
    this.maxBodyBytes = opts.maxBodyBytes ?? DEFAULT_MAX_BODY;
    this.now = opts.now ?? Date.now;
  }

  /**
   * undici takes about as long to load as the whole MCP SDK, so it is loaded on first use
   * (or by warm() once the client is initialized), not before the server can answer initialize.
   */
  warm(): Promise<Undici> {
    // The default export, not the named ones: the bin's chunks (tools/bundle.ts) hand a CommonJS
    // package to a dynamic import() as its default export only.
    this.undici ??= import('undici').then(({ default: undici }) => {
      this.agent = new undici.Agent({ keepAliveTimeout: 10_000, keepAliveMaxTimeout: 60_000, connections: 64, pipelining: 1 });
      this.loaded = undici;
      return undici;
    });
    return this.undici;
  }

  get timeoutMs(): number {
    return this.opts.timeoutMs;
  }

  async close(): Promise<void> {
    await this.agent?.close();
  }

  async send(req: HttpRequest): Promise<HttpResponse> {
    const deadline = this.now() + this.opts.timeoutMs;
    for (let attempt = 0; ; attempt++) {
      try {
        const res = await this.once(req, deadline);
        if (req.decode) res.value = req.decode(res.text);
        return res;
      } catch (err) {
        const delay = RETRY_DELAYS_MS[attempt];
        if (!req.retry || delay === undefined || !(err instanceof ChainMcpError) || !err.transient) throw err;
        const wait = err instanceof HttpStatusError && err.retryAfterMs !== undefined ? err.retryAfterMs : delay;
        if (this.now() + wait >= deadline || req.signal?.aborted) throw err;
        await sleep(wait, undefined, { signal: req.signal }).catch(() => undefined);
      }
    }
  }

  private async once(req: HttpRequest, deadline: number): Promise<HttpResponse> {
    // Each attempt gets what is left of the call's deadline, not a fresh timeout.
    const remaining = Math.max(1, deadline - this.now());
    // One controller per attempt, its timer cleared when the attempt ends: AbortSignal.timeout
    // and AbortSignal.any would keep every finished request's signals alive for the whole
    // timeout (memory grows with calls per second times CHAIN_MCP_TIMEOUT_MS).
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, remaining);
    const onCancel = () => controller.abort();
    if (req.signal?.aborted) controller.abort();
    else req.signal?.addEventListener('abort', onCancel, { once: true });
    const signal = controller.signal;
    // Only messages name the service and URL: built when one is written, not on every request.
    const where = () => `${req.service} at ${safeUrl(req.url)}`;
    const { request, errors: undiciErrors } = this.loaded ?? (await this.warm());
    try {
      const res = await request(req.url, {
        method: req.method,
        headers: req.headers,
        body: req.body,
        dispatcher: this.agent,
        signal,
        headersTimeout: remaining,
        bodyTimeout: remaining,
      });
      const text = await this.readCapped(res.body, where);
      const contentType = String(res.headers['content-type'] ?? '');
      if (res.statusCode >= 400) throw statusError(res.statusCode, redactSecrets(text, this.opts.secrets ?? []), contentType, where(), res.headers['retry-after']);
      return { status: res.statusCode, contentType, text };
    } catch (err) {
      if (err instanceof ChainMcpError) throw err;
      if (req.signal?.aborted) throw new ChainMcpError('cancelled', `The call to the ${where()} was cancelled.`);
      if (timedOut || err instanceof undiciErrors.HeadersTimeoutError || err instanceof undiciErrors.BodyTimeoutError) {
        throw new ChainMcpError('timeout', `The ${where()} did not answer within ${this.opts.timeoutMs} ms.`, {
          hint: 'Check that the service is up and not overloaded, or raise CHAIN_MCP_TIMEOUT_MS.',
          transient: false,
        });
      }
      throw connectionError(err, where());
    } finally {
      clearTimeout(timer);
      req.signal?.removeEventListener('abort', onCancel);
    }
  }

  private async readCapped(body: AsyncIterable<Buffer> & { destroy(err?: Error): unknown }, where: () => string): Promise<string> {
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of body) {
      size += chunk.length;
      if (size > this.maxBodyBytes) {
        body.destroy();
        throw new ChainMcpError('too_large', `The ${where()} sent more than ${this.maxBodyBytes >> 20} MB; the answer was cut off.`, {
          hint: 'Ask for less: use paging arguments such as limit.',
        });
      }
      chunks.push(chunk);
    }
    return Buffer.concat(chunks).toString('utf8');
  }
}

function connectionError(err: unknown, where: string): ChainMcpError {
  const code = (err as { code?: string; cause?: { code?: string } }).code ?? (err as { cause?: { code?: string } }).cause?.code;
  if (code === 'ECONNREFUSED') {
    return new ChainMcpError('connection', `Could not connect to the ${where}: connection refused.`, {
      hint: 'Check that the service is running and that the URL is right.',
      transient: true,
    });
  }
  // No network or no DNS server answers: the URL may well be right, so it is not what to check first.
  if (code === 'EAI_AGAIN' || code === 'ENETUNREACH' || code === 'ENETDOWN' || code === 'EHOSTUNREACH') {
    return new ChainMcpError('connection', `Cannot reach the ${where}: no network or DNS.`, {
      hint: "Check this machine's network connection and DNS; the URL may be right.",
      transient: true,
    });
  }
  if (code === 'ENOTFOUND') {
    return new ChainMcpError('connection', `Could not resolve the host of the ${where}: no such name, or no network or DNS.`, {
      hint: "Check the host name in the URL, and this machine's network connection and DNS.",
    });
  }
  const what = code === 'ECONNRESET' || code === 'UND_ERR_SOCKET' ? 'the connection was reset' : (code ?? 'network error');
  return new ChainMcpError('connection', `The request to the ${where} failed: ${what}.`, {
    hint: 'Check that the service is running; try again.',
    transient: true,
  });
}

const STATUS_TEXT: Record<number, [string, string]> = {
  // The caller's mistake (the indexer's answer to a bad parameter): the same request fails the same way.
  400: ['bad request', 'The request itself was refused: change the argument the message names; retrying it unchanged fails again.'],
  401: ['unauthorized', 'Set CHAIN_MCP_AUTH_TOKEN to a valid token that grants this endpoint.'],
  403: ['forbidden', 'The token does not grant this endpoint.'],
  404: ['not found', 'Check the URL and that this API is enabled on the node.'],
  405: ['method not allowed', 'The endpoint expects another HTTP method; check the URL.'],
  415: ['unsupported media type', 'The endpoint expects application/json; check the URL.'],
  429: ['too many requests', 'Wait a moment and try again.'],
  503: ['service unavailable', 'The node may still be bootstrapping; try again shortly.'],
};

function statusError(status: number, body: string, contentType: string, where: string, retryAfter: unknown): HttpStatusError {
  const [label, hint] = STATUS_TEXT[status] ?? (status >= 500 ? ['server error', 'Try again later.'] : ['request refused', 'Check the request; it was refused as sent.']);
  const detail = bodyDetail(body, contentType);
  const retryAfterMs = typeof retryAfter === 'string' && /^\d+$/.test(retryAfter) ? Number(retryAfter) * 1000 : undefined;
  return new HttpStatusError(status, `The ${where} answered HTTP ${status} (${label})${detail ? `: ${detail}` : ''}.`, {
    hint,
    transient: TRANSIENT_STATUS.has(status) || status >= 500,
    retryAfterMs,
  });
}

/** A short, printable excerpt of an error body: the JSON-RPC or indexer message, or plain text. */
function bodyDetail(body: string, contentType: string): string {
  const trimmed = body.trim();
  if (!trimmed) return '';
  if (contentType.includes('json') || trimmed.startsWith('{')) {
    try {
      const parsed = JSON.parse(trimmed) as { message?: unknown; error?: { message?: unknown } };
      const message = parsed.error?.message ?? parsed.message;
      if (typeof message === 'string') return clip(message);
    } catch {
      // not JSON after all: fall through to the text excerpt
    }
  }
  if (contentType.includes('html')) return '';
  return clip(trimmed.replace(/\s+/g, ' '));
}

function clip(text: string): string {
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}
