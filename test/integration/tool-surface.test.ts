import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Devnet, startDevnet } from '../../src/devnet/index.js';
import { inMemoryStack } from '../helpers/stack.js';

/** Issue 22 "other friction": what tools/list and the discovery tools tell a model, through the MCP protocol. */

const KEYSTORE = { CHAIN_MCP_KEYSTORE_USER: 'devnet', CHAIN_MCP_KEYSTORE_PASSWORD: 'Devnet-Passw0rd!' };
type Schema = { properties?: Record<string, { description?: string }>; required?: string[] };

describe('tool surface a model reads', () => {
  let devnet: Devnet;
  beforeAll(async () => {
    devnet = await startDevnet();
  });
  afterAll(() => devnet.close());

  it('explains the chain parameter of xvm_* and eth_* tools once (instructions) and gives its default in each schema', async () => {
    // Every toolset listed (eth_* reads are one enable_toolset away by default).
    const stack = await inMemoryStack({ devnet, env: { CHAIN_MCP_TOOLSETS: 'all' } });
    try {
      expect(stack.client.getInstructions()).toMatch(/optional "chain" is the chain they call \(\/ext\/bc\/<chain>: alias or blockchain ID\); omitted, X for xvm_\*, C for cx_\*\/eth_\*/);
      const { tools } = await stack.client.listTools();
      const chainOf = (name: string) => (tools.find((t) => t.name === name)!.inputSchema as { properties?: Record<string, { default?: string }> }).properties?.chain;
      expect(chainOf('xvm_getBalance')?.default).toBe('X');
      expect(chainOf('eth_getBalance')?.default).toBe('C');
      const r = await stack.call('xvm_getBalance', { address: devnet.state.users.get('alice')!.keys[0]!.x, assetID: 'CAM', chain: 'X' });
      expect(r.isError, r.text).toBe(false);
    } finally {
      await stack.close();
    }
  });

  it('annotates wallet-tier tools truthfully: listing addresses reads, creating one writes', async () => {
    const stack = await inMemoryStack({ devnet, env: KEYSTORE });
    try {
      const { tools } = await stack.client.listTools();
      const hints = (name: string) => tools.find((t) => t.name === name)!.annotations;
      expect(hints('xvm_listAddresses')).toMatchObject({ readOnlyHint: true, destructiveHint: false, idempotentHint: true });
      expect(hints('xvm_createAddress')).toMatchObject({ readOnlyHint: false, idempotentHint: false });
      expect(hints('platform_createAddress')).toMatchObject({ readOnlyHint: false, idempotentHint: false });
    } finally {
      await stack.close();
    }
  });

  it('list_toolsets describes only what the tiers allow: no sends on a read-only server, sends once spending is on', async () => {
    const read = await inMemoryStack({ devnet, env: { CHAIN_MCP_DYNAMIC: 'true' } });
    const spend = await inMemoryStack({ devnet, env: { CHAIN_MCP_DYNAMIC: 'true', CHAIN_MCP_ALLOW_SPEND: 'true', ...KEYSTORE } });
    try {
      const about = async (s: typeof read, toolset: string) =>
        (((await s.call('list_toolsets', {})).structured?.toolsets ?? []) as Array<{ toolset: string; about: string }>).find((r) => r.toolset === toolset)?.about ?? '';
      expect(await about(read, 'xvm')).not.toMatch(/send|export|import|creat/i);
      expect(await about(read, 'assistant')).not.toMatch(/transfer/i);
      expect(await about(read, 'platform')).not.toMatch(/staking transactions/i);
      expect(await about(spend, 'xvm')).toMatch(/Sends, exports, imports, asset creation/);
      expect(await about(spend, 'assistant')).toMatch(/Guarded transfers/);
    } finally {
      await read.close();
      await spend.close();
    }
  });

  it('a tool hidden by a tier is an isError result naming the setting; an unknown name stays a protocol error', async () => {
    for (const env of [{}, { CHAIN_MCP_DYNAMIC: 'true' }] as Array<Record<string, string>>) {
      const stack = await inMemoryStack({ devnet, env });
      try {
        const hidden = await stack.call('xvm_send', { amount: '1', assetID: 'CAM', to: 'X-local1abc' });
        expect(hidden.isError).toBe(true);
        expect(hidden.text).toContain('xvm_send" is not enabled on this server: spending is off (CHAIN_MCP_ALLOW_SPEND=true');
        await expect(stack.call('no_such_tool', {})).rejects.toThrow(/Unknown tool "no_such_tool"/);
        // The JSON-RPC error the spec asks for: invalid params (-32602).
        await expect(stack.call('no_such_tool', {})).rejects.toMatchObject({ code: -32602 });
      } finally {
        await stack.close();
      }
    }
  });

  it('a tool of a toolset not enabled yet is an isError result naming the toolset to enable', async () => {
    const stack = await inMemoryStack({ devnet, env: { CHAIN_MCP_DYNAMIC: 'true' } });
    try {
      const r = await stack.call('info_getNodeID', {});
      expect(r.isError).toBe(true);
      expect(r.text).toContain('Call enable_toolset with {"toolset": "info"}');
    } finally {
      await stack.close();
    }
  });

  it('enable_toolset returns each new tool with a one-line description, no input schema (the host re-lists them)', async () => {
    const stack = await inMemoryStack({ devnet, env: { CHAIN_MCP_DYNAMIC: 'true' } });
    try {
      const enabled = await stack.call('enable_toolset', { toolset: 'info' });
      expect(enabled.isError, enabled.text).toBe(false);
      const rows = enabled.structured?.tools as Array<{ name: string; description: string; inputSchema?: Schema }>;
      const { tools } = await stack.client.listTools();
      const listed = tools.filter((t) => t.name.startsWith('info_'));
      expect(rows.map((r) => r.name).sort()).toEqual(listed.map((t) => t.name).sort());
      for (const t of listed) {
        const row = rows.find((r) => r.name === t.name)!;
        expect(row.inputSchema).toBeUndefined();
        expect(t.description?.startsWith(row.description)).toBe(true);
        expect(row.description).not.toContain('\n');
        expect(enabled.text).toContain(`- ${t.name}: ${row.description}`);
      }
      // The schemas come with tools/list, where the host reads them.
      expect((listed.find((t) => t.name === 'info_getBlockchainID')!.inputSchema as Schema).required).toEqual(['alias']);
      expect(enabled.text).not.toContain('"type"');
      expect(JSON.stringify(enabled.structured)).not.toContain('"properties"');
    } finally {
      await stack.close();
    }
  });
});
