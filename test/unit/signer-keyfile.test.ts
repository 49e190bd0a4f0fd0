import { readFileSync, statSync, writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { send } from '../helpers/raw-http.js';
import { ApprovalBook } from '../../src/approval/book.js';
import { ApprovalPages } from '../../src/approval/page.js';
import { UnlockForm } from '../../src/approval/unlock.js';
import { createLogger } from '../../src/log.js';
import { KeyFileError, openKeyFile, readKeyFileAddresses, SignerLockedError, WrongPassphraseError, writeKeyFile } from '../../src/signer/index.js';

const KEY_HEX = '56289e99c94b6912bfc12adc093c9b51124f0dc54ac7a766b2bc5ccf558d8027';
const KEY = Uint8Array.from(Buffer.from(KEY_HEX, 'hex'));
const PASSPHRASE = 'a long passphrase, typed';
// Cheap scrypt for tests only: the format and the code path are the same as with STRONG_SCRYPT.
const CHEAP = { N: 2 ** 10, r: 8, p: 1 };
const dir = mkdtempSync(join(tmpdir(), 'chain-mcp-keyfile-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
const newFile = async () => {
  const file = join(dir, `k${n++}`, 'key.json');
  await writeKeyFile(file, KEY, PASSPHRASE, CHEAP);
  return file;
};

describe('the key file', () => {
  afterEach(() => vi.useRealTimers());

  it('stores the key encrypted (0600, folder 0700) with the public addresses in clear, and unlocks only with the passphrase', async () => {
    const file = await newFile();
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(join(file, '..')).mode & 0o777).toBe(0o700);
    const text = readFileSync(file, 'utf8');
    expect(text).not.toContain(KEY_HEX);
    expect(text).not.toContain(Buffer.from(KEY).toString('base64url'));
    expect(JSON.parse(text).public.evm).toBe('0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC');
    expect(readKeyFileAddresses(file).evm).toBe('0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC');

    const signer = openKeyFile(file);
    expect(signer.isUnlocked()).toBe(false);
    const wrong = await signer.unlock('not the passphrase').catch((e: unknown) => e);
    expect(wrong).toBeInstanceOf(WrongPassphraseError);
    expect((wrong as Error).message).toBe('wrong passphrase: the key stays locked');
    expect(signer.isUnlocked()).toBe(false);
    await signer.unlock(PASSPHRASE);
    expect(signer.isUnlocked()).toBe(true);
    expect(signer.signHash(new Uint8Array(32).fill(3))).toHaveLength(65);
    signer.lock();
    expect(signer.isUnlocked()).toBe(false);
  });

  it('refuses a file whose clear addresses were swapped (they are bound to the ciphertext)', async () => {
    const file = await newFile();
    const json = JSON.parse(readFileSync(file, 'utf8'));
    json.public.evm = '0x0000000000000000000000000000000000000001';
    writeFileSync(file, JSON.stringify(json));
    const signer = openKeyFile(file);
    await expect(signer.unlock(PASSPHRASE)).rejects.toBeInstanceOf(WrongPassphraseError);
  });

  it('never replaces an existing key file, and names a missing or foreign file in one line', async () => {
    const file = await newFile();
    await expect(writeKeyFile(file, KEY, PASSPHRASE, CHEAP)).rejects.toThrow(`a key file already exists at ${file}; move it away first (it may hold funds)`);
    expect(() => openKeyFile(join(dir, 'none.json'))).toThrow(new KeyFileError(`no key file at ${join(dir, 'none.json')}`));
    const other = join(dir, 'other.json');
    writeFileSync(other, JSON.stringify({ format: 'chain-mcp-key', version: 1, kdf: { name: 'scrypt', N: 2 ** 30, r: 8, p: 1 } }));
    expect(() => openKeyFile(other)).toThrow(`${other} is not a chain-mcp key file (format chain-mcp-key, version 1)`);
  });

  it('says by default that the passphrase is typed on the approval page, and can be locked before any unlock', async () => {
    const signer = openKeyFile(await newFile());
    expect(() => signer.lock()).not.toThrow();
    expect(signer.lockedMessage()).toBe('The signing key is locked: the human unlocks it by typing the passphrase on the approval page. Nothing was signed.');
    expect(() => signer.signEvmDigest(new Uint8Array(32))).toThrow(
      new SignerLockedError('The signing key is locked: the human unlocks it by typing the passphrase on the approval page. Nothing was signed.'),
    );
    signer.setHowToUnlock(() => 'the human opens the page');
    expect(signer.lockedMessage()).toBe('The signing key is locked: the human opens the page. Nothing was signed.');
  });

  it('locks again after the idle minutes without a confirmed spend (signatures alone do not keep it open); the locked error says how to unlock and holds no secret', async () => {
    const file = await newFile();
    // Only the timers are faked: scrypt still runs on the thread pool.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const signer = openKeyFile(file, { idleMinutes: 1, howToUnlock: () => 'the human opens http://127.0.0.1:9/unlock/x' });
    await signer.unlock(PASSPHRASE);
    vi.advanceTimersByTime(59_000);
    signer.confirmedUse();
    vi.advanceTimersByTime(59_000);
    expect(signer.isUnlocked()).toBe(true);
    // A preview's signature (a transfer's export, signed to learn its ID) does not restart the wait.
    signer.signHash(new Uint8Array(32).fill(1));
    signer.signEvmDigest(new Uint8Array(32).fill(2));
    vi.advanceTimersByTime(1_000);
    expect(signer.isUnlocked()).toBe(false);
    // Nor does a confirmed use revive a locked key.
    signer.confirmedUse();
    expect(signer.isUnlocked()).toBe(false);
    const err = (() => {
      try {
        signer.signHash(new Uint8Array(32).fill(1));
      } catch (e) {
        return e as Error;
      }
    })();
    expect(err).toBeInstanceOf(SignerLockedError);
    expect(err?.message).toBe('The signing key is locked: the human opens http://127.0.0.1:9/unlock/x. Nothing was signed.');
    for (const secret of [PASSPHRASE, KEY_HEX]) expect(err?.message).not.toContain(secret);
  });
});

describe('the unlock form on the approval page', () => {
  async function setup() {
    const file = await newFile();
    const signer = openKeyFile(file, { idleMinutes: 15 });
    const logs: string[] = [];
    const log = createLogger('debug', [], { write: (line: string) => logs.push(line) });
    let now = 1_000_000;
    const pages = new ApprovalPages(new ApprovalBook(() => now), log, undefined, new UnlockForm(signer, log, 15, () => now));
    const url = (await pages.unlockUrl()) ?? '';
    const origin = new URL(url).origin;
    /** A form of the page at `at` (default: the terminal's page token). */
    const csrfOf = async (at = url) => /name="csrf" value="([^"]+)"/.exec((await send(at, 'GET')).text)?.[1] ?? '';
    const postAt = (at: string, csrf: string, passphrase: string, headers: Record<string, string> = { origin }) =>
      send(at, 'POST', { 'content-type': 'application/x-www-form-urlencoded', ...headers }, `csrf=${encodeURIComponent(csrf)}&passphrase=${encodeURIComponent(passphrase)}`);
    const post = (csrf: string, passphrase: string, headers?: Record<string, string>) => postAt(url, csrf, passphrase, headers);
    return { signer, pages, url, origin, logs, csrfOf, post, postAt, tick: (ms: number) => (now += ms) };
  }

  it('unlocks with the passphrase typed into the form, once per form; the passphrase is in no answer or log line', async () => {
    const { signer, pages, url, logs, csrfOf, post } = await setup();
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/unlock\/[A-Za-z0-9_-]{32}$/);
    // The terminal's address stays the same; each elicited one has a page token of its own.
    expect(await pages.unlockUrl()).toBe(url);
    const elicited = (await pages.newUnlockUrl()) ?? '';
    expect(new URL(elicited).origin).toBe(new URL(url).origin);
    expect([url, await pages.newUnlockUrl()]).not.toContain(elicited);
    const shown = await send(url, 'GET');
    expect(shown.status).toBe(200);
    expect(shown.text).toContain('<input type="password" name="passphrase"');
    expect(shown.text).toContain('0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC');

    const csrf = await csrfOf();
    const wrong = await post(csrf, 'wrong passphrase!');
    expect(wrong.status).toBe(403);
    expect(wrong.text).toContain('Wrong passphrase. The key stays locked.');
    // That form is used up, whatever its outcome.
    expect((await post(csrf, PASSPHRASE)).status).toBe(403);
    expect(signer.isUnlocked()).toBe(false);

    // The answer to a wrong passphrase is a working form again: its fresh token unlocks, no reload.
    const again = /name="csrf" value="([^"]+)"/.exec(wrong.text)?.[1];
    expect(again).toBeDefined();
    expect(again).not.toBe(csrf);
    const ok = await post(again!, PASSPHRASE);
    expect(ok.status).toBe(200);
    expect(ok.text).toContain('<strong>Unlocked.</strong>');
    expect(signer.isUnlocked()).toBe(true);
    expect((await send(url, 'GET')).text).toContain('The key is unlocked.');
    await pages.close();

    const all = [shown.text, wrong.text, ok.text, ...logs].join('\n');
    expect(all).not.toContain(PASSPHRASE);
    expect(all).not.toContain('wrong passphrase!');
    expect(all).not.toContain(KEY_HEX);
    expect(logs.map((l) => JSON.parse(l).audit)).toEqual(['unlock_refused', 'unlock_refused', 'key_unlocked']);
  });

  it('refuses a foreign or missing Origin, a foreign Host, a made-up form token and a wrong path, unlocking nothing', async () => {
    const { signer, pages, url, csrfOf, post } = await setup();
    expect((await post(await csrfOf(), PASSPHRASE, { origin: 'http://evil.example' })).status).toBe(403);
    expect((await post(await csrfOf(), PASSPHRASE, {})).status).toBe(403);
    // The page's own Origin, but the browser says the form came from another site.
    expect((await post(await csrfOf(), PASSPHRASE, { origin: new URL(url).origin, 'sec-fetch-site': 'cross-site' })).status).toBe(403);
    expect((await post('made-up-token-made-up-token', PASSPHRASE)).status).toBe(403);
    const port = new URL(url).port;
    expect((await send(url, 'GET', { host: `attacker.example:${port}` })).status).toBe(403);
    expect((await send(`${url.slice(0, -4)}AAAA`, 'GET')).status).toBe(404);
    expect((await send(url, 'PUT', { origin: new URL(url).origin })).status).toBe(405);
    expect(signer.isUnlocked()).toBe(false);
    await pages.close();
  });

  it('pauses a page token for a whole minute after five wrong passphrases, then takes the right one', async () => {
    const { signer, pages, csrfOf, post, tick } = await setup();
    for (let i = 0; i < 5; i++) expect((await post(await csrfOf(), `wrong ${i} passphrase`)).status).toBe(403);
    const paused = await post(await csrfOf(), PASSPHRASE);
    expect(paused.status).toBe(429);
    expect(signer.isUnlocked()).toBe(false);
    // Still paused a second before the minute is up: the pause is not shortened.
    tick(59_000);
    expect((await post(await csrfOf(), PASSPHRASE)).status).toBe(429);
    expect(signer.isUnlocked()).toBe(false);
    tick(1_001);
    expect((await post(await csrfOf(), PASSPHRASE)).status).toBe(200);
    expect(signer.isUnlocked()).toBe(true);
    await pages.close();
  });

  it("paces per page token: five wrong guesses and twenty page loads on one token neither pause nor push out the human's form on theirs", async () => {
    const { signer, pages, url, csrfOf, post, postAt } = await setup();
    const human = (await pages.newUnlockUrl()) ?? '';
    const humanForm = await csrfOf(human);
    // The other token (the model's, had it one): twenty loads, then five wrong guesses.
    const forms: string[] = [];
    for (let i = 0; i < 20; i++) forms.push(await csrfOf(url));
    for (let i = 0; i < 5; i++) expect((await post(forms[i]!, `guess ${i} at it`)).status).toBe(403);
    expect((await post(forms[5]!, PASSPHRASE)).status).toBe(429);
    // The human's form, loaded before all that, still posts and unlocks.
    const ok = await postAt(human, humanForm, PASSPHRASE);
    expect(ok.status).toBe(200);
    expect(signer.isUnlocked()).toBe(true);
    await pages.close();
  });

  it('checks concurrent guesses one at a time: of twenty at once, five are checked and fifteen wait out the pause', async () => {
    const { signer, pages, csrfOf, post } = await setup();
    const forms: string[] = [];
    for (let i = 0; i < 20; i++) forms.push(await csrfOf());
    const tried = vi.spyOn(signer, 'unlock');
    const answers = await Promise.all(forms.map((f, i) => post(f, `concurrent guess ${i}`)));
    expect(tried).toHaveBeenCalledTimes(5);
    expect(answers.filter((a) => a.status === 403)).toHaveLength(5);
    expect(answers.filter((a) => a.status === 429)).toHaveLength(15);
    // Every queued one paused, the right passphrase included.
    expect((await post(await csrfOf(), PASSPHRASE)).status).toBe(429);
    expect(signer.isUnlocked()).toBe(false);
    await pages.close();
  });

  it('an elicited page token expires after ten minutes; the terminal one does not', async () => {
    const { pages, url, tick } = await setup();
    const elicited = (await pages.newUnlockUrl()) ?? '';
    expect((await send(elicited, 'GET')).status).toBe(200);
    tick(10 * 60_000 + 1);
    expect((await send(elicited, 'GET')).status).toBe(404);
    expect((await send(url, 'GET')).status).toBe(200);
    await pages.close();
  });

  it('has no unlock page without a local key', async () => {
    const pages = new ApprovalPages(new ApprovalBook(Date.now), createLogger('silent', []));
    expect(await pages.unlockUrl()).toBeUndefined();
    expect(await pages.newUnlockUrl()).toBeUndefined();
  });
});

describe('the local signer in the services (what the spend path calls)', () => {
  it('opens the key file locked, and its refusal says where the human finds the unlock page without its address or any secret', async () => {
    const { loadConfig } = await import('../../src/config.js');
    const { Services } = await import('../../src/services.js');
    const file = await newFile();
    const services = new Services({ config: loadConfig({ CHAIN_MCP_KEY_FILE: file }), log: createLogger('silent', []) });
    try {
      expect(services.config.signer).toBe('local');
      expect(services.signer?.addresses.evm).toBe('0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC');
      expect(services.signer?.isUnlocked()).toBe(false);
      const message = await services.lockedKeyMessage();
      // The model reads this: it names where the human looks, never the page's address or token.
      expect(message).toBe(
        "The signing key is locked: the human opens the unlock page whose address chain-mcp's log (stderr, the host's MCP server log) names, and types the passphrase there (never in the chat). Nothing was signed.",
      );
      // The signer's own refusal says the same once the page runs.
      expect(() => services.signer?.signHash(new Uint8Array(32))).toThrow(new SignerLockedError(message));
      await services.signer?.unlock(PASSPHRASE);
      expect(services.signer?.signHash(new Uint8Array(32).fill(2))).toHaveLength(65);
    } finally {
      services.signer?.lock();
      await services.close();
    }
  });

  it('has no local signer under CHAIN_MCP_SIGNER=keystore, and a broken key file stops the start with one line', async () => {
    const { ConfigError, loadConfig } = await import('../../src/config.js');
    const { Services } = await import('../../src/services.js');
    const file = await newFile();
    const keystore = new Services({
      config: loadConfig({ CHAIN_MCP_KEY_FILE: file, CHAIN_MCP_SIGNER: 'keystore', CHAIN_MCP_KEYSTORE_USER: 'alice', CHAIN_MCP_KEYSTORE_PASSWORD: 'alice password' }),
      log: createLogger('silent', []),
    });
    expect(keystore.signer).toBeUndefined();
    await keystore.close();
    const broken = join(dir, 'broken.json');
    writeFileSync(broken, '{"format":"something else"}');
    expect(() => new Services({ config: loadConfig({ CHAIN_MCP_KEY_FILE: broken }), log: createLogger('silent', []) })).toThrow(
      new ConfigError(`CHAIN_MCP_KEY_FILE: ${broken} is not a chain-mcp key file (format chain-mcp-key, version 1)`),
    );
  });
});
