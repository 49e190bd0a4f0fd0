import { Client } from '@modelcontextprotocol/client';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';
import { serveHttp } from '../../src/http-server.js';
import { silentLogger } from '../../src/log.js';
import { createServices } from '../../src/server.js';
import { type Devnet, startDevnet } from '../../src/devnet/index.js';
import { devnetEnv } from '../helpers/stack.js';
import { requestsFor } from '../helpers/spend-harness.js';

/**
 * --http with spends on: every request carries CHAIN_MCP_HTTP_TOKEN, a confirmation id works only
 * in the session that got the preview, idle sessions end, and their number is bounded.
 */
const TOKEN = 'http-token-0123456789abcdef';
const INIT = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '0' } } });

describe('--http guards', () => {
  let devnet: Devnet;
  const spendEnv = (extra: Record<string, string> = {}) =>
    devnetEnv(devnet, {
      CHAIN_MCP_ALLOW_SPEND: 'true',
      CHAIN_MCP_APPROVAL: 'confirm-id',
      CHAIN_MCP_KEYSTORE_USER: devnet.keystore.username,
      CHAIN_MCP_KEYSTORE_PASSWORD: devnet.keystore.password,
      ...extra,
    });
  const start = (env: Record<string, string>, now?: () => number) => {
    const config = loadConfig(env);
    return serveHttp({ config, log: silentLogger(), services: createServices(config, silentLogger()), port: 0, now });
  };
  const connect = async (port: number, token: string | undefined = TOKEN) => {
    const client = new Client({ name: 'http-guard', version: '0' });
    const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
    const transport = new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`), { requestInit: { headers } });
    await client.connect(transport);
    return { client, transport };
  };
  const post = (port: number, headers: Record<string, string>) =>
    fetch(`http://127.0.0.1:${port}/mcp`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers }, body: INIT });

  beforeAll(async () => {
    devnet = await startDevnet();
    devnet.router.record = true;
  });
  afterAll(() => devnet.close());

  it('refuses to start with spend (or admin) tools on and no CHAIN_MCP_HTTP_TOKEN, in one line naming it', async () => {
    for (const extra of [{} as Record<string, string>, { CHAIN_MCP_ALLOW_SPEND: 'false', CHAIN_MCP_ALLOW_ADMIN: 'true' }]) {
      const err = await start(spendEnv(extra)).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(ConfigError);
      expect((err as Error).message).toMatch(/^CHAIN_MCP_HTTP_TOKEN: required with --http/);
      expect((err as Error).message).not.toContain('\n');
    }
    expect(() => loadConfig(spendEnv({ CHAIN_MCP_HTTP_TOKEN: 'short' }))).toThrow(/^CHAIN_MCP_HTTP_TOKEN: expected at least 16 characters/);
  });

  it('answers 401 with WWW-Authenticate without the bearer token or with a wrong one, and serves with it', async () => {
    const server = await start(spendEnv({ CHAIN_MCP_HTTP_TOKEN: TOKEN }));
    try {
      for (const headers of [{} as Record<string, string>, { authorization: 'Bearer wrong-token-0123456789abcdef' }, { authorization: `Basic ${TOKEN}` }, { authorization: `Bearer ${TOKEN}x` }]) {
        const res = await post(server.port, headers);
        expect(res.status).toBe(401);
        expect(res.headers.get('www-authenticate')).toMatch(/^Bearer /);
        await res.text();
      }
      const ok = await post(server.port, { authorization: `Bearer ${TOKEN}` });
      expect(ok.status).toBe(200);
      await ok.text();
      await expect(connect(server.port, '')).rejects.toThrow();
      const { client } = await connect(server.port);
      expect((await client.callTool({ name: 'info_getNodeID', arguments: {} })).isError).not.toBe(true);
      await client.close();
    } finally {
      await server.close();
    }
  });

  it('a confirmation id issued in session A is refused in session B, and nothing is sent', async () => {
    const server = await start(spendEnv({ CHAIN_MCP_HTTP_TOKEN: TOKEN }));
    const a = await connect(server.port);
    const b = await connect(server.port);
    try {
      const args = { amount: '1000000000', assetID: 'CAM', to: devnet.state.users.get('alice')!.keys[1]!.x };
      const preview = await a.client.callTool({ name: 'xvm_send', arguments: args });
      const id = (preview.structuredContent as { confirmationId: string }).confirmationId;
      const before = requestsFor(devnet, 'xvm.send');
      const stolen = await b.client.callTool({ name: 'xvm_send', arguments: { ...args, confirm: id } });
      expect(stolen.isError).toBe(true);
      expect(JSON.stringify(stolen.content)).toContain('issued in another MCP session');
      expect(requestsFor(devnet, 'xvm.send')).toBe(before);
      // The refusal did not burn it: session A still sends, once.
      const sent = await a.client.callTool({ name: 'xvm_send', arguments: { ...args, confirm: id } });
      expect((sent.structuredContent as { status: string }).status).toBe('issued');
      expect(requestsFor(devnet, 'xvm.send')).toBe(before + 1);
    } finally {
      await a.client.close();
      await b.client.close();
      await server.close();
    }
  });

  it('an idle session expires; an active one stays', async () => {
    const clock = { now: Date.now() };
    const server = await start(spendEnv({ CHAIN_MCP_HTTP_TOKEN: TOKEN, CHAIN_MCP_HTTP_IDLE_MS: '60000' }), () => clock.now);
    try {
      const idle = await connect(server.port);
      const active = await connect(server.port);
      clock.now += 30_000;
      await active.client.callTool({ name: 'info_getNodeID', arguments: {} });
      clock.now += 40_000;
      // 70 s since idle's last request, 40 s since active's: the next request sweeps idle only.
      await active.client.callTool({ name: 'info_getNodeID', arguments: {} });
      expect(server.sessionCount()).toBe(1);
      await expect(idle.client.callTool({ name: 'info_getNodeID', arguments: {} })).rejects.toThrow(/Session not found/);
      await active.client.close();
    } finally {
      await server.close();
    }
  });

  it('a new session beyond CHAIN_MCP_HTTP_MAX_SESSIONS is refused with a clear error; the open ones keep working', async () => {
    const server = await start(spendEnv({ CHAIN_MCP_HTTP_TOKEN: TOKEN, CHAIN_MCP_HTTP_MAX_SESSIONS: '2' }));
    try {
      const first = await connect(server.port);
      const second = await connect(server.port);
      const res = await post(server.port, { authorization: `Bearer ${TOKEN}` });
      expect(res.status).toBe(503);
      expect(await res.text()).toContain('Too many MCP sessions (2, CHAIN_MCP_HTTP_MAX_SESSIONS)');
      for (const { client } of [first, second]) expect((await client.callTool({ name: 'info_getNodeID', arguments: {} })).isError).not.toBe(true);
      await first.transport.terminateSession();
      await first.client.close();
      const third = await connect(server.port);
      expect((await third.client.callTool({ name: 'info_getNodeID', arguments: {} })).isError).not.toBe(true);
      await third.client.close();
      await second.client.close();
    } finally {
      await server.close();
    }
  });
});
