import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { servePasskeyRegistration } from '../../src/approval/passkey-register.js';
import { PasskeyStore } from '../../src/approval/passkey.js';
import { type Devnet, startDevnet } from '../../src/devnet/index.js';
import { launchChromium } from '../../tools/views/host.js';
import { requestsFor, spendHarness } from '../helpers/spend-harness.js';
import { startInPty } from '../helpers/pty.js';
import { MAIN } from '../helpers/stack.js';

/**
 * CHAIN_MCP_APPROVAL_LINK=passkey (the default): a client with neither elicitation nor MCP Apps
 * gets the approval link only when a registered passkey guards it, and Approve on the page then
 * needs a WebAuthn assertion with user verification. The browser is headless chromium with a
 * virtual authenticator (CDP WebAuthn domain) that plays the human's fingerprint.
 */
describe('the approval link is strong or absent', () => {
  let devnet: Devnet;
  let dir: string;
  let file: string;
  let to: string;
  const sends = () => requestsFor(devnet, 'xvm.send');
  const args = () => ({ amount: '1000000000', assetID: 'CAM', to });
  const harness = (env: Record<string, string> = {}) => spendHarness(devnet, { env: { CHAIN_MCP_APPROVAL_WAIT_MS: '0', CHAIN_MCP_PASSKEY_FILE: file, ...env } });

  beforeAll(async () => {
    devnet = await startDevnet();
    devnet.router.record = true;
    to = devnet.state.users.get('alice')!.keys[1]!.x;
    dir = mkdtempSync(join(tmpdir(), 'chain-mcp-passkey-'));
    file = join(dir, 'passkeys.json');
  });
  afterAll(async () => {
    await devnet.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('without a passkey, a client with no channel to the human is refused with the ways to approve, and nothing is sent', async () => {
    const h = await harness();
    try {
      const before = sends();
      const p = await h.call('xvm_send', args());
      expect(p.isError).toBe(true);
      expect(p.text).toContain('no channel to the human');
      expect(p.text).toContain('form elicitation');
      expect(p.text).toContain('MCP Apps');
      expect(p.text).toContain('chain-mcp passkey add');
      expect(p.text).toContain('CHAIN_MCP_APPROVAL_LINK=plain');
      expect(p.text).not.toMatch(/https?:\/\//);
      expect(sends()).toBe(before);
      expect(h.logs.some((l) => l.includes('"audit":"refused"') && l.includes('no approval channel'))).toBe(true);
    } finally {
      await h.close();
    }
  });

  it('CHAIN_MCP_APPROVAL_LINK=plain offers the link without a passkey (the operator chose it)', async () => {
    const h = await harness({ CHAIN_MCP_APPROVAL_LINK: 'plain' });
    try {
      const p = await h.call('xvm_send', args());
      expect(p.isError, p.text).toBe(false);
      expect(p.structured?.approvalUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/approve\//);
    } finally {
      await h.close();
    }
  });

  it('a passkey written into the file while the server runs is ignored until a restart, and the change is logged', async () => {
    const late = join(dir, 'late.json');
    const h = await harness({ CHAIN_MCP_PASSKEY_FILE: late });
    try {
      // A model with a shell writes its own (software) passkey into the file after the start.
      writeFileSync(late, JSON.stringify({ rpID: 'localhost', credentials: [{ id: 'model-key', publicKey: 'pQECAyYgASFYIA', counter: 0, createdAt: '2026-11-26T00:00:00.000Z' }] }));
      const before = sends();
      const p = await h.call('xvm_send', args());
      expect(p.isError).toBe(true);
      expect(p.text).toContain('no channel to the human');
      expect(p.structured?.approvalUrl).toBeUndefined();
      expect(sends()).toBe(before);
      expect(h.logs.some((l) => l.includes('"audit":"passkey_file_changed"'))).toBe(true);
    } finally {
      await h.close();
    }
  });

  it('`chain-mcp passkey add` refuses with one line without a terminal, printing no page address', () => {
    const run = spawnSync('setsid', ['-w', process.execPath, MAIN, 'passkey', 'add'], {
      env: { ...process.env, CHAIN_MCP_PASSKEY_FILE: join(dir, 'cli.json') },
      input: '',
      encoding: 'utf8',
    });
    expect(run.status).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toBe(
      'chain-mcp: passkey add needs a terminal: its page address and one-time code are shown on /dev/tty only (never on stdout); run it yourself in a terminal\n',
    );
    expect(existsSync(join(dir, 'cli.json'))).toBe(false);
  });

  it('`chain-mcp passkey add` at a terminal shows the page and a one-time code there only, and the page wants that code', async () => {
    const stdoutFile = join(dir, 'cli-stdout.txt');
    const cli = startInPty([process.execPath, MAIN, 'passkey', 'add', '--name', 'cli test'], { PATH: process.env.PATH ?? '', HOME: dir, CHAIN_MCP_PASSKEY_FILE: join(dir, 'cli.json') }, { stdoutFile });
    try {
      await cli.waitFor('Type this one-time code on the page: ');
      await cli.waitFor('\n');
      const url = /http:\/\/localhost:\d+\/[A-Za-z0-9_-]{32}/.exec(cli.text())?.[0] ?? '';
      const code = /one-time code on the page: ([A-Z2-9]{4}-[A-Z2-9]{4})/.exec(cli.text())?.[1] ?? '';
      expect(url).not.toBe('');
      expect(code).not.toBe('');
      // The page's only script is allowed by hash; the form asks for the code.
      const res = await fetch(url);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-security-policy')).toMatch(/script-src 'sha256-[A-Za-z0-9+/=]+'/);
      expect(await res.text()).toContain('name="code"');
      expect((await fetch(`${new URL(url).origin}/guess`)).status).toBe(404);
      // Three wrong codes close the registration: the command ends with one line, nothing stored.
      for (let i = 0; i < 3; i++) {
        await fetch(url);
        const r = await fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded', origin: new URL(url).origin },
          body: new URLSearchParams({ code: code === 'ABCD-EFGH' ? 'HGFE-DCBA' : 'ABCD-EFGH', credential: '{}' }),
        });
        expect(r.status).toBe(403);
      }
      await cli.waitFor('chain-mcp: 3 wrong codes on the registration page; nothing was registered (run chain-mcp passkey add again)');
      expect(await cli.exited).toBe(2);
      // Neither the address nor the code went to stdout.
      expect(readFileSync(stdoutFile, 'utf8')).toBe('');
    } finally {
      cli.kill();
    }
    expect(existsSync(join(dir, 'cli.json'))).toBe(false);
  }, 60_000);

  describe('with a passkey registered by `chain-mcp passkey add`', () => {
    let browser: Browser;
    let page: Page;
    let passkeyId = '';

    beforeAll(async () => {
      // A system Chromium or the one the @sparticuz/chromium devDependency ships (tools/browser.ts):
      // launchChromium throws one line naming what to install when none can be had; never skipped.
      browser = await launchChromium();
      page = await browser.newPage();
      const cdp = await page.context().newCDPSession(page);
      await cdp.send('WebAuthn.enable');
      await cdp.send('WebAuthn.addVirtualAuthenticator', {
        options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
      });
      const registration = await servePasskeyRegistration(new PasskeyStore(file), { code: 'QRST-2345', name: 'test laptop' });
      try {
        expect(registration.url).toMatch(/^http:\/\/localhost:\d+\/[A-Za-z0-9_-]{32}$/);
        await page.goto(registration.url);
        // The person types the code their terminal shows (registrationCode(): what `passkey add` prints there).
        await page.fill('#code', 'qrst-2345');
        await page.click('#register');
        const id = await registration.done;
        passkeyId = id;
        await page.waitForSelector('text=Registered.');
        const stored = JSON.parse(readFileSync(file, 'utf8')) as { rpID: string; credentials: Array<{ id: string; publicKey: string }> };
        expect(stored.rpID).toBe('localhost');
        expect(stored.credentials.map((c) => c.id)).toEqual([id]);
      } finally {
        await registration.close();
      }
    }, 60_000);
    afterAll(() => browser?.close());

    it('the link is offered on localhost, Approve asks for the passkey, and the spend goes once', async () => {
      const h = await harness();
      try {
        const p = await h.call('xvm_send', args());
        expect(p.isError, p.text).toBe(false);
        const url = p.structured?.approvalUrl as string;
        expect(url).toMatch(/^http:\/\/localhost:\d+\/approve\/[A-Za-z0-9_-]{32}$/);
        await page.goto(url);
        expect(await page.locator('#facts').textContent()).toContain(`To: ${to}`);
        await page.click('#approve');
        await page.waitForSelector('text=Approved.');
        const label = `"test laptop" (${passkeyId.slice(0, 12)}…)`;
        expect(await page.locator('#passkey').textContent()).toBe(`Approved with passkey ${label}.`);
        const before = sends();
        const r = await h.call('xvm_send', { ...args(), confirm: p.structured?.confirmationId });
        expect(r.structured?.status, r.text).toBe('issued');
        // The result and the audit lines name the passkey that approved.
        expect(r.structured?.approvedBy).toBe(`page with passkey ${label}`);
        expect(sends()).toBe(before + 1);
        const approved = h.logs.map((l) => JSON.parse(l) as Record<string, unknown>).filter((l) => l.audit === 'approved');
        expect(approved.map((l) => [l.channel, l.passkey])).toEqual([
          ['page', label],
          ['page', label],
        ]);
      } finally {
        await h.close();
      }
    }, 60_000);

    it("the attack: a model with an HTTP client fetches the page and posts Approve with the page's Origin; refused, nothing sent", async () => {
      const h = await harness();
      try {
        const p = await h.call('xvm_send', args());
        const url = p.structured?.approvalUrl as string;
        const html = await (await fetch(url)).text();
        const csrf = /name="csrf" value="([^"]+)"/.exec(html)?.[1] ?? '';
        expect(csrf).not.toBe('');
        const post = (body: Record<string, string>) =>
          fetch(url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', origin: new URL(url).origin }, body: new URLSearchParams(body) });
        // No assertion, then a made-up one: neither is a person's passkey.
        expect((await post({ csrf, decision: 'approve' })).status).toBe(403);
        const forged = JSON.stringify({ id: 'AAAA', rawId: 'AAAA', type: 'public-key', response: { clientDataJSON: 'e30', authenticatorData: 'AA', signature: 'AA' }, clientExtensionResults: {} });
        expect((await post({ csrf, decision: 'approve', credential: forged })).status).toBe(403);
        const before = sends();
        const r = await h.call('xvm_send', { ...args(), confirm: p.structured?.confirmationId });
        expect(r.isError).toBe(true);
        expect(r.text).toContain('Not approved by the human yet; nothing was sent');
        expect(sends()).toBe(before);
        expect(h.logs.some((l) => l.includes('"audit":"approval_refused"'))).toBe(true);
        expect(h.logs.some((l) => l.includes('"audit":"approved"'))).toBe(false);
      } finally {
        await h.close();
      }
    });

    it("the attack through the store: the passkey challenge removed from the approval's row, then Approve posted without a passkey; refused, nothing sent", async () => {
      const h = await harness();
      try {
        const p = await h.call('xvm_send', args());
        const url = p.structured?.approvalUrl as string;
        const nonce = String(p.structured?.confirmationId).split('.')[0]!;
        // What a writer of the store reads and writes: the row, its form token, and no challenge.
        const row = (await h.services.state.getApproval(nonce))!;
        expect(row.passkeyChallenge).toEqual(expect.any(String));
        await h.services.state.deleteApproval(nonce);
        await h.services.state.putApproval({ ...row, passkeyChallenge: undefined }, Date.now(), 1_000);
        const post = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', origin: new URL(url).origin }, body: new URLSearchParams({ csrf: row.csrf, decision: 'approve' }) });
        expect(post.status).toBe(404);
        const before = sends();
        const r = await h.call('xvm_send', { ...args(), confirm: p.structured?.confirmationId });
        expect(r.isError).toBe(true);
        expect(r.text).toContain('Refused: the approval kept for this preview was altered in the state store');
        expect(sends()).toBe(before);
        expect(h.logs.some((l) => l.includes('"audit":"approved"'))).toBe(false);
      } finally {
        await h.close();
      }
    });

    it("an assertion made for another approval's page does not approve this one", async () => {
      const h = await harness();
      try {
        const a = await h.call('xvm_send', args());
        const b = await h.call('xvm_send', { ...args(), amount: '2000000000' });
        const urlA = a.structured?.approvalUrl as string;
        const urlB = b.structured?.approvalUrl as string;
        // Capture the assertion the human's browser made for A, and post it to B's form instead.
        await page.goto(urlA);
        await page.route(urlA, (route) => route.abort());
        const posted = page.waitForRequest((req) => req.method() === 'POST');
        await page.click('#approve');
        const credential = new URLSearchParams((await posted).postData() ?? '').get('credential') ?? '';
        await page.unroute(urlA);
        expect(credential).toContain('authenticatorData');
        const htmlB = await (await fetch(urlB)).text();
        const csrfB = /name="csrf" value="([^"]+)"/.exec(htmlB)?.[1] ?? '';
        const res = await fetch(urlB, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded', origin: new URL(urlB).origin },
          body: new URLSearchParams({ csrf: csrfB, decision: 'approve', credential }),
        });
        expect(res.status).toBe(403);
        const before = sends();
        const r = await h.call('xvm_send', { ...args(), amount: '2000000000', confirm: b.structured?.confirmationId });
        expect(r.text).toContain('Not approved by the human yet');
        expect(sends()).toBe(before);
      } finally {
        await h.close();
      }
    }, 60_000);
  });
});
