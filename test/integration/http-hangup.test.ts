import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/client';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { serveHttp } from '../../src/http-server.js';
import { silentLogger } from '../../src/log.js';
import { createServices } from '../../src/server.js';

/** A node that never answers: it notes when each request arrives and when its connection closes. */
async function stuckNode() {
  const events: Array<{ arrived: number; closed?: number }> = [];
  let arrivedOne: () => void = () => undefined;
  const arrived = new Promise<void>((resolve) => {
    arrivedOne = resolve;
  });
  const server: Server = createServer((req) => {
    const event: { arrived: number; closed?: number } = { arrived: Date.now() };
    events.push(event);
    req.socket.once('close', () => {
      event.closed = Date.now();
    });
    arrivedOne();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    events,
    arrived,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

describe('an HTTP client that hangs up mid-call', () => {
  let node: Awaited<ReturnType<typeof stuckNode>>;
  let server: { port: number; close(): Promise<void> };
  beforeAll(async () => {
    node = await stuckNode();
    const config = loadConfig({ CHAIN_MCP_NODE_URL: node.url, CHAIN_MCP_TIMEOUT_MS: '30000', CHAIN_MCP_LOG_LEVEL: 'silent' });
    server = await serveHttp({ config, log: silentLogger(), services: createServices(config, silentLogger()), port: 0 });
  });
  afterAll(async () => {
    await server.close();
    await node.close();
  });

  it('aborts the node request at once instead of at the 30 s timeout', async () => {
    const client = new Client({ name: 'hangup', version: '0' });
    const transport = new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${server.port}/mcp`));
    await client.connect(transport);
    const call = request({
      host: '127.0.0.1',
      port: server.port,
      path: '/mcp',
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-session-id': transport.sessionId ?? '',
        'mcp-protocol-version': transport.protocolVersion ?? '2025-06-18',
      },
    });
    call.on('error', () => undefined);
    call.end(JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'info_getNodeID', arguments: {} } }));
    await node.arrived;
    const hungUp = Date.now();
    call.destroy();
    // Bounded wait: the abort shows as the node-side socket closing.
    for (let i = 0; i < 100 && node.events[0]?.closed === undefined; i++) await new Promise((r) => setTimeout(r, 20));
    const closed = node.events[0]?.closed;
    expect(closed, 'the node request was still open 2 s after the client hung up').toBeDefined();
    expect(closed! - hungUp).toBeLessThan(2000);
    // Not retried: a cancelled read is not sent again.
    expect(node.events).toHaveLength(1);
    await client.close();
  });

  it('a 2026-07-28 request (no session, a server per request) is aborted the same way', async () => {
    const before = node.events.length;
    const call = request({
      host: '127.0.0.1',
      port: server.port,
      path: '/mcp',
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2026-07-28',
        'mcp-method': 'tools/call',
        'mcp-name': 'info_getNodeID',
      },
    });
    call.on('error', () => undefined);
    const meta = {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientCapabilities': {},
      'io.modelcontextprotocol/clientInfo': { name: 'hangup', version: '0' },
    };
    call.end(JSON.stringify({ jsonrpc: '2.0', id: 8, method: 'tools/call', params: { name: 'info_getNodeID', arguments: {}, _meta: meta } }));
    // Bounded wait for the call to reach the node.
    for (let i = 0; i < 250 && node.events.length === before; i++) await new Promise((r) => setTimeout(r, 20));
    expect(node.events.length, 'the call never reached the node').toBe(before + 1);
    const hungUp = Date.now();
    call.destroy();
    for (let i = 0; i < 100 && node.events[before]?.closed === undefined; i++) await new Promise((r) => setTimeout(r, 20));
    const closed = node.events[before]?.closed;
    expect(closed, 'the node request was still open 2 s after the client hung up').toBeDefined();
    expect(closed! - hungUp).toBeLessThan(2000);
    expect(node.events).toHaveLength(before + 1);
  });
});
