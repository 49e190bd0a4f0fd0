import { request } from 'node:http';
import { Client } from '@modelcontextprotocol/client';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { serveHttp } from '../../src/http-server.js';
import { silentLogger } from '../../src/log.js';
import { createServices } from '../../src/server.js';
import { type Devnet, startDevnet } from '../../src/devnet/index.js';

function rawPost(port: number, headers: Record<string, string>, body: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path: '/mcp', method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers } }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('Streamable HTTP on loopback', () => {
  let devnet: Devnet;
  let server: { port: number; close(): Promise<void> };
  beforeAll(async () => {
    devnet = await startDevnet();
    const config = loadConfig({ CHAIN_MCP_NODE_URL: devnet.nodeUrl });
    server = await serveHttp({ config, log: silentLogger(), services: createServices(config, silentLogger()), port: 0 });
  });
  afterAll(async () => {
    await server.close();
    await devnet.close();
  });

  it('serves sessions to an SDK client, two at once', async () => {
    const clients = await Promise.all(
      [1, 2].map(async () => {
        const client = new Client({ name: 'http-test', version: '0' });
        await client.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${server.port}/mcp`)));
        return client;
      }),
    );
    for (const client of clients) {
      const result = await client.callTool({ name: 'info_getNodeID', arguments: {} });
      expect(JSON.stringify(result.content)).toContain('NodeID-');
    }
    await Promise.all(clients.map((c) => c.close()));
  });

  it('refuses other Host and Origin headers (DNS rebinding)', async () => {
    const init = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '0' } } });
    expect(await rawPost(server.port, { host: 'evil.example:80' }, init)).toBe(403);
    expect(await rawPost(server.port, { origin: 'http://evil.example' }, init)).toBe(403);
    expect(await rawPost(server.port, {}, init)).toBe(200);
  });

  it('refuses loopback look-alike Hosts and the opaque Origin "null"; accepts real loopback names', async () => {
    const init = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '0' } } });
    const port = server.port;
    for (const host of [`localhost.attacker.example:${port}`, `127.0.0.1.attacker.example:${port}`, `localhostx:${port}`, `127.0.0.10:${port}`, `[::1].evil.example:${port}`]) {
      expect(await rawPost(port, { host }, init), host).toBe(403);
    }
    for (const origin of ['null', 'http://localhost.attacker.example', `http://127.0.0.1.attacker.example:${port}`, 'file://']) {
      expect(await rawPost(port, { origin }, init), origin).toBe(403);
    }
    for (const [host, origin] of [[`localhost:${port}`, `http://localhost:${port}`], [`127.0.0.1:${port}`, `http://127.0.0.1:${port}`], [`[::1]:${port}`, `http://[::1]:${port}`]]) {
      expect(await rawPost(port, { host: host!, origin: origin! }, init), `${host} ${origin}`).toBe(200);
    }
  });
});
