import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import module from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const BIN = join(import.meta.dirname, '..', '..', 'dist', 'chain-mcp.js');
const INITIALIZE = `${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '0' } } })}\n`;

/** The bin answering initialize, then ending when its input ends (as a client that hangs up). */
function start(env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN], { env: { PATH: process.env.PATH ?? '', CHAIN_MCP_NODE_URL: 'http://127.0.0.1:9', ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => {
      stdout += c.toString('utf8');
      if (stdout.includes('\n')) child.stdin.end();
    });
    child.stderr.on('data', (c: Buffer) => {
      stderr += c.toString('utf8');
    });
    child.on('error', reject);
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
    child.stdin.write(INITIALIZE);
  });
}

const dirs: string[] = [];
const scratch = () => {
  const d = mkdtempSync(join(tmpdir(), 'chain-mcp-ccache-'));
  dirs.push(d);
  return d;
};
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe("the bin's compile cache (Node 22.1+), in the user's cache directory", () => {
  const nodeHasIt = typeof (module as { enableCompileCache?: unknown }).enableCompileCache === 'function';

  it(`${nodeHasIt ? 'keeps' : 'on this Node (none) keeps nothing:'} the compiled modules in XDG_CACHE_HOME/chain-mcp/compile-cache after a start`, async () => {
    const cache = scratch();
    const run = await start({ XDG_CACHE_HOME: cache });
    expect(JSON.parse(run.stdout.split('\n')[0]!)).toMatchObject({ id: 1, result: { serverInfo: { name: 'chain-mcp' } } });
    expect(run.code).toBe(0);
    const dir = join(cache, 'chain-mcp', 'compile-cache');
    if (nodeHasIt) expect(readdirSync(dir, { recursive: true }).length).toBeGreaterThan(0);
    else expect(existsSync(dir)).toBe(false);
  }, 60_000);

  it('a cache directory that cannot be made leaves the start as it was: it answers and says nothing about it', async () => {
    const cache = join(scratch(), 'a-file');
    writeFileSync(cache, 'not a folder');
    const run = await start({ XDG_CACHE_HOME: cache });
    expect(JSON.parse(run.stdout.split('\n')[0]!)).toMatchObject({ id: 1, result: { serverInfo: { name: 'chain-mcp' } } });
    expect(run.code).toBe(0);
    expect(run.stderr).not.toMatch(/cache/i);
  }, 60_000);
});
