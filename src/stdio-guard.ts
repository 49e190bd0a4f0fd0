import { Transform, type TransformCallback } from 'node:stream';
import { parseJSONRPCMessage, RELATED_TASK_META_KEY } from '@modelcontextprotocol/server';

/**
 * Sits between stdin and the SDK's stdio transport. The SDK silently drops a line that is
 * not JSON or not a JSON-RPC message, which leaves a client waiting forever on a request
 * with an id; JSON-RPC 2.0 says such input gets an error answer. This passes valid lines
 * through unchanged and answers the others itself: -32700 for bad JSON, -32600 for an
 * invalid request (wrong `jsonrpc`, missing `method`, non-object `params`, a batch).
 */
/** One JSON-RPC message per line, at most this long (the same 4 MB as an --http request body). */
export const MAX_LINE_BYTES = 4 * 1024 * 1024;

export class StdioGuard extends Transform {
  private pending = '';
  /** Inside a line that went over MAX_LINE_BYTES: its rest is skipped up to the next newline. */
  private skipping = false;

  constructor(
    private readonly answer: (line: string) => void,
    private readonly maxLine = MAX_LINE_BYTES,
  ) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.pending += chunk.toString('utf8');
    let newline = this.pending.indexOf('\n');
    while (newline !== -1) {
      const line = this.pending.slice(0, newline);
      this.pending = this.pending.slice(newline + 1);
      if (this.skipping) this.skipping = false;
      else this.check(line);
      newline = this.pending.indexOf('\n');
    }
    // A line without its end yet is held, but never more than maxLine: memory stays bounded.
    if (this.pending.length > this.maxLine) {
      this.pending = '';
      if (!this.skipping) this.refuse(null, -32600, `Invalid Request: a line over ${this.maxLine} bytes was dropped; send smaller messages.`);
      this.skipping = true;
    }
    done();
  }

  override _flush(done: TransformCallback): void {
    if (this.pending.trim() && !this.skipping) this.check(this.pending);
    this.pending = '';
    done();
  }

  private check(raw: string): void {
    const line = raw.replace(/\r$/, '');
    if (!line.trim()) return;
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch {
      this.refuse(null, -32700, 'Parse error: the line is not JSON.');
      return;
    }
    if (isMessage(parsed)) {
      this.push(`${line}\n`);
    } else if (Array.isArray(parsed)) {
      this.refuse(null, -32600, 'Invalid Request: batches are not supported; send one message per line.');
    } else if (parsed && typeof parsed === 'object' && !('id' in parsed)) {
      // A malformed notification (no id) gets no answer, as JSON-RPC requires.
    } else {
      this.refuse(idOf(parsed), -32600, 'Invalid Request: expected a JSON-RPC 2.0 message (jsonrpc "2.0", a string method, object params).');
    }
  }

  private refuse(id: string | number | null, code: number, message: string): void {
    this.answer(`${JSON.stringify({ jsonrpc: '2.0', id, error: { code, message } })}\n`);
  }
}

function idOf(value: unknown): string | number | null {
  const id = value && typeof value === 'object' && !Array.isArray(value) ? (value as { id?: unknown }).id : undefined;
  return typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id)) ? id : null;
}

const REQUEST_KEYS = new Set(['jsonrpc', 'id', 'method', 'params']);
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isId = (v: unknown) => typeof v === 'string' || Number.isSafeInteger(v);

/**
 * The common request or notification, recognised without the SDK's schema pass: only shapes that
 * schema certainly accepts (the keys it allows, a string method, a string or integer id, object
 * params whose `_meta` holds nothing it checks but a progress token). Anything else goes through
 * the schema, so what passes and what is refused is unchanged; the SDK parses each line again.
 */
export function plainlyValid(value: unknown): boolean {
  if (!isObject(value) || value.jsonrpc !== '2.0' || typeof value.method !== 'string') return false;
  for (const key in value) if (!REQUEST_KEYS.has(key)) return false;
  if ('id' in value && !isId(value.id)) return false;
  if (!('params' in value)) return true;
  if (!isObject(value.params)) return false;
  if (!('_meta' in value.params)) return true;
  const meta = value.params._meta;
  return isObject(meta) && Object.keys(meta).every((k) => k !== 'progressToken' && k !== RELATED_TASK_META_KEY);
}

function isMessage(value: unknown): boolean {
  if (plainlyValid(value)) return true;
  try {
    parseJSONRPCMessage(value);
    return true;
  } catch {
    return false;
  }
}
