import { Client } from '@modelcontextprotocol/client';
import { InMemoryTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { silentLogger } from '../../src/log.js';
import { buildServer } from '../../src/server.js';
import { recordingNode } from '../helpers/recording-node.js';

/**
 * CHAIN_MCP_WIRE_NAMES overrides (for node builds that use other names) reach the wire: the
 * path and the method namespace each configured name changes, seen by a loopback node.
 */
describe('CHAIN_MCP_WIRE_NAMES overrides reach the node', () => {
  const node = recordingNode((req, res) => {
    const { id } = JSON.parse(req.body) as { id: number };
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id, result: { status: 'Accepted', blockHeight: '8' } }));
  });
  beforeAll(() => node.listen());
  afterAll(() => node.close());

  async function seenFor(wireNames: string, tool: string, args: Record<string, unknown>): Promise<{ url: string; method: string }> {
    node.reset();
    const config = loadConfig({ CHAIN_MCP_NODE_URL: node.origin, CHAIN_MCP_WIRE_NAMES: wireNames, CHAIN_MCP_LOG_LEVEL: 'silent' });
    const { mcp, services } = buildServer({ config, log: silentLogger() });
    const client = new Client({ name: 'wire', version: '0' });
    const [a, b] = InMemoryTransport.createLinkedPair();
    await mcp.connect(b);
    await client.connect(a);
    try {
      const r = await client.callTool({ name: tool, arguments: args });
      expect(r.isError, JSON.stringify(r.content)).toBeFalsy();
      expect(node.seen, 'exactly one request, no dialect detection').toHaveLength(1);
      return { url: node.seen[0]!.url, method: (JSON.parse(node.seen[0]!.body) as { method: string }).method };
    } finally {
      await client.close();
      await mcp.close();
      await services.close();
    }
  }

  const TX = '2QouvFWUbjuySRxeX5xMbNCuAaKWfbk5FeEa2JmoF85RKLk2dD';

  it('a cxPath override moves the C-chain atomic API, in either preset', async () => {
    for (const base of ['spec', 'camino']) {
      const seen = await seenFor(`${base},cxPath=cxapi`, 'cx_getAtomicTxStatus', { txID: TX });
      expect(seen.url, base).toBe('/ext/bc/C/cxapi');
      expect(seen.method, base).toBe(base === 'spec' ? 'cx.getAtomicTxStatus' : 'avax.getAtomicTxStatus');
    }
  });

  it('a cx override renames the namespace without moving the path, and the two combine', async () => {
    expect(await seenFor('spec,cx=cxns', 'cx_getAtomicTxStatus', { txID: TX })).toEqual({ url: '/ext/bc/C/cx', method: 'cxns.getAtomicTxStatus' });
    expect(await seenFor('camino,cx=cxns,cxPath=cxapi', 'cx_getAtomicTxStatus', { txID: TX })).toEqual({ url: '/ext/bc/C/cxapi', method: 'cxns.getAtomicTxStatus' });
  });
});
