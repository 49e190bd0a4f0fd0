import { createServer, request, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/client';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';
import { serveHttp } from '../../src/http-server.js';
import { createLogger, silentLogger } from '../../src/log.js';
import { createServices } from '../../src/server.js';

/**
 * The MCP HTTP server's session book (mutation survivors, issue 25): a session waiting on a long
 * call is never swept as idle, the idle bound is exact, a failed or racing initialize cannot open
 * more sessions than CHAIN_MCP_HTTP_MAX_SESSIONS, and a request that breaks the handler gets a
 * JSON-RPC error while the server goes on serving.
 */
const INIT = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '0' } } });
const ACCEPT = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

/** A node that takes requests and never answers (a call that stays in progress). */
async function stuckNode() {
  let arrivedOne: () => void = () => undefined;
  let hungUpOne: () => void = () => undefined;
  const arrived = new Promise<void>((resolve) => {
    arrivedOne = resolve;
  });
  const hungUp = new Promise<void>((resolve) => {
    hungUpOne = resolve;
  });
  const server = createServer((req) => {
    req.socket.once('close', () => hungUpOne());
    arrivedOne();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    arrived,
    /** The first request's connection closed: the server gave up that call. */
    hungUp,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

describe('MCP HTTP sessions', () => {
  let node: Awaited<ReturnType<typeof stuckNode>>;
  const clock = { now: Date.now() };
  const logs: Array<Record<string, unknown>> = [];
  const start = (env: Record<string, string> = {}, now: (() => number) | undefined = () => clock.now) => {
    const config = loadConfig({ CHAIN_MCP_NODE_URL: node.url, CHAIN_MCP_TIMEOUT_MS: '30000', ...env });
    const log = createLogger('info', config.secrets, { write: (line: string) => logs.push(JSON.parse(line) as Record<string, unknown>) });
    return serveHttp({ config, log, services: createServices(config, silentLogger()), port: 0, now });
  };
  const connect = async (port: number) => {
    const client = new Client({ name: 'sessions', version: '0' });
    const transport = new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`));
    await client.connect(transport);
    return { client, transport };
  };
  const initialize = (port: number, headers: Record<string, string> = ACCEPT) => fetch(`http://127.0.0.1:${port}/mcp`, { method: 'POST', headers, body: INIT });

  beforeAll(async () => {
    node = await stuckNode();
  });
  afterAll(() => node.close());
  afterEach(() => {
    logs.length = 0;
  });

  it('never sweeps a session whose call is still in progress; once the call ends, its idle time starts over', async () => {
    const server = await start({ CHAIN_MCP_HTTP_IDLE_MS: '60000' });
    try {
      const waiting = await connect(server.port);
      const call = waiting.client.callTool({ name: 'info_getNodeID', arguments: {} }).catch((e: unknown) => e);
      await node.arrived;
      clock.now += 120_000;
      // Another client's initialize sweeps: the busy session stays.
      await (await initialize(server.port)).text();
      expect(server.sessionCount()).toBe(2);
      await waiting.client.close();
      await call;
      // The server saw the hang-up (it cancels the node request in the same moment it books the call's end).
      await node.hungUp;
      // Its call ended just now: the clock restarts from there, not from when it began.
      clock.now += 30_000;
      await (await initialize(server.port)).text();
      expect(server.sessionCount()).toBe(3);
    } finally {
      await server.close();
    }
  });

  it('keeps a session idle for exactly CHAIN_MCP_HTTP_IDLE_MS, expires it one millisecond later and logs its id prefix only', async () => {
    const server = await start({ CHAIN_MCP_HTTP_IDLE_MS: '60000' });
    try {
      // A bare initialize, so no standing event stream touches the session later.
      const first = await initialize(server.port);
      await first.text();
      const id = first.headers.get('mcp-session-id')!;
      clock.now += 60_000;
      await (await initialize(server.port)).text();
      expect(server.sessionCount()).toBe(2);
      clock.now += 1;
      await (await initialize(server.port)).text();
      // The idle one went; the first initialize's session (used 1 ms ago) stayed, and a third came.
      expect(server.sessionCount()).toBe(2);
      const expired = logs.filter((l) => l.msg === 'HTTP session expired (idle)');
      expect(expired.map((l) => l.session)).toEqual([id.slice(0, 8)]);
      expect(JSON.stringify(logs)).not.toContain(id);
    } finally {
      await server.close();
    }
  });

  it('sweeps idle sessions on its own, with no request coming in', async () => {
    const server = await start({ CHAIN_MCP_HTTP_IDLE_MS: '1000' }, Date.now);
    try {
      await (await initialize(server.port)).text();
      expect(server.sessionCount()).toBe(1);
      // Bounded: the sweep runs every min(idle, 60 s), so within about 2 s here.
      for (let i = 0; i < 60 && server.sessionCount() > 0; i++) await new Promise((r) => setTimeout(r, 100));
      expect(server.sessionCount()).toBe(0);
    } finally {
      await server.close();
    }
  });

  it('two initializes at once under a bound of one open one session, and refuse the other', async () => {
    const server = await start({ CHAIN_MCP_HTTP_MAX_SESSIONS: '1' });
    try {
      const answers = await Promise.all([initialize(server.port), initialize(server.port)]);
      await Promise.all(answers.map((a) => a.text()));
      expect(answers.map((a) => a.status).sort()).toEqual([200, 503]);
      expect(server.sessionCount()).toBe(1);
    } finally {
      await server.close();
    }
  });

  it('an initialize that fails before its session exists gives its place back', async () => {
    const server = await start({ CHAIN_MCP_HTTP_MAX_SESSIONS: '1' });
    try {
      for (let i = 0; i < 3; i++) {
        // The SDK transport refuses a client that cannot take an event stream, before any session.
        const refused = await initialize(server.port, { 'content-type': 'application/json', accept: 'application/json' });
        await refused.text();
        expect(refused.status).toBe(406);
      }
      expect(server.sessionCount()).toBe(0);
      const ok = await initialize(server.port);
      await ok.text();
      expect(ok.status).toBe(200);
      expect(server.sessionCount()).toBe(1);
    } finally {
      await server.close();
    }
  });

  it('answers a request that breaks the handler with a JSON-RPC internal error, logs it, and goes on serving', async () => {
    const server = await start();
    try {
      // An absolute-form target Node takes but URL cannot parse.
      const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = request({ host: '127.0.0.1', port: server.port, path: 'http://[bad/mcp' }, (res) => {
          let body = '';
          res.on('data', (chunk: Buffer) => (body += chunk.toString()));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        });
        req.on('error', reject);
        req.end();
      });
      expect(answer.status).toBe(500);
      expect(JSON.parse(answer.body)).toEqual({ jsonrpc: '2.0', error: { code: -32603, message: 'Internal error.' }, id: null });
      expect(logs.filter((l) => l.msg === 'HTTP request failed').map((l) => l.err)).toEqual(['Invalid URL']);
      expect((await initialize(server.port)).status).toBe(200);
    } finally {
      await server.close();
    }
  });

  it('refuses a foreign Origin with a JSON-RPC error', async () => {
    const server = await start();
    try {
      const res = await fetch(`http://127.0.0.1:${server.port}/mcp`, { method: 'POST', headers: { ...ACCEPT, origin: 'http://attacker.example' }, body: INIT });
      expect(res.status).toBe(403);
      expect(((await res.json()) as { error: unknown }).error).toEqual({ code: -32000, message: 'Forbidden: only loopback hosts and origins are served.' });
    } finally {
      await server.close();
    }
  });

  it('close() stops listening', async () => {
    const server = await start();
    await (await initialize(server.port)).text();
    await server.close();
    await expect(initialize(server.port)).rejects.toThrow();
  });
});

describe('listening errors', () => {
  afterEach(() => vi.restoreAllMocks());
  const failListen = (code: string) =>
    vi.spyOn(Server.prototype, 'listen').mockImplementationOnce(function (this: Server) {
      process.nextTick(() => this.emit('error', Object.assign(new Error(`listen ${code}`), { code })));
      return this;
    });
  const serve = () => {
    const config = loadConfig({ CHAIN_MCP_NODE_URL: 'http://127.0.0.1:9' });
    return serveHttp({ config, log: silentLogger(), services: createServices(config, silentLogger()), port: 80 }).then(
      () => undefined,
      (e: unknown) => e as Error,
    );
  };

  it('a port the process may not use is a configuration mistake in one line', async () => {
    failListen('EACCES');
    const err = await serve();
    expect(err).toBeInstanceOf(ConfigError);
    expect(err?.message).toBe('--port 80: not allowed to listen on this port; stop what uses it or choose another with --port N');
  });

  it('any other listening error is passed on as it is', async () => {
    failListen('EADDRNOTAVAIL');
    const err = await serve();
    expect(err).not.toBeInstanceOf(ConfigError);
    expect(err?.message).toBe('listen EADDRNOTAVAIL');
  });
});
