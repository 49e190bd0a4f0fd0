import { describe, expect, it } from 'vitest';
import { CARD_TOOL_LISTING } from '../../src/approval/card.js';
import { toolListSize } from '../../src/assistant/budget.js';
import { loadConfig } from '../../src/config.js';

/** Issue 6 budget: default at most 40 KB, everything enabled at most 90 KB (1 KB = 1,000 bytes, the strict reading). */
describe('tools/list budget', () => {
  it('keeps the default configuration within 40 KB', () => {
    expect(toolListSize(loadConfig({})).bytes).toBeLessThanOrEqual(40_000);
  });

  it('keeps the default list with a node and an indexer (what a real user runs) within 40 KB, and the dynamic start within 5 KB', () => {
    const real = { CHAIN_MCP_NODE_URL: 'http://127.0.0.1:9650', CHAIN_MCP_INDEXER_URL: 'http://127.0.0.1:8080' };
    expect(toolListSize(loadConfig(real)).bytes).toBeLessThanOrEqual(40_000);
    expect(toolListSize(loadConfig({ ...real, CHAIN_MCP_DYNAMIC: 'true' })).bytes).toBeLessThanOrEqual(5_000);
  });

  it('keeps everything enabled within 90 KB', () => {
    const everything = loadConfig({
      CHAIN_MCP_ALLOW_SPEND: 'true',
      CHAIN_MCP_ALLOW_ADMIN: 'true',
      CHAIN_MCP_KEYSTORE_USER: 'u',
      CHAIN_MCP_KEYSTORE_PASSWORD: 'Passw0rd!x',
      CHAIN_MCP_INDEXER_URL: 'http://127.0.0.1:8080',
      CHAIN_MCP_RUNNER_URL: 'http://127.0.0.1:8081',
    });
    expect(toolListSize(everything).bytes).toBeLessThanOrEqual(90_000);
    // The card's app-only tool, listed to MCP Apps hosts when spends are approved by the human, counts too.
    const apps = toolListSize(everything, undefined, { appsHost: true });
    const card = Buffer.byteLength(JSON.stringify(CARD_TOOL_LISTING), 'utf8');
    expect(card).toBeLessThan(300);
    expect(apps.tools).toBe(toolListSize(everything).tools + 1);
    expect(toolListSize(everything).bytes + 1 + card).toBeLessThanOrEqual(90_000);
  });

  it('keeps the default configuration within 40 KB in an MCP Apps host too', () => {
    expect(toolListSize(loadConfig({}), undefined, { appsHost: true }).bytes).toBeLessThanOrEqual(40_000);
  });
});
