import { Client } from '@modelcontextprotocol/client';
import { InMemoryTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CATALOGUE } from '../../src/catalogue/index.js';
import { needsConfirmation } from '../../src/core/tool.js';
import { loadConfig } from '../../src/config.js';
import { silentLogger } from '../../src/log.js';
import { buildServer } from '../../src/server.js';
import { EXAMPLES } from './examples/index.js';
import { RUNNER_EXEC_PATH } from './examples/runner.js';
import { type Recorded, startFakeNode } from './fake-node.js';
import { AUTH_PASSWORD, AUTH_TOKEN, type Expectation, KEYSTORE } from './types.js';

type Fake = Awaited<ReturnType<typeof startFakeNode>>;

function matches(expected: Expectation, actual: Recorded): boolean {
  if (expected.path !== actual.path) return false;
  if ('method' in expected) {
    const body = actual.body as { method?: unknown; params?: unknown };
    // JSON-RPC over HTTP POST, or one message over the WebSocket endpoint (evm_watch).
    if ((actual.httpMethod !== 'POST' && actual.httpMethod !== 'WS') || body?.method !== expected.method) return false;
    return JSON.stringify(body.params) === JSON.stringify(expected.params);
  }
  if ('query' in expected) return actual.httpMethod === 'GET' && JSON.stringify(actual.query) === JSON.stringify(expected.query);
  return actual.httpMethod === 'POST' && JSON.stringify(actual.body) === JSON.stringify(expected.body);
}

function describeRecorded(r: Recorded): string {
  if (r.httpMethod === 'GET') return `GET ${r.path} ${JSON.stringify(r.query)}`;
  return `POST ${r.path} ${JSON.stringify(r.body)}`;
}

/** The request a real Camino node must get for the spec's request (docs/real-nodes.md), by hand. */
function inCamino(want: Expectation): Expectation {
  if (!('method' in want)) return want;
  const path = want.path.replace(/\/cx$/, '/avax').replace(/^\/ext\/vm\/xvm$/, '/ext/vm/avm');
  const renamed: Record<string, string> = { 'platform.exportNative': 'platform.exportAVAX' };
  const method = renamed[want.method] ?? want.method.replace(/^xvm\./, 'avm.').replace(/^cx\./, 'avax.');
  // The avax service reads baseFee as hexutil.Big: a 0x-hex string.
  const params = want.params as Record<string, unknown> | undefined;
  if (method.startsWith('avax.') && typeof params?.baseFee === 'number') return { ...want, path, method, params: { ...params, baseFee: `0x${params.baseFee.toString(16)}` } };
  return { ...want, path, method };
}

/** Every chain, 0x or node address (NodeID-…) anywhere in a tool's arguments. */
function addressesIn(value: unknown): string[] {
  if (typeof value === 'string') return /^([XPC]-[a-z]+1[02-9ac-hj-np-z]{6,}|0x[0-9a-fA-F]{40}|NodeID-[1-9A-HJ-NP-Za-km-z]{20,})$/.test(value) ? [value] : [];
  if (Array.isArray(value)) return value.flatMap(addressesIn);
  if (value && typeof value === 'object') return Object.values(value).flatMap(addressesIn);
  return [];
}

describe.each(['spec', 'camino'] as const)('every tool sends exactly the request the spec describes (%s node, default configuration)', (dialect) => {
  let node: Fake;
  let indexer: Fake;
  let runner: Fake;
  let client: Client;
  let close: () => Promise<void>;

  beforeAll(async () => {
    [node, indexer, runner] = await Promise.all([startFakeNode({ dialect }), startFakeNode(), startFakeNode()]);
    const config = loadConfig({
      CHAIN_MCP_NODE_URL: node.url,
      CHAIN_MCP_INDEXER_URL: indexer.url,
      CHAIN_MCP_RUNNER_URL: runner.url,
      CHAIN_MCP_RUNNER_EXEC_PATH: RUNNER_EXEC_PATH,
      CHAIN_MCP_AUTH_TOKEN: AUTH_TOKEN,
      CHAIN_MCP_AUTH_PASSWORD: AUTH_PASSWORD,
      CHAIN_MCP_KEYSTORE_USER: KEYSTORE.username,
      CHAIN_MCP_KEYSTORE_PASSWORD: KEYSTORE.password,
      CHAIN_MCP_ALLOW_SPEND: 'true', CHAIN_MCP_APPROVAL: 'confirm-id',
      CHAIN_MCP_ALLOW_ADMIN: 'true',
      CHAIN_MCP_TOOLSETS: 'all',
    });
    const { mcp, services } = buildServer({ config, log: silentLogger() });
    const [a, b] = InMemoryTransport.createLinkedPair();
    client = new Client({ name: 'contract', version: '0' });
    await mcp.connect(b);
    await client.connect(a);
    close = async () => {
      await client.close();
      await services.close();
      await Promise.all([node.close(), indexer.close(), runner.close()]);
    };
  });
  afterAll(() => close());

  it('has an example for every tool in the catalogue', () => {
    const missing = CATALOGUE.map((t) => t.name).filter((name) => !(name in EXAMPLES));
    expect(missing).toEqual([]);
  });

  it('lists every catalogue tool when every tier is enabled', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(CATALOGUE.map((t) => t.name).sort());
  });

  for (const tool of CATALOGUE) {
    const example = EXAMPLES[tool.name];
    if (!example) continue;
    it(`${tool.name}`, async () => {
      for (const fake of [node, indexer, runner]) {
        fake.recorded.length = 0;
        fake.setAnswers(example.answers ?? {});
      }
      let result = await client.callTool({ name: tool.name, arguments: example.args });
      if (example.refusal !== undefined) {
        // Refused before any request: one line saying why, nothing on the wire.
        expect(result.isError).toBe(true);
        expect((result.content as Array<{ text?: string }>).map((c) => c.text ?? '').join('\n')).toContain(example.refusal);
        expect([...node.recorded, ...indexer.recorded, ...runner.recorded].map(describeRecorded)).toEqual([]);
        return;
      }
      // Spends and the admin operations that hand over keys (issue 21): preview first, then confirm.
      if (needsConfirmation(tool)) {
        expect(result.isError, JSON.stringify(result.content)).not.toBe(true);
        const { confirmationId: id, preview, details } = result.structuredContent as { confirmationId?: string; preview?: string[]; details?: Record<string, unknown> };
        expect(id).toBeTypeOf('string');
        // What the human approves names every address the call moves value from or to (issue 21).
        const shown = (preview ?? []).join('\n');
        expect(shown, `${tool.name}: preview`).not.toMatch(/\bundefined\b|\[object Object\]|\bNaN\b/);
        for (const address of addressesIn(example.args)) expect(shown, `${tool.name}: the preview names ${address}`).toContain(address);
        const subnet = example.args.subnetID;
        if (typeof subnet === 'string') expect(shown, `${tool.name}: the preview names subnet ${subnet}`).toContain(subnet);
        // The structured preview carries the recipient and the amount too, for the model.
        const facts = JSON.stringify(details ?? {});
        for (const key of ['to', 'nodeID', 'amount', 'stakeAmount', 'subnetID', 'address', 'vmID', 'name', 'threshold'] as const) {
          const given = example.args[key];
          if (typeof given !== 'string' && typeof given !== 'number') continue;
          expect([JSON.stringify(given), JSON.stringify(String(given))].some((v) => facts.includes(v)), `${tool.name}: preview details carry ${key} (${facts})`).toBe(true);
        }
        for (const fake of [node, indexer, runner]) fake.recorded.length = 0;
        result = await client.callTool({ name: tool.name, arguments: { ...example.args, confirm: id } });
      }
      // A JSON-RPC batch (composite steps) counts as its items, each sent as recorded.
      const nodeItems = node.recorded.flatMap((r) => (Array.isArray(r.body) ? r.body.map((body: unknown) => ({ ...r, body })) : [r]));
      const recorded = [...nodeItems, ...indexer.recorded, ...runner.recorded];
      const expected = (Array.isArray(example.expect) ? example.expect : [example.expect]).map((want) => (dialect === 'camino' ? inCamino(want) : want));
      let cursor = 0;
      for (const want of expected) {
        const at = recorded.findIndex((r, i) => i >= cursor && matches(want, r));
        expect(at, `expected ${JSON.stringify(want)}\nrecorded:\n${recorded.map(describeRecorded).join('\n')}`).toBeGreaterThanOrEqual(0);
        cursor = at + 1;
      }
      for (const r of nodeItems) {
        if (r.httpMethod !== 'WS') expect(r.headers['content-type']).toBe('application/json');
        expect((r.body as { jsonrpc?: unknown }).jsonrpc).toBe('2.0');
        expect(typeof (r.body as { id?: unknown }).id).toBe('number');
        expect(r.headers.authorization).toBe(r.path === '/ext/auth' ? undefined : `Bearer ${AUTH_TOKEN}`);
      }
      expect(result.isError, JSON.stringify(result.content)).not.toBe(true);
      // Every result is summarized for a person: never empty, never a missing value printed.
      const text = (result.content as Array<{ text?: string }>).map((c) => c.text ?? '').join('\n');
      expect(text, tool.name).toMatch(/\w/);
      expect(text, tool.name).not.toMatch(/\bundefined\b|\[object Object\]|\bNaN\b/);
    });
  }
});
