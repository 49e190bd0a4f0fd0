import { describe, expect, it } from 'vitest';
import { inMemoryStack } from '../helpers/stack.js';

/** Every tier and toolset on, so every tool a client can ever be shown is listed. */
const EVERYTHING = {
  CHAIN_MCP_ALLOW_SPEND: 'true',
  CHAIN_MCP_ALLOW_ADMIN: 'true',
  CHAIN_MCP_KEYSTORE_USER: 'u',
  CHAIN_MCP_KEYSTORE_PASSWORD: 'Passw0rd!x',
  CHAIN_MCP_RUNNER_URL: 'http://127.0.0.1:8081',
};

/** An item schema that says its type: `type`, or an anyOf whose every branch has one. */
function typed(items: unknown): boolean {
  if (!items || typeof items !== 'object') return false;
  const i = items as { type?: unknown; anyOf?: unknown };
  if (typeof i.type === 'string') return true;
  return Array.isArray(i.anyOf) && i.anyOf.length > 0 && i.anyOf.every((b) => typeof (b as { type?: unknown }).type === 'string');
}

/**
 * What the MCP Inspector warns about and some hosts reject: a type list (`type: ["string","number"]`)
 * and an array whose items do not say their type. Returns one line per place.
 */
function portabilityProblems(node: unknown, path: string): string[] {
  if (Array.isArray(node)) return node.flatMap((n, i) => portabilityProblems(n, `${path}[${i}]`));
  if (!node || typeof node !== 'object') return [];
  const o = node as Record<string, unknown>;
  const out: string[] = [];
  if (Array.isArray(o.type)) out.push(`${path}: type list ${JSON.stringify(o.type)}`);
  if (o.type === 'array' && !typed(o.items)) out.push(`${path}: array without items.type`);
  for (const [k, v] of Object.entries(o)) out.push(...portabilityProblems(v, `${path}.${k}`));
  return out;
}

describe('published tool schemas are portable', () => {
  for (const [mode, env] of [
    ['every tier', EVERYTHING],
    ['dynamic', { ...EVERYTHING, CHAIN_MCP_DYNAMIC: 'true' }],
  ] as const) {
    it(`${mode}: no type list and no array without items.type in any input or output schema`, async () => {
      const stack = await inMemoryStack({ env });
      try {
        const { tools } = await stack.client.listTools();
        expect(tools.length).toBeGreaterThan(mode === 'dynamic' ? 3 : 100);
        const problems = tools.flatMap((t) => [...portabilityProblems(t.inputSchema, `${t.name}.inputSchema`), ...portabilityProblems(t.outputSchema, `${t.name}.outputSchema`)]);
        expect(problems).toEqual([]);
      } finally {
        await stack.close();
      }
    });
  }

  it('a uint64 listed as a string is still accepted as a plain JSON number', async () => {
    const stack = await inMemoryStack();
    try {
      const { tools } = await stack.client.listTools();
      const schema = tools.find((t) => t.name === 'platform_getAllDepositOffers')?.inputSchema as unknown as { properties: Record<string, { type: string }> };
      expect(schema.properties.timestamp?.type).toBe('string');
      const asNumber = await stack.call('platform_getAllDepositOffers', { timestamp: 1_700_000_000 });
      const asString = await stack.call('platform_getAllDepositOffers', { timestamp: '1700000000' });
      expect(asNumber.isError).toBe(false);
      expect(asNumber.structured).toEqual(asString.structured);
    } finally {
      await stack.close();
    }
  });
});
