import { spawn } from 'node:child_process';
import { copyFileSync, cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NO_SQLITE } from '../../src/state/sqlite.js';
import { MAIN } from '../helpers/stack.js';

const ROOT = new URL('../..', import.meta.url).pathname;
const KEY = '0f'.repeat(32);

/** Runs the built server with only `env`, stdin closed at once (a stdio server then shuts down by itself). */
function run(args: readonly string[], env: Record<string, string>, cwd = ROOT): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, {
      cwd,
      env: { PATH: process.env.PATH ?? '', CHAIN_MCP_NODE_URL: 'http://127.0.0.1:9', CHAIN_MCP_LOG_LEVEL: 'silent', ...env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => {
      stdout += c.toString('utf8');
    });
    child.stderr.on('data', (c: Buffer) => {
      stderr += c.toString('utf8');
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end();
  });
}

const lines = (text: string) => text.split('\n').filter((l) => l.length > 0);

/** A loopback port nothing listens on. */
function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** Whether this Node has SQLite built in (22.5+, unflagged from 22.13). */
async function builtinSqlite(): Promise<boolean> {
  const name = 'node:sqlite';
  return import(name).then(
    () => true,
    () => false,
  );
}

describe('the state store at start: one line for each mistake (DESIGN section 8)', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'chain-mcp-state-start-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('a shared store without CHAIN_MCP_STATE_KEY refuses to start, naming the key and how to make one', async () => {
    const r = await run([MAIN], { CHAIN_MCP_STATE: 'postgres://chain:db-secret-pass@127.0.0.1:5432/chain' });
    expect(r.code).toBe(2);
    expect(lines(r.stderr)).toEqual([
      'chain-mcp: CHAIN_MCP_STATE_KEY: required with a shared store (CHAIN_MCP_STATE=postgres://…): the same 64 hex digits on every replica (openssl rand -hex 32), so any replica can check the confirmation ids another issued',
    ]);
  });

  it('a PostgreSQL that cannot be reached stops the start with one line, without the password', async () => {
    const port = await closedPort();
    const r = await run([MAIN], { CHAIN_MCP_STATE: `postgres://chain:db-secret-pass@127.0.0.1:${port}/chain`, CHAIN_MCP_STATE_KEY: KEY });
    expect(r.code).toBe(2);
    expect(lines(r.stderr)).toHaveLength(1);
    expect(r.stderr).toMatch(new RegExp(`^chain-mcp: CHAIN_MCP_STATE: cannot use PostgreSQL at postgres://127\\.0\\.0\\.1:${port}/chain: .*ECONNREFUSED`));
    expect(r.stderr).not.toContain('db-secret-pass');
  });

  it('an unknown kind of store is refused with the forms it takes', async () => {
    const r = await run([MAIN], { CHAIN_MCP_STATE: 'redis://127.0.0.1' });
    expect(r.code).toBe(2);
    expect(lines(r.stderr)).toEqual(['chain-mcp: CHAIN_MCP_STATE: expected memory, sqlite:<file> or postgres://user:password@host:5432/database (got "redis://127.0.0.1")']);
  });

  it('the bundled server alone, with no SQLite driver beside it: refuses sqlite: with the three ways out (or, on a Node with node:sqlite, uses it)', async () => {
    // The package's bin and its chunks in a folder of their own: no node_modules, so better-sqlite3 cannot be found.
    const bin = join(dir, 'chain-mcp.js');
    copyFileSync(join(ROOT, 'dist/chain-mcp.js'), bin);
    cpSync(join(ROOT, 'dist/chunks'), join(dir, 'chunks'), { recursive: true });
    const file = join(dir, 'alone.db');
    const r = await run([bin], { CHAIN_MCP_STATE: `sqlite:${file}` }, dir);
    if (await builtinSqlite()) {
      expect(r.code).toBe(0);
      expect(existsSync(file)).toBe(true);
    } else {
      expect(r.code).toBe(2);
      expect(lines(r.stderr)).toEqual([`chain-mcp: ${NO_SQLITE}`]);
      expect(existsSync(file)).toBe(false);
    }
  });

  it('spends on and nothing else set: the bundled server alone starts on memory, needing no SQLite and writing no database', async () => {
    const bin = join(dir, 'first-transfer.js');
    copyFileSync(join(ROOT, 'dist/chain-mcp.js'), bin);
    cpSync(join(ROOT, 'dist/chunks'), join(dir, 'chunks'), { recursive: true });
    const config = join(dir, 'first-config');
    const r = await run([bin], { CHAIN_MCP_ALLOW_SPEND: 'true', XDG_CONFIG_HOME: config }, dir);
    expect(r.code).toBe(0);
    expect(r.stderr).not.toContain('SQLite');
    expect(existsSync(join(config, 'chain-mcp', 'state.db'))).toBe(false);
  });

  it('--check names the store, and says when a daily limit would reset at every restart', async () => {
    const file = join(dir, 'check.db');
    const sqlite = await run([MAIN, '--check'], { CHAIN_MCP_STATE: `sqlite:${file}` });
    expect(lines(sqlite.stdout)).toContain(`ok    state store: sqlite:${file} (this machine; survives restarts)`);
    // Nothing set but spends and a daily limit: memory, and under the keystore signer the total resets.
    const memory = await run([MAIN, '--check'], { CHAIN_MCP_ALLOW_SPEND: 'true', CHAIN_MCP_MAX_SPEND_PER_DAY: '5', CHAIN_MCP_KEYSTORE_USER: 'u', CHAIN_MCP_KEYSTORE_PASSWORD: 'Passw0rd!x' });
    expect(lines(memory.stdout)).toContain(
      'warn  state store: memory (this process only: a restart forgets open approvals); under the keystore signer CHAIN_MCP_MAX_SPEND_PER_DAY starts from zero at every restart (CHAIN_MCP_STATE=sqlite:<file> keeps it)',
    );
    const port = await closedPort();
    const down = await run([MAIN, '--check'], { CHAIN_MCP_STATE: `postgres://u:db-secret-pass@127.0.0.1:${port}/chain`, CHAIN_MCP_STATE_KEY: KEY });
    expect(down.code).toBe(1);
    expect(down.stdout).toMatch(new RegExp(`FAIL  state store postgres://127\\.0\\.0\\.1:${port}/chain \\(shared by every replica\\) cannot be used: .*ECONNREFUSED`));
    expect(down.stdout).not.toContain('db-secret-pass');
  });
});
