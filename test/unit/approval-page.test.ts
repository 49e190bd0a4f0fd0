import { createHash } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { connectionTo, send } from '../helpers/raw-http.js';
import { type Approval, ApprovalBook, MAX_PENDING, MAX_PENDING_PER_OWNER, tooManyPending } from '../../src/approval/book.js';
import { ApprovalPages, EXPIRY_SCRIPT } from '../../src/approval/page.js';
import { PasskeyStore, WEBAUTHN_SCRIPT_HASH } from '../../src/approval/passkey.js';
import { createLogger, silentLogger } from '../../src/log.js';

/** An approval's state as stored now (the book hands out snapshots). */
async function stateOf(book: ApprovalBook, approval: Approval) {
  return (await book.store.getApproval(approval.nonce))?.state;
}

async function setup(lines = ['To: X-local1abc', 'Amount: 1 CAM']) {
  let now = 1_000_000;
  const book = new ApprovalBook(() => now);
  const pages = new ApprovalPages(book, silentLogger());
  const approval = await book.open(`nonce-${Math.random()}`, { tool: 'xvm_send', title: 'Send <b>1</b> CAM', lines }, now + 300_000);
  const url = await pages.url(approval);
  return { book, approval, url, origin: new URL(url).origin, tick: (ms: number) => (now += ms) };
}

describe('the approval page (mutation survivors, issue 25)', () => {
  it('escapes every preview line and the title: stranger text can never become markup on the page that approves', async () => {
    const { url } = await setup([`Asset: "<script>alert(1)</script>" & 'x' <img src=x onerror=alert(2)>`]);
    const page = await send(url, 'GET');
    expect(page.status).toBe(200);
    expect(page.text).toContain('Asset: &quot;&lt;script&gt;alert(1)&lt;/script&gt;&quot; &amp; &#39;x&#39; &lt;img src=x onerror=alert(2)&gt;');
    expect(page.text).toContain('Approve: Send &lt;b&gt;1&lt;/b&gt; CAM');
    expect(page.text).not.toContain('<script>alert');
    expect(page.text).not.toContain('<img');
  });

  it('answers only its exact path: nothing before /approve/ and nothing after the token', async () => {
    const { url, origin, approval } = await setup();
    expect((await send(`${origin}/x/approve/${approval.token}`, 'GET')).status).toBe(404);
    expect((await send(`${url}/more`, 'GET')).status).toBe(404);
    expect((await send(url, 'GET')).status).toBe(200);
  });

  it('decides only on a POST of approve or decline: another method or decision changes nothing', async () => {
    const { url, origin, approval, book } = await setup();
    const form = (decision: string) => `csrf=${encodeURIComponent(approval.csrf)}&decision=${decision}`;
    const headers = { origin, 'content-type': 'application/x-www-form-urlencoded' };
    expect((await send(url, 'PUT', headers)).status).toBe(405);
    expect((await send(url, 'DELETE', headers)).status).toBe(405);
    expect((await send(url, 'POST', headers, form('maybe'))).status).toBe(400);
    expect(await stateOf(book, approval)).toBe('pending');
    expect((await send(url, 'POST', headers, form('decline'))).status).toBe(200);
    expect(await stateOf(book, approval)).toBe('declined');
  });

  it('an approval expires at its time, not a moment later, and the page says so', async () => {
    const { book, approval, url, tick } = await setup();
    tick(300_000);
    expect(await book.lookup(approval.token)).toEqual(approval);
    tick(1);
    expect(await book.lookup(approval.token)).toBe('expired');
    expect((await send(url, 'GET')).status).toBe(410);
  });

  it(`holds at most ${MAX_PENDING_PER_OWNER} live approvals per owner and ${MAX_PENDING} in all: the next preview is refused, none is dropped`, async () => {
    const book = new ApprovalBook(() => 0);
    const facts = { tool: 't', title: 't', lines: [] };
    for (let i = 0; i < MAX_PENDING_PER_OWNER; i++) await book.open(`a${i}`, facts, 1000, 'alice');
    // Alice's share is full: hers is refused (before and at the store), Bob's is not.
    await expect(book.ensureRoom('alice')).rejects.toThrow(`Refused: ${MAX_PENDING_PER_OWNER} of your previews are already waiting`);
    await expect(book.open('alice-more', facts, 1000, 'alice')).rejects.toThrow(`Refused: ${MAX_PENDING_PER_OWNER} of your previews are already waiting`);
    await book.ensureRoom('bob');
    await book.open('bob-0', facts, 1000, 'bob');
    // Every owner together: the server's bound, larger, still holds.
    for (let o = 1; o * MAX_PENDING_PER_OWNER < MAX_PENDING; o++) {
      for (let i = o === 1 ? 1 : 0; i < MAX_PENDING_PER_OWNER; i++) await book.open(`o${o}-${i}`, facts, 1000, `owner-${o}`);
    }
    expect(await book.store.liveApprovals(0)).toBe(MAX_PENDING);
    await expect(book.ensureRoom('carol')).rejects.toThrow(`Refused: ${MAX_PENDING} previews (of every user) are already waiting`);
    await expect(book.open('carol-0', facts, 1000, 'carol')).rejects.toThrow(`Refused: ${MAX_PENDING} previews (of every user) are already waiting`);
    expect(await book.get('a0')).toBeDefined();
    // The refusal tells the model what to do instead of looping on previews.
    expect(tooManyPending()).toMatchObject({ kind: 'policy', hint: expect.stringMatching(/^Ask the human to approve or decline the waiting previews.*Do not loop on previews\.$/) });
  });
});

describe('the approval book: expiry at the boundary and waiting (mutation survivors, issue 25)', () => {
  const facts = { tool: 't', title: 't', lines: [] };

  it('get, decide and sweep treat the expiry instant as still live and the next millisecond as gone', async () => {
    let now = 0;
    const book = new ApprovalBook(() => now);
    const a = await book.open('n1', facts, 100);
    const b = await book.open('n2', facts, 100);
    now = 100;
    expect(await book.get('n1')).toEqual(a);
    expect(await book.sweep()).toEqual([]);
    expect(await book.decide(a, 'approved', 'test')).toBe(true);
    now = 101;
    expect(await book.get('n2')).toBeUndefined();
    expect(await book.decide(b, 'approved', 'test')).toBe(false);
    expect(await book.sweep()).toEqual([{ ...a, state: 'approved', decidedBy: 'test', decisionSeal: expect.any(String) }, b]);
  });

  it('wait: at once for a decided approval or no time, at the decision, at the time limit, at the expiry, or on abort', async () => {
    let now = 0;
    const book = new ApprovalBook(() => now);
    const decided = await book.open('d', facts, 60_000);
    await book.decide(decided, 'declined', 'test');
    expect(await book.wait(decided, 60_000)).toBe('declined');
    const pending = await book.open('p', facts, 60_000);
    expect(await book.wait(pending, 0)).toBe('pending');

    const waiting = book.wait(pending, 60_000);
    setTimeout(() => void book.decide(pending, 'approved', 'test'), 5);
    expect(await waiting).toBe('approved');

    const slow = await book.open('s', facts, 60_000);
    expect(await book.wait(slow, 30)).toBe('pending');

    // Expiring 10 ms from now though 10 minutes were asked: the wait ends at the expiry (a wait
    // for the whole 10 minutes would hit the test's timeout).
    now = 59_990;
    const expiring = await book.open('e', facts, 60_000);
    expect(await book.wait(expiring, 600_000)).toBe('pending');

    const aborted = await book.open('a', facts, 600_000);
    const controller = new AbortController();
    const w = book.wait(aborted, 600_000, controller.signal);
    controller.abort();
    expect(await w).toBe('pending');
  });
});

describe('the approval page: headers, wording and the passkey guard (mutation survivors, issue 25)', () => {
  const formHeaders = (origin: string) => ({ origin, 'content-type': 'application/x-www-form-urlencoded' });
  const live = async (passkeys?: PasskeyStore) => {
    const book = new ApprovalBook(() => Date.now());
    const pages = new ApprovalPages(book, silentLogger(), passkeys);
    const approval = await book.open(`nonce-${Math.random()}`, { tool: 'xvm_send', title: 'Send 1 CAM', lines: ['To: X-local1abc'] }, Date.now() + 250_000);
    return { book, pages, approval };
  };

  it('sends the same guarding headers on every answer: no script but its own, no framing, no caching, no sniffing', async () => {
    const { url, origin } = await setup();
    const answers = await Promise.all([send(url, 'GET'), send(`${origin}/nothing`, 'GET'), send(url, 'GET', { host: 'evil.example' }), send(url, 'PUT')]);
    expect(answers.map((a) => a.status)).toEqual([200, 404, 403, 405]);
    for (const url2 of [url, `${origin}/nothing`]) {
      const headers = await new Promise<Record<string, unknown>>((resolve, reject) => {
        request(url2, (res) => {
          res.resume();
          resolve(res.headers);
        })
          .on('error', reject)
          .end();
      });
      expect(headers).toMatchObject({
        'content-type': 'text/html; charset=utf-8',
        'content-security-policy': `default-src 'none'; script-src ${WEBAUTHN_SCRIPT_HASH} 'sha256-${createHash('sha256').update(EXPIRY_SCRIPT).digest('base64')}'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'`,
        'x-content-type-options': 'nosniff',
        'referrer-policy': 'same-origin',
        'cache-control': 'no-store',
      });
    }
  });

  it('shows the time left, and once decided only the facts and the outcome, with no buttons', async () => {
    const { pages, approval, book } = await live();
    const url = await pages.url(approval);
    const origin = new URL(url).origin;
    const pending = await send(url, 'GET');
    // The server's words, in minutes; the page's script rewrites them in the viewer's clock (apps-host.test.ts).
    expect(pending.text).toMatch(/and <time datetime="\d{4}-\d\d-\d\dT[\d:.]+Z">expires in (4|5) min<\/time>\./);
    expect(pending.text).toContain('<button type="submit" class="approve" id="approve">Approve and send once</button>');
    expect(pending.text).not.toContain('name="credential"');
    const approved = await send(url, 'POST', formHeaders(origin), `csrf=${encodeURIComponent(approval.csrf)}&decision=approve`);
    expect(approved.status).toBe(200);
    expect(approved.text).toContain('<title>Approved</title>');
    expect(approved.text).toContain('<strong>Approved.</strong> The assistant can now send this transaction, once.');
    const after = await send(url, 'GET');
    expect(after.text).toContain('<div id="facts"><ul id="head"><li>To: X-local1abc</li></ul></div><p>This preview was already approved.</p>');
    expect(after.text).not.toContain('<form');
    expect((await send(url, 'POST', formHeaders(origin), `csrf=${encodeURIComponent(approval.csrf)}&decision=decline`)).status).toBe(409);
    expect(await stateOf(book, approval)).toBe('approved');

    const other = await book.open(`nonce-${Math.random()}`, { tool: 'xvm_send', title: 'Send 2 CAM', lines: [] }, Date.now() + 300_000);
    const declined = await send(await pages.url(other), 'POST', formHeaders(origin), `csrf=${encodeURIComponent(other.csrf)}&decision=decline`);
    expect(declined.text).toContain('<title>Declined</title>');
    expect(declined.text).toContain('<strong>Declined.</strong> Nothing will be sent.');
    await pages.close();
  });

  it('takes a form up to 16 KB and refuses a larger one unread, deciding nothing', async () => {
    const { pages, approval, book } = await live();
    const url = await pages.url(approval);
    const origin = new URL(url).origin;
    const base = `csrf=${encodeURIComponent(approval.csrf)}&decision=approve&pad=`;
    expect((await send(url, 'POST', formHeaders(origin), base + 'x'.repeat(16_384 - base.length + 1))).status).toBe(413);
    expect(await stateOf(book, approval)).toBe('pending');
    expect((await send(url, 'POST', formHeaders(origin), base + 'x'.repeat(16_384 - base.length))).status).toBe(200);
    expect(await stateOf(book, approval)).toBe('approved');
    await pages.close();
  });

  it('under a passkey: the page asks for it, Approve without a valid one is refused, Decline needs none', async () => {
    const store = new PasskeyStore(join(mkdtempSync(join(tmpdir(), 'chain-mcp-page-')), 'passkeys.json'));
    store.add({ id: 'cred-1', publicKey: Buffer.from('not a key').toString('base64url'), counter: 0, createdAt: '2026-11-26T00:00:00.000Z' });
    const { pages, approval, book } = await live(store);
    const guarded = await pages.requirePasskey(approval);
    const url = await pages.url(guarded);
    expect(url.startsWith('http://localhost:')).toBe(true);
    const origin = new URL(url).origin;
    const page = await send(url, 'GET', { host: new URL(url).host });
    expect(page.status).toBe(200);
    expect(page.text).toContain('<input type="hidden" name="decision" value="approve"><input type="hidden" name="credential" value="">');
    expect(page.text).toContain('<input type="hidden" name="decision" value="decline"><button');
    expect(page.text).toContain('"allowCredentials":[{"id":"cred-1"');
    const approve = `csrf=${encodeURIComponent(approval.csrf)}&decision=approve&credential=${encodeURIComponent('{"id":"cred-1"}')}`;
    expect((await send(url, 'POST', { ...formHeaders(origin), host: new URL(url).host }, approve)).status).toBe(403);
    expect(await stateOf(book, approval)).toBe('pending');
    expect((await send(url, 'POST', { ...formHeaders(origin), host: new URL(url).host }, `csrf=${encodeURIComponent(approval.csrf)}&decision=decline`)).status).toBe(200);
    expect(await stateOf(book, approval)).toBe('declined');

    // A challenge with no passkey store at all: Approve is refused, never waved through.
    const bare = new ApprovalPages(book, silentLogger());
    const lone = await book.open(`nonce-${Math.random()}`, { tool: 'xvm_send', title: 'Send', lines: [] }, Date.now() + 300_000);
    const loneUrl = await bare.url(await bare.requirePasskey(lone));
    const loneOrigin = new URL(loneUrl).origin;
    const shown = await send(loneUrl, 'GET', { host: new URL(loneUrl).host });
    expect(shown.text).not.toContain('name="credential"');
    expect((await send(loneUrl, 'POST', { ...formHeaders(loneOrigin), host: new URL(loneUrl).host }, `csrf=${encodeURIComponent(lone.csrf)}&decision=approve`)).status).toBe(403);
    expect(await stateOf(book, lone)).toBe('pending');
    await Promise.all([pages.close(), bare.close()]);
  });

  it('asks for a passkey only on an approval that needs one, even when passkeys are registered', async () => {
    const store = new PasskeyStore(join(mkdtempSync(join(tmpdir(), 'chain-mcp-page-')), 'passkeys.json'));
    store.add({ id: 'cred-1', publicKey: 'AAAA', counter: 0, createdAt: '2026-11-26T00:00:00.000Z' });
    const { pages, approval } = await live(store);
    const page = await send(await pages.url(approval), 'GET');
    expect(page.status).toBe(200);
    expect(page.text).not.toContain('name="credential"');
    expect(page.text).not.toContain('id="webauthn"');
    await pages.close();
  });

  it('writes every page decision and refusal to the audit log, with the tool and why', async () => {
    const lines: Array<Record<string, unknown>> = [];
    const log = createLogger('info', [], { write: (line: string) => lines.push(JSON.parse(line) as Record<string, unknown>) });
    const book = new ApprovalBook(() => Date.now());
    const pages = new ApprovalPages(book, log);
    const approval = await book.open(`nonce-${Math.random()}`, { tool: 'xvm_send', title: 'Send', lines: [] }, Date.now() + 300_000);
    const url = await pages.url(approval);
    const origin = new URL(url).origin;
    expect((await send(url, 'POST', formHeaders('http://127.0.0.1:1'), 'decision=approve')).status).toBe(403);
    expect((await send(url, 'POST', formHeaders(origin), 'csrf=wrong&decision=approve')).status).toBe(403);
    expect((await send(url, 'POST', formHeaders(origin), `csrf=${encodeURIComponent(approval.csrf)}&decision=approve`)).status).toBe(200);
    expect(lines.map(({ audit, channel, tool, why, msg }) => ({ audit, channel, tool, why, msg }))).toEqual([
      { audit: 'approval_refused', channel: 'page', tool: 'xvm_send', why: 'origin', msg: 'approval page refused a foreign origin' },
      { audit: 'approval_refused', channel: 'page', tool: 'xvm_send', why: 'token', msg: 'approval page refused a wrong page token' },
      { audit: 'approved', channel: 'page', tool: 'xvm_send', why: undefined, msg: 'spend approved on the approval page' },
    ]);
    await pages.close();
  });
});

describe('the approval page: what leads, the last minute, and a store that fails (issue 40)', () => {
  const formHeaders = (origin: string) => ({ origin, 'content-type': 'application/x-www-form-urlencoded' });
  const open = async (lines: string[], ms = 300_000) => {
    const lines2: Array<Record<string, unknown>> = [];
    const log = createLogger('info', [], { write: (line: string) => lines2.push(JSON.parse(line) as Record<string, unknown>) });
    const book = new ApprovalBook(() => Date.now());
    const pages = new ApprovalPages(book, log);
    const approval = await book.open(`nonce-${Math.random()}`, { tool: 'xvm_send', title: 'Send 1 CAM', lines }, Date.now() + ms);
    const url = await pages.url(approval);
    return { book, pages, approval, url, origin: new URL(url).origin, logs: lines2 };
  };

  it('leads with the head (the total bold, each warning marked) and folds every other line', async () => {
    const { pages, url } = await open(['Send 1 CAM to X-a', 'Total leaving your key: 1.001 CAM', 'NOT your address: X-a', 'Fee: 0.001 CAM', 'Lock: detail']);
    const shown = await send(url, 'GET');
    expect(shown.text).toContain(
      '<div id="facts"><ul id="head"><li>Send 1 CAM to X-a</li><li class="total">Total leaving your key: 1.001 CAM</li><li class="warn">NOT your address: X-a</li></ul><details id="more"><summary>Show every input, output and hash</summary><ul id="details"><li>Fee: 0.001 CAM</li><li>Lock: detail</li></ul></details></div>',
    );
    await pages.close();
    // Nothing to fold: no fold at all.
    const short = await open(['Send 1 CAM to X-a', 'Total leaving your key: 1.001 CAM']);
    expect((await send(short.url, 'GET')).text).toContain('<div id="facts"><ul id="head"><li>Send 1 CAM to X-a</li><li class="total">Total leaving your key: 1.001 CAM</li></ul></div>');
    await short.pages.close();
  });

  it('says "under a minute" in its last half minute, and minutes rounded before that', async () => {
    const { pages, url } = await open(['Amount: 1 CAM'], 20_000);
    expect((await send(url, 'GET')).text).toMatch(/<time datetime="[^"]+">expires in under a minute<\/time>/);
    await pages.close();
    const later = await open(['Amount: 1 CAM'], 70_000);
    expect((await send(later.url, 'GET')).text).toMatch(/<time datetime="[^"]+">expires in 1 min<\/time>/);
    await later.pages.close();
  });

  it('a decision made meanwhile through another channel is reported as such (409), not as a wrong form', async () => {
    const { book, pages, approval, url, origin } = await open(['Amount: 1 CAM']);
    const lookup = book.lookup.bind(book);
    // The card approves between the page's read and its decision.
    book.lookup = async (token: string) => {
      const found = await lookup(token);
      await book.decide(approval, 'approved', 'app');
      return found;
    };
    const r = await send(url, 'POST', formHeaders(origin), `csrf=${encodeURIComponent(approval.csrf)}&decision=decline`);
    expect(r.status).toBe(409);
    expect(r.text).toContain('<p>This preview was already approved. Nothing more happens.</p>');
    expect(await stateOf(book, approval)).toBe('approved');
    await pages.close();
  });

  it('a state store that fails: 503 "Nothing was approved", nothing decided, and the page serves again once it is back', async () => {
    const { book, pages, approval, url, origin, logs } = await open(['Amount: 1 CAM']);
    const byToken = book.store.approvalByToken.bind(book.store);
    book.store.approvalByToken = async () => {
      throw new Error('store down');
    };
    const read = await send(url, 'GET');
    expect(read.status).toBe(503);
    expect(read.text).toContain('<p>The approval could not be read just now. Nothing was approved. Reload the page.</p>');
    book.store.approvalByToken = byToken;
    const decide = book.store.decideApproval.bind(book.store);
    book.store.decideApproval = async () => {
      throw new Error('store down');
    };
    const post = await send(url, 'POST', formHeaders(origin), `csrf=${encodeURIComponent(approval.csrf)}&decision=approve`);
    expect(post.status).toBe(503);
    expect(post.text).toContain('<p>The decision could not be recorded just now. Nothing was approved. Reload the page.</p>');
    expect(await stateOf(book, approval)).toBe('pending');
    book.store.decideApproval = decide;
    expect((await send(url, 'POST', formHeaders(origin), `csrf=${encodeURIComponent(approval.csrf)}&decision=approve`)).status).toBe(200);
    expect(logs.map((l) => [l.msg, l.err])).toEqual([
      ['approval page could not read the state store', 'store down'],
      ['approval page could not record the decision', 'store down'],
      ['spend approved on the approval page', undefined],
    ]);
    await pages.close();
  });
});

describe('the approval page under a passkey: the order of its answers (issue 40)', () => {
  const formHeaders = (origin: string, host: string) => ({ origin, host, 'content-type': 'application/x-www-form-urlencoded' });

  it('a decided approval says so before asking for a passkey; an Approve with no assertion at all is refused and logged as such', async () => {
    const store = new PasskeyStore(join(mkdtempSync(join(tmpdir(), 'chain-mcp-page-')), 'passkeys.json'));
    store.add({ id: 'cred-1', publicKey: Buffer.from('not a key').toString('base64url'), counter: 0, createdAt: '2026-11-26T00:00:00.000Z' });
    const lines: Array<Record<string, unknown>> = [];
    const log = createLogger('info', [], { write: (line: string) => lines.push(JSON.parse(line) as Record<string, unknown>) });
    const book = new ApprovalBook(() => Date.now());
    const pages = new ApprovalPages(book, log, store);
    const open = () => book.open(`nonce-${Math.random()}`, { tool: 'xvm_send', title: 'Send 1 CAM', lines: [] }, Date.now() + 300_000, 'local', { passkey: true });
    const guarded = await open();
    const url = await pages.url(guarded);
    const headers = formHeaders(new URL(url).origin, new URL(url).host);
    const bare = await send(url, 'POST', headers, `csrf=${encodeURIComponent(guarded.csrf)}&decision=approve`);
    expect(bare.status).toBe(403);
    expect(lines.map((l) => [l.audit, l.why])).toEqual([['approval_refused', 'no passkey assertion']]);
    expect(await stateOf(book, guarded)).toBe('pending');

    const declined = await open();
    expect(await book.decide(declined, 'declined', 'app')).toBe(true);
    const late = await send(await pages.url(declined), 'POST', headers, `csrf=${encodeURIComponent(declined.csrf)}&decision=approve`);
    expect(late.status).toBe(409);
    expect(late.text).toContain('<p>This preview was already declined. Nothing more happens.</p>');
    expect(lines).toHaveLength(1);
    await pages.close();
  });
});

describe('the approval page when its passkey check cannot be prepared (issue 40)', () => {
  it("a passkey file entry the browser API cannot name: the pending page answers 500 'Nothing was approved'; a decided one still says so, needing no passkey", async () => {
    const store = new PasskeyStore(join(mkdtempSync(join(tmpdir(), 'chain-mcp-page-')), 'passkeys.json'));
    // The file is the operator's (or was edited); an id that is no base64url cannot go into the WebAuthn options.
    store.add({ id: 'not base64url!', publicKey: Buffer.from('not a key').toString('base64url'), counter: 0, createdAt: '2026-11-26T00:00:00.000Z' });
    const book = new ApprovalBook(() => Date.now());
    const pages = new ApprovalPages(book, silentLogger(), store);
    const open = () => book.open(`nonce-${Math.random()}`, { tool: 'xvm_send', title: 'Send 1 CAM', lines: ['Amount: 1 CAM'] }, Date.now() + 300_000, 'local', { passkey: true });
    const pending = await open();
    const shown = await send(await pages.url(pending), 'GET');
    expect(shown.status).toBe(500);
    expect(shown.text).toContain('<p>The passkey check could not be prepared. Nothing was approved.</p>');
    expect((await book.read(pending.nonce)) as Approval).toMatchObject({ state: 'pending' });
    const declined = await open();
    expect(await book.decide(declined, 'declined', 'app')).toBe(true);
    const late = await send(await pages.url(declined), 'GET');
    expect(late.status).toBe(200);
    expect(late.text).toContain('<p>This preview was already declined.</p>');
    await pages.close();
  });
});

describe('the approval page server: closed (issue 40)', () => {
  it('serves nothing once closed; closing one that never started is fine', async () => {
    const book = new ApprovalBook(() => Date.now());
    const pages = new ApprovalPages(book, silentLogger());
    const approval = await book.open('nonce-closed', { tool: 't', title: 't', lines: [] }, Date.now() + 60_000);
    const own = await pages.url(approval);
    expect((await send(own, 'GET')).status).toBe(200);
    await pages.close();
    await expect(connectionTo(own)).resolves.toBe('ECONNREFUSED');
    await new ApprovalPages(book, silentLogger()).close();
  });
});

describe('the approval book: what is gone (issue 40)', () => {
  it('an approval no longer stored (spent or swept) reads as its snapshot, never as a decision; a passkey cannot be required on it', async () => {
    const book = new ApprovalBook(() => 0);
    const a = await book.open('gone', { tool: 't', title: 't', lines: [] }, 1_000);
    await book.forget(a);
    expect(await book.read('gone')).toBeUndefined();
    // The page asks `get` after a refused decision (decided meanwhile, or spent): gone is no approval, not an error.
    expect(await book.get('gone')).toBeUndefined();
    expect(await book.stateOf(a)).toBe('pending');
    expect(await book.wait(a, 0)).toBe('pending');
    expect(await book.requirePasskey(a)).toStrictEqual(a);
    expect(await book.decide(a, 'approved', 'page')).toBe(false);
  });
});
