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
import { startFakeNode } from './fake-node.js';
import { AUTH_PASSWORD, AUTH_TOKEN, KEYSTORE } from './types.js';

/**
 * A node cannot add fields to structuredContent (issue 40 item 6): every object of each example
 * answer gets a field no tool declares, and no result carries it, except where the tool declares
 * the object open (a map keyed by the node's own names, or a value passed on as the node gave it).
 */
const ADDED = 'chainMcpAddedByTheNode';
/** Tools whose output declares the node's object open, with why. */
const OPEN: Record<string, string> = {
  info_getNodeVersion: 'vmVersions is a map of the VMs the node names',
  debug_traceTransaction: 'the trace is passed on as the node gives it (declared unknown)',
  platform_getBlock: 'a json block is passed on as the node gives it (declared unknown)',
  platform_getLastAcceptedBlock: 'a json block is passed on as the node gives it (declared unknown)',
  platform_getBlockAtHeight: 'a json block is passed on as the node gives it (declared unknown)',
  xvm_getTx: 'a json transaction is passed on as the node gives it (declared unknown)',
};

function withAdded(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withAdded);
  if (value && typeof value === 'object') return { ...Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withAdded(v)])), [ADDED]: 'x' };
  return value;
}

describe('no field a node adds reaches structuredContent', () => {
  let client: Client;
  let close: () => Promise<void>;
  let node: Awaited<ReturnType<typeof startFakeNode>>;
  let indexer: Awaited<ReturnType<typeof startFakeNode>>;

  beforeAll(async () => {
    const runner = await startFakeNode();
    [node, indexer] = await Promise.all([startFakeNode({ dialect: 'camino' }), startFakeNode()]);
    const config = loadConfig({
      CHAIN_MCP_NODE_URL: node.url,
      CHAIN_MCP_INDEXER_URL: indexer.url,
      CHAIN_MCP_RUNNER_URL: runner.url,
      CHAIN_MCP_RUNNER_EXEC_PATH: RUNNER_EXEC_PATH,
      CHAIN_MCP_AUTH_TOKEN: AUTH_TOKEN,
      CHAIN_MCP_AUTH_PASSWORD: AUTH_PASSWORD,
      CHAIN_MCP_KEYSTORE_USER: KEYSTORE.username,
      CHAIN_MCP_KEYSTORE_PASSWORD: KEYSTORE.password,
      CHAIN_MCP_ALLOW_ADMIN: 'true',
    });
    const { mcp, services } = buildServer({ config, log: silentLogger() });
    const [a, b] = InMemoryTransport.createLinkedPair();
    client = new Client({ name: 'added-fields', version: '0' });
    await mcp.connect(b);
    await client.connect(a);
    close = async () => {
      await client.close();
      await services.close();
      await Promise.all([node.close(), indexer.close(), runner.close()]);
    };
  });
  afterAll(() => close());

  const checked = CATALOGUE.filter((t) => !needsConfirmation(t) && t.tier !== 'spend' && EXAMPLES[t.name]?.answers && !(t.name in OPEN));

  for (const tool of checked) {
    it(tool.name, async () => {
      const example = EXAMPLES[tool.name]!;
      const answers = Object.fromEntries(Object.entries(example.answers!).map(([m, v]) => [m, withAdded(v)]));
      node.setAnswers(answers);
      indexer.setAnswers(answers);
      const result = await client.callTool({ name: tool.name, arguments: example.args });
      expect(result.isError, JSON.stringify(result.content)).not.toBe(true);
      const paths: string[] = [];
      const walk = (v: unknown, p: string): void => {
        if (Array.isArray(v)) {
          for (const [i, x] of v.entries()) walk(x, `${p}[${i}]`);
        } else if (v && typeof v === 'object') {
          for (const [k, x] of Object.entries(v)) {
            if (k === ADDED) paths.push(p || '(top)');
            walk(x, `${p}.${k}`);
          }
        }
      };
      walk(result.structuredContent, '');
      expect(paths).toEqual([]);
    });
  }
});
