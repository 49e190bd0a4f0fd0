import { createServer, type IncomingMessage, request as httpRequest, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { hangUpSignal, webRequest, writeResponse } from '../../src/http-bridge.js';

let server: Server | undefined;

afterEach(async () => {
  server?.closeAllConnections();
  await new Promise<void>((r) => (server ? server.close(() => r()) : r()));
  server = undefined;
});

/** A loopback server whose one handler answers each request; resolves with its port. */
async function serve(handle: (req: IncomingMessage, res: ServerResponse) => Promise<void> | void): Promise<number> {
  server = createServer((req, res) => void handle(req, res));
  await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
  return (server!.address() as AddressInfo).port;
}

/** The raw bytes a client reads until the server ends the response (or `until` is seen). */
function rawExchange(port: number, text: string, until?: string): Promise<{ raw: string; socket: Socket }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ port, host: '127.0.0.1', method: 'POST', path: '/mcp', headers: { 'content-type': 'application/json', connection: 'close' } });
    req.on('error', reject);
    req.on('socket', (socket) => {
      let raw = '';
      socket.on('data', (chunk: Buffer) => {
        raw += chunk.toString('latin1');
        if (until !== undefined && raw.includes(until)) resolve({ raw, socket });
      });
      socket.on('close', () => resolve({ raw, socket }));
    });
    req.end(text);
  });
}

describe('webRequest', () => {
  it('carries method, URL, every header but the body framing ones, and the signal; no body', async () => {
    let seen: Request | undefined;
    const abort = new AbortController();
    const port = await serve((req, res) => {
      seen = webRequest(req, abort.signal);
      req.resume();
      res.end('ok');
    });
    await new Promise<void>((resolve, reject) => {
      const req = httpRequest({
        port,
        host: '127.0.0.1',
        method: 'POST',
        path: '/mcp?x=1',
        headers: { 'content-type': 'application/json', 'mcp-method': 'tools/call', 'x-two': ['a', 'b'], 'content-encoding': 'identity' },
      });
      req.on('response', (res) => res.resume().on('end', resolve));
      req.on('error', reject);
      req.end('{"jsonrpc":"2.0"}');
    });
    expect(seen!.method).toBe('POST');
    expect(seen!.url).toBe(`http://127.0.0.1:${port}/mcp?x=1`);
    expect(seen!.headers.get('mcp-method')).toBe('tools/call');
    expect(seen!.headers.get('content-type')).toBe('application/json');
    expect(seen!.headers.get('x-two')).toBe('a, b');
    expect(seen!.headers.has('content-length')).toBe(false);
    expect(seen!.headers.has('content-encoding')).toBe(false);
    expect(seen!.body).toBeNull();
    abort.abort();
    expect(seen!.signal.aborted).toBe(true);
  });
});

describe('writeResponse', () => {
  it('writes a JSON answer whole, with its length and status, not chunked', async () => {
    const body = JSON.stringify({ jsonrpc: '2.0', id: 7, result: { text: 'é' } });
    const port = await serve(async (req, res) => {
      req.resume();
      const hangUp = hangUpSignal(res);
      await writeResponse(res, new Response(body, { status: 202, headers: { 'content-type': 'application/json', 'x-a': '1' } }), hangUp.signal);
      hangUp.done();
    });
    const { raw } = await rawExchange(port, '{}');
    const [head, payload] = raw.split('\r\n\r\n');
    expect(head).toMatch(/^HTTP\/1\.1 202 /);
    expect(head).toMatch(new RegExp(`\\r\\ncontent-length: ${Buffer.byteLength(body)}\\r\\n`, 'i'));
    expect(head).not.toMatch(/transfer-encoding/i);
    expect(head).toMatch(/\r\nx-a: 1(\r\n|$)/i);
    expect(Buffer.from(payload!, 'latin1').toString('utf8')).toBe(body);
  });

  it('answers a response without a body with its status alone', async () => {
    const port = await serve(async (req, res) => {
      req.resume();
      await writeResponse(res, new Response(null, { status: 202 }), hangUpSignal(res).signal);
    });
    const { raw } = await rawExchange(port, '{}');
    expect(raw).toMatch(/^HTTP\/1\.1 202 /);
    expect(['', '0\r\n\r\n']).toContain(raw.slice(raw.indexOf('\r\n\r\n') + 4));
  });

  it('relays an event stream that stays open: headers and the first event arrive before it ends', async () => {
    let controller: ReadableStreamDefaultController<Uint8Array> | undefined;
    const port = await serve(async (req, res) => {
      req.resume();
      const stream = new ReadableStream<Uint8Array>({
        start: (c) => {
          controller = c;
          c.enqueue(new TextEncoder().encode('event: message\ndata: {"a":1}\n\n'));
        },
      });
      await writeResponse(res, new Response(stream, { headers: { 'content-type': 'text/event-stream' } }), hangUpSignal(res).signal);
    });
    const first = await rawExchange(port, '{}', 'data: {"a":1}');
    expect(first.raw).toMatch(/content-type: text\/event-stream/i);
    expect(first.raw).toMatch(/transfer-encoding: chunked/i);
    // Still open: the second event and the end come later.
    controller!.enqueue(new TextEncoder().encode('data: {"b":2}\n\n'));
    controller!.close();
    const rest = await new Promise<string>((resolve) => {
      let more = '';
      first.socket.on('data', (c: Buffer) => {
        more += c.toString('latin1');
        if (more.includes('0\r\n\r\n')) resolve(more);
      });
    });
    expect(rest).toContain('data: {"b":2}');
  });

  it('cancels the event stream when the client goes away', async () => {
    let cancelled: (reason: unknown) => void = () => undefined;
    const wasCancelled = new Promise((r) => {
      cancelled = r;
    });
    const port = await serve(async (req, res) => {
      req.resume();
      const hangUp = hangUpSignal(res);
      const stream = new ReadableStream<Uint8Array>({
        start: (c) => c.enqueue(new TextEncoder().encode('data: {}\n\n')),
        cancel: (reason) => cancelled(reason ?? 'cancelled'),
      });
      await writeResponse(res, new Response(stream, { headers: { 'content-type': 'text/event-stream' } }), hangUp.signal);
    });
    const { socket } = await rawExchange(port, '{}', 'data: {}');
    socket.destroy();
    await expect(wasCancelled).resolves.toBeDefined();
  });
});
