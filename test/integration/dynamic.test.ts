import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CATALOGUE } from '../../src/catalogue/index.js';
import { type Devnet, startDevnet } from '../../src/devnet/index.js';
import { inMemoryStack, type Stack, stdioStack } from '../helpers/stack.js';

const DISCOVERY = ['enable_toolset', 'get_toolset_tools', 'list_toolsets'];
const listedNames = async (stack: Stack) => (await stack.client.listTools()).tools.map((t) => t.name).sort();

describe('CHAIN_MCP_DYNAMIC: start small, enable toolsets on demand', () => {
  let devnet: Devnet;
  let stack: Stack;
  let changes: number;
  beforeAll(async () => {
    devnet = await startDevnet();
  });
  afterAll(async () => {
    await stack?.close();
    await devnet.close();
  });
  beforeEach(async () => {
    // A fresh session each time: enabled toolsets belong to one session.
    await stack?.close();
    stack = await inMemoryStack({ devnet, env: { CHAIN_MCP_DYNAMIC: 'true' } });
    changes = 0;
    stack.client.setNotificationHandler('notifications/tools/list_changed', async () => {
      changes += 1;
    });
  });

  it('starts with the read-tier assistant composites and the three discovery tools, within 12 KB', async () => {
    const { tools } = await stack.client.listTools();
    const composites = CATALOGUE.filter((t) => t.toolset === 'assistant' && t.tier === 'read').map((t) => t.name);
    expect(tools.map((t) => t.name).sort()).toEqual([...composites, ...DISCOVERY].sort());
    expect(Buffer.byteLength(JSON.stringify(tools), 'utf8')).toBeLessThanOrEqual(12 * 1024);
    expect(stack.client.getServerCapabilities()?.tools?.listChanged).toBe(true);
  });

  it('lists toolsets with counts, and one toolset\'s tools before enabling it', async () => {
    const list = await stack.call('list_toolsets', {});
    const rows = list.structured?.toolsets as Array<{ toolset: string; tools: number; enabled: boolean }>;
    expect(rows.find((r) => r.toolset === 'platform')).toMatchObject({ enabled: false, tools: CATALOGUE.filter((t) => t.toolset === 'platform' && t.tier === 'read').length });
    expect(rows.find((r) => r.toolset === 'assistant')?.enabled).toBe(true);
    expect(rows.find((r) => r.toolset === 'auth')?.tools).toBe(0);
    const platform = await stack.call('get_toolset_tools', { toolset: 'platform' });
    expect(platform.text).toContain('- platform_getCurrentValidators: ');
    expect(await listedNames(stack)).not.toContain('platform_getCurrentValidators');
  });

  it('enabling a toolset sends tools/list_changed and lists its tools; they answer', async () => {
    const before = await stack.call('platform_getHeight', {});
    expect(before.isError).toBe(true);
    expect(before.text).toContain('Call enable_toolset with {"toolset": "platform"}');
    const enabled = await stack.call('enable_toolset', { toolset: 'platform' });
    expect(enabled.isError, enabled.text).toBe(false);
    await new Promise((r) => setTimeout(r, 50));
    expect(changes).toBe(1);
    expect(await listedNames(stack)).toEqual(expect.arrayContaining(['platform_getHeight', 'platform_getCurrentValidators']));
    const after = await stack.call('platform_getHeight', {});
    expect(after.isError, after.text).toBe(false);
    // Enabling again changes nothing and sends nothing.
    await stack.call('enable_toolset', { toolset: 'platform' });
    await new Promise((r) => setTimeout(r, 50));
    expect(changes).toBe(1);
  });

  it('a toolset outside the tiers cannot be enabled, and spend tools stay out of an enabled toolset', async () => {
    const auth = await stack.call('enable_toolset', { toolset: 'auth' });
    expect(auth.isError).toBe(true);
    expect(auth.text).toContain('CHAIN_MCP_ALLOW_ADMIN=true');
    await stack.call('enable_toolset', { toolset: 'xvm' });
    const names = await listedNames(stack);
    expect(names).toContain('xvm_getBalance');
    expect(names).not.toContain('xvm_send');
    const send = await stack.call('xvm_send', { to: 'X-local1x', amount: '1', assetID: 'CAM' });
    expect(send.isError).toBe(true);
    expect(send.text).toMatch(/spending is off/);
  });

  it('with spending on, a spend tool is not callable before its toolset is enabled, and sends nothing', async () => {
    const spender = await inMemoryStack({
      devnet,
      env: { CHAIN_MCP_DYNAMIC: 'true', CHAIN_MCP_ALLOW_SPEND: 'true', CHAIN_MCP_APPROVAL_LINK: 'plain', CHAIN_MCP_KEYSTORE_USER: devnet.keystore.username, CHAIN_MCP_KEYSTORE_PASSWORD: devnet.keystore.password },
    });
    const to = devnet.state.users.get('alice')!.keys[1]!.x;
    devnet.router.record = true;
    devnet.router.requests.length = 0;
    try {
      const early = await spender.call('xvm_send', { to, amount: '1000', assetID: 'CAM' });
      expect(early.isError).toBe(true);
      expect(early.text).toContain('Call enable_toolset with {"toolset": "xvm"}');
      expect(early.structured?.confirmationId).toBeUndefined();
      expect(devnet.router.requests).toHaveLength(0);
      expect((await spender.call('enable_toolset', { toolset: 'xvm' })).isError).toBe(false);
      const preview = await spender.call('xvm_send', { to, amount: '1000', assetID: 'CAM' });
      expect(preview.structured?.status, preview.text).toBe('preview');
    } finally {
      devnet.router.record = false;
      await spender.close();
    }
  });

  it('sessions are separate: enabling in one does not list in another', async () => {
    await stack.call('enable_toolset', { toolset: 'info' });
    const other = await inMemoryStack({ devnet, env: { CHAIN_MCP_DYNAMIC: 'true' } });
    try {
      expect(await listedNames(other)).not.toContain('info_getNodeID');
      expect(await listedNames(stack)).toContain('info_getNodeID');
    } finally {
      await other.close();
    }
  });

  it('works over stdio with --dynamic, for a client that ignores list_changed', async () => {
    const stdio = await stdioStack({ devnet, args: ['--dynamic'] });
    try {
      expect((await listedNames(stdio)).length).toBeLessThan(10);
      expect((await stdio.call('enable_toolset', { toolset: 'info' })).isError).toBe(false);
      // No new tools/list: the enabled tool is callable by name at once.
      const id = await stdio.call('info_getNodeID', {});
      expect(id.isError, id.text).toBe(false);
      expect(id.text).toContain('NodeID-');
    } finally {
      await stdio.close();
    }
  });
});

describe('default list: the rarely used families one enable_toolset away', () => {
  let devnet: Devnet;
  beforeAll(async () => {
    devnet = await startDevnet();
  });
  afterAll(() => devnet.close());

  it('lists every family but the EVM and atomic reads, plus the discovery tools; enabling evm lists its tools, and they answer by name before that too', async () => {
    const stack = await inMemoryStack({ devnet });
    let changes = 0;
    stack.client.setNotificationHandler('notifications/tools/list_changed', async () => {
      changes += 1;
    });
    try {
      const names = await listedNames(stack);
      for (const d of DISCOVERY) expect(names).toContain(d);
      expect(names).toContain('platform_getDeposits');
      expect(names).toContain('account_overview');
      expect(names.filter((n) => n.startsWith('eth_') || n.startsWith('cx_'))).toEqual([]);
      expect(stack.client.getServerCapabilities()?.tools?.listChanged).toBe(true);
      // Called by name, an unlisted read still answers.
      const early = await stack.call('eth_blockNumber', {});
      expect(early.isError, early.text).toBe(false);
      const on = await stack.call('enable_toolset', { toolset: 'evm' });
      expect(on.isError, on.text).toBe(false);
      expect(changes).toBe(1);
      expect((await listedNames(stack)).filter((n) => n.startsWith('eth_')).length).toBe(CATALOGUE.filter((t) => t.toolset === 'evm' && t.tier === 'read' && t.name.startsWith('eth_')).length);
    } finally {
      await stack.close();
    }
  });

  it('CHAIN_MCP_TOOLSETS=all lists every family and no discovery tool', async () => {
    const stack = await inMemoryStack({ devnet, env: { CHAIN_MCP_TOOLSETS: 'all' } });
    try {
      const names = await listedNames(stack);
      expect(names).toContain('eth_blockNumber');
      expect(names.filter((n) => DISCOVERY.includes(n))).toEqual([]);
    } finally {
      await stack.close();
    }
  });
});
