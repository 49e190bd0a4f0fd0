import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createMcpHandler, Server } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { hangUpSignal, webRequest, writeResponse } from '../../src/http-bridge.js';

/**
 * The transports benchmark's reference: the SDK's low-level server answering every tools/call
 * with a fixed node ID (no node behind it), over stdio (`serveStdio`) or, with
 * `--http`, on the SDK's per-request entry (`createMcpHandler`, 2026-07-28) mounted on node:http
 * exactly the way chain-mcp mounts it (src/http-bridge.ts). Side by side with chain-mcp it shows
 * what the SDK's per-request serving costs on its own. Logs its URL on stderr the way chain-mcp does.
 */
const server = () => {
  // The low-level server with a tools/call handler, as chain-mcp registers its tools (server.ts).
  const bare = new Server({ name: 'bare', version: '0.0.0' }, { capabilities: { tools: {} } });
  bare.setRequestHandler('tools/call', async () => ({ content: [{ type: 'text', text: 'Node ID: NodeID-bare' }], structuredContent: { nodeID: 'NodeID-bare' } }));
  return bare;
};

if (process.argv.includes('--http')) {
  const handler = createMcpHandler(server, { legacy: 'reject' });
  const http = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', async () => {
      const hangUp = hangUpSignal(res);
      const response = await handler.fetch(webRequest(req, hangUp.signal), { parsedBody: JSON.parse(Buffer.concat(chunks).toString('utf8')) });
      await writeResponse(res, response, hangUp.signal);
      hangUp.done();
    });
  });
  http.listen(0, '127.0.0.1', () => console.error(JSON.stringify({ url: `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp` })));
  process.once('SIGTERM', () => http.close(() => process.exit(0)));
} else {
  serveStdio(server);
}
