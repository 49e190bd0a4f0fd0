import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { sqliteNode } from './sqlite-node.js';
import { freePort } from './free-port.js';

/**
 * `npm run conformance`: starts `chain-mcp --http --devnet` on a free loopback port and
 * runs the MCP conformance suite's server scenarios against http://127.0.0.1:PORT/mcp,
 * with test/conformance/expected-failures.yml as the baseline (fixture-only scenarios). The server
 * runs on this Node; the suite needs Node 22+, so below that it runs on the registry's Node 24.
 * Exits with the suite's exit code.
 */

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const MAIN = `${ROOT}dist/src/main.js`;
const SUITE = `${ROOT}node_modules/@modelcontextprotocol/conformance/dist/index.js`;
const BASELINE = `${ROOT}test/conformance/expected-failures.yml`;

async function waitUntilServing(url: string, child: ChildProcess, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`chain-mcp exited early with code ${child.exitCode}`);
    try {
      // Any HTTP answer (400 without a session) means the endpoint is up.
      await fetch(url, { method: 'GET' });
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  throw new Error(`chain-mcp did not serve ${url} within ${timeoutMs} ms`);
}

async function main(): Promise<number> {
  // The suite (0.1.16) imports fs.globSync, which Node has from 22 on: below 22 it runs on the
  // registry's Node 24 (the one the SQLite tests use, fetched once), while chain-mcp stays on this Node.
  const suiteNode = Number(process.versions.node.split('.')[0]) >= 22 ? process.execPath : sqliteNode();
  for (const file of [MAIN, SUITE, BASELINE]) {
    if (!existsSync(file)) throw new Error(`missing ${file} (run npm ci and npm run build first)`);
  }
  const port = await freePort();
  const url = `http://127.0.0.1:${port}/mcp`;
  const server = spawn(process.execPath, [MAIN, '--http', '--devnet', '--port', String(port)], {
    env: { PATH: process.env.PATH ?? '', CHAIN_MCP_LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  try {
    await waitUntilServing(url, server);
    console.error(`conformance: chain-mcp --http --devnet serving ${url}`);
    const suite = spawn(suiteNode, [SUITE, 'server', '--url', url, '--expected-failures', BASELINE], { stdio: 'inherit' });
    return await new Promise<number>((resolve) => suite.on('exit', (code) => resolve(code ?? 1)));
  } finally {
    server.kill('SIGTERM');
  }
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(`conformance: ${(err as Error).message}`);
    process.exit(1);
  },
);
