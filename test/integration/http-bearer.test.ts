import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { type Devnet, startDevnet } from '../../src/devnet/index.js';
import { serveHttp } from '../../src/http-server.js';
import { silentLogger } from '../../src/log.js';
import { createServices } from '../../src/server.js';
import { devnetEnv } from '../helpers/stack.js';

/**
 * Issue 34 item 9, from an independent mutation check: MCP over HTTP must ask for the bearer token
 * on every method, not only on POST: a GET (the session's event stream, where answers and
 * approval notices flow) and a DELETE (which ends someone's session) without it are refused, and
 * the session goes on. And initializes arriving together never open more sessions than
 * CHAIN_MCP_HTTP_MAX_SESSIONS.
 */
const TOKEN = 'http-token-0123456789abcdef';
const INIT = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '0' } } });
const HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
const LIST = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} });

describe('--http: the bearer token on every method, and the session bound under concurrent initializes', () => {
  let devnet: Devnet;
  beforeAll(async () => {
    devnet = await startDevnet();
  });
  afterAll(() => devnet.close());

  const start = (extra: Record<string, string> = {}) => {
    const config = loadConfig(
      devnetEnv(devnet, {
        CHAIN_MCP_ALLOW_SPEND: 'true',
        CHAIN_MCP_APPROVAL: 'confirm-id',
        CHAIN_MCP_KEYSTORE_USER: devnet.keystore.username,
        CHAIN_MCP_KEYSTORE_PASSWORD: devnet.keystore.password,
        CHAIN_MCP_HTTP_TOKEN: TOKEN,
        ...extra,
      }),
    );
    return serveHttp({ config, log: silentLogger(), services: createServices(config, silentLogger()), port: 0 });
  };
  const url = (port: number) => `http://127.0.0.1:${port}/mcp`;
  const bearer = { authorization: `Bearer ${TOKEN}` };

  async function openSession(port: number): Promise<string> {
    const res = await fetch(url(port), { method: 'POST', headers: { ...HEADERS, ...bearer }, body: INIT });
    await res.text();
    expect(res.status).toBe(200);
    const id = res.headers.get('mcp-session-id');
    expect(id).toBeTruthy();
    const done = await fetch(url(port), {
      method: 'POST',
      headers: { ...HEADERS, ...bearer, 'mcp-session-id': id!, 'mcp-protocol-version': '2025-06-18' },
      body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
    });
    await done.text();
    return id!;
  }

  it('refuses GET (the event stream) and DELETE (closing the session) without the token or with a wrong one; the session goes on', async () => {
    const server = await start();
    try {
      const id = await openSession(server.port);
      const session = { 'mcp-session-id': id, 'mcp-protocol-version': '2025-06-18' };
      for (const auth of [{} as Record<string, string>, { authorization: 'Bearer wrong-token-0123456789abcdef' }]) {
        const get = await fetch(url(server.port), { method: 'GET', headers: { accept: 'text/event-stream', ...session, ...auth } });
        expect(get.status).toBe(401);
        expect(get.headers.get('www-authenticate')).toMatch(/^Bearer /);
        expect(get.headers.get('content-type')).not.toMatch(/event-stream/);
        await get.text();
        const del = await fetch(url(server.port), { method: 'DELETE', headers: { ...session, ...auth } });
        expect(del.status).toBe(401);
        await del.text();
        expect(server.sessionCount()).toBe(1);
      }
      // The session was not closed by the refused DELETE: it still answers with the token.
      const list = await fetch(url(server.port), { method: 'POST', headers: { ...HEADERS, ...bearer, ...session }, body: LIST });
      expect(list.status).toBe(200);
      expect(await list.text()).toContain('"tools"');
      // With the token, DELETE does close it.
      const del = await fetch(url(server.port), { method: 'DELETE', headers: { ...session, ...bearer } });
      await del.text();
      expect(del.status).toBe(200);
      expect(server.sessionCount()).toBe(0);
    } finally {
      await server.close();
    }
  });

  it('twelve initializes at once under a bound of three open exactly three sessions and refuse nine', async () => {
    const server = await start({ CHAIN_MCP_HTTP_MAX_SESSIONS: '3' });
    try {
      const answers = await Promise.all(Array.from({ length: 12 }, () => fetch(url(server.port), { method: 'POST', headers: { ...HEADERS, ...bearer }, body: INIT })));
      const bodies = await Promise.all(answers.map((a) => a.text()));
      const statuses = answers.map((a) => a.status);
      expect(statuses.filter((s) => s === 200)).toHaveLength(3);
      expect(statuses.filter((s) => s === 503)).toHaveLength(9);
      expect(bodies.filter((b) => b.includes('Too many MCP sessions (3, CHAIN_MCP_HTTP_MAX_SESSIONS)'))).toHaveLength(9);
      expect(server.sessionCount()).toBe(3);
    } finally {
      await server.close();
    }
  });
});
