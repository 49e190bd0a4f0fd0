import { createServer, type IncomingMessage, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { JSONRPCMessage, MessageExtraInfo } from '@modelcontextprotocol/server';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SessionTransport } from '../../src/http-session.js';

/**
 * src/http-session.ts on its own: a loopback HTTP server hands every request to one transport, and
 * the test plays the MCP server (what it is handed, what it sends back), so each rule of the
 * transport is seen without the SDK's server in between. test/integration/http-session-*.test.ts
 * drive it with the real server.
 */
const ID = 'session-under-test';
const LEGACY = '2025-11-25';
const POST_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-session-id': ID };
const INIT = { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: LEGACY, capabilities: {}, clientInfo: { name: 'unit', version: '0' } } };
const ping = (id: number | string) => ({ jsonrpc: '2.0', id, method: 'ping' });

interface Exchange {
  status: number;
  headers: IncomingMessage['headers'];
  text: string;
}

const servers: Server[] = [];
afterEach(async () => {
  vi.useRealTimers();
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});

/** A started transport behind a loopback server; `seen` is what it handed the MCP server. */
async function serve(opts: { initialized?: boolean } = {}) {
  const opened: string[] = [];
  const transport = new SessionTransport(ID, (id) => opened.push(id));
  const seen: Array<{ message: JSONRPCMessage; extra?: MessageExtraInfo }> = [];
  const errors: string[] = [];
  transport.onmessage = (message, extra) => seen.push({ message, extra });
  transport.onerror = (err) => errors.push(err.message);
  let closed = 0;
  transport.onclose = () => closed++;
  await transport.start();
  const http = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      transport.handle(req, res, text ? JSON.parse(text) : undefined, req.headers['x-user'] ? { token: 't', clientId: String(req.headers['x-user']), scopes: [] } : undefined);
    });
  });
  servers.push(http);
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`;
  /** One exchange, read to its end. */
  const send = (method: string, body?: unknown, headers: Record<string, string> = POST_HEADERS): Promise<Exchange> =>
    new Promise((resolve, reject) => {
      const req = request(url, { method, headers }, (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
      });
      req.on('error', reject);
      req.end(body === undefined ? undefined : JSON.stringify(body));
    });
  /** An exchange left open: its status once the headers come, the text so far, and a way to hang up. */
  const open = (method: string, body?: unknown, headers: Record<string, string> = POST_HEADERS) => {
    let text = '';
    let ended = false;
    let req: ReturnType<typeof request> | undefined;
    // 0 when the exchange fails before its headers (this side hung up first).
    const status = new Promise<number>((resolve) => {
      req = request(url, { method, headers }, (res) => {
        res.setEncoding('utf8');
        res.on('data', (c: string) => (text += c));
        res.on('end', () => (ended = true));
        res.on('error', () => undefined);
        resolve(res.statusCode ?? 0);
      });
      req.on('error', () => resolve(0));
      req.end(body === undefined ? undefined : JSON.stringify(body));
    });
    return { status, text: () => text, ended: () => ended, hangUp: () => req?.destroy() };
  };
  if (opts.initialized !== false) {
    const init = send('POST', INIT, { ...POST_HEADERS, 'mcp-session-id': '' });
    await until(() => seen.length === 1);
    await transport.send({ jsonrpc: '2.0', id: 0, result: { protocolVersion: LEGACY } } as JSONRPCMessage);
    await init;
    seen.length = 0;
  }
  return { transport, seen, errors, opened, closed: () => closed, send, open };
}

/** Waits, a turn at a time and at most 2 s, for `done`. */
async function until(done: () => boolean): Promise<void> {
  for (let i = 0; i < 400 && !done(); i++) await new Promise((r) => setTimeout(r, 5));
  expect(done()).toBe(true);
}

/** An refusal's status and message; its JSON-RPC code is checked against the status here. */
const errorOf = (x: Exchange) => {
  const { error } = JSON.parse(x.text) as { error: { code: number; message: string } };
  // The SDK transport's codes: -32001 for an unknown session, -32700 for what is not JSON(-RPC), -32600 for a bad batch, else -32000.
  const code = error.message.endsWith('Session not found') ? -32001 : /^Parse error/.test(error.message) ? -32700 : /^Invalid Request/.test(error.message) ? -32600 : -32000;
  expect(error.code, error.message).toBe(code);
  return [x.status, error.message];
};

describe('the session transport', () => {
  it('starts once, and names the session it was made for once initialize is taken', async () => {
    const { transport, opened } = await serve();
    expect(opened).toEqual([ID]);
    expect(transport.sessionId).toBe(ID);
    await expect(transport.start()).rejects.toThrow('Transport already started');
  });

  it('before initialize, refuses the rest: not initialized; after it, wants the session id and the very one', async () => {
    const fresh = await serve({ initialized: false });
    expect(errorOf(await fresh.send('POST', ping(1)))).toEqual([400, 'Bad Request: Server not initialized']);
    expect(fresh.errors).toEqual(['Bad Request: Server not initialized']);
    const { send } = await serve();
    const { 'mcp-session-id': _, ...anonymous } = POST_HEADERS;
    expect(errorOf(await send('POST', ping(1), anonymous))).toEqual([400, 'Bad Request: Mcp-Session-Id header is required']);
    expect(errorOf(await send('POST', ping(1), { ...POST_HEADERS, 'mcp-session-id': 'another' }))).toEqual([404, 'Session not found']);
    expect(errorOf(await send('GET', undefined, { accept: 'text/event-stream', 'mcp-session-id': 'another' }))).toEqual([404, 'Session not found']);
    expect(errorOf(await send('DELETE', undefined, { 'mcp-session-id': 'another' }))).toEqual([404, 'Session not found']);
  });

  it('takes the protocol versions the server gives it', async () => {
    const { transport, send } = await serve();
    expect(errorOf(await send('POST', ping(1), { ...POST_HEADERS, 'mcp-protocol-version': '2030-01-01' }))[0]).toBe(400);
    transport.setSupportedProtocolVersions(['2030-01-01']);
    expect(errorOf(await send('POST', ping(2), { ...POST_HEADERS, 'mcp-protocol-version': LEGACY }))).toEqual([
      400,
      `Bad Request: Unsupported protocol version: ${LEGACY} (supported versions: 2030-01-01)`,
    ]);
  });

  it('refuses an empty body, a batch over 100 (100 is taken), and initialize beside another message', async () => {
    const { send, seen } = await serve();
    expect(errorOf(await send('POST'))).toEqual([400, 'Parse error: Invalid JSON']);
    const notes = (n: number) => Array.from({ length: n }, (_, i) => ({ jsonrpc: '2.0', method: `notifications/n${i}` }));
    expect(errorOf(await send('POST', notes(101)))).toEqual([400, 'Invalid Request: Batch must not exceed 100 messages']);
    const hundred = await send('POST', notes(100));
    expect(hundred.status).toBe(202);
    expect(seen).toHaveLength(100);
    const fresh = await serve({ initialized: false });
    expect(errorOf(await fresh.send('POST', [ping(1), INIT]))).toEqual([400, 'Invalid Request: Only one initialization request is allowed']);
    expect(fresh.opened).toEqual([]);
  });

  it("hands each message on with the request's authInfo; notifications and answers alone get 202", async () => {
    const { send, seen } = await serve();
    expect((await send('POST', { jsonrpc: '2.0', method: 'notifications/initialized' }, { ...POST_HEADERS, 'x-user': 'u1' })).status).toBe(202);
    expect(seen[0]).toEqual({ message: { jsonrpc: '2.0', method: 'notifications/initialized' }, extra: { authInfo: { token: 't', clientId: 'u1', scopes: [] } } });
    expect((await send('POST', { jsonrpc: '2.0', id: 5, result: {} })).status).toBe(202);
    expect(seen[1]).toStrictEqual({ message: { jsonrpc: '2.0', id: 5, result: {} }, extra: {} });
  });

  it("ends a POST's stream once every request it carried is answered; a question to the client keeps it open", async () => {
    const { transport, send, seen } = await serve();
    const both = send('POST', [ping(1), ping('two')]);
    await until(() => seen.length === 2);
    await transport.send({ jsonrpc: '2.0', id: 99, method: 'elicitation/create', params: {} } as JSONRPCMessage, { relatedRequestId: 1 });
    await transport.send({ jsonrpc: '2.0', id: 1, result: {} } as JSONRPCMessage);
    await transport.send({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 1, progress: 1 } } as JSONRPCMessage, { relatedRequestId: 'two' });
    await transport.send({ jsonrpc: '2.0', id: 'two', error: { code: -1, message: 'no' } } as JSONRPCMessage);
    const answer = await both;
    expect(answer.headers['content-type']).toBe('text/event-stream');
    expect(answer.headers['mcp-session-id']).toBe(ID);
    const events = answer.text.split('\n\n').filter(Boolean);
    expect(events.map((e) => JSON.parse(e.replace('event: message\ndata: ', '')) as { id?: unknown; method?: string })).toEqual([
      { jsonrpc: '2.0', id: 99, method: 'elicitation/create', params: {} },
      { jsonrpc: '2.0', id: 1, result: {} },
      { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 1, progress: 1 } },
      { jsonrpc: '2.0', id: 'two', error: { code: -1, message: 'no' } },
    ]);
    // The ids are spent: a second answer for one has nowhere to go.
    await expect(transport.send({ jsonrpc: '2.0', id: 1, result: {} } as JSONRPCMessage)).rejects.toThrow('No connection established for request ID: 1');
    await expect(transport.send({ jsonrpc: '2.0', id: 7, result: {} } as JSONRPCMessage, { relatedRequestId: 1 })).rejects.toThrow('No connection established for request ID: 7');
  });

  it('sends what belongs to no call on the standing stream, drops it without one, and never an answer there', async () => {
    const { transport, send, open } = await serve();
    const note = { jsonrpc: '2.0', method: 'notifications/tools/list_changed' } as JSONRPCMessage;
    await transport.send(note);
    await expect(transport.send({ jsonrpc: '2.0', id: 3, result: {} } as JSONRPCMessage, undefined)).rejects.toThrow(/^No connection established/);
    const standing = open('GET', undefined, { accept: 'text/event-stream', 'mcp-session-id': ID });
    expect(await standing.status).toBe(200);
    await transport.send(note);
    await until(() => standing.text().includes('list_changed'));
    expect(standing.text()).toBe(`event: message\ndata: ${JSON.stringify(note)}\n\n`);
    // A second GET is refused while the first stands; once it hangs up, another may stand.
    expect((await send('GET', undefined, { accept: 'text/event-stream', 'mcp-session-id': ID })).status).toBe(409);
    standing.hangUp();
    let again: ReturnType<typeof open> | undefined;
    for (let i = 0; i < 100; i++) {
      again = open('GET', undefined, { accept: 'text/event-stream', 'mcp-session-id': ID });
      if ((await again.status) === 200) break;
      await new Promise((r) => setTimeout(r, 10));
    }
    expect(await again!.status).toBe(200);
  });

  it('a response with no request to answer is refused on a standing stream', async () => {
    const { transport } = await serve();
    await expect(transport.send({ jsonrpc: '2.0', id: 'nobody', result: {} } as JSONRPCMessage)).rejects.toThrow('No connection established for request ID: nobody');
    await expect(transport.send({ jsonrpc: '2.0', error: { code: 1, message: 'x' } } as unknown as JSONRPCMessage)).rejects.toThrow(
      'Cannot send a response on a standalone SSE stream unless resuming a previous client request',
    );
  });

  it('a client that hangs up gets its pending calls cancelled, once; what is sent for them afterwards is dropped', async () => {
    const { transport, seen, errors, open } = await serve();
    const call = open('POST', [ping(1), ping(2)], { ...POST_HEADERS, 'x-user': 'u2' });
    await until(() => seen.length === 2);
    await transport.send({ jsonrpc: '2.0', id: 1, result: {} } as JSONRPCMessage);
    await call.status;
    call.hangUp();
    await until(() => seen.length === 3);
    expect(seen[2]).toEqual({
      message: { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 2, reason: 'the HTTP client disconnected' } },
      extra: { authInfo: { token: 't', clientId: 'u2', scopes: [] } },
    });
    await transport.send({ jsonrpc: '2.0', method: 'notifications/progress', params: {} } as JSONRPCMessage, { relatedRequestId: 2 });
    await transport.send({ jsonrpc: '2.0', id: 2, result: {} } as JSONRPCMessage);
    expect(errors).toEqual(['Response for request ID 2 is undeliverable: the client hung up']);
  });

  it('an answered call that closes is not cancelled', async () => {
    const { transport, seen, send } = await serve();
    const call = send('POST', ping(1));
    await until(() => seen.length === 1);
    await transport.send({ jsonrpc: '2.0', id: 1, result: {} } as JSONRPCMessage);
    await call;
    await new Promise((r) => setTimeout(r, 20));
    expect(seen).toHaveLength(1);
  });

  it('keeps open streams alive every 15 s: a pending call and the standing stream, not a call whose client left', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const { transport, seen, open } = await serve();
    const call = open('POST', ping(1));
    const left = open('POST', ping(2));
    const standing = open('GET', undefined, { accept: 'text/event-stream', 'mcp-session-id': ID });
    await until(() => seen.length === 2);
    expect(await standing.status).toBe(200);
    left.hangUp();
    await until(() => seen.length === 3);
    vi.advanceTimersByTime(15_000);
    await until(() => call.text().includes('keepalive') && standing.text().includes('keepalive'));
    // With the standing stream gone too, a tick writes to the pending call only.
    standing.hangUp();
    await new Promise((r) => setTimeout(r, 20));
    vi.advanceTimersByTime(15_000);
    await until(() => call.text() === ': keepalive\n\n: keepalive\n\n');
    expect(standing.text()).toBe(': keepalive\n\n');
    await transport.close();
  });

  it('close ends every open stream once, answers later requests 404, and DELETE closes it', async () => {
    const { transport, seen, open, send, closed } = await serve();
    const call = open('POST', ping(1));
    const standing = open('GET', undefined, { accept: 'text/event-stream', 'mcp-session-id': ID });
    await until(() => seen.length === 1);
    expect(await standing.status).toBe(200);
    await transport.close();
    await transport.close();
    expect(closed()).toBe(1);
    expect(await call.status).toBe(200);
    await until(() => call.ended() && standing.ended());
    // Ended by the server: nothing was cancelled on the client's behalf.
    expect(seen.map((s) => (s.message as { method?: string }).method)).toEqual(['ping']);
    expect(errorOf(await send('POST', ping(2)))).toEqual([404, 'Session not found']);

    const other = await serve();
    expect((await other.send('DELETE', undefined, { 'mcp-session-id': ID })).status).toBe(200);
    expect(other.closed()).toBe(1);
    expect(errorOf(await other.send('GET', undefined, { accept: 'text/event-stream', 'mcp-session-id': ID }))).toEqual([404, 'Session not found']);
  });

  it('works with no handlers set: refuses, takes messages and closes without an error of its own', async () => {
    const bare = new SessionTransport(ID, () => undefined);
    await bare.start();
    const http = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => bare.handle(req, res, chunks.length ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : undefined));
    });
    servers.push(http);
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`;
    const post = (body: unknown, signal?: AbortSignal) => fetch(url, { method: 'POST', headers: POST_HEADERS, body: JSON.stringify(body), signal });
    expect((await post(ping(1))).status).toBe(400);
    // initialize is taken (its answer never comes: no server behind); then its client leaves.
    const leave = new AbortController();
    const init = post(INIT, leave.signal).catch(() => undefined);
    await new Promise((r) => setTimeout(r, 20));
    leave.abort();
    await init;
    await new Promise((r) => setTimeout(r, 20));
    expect((await post({ jsonrpc: '2.0', method: 'notifications/initialized' })).status).toBe(202);
    await bare.send({ jsonrpc: '2.0', id: 0, result: {} } as JSONRPCMessage);
    await bare.close();
    expect(bare.sessionId).toBe(ID);
  });
});
