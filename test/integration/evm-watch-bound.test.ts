import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/client';
import { InMemoryTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type WebSocket, WebSocketServer } from 'ws';
import { CATALOGUE } from '../../src/catalogue/index.js';
import { MAX_WATCHES } from '../../src/catalogue/evm/watch.js';
import { loadConfig } from '../../src/config.js';
import { silentLogger } from '../../src/log.js';
import { buildServer } from '../../src/server.js';
import { Services } from '../../src/services.js';

/**
 * evm_watch holds a node WebSocket for up to 300 s: concurrent ones are bounded per process, so a
 * model cannot open hundreds of subscriptions; a refused one subscribes nothing.
 */
describe('evm_watch: concurrent subscriptions are bounded', () => {
  let http: Server;
  let wss: WebSocketServer;
  const sockets: WebSocket[] = [];
  let subscribes = 0;
  let client: Client;
  let close: () => Promise<void>;

  beforeAll(async () => {
    http = createServer((_req, res) => res.writeHead(404).end());
    wss = new WebSocketServer({ server: http, path: '/ext/bc/C/ws' });
    wss.on('connection', (ws) => {
      sockets.push(ws);
      ws.on('message', (data) => {
        const msg = JSON.parse(String(data)) as { id: number; method: string };
        if (msg.method === 'eth_subscribe') subscribes++;
        // Subscribed, then quiet: the watch waits for events that never come.
        ws.send(JSON.stringify({ jsonrpc: '2.0', id: msg.id, result: msg.method === 'eth_subscribe' ? `0xsub${subscribes}` : true }));
      });
    });
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    const config = loadConfig({ CHAIN_MCP_NODE_URL: `http://127.0.0.1:${(http.address() as AddressInfo).port}`, CHAIN_MCP_LOG_LEVEL: 'silent' });
    const services = new Services({ config, log: silentLogger(), catalogue: CATALOGUE });
    const { mcp } = buildServer({ config, log: silentLogger(), services });
    client = new Client({ name: 'watch-bound', version: '0' });
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

  const watch = () => client.callTool({ name: 'evm_watch', arguments: { subscription: 'newHeads', maxEvents: 1, timeoutSeconds: 120 } }, { timeout: 60_000 });
  const until = async (check: () => boolean) => {
    while (!check()) await new Promise((r) => setTimeout(r, 20));
  };

  it(`refuses watch number ${MAX_WATCHES + 1} while ${MAX_WATCHES} run, subscribing nothing, and serves again once one ends`, async () => {
    expect(MAX_WATCHES).toBeLessThanOrEqual(8);
    const running = Array.from({ length: MAX_WATCHES }, () => watch());
    await until(() => subscribes === MAX_WATCHES);
    const refused = await watch();
    expect(refused.isError).toBe(true);
    expect(JSON.stringify(refused.content)).toContain(`Too many evm_watch subscriptions at once (at most ${MAX_WATCHES})`);
    expect(subscribes).toBe(MAX_WATCHES);
    // The node closes the sockets: every running watch ends ("closed"), and a new one is served.
    for (const ws of sockets.splice(0)) ws.close();
    const ended = await Promise.all(running);
    for (const r of ended) expect((r.structuredContent as { stoppedBy: string }).stoppedBy).toBe('closed');
    const again = watch();
    await until(() => subscribes === MAX_WATCHES + 1);
    for (const ws of sockets.splice(0)) ws.close();
    expect((await again).isError).not.toBe(true);
  }, 60_000);
});
