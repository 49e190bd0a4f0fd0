import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ApprovalBook } from '../../src/approval/book.js';
import { LOGIN_TTL_MS, LoginApprovalPages } from '../../src/auth/approval-login.js';
import { Issuer } from '../../src/auth/issuer.js';
import { createLogger } from '../../src/log.js';
import { startIssuer, type TestIssuer, testBrowser } from '../../tools/test-issuer.js';

/**
 * src/auth/approval-login.ts from its HTTP side: the approval page under OAuth served on loopback
 * by LoginApprovalPages alone, against the test issuer (tools/test-issuer.ts), whose sign-in can be
 * made to misbehave. What the page answers, the headers it sends, the cookies it takes, what comes
 * back from the provider that it must refuse, and the audit lines it writes.
 */
const ORIGIN = 'https://chain.example.test';
const FORM = { 'content-type': 'application/x-www-form-urlencoded', origin: ORIGIN };

function recordingLog() {
  const lines: Array<Record<string, unknown>> = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const line of chunk.toString('utf8').split('\n').filter(Boolean)) lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  return { log: createLogger('info', [], stream), audits: () => lines.filter((l) => 'audit' in l).map(({ audit, channel, tool, why, msg }) => ({ audit, channel, tool, why, msg })) };
}

describe('the approval page under OAuth (LoginApprovalPages)', () => {
  let issuer: TestIssuer;
  let server: Server;
  let port = 0;
  const clock = { now: 1_000_000 };
  let pages: LoginApprovalPages;
  let book: ApprovalBook;
  let recorded: ReturnType<typeof recordingLog>;
  /** What handle() said for each request: true when the page answered. */
  const handled: Array<[string, boolean]> = [];

  const setUp = (publicUrl = `${ORIGIN}/mcp`) => {
    recorded = recordingLog();
    book = new ApprovalBook(() => clock.now);
    pages = new LoginApprovalPages({ publicUrl, clientId: 'chain-mcp-approvals', issuer: new Issuer(issuer.issuer), book, log: recorded.log, now: () => clock.now });
  };
  const local = (url: string) => url.replace(/^https?:\/\/chain\.example\.test/, `http://127.0.0.1:${port}`);
  const open = async (owner = 'oauth:user-1') => {
    const approval = await book.open(`nonce-${Math.random()}`, { tool: 'xvm_send', title: 'Send 1 CAM', lines: ['Amount: 1 CAM'] }, clock.now + 300_000, owner);
    return { approval, url: pages.url(approval) };
  };
  /** Starts a sign-in as `user` and stops at the provider's redirect back: the PKCE cookie, the state, and the code. */
  const startSignIn = async (url: string, user: string) => {
    const visit = await fetch(local(url), { redirect: 'manual' });
    expect(visit.status).toBe(302);
    const cookie = visit.headers.getSetCookie()[0]!.split(';')[0]!;
    const atProvider = await fetch(visit.headers.get('location')!, { headers: { 'x-test-user': user }, redirect: 'manual' });
    const back = new URL(atProvider.headers.get('location')!);
    return { cookie, setCookie: visit.headers.getSetCookie()[0]!, state: back.searchParams.get('state')!, code: back.searchParams.get('code')! };
  };
  const callback = (code: string, state: string, cookie: string) => fetch(local(`${ORIGIN}/approve/callback?code=${code}&state=${state}`), { headers: { cookie }, redirect: 'manual' });
  /** Signs in as `user`: the login cookie (name=value). */
  const signIn = async (url: string, user: string) => {
    const s = await startSignIn(url, user);
    const done = await callback(s.code, s.state, s.cookie);
    expect(done.status).toBe(303);
    return done.headers.getSetCookie().find((c) => c.startsWith('chain_mcp_login='))!.split(';')[0]!;
  };
  const csrfOf = (html: string) => /name="csrf" value="([^"]+)"/.exec(html)?.[1] ?? '';

  beforeAll(async () => {
    issuer = await startIssuer();
    server = createServer((req, res) => {
      const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
      pages.handle(req, res, path).then(
        (answered) => {
          handled.push([path, answered]);
          if (!answered) res.writeHead(404, { 'content-type': 'text/plain' }).end('not the approval page');
        },
        (err: unknown) => {
          if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' }).end(String(err));
        },
      );
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
    await issuer.close();
  });
  beforeEach(() => {
    for (const key of Object.keys(issuer.login)) delete issuer.login[key as keyof typeof issuer.login];
    handled.length = 0;
    clock.now = 1_000_000;
    setUp();
  });

  it('answers only /approve/callback and /approve/<token> (the whole path), each page with its security headers', async () => {
    const token = 'A'.repeat(32);
    for (const path of [`/x/approve/${token}`, `/approve/${token}/x`, `/approve/${token}.html`, '/approve/short']) {
      const res = await fetch(`http://127.0.0.1:${port}${path}`);
      expect(res.status, path).toBe(404);
      expect(await res.text(), path).toBe('not the approval page');
    }
    const unknown = await fetch(`http://127.0.0.1:${port}/approve/${token}`);
    expect(unknown.status).toBe(404);
    expect(await unknown.text()).toContain('No approval is waiting at this address.');
    expect(unknown.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(unknown.headers.get('content-security-policy')).toMatch(/^default-src 'none'; script-src 'sha256-[^']+'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'$/);
    expect(unknown.headers.get('x-content-type-options')).toBe('nosniff');
    expect(unknown.headers.get('referrer-policy')).toBe('same-origin');
    expect(unknown.headers.get('cache-control')).toBe('no-store');
    const cb = await fetch(`http://127.0.0.1:${port}/approve/callback?code=x&state=y`);
    expect(cb.status).toBe(400);
    expect(cb.headers.get('x-content-type-options')).toBe('nosniff');
    await cb.text();
    expect(handled).toEqual([
      [`/x/approve/${token}`, false],
      [`/approve/${token}/x`, false],
      [`/approve/${token}.html`, false],
      ['/approve/short', false],
      [`/approve/${token}`, true],
      ['/approve/callback', true],
    ]);
  });

  it('approve and decline each say what happens next, in the title and the text, and write an audit line', async () => {
    const alice = testBrowser(issuer, 'user-1', ORIGIN, port);
    const first = await open();
    const approved = await alice.decide(first.url, 'approve');
    expect(approved.status).toBe(200);
    const approvedHtml = await approved.text();
    expect(approvedHtml).toContain('<title>Approved</title>');
    expect(approvedHtml).toContain('The assistant can now send this transaction, once.');
    expect(approvedHtml).not.toContain('Declined');
    const second = await open();
    const declined = await alice.decide(second.url, 'decline');
    expect(declined.status).toBe(200);
    const declinedHtml = await declined.text();
    expect(declinedHtml).toContain('<title>Declined</title>');
    expect(declinedHtml).toContain('Nothing will be sent.');
    expect(declinedHtml).not.toContain('Approved');
    expect(declinedHtml).not.toContain('can now send');
    expect((await book.get(first.approval.nonce))?.state).toBe('approved');
    expect((await book.get(second.approval.nonce))?.state).toBe('declined');
    expect(recorded.audits()).toEqual([
      { audit: 'approved', channel: 'page', tool: 'xvm_send', msg: 'spend approved on the approval page' },
      { audit: 'declined', channel: 'page', tool: 'xvm_send', msg: 'spend declined on the approval page' },
    ]);
  });

  it("refuses another user's approval and a cross-site form, each with its audit line", async () => {
    const { url } = await open('oauth:user-1');
    const mallory = testBrowser(issuer, 'user-2', ORIGIN, port);
    const seen = await mallory.go(url);
    expect(seen.status).toBe(403);
    expect(await seen.text()).toContain('belongs to another account');
    const alice = testBrowser(issuer, 'user-1', ORIGIN, port);
    const csrf = csrfOf(await (await alice.go(url)).text());
    const foreign = await alice.go(url, { method: 'POST', headers: { ...FORM, 'sec-fetch-site': 'cross-site' }, body: `decision=approve&csrf=${csrf}` });
    expect(foreign.status).toBe(403);
    await foreign.text();
    expect(recorded.audits()).toEqual([
      { audit: 'approval_refused', channel: 'page', tool: 'xvm_send', why: 'other user', msg: 'approval page refused another user' },
      { audit: 'approval_refused', channel: 'page', tool: 'xvm_send', why: 'origin', msg: 'approval page refused a cross-site form' },
    ]);
  });

  it('a form over 4096 bytes is refused (413) and decides nothing; one of exactly 4096 is read', async () => {
    const alice = testBrowser(issuer, 'user-1', ORIGIN, port);
    const { approval, url } = await open();
    const csrf = csrfOf(await (await alice.go(url)).text());
    const base = `decision=approve&csrf=${csrf}&pad=`;
    const tooLarge = await alice.go(url, { method: 'POST', headers: FORM, body: base + 'x'.repeat(4097 - base.length) });
    expect(tooLarge.status).toBe(413);
    expect(await tooLarge.text()).toContain('The form was too large.');
    expect((await book.get(approval.nonce))?.state).toBe('pending');
    const exact = await alice.go(url, { method: 'POST', headers: FORM, body: base + 'x'.repeat(4096 - base.length) });
    expect(exact.status).toBe(200);
    expect((await book.get(approval.nonce))?.state).toBe('approved');
    await exact.text();
  });

  it('an identity provider that names no authorization endpoint: 503, no redirect', async () => {
    issuer.login.noAuthorizationEndpoint = true;
    const { url } = await open();
    const res = await fetch(local(url), { redirect: 'manual' });
    expect(res.status).toBe(503);
    expect(res.headers.get('location')).toBeNull();
    expect(await res.text()).toContain('The identity provider names no authorization endpoint.');
  });

  it('cookies: Secure only on an https public URL; read with spaces around them, beside valueless ones; a malformed or lapsed login is no login', async () => {
    const { url } = await open();
    const s = await startSignIn(url, 'user-1');
    expect(s.setCookie).toMatch(/; Secure$/);
    setUp('http://chain.example.test/mcp');
    const plain = await open();
    const p = await startSignIn(plain.url, 'user-1');
    expect(p.setCookie).toMatch(/^chain_mcp_pkce=[^;]+; Path=\/approve; HttpOnly; SameSite=Lax; Max-Age=600$/);
    // A browser (or a proxy) may space the header out, and send cookies without a value.
    const loginAt = clock.now;
    const login = await signIn(plain.url, 'user-1');
    const [name, value] = [login.slice(0, login.indexOf('=')), login.slice(login.indexOf('=') + 1)];
    for (const cookie of [`${name} = ${value} ; other=1`, `${login}; ${name}s`, `flag; ${login}`]) {
      const res = await fetch(local(plain.url), { headers: { cookie }, redirect: 'manual' });
      expect(res.status, cookie).toBe(200);
      expect(await res.text(), cookie).toContain('Amount: 1 CAM');
    }
    // Not signed in (sent to the provider, no error): no MAC, an empty one, a forged one.
    for (const cookie of [`${name}=${value.split('.')[0]}`, `${name}=${value.split('.')[0]}.`, `${name}=.${value.split('.')[1]}`, `${name}=${value.split('.')[0]}.AAAA`]) {
      const res = await fetch(local(plain.url), { headers: { cookie }, redirect: 'manual' });
      expect(res.status, cookie).toBe(302);
      await res.text();
    }
    // The login lasts LOGIN_TTL_MS: a moment before, it holds; at its end, it is gone.
    clock.now = loginAt + LOGIN_TTL_MS - 1;
    const fresh = await open();
    const held = await fetch(local(fresh.url), { headers: { cookie: login }, redirect: 'manual' });
    expect(held.status).toBe(200);
    await held.text();
    clock.now = loginAt + LOGIN_TTL_MS;
    const lapsed = await fetch(local(fresh.url), { headers: { cookie: login }, redirect: 'manual' });
    expect(lapsed.status).toBe(302);
    await lapsed.text();
  });

  it("a code from another sign-in (a provider that skips PKCE) is refused by the ID token's nonce: no login as the attacker", async () => {
    issuer.login.ignorePkce = true;
    const { url } = await open('oauth:user-2');
    // Mallory starts a sign-in of her own and keeps the code; Alice's browser is made to bring it back.
    const mallory = await startSignIn(url, 'user-2');
    const alice = await startSignIn(url, 'user-1');
    const res = await callback(mallory.code, alice.state, alice.cookie);
    expect(res.status).toBe(403);
    expect(res.headers.getSetCookie().filter((c) => c.startsWith('chain_mcp_login='))).toEqual([]);
    expect(await res.text()).toContain('did not confirm who you are');
    expect(recorded.audits()).toEqual([{ audit: 'login_failed', why: 'the ID token answers another sign-in', msg: 'approval page sign-in failed' }]);
  });

  it("the token endpoint's answer: an error status or no ID token, an ID token for another client or without a subject, all refused", async () => {
    const { url } = await open();
    const cases: Array<[Partial<TestIssuer['login']>, RegExp]> = [
      [{ tokenStatus: 400 }, /^the token endpoint answered HTTP 400$/],
      [{ noIdToken: true }, /^the token endpoint answered HTTP 200$/],
      [{ idTokenAudience: 'another-client' }, /aud/],
      [{ idTokenNoSub: true }, /sub/],
    ];
    for (const [quirk, why] of cases) {
      Object.assign(issuer.login, quirk);
      const s = await startSignIn(url, 'user-1');
      const res = await callback(s.code, s.state, s.cookie);
      expect(res.status, JSON.stringify(quirk)).toBe(403);
      expect(res.headers.getSetCookie().filter((c) => c.startsWith('chain_mcp_login=')), JSON.stringify(quirk)).toEqual([]);
      await res.text();
      expect(recorded.audits().at(-1)?.why, JSON.stringify(quirk)).toMatch(why);
      for (const key of Object.keys(quirk)) delete issuer.login[key as keyof typeof issuer.login];
    }
    // The code is exchanged as a form, asking for JSON.
    const last = issuer.tokenRequests.at(-1)!;
    expect(last['content-type']).toBe('application/x-www-form-urlencoded');
    expect(last.accept).toBe('application/json');
  });
});
