import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { serveHttp } from '../../src/http-server.js';
import { silentLogger } from '../../src/log.js';
import { createServices } from '../../src/server.js';

/**
 * A 2025-11-25 session on the wire (src/http-session.ts): what each request gets, status, headers
 * and body, the way the SDK's own streamable HTTP transport answers it (its statuses and messages).
 */
const TOKEN = 'session-wire-token-0123456789';
const LEGACY = '2025-11-25';
const JSON_AND_SSE = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
const INIT = { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: LEGACY, capabilities: {}, clientInfo: { name: 'wire', version: '0' } } };

interface Answer {
  status: number;
  headers: Headers;
  text: string;
}

/** The JSON-RPC messages of an event stream's `data:` lines. */
const events = (text: string) =>
  text
    .split('\n')
    .filter((line) => line.startsWith('data: '))
    .map((line) => JSON.parse(line.slice(6)) as { id?: number; result?: unknown; error?: { code: number; message: string } });

describe('an HTTP session on the wire', () => {
  let server: Awaited<ReturnType<typeof serveHttp>>;
  const url = () => `http://127.0.0.1:${server.port}/mcp`;
  const send = async (method: string, body: unknown, headers: Record<string, string> = {}): Promise<Answer> => {
    const res = await fetch(url(), { method, headers: { ...JSON_AND_SSE, authorization: `Bearer ${TOKEN}`, ...headers }, body: body === undefined ? undefined : JSON.stringify(body) });
    return { status: res.status, headers: res.headers, text: await res.text() };
  };
  const errorOf = (a: Answer) => [a.status, (JSON.parse(a.text) as { error: { code: number; message: string } }).error];
  const open = async () => {
    const opened = await send('POST', INIT);
    expect(opened.status).toBe(200);
    const id = opened.headers.get('mcp-session-id')!;
    const headers = { 'mcp-session-id': id, 'mcp-protocol-version': LEGACY };
    expect((await send('POST', { jsonrpc: '2.0', method: 'notifications/initialized' }, headers)).status).toBe(202);
    return headers;
  };

  beforeAll(async () => {
    const config = loadConfig({ CHAIN_MCP_NODE_URL: 'http://127.0.0.1:9', CHAIN_MCP_HTTP_TOKEN: TOKEN, CHAIN_MCP_HTTP_MAX_SESSIONS: '2' });
    server = await serveHttp({ config, log: silentLogger(), services: createServices(config, silentLogger()), port: 0 });
  });
  afterAll(() => server.close());

  it('answers initialize on an event stream that names the session, and a notification with 202 and no body', async () => {
    const opened = await send('POST', INIT);
    expect(opened.status).toBe(200);
    expect(opened.headers.get('content-type')).toBe('text/event-stream');
    expect(opened.headers.get('cache-control')).toBe('no-cache, no-transform');
    const id = opened.headers.get('mcp-session-id');
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    const [answer] = events(opened.text);
    expect(answer).toMatchObject({ id: 0, result: { protocolVersion: LEGACY, serverInfo: { name: 'chain-mcp' } } });
    const note = await send('POST', { jsonrpc: '2.0', method: 'notifications/initialized' }, { 'mcp-session-id': id!, 'mcp-protocol-version': LEGACY });
    expect([note.status, note.text]).toEqual([202, '']);
    expect((await send('DELETE', undefined, { 'mcp-session-id': id! })).status).toBe(200);
  });

  it('answers every request of a batch on one stream, then ends it', async () => {
    const session = await open();
    const both = await send('POST', [{ jsonrpc: '2.0', id: 7, method: 'ping' }, { jsonrpc: '2.0', id: 'eight', method: 'prompts/list' }], session);
    expect(both.status).toBe(200);
    const answers = events(both.text);
    expect(answers.map((a) => a.id).sort()).toEqual([7, 'eight']);
    expect(answers.find((a) => a.id === 7)?.result).toEqual({});
    expect((await send('DELETE', undefined, session)).status).toBe(200);
  });

  it('refuses what the SDK transport refuses, with its status and message, and the session goes on', async () => {
    const session = await open();
    const ping = { jsonrpc: '2.0', id: 1, method: 'ping' };
    expect(errorOf(await send('POST', ping, { ...session, accept: 'application/json' }))).toEqual([406, { code: -32000, message: 'Not Acceptable: Client must accept both application/json and text/event-stream' }]);
    expect(errorOf(await send('POST', ping, { ...session, 'content-type': 'text/plain' }))).toEqual([415, { code: -32000, message: 'Unsupported Media Type: Content-Type must be application/json' }]);
    const many = Array.from({ length: 101 }, (_, i) => ({ ...ping, id: i }));
    expect(errorOf(await send('POST', many, session))).toEqual([400, { code: -32600, message: 'Invalid Request: Batch must not exceed 100 messages' }]);
    expect(errorOf(await send('POST', { hello: 'world' }, session))).toEqual([400, { code: -32700, message: 'Parse error: Invalid JSON-RPC message' }]);
    expect(errorOf(await send('POST', INIT, session))).toEqual([400, { code: -32600, message: 'Invalid Request: Server already initialized' }]);
    const [status, error] = errorOf(await send('POST', ping, { ...session, 'mcp-protocol-version': '1999-01-01' }));
    expect(status).toBe(400);
    expect(error).toMatchObject({ code: -32000, message: expect.stringMatching(/^Bad Request: Unsupported protocol version: 1999-01-01 \(supported versions: .*2025-11-25/) });
    expect(errorOf(await send('PUT', ping, session))).toEqual([405, { code: -32000, message: 'Method not allowed.' }]);
    expect((await send('PUT', ping, session)).headers.get('allow')).toBe('GET, POST, DELETE');
    // None of it closed the session.
    expect(events((await send('POST', ping, session)).text)[0]).toEqual({ jsonrpc: '2.0', id: 1, result: {} });
    expect((await send('DELETE', undefined, session)).status).toBe(200);
  });

  it('a refused initialize leaves no session and no place taken: two sessions still open after it', async () => {
    expect((await send('POST', INIT, { accept: 'application/json' })).status).toBe(406);
    expect((await send('POST', [INIT, { jsonrpc: '2.0', id: 9, method: 'ping' }])).status).toBe(400);
    expect(server.sessionCount()).toBe(0);
    const [a, b] = [await open(), await open()];
    expect(server.sessionCount()).toBe(2);
    for (const s of [a, b]) expect((await send('DELETE', undefined, s)).status).toBe(200);
    expect(server.sessionCount()).toBe(0);
  });

  it('holds one standing GET stream per session (409 for a second), and another once the first is gone', async () => {
    const session = await open();
    expect(errorOf(await send('GET', undefined, { ...session, accept: 'application/json' }))).toEqual([406, { code: -32000, message: 'Not Acceptable: Client must accept text/event-stream' }]);
    const first = new AbortController();
    const standing = await fetch(url(), { headers: { accept: 'text/event-stream', authorization: `Bearer ${TOKEN}`, ...session }, signal: first.signal });
    expect([standing.status, standing.headers.get('content-type'), standing.headers.get('mcp-session-id')]).toEqual([200, 'text/event-stream', session['mcp-session-id']]);
    expect(errorOf(await send('GET', undefined, { ...session, accept: 'text/event-stream' }))).toEqual([409, { code: -32000, message: 'Conflict: Only one SSE stream is allowed per session' }]);
    first.abort();
    await standing.body?.cancel().catch(() => undefined);
    // The server learns of the hang-up when the socket closes; bounded wait for it.
    let again: Response | undefined;
    const second = new AbortController();
    for (let i = 0; i < 50 && again?.status !== 200; i++) {
      await new Promise((r) => setTimeout(r, 20));
      again = await fetch(url(), { headers: { accept: 'text/event-stream', authorization: `Bearer ${TOKEN}`, ...session }, signal: second.signal });
      if (again.status !== 200) await again.text();
    }
    expect(again?.status).toBe(200);
    second.abort();
    expect((await send('DELETE', undefined, session)).status).toBe(200);
  });

  it('DELETE ends the session: its id is then unknown, and a GET or DELETE without the id is refused', async () => {
    const session = await open();
    expect(errorOf(await send('DELETE', undefined, { 'mcp-session-id': session['mcp-session-id'], 'mcp-protocol-version': '1999-01-01' }))[0]).toBe(400);
    expect((await send('DELETE', undefined, session)).status).toBe(200);
    expect(errorOf(await send('POST', { jsonrpc: '2.0', id: 1, method: 'ping' }, session))).toEqual([
      404,
      { code: -32001, message: 'Session not found (expired after being idle, or closed); initialize again.' },
    ]);
    expect(server.sessionCount()).toBe(0);
  });
});

describe("an HTTP session's keep-alive", () => {
  it('writes a comment on the standing stream every 15 s, and its timer ends with the session', async () => {
    // Only the intervals are faked: sockets and the rest of the event loop run for real.
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const config = loadConfig({ CHAIN_MCP_NODE_URL: 'http://127.0.0.1:9', CHAIN_MCP_HTTP_TOKEN: TOKEN });
    const server = await serveHttp({ config, log: silentLogger(), services: createServices(config, silentLogger()), port: 0 });
    try {
      const url = `http://127.0.0.1:${server.port}/mcp`;
      const auth = { authorization: `Bearer ${TOKEN}` };
      const opened = await fetch(url, { method: 'POST', headers: { ...JSON_AND_SSE, ...auth }, body: JSON.stringify(INIT) });
      const session = { 'mcp-session-id': opened.headers.get('mcp-session-id')!, 'mcp-protocol-version': LEGACY };
      await opened.text();
      const timers = vi.getTimerCount();
      const standing = await fetch(url, { headers: { accept: 'text/event-stream', ...auth, ...session } });
      const reader = standing.body!.getReader();
      vi.advanceTimersByTime(15_000);
      const { value } = await reader.read();
      expect(new TextDecoder().decode(value)).toBe(': keepalive\n\n');
      await reader.cancel();
      await (await fetch(url, { method: 'DELETE', headers: { ...auth, ...session } })).text();
      expect(vi.getTimerCount()).toBe(timers - 1);
    } finally {
      await server.close();
      vi.useRealTimers();
    }
  });
});
