import { execFile } from 'node:child_process';
import { createServer } from 'node:net';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Devnet, startDevnet } from '../../src/devnet/index.js';
import { MAIN } from '../helpers/stack.js';

const run = promisify(execFile);

/** `chain-mcp --check` as a person runs it; resolves with its exit code and output. */
async function check(env: Record<string, string>): Promise<{ code: number; out: string }> {
  try {
    const { stdout } = await run(process.execPath, [MAIN, '--check'], { env: { PATH: process.env.PATH ?? '', CHAIN_MCP_LOG_LEVEL: 'silent', CHAIN_MCP_TIMEOUT_MS: '3000', ...env } });
    return { code: 0, out: stdout };
  } catch (err) {
    const e = err as { code?: number; stdout?: string };
    return { code: e.code ?? -1, out: e.stdout ?? '' };
  }
}

/** A loopback port that nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('chain-mcp --check (npm run doctor)', () => {
  let camino: Devnet;
  let noKeystore: Devnet;
  beforeAll(async () => {
    [camino, noKeystore] = await Promise.all([startDevnet({ dialect: 'camino' }), startDevnet({ dialect: 'camino', keystoreApi: false })]);
  });
  afterAll(async () => {
    await Promise.all([camino.close(), noKeystore.close()]);
  });

  it('reports a working setup: dialect, network, toolsets, indexer; exit 0', async () => {
    const { code, out } = await check({ CHAIN_MCP_NODE_URL: camino.nodeUrl, CHAIN_MCP_INDEXER_URL: camino.indexerUrl! });
    expect(out).toMatch(/API names: camino \(learned from vmVersions\)/);
    expect(out).toMatch(/network 12345 \(address prefix "local"/);
    for (const toolset of ['platform', 'xvm', 'evm', 'cx']) expect(out).toContain(`ok    ${toolset} tools: the API answers`);
    expect(out).toMatch(/indexer at .* answers/);
    expect(out).not.toMatch(/FAIL/);
    expect(code).toBe(0);
  });

  it('a wrong URL: one line that says the node cannot be reached; exit 1', async () => {
    const port = await closedPort();
    const { code, out } = await check({ CHAIN_MCP_NODE_URL: `http://127.0.0.1:${port}` });
    expect(out).toMatch(new RegExp(`FAIL  cannot reach the node at http://127.0.0.1:${port} .*check CHAIN_MCP_NODE_URL`));
    expect(code).toBe(1);
  });

  it('a node without the keystore API: says so and how to enable it', async () => {
    const { out } = await check({ CHAIN_MCP_NODE_URL: noKeystore.nodeUrl });
    const line = out.split('\n').find((l) => l.includes('keystore API'));
    expect(line).toMatch(/^warn {2}the node's keystore API is disabled .*--api-keystore-enabled=true/);
  });

  it('an unreachable indexer: one line naming the variable; exit 1', async () => {
    const port = await closedPort();
    const { code, out } = await check({ CHAIN_MCP_NODE_URL: camino.nodeUrl, CHAIN_MCP_INDEXER_URL: `http://127.0.0.1:${port}` });
    expect(out).toMatch(/FAIL {2}cannot reach the indexer at .*check CHAIN_MCP_INDEXER_URL/);
    expect(code).toBe(1);
  });
});
