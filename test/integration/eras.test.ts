import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { type Devnet, startDevnet } from '../../src/devnet/index.js';
import { serveHttp } from '../../src/http-server.js';
import { silentLogger } from '../../src/log.js';
import { createServices } from '../../src/server.js';
import { requestsFor } from '../helpers/spend-harness.js';
import { devnetEnv, MAIN } from '../helpers/stack.js';

/**
 * Both protocol eras on one endpoint and on one stdio binary, each following what the client
 * sends: a 2025-11-25 client initializes and gets a session; a 2026-07-28 client (pinned, so a
 * fallback cannot hide a failure) gets server/discover, no session, and every call on its own.
 */
const MODERN = { versionNegotiation: { mode: { pin: '2026-07-28' as const } } };

async function nodeIdVia(client: Client): Promise<string> {
  const result = await client.callTool({ name: 'info_getNodeID', arguments: {} });
  expect(result.isError).not.toBe(true);
  return JSON.stringify(result.content);
}

describe('both protocol eras', () => {
  let devnet: Devnet;
  beforeAll(async () => {
    devnet = await startDevnet();
  });
  afterAll(async () => {
    await devnet.close();
  });

  it('over HTTP: a 2025-11-25 client gets a session, a 2026-07-28 client none, on the same /mcp', async () => {
    const config = loadConfig(devnetEnv(devnet));
    const services = createServices(config, silentLogger());
    const server = await serveHttp({ config, log: silentLogger(), services, port: 0 });
    const url = new URL(`http://127.0.0.1:${server.port}/mcp`);
    try {
      const legacy = new Client({ name: 'old', version: '0' });
      const legacyTransport = new StreamableHTTPClientTransport(url);
      await legacy.connect(legacyTransport);
      const modern = new Client({ name: 'new', version: '0' }, MODERN);
      const modernTransport = new StreamableHTTPClientTransport(url);
      await modern.connect(modernTransport);

      expect([legacy.getProtocolEra(), legacy.getNegotiatedProtocolVersion()]).toEqual(['legacy', '2025-11-25']);
      expect([modern.getProtocolEra(), modern.getNegotiatedProtocolVersion()]).toEqual(['modern', '2026-07-28']);
      expect(legacyTransport.sessionId).toBeTypeOf('string');
      expect(modernTransport.sessionId).toBeUndefined();
      expect(server.sessionCount()).toBe(1);
      expect(modern.getServerVersion()?.name).toBe('chain-mcp');

      expect(await nodeIdVia(legacy)).toContain('NodeID-');
      expect(await nodeIdVia(modern)).toContain('NodeID-');
      const names = async (c: Client) => (await c.listTools()).tools.map((t) => t.name).sort();
      expect(await names(modern)).toEqual(await names(legacy));
      // A per-request server built for a tools request registers the tools only; the other requests get everything.
      expect(modern.getServerCapabilities()).toMatchObject({ tools: {}, prompts: {}, resources: {} });
      expect((await modern.listPrompts()).prompts.map((p) => p.name)).toContain('portfolio_report');
      const views = (await modern.listResources()).resources.map((r) => r.uri);
      expect(views).toEqual((await legacy.listResources()).resources.map((r) => r.uri));
      expect(views.length).toBeGreaterThan(3);
      // The 2026-07-28 calls opened no session.
      expect(server.sessionCount()).toBe(1);
      await legacy.close();
      await modern.close();
    } finally {
      await server.close();
      await services.close();
    }
  });

  it('over stateless HTTP with CHAIN_MCP_DYNAMIC: no session to enable toolsets in, so every allowed tool answers by name and the discovery tools say so', async () => {
    const config = loadConfig({ ...devnetEnv(devnet), CHAIN_MCP_DYNAMIC: 'true' });
    const services = createServices(config, silentLogger());
    const server = await serveHttp({ config, log: silentLogger(), services, port: 0 });
    const url = new URL(`http://127.0.0.1:${server.port}/mcp`);
    try {
      const modern = new Client({ name: 'new', version: '0' }, MODERN);
      await modern.connect(new StreamableHTTPClientTransport(url));
      const legacy = new Client({ name: 'old', version: '0' });
      await legacy.connect(new StreamableHTTPClientTransport(url));
      const listed = async (c: Client) => (await c.listTools()).tools.map((t) => t.name);
      expect(await listed(modern)).not.toContain('platform_getHeight');

      // A session refuses a tool of a toolset it has not enabled; a request without one answers it.
      const inSession = await legacy.callTool({ name: 'platform_getHeight', arguments: {} });
      expect([inSession.isError, JSON.stringify(inSession.content)]).toEqual([true, expect.stringContaining('enable_toolset')]);
      const stateless = await modern.callTool({ name: 'platform_getHeight', arguments: {} });
      expect(stateless.isError).not.toBe(true);
      expect(stateless.structuredContent).toHaveProperty('height');

      const toolsets = await modern.callTool({ name: 'list_toolsets', arguments: {} });
      expect(JSON.stringify(toolsets.content)).toContain('no session (stateless HTTP)');
      expect(toolsets.structuredContent).toMatchObject({ session: false });
      const enabled = await modern.callTool({ name: 'enable_toolset', arguments: { toolset: 'platform' } });
      expect(enabled.structuredContent).toMatchObject({ toolset: 'platform', enabled: false, session: false });
      // Nothing was remembered: the next request lists what the start lists.
      expect(await listed(modern)).not.toContain('platform_getHeight');
      // The session's own enable still works as before.
      await legacy.callTool({ name: 'enable_toolset', arguments: { toolset: 'platform' } });
      expect(await listed(legacy)).toContain('platform_getHeight');
      await legacy.close();
      await modern.close();
    } finally {
      await server.close();
      await services.close();
    }
  });

  it('over stdio: the opening message decides, one binary serves both', async () => {
    for (const [options, era, version] of [
      [{}, 'legacy', '2025-11-25'],
      [MODERN, 'modern', '2026-07-28'],
    ] as const) {
      const client = new Client({ name: 'stdio', version: '0' }, options);
      await client.connect(
        new StdioClientTransport({ command: process.execPath, args: [MAIN], env: { PATH: process.env.PATH ?? '', ...devnetEnv(devnet) }, stderr: 'ignore' }),
      );
      try {
        expect([client.getProtocolEra(), client.getNegotiatedProtocolVersion()]).toEqual([era, version]);
        expect(await nodeIdVia(client)).toContain('NodeID-');
        expect((await client.listPrompts()).prompts.map((p) => p.name)).toContain('portfolio_report');
      } finally {
        await client.close();
      }
    }
  });

  it('over stdio, a 2026-07-28 spend: the confirm asks the human through input_required and sends once', async () => {
    devnet.router.record = true;
    const asked: string[] = [];
    const client = new Client({ name: 'stdio-2026', version: '0' }, { capabilities: { elicitation: { form: {} } }, ...MODERN });
    client.setRequestHandler('elicitation/create', async (request) => {
      asked.push(String(request.params.message));
      return { action: 'accept', content: { approve: true } };
    });
    const env = devnetEnv(devnet, { CHAIN_MCP_ALLOW_SPEND: 'true', CHAIN_MCP_KEYSTORE_USER: devnet.keystore.username, CHAIN_MCP_KEYSTORE_PASSWORD: devnet.keystore.password });
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [MAIN], env: { PATH: process.env.PATH ?? '', ...env }, stderr: 'ignore' }));
    try {
      const args = { amount: '1', assetID: 'CAM', to: devnet.state.users.get('alice')!.keys[1]!.x };
      const preview = await client.callTool({ name: 'xvm_send', arguments: args });
      const confirm = (preview.structuredContent as { confirmationId?: string } | undefined)?.confirmationId;
      expect(confirm, JSON.stringify(preview.content)).toBeTypeOf('string');
      const sends = () => requestsFor(devnet, 'xvm.send') + requestsFor(devnet, 'avm.send');
      const before = sends();
      const done = await client.callTool({ name: 'xvm_send', arguments: { ...args, confirm } });
      expect((done.structuredContent as { status?: string } | undefined)?.status, JSON.stringify(done.content)).toBe('issued');
      expect(sends() - before).toBe(1);
      expect(asked).toHaveLength(1);
    } finally {
      await client.close();
    }
  });
});
