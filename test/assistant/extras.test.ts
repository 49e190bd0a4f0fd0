import { VIEWS } from '../../src/views/views.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVER_INSTRUCTIONS } from '../../src/assistant/extras.js';
import { inMemoryStack, type Stack } from '../helpers/stack.js';

const X_ADDR = 'X-local1qurswpc8qurswpc8qurswpc8qurswpc8lzh465';

function promptText(result: { messages: Array<{ content: { type: string; text?: string } }> }): string {
  return result.messages.map((m) => m.content.text ?? '').join('\n');
}

describe('prompts, resources and instructions over MCP', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await inMemoryStack();
  });
  afterAll(() => stack.close());

  it('sends short instructions at initialize', () => {
    const instructions = stack.client.getInstructions() ?? '';
    expect(instructions).toBe(SERVER_INSTRUCTIONS);
    expect(instructions.split('\n').length).toBeLessThanOrEqual(6);
    expect(instructions).toMatch(/confirm/);
    expect(instructions).toMatch(/smallest unit/);
  });

  it('declares tools and logging (the log level a client may set)', () => {
    expect(stack.client.getServerCapabilities()).toMatchObject({ tools: {}, logging: {} });
  });

  it('serves each view as an MCP Apps resource that may fetch nothing, and no approval card without the spend tier', async () => {
    const { resources } = await stack.client.listResources();
    for (const view of VIEWS) {
      expect(resources.find((r) => r.uri === view.uri)).toMatchObject({ name: view.name, title: `${view.title} view`, description: view.description, mimeType: 'text/html;profile=mcp-app' });
        expect(view.name).toMatch(/^[a-z-]+$/);
        expect(view.description.length).toBeGreaterThan(20);
      const read = await stack.client.readResource({ uri: view.uri });
      expect(read.contents).toHaveLength(1);
      expect(read.contents[0]).toMatchObject({ uri: view.uri, mimeType: 'text/html;profile=mcp-app', _meta: { ui: { csp: { connectDomains: [], resourceDomains: [] }, prefersBorder: true } } });
      expect((read.contents[0] as { text: string }).text).toMatch(/^<!doctype html>/i);
    }
    expect(resources.some((r) => r.uri === 'ui://chain-mcp/approval-card.html')).toBe(false);
  });

  it('lists the four prompts with their arguments', async () => {
    const { prompts } = await stack.client.listPrompts();
    const byName = new Map(prompts.map((p) => [p.name, p]));
    expect([...byName.keys()].sort()).toEqual(['guarded_transfer', 'portfolio_report', 'staking_options', 'validator_report']);
    expect(byName.get('portfolio_report')?.arguments).toEqual([expect.objectContaining({ name: 'address', required: true })]);
    expect(byName.get('validator_report')?.arguments?.map((a) => a.name)).toEqual(['nodeID']);
    expect(byName.get('staking_options')?.arguments ?? []).toEqual([]);
    expect(byName.get('guarded_transfer')?.arguments?.map((a) => a.name)).toEqual(['to', 'amount']);
  });

  it('gets a portfolio prompt naming the address and only tools the server exposes', async () => {
    const result = await stack.client.getPrompt({ name: 'portfolio_report', arguments: { address: X_ADDR } });
    const text = promptText(result);
    expect(text).toContain(X_ADDR);
    const { tools } = await stack.client.listTools();
    const names = new Set(tools.map((t) => t.name));
    const mentioned = [...text.matchAll(/\b([a-z]+_[A-Za-z]+)\b/g)].map((m) => m[1]!).filter((n) => /^(account|xvm|platform|cx|eth|validator|network|tx)_/.test(n));
    for (const name of mentioned) expect(names.has(name), `${name} is mentioned but not exposed`).toBe(true);
  });

  it('refuses a prompt argument that is not an address or node ID, naming it', async () => {
    await expect(stack.client.getPrompt({ name: 'portfolio_report', arguments: { address: 'X-local1qqqq' } })).rejects.toThrow(/address/);
    await expect(stack.client.getPrompt({ name: 'validator_report', arguments: { nodeID: 'NodeID-bad' } })).rejects.toThrow(/nodeID/);
    const ok = await stack.client.getPrompt({ name: 'validator_report', arguments: { nodeID: 'NodeID-7Xhw2mDxuDS44j42TCB6U5579esbSt3Lg' } });
    expect(promptText(ok)).toContain('NodeID-7Xhw2mDxuDS44j42TCB6U5579esbSt3Lg');
  });

  it('staking_options explains the deposit interest units', async () => {
    const text = promptText(await stack.client.getPrompt({ name: 'staking_options' }));
    expect(text).toContain('1,000,000');
    expect(text).toMatch(/minimum validator and delegator stake/);
  });

  it('guarded_transfer says spending is off when the spend tier is not enabled, and converts the amount', async () => {
    const off = promptText(await stack.client.getPrompt({ name: 'guarded_transfer', arguments: { to: X_ADDR, amount: '5' } }));
    expect(off).toMatch(/not exposed/);
    expect(off).toMatch(/send nothing/i);
    const bad = promptText(await stack.client.getPrompt({ name: 'guarded_transfer', arguments: { to: X_ADDR, amount: '1.0000000001' } }));
    expect(bad).toMatch(/not a positive amount/);
  });

  it('lists the three chain resources and the views, and reads each chain resource', async () => {
    const { resources } = await stack.client.listResources();
    const uris = resources.map((r) => r.uri).sort();
    expect(uris.filter((u) => u.startsWith('chain://'))).toEqual(['chain://limits', 'chain://network', 'chain://tools']);
    // MCP Apps views (src/views) are resources too; nothing else is listed.
    expect(uris.filter((u) => !u.startsWith('chain://'))).toEqual(VIEWS.map((v) => v.uri).sort());

    const network = await stack.client.readResource({ uri: 'chain://network' });
    const net = JSON.parse((network.contents[0] as { text: string }).text) as Record<string, unknown>;
    expect(net.nodeUrl).toBe(stack.devnet.nodeUrl);
    expect((net.info_getNetworkID as { networkID: string }).networkID).toBe(String(stack.devnet.state.networkID));
    expect((net.info_getNodeVersion as { version: string }).version).toBe(stack.devnet.state.version.version);

    const toolsDoc = (await stack.client.readResource({ uri: 'chain://tools' })).contents[0] as { text: string; mimeType?: string };
    expect(toolsDoc.mimeType).toBe('text/markdown');
    const { tools } = await stack.client.listTools();
    // The discovery tools (listed by default for the families that start off) are not catalogue tools.
    for (const tool of tools.filter((t) => !['list_toolsets', 'get_toolset_tools', 'enable_toolset'].includes(t.name))) expect(toolsDoc.text).toContain(`**${tool.name}**`);
    expect(toolsDoc.text).toContain('`alias` (required)');

    const limits = JSON.parse(((await stack.client.readResource({ uri: 'chain://limits' })).contents[0] as { text: string }).text);
    expect(limits.spec.memoBytes.max).toBe(256);
    expect(limits.spec.utxoPageSize.max).toBe(1024);
    expect(limits.server.spendEnabled).toBe(false);
    expect(limits.server.confirmationValidSeconds).toBe(300);
  });
});

describe('resources reflect the configuration and never leak secrets', () => {
  it('shows the spend guards and redacts the auth token', async () => {
    const token = 'tok-SECRET-1234567890';
    const stack = await inMemoryStack({
      env: {
        CHAIN_MCP_AUTH_TOKEN: token,
        CHAIN_MCP_MAX_SPEND: '5000000000',
        CHAIN_MCP_ALLOWED_RECIPIENTS: X_ADDR,
        CHAIN_MCP_TOOLSETS: 'info',
      },
    });
    try {
      const limits = JSON.parse(((await stack.client.readResource({ uri: 'chain://limits' })).contents[0] as { text: string }).text);
      expect(limits.server.maxSpend).toBe('5000000000');
      expect(limits.server.allowedRecipients).toEqual([X_ADDR]);
      const all = await Promise.all(['chain://network', 'chain://tools', 'chain://limits'].map((uri) => stack.client.readResource({ uri })));
      for (const r of all) expect(JSON.stringify(r)).not.toContain(token);
      const toolsDoc = (all[1]!.contents[0] as { text: string }).text;
      expect(toolsDoc).not.toContain('## platform');
      // With only the info toolset, the portfolio prompt has no tool to name and says so.
      const text = promptText(await stack.client.getPrompt({ name: 'portfolio_report', arguments: { address: X_ADDR } }));
      expect(text).toMatch(/No tool that can/);
    } finally {
      await stack.close();
    }
  });
});

describe('guarded_transfer with spending enabled', () => {
  it('walks through preview, human approval and confirm with the amount in the smallest unit', async () => {
    const stack = await inMemoryStack({ env: { CHAIN_MCP_ALLOW_SPEND: 'true', CHAIN_MCP_APPROVAL: 'confirm-id', CHAIN_MCP_KEYSTORE_USER: 'devnet', CHAIN_MCP_KEYSTORE_PASSWORD: 'Devnet-Passw0rd!' } });
    try {
      const text = promptText(await stack.client.getPrompt({ name: 'guarded_transfer', arguments: { to: X_ADDR, amount: '5.25' } }));
      expect(text).toContain('amount "5250000000"');
      expect(text).toMatch(/without confirm/);
      expect(text).toMatch(/Only after a clear yes/);
      expect(text).toMatch(/Never repeat a transfer/);
      const { tools } = await stack.client.listTools();
      expect(tools.map((t) => t.name)).toContain('transfer');
    } finally {
      await stack.close();
    }
  });
});

describe('guarded_transfer under human approval (the default when spending is on)', () => {
  it('does not tell the model that a chat "yes" is enough: the human approves in their own channel', async () => {
    const stack = await inMemoryStack({ env: { CHAIN_MCP_ALLOW_SPEND: 'true', CHAIN_MCP_KEYSTORE_USER: 'devnet', CHAIN_MCP_KEYSTORE_PASSWORD: 'Devnet-Passw0rd!' } });
    try {
      const text = promptText(await stack.client.getPrompt({ name: 'guarded_transfer', arguments: { to: X_ADDR, amount: '5.25' } }));
      expect(text).toContain('amount "5250000000"');
      expect(text).not.toMatch(/Only after a clear yes|ask for an explicit yes/);
      expect(text).toMatch(/A "yes" in this chat is not an approval/);
      expect(text).toMatch(/approval card or on the approval page/);
      expect(text).toMatch(/You cannot approve it/);
      expect(text).toMatch(/not approved yet/);
    } finally {
      await stack.close();
    }
  });
});
