import { spawn } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Devnet, startDevnet } from '../../src/devnet/index.js';
import { MAIN } from '../helpers/stack.js';

const ROOT = new URL('../..', import.meta.url).pathname;

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a command to its end with stdin closed at once (a stdio server then shuts down by itself). */
function run(command: string, args: readonly string[], env: Record<string, string>, cwd = ROOT): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env: { PATH: process.env.PATH ?? '', ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
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

/** The built chain-mcp with only `env` set, logs off, so stderr holds only the lines under test. */
const chainMcp = (env: Record<string, string>, args: readonly string[] = []) =>
  run(process.execPath, [MAIN, ...args], { CHAIN_MCP_NODE_URL: 'http://127.0.0.1:9', CHAIN_MCP_LOG_LEVEL: 'silent', ...env });

const lines = (text: string) => text.split('\n').filter((l) => l.length > 0);

describe('a mistake at start gets one line (issue 23)', () => {
  it('a misspelled CHAIN_MCP_* name warns with the nearest real name and the server still starts', async () => {
    const r = await chainMcp({ CHAIN_MCP_ALOW_SPEND: 'true', CHAIN_MCP_INDEXR_URL: 'http://127.0.0.1:9', CHAIN_MCP_BANANA: 'x' });
    expect(lines(r.stderr)).toEqual([
      'chain-mcp: CHAIN_MCP_ALOW_SPEND is not a chain-mcp setting; did you mean CHAIN_MCP_ALLOW_SPEND?',
      'chain-mcp: CHAIN_MCP_BANANA is not a chain-mcp setting; see chain-mcp --help for the settings',
      'chain-mcp: CHAIN_MCP_INDEXR_URL is not a chain-mcp setting; did you mean CHAIN_MCP_INDEXER_URL?',
    ]);
    expect(r.code).toBe(0);
  });

  it('the simulator and the settings other features add are known names, not warned about', async () => {
    const r = await chainMcp({
      CHAIN_MCP_DEVNET_DIALECT: 'spec',
      CHAIN_MCP_MAX_SPEND_PER_DAY: '5',
      CHAIN_MCP_APPROVAL_LINK: 'plain',
      CHAIN_MCP_HTTP_TOKEN: 'token-1234567890ab',
      CHAIN_MCP_PASSKEY_FILE: '/tmp/x',
    });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
  });

  it.each([
    [{ CHAIN_MCP_TOOLS: 'nonexistent' }, 'chain-mcp: CHAIN_MCP_TOOLS: unknown tool "nonexistent"; no tool has a name like it (names are the toolset, then the method: xvm_getBalance)'],
    [{ CHAIN_MCP_TOOLS: 'info_getNodeID,xvm_getBalence' }, 'chain-mcp: CHAIN_MCP_TOOLS: unknown tool "xvm_getBalence"; did you mean "xvm_getBalance"?'],
    [{ CHAIN_MCP_EXCLUDE_TOOLS: 'info_getNodeVerson' }, 'chain-mcp: CHAIN_MCP_EXCLUDE_TOOLS: unknown tool "info_getNodeVerson"; did you mean "info_getNodeVersion"?'],
    [
      { CHAIN_MCP_TOOLSETS: 'info,platfrom' },
      'chain-mcp: CHAIN_MCP_TOOLSETS: unknown toolset "platfrom"; did you mean "platform"? (expected "all" or some of: info, platform, xvm, wallet, evm, cx, indexer, keystore, auth, admin, runner, assistant)',
    ],
    [
      { CHAIN_MCP_ALLOWED_RECIPIENTS: 'notanaddress' },
      'chain-mcp: CHAIN_MCP_ALLOWED_RECIPIENTS: "notanaddress" is not an address: expected an address with a chain prefix (X-... or P-... or C-...), got "notanaddress"',
    ],
    [
      // A one-letter typo in a real address: the checksum catches it.
      { CHAIN_MCP_ALLOWED_RECIPIENTS: '0x3535353535353535353535353535353535353535,X-local1x56n2df4x56n2df4x56n2df4x56n2df430njcq' },
      'chain-mcp: CHAIN_MCP_ALLOWED_RECIPIENTS: "X-local1x56n2df4x56n2df4x56n2df4x56n2df430njcq" is not an address: bad bech32 checksum: the address has a typo',
    ],
    [{ CHAIN_MCP_ALLOWED_RECIPIENTS: '0x1234' }, 'chain-mcp: CHAIN_MCP_ALLOWED_RECIPIENTS: "0x1234" is not an address: expected 0x and 40 hex digits'],
  ])('%o stops the start with one line', async (env, line) => {
    const r = await chainMcp(env);
    expect(lines(r.stderr)).toEqual([line]);
    expect(r.code).toBe(2);
  });

  it('accepts valid recipients of every form the spend guard compares', async () => {
    const r = await chainMcp({
      CHAIN_MCP_ALLOWED_RECIPIENTS: '0x3535353535353535353535353535353535353535, 0xABCDEFabcdef0123456789012345678901234567,X-local1x56n2df4x56n2df4x56n2df4x56n2df430njcz',
    });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
  });

  it('allow_spend without any signer: one line saying spend tools stay hidden and how to make a key', async () => {
    const r = await chainMcp({ CHAIN_MCP_ALLOW_SPEND: 'true', XDG_CONFIG_HOME: '/nonexistent-config' });
    expect(lines(r.stderr)).toEqual([
      'chain-mcp: CHAIN_MCP_ALLOW_SPEND is on, but spend tools stay hidden: nothing can sign (no key file at /nonexistent-config/chain-mcp/key.json, no keystore user); make a key with `chain-mcp key new` (or `chain-mcp key import`) in a terminal, or set CHAIN_MCP_KEYSTORE_USER and CHAIN_MCP_KEYSTORE_PASSWORD',
    ]);
    expect(r.code).toBe(0);
  });

  it('allow_admin without a keystore user: one line saying which admin tools cannot work', async () => {
    const r = await chainMcp({ CHAIN_MCP_ALLOW_ADMIN: 'true' });
    expect(lines(r.stderr)).toHaveLength(1);
    expect(r.stderr).toMatch(/^chain-mcp: CHAIN_MCP_ALLOW_ADMIN is on without a keystore user: the keystore_\* .*CHAIN_MCP_KEYSTORE_PASSWORD are set\n$/);
  });

  it('--http on a port in use: one line naming the port, no stack trace, non-zero exit', async () => {
    const busy = createServer();
    await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
    const { port } = busy.address() as { port: number };
    try {
      const r = await chainMcp({}, ['--http', '--port', String(port)]);
      expect(lines(r.stderr)).toEqual([
        `chain-mcp: --port ${port}: the port is in use on 127.0.0.1 (another chain-mcp?); stop what uses it or choose another with --port N`,
      ]);
      expect(r.code).toBe(2);
    } finally {
      await new Promise<void>((resolve) => busy.close(() => resolve()));
    }
  });

  it('--help lists --max-spend and --expect-network-id', async () => {
    const r = await chainMcp({}, ['--help']);
    expect(r.stdout).toMatch(/^ {2}--max-spend N +CHAIN_MCP_MAX_SPEND/m);
    expect(r.stdout).toMatch(/^ {2}--expect-network-id ID\n +CHAIN_MCP_EXPECT_NETWORK_ID/m);
  });
});

describe('the doctor (chain-mcp --check, npm run doctor)', () => {
  let devnet: Devnet;
  beforeAll(async () => {
    devnet = await startDevnet({ dialect: 'camino', keystoreApi: true });
  });
  afterAll(() => devnet.close());

  const env = () => ({
    CHAIN_MCP_NODE_URL: devnet.nodeUrl,
    CHAIN_MCP_INDEXER_URL: devnet.indexerUrl!,
    CHAIN_MCP_KEYSTORE_USER: devnet.keystore.username,
    CHAIN_MCP_KEYSTORE_PASSWORD: devnet.keystore.password,
    CHAIN_MCP_TIMEOUT_MS: '3000',
  });

  it('a wrong keystore password: one FAIL line, exit 1', async () => {
    const r = await run(process.execPath, [MAIN, '--check'], { ...env(), CHAIN_MCP_KEYSTORE_PASSWORD: 'Wrong-pass-1!' });
    const keystore = lines(r.stdout).filter((l) => /keystore/i.test(l) && !l.startsWith('ok    tiers'));
    expect(keystore).toEqual([
      `FAIL  CHAIN_MCP_KEYSTORE_PASSWORD does not open keystore user "${devnet.keystore.username}" (the node says: incorrect password); wallet and spend tools will fail until it is fixed`,
      `ok    signer: keystore user "${devnet.keystore.username}" (the node signs)`,
    ]);
    expect(r.stdout).not.toContain('Wrong-pass-1!');
    expect(r.code).toBe(1);
  });

  it('the right password: ok, and the report has no log line on either stream (log level left at its default)', async () => {
    const r = await run(process.execPath, [MAIN, '--check'], env());
    expect(r.stdout).toContain(`ok    keystore API enabled; user "${devnet.keystore.username}" exists and the password opens it`);
    expect(r.stderr).toBe('');
    for (const line of lines(r.stdout)) expect(line).toMatch(/^(chain-mcp \S+ check|(ok {4}|warn {2}|FAIL {2}).+)$/);
    expect(r.code).toBe(0);
  });

  it('a misspelled name is the first line of the report, not a stray stderr line', async () => {
    const r = await run(process.execPath, [MAIN, '--check'], { ...env(), CHAIN_MCP_ALOW_SPEND: 'true' });
    expect(lines(r.stdout)[1]).toBe('warn  CHAIN_MCP_ALOW_SPEND is not a chain-mcp setting; did you mean CHAIN_MCP_ALLOW_SPEND?');
    expect(r.stderr).toBe('');
  });

  it('npm run doctor runs the built file without rebuilding it', async () => {
    const before = statSync(MAIN).mtimeMs;
    const r = await run('npm', ['run', '--silent', 'doctor'], env());
    expect(r.stdout).toMatch(/^chain-mcp \S+ check\n/);
    expect(r.code).toBe(0);
    expect(statSync(MAIN).mtimeMs).toBe(before);
  });

  it('npm run doctor without dist/: one line saying to build first', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'chain-mcp-nodist-'));
    try {
      copyFileSync(join(ROOT, 'package.json'), join(dir, 'package.json'));
      const r = await run('npm', ['run', '--silent', 'doctor'], {}, dir);
      expect(lines(r.stderr).filter((l) => !l.startsWith('npm warn'))).toEqual(['chain-mcp: dist/ is missing; run npm run build first']);
      expect(r.code).not.toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
