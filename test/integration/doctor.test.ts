import { execFile } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Devnet, startDevnet } from '../../src/devnet/index.js';
import { writeKeyFile } from '../../src/signer/keyfile.js';
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

  describe('the signer (DESIGN section 8), one exact line each', () => {
    const dir = mkdtempSync(join(tmpdir(), 'chain-mcp-doctor-key-'));
    const keyFile = join(dir, 'key.json');
    const passphrase = 'doctor test passphrase';
    const lines = (out: string) => out.split('\n');
    const LOCKED = `ok    key file ${keyFile}: present, C address 0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC, locked (the human unlocks it on the unlock page; it locks again after 15 minutes without a spend)`;
    beforeAll(async () => {
      // Cheap scrypt: the test is about the report, not the cost.
      await writeKeyFile(keyFile, Buffer.from('56289e99c94b6912bfc12adc093c9b51124f0dc54ac7a766b2bc5ccf558d8027', 'hex'), passphrase, { N: 1024, r: 8, p: 1 });
    });
    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    it('a key file: the local signer, present and locked; with the passphrase file, unlocked; a wrong one fails the check', async () => {
      const base = { CHAIN_MCP_NODE_URL: camino.nodeUrl, XDG_CONFIG_HOME: dir, CHAIN_MCP_KEY_FILE: keyFile };
      const locked = await check(base);
      expect(lines(locked.out)).toContain('ok    signer: local (this process signs with the key file)');
      expect(lines(locked.out)).toContain(LOCKED);
      expect(locked.code).toBe(0);

      const pass = join(dir, 'pass');
      writeFileSync(pass, `${passphrase}\n`, { mode: 0o600 });
      const unlocked = await check({ ...base, CHAIN_MCP_KEY_PASSPHRASE_FILE: pass });
      expect(lines(unlocked.out)).toContain(
        `ok    key file ${keyFile}: present, C address 0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC, unlocked (from CHAIN_MCP_KEY_PASSPHRASE_FILE; it stays unlocked while the server runs)`,
      );
      expect(unlocked.out).not.toContain(passphrase);

      const wrong = join(dir, 'wrong');
      writeFileSync(wrong, 'not the passphrase\n', { mode: 0o600 });
      const refused = await check({ ...base, CHAIN_MCP_KEY_PASSPHRASE_FILE: wrong });
      expect(lines(refused.out)).toContain(`FAIL  CHAIN_MCP_KEY_PASSPHRASE_FILE: the passphrase in ${wrong} does not open ${keyFile}`);
      expect(lines(refused.out)).toContain(LOCKED);
      expect(refused.out).not.toContain('not the passphrase');
      expect(refused.code).toBe(1);
    });

    it('a key file others can read: a warning to chmod it', async () => {
      chmodSync(keyFile, 0o644);
      try {
        const { out } = await check({ CHAIN_MCP_NODE_URL: camino.nodeUrl, CHAIN_MCP_KEY_FILE: keyFile });
        expect(lines(out)).toContain(`warn  CHAIN_MCP_KEY_FILE: ${keyFile} has mode 0644, so other users on this machine may read it; chmod 600 ${keyFile}`);
      } finally {
        chmodSync(keyFile, 0o600);
      }
    });

    it('no key file and no keystore user: no signer, the key file absent', async () => {
      const none = join(dir, 'none.json');
      const { out } = await check({ CHAIN_MCP_NODE_URL: camino.nodeUrl, CHAIN_MCP_KEY_FILE: none });
      expect(lines(out)).toContain('ok    signer: none, so spends stay off (make a key with `chain-mcp key new` or `chain-mcp key import` in a terminal, or set CHAIN_MCP_KEYSTORE_USER)');
      expect(lines(out)).toContain(`ok    key file ${none}: absent (\`chain-mcp key new\` or \`chain-mcp key import\` makes one)`);
    });

    it('a keystore user on a node whose keystore API answers 404: names the local signer as the fix', async () => {
      const { code, out } = await check({
        CHAIN_MCP_NODE_URL: noKeystore.nodeUrl,
        CHAIN_MCP_KEY_FILE: join(dir, 'none.json'),
        CHAIN_MCP_KEYSTORE_USER: 'alice',
        CHAIN_MCP_KEYSTORE_PASSWORD: 'alice password',
      });
      expect(lines(out)).toContain('ok    signer: keystore user "alice" (the node signs)');
      expect(lines(out)).toContain(
        'FAIL  keystore user "alice" is set, but the node\'s keystore API is disabled (404 on /ext/keystore): the node cannot sign with it; use the local signer instead (`chain-mcp key import` in a terminal, then CHAIN_MCP_SIGNER=local)',
      );
      expect(code).toBe(1);
    });

    it('spends on with secrets from the environment: one warning naming them and their _FILE', async () => {
      const { out } = await check({
        CHAIN_MCP_NODE_URL: camino.nodeUrl,
        CHAIN_MCP_KEY_FILE: keyFile,
        CHAIN_MCP_ALLOW_SPEND: 'true',
        CHAIN_MCP_KEYSTORE_USER: 'alice',
        CHAIN_MCP_KEYSTORE_PASSWORD: 'alice password',
        CHAIN_MCP_AUTH_TOKEN: 'node auth token value',
      });
      expect(lines(out)).toContain(
        "warn  spends are on and CHAIN_MCP_KEYSTORE_PASSWORD, CHAIN_MCP_AUTH_TOKEN come from the environment, which every process of the same OS user can read (/proc/<pid>/environ): use CHAIN_MCP_KEYSTORE_PASSWORD_FILE, CHAIN_MCP_AUTH_TOKEN_FILE with a file only chain-mcp's OS user reads",
      );
      const file = join(dir, 'ks');
      writeFileSync(file, 'alice password\n', { mode: 0o600 });
      const fromFile = await check({ CHAIN_MCP_NODE_URL: camino.nodeUrl, CHAIN_MCP_KEY_FILE: keyFile, CHAIN_MCP_ALLOW_SPEND: 'true', CHAIN_MCP_KEYSTORE_USER: 'alice', CHAIN_MCP_KEYSTORE_PASSWORD_FILE: file });
      expect(fromFile.out).not.toContain('come from the environment');
      expect(fromFile.out).not.toContain('comes from the environment');
    });

    it('spends on with exactly one secret from the environment: warned too, in the singular (issue 44)', async () => {
      const file = join(dir, 'ks-one');
      writeFileSync(file, 'alice password\n', { mode: 0o600 });
      const { out } = await check({
        CHAIN_MCP_NODE_URL: camino.nodeUrl,
        CHAIN_MCP_KEY_FILE: keyFile,
        CHAIN_MCP_ALLOW_SPEND: 'true',
        CHAIN_MCP_KEYSTORE_USER: 'alice',
        CHAIN_MCP_KEYSTORE_PASSWORD_FILE: file,
        CHAIN_MCP_AUTH_TOKEN: 'node auth token value',
      });
      expect(lines(out)).toContain(
        "warn  spends are on and CHAIN_MCP_AUTH_TOKEN comes from the environment, which every process of the same OS user can read (/proc/<pid>/environ): use CHAIN_MCP_AUTH_TOKEN_FILE with a file only chain-mcp's OS user reads",
      );
    });
  });
});
