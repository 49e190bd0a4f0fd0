import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';
import { serveHttp } from '../../src/http-server.js';
import { silentLogger } from '../../src/log.js';
import { createServices } from '../../src/server.js';

/**
 * The MCP HTTP server's answers to what is not a well-formed call (mutation survivors, issue 25):
 * each refusal has its status and JSON-RPC error, and none of them opens a session.
 */
const TOKEN = 'http-token-0123456789abcdef';
const INIT = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '0' } } };
const ACCEPT = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

describe('the MCP HTTP server refuses what is not a call', () => {
  let server: Awaited<ReturnType<typeof serveHttp>>;
  const send = async (body: string | undefined, headers: Record<string, string> = {}, method = 'POST', path = '/mcp') => {
    const res = await fetch(`http://127.0.0.1:${server.port}${path}`, { method, headers: { ...ACCEPT, authorization: `Bearer ${TOKEN}`, ...headers }, body });
    return { status: res.status, headers: res.headers, json: (await res.json().catch(() => undefined)) as { error?: { code: number; message: string } } | undefined };
  };

  beforeAll(async () => {
    const config = loadConfig({ CHAIN_MCP_NODE_URL: 'http://127.0.0.1:9', CHAIN_MCP_HTTP_TOKEN: TOKEN, CHAIN_MCP_HTTP_MAX_SESSIONS: '2' });
    server = await serveHttp({ config, log: silentLogger(), services: createServices(config, silentLogger()), port: 0 });
  });
  afterAll(() => server.close());

  it('only /mcp is served', async () => {
    const r = await send(JSON.stringify(INIT), {}, 'POST', '/other');
    expect(r.status).toBe(404);
    expect(r.json?.error).toEqual({ code: -32000, message: 'Not found: the MCP endpoint is /mcp.' });
    expect(server.sessionCount()).toBe(0);
  });

  it('a body that is not JSON, or larger than 4 MB, is a parse error', async () => {
    for (const body of ['{not json', `{"x":"${'a'.repeat(4 * 1024 * 1024)}"}`]) {
      const r = await send(body);
      expect(r.status).toBe(400);
      expect(r.json?.error).toEqual({ code: -32700, message: 'Parse error: the body is not JSON.' });
    }
    expect(server.sessionCount()).toBe(0);
  });

  it('takes a body of exactly 4 MB (then wants initialize), not one byte more', async () => {
    const pad = (size: number) => {
      const head = '{"jsonrpc":"2.0","id":3,"method":"ping","pad":"';
      return `${head}${'a'.repeat(size - head.length - 2)}"}`;
    };
    const at = await send(pad(4 * 1024 * 1024));
    expect([at.status, at.json?.error?.message]).toEqual([400, 'Bad request: no session; send initialize first.']);
    const over = await send(pad(4 * 1024 * 1024 + 1));
    expect([over.status, over.json?.error?.message]).toEqual([400, 'Parse error: the body is not JSON.']);
  });

  it('answers each refusal with its JSON-RPC error code', async () => {
    const init = JSON.stringify(INIT);
    expect((await send(init, { authorization: 'Bearer wrong' })).json?.error?.code).toBe(-32001);
    expect((await send(JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'ping' }))).json?.error?.code).toBe(-32000);
    // A scheme that only ends in "Bearer" is not the bearer scheme.
    expect((await send(init, { authorization: `NotBearer ${TOKEN}` })).status).toBe(401);
  });

  it('without a session only initialize opens one; an unknown session id is told to initialize again', async () => {
    const ping = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'ping' });
    const none = await send(ping);
    expect(none.status).toBe(400);
    expect(none.json?.error?.message).toBe('Bad request: no session; send initialize first.');
    const get = await send(undefined, {}, 'GET');
    expect(get.status).toBe(400);
    expect(get.json?.error).toEqual({ code: -32000, message: 'Bad request: no session; send initialize first.' });
    const unknown = await send(ping, { 'mcp-session-id': 'no-such-session' });
    expect(unknown.status).toBe(404);
    expect(unknown.json?.error).toEqual({ code: -32001, message: 'Session not found (expired after being idle, or closed); initialize again.' });
    expect(server.sessionCount()).toBe(0);
  });

  it('routes on the path as sent: a query is not part of it, an absolute target is read for its path, nothing is normalised', async () => {
    const ping = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'ping' });
    const at = (path: string) =>
      new Promise<{ status: number; message?: string }>((resolve, reject) => {
        const req = request({ host: '127.0.0.1', port: server.port, path, method: 'POST', headers: { ...ACCEPT, authorization: `Bearer ${TOKEN}` } }, (res) => {
          let body = '';
          res.on('data', (chunk: Buffer) => (body += chunk.toString()));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, message: (JSON.parse(body) as { error?: { message: string } }).error?.message }));
        });
        req.on('error', reject);
        req.end(ping);
      });
    const noSession = { status: 400, message: 'Bad request: no session; send initialize first.' };
    const notFound = { status: 404, message: 'Not found: the MCP endpoint is /mcp.' };
    expect(await at('/mcp?x=1')).toEqual(noSession);
    expect(await at(`http://127.0.0.1:${server.port}/mcp`)).toEqual(noSession);
    for (const path of ['//mcp', '/mcp/', '/a/../mcp', '/MCP', '/mcp2']) expect(await at(path), path).toEqual(notFound);
    expect(server.sessionCount()).toBe(0);
  });

  it('takes the bearer scheme in any case with extra spaces, and nothing but the exact token', async () => {
    for (const authorization of [`bearer ${TOKEN}`, `BEARER   ${TOKEN}`]) expect((await send(JSON.stringify(INIT), { authorization })).status).toBe(200);
    for (const authorization of [`Bearer ${TOKEN}x`, `Bearer ${TOKEN.slice(0, -1)}`, 'Bearer ', `Basic ${TOKEN}`, TOKEN]) {
      const r = await send(JSON.stringify(INIT), { authorization });
      expect(r.status, authorization).toBe(401);
      expect(r.headers.get('www-authenticate')).toBe('Bearer realm="chain-mcp", error="invalid_token"');
    }
    expect(server.sessionCount()).toBe(2);
    // The bound (2 here) refuses the third with a retry hint, and keeps the two.
    const third = await send(JSON.stringify(INIT));
    expect(third.status).toBe(503);
    expect(third.headers.get('retry-after')).toBe('60');
    expect(third.json?.error?.message).toMatch(/^Too many MCP sessions \(2, CHAIN_MCP_HTTP_MAX_SESSIONS\)/);
    expect(third.json?.error?.code).toBe(-32000);
    expect(server.sessionCount()).toBe(2);
  });
});

describe('starting the MCP HTTP server', () => {
  it('names the port in use in one line, as a configuration mistake', async () => {
    const config = loadConfig({ CHAIN_MCP_NODE_URL: 'http://127.0.0.1:9' });
    const first = await serveHttp({ config, log: silentLogger(), services: createServices(config, silentLogger()), port: 0 });
    try {
      const err = await serveHttp({ config, log: silentLogger(), services: createServices(config, silentLogger()), port: first.port }).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(ConfigError);
      expect((err as Error).message).toBe(`--port ${first.port}: the port is in use on 127.0.0.1 (another chain-mcp?); stop what uses it or choose another with --port N`);
    } finally {
      await first.close();
    }
  });
});
