import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { caminoTools } from '../../src/catalogue/camino.js';
import { CATALOGUE } from '../../src/catalogue/index.js';
import type { ToolDef } from '../../src/core/tool.js';
import { startDevnet } from '../../src/devnet/index.js';
import type { DevnetDialect } from '../../src/devnet/rpc.js';
import { EXAMPLES } from '../contract/examples/index.js';
import { type CallResult, inMemoryStack, type Stack } from '../helpers/stack.js';

/**
 * The server's default configuration (no CHAIN_MCP_WIRE_NAMES) against a node that speaks a real
 * Camino node's names and one that speaks the spec's: every node-facing tool must behave the same.
 * The two devnets start from the same state and get the same calls in the same order.
 */
const NODE_FACING = CATALOGUE.filter((t) => t.request?.kind !== 'rest' && t.request?.kind !== 'runner' && t.toolset !== 'indexer' && t.toolset !== 'runner');
const DIALECTS: DevnetDialect[] = ['spec', 'camino'];
/** Tools of Camino's own methods (src/catalogue/camino.ts), which only a Camino node serves. */
const CAMINO_ONLY = new Set(caminoTools.map((t) => t.name));
/** What a node answers when the server used the other dialect's names. */
const WRONG_DIALECT = /can't find service|HTTP 404|404 page not found/i;

async function run(stack: Stack, tool: ToolDef): Promise<CallResult> {
  const args = structuredClone(EXAMPLES[tool.name]?.args ?? {}) as Record<string, unknown>;
  // The devnet serves its chains by alias only; an example aimed at another chain ID would get a plain 404.
  if (typeof args.chain === 'string' && !['X', 'P', 'C'].includes(args.chain)) delete args.chain;
  const first = await stack.call(tool.name, args);
  const id = first.structured?.confirmationId;
  if (tool.tier !== 'spend' || typeof id !== 'string') return first;
  return stack.call(tool.name, { ...args, confirm: id });
}

describe('every node-facing tool works in both dialects with the default configuration', () => {
  const stacks = {} as Record<DevnetDialect, Stack>;
  const outcomes = new Map<string, Record<DevnetDialect, CallResult>>();

  beforeAll(async () => {
    for (const dialect of DIALECTS) {
      const devnet = await startDevnet({ dialect, keystoreApi: true });
      devnet.router.record = true;
      stacks[dialect] = await inMemoryStack({
        devnet,
        env: {
          CHAIN_MCP_ALLOW_SPEND: 'true',
          CHAIN_MCP_ALLOW_ADMIN: 'true',
          CHAIN_MCP_APPROVAL: 'confirm-id',
          CHAIN_MCP_KEYSTORE_USER: devnet.keystore.username,
          CHAIN_MCP_KEYSTORE_PASSWORD: devnet.keystore.password,
        },
      });
    }
    for (const tool of NODE_FACING) {
      const [spec, camino] = await Promise.all(DIALECTS.map((d) => run(stacks[d], tool)));
      outcomes.set(tool.name, { spec: spec!, camino: camino! });
    }
  }, 240_000);
  afterAll(async () => {
    for (const dialect of DIALECTS) {
      await stacks[dialect].close();
      await stacks[dialect].devnet.close();
    }
  });

  it('covers the catalogue', () => {
    expect(NODE_FACING.length).toBeGreaterThan(100);
    const ok = [...outcomes.values()].filter((o) => !o.camino.isError).length;
    // Most examples answer on the devnet; the rest must fail the same way in both dialects (below).
    expect(ok, 'tools that answer their example against the Camino-dialect devnet').toBeGreaterThan(NODE_FACING.length * 0.6);
  });

  for (const tool of NODE_FACING) {
    it(tool.name, () => {
      const o = outcomes.get(tool.name)!;
      for (const dialect of DIALECTS) expect(o[dialect].text, `${dialect}: ${o[dialect].text}`).not.toMatch(WRONG_DIALECT);
      if (CAMINO_ONLY.has(tool.name)) {
        // Camino's own methods: a node of the spec's API lacks them, and the tool says so plainly.
        expect(o.spec.isError).toBe(true);
        expect(o.spec.text).toContain('This node does not offer platform.');
        expect(o.camino.text).not.toContain('does not offer');
        return;
      }
      // A Camino node decodes and verifies what it issues: the example's bytes are no transaction there.
      if (tool.name.endsWith('_issueTx')) {
        expect(o.camino.isError, o.camino.text).toBe(true);
        expect(o.camino.text).toMatch(/problem (decoding|parsing) transaction/);
        return;
      }
      // Its EVM too: the example's filler signature for another chain ID is refused.
      if (tool.name === 'eth_sendRawTransaction') {
        expect(o.camino.isError, o.camino.text).toBe(true);
        expect(o.camino.text).toMatch(/invalid chain id for signer|invalid transaction v, r, s values/);
        return;
      }
      expect(o.camino.isError, `camino: ${o.camino.text}\nspec: ${o.spec.text}`).toBe(o.spec.isError);
    });
  }

  it('spoke only the Camino names to the Camino node, and only the spec names to the spec node', () => {
    const camino = stacks.camino.devnet.router.requests;
    const spec = stacks.spec.devnet.router.requests;
    const methods = (reqs: typeof camino) => reqs.flatMap((r) => (Array.isArray(r.body) ? r.body : [r.body]).map((b) => String((b as { method?: unknown })?.method)));
    expect(methods(camino).filter((m) => /^(xvm|cx)\./.test(m))).toEqual([]);
    expect(camino.map((r) => r.path).filter((p) => /\/cx$|^\/ext\/vm\/xvm$/.test(p))).toEqual([]);
    expect(methods(camino)).toEqual(expect.arrayContaining(['avm.getBalance', 'avax.getUTXOs', 'avm.buildGenesis']));
    expect(camino.map((r) => r.path)).toEqual(expect.arrayContaining(['/ext/bc/C/avax', '/ext/vm/avm']));
    expect(methods(spec).filter((m) => /^(avm|avax)\./.test(m))).toEqual([]);
    expect(methods(spec)).toEqual(expect.arrayContaining(['xvm.getBalance', 'cx.getUTXOs']));
  });

  it('learned the dialect once per process, from the node version', () => {
    for (const dialect of DIALECTS) {
      const versions = stacks[dialect].devnet.router.requests.filter((r) => (r.body as { method?: string })?.method === 'info.getNodeVersion');
      // One learning call, plus the tool calls of info_getNodeVersion and the composites that read it.
      expect(versions.length).toBeGreaterThanOrEqual(1);
    }
  });

  it('shows the dialect in chain://network', async () => {
    for (const dialect of DIALECTS) {
      const res = await stacks[dialect].client.readResource({ uri: 'chain://network' });
      const body = JSON.parse(String((res.contents[0] as { text: string }).text)) as { dialect?: { dialect: string; source: string } };
      expect(body.dialect).toMatchObject({ dialect, source: 'vmVersions' });
    }
  });
});
