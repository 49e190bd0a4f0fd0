import { createCipheriv, randomBytes, scryptSync } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { send } from '../helpers/raw-http.js';
import { ApprovalBook } from '../../src/approval/book.js';
import { ApprovalPages } from '../../src/approval/page.js';
import { UnlockForm } from '../../src/approval/unlock.js';
import { createLogger } from '../../src/log.js';
import { addressesOfKey, openKeyFile, writeKeyFile } from '../../src/signer/index.js';

/*
 * The unlock form's own promises (issue 40 item 5, src/approval/unlock.ts): each page token paces
 * on its own, a pause lasts exactly one minute from the fifth wrong passphrase in a row, each form
 * is used once and lives ten minutes, a page token lives ten minutes and at most sixteen are
 * handed out at once, the terminal's lives as long as the process; and the page's routes to it
 * (src/approval/page.ts): only the exact path, a bounded form, no page without a key.
 */

const KEY = Uint8Array.from(Buffer.from('56289e99c94b6912bfc12adc093c9b51124f0dc54ac7a766b2bc5ccf558d8027', 'hex'));
const PASSPHRASE = 'a long passphrase, typed';
// Cheap scrypt for tests only: the format and the code path are the same as with STRONG_SCRYPT.
const CHEAP = { N: 2 ** 10, r: 8, p: 1 };
const dir = mkdtempSync(join(tmpdir(), 'chain-mcp-unlock-form-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;

async function form(opts: { file?: string } = {}) {
  const file = opts.file ?? join(dir, `k${n++}`, 'key.json');
  if (!opts.file) await writeKeyFile(file, KEY, PASSPHRASE, CHEAP);
  const signer = openKeyFile(file, { idleMinutes: 15 });
  const logs: Array<Record<string, unknown>> = [];
  const log = createLogger('debug', [], { write: (line: string) => logs.push(JSON.parse(line) as Record<string, unknown>) });
  let now = 5_000_000;
  const unlock = new UnlockForm(signer, log, 15, () => now);
  /** A fresh form of this page token, as a page load gives it. */
  const load = (token: string) => /name="csrf" value="([^"]+)"/.exec(unlock.show(token).body)?.[1] ?? '';
  const post = (token: string, csrf: string, passphrase: string) => unlock.post(token, new URLSearchParams({ csrf, passphrase }));
  return { signer, unlock, logs, load, post, tick: (ms: number) => (now += ms) };
}

const csrfIn = (body: string) => /name="csrf" value="([^"]+)"/.exec(body)?.[1];

describe('the unlock form: page tokens', () => {
  it("an elicited page token lives ten minutes to the millisecond (a new one issued then does not sweep it); the terminal's never ends", async () => {
    const { unlock, tick } = await form();
    const token = unlock.issue();
    expect(unlock.show(token).status).toBe(200);
    tick(10 * 60_000);
    // Issuing another at its last millisecond sweeps only tokens already past their time.
    const next = unlock.issue();
    expect(unlock.matches(token)).toBe(true);
    expect(unlock.show(token)).toMatchObject({ status: 200, title: 'Unlock the signing key' });
    tick(1);
    expect(unlock.matches(token)).toBe(false);
    expect(unlock.show(token)).toEqual({ status: 404, title: 'Not found', body: '<p>No unlock page is at this address.</p>' });
    expect(unlock.matches(next)).toBe(true);
    tick(365 * 86_400_000);
    unlock.issue();
    expect(unlock.show(unlock.terminalToken).status).toBe(200);
    expect(unlock.matches('made-up-token-made-up-token')).toBe(false);
    expect(unlock.show('made-up-token-made-up-token').status).toBe(404);
  });

  it("at most sixteen elicited page tokens at once: the seventeenth pushes out the oldest only, never the terminal's", async () => {
    const { unlock } = await form();
    const tokens = Array.from({ length: 17 }, () => unlock.issue());
    expect(new Set(tokens).size).toBe(17);
    expect(unlock.matches(tokens[0]!)).toBe(false);
    for (const token of tokens.slice(1)) expect(unlock.matches(token)).toBe(true);
    expect(unlock.matches(unlock.terminalToken)).toBe(true);
    unlock.issue();
    expect(unlock.matches(tokens[1]!)).toBe(false);
    expect(unlock.matches(tokens[2]!)).toBe(true);
    expect(unlock.matches(unlock.terminalToken)).toBe(true);
  });
});

describe('the unlock form: forms', () => {
  it('each page load gives a form of its own; one loaded earlier still posts after later loads, once', async () => {
    const { unlock, load, post } = await form();
    const first = load(unlock.terminalToken);
    const second = load(unlock.terminalToken);
    expect(second).not.toBe(first);
    expect(await post(unlock.terminalToken, first, 'not it, the first form')).toMatchObject({ status: 403, title: 'Wrong passphrase' });
    expect(await post(unlock.terminalToken, first, PASSPHRASE)).toMatchObject({ status: 403, title: 'Refused' });
    // A form of one page token is no form of another's.
    const other = unlock.issue();
    expect(await post(other, second, PASSPHRASE)).toMatchObject({ status: 403, title: 'Refused' });
    expect(await post(unlock.terminalToken, second, PASSPHRASE)).toMatchObject({ status: 200, title: 'Key unlocked' });
  });

  it('holds twenty forms per page token: the twenty-first load pushes out the first, and only it', async () => {
    const { signer, unlock, load, post } = await form();
    const forms = Array.from({ length: 21 }, () => load(unlock.terminalToken));
    expect(await post(unlock.terminalToken, forms[0]!, PASSPHRASE)).toMatchObject({ status: 403, title: 'Refused' });
    expect(signer.isUnlocked()).toBe(false);
    expect(await post(unlock.terminalToken, forms[1]!, PASSPHRASE)).toMatchObject({ status: 200, title: 'Key unlocked' });
    expect(signer.isUnlocked()).toBe(true);
  });

  it('a form lives ten minutes to the millisecond: a load at its last millisecond keeps it, the next millisecond it is refused', async () => {
    const { signer, unlock, load, post, tick } = await form();
    const early = load(unlock.terminalToken);
    const late = load(unlock.terminalToken);
    tick(10 * 60_000);
    load(unlock.terminalToken);
    expect(await post(unlock.terminalToken, early, 'not it, at the last millisecond')).toMatchObject({ status: 403, title: 'Wrong passphrase' });
    tick(1);
    expect(await post(unlock.terminalToken, late, PASSPHRASE)).toMatchObject({ status: 403, title: 'Refused' });
    expect(signer.isUnlocked()).toBe(false);
  });

  it('a post without a form token or without a passphrase is refused or counted wrong, never unlocks', async () => {
    const { signer, unlock, load } = await form();
    expect(await unlock.post(unlock.terminalToken, new URLSearchParams({ passphrase: PASSPHRASE }))).toMatchObject({ status: 403, title: 'Refused' });
    const csrf = load(unlock.terminalToken);
    expect(await unlock.post(unlock.terminalToken, new URLSearchParams({ csrf }))).toMatchObject({ status: 403, title: 'Wrong passphrase' });
    expect(signer.isUnlocked()).toBe(false);
  });
});

describe('the unlock form: wrong passphrases', () => {
  it('the fifth wrong one in a row pauses the page token for exactly a minute, and its answer says so with no form', async () => {
    const { signer, unlock, logs, load, post, tick } = await form();
    const t = unlock.terminalToken;
    for (let i = 1; i <= 4; i++) {
      const r = await post(t, load(t), `wrong guess ${i}`);
      expect(r).toMatchObject({ status: 403, title: 'Wrong passphrase' });
      // Another try right away: a fresh form in the answer.
      expect(csrfIn(r.body)).toBeDefined();
      expect(r.body).not.toContain('Reload it in a minute');
    }
    const fifth = await post(t, load(t), 'wrong guess 5');
    expect(fifth.status).toBe(403);
    expect(fifth.body).toBe(
      '<p role="alert" class="error">Wrong passphrase. The key stays locked. Try again below.</p><p>Too many wrong passphrases on this page. Reload it in a minute to try again.</p>',
    );
    tick(59_999);
    expect(await post(t, load(t), PASSPHRASE)).toMatchObject({ status: 429, title: 'Wait a minute' });
    expect(signer.isUnlocked()).toBe(false);
    expect(logs.at(-1)).toMatchObject({ audit: 'unlock_refused', channel: 'page', why: 'paused', msg: 'unlock form paused after wrong passphrases' });
    expect(logs.filter((l) => l.why === 'passphrase')).toHaveLength(5);
    tick(1);
    // The minute is up: the count starts again from zero (one wrong guess does not pause it again).
    const again = await post(t, load(t), 'wrong guess 6');
    expect(again).toMatchObject({ status: 403, title: 'Wrong passphrase' });
    expect(csrfIn(again.body)).toBeDefined();
    expect(await post(t, csrfIn(again.body)!, PASSPHRASE)).toMatchObject({ status: 200, title: 'Key unlocked' });
  });

  it('a right passphrase starts the count again: four wrong, right, then four wrong after a lock still do not pause', async () => {
    const { signer, unlock, load, post } = await form();
    const t = unlock.terminalToken;
    for (let i = 0; i < 4; i++) expect((await post(t, load(t), `wrong ${i}`)).status).toBe(403);
    expect((await post(t, load(t), PASSPHRASE)).status).toBe(200);
    signer.lock();
    for (let i = 0; i < 4; i++) expect((await post(t, load(t), `wrong again ${i}`)).status).toBe(403);
    expect((await post(t, load(t), PASSPHRASE)).status).toBe(200);
    expect(signer.isUnlocked()).toBe(true);
    signer.lock();
  });

  it('a key file that cannot be unlocked for another reason: 500 with the reason, escaped, logged as unlock_failed; never counted as a wrong guess', async () => {
    // A file whose encrypted key is not the one its clear addresses name (the format, built by hand).
    const other = addressesOfKey(Uint8Array.from(Buffer.alloc(32, 0x11)));
    const pub = { shortId: Buffer.from(other.shortId).toString('hex'), publicKey: Buffer.from(other.publicKey).toString('hex'), evm: other.evm };
    const salt = randomBytes(16);
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', scryptSync(PASSPHRASE.normalize('NFKC'), salt, 32, { ...CHEAP, maxmem: 512 * 1024 * 1024 }), iv);
    cipher.setAAD(Buffer.from(JSON.stringify(pub)));
    const data = Buffer.concat([cipher.update(KEY), cipher.final()]);
    const file = join(dir, `a<b>&${n++}`, 'key.json');
    mkdirSync(join(file, '..'), { recursive: true });
    writeFileSync(
      file,
      JSON.stringify({
        format: 'chain-mcp-key',
        version: 1,
        public: pub,
        kdf: { name: 'scrypt', salt: salt.toString('base64url'), ...CHEAP },
        cipher: { name: 'aes-256-gcm', iv: iv.toString('base64url'), tag: cipher.getAuthTag().toString('base64url'), data: data.toString('base64url') },
      }),
    );
    const { signer, unlock, logs, load, post } = await form({ file });
    const t = unlock.terminalToken;
    for (let i = 0; i < 6; i++) {
      const r = await post(t, load(t), PASSPHRASE);
      expect(r).toEqual({ status: 500, title: 'Not unlocked', body: `<p>${file.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')}: the key does not match the addresses stored beside it; the file is damaged</p>` });
    }
    expect(signer.isUnlocked()).toBe(false);
    expect(logs.filter((l) => l.audit === 'unlock_failed')).toHaveLength(6);
    expect(logs.find((l) => l.audit === 'unlock_failed')).toMatchObject({ channel: 'page', err: expect.stringContaining('the file is damaged') });
    expect(JSON.stringify(logs)).not.toContain(PASSPHRASE);
  });
});

describe('the unlock page on the approval server', () => {
  it('answers only its exact path: nothing before /unlock/ and nothing after the page token', async () => {
    const { signer, unlock } = await form();
    const pages = new ApprovalPages(new ApprovalBook(Date.now), createLogger('silent', []), undefined, unlock);
    try {
      const url = (await pages.unlockUrl())!;
      const origin = new URL(url).origin;
      expect((await send(url, 'GET')).status).toBe(200);
      expect((await send(`${origin}/x/unlock/${unlock.terminalToken}`, 'GET')).status).toBe(404);
      expect((await send(`${url}/x`, 'GET')).status).toBe(404);
      expect((await send(`${url}x`, 'GET')).status).toBe(404);
      const csrf = csrfIn((await send(url, 'GET')).text)!;
      const headers = { origin, 'content-type': 'application/x-www-form-urlencoded' };
      const body = `csrf=${encodeURIComponent(csrf)}&passphrase=${encodeURIComponent(PASSPHRASE)}`;
      expect((await send(`${origin}/x/unlock/${unlock.terminalToken}`, 'POST', headers, body)).status).toBe(404);
      expect((await send(`${url}/x`, 'POST', headers, body)).status).toBe(404);
      expect(signer.isUnlocked()).toBe(false);
      expect((await send(url, 'POST', headers, body)).status).toBe(200);
      expect(signer.isUnlocked()).toBe(true);
      signer.lock();
    } finally {
      await pages.close();
    }
  });

  it('refuses a post from another origin with an audit line, unlocking nothing', async () => {
    const { signer, unlock } = await form();
    const lines: Array<Record<string, unknown>> = [];
    const log = createLogger('info', [], { write: (line: string) => lines.push(JSON.parse(line) as Record<string, unknown>) });
    const pages = new ApprovalPages(new ApprovalBook(Date.now), log, undefined, unlock);
    try {
      const url = (await pages.unlockUrl())!;
      const csrf = csrfIn((await send(url, 'GET')).text)!;
      const r = await send(url, 'POST', { origin: 'http://127.0.0.1:1', 'content-type': 'application/x-www-form-urlencoded' }, `csrf=${encodeURIComponent(csrf)}&passphrase=${encodeURIComponent(PASSPHRASE)}`);
      expect(r.status).toBe(403);
      expect(r.text).toContain('<p>The key is unlocked only from this page itself.</p>');
      expect(lines.map(({ audit, channel, why, msg }) => ({ audit, channel, why, msg }))).toEqual([
        { audit: 'unlock_refused', channel: 'page', why: 'origin', msg: 'unlock form refused a foreign origin' },
      ]);
      expect(signer.isUnlocked()).toBe(false);
    } finally {
      await pages.close();
    }
  });

  it('takes an unlock form up to 16 KB and refuses a larger one unread, unlocking nothing', async () => {
    const { signer, unlock } = await form();
    const pages = new ApprovalPages(new ApprovalBook(Date.now), createLogger('silent', []), undefined, unlock);
    try {
      const url = (await pages.unlockUrl())!;
      const headers = { origin: new URL(url).origin, 'content-type': 'application/x-www-form-urlencoded' };
      const formOf = async (size: number) => {
        const base = `csrf=${encodeURIComponent(csrfIn((await send(url, 'GET')).text)!)}&passphrase=${encodeURIComponent(PASSPHRASE)}&pad=`;
        return base + 'x'.repeat(size - base.length);
      };
      const large = await send(url, 'POST', headers, await formOf(16_385));
      expect(large.status).toBe(413);
      expect(large.text).toContain('<title>Too large</title>');
      expect(signer.isUnlocked()).toBe(false);
      expect((await send(url, 'POST', headers, await formOf(16_384))).status).toBe(200);
      expect(signer.isUnlocked()).toBe(true);
      signer.lock();
    } finally {
      await pages.close();
    }
  });

  it('without a local key there is no unlock page at any token', async () => {
    const book = new ApprovalBook(Date.now);
    const pages = new ApprovalPages(book, createLogger('silent', []));
    try {
      const approval = await book.open('nonce-unlockless', { tool: 't', title: 't', lines: [] }, Date.now() + 60_000);
      const origin = new URL(await pages.url(approval)).origin;
      const r = await send(`${origin}/unlock/${'A'.repeat(32)}`, 'GET');
      expect(r.status).toBe(404);
      expect(r.text).toContain('<title>Not found</title>');
    } finally {
      await pages.close();
    }
  });
});
