import { request } from 'node:http';
import { describe, expect, it } from 'vitest';
import { ApprovalBook, MAX_PENDING } from '../../src/approval/book.js';
import { ApprovalPages } from '../../src/approval/page.js';
import { silentLogger } from '../../src/log.js';

/** One raw HTTP exchange on loopback (fetch cannot send every method and header these cases need). */
function send(url: string, method: string, headers: Record<string, string> = {}, body?: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => {
        text += c;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

async function setup(lines = ['To: X-local1abc', 'Amount: 1 CAM']) {
  let now = 1_000_000;
  const book = new ApprovalBook(() => now);
  const pages = new ApprovalPages(book, silentLogger());
  const approval = book.open(`nonce-${Math.random()}`, { tool: 'xvm_send', title: 'Send <b>1</b> CAM', lines }, now + 300_000);
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
    const { url, origin, approval } = await setup();
    const form = (decision: string) => `csrf=${encodeURIComponent(approval.csrf)}&decision=${decision}`;
    const headers = { origin, 'content-type': 'application/x-www-form-urlencoded' };
    expect((await send(url, 'PUT', headers)).status).toBe(405);
    expect((await send(url, 'DELETE', headers)).status).toBe(405);
    expect((await send(url, 'POST', headers, form('maybe'))).status).toBe(400);
    expect(approval.state).toBe('pending');
    expect((await send(url, 'POST', headers, form('decline'))).status).toBe(200);
    expect(approval.state).toBe('declined');
  });

  it('an approval expires at its time, not a moment later, and the page says so', async () => {
    const { book, approval, url, tick } = await setup();
    tick(300_000);
    expect(book.lookup(approval.token)).toBe(approval);
    tick(1);
    expect(book.lookup(approval.token)).toBe('expired');
    expect((await send(url, 'GET')).status).toBe(410);
  });

  it(`holds at most ${MAX_PENDING} live approvals: the next preview is refused, none is dropped`, () => {
    const book = new ApprovalBook(() => 0);
    for (let i = 0; i < MAX_PENDING; i++) book.open(`n${i}`, { tool: 't', title: 't', lines: [] }, 1000);
    expect(() => book.open('one-more', { tool: 't', title: 't', lines: [] }, 1000)).toThrow(/previews are already waiting/);
  });
});

describe('the approval book: expiry at the boundary and waiting (mutation survivors, issue 25)', () => {
  const facts = { tool: 't', title: 't', lines: [] };

  it('get, decide and sweep treat the expiry instant as still live and the next millisecond as gone', () => {
    let now = 0;
    const book = new ApprovalBook(() => now);
    const a = book.open('n1', facts, 100);
    const b = book.open('n2', facts, 100);
    now = 100;
    expect(book.get('n1')).toBe(a);
    expect(book.sweep()).toEqual([]);
    expect(book.decide(a, 'approved', 'test')).toBe(true);
    now = 101;
    expect(book.get('n2')).toBeUndefined();
    expect(book.decide(b, 'approved', 'test')).toBe(false);
    expect(book.sweep()).toEqual([a, b]);
  });

  it('wait: at once for a decided approval or no time, at the decision, at the time limit, at the expiry, or on abort', async () => {
    let now = 0;
    const book = new ApprovalBook(() => now);
    const decided = book.open('d', facts, 60_000);
    book.decide(decided, 'declined', 'test');
    expect(await book.wait(decided, 60_000)).toBe('declined');
    const pending = book.open('p', facts, 60_000);
    expect(await book.wait(pending, 0)).toBe('pending');

    const waiting = book.wait(pending, 60_000);
    setTimeout(() => book.decide(pending, 'approved', 'test'), 5);
    expect(await waiting).toBe('approved');

    const slow = book.open('s', facts, 60_000);
    expect(await book.wait(slow, 30)).toBe('pending');

    // Expiring 10 ms from now though 10 minutes were asked: the wait ends at the expiry (a wait
    // for the whole 10 minutes would hit the test's timeout).
    now = 59_990;
    const expiring = book.open('e', facts, 60_000);
    expect(await book.wait(expiring, 600_000)).toBe('pending');

    const aborted = book.open('a', facts, 600_000);
    const controller = new AbortController();
    const w = book.wait(aborted, 600_000, controller.signal);
    controller.abort();
    expect(await w).toBe('pending');
  });
});
