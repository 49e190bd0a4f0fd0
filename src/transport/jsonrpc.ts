import { randomBytes } from 'node:crypto';
import { ChainMcpError, RpcError, rpcHint } from '../errors.js';
import type { HttpClient } from './http.js';
import { parseNodeJson } from './json.js';

export type RpcParams = Record<string, unknown> | unknown[] | undefined;

export interface RpcCallOptions {
  /** Reads retry transient failures; spends and other writes never do. */
  retry: boolean;
  signal?: AbortSignal;
}

export interface RpcRequest {
  path: string;
  method: string;
  params?: RpcParams;
}

/** The spec caps batches at 40 items (public API node). */
export const MAX_BATCH = 40;

/**
 * JSON with bigints written as bare integers: the spec sends integer params as JSON numbers,
 * and uint64 amounts above 2^53 must keep every digit.
 */
export function stringifyJson(value: unknown): string {
  try {
    // Most params hold no bigint: plain JSON, no replacer and no marker to take out.
    return JSON.stringify(value);
  } catch {
    // A BigInt (JSON.stringify has no form for it); anything else throws again below.
    const marked = JSON.stringify(value, (_key, v: unknown) => (typeof v === 'bigint' ? `${BIG_MARK}${v.toString()}` : v));
    return marked.replace(BIG_PATTERN, '$1');
  }
}

/** A per-process marker, so no caller-supplied string can pass for a bigint. */
const BIG_MARK = `bigint-${randomBytes(8).toString('hex')}:`;
const BIG_PATTERN = new RegExp(`"${BIG_MARK}(\\d+)"`, 'g');

interface RpcEnvelope {
  jsonrpc?: unknown;
  id?: unknown;
  result?: unknown;
  error?: { code?: unknown; message?: unknown; data?: unknown } | null;
}

/**
 * JSON-RPC 2.0 client for the node's conventions: POST, content-type application/json,
 * numeric ids, a params object (or a positional array for the EVM namespaces), and
 * `Authorization: Bearer` on every endpoint except /ext/auth.
 */
export class JsonRpcClient {
  private nextId = 1;

  constructor(
    private readonly http: HttpClient,
    private readonly baseUrl: string,
    private readonly authToken?: string,
  ) {}

  headersFor(path: string): Record<string, string> {
    const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
    if (this.authToken && path !== '/ext/auth') headers.authorization = `Bearer ${this.authToken}`;
    return headers;
  }

  async call(req: RpcRequest, opts: RpcCallOptions): Promise<unknown> {
    const id = this.nextId++;
    const body: Record<string, unknown> = { jsonrpc: '2.0', id, method: req.method };
    if (req.params !== undefined) body.params = req.params;
    const res = await this.http.send({
      method: 'POST',
      url: this.baseUrl + req.path,
      headers: this.headersFor(req.path),
      body: stringifyJson(body),
      retry: opts.retry,
      signal: opts.signal,
      service: 'node',
      decode: (text) => parseJson(text, req.path),
    });
    return unwrap(res.value, id, req.method);
  }

  /** Sends calls to one path in batches of at most 40; each item settles on its own. */
  async batch(path: string, calls: Array<{ method: string; params?: RpcParams }>, opts: RpcCallOptions): Promise<Array<PromiseSettledResult<unknown>>> {
    const results: Array<PromiseSettledResult<unknown>> = [];
    for (let start = 0; start < calls.length; start += MAX_BATCH) {
      const chunk = calls.slice(start, start + MAX_BATCH);
      const ids = chunk.map(() => this.nextId++);
      const body = chunk.map((c, i) => {
        const item: Record<string, unknown> = { jsonrpc: '2.0', id: ids[i], method: c.method };
        if (c.params !== undefined) item.params = c.params;
        return item;
      });
      const res = await this.http.send({
        method: 'POST',
        url: this.baseUrl + path,
        headers: this.headersFor(path),
        body: stringifyJson(body),
        retry: opts.retry,
        signal: opts.signal,
        service: 'node',
        decode: (text) => parseJson(text, path),
      });
      const parsed = res.value;
      if (!Array.isArray(parsed)) {
        // Some nodes answer a whole batch with one error object.
        const err = toRpcFailure(parsed as RpcEnvelope, path);
        for (const _ of chunk) results.push({ status: 'rejected', reason: err });
        continue;
      }
      const byId = new Map<unknown, RpcEnvelope>(parsed.map((e: RpcEnvelope) => [e?.id, e]));
      chunk.forEach((c, i) => {
        const envelope = byId.get(ids[i]);
        try {
          if (!envelope) throw new ChainMcpError('malformed', `The node's batch answer lacks the reply to ${c.method}.`);
          results.push({ status: 'fulfilled', value: unwrap(envelope, ids[i]!, c.method) });
        } catch (err) {
          results.push({ status: 'rejected', reason: err });
        }
      });
    }
    return results;
  }
}

function parseJson(text: string, path: string): unknown {
  try {
    return parseNodeJson(text);
  } catch {
    throw new ChainMcpError('malformed', `The node at ${path} answered with a body that is not JSON.`, {
      hint: 'Check that CHAIN_MCP_NODE_URL points at the node API, not another service.',
      transient: true,
    });
  }
}

function toRpcFailure(envelope: RpcEnvelope, method: string): ChainMcpError {
  const error = envelope?.error;
  if (error && typeof error === 'object') {
    const message = typeof error.message === 'string' ? error.message : 'unknown error';
    const code = typeof error.code === 'number' ? error.code : -32000;
    return new RpcError(code, `The node refused ${method}: ${message}`, error.data ?? null, rpcHint(message));
  }
  return new ChainMcpError('malformed', `The node's answer to ${method} has neither result nor error.`);
}

function unwrap(parsed: unknown, id: number, method: string): unknown {
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new ChainMcpError('malformed', `The node's answer to ${method} is not a JSON-RPC object.`);
  }
  const envelope = parsed as RpcEnvelope;
  if (envelope.error) throw toRpcFailure(envelope, method);
  if (envelope.id !== id && envelope.id !== String(id)) {
    throw new ChainMcpError('malformed', `The node's answer to ${method} carries id ${JSON.stringify(envelope.id)}, not ${id}.`);
  }
  if (!('result' in envelope)) throw toRpcFailure(envelope, method);
  return envelope.result;
}
