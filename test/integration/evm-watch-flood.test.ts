import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/client';
import { InMemoryTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocketServer } from 'ws';
import { CATALOGUE } from '../../src/catalogue/index.js';
import { MAX_WS_FRAMES } from '../../src/catalogue/evm/watch.js';
import { loadConfig } from '../../src/config.js';
import { silentLogger } from '../../src/log.js';
import { buildServer } from '../../src/server.js';
import { Services } from '../../src/services.js';

/**
 * Issue 34, the untried attacks: a hostile node floods evm_watch's WebSocket (notifications for
 * subscriptions it never granted, garbage, answers nobody asked for) faster than any chain makes
 * events. The watch is cut off after a bounded number of frames, says so, keeps only its own
 * events, and the process goes on serving.
 */
describe('evm_watch: a node flooding the WebSocket is cut off', () => {
  let http: Server;
  let wss: WebSocketServer;
  let mode: 'after' | 'before' = 'after';
  let client: Client;
  let close: () => Promise<void>;
  const FLOOD = MAX_WS_FRAMES * 3;

  beforeAll(async () => {
    http = createServer((_req, res) => res.writeHead(404).end());
    wss = new WebSocketServer({ server: http, path: '/ext/bc/C/ws' });
    wss.on('connection', (ws) => {
      ws.on('message', (data) => {
        const msg = JSON.parse(String(data)) as { id: number; method: string };
        if (msg.method !== 'eth_subscribe') return void ws.send(JSON.stringify({ jsonrpc: '2.0', id: msg.id, result: true }));
        const flood = () => {
          for (let i = 0; i < FLOOD && ws.readyState === ws.OPEN; i++) {
            ws.send(i % 3 === 0 ? 'not json {' : JSON.stringify({ jsonrpc: '2.0', method: 'eth_subscription', params: { subscription: '0xsomeone-else', result: { number: `0x${i.toString(16)}` } } }));
          }
        };
        if (mode === 'before') return flood();
        ws.send(JSON.stringify({ jsonrpc: '2.0', id: msg.id, result: '0xmine' }));
        // One real event of ours amid the flood.
        ws.send(JSON.stringify({ jsonrpc: '2.0', method: 'eth_subscription', params: { subscription: '0xmine', result: { number: '0x7', hash: '0xabc' } } }));
        flood();
      });
    });
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    const config = loadConfig({ CHAIN_MCP_NODE_URL: `http://127.0.0.1:${(http.address() as AddressInfo).port}`, CHAIN_MCP_LOG_LEVEL: 'silent' });
    const services = new Services({ config, log: silentLogger(), catalogue: CATALOGUE });
    const { mcp } = buildServer({ config, log: silentLogger(), services });
    client = new Client({ name: 'watch-flood', version: '0' });
    const [a, b] = InMemoryTransport.createLinkedPair();
    await mcp.connect(b);
    await client.connect(a);
    close = async () => {
      await client.close();
      await mcp.close();
      await services.close();
      wss.close();
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    };
  });
  afterAll(() => close());

  it('stops a watch flooded after subscribing, keeping its own event and saying why', async () => {
    mode = 'after';
    const r = await client.callTool({ name: 'evm_watch', arguments: { subscription: 'newHeads', maxEvents: 5, timeoutSeconds: 300 } }, { timeout: 120_000 });
    expect(r.isError, JSON.stringify(r.content)).not.toBe(true);
    const out = r.structuredContent as { stoppedBy: string; count: number; events: Array<{ number: string }> };
    expect(out.stoppedBy).toBe('flood');
    expect(out.count).toBe(1);
    expect(out.events[0]!.number).toBe('7');
    expect((r.content as Array<{ text: string }>)[0]!.text).toContain(`The node flooded the WebSocket (over ${MAX_WS_FRAMES} frames`);
  });

  it('refuses a watch flooded before the node answers the subscribe, with a clear error', async () => {
    mode = 'before';
    const r = await client.callTool({ name: 'evm_watch', arguments: { subscription: 'newHeads', maxEvents: 5, timeoutSeconds: 300 } }, { timeout: 120_000 });
    expect(r.isError).toBe(true);
    expect((r.content as Array<{ text: string }>)[0]!.text).toContain('eth_subscribe failed: the node flooded the WebSocket');
    // The process goes on serving.
    expect((await client.listTools()).tools.length).toBeGreaterThan(0);
  });
});
