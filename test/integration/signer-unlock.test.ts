import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cb58Encode } from '../../src/codec/cb58.js';
import { type Devnet, startDevnet } from '../../src/devnet/index.js';
import { writeKeyFile } from '../../src/signer/keyfile.js';
import { MAIN, stdioStack } from '../helpers/stack.js';

const KEY_HEX = '56289e99c94b6912bfc12adc093c9b51124f0dc54ac7a766b2bc5ccf558d8027';
const KEY = Buffer.from(KEY_HEX, 'hex');
const PASSPHRASE = 'unlock page passphrase 42';
/** Every form of the secrets that must never show: the passphrase, the key as hex, cb58 and base64. */
const SECRETS = [PASSPHRASE, KEY_HEX, cb58Encode(KEY), KEY.toString('base64'), KEY.toString('base64url')];

/** Waits (bounded) until `read()` holds `text`: log lines reach the pipe a little after they are written. */
async function until(read: () => string, text: string): Promise<void> {
  for (let i = 0; i < 200 && !read().includes(text); i++) await sleep(25);
}

describe('unlocking the local key (a real server over stdio)', () => {
  let devnet: Devnet;
  let dir: string;
  let keyFile: string;
  beforeAll(async () => {
    devnet = await startDevnet();
    dir = mkdtempSync(join(tmpdir(), 'chain-mcp-unlock-'));
    keyFile = join(dir, 'key.json');
    await writeKeyFile(keyFile, KEY, PASSPHRASE, { N: 1024, r: 8, p: 1 });
  });
  afterAll(async () => {
    await devnet.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('starts locked, logs the unlock page, and unlocks only with the passphrase typed there; no secret in any log line or result', async () => {
    const stack = await stdioStack({ devnet, env: { CHAIN_MCP_KEY_FILE: keyFile, CHAIN_MCP_LOG_LEVEL: 'info', XDG_CONFIG_HOME: dir } });
    try {
      await until(stack.stderr, 'signing key locked');
      const started = stack.stderr().split('\n').find((l) => l.includes('signing key locked')) ?? '';
      const url = (JSON.parse(started) as { unlockUrl: string }).unlockUrl;
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/unlock\/[A-Za-z0-9_-]{32}$/);
      const origin = new URL(url).origin;
      const form = async () => /name="csrf" value="([^"]+)"/.exec(await (await fetch(url)).text())?.[1] ?? '';
      const post = async (passphrase: string) =>
        fetch(url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', origin }, body: new URLSearchParams({ csrf: await form(), passphrase }) });

      const wrong = await post('a guess at the passphrase');
      expect(wrong.status).toBe(403);
      const wrongText = await wrong.text();
      expect(wrongText).toContain('Wrong passphrase.');
      expect((await fetch(url)).status).toBe(200);
      const ok = await post(PASSPHRASE);
      expect(ok.status).toBe(200);
      const okText = await ok.text();
      expect(await (await fetch(url)).text()).toContain('The key is unlocked.');

      const results = [await stack.call('info_getNetworkID'), await stack.call('xvm_getBalance', { address: 'X-local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u', assetID: 'CAM' })];
      await until(stack.stderr, '"audit":"key_unlocked"');
      const everything = [stack.stderr(), wrongText, okText, ...results.map((r) => `${r.text}${JSON.stringify(r.structured)}`)].join('\n');
      for (const secret of [...SECRETS, 'a guess at the passphrase']) expect(everything).not.toContain(secret);
      const audits = stack
        .stderr()
        .split('\n')
        .filter((l) => l.includes('"audit"'))
        .map((l) => (JSON.parse(l) as { audit: string }).audit);
      expect(audits).toEqual(['unlock_refused', 'key_unlocked']);
    } finally {
      await stack.close();
    }
  });

  it('a headless server unlocks from CHAIN_MCP_KEY_PASSPHRASE_FILE at start, and a wrong one stops the start with one line', async () => {
    const pass = join(dir, 'pass');
    writeFileSync(pass, `${PASSPHRASE}\n`, { mode: 0o600 });
    const stack = await stdioStack({ devnet, env: { CHAIN_MCP_KEY_FILE: keyFile, CHAIN_MCP_KEY_PASSPHRASE_FILE: pass, CHAIN_MCP_LOG_LEVEL: 'info', XDG_CONFIG_HOME: dir } });
    try {
      await until(stack.stderr, 'unlocked from CHAIN_MCP_KEY_PASSPHRASE_FILE');
      expect(stack.stderr()).toContain('"audit":"key_unlocked","channel":"passphrase-file"');
      for (const secret of SECRETS) expect(stack.stderr()).not.toContain(secret);
    } finally {
      await stack.close();
    }
    const wrong = join(dir, 'wrong');
    writeFileSync(wrong, 'not it at all\n', { mode: 0o600 });
    const run = spawnSync(process.execPath, [MAIN], {
      env: { PATH: process.env.PATH ?? '', CHAIN_MCP_NODE_URL: devnet.nodeUrl, CHAIN_MCP_KEY_FILE: keyFile, CHAIN_MCP_KEY_PASSPHRASE_FILE: wrong, XDG_CONFIG_HOME: dir },
      input: '',
      encoding: 'utf8',
    });
    expect(run.status).toBe(2);
    expect(run.stderr).toBe(`chain-mcp: CHAIN_MCP_KEY_PASSPHRASE_FILE: the passphrase in ${wrong} does not open ${keyFile}\n`);
    expect(run.stdout).toBe('');
  });

  it('loads the curve code only when the key is unlocked: a start with a locked key stays as light as before', async () => {
    const trace = join(dir, 'loaded.txt');
    writeFileSync(trace, '');
    // A module hook (node:module register) that writes down every module the server process loads.
    const hooks = `import { appendFileSync } from 'node:fs'; let file; export function initialize(d) { file = d.file; } export async function load(url, context, next) { appendFileSync(file, url + '\\n'); return next(url, context); }`;
    const registrar = `import { register } from 'node:module'; register(${JSON.stringify(`data:text/javascript,${encodeURIComponent(hooks)}`)}, import.meta.url, { data: { file: ${JSON.stringify(trace)} } });`;
    const stack = await stdioStack({
      devnet,
      env: { CHAIN_MCP_KEY_FILE: keyFile, CHAIN_MCP_LOG_LEVEL: 'info', XDG_CONFIG_HOME: dir, NODE_OPTIONS: `--import=data:text/javascript,${encodeURIComponent(registrar)}` },
    });
    try {
      await until(stack.stderr, 'signing key locked');
      await stack.call('info_getNetworkID');
      const loaded = () => readFileSync(trace, 'utf8');
      expect(loaded()).toContain('/dist/src/signer/keyfile.js');
      expect(loaded()).not.toContain('/@noble/curves/');
      expect(loaded()).not.toContain('/dist/src/signer/keys.js');
      // Unlocking is what loads it (so the trace above would have seen it).
      const url = (JSON.parse(stack.stderr().split('\n').find((l) => l.includes('signing key locked')) ?? '{}') as { unlockUrl: string }).unlockUrl;
      const csrf = /name="csrf" value="([^"]+)"/.exec(await (await fetch(url)).text())?.[1] ?? '';
      const ok = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin: new URL(url).origin },
        body: new URLSearchParams({ csrf, passphrase: PASSPHRASE }),
      });
      expect(ok.status).toBe(200);
      expect(loaded()).toContain('/@noble/curves/secp256k1.js');
      expect(loaded()).toContain('/dist/src/signer/keys.js');
    } finally {
      await stack.close();
    }
  });
});
