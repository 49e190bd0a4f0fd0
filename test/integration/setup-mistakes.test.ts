import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeKeyFile } from '../../src/signer/keyfile.js';
import { MAIN } from '../helpers/stack.js';

/**
 * The configuration mistakes of issue 43, each named in one line with its fix, and the same line
 * at start (stderr) and in `--check` (stderr for what stops the start, a report line for a warning).
 */

const ROOT = new URL('../..', import.meta.url).pathname;

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function run(args: readonly string[], env: Record<string, string>, as?: { uid: number; gid: number }): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [MAIN, ...args], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', CHAIN_MCP_NODE_URL: 'http://127.0.0.1:9', CHAIN_MCP_LOG_LEVEL: 'silent', CHAIN_MCP_TIMEOUT_MS: '2000', ...env },
      stdio: ['pipe', 'pipe', 'pipe'],
      ...(as ?? {}),
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

/** A refusal: the start and --check both stop with exactly this one line. */
async function refusedAlike(env: Record<string, string>, line: string, as?: { uid: number; gid: number }): Promise<void> {
  for (const args of [[], ['--check']]) {
    const r = await run(args, env, as);
    expect(lines(r.stderr), `${args.join(' ') || 'start'}`).toEqual([`chain-mcp: ${line}`]);
    expect(r.code).toBe(2);
  }
}

/** A warning: the start says it on stderr and starts; --check has it as a warn line. */
async function warnedAlike(env: Record<string, string>, line: string, args: readonly string[] = []): Promise<void> {
  const start = await run(args, env);
  expect(lines(start.stderr)).toContain(`chain-mcp: ${line}`);
  expect(start.code).toBe(0);
  const check = await run([...args, '--check'], env);
  expect(lines(check.stdout)).toContain(`warn  ${line}`);
}

describe('a setup mistake: one line with its fix, at start and in --check alike', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'chain-mcp-setup-'));
    // Readable to another user for the ownership case below.
    chmodSync(dir, 0o755);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('a node URL with an API path', async () => {
    await refusedAlike(
      { CHAIN_MCP_NODE_URL: 'https://columbus.camino.network/ext/bc/C/rpc' },
      "CHAIN_MCP_NODE_URL: /ext/bc/C/rpc is the path of one of the node's APIs; give the node's base URL, https://columbus.camino.network, and chain-mcp adds each API's path itself",
    );
  });

  it('a key file this user cannot read: whose it is and its mode', async () => {
    const keyFile = join(dir, 'theirs.json');
    await writeKeyFile(keyFile, new Uint8Array(32).fill(7), 'a passphrase of some length', { N: 2 ** 10, r: 8, p: 1 });
    if (process.getuid?.() === 0) {
      // Root reads every file: the server runs as nobody (65534), the file stays root's, 0600.
      await refusedAlike(
        { CHAIN_MCP_KEY_FILE: keyFile },
        `CHAIN_MCP_KEY_FILE: ${keyFile} belongs to root (uid 0) (mode 0600) and chain-mcp runs as nobody (uid 65534), who cannot read it; run chain-mcp as root, or give it a file of its own user`,
        { uid: 65534, gid: 65534 },
      );
    } else {
      chmodSync(keyFile, 0o200);
      await refusedAlike(
        { CHAIN_MCP_KEY_FILE: keyFile },
        `CHAIN_MCP_KEY_FILE: ${keyFile} cannot be read (mode 0200, or a folder above it is closed to this user); chmod 600 ${keyFile} and check the folders' modes`,
      );
    }
  });

  it('a secret file other users can read (CHAIN_MCP_STATE_KEY_FILE at 0644): a warning with the chmod', async () => {
    const file = join(dir, 'state-key');
    writeFileSync(file, `${'0f'.repeat(32)}\n`, { mode: 0o644 });
    chmodSync(file, 0o644);
    await warnedAlike({ CHAIN_MCP_STATE_KEY_FILE: file }, `CHAIN_MCP_STATE_KEY_FILE: ${file} has mode 0644, so other users on this machine may read it; chmod 600 ${file}`);
    chmodSync(file, 0o600);
    const quiet = await run([], { CHAIN_MCP_STATE_KEY_FILE: file });
    expect(quiet.stderr).toBe('');
  });

  it('a key passphrase file other users can read: a warning with the chmod', async () => {
    const keyFile = join(dir, 'mine.json');
    const pass = join(dir, 'pass');
    await writeKeyFile(keyFile, new Uint8Array(32).fill(9), 'my passphrase is long enough', { N: 2 ** 10, r: 8, p: 1 });
    writeFileSync(pass, 'my passphrase is long enough\n');
    chmodSync(pass, 0o644);
    await warnedAlike(
      { CHAIN_MCP_KEY_FILE: keyFile, CHAIN_MCP_KEY_PASSPHRASE_FILE: pass },
      `CHAIN_MCP_KEY_PASSPHRASE_FILE: ${pass} has mode 0644, so other users on this machine may read it; chmod 600 ${pass}`,
    );
  });

  it.each([
    ['CHAIN_MCP_KEY_FILE', 'C:\\Users\\me\\AppData\\Roaming\\chain-mcp\\key.json', 'C:\\Users\\me\\AppData\\Roaming\\chain-mcp\\key.json'],
    ['CHAIN_MCP_KEY_PASSPHRASE_FILE', 'C:/secrets/pass.txt', 'C:/secrets/pass.txt'],
    ['CHAIN_MCP_STATE', 'sqlite:C:\\ProgramData\\chain-mcp\\state.db', 'C:\\ProgramData\\chain-mcp\\state.db'],
  ])('a Windows path in %s is refused with its reason, and no file of that name is made', async (name, value, path) => {
    await refusedAlike(
      { [name]: value },
      `${name}: ${path} is a Windows path, but chain-mcp runs on ${process.platform}, where it would name a file "${path}" in the current folder; give a ${process.platform} path, such as /home/you/…`,
    );
    expect(existsSync(join(ROOT, path))).toBe(false);
  });

  it('spends on without any signer names `chain-mcp key new` and where the key would be', async () => {
    const config = join(dir, 'empty-config');
    await warnedAlike(
      { CHAIN_MCP_ALLOW_SPEND: 'true', XDG_CONFIG_HOME: config },
      `CHAIN_MCP_ALLOW_SPEND is on, but spend tools stay hidden: nothing can sign (no key file at ${config}/chain-mcp/key.json, no keystore user); make a key with \`chain-mcp key new\` (or \`chain-mcp key import\`) in a terminal, or set CHAIN_MCP_KEYSTORE_USER and CHAIN_MCP_KEYSTORE_PASSWORD`,
    );
  });

  it('--check --http: a port in use fails the check with the line the start gives', async () => {
    const busy = createServer();
    await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
    const { port } = busy.address() as { port: number };
    const line = `--port ${port}: the port is in use on 127.0.0.1 (another chain-mcp?); stop what uses it or choose another with --port N`;
    try {
      const start = await run(['--http', '--port', String(port)], {});
      expect(lines(start.stderr)).toEqual([`chain-mcp: ${line}`]);
      expect(start.code).toBe(2);
      const check = await run(['--check', '--http', '--port', String(port)], {});
      expect(lines(check.stdout)).toContain(`FAIL  ${line}`);
      expect(check.code).toBe(1);
    } finally {
      await new Promise<void>((resolve) => busy.close(() => resolve()));
    }
    // Free again: the check says so.
    const free = await run(['--check', '--http', '--port', String(port)], {});
    expect(lines(free.stdout)).toContain(`ok    --http: 127.0.0.1 port ${port} is free to listen on`);
  });

  it('--check --http: CHAIN_MCP_HTTP_TOKEN beside OAuth fails the check with the line the start gives', async () => {
    const env = {
      CHAIN_MCP_HTTP_TOKEN: 'token-1234567890abcdef',
      CHAIN_MCP_OAUTH_ISSUER: 'http://127.0.0.1:9/issuer',
      CHAIN_MCP_PUBLIC_URL: 'http://127.0.0.1:3000/mcp',
    };
    const line = 'CHAIN_MCP_HTTP_TOKEN and CHAIN_MCP_OAUTH_ISSUER: choose one; the shared token is the single-user mode, OAuth gives each user their own token';
    const start = await run(['--http', '--port', '0'], env);
    expect(lines(start.stderr)).toEqual([`chain-mcp: ${line}`]);
    expect(start.code).toBe(2);
    const check = await run(['--check', '--http', '--port', '0'], env);
    expect(lines(check.stdout)).toContain(`FAIL  ${line}`);
    expect(check.code).toBe(1);
  });

  it('--devnet beside a configured node URL: a warning that the simulator replaces it', async () => {
    const env = { CHAIN_MCP_NODE_URL: 'https://user:pw@columbus.camino.network', XDG_CONFIG_HOME: join(dir, 'devnet-config') };
    const line = '--devnet: the simulator replaces CHAIN_MCP_NODE_URL (https://columbus.camino.network); drop --devnet to use that node';
    const start = await run(['--devnet'], env);
    expect(lines(start.stderr)).toContain(`chain-mcp: ${line}`);
    expect(start.stderr).not.toContain('pw@');
    const check = await run(['--devnet', '--check'], env);
    expect(lines(check.stdout)).toContain(`warn  ${line}`);
  });
});
