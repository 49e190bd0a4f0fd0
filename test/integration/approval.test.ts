import { request } from 'node:http';
import type { ClientCapabilities } from '@modelcontextprotocol/client';
import { launchChromium } from '../../tools/views/host.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Devnet, startDevnet } from '../../src/devnet/index.js';
import { type ElicitAnswer, type ElicitParams, type SpendHarness, spendHarness, requestsFor } from '../helpers/spend-harness.js';

/**
 * CHAIN_MCP_APPROVAL=human (the default with spends on): a spend goes out only after the human
 * approved that exact preview through a channel the model cannot drive. Each test's client plays
 * both the host and the human.
 */
const harness = (devnet: Devnet, opts: { capabilities?: ClientCapabilities; elicit?: (p: ElicitParams) => Promise<ElicitAnswer>; waitMs?: string } = {}) =>
  // The plain link: these tests drive the page as the human does (the passkey link: approval-passkey.test.ts).
  spendHarness(devnet, { capabilities: opts.capabilities, elicit: opts.elicit, env: { CHAIN_MCP_APPROVAL_WAIT_MS: opts.waitMs ?? '0', CHAIN_MCP_APPROVAL_LINK: 'plain' } });

/** The human at the approval page: reads the page's own token, then presses a button (or a forger tries). */
async function pressButton(url: string, decision: 'approve' | 'decline', opts: { origin?: string | null; csrf?: string } = {}): Promise<number> {
  const page = await (await fetch(url)).text();
  const csrf = opts.csrf ?? /name="csrf" value="([^"]+)"/.exec(page)?.[1] ?? '';
  const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded' };
  const origin = opts.origin === undefined ? new URL(url).origin : opts.origin;
  if (origin !== null) headers.origin = origin;
  const res = await fetch(url, { method: 'POST', headers, body: new URLSearchParams({ csrf, decision }) });
  await res.text();
  return res.status;
}

/** A GET with a chosen Host header (DNS rebinding); fetch would not let us set it. */
function getWithHost(url: string, host: string): Promise<number> {
  const u = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request({ host: u.hostname, port: u.port, path: u.pathname, headers: { host } }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
    req.end();
  });
}

describe('approval that only the human can give', () => {
  let devnet: Devnet;
  let to: string;
  const sends = () => requestsFor(devnet, 'xvm.send');
  const args = () => ({ amount: '1000000000', assetID: 'CAM', to });

  beforeAll(async () => {
    devnet = await startDevnet();
    devnet.router.record = true;
    to = devnet.state.users.get('alice')!.keys[1]!.x;
  });
  afterAll(() => devnet.close());

  describe('a client with no channel to the human: the approval page link', () => {
    let h: SpendHarness;
    beforeAll(async () => {
      h = await harness(devnet);
    });
    afterAll(() => h.close());

    async function preview(): Promise<{ id: string; url: string }> {
      const p = await h.call('xvm_send', args());
      expect(p.isError, p.text).toBe(false);
      const url = p.structured?.approvalUrl as string;
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/approve\/[A-Za-z0-9_-]{32}$/);
      expect(p.text).toContain(url);
      expect(p.text).toContain('Your confirm alone sends nothing');
      return { id: p.structured?.confirmationId as string, url };
    }

    it("the model's confirm alone sends nothing; the human's approval on the page sends once", async () => {
      const { id, url } = await preview();
      const before = sends();
      const early = await h.call('xvm_send', { ...args(), confirm: id });
      expect(early.isError).toBe(true);
      expect(early.text).toContain('Not approved by the human yet; nothing was sent');
      expect(sends()).toBe(before);
      expect(await pressButton(url, 'approve')).toBe(200);
      const sent = await h.call('xvm_send', { ...args(), confirm: id });
      expect(sent.isError, sent.text).toBe(false);
      expect(sent.structured?.status).toBe('issued');
      expect(sends()).toBe(before + 1);
      const again = await h.call('xvm_send', { ...args(), confirm: id });
      expect(again.text).toContain('already used');
      expect(sends()).toBe(before + 1);
    });

    it('a declined preview sends nothing, ever', async () => {
      const { id, url } = await preview();
      const before = sends();
      expect(await pressButton(url, 'decline')).toBe(200);
      const r = await h.call('xvm_send', { ...args(), confirm: id });
      expect(r.structured?.status).toBe('declined');
      expect(r.text).toContain('Declined by the human; nothing was sent.');
      expect((await h.call('xvm_send', { ...args(), confirm: id })).text).toContain('already used');
      expect(sends()).toBe(before);
    });

    it('the page refuses a foreign Origin, no Origin, a wrong page token, a wrong path, a replay, and never approves on GET', async () => {
      const { id, url } = await preview();
      expect(await pressButton(url, 'approve', { origin: 'http://evil.example' })).toBe(403);
      expect(await pressButton(url, 'approve', { origin: null })).toBe(403);
      expect(await pressButton(url, 'approve', { csrf: 'x'.repeat(32) })).toBe(403);
      expect((await fetch(`${url.slice(0, -4)}AAAA`)).status).toBe(404);
      expect((await fetch(`${url}?decision=approve&csrf=anything`)).status).toBe(200);
      expect(await getWithHost(url, 'attacker.example')).toBe(403);
      const before = sends();
      expect((await h.call('xvm_send', { ...args(), confirm: id })).text).toContain('Not approved by the human yet');
      expect(await pressButton(url, 'approve')).toBe(200);
      expect(await pressButton(url, 'approve')).toBe(409);
      expect(await pressButton(url, 'decline')).toBe(409);
      expect((await h.call('xvm_send', { ...args(), confirm: id })).structured?.status).toBe('issued');
      expect(sends()).toBe(before + 1);
    });

    it('an approval binds the exact arguments: another amount is refused', async () => {
      const { id, url } = await preview();
      expect(await pressButton(url, 'approve')).toBe(200);
      const before = sends();
      const other = await h.call('xvm_send', { ...args(), amount: '2000000000', confirm: id });
      expect(other.text).toContain('does not match this tool and these exact arguments');
      expect(sends()).toBe(before);
    });

    it('an expired approval sends nothing and its page says so', async () => {
      const { id, url } = await preview();
      h.clock.now += 5 * 60 * 1000 + 1;
      try {
        expect((await fetch(url)).status).toBe(410);
        expect(await pressButton(url, 'approve')).toBe(410);
        const before = sends();
        expect((await h.call('xvm_send', { ...args(), confirm: id })).text).toContain('expired');
        expect(sends()).toBe(before);
      } finally {
        h.clock.now = Date.now();
      }
    });
  });

  it('URL elicitation: the client opens the page, the human approves there, the spend goes once; the link is not given to the model', async () => {
    const opened: string[] = [];
    const h = await harness(devnet, {
      capabilities: { elicitation: { url: {} } },
      elicit: async (params) => {
        expect(params.mode).toBe('url');
        opened.push(params.url!);
        expect(await pressButton(params.url!, 'approve')).toBe(200);
        return { action: 'accept' };
      },
    });
    try {
      const p = await h.call('xvm_send', args());
      expect(p.structured?.approvalUrl).toBeUndefined();
      expect(p.text).not.toMatch(/127\.0\.0\.1:\d+\/approve/);
      const before = sends();
      const r = await h.call('xvm_send', { ...args(), confirm: p.structured?.confirmationId });
      expect(r.structured?.status, r.text).toBe('issued');
      expect(opened).toHaveLength(1);
      expect(sends()).toBe(before + 1);
    } finally {
      await h.close();
    }
  });

  it('URL elicitation the human declines (or a page they decline) sends nothing', async () => {
    for (const how of ['elicitation', 'page'] as const) {
      const h = await harness(devnet, {
        capabilities: { elicitation: { url: {} } },
        elicit: async (params) => {
          if (how === 'elicitation') return { action: 'decline' };
          await pressButton(params.url!, 'decline');
          return { action: 'accept' };
        },
      });
      try {
        const p = await h.call('xvm_send', args());
        const before = sends();
        const r = await h.call('xvm_send', { ...args(), confirm: p.structured?.confirmationId });
        expect(r.structured?.status, `${how}: ${r.text}`).toBe('declined');
        expect(sends()).toBe(before);
      } finally {
        await h.close();
      }
    }
  });

  it('form elicitation: accept sends once, decline sends nothing', async () => {
    for (const approve of [true, false]) {
      const h = await harness(devnet, { capabilities: { elicitation: { form: {} } }, elicit: async () => ({ action: 'accept', content: { approve } }) });
      try {
        const p = await h.call('xvm_send', args());
        const before = sends();
        const r = await h.call('xvm_send', { ...args(), confirm: p.structured?.confirmationId });
        expect(r.structured?.status, r.text).toBe(approve ? 'issued' : 'declined');
        expect(sends()).toBe(before + (approve ? 1 : 0));
      } finally {
        await h.close();
      }
    }
  });

  it('a confirm call waits for the page (no capability) and goes on once the human approves', async () => {
    const h = await harness(devnet, { waitMs: '20000' });
    try {
      const p = await h.call('xvm_send', args());
      const before = sends();
      const pending = h.call('xvm_send', { ...args(), confirm: p.structured?.confirmationId });
      await new Promise((r) => setTimeout(r, 200));
      expect(sends()).toBe(before);
      expect(await pressButton(p.structured?.approvalUrl as string, 'approve')).toBe(200);
      expect((await pending).structured?.status).toBe('issued');
      expect(sends()).toBe(before + 1);
    } finally {
      await h.close();
    }
  });

  it('the approval page in a real headless browser shows the facts and its button approves', async () => {
    // launchChromium throws one line naming what to install when no browser can be had: it fails, never skips.
    const h = await harness(devnet);
    const browser = await launchChromium();
    try {
      const p = await h.call('xvm_send', args());
      const page = await browser.newPage();
      await page.goto(p.structured?.approvalUrl as string);
      const facts = await page.locator('#facts').textContent();
      expect(facts).toContain(`To: ${to}`);
      expect(facts).toContain('Amount: 1 CAM');
      expect(facts).toContain('Amount in smallest units: 1000000000');
      expect(facts).toMatch(/Fee: 0\.001 CAM/);
      await page.click('#approve');
      await page.waitForSelector('text=Approved.');
      const before = sends();
      const r = await h.call('xvm_send', { ...args(), confirm: p.structured?.confirmationId });
      expect(r.structured?.status, r.text).toBe('issued');
      expect(sends()).toBe(before + 1);
    } finally {
      await browser.close();
      await h.close();
    }
  }, 60_000);
});
