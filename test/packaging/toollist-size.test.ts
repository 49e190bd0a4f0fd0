import { describe, expect, it } from 'vitest';
import { toolListSize } from '../../src/assistant/budget.js';
import { TOOLSETS } from '../../src/core/toolsets.js';
import { loadConfig } from '../../src/config.js';
import { startDevnet } from '../../src/devnet/index.js';
import { devnetEnv, inMemoryStack } from '../helpers/stack.js';

const EVERYTHING = {
  CHAIN_MCP_ALLOW_SPEND: 'true',
  CHAIN_MCP_ALLOW_ADMIN: 'true',
  CHAIN_MCP_KEYSTORE_USER: 'u',
  CHAIN_MCP_KEYSTORE_PASSWORD: 'Passw0rd!x',
  CHAIN_MCP_INDEXER_URL: 'http://127.0.0.1:8080',
  CHAIN_MCP_RUNNER_URL: 'http://127.0.0.1:8081',
};

describe('tools/list size (what the tool list costs an assistant)', () => {
  it('is measured on the exact bytes a client receives', async () => {
    const stack = await inMemoryStack();
    try {
      const { tools } = await stack.client.listTools();
      const measured = toolListSize(loadConfig(devnetEnv(stack.devnet)));
      expect(measured.tools).toBe(tools.length);
      expect(measured.bytes).toBe(Buffer.byteLength(JSON.stringify(tools), 'utf8'));
      expect(measured.modelBytes).toBeLessThan(measured.bytes);
    } finally {
      await stack.close();
    }
  });

  it('is measured on the exact bytes an MCP Apps host receives with spends on, the app-only card tool included', async () => {
    const devnet = await startDevnet();
    const spends = { CHAIN_MCP_ALLOW_SPEND: 'true', CHAIN_MCP_KEYSTORE_USER: devnet.keystore.username, CHAIN_MCP_KEYSTORE_PASSWORD: devnet.keystore.password };
    const stack = await inMemoryStack({ devnet, env: spends, capabilities: { extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] } } } as never });
    try {
      const { tools } = await stack.client.listTools();
      expect(tools.map((t) => t.name)).toContain('approval_decide');
      const measured = toolListSize(loadConfig(devnetEnv(devnet, spends)), undefined, { appsHost: true });
      expect(measured.tools).toBe(tools.length);
      expect(measured.bytes).toBe(Buffer.byteLength(JSON.stringify(tools), 'utf8'));
    } finally {
      await stack.close();
      await devnet.close();
    }
  });

  it('shrinks with toolsets and CHAIN_MCP_TOOLS; the numbers for the README', () => {
    const def = toolListSize(loadConfig({}));
    const all = toolListSize(loadConfig(EVERYTHING));
    const lines = [`default: ${def.tools} tools, ${def.bytes} bytes (~${def.approxTokens} tokens; ${def.modelBytes} bytes without outputSchema)`];
    lines.push(`everything: ${all.tools} tools, ${all.bytes} bytes (~${all.approxTokens} tokens; ${all.modelBytes} bytes without outputSchema)`);
    const apps = toolListSize(loadConfig(EVERYTHING), undefined, { appsHost: true });
    lines.push(`everything in an MCP Apps host (views and card named, the card's app-only tool): ${apps.tools} tools, ${apps.bytes} bytes`);
    expect(apps.bytes).toBeGreaterThan(all.bytes);
    expect(all.bytes).toBeGreaterThan(def.bytes);
    for (const set of TOOLSETS) {
      const one = toolListSize(loadConfig({ ...EVERYTHING, CHAIN_MCP_TOOLSETS: set }));
      lines.push(`toolset ${set}: ${one.tools} tools, ${one.bytes} bytes`);
      expect(one.bytes).toBeLessThan(all.bytes);
    }
    const few = toolListSize(loadConfig({ CHAIN_MCP_TOOLS: 'account_overview,validator_lookup,network_overview,tx_status' }));
    lines.push(`CHAIN_MCP_TOOLS=account_overview,validator_lookup,network_overview,tx_status: ${few.tools} tools, ${few.bytes} bytes`);
    expect(few.tools).toBe(4);
    expect(few.bytes).toBeLessThan(def.bytes / 5);
    process.stderr.write(`${lines.join('\n')}\n`);
  });

  it('keeps the assistant toolset small: the one-call tools cost at most 12 KB together', () => {
    const assistant = toolListSize(loadConfig({ ...EVERYTHING, CHAIN_MCP_TOOLSETS: 'assistant' }));
    expect(assistant.tools).toBe(6);
    expect(assistant.bytes).toBeLessThanOrEqual(12 * 1024);
  });
});
