import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Devnet, startDevnet } from '../../src/devnet/index.js';
import { MAIN } from '../helpers/stack.js';

const run = promisify(execFile);

async function check(env: Record<string, string>): Promise<{ code: number; lines: string[] }> {
  const base = { PATH: process.env.PATH ?? '', CHAIN_MCP_LOG_LEVEL: 'silent', CHAIN_MCP_TIMEOUT_MS: '3000' };
  try {
    const { stdout } = await run(process.execPath, [MAIN, '--check'], { env: { ...base, ...env } });
    return { code: 0, lines: stdout.trim().split('\n') };
  } catch (err) {
    const e = err as { code?: number; stdout?: string };
    return { code: e.code ?? -1, lines: (e.stdout ?? '').trim().split('\n') };
  }
}

describe('chain-mcp --check: the mistakes a newcomer makes, one line each with its fix', () => {
  let devnet: Devnet;
  let other: Devnet;
  beforeAll(async () => {
    [devnet, other] = await Promise.all([startDevnet({ dialect: 'camino' }), startDevnet({ dialect: 'camino' })]);
  });
  afterAll(async () => {
    await Promise.all([devnet.close(), other.close()]);
  });

  it('a network pin that is not the node\'s network fails with spends on (exit 1), and names both fixes', async () => {
    const { code, lines } = await check({ CHAIN_MCP_NODE_URL: devnet.nodeUrl, CHAIN_MCP_EXPECT_NETWORK_ID: '1001', CHAIN_MCP_ALLOW_SPEND: 'true' });
    expect(lines.filter((l) => l.includes('CHAIN_MCP_EXPECT_NETWORK_ID'))).toEqual([
      `FAIL  CHAIN_MCP_EXPECT_NETWORK_ID is 1001, but the node at ${devnet.nodeUrl} is on network 12345: every spend will be refused; set CHAIN_MCP_EXPECT_NETWORK_ID=12345 if this is the network you mean, or point CHAIN_MCP_NODE_URL at a network-1001 node`,
    ]);
    expect(code).toBe(1);
  });

  it('the same pin with spends off is a warning (reads still work)', async () => {
    const { code, lines } = await check({ CHAIN_MCP_NODE_URL: devnet.nodeUrl, CHAIN_MCP_EXPECT_NETWORK_ID: '1001' });
    expect(lines.filter((l) => l.includes('CHAIN_MCP_EXPECT_NETWORK_ID')).map((l) => l.slice(0, 6))).toEqual(['warn  ']);
    expect(code).toBe(0);
  });

  it('a pin that matches says nothing more', async () => {
    const { lines } = await check({ CHAIN_MCP_NODE_URL: devnet.nodeUrl, CHAIN_MCP_EXPECT_NETWORK_ID: '12345', CHAIN_MCP_ALLOW_SPEND: 'true' });
    expect(lines.filter((l) => l.includes('CHAIN_MCP_EXPECT_NETWORK_ID'))).toEqual([]);
  });

  it("an indexer URL that is the node's own URL is named as such (exit 1)", async () => {
    const { code, lines } = await check({ CHAIN_MCP_NODE_URL: devnet.nodeUrl, CHAIN_MCP_INDEXER_URL: `${devnet.nodeUrl}/` });
    expect(lines.at(-1)).toBe(
      `FAIL  CHAIN_MCP_INDEXER_URL is the node's URL (${devnet.nodeUrl}); the indexer is Magellan, a separate service (Columbus: https://magellan.columbus.camino.network); set its URL or unset CHAIN_MCP_INDEXER_URL`,
    );
    expect(code).toBe(1);
  });

  it('an indexer URL that answers as a node (another node, a proxy) is named as such (exit 1)', async () => {
    const { code, lines } = await check({ CHAIN_MCP_NODE_URL: devnet.nodeUrl, CHAIN_MCP_INDEXER_URL: other.nodeUrl });
    expect(lines.at(-1)).toBe(
      `FAIL  CHAIN_MCP_INDEXER_URL (${other.nodeUrl}) answers as a node, not as an indexer; the indexer is Magellan, a separate service (Columbus: https://magellan.columbus.camino.network)`,
    );
    expect(code).toBe(1);
  });
});
