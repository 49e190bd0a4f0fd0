import { Client } from '@modelcontextprotocol/client';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { serveHttp } from '../../src/http-server.js';
import { silentLogger } from '../../src/log.js';
import type { Services } from '../../src/services.js';
import { createServices } from '../../src/server.js';
import { type Devnet, startDevnet } from '../../src/devnet/index.js';
import { type FaultProxy, startFaultProxy } from '../../tools/fault-proxy.js';

/** Client misbehaviour over Streamable HTTP: bad bodies, a client that hangs up mid-call. */

const HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

describe('a misbehaving client on Streamable HTTP', () => {
  let devnet: Devnet;
  let proxy: FaultProxy;
  let services: Services;
  let server: { port: number; close(): Promise<void> };
  let url: string;

  beforeAll(async () => {
    devnet = await startDevnet();
    proxy = await startFaultProxy(devnet.nodeUrl);
    const config = loadConfig({ CHAIN_MCP_NODE_URL: proxy.url, CHAIN_MCP_LOG_LEVEL: 'silent', CHAIN_MCP_TIMEOUT_MS: '15000' });
    services = createServices(config, silentLogger());
    server = await serveHttp({ config, log: silentLogger(), services, port: 0 });
    url = `http://127.0.0.1:${server.port}/mcp`;
  });
  afterAll(async () => {
    await server.close();
    await services.close();
    await proxy.close();
    await devnet.close();
  });

  async function session(): Promise<string> {
    const res = await fetch(url, {
      method: 'POST',
      headers: HEADERS,
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '0' } } }),
    });
    await res.text();
    const id = res.headers.get('mcp-session-id');
    expect(id).toBeTruthy();
    await fetch(url, { method: 'POST', headers: { ...HEADERS, 'mcp-session-id': id!, 'mcp-protocol-version': '2025-06-18' }, body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) });
    return id!;
  }

  it('answers bodies that are not JSON-RPC with JSON-RPC errors', async () => {
    const notJson = await fetch(url, { method: 'POST', headers: HEADERS, body: '{oops' });
    expect(notJson.status).toBe(400);
    expect(await notJson.json()).toMatchObject({ jsonrpc: '2.0', error: { code: -32700 } });
    const id = await session();
    const headers = { ...HEADERS, 'mcp-session-id': id, 'mcp-protocol-version': '2025-06-18' };
    const invalid = await fetch(url, { method: 'POST', headers, body: JSON.stringify({ jsonrpc: '2.0', id: 5, params: 1 }) });
    expect(invalid.status).toBeGreaterThanOrEqual(400);
    expect(await invalid.json()).toHaveProperty('error.code');
    const unknownSession = await fetch(url, { method: 'POST', headers: { ...headers, 'mcp-session-id': 'no-such-session' }, body: JSON.stringify({ jsonrpc: '2.0', id: 6, method: 'ping' }) });
    expect(unknownSession.status).toBe(404);
  });

  it('keeps serving after a client hangs up in the middle of a call', async () => {
    const id = await session();
    proxy.fail({ kind: 'delay', ms: 1_500 }, 1);
    const seen = proxy.requests.length;
    const controller = new AbortController();
    const pending = fetch(url, {
      method: 'POST',
      headers: { ...HEADERS, 'mcp-session-id': id, 'mcp-protocol-version': '2025-06-18' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'info_getNodeID', arguments: {} } }),
      signal: controller.signal,
    }).then((r) => r.text());
    await proxy.waitForRequests(seen + 1);
    controller.abort();
    await expect(pending).rejects.toThrow();
    // Wait past the delayed answer, then use the server again: same session and a new one.
    await new Promise((r) => setTimeout(r, 1_700));
    const again = await fetch(url, {
      method: 'POST',
      headers: { ...HEADERS, 'mcp-session-id': id, 'mcp-protocol-version': '2025-06-18' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'info_getNodeID', arguments: {} } }),
    });
    expect(await again.text()).toContain(devnet.state.nodeID);
    const client = new Client({ name: 'after', version: '0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));
    const result = await client.callTool({ name: 'info_getNetworkID', arguments: {} });
    expect(result.structuredContent).toMatchObject({ networkID: String(devnet.state.networkID) });
    await client.close();
  });

  it('answers 200 concurrent calls on one session, each correctly', async () => {
    const client = new Client({ name: 'many', version: '0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));
    const aliases = ['X', 'P', 'C'] as const;
    const results = await Promise.all(
      Array.from({ length: 200 }, (_, i) => client.callTool({ name: 'info_getBlockchainID', arguments: { alias: aliases[i % 3] } }).then((r) => ({ i, r }))),
    );
    for (const { i, r } of results) {
      expect(r.isError).not.toBe(true);
      expect(r.structuredContent).toEqual({ alias: aliases[i % 3], blockchainID: devnet.state.chains[aliases[i % 3]!] });
    }
    await client.close();
  });
});
