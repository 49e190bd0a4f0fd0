import { launchChromium } from '../../tools/views/host.js';
import { requestsFor, type SpendHarness, spendHarness } from '../helpers/spend-harness.js';
import type { ClientCapabilities } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CARD_META_KEY, CARD_TOOL, CARD_URI, cardHtml } from '../../src/approval/card.js';
import { type Devnet, startDevnet } from '../../src/devnet/index.js';

/**
 * The MCP Apps approval card: the host (played by the test client) renders the `ui://` card from
 * the preview result's `_meta`, and the human's Approve/Decline calls the app-only tool with the
 * card's one-time secret. The model's text never holds that secret.
 */
type Harness = SpendHarness;

const UI_HOST = { extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] } } };

const harness = (devnet: Devnet, opts: { capabilities?: Record<string, unknown>; approval?: string } = {}) =>
  spendHarness(devnet, {
    capabilities: (opts.capabilities ?? UI_HOST) as ClientCapabilities,
    env: { CHAIN_MCP_APPROVAL_WAIT_MS: '0', CHAIN_MCP_APPROVAL_LINK: 'plain', ...(opts.approval ? { CHAIN_MCP_APPROVAL: opts.approval } : {}) },
  });

interface CardData {
  secret: string;
  title: string;
  lines: string[];
}

describe('the MCP Apps approval card', () => {
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

  describe('a host that renders MCP Apps views', () => {
    let h: Harness;
    beforeAll(async () => {
      h = await harness(devnet);
    });
    afterAll(() => h.close());

    async function preview(): Promise<{ id: string; card: CardData }> {
      const p = await h.call('xvm_send', args());
      expect(p.isError, p.text).toBe(false);
      expect((p.meta?.ui as { resourceUri?: string } | undefined)?.resourceUri).toBe(CARD_URI);
      const card = p.meta?.[CARD_META_KEY] as CardData;
      expect(card.secret).toMatch(/^[A-Za-z0-9_-]{32}$/);
      // The model reads the text and (on some hosts) structuredContent: neither holds the secret, nor a page link.
      expect(p.text).not.toContain(card.secret);
      expect(JSON.stringify(p.structured)).not.toContain(card.secret);
      expect(p.structured?.approvalUrl).toBeUndefined();
      expect(p.text).not.toContain('http://127.0.0.1');
      expect(p.text).toContain('approval card');
      return { id: p.structured?.confirmationId as string, card };
    }

    it('the app-only tool is listed for apps only (visibility ["app"]), and the card is a strict-CSP ui:// resource', async () => {
      const { tools } = await h.client.listTools();
      expect(tools.length).toBeGreaterThan(10);
      // MCP Apps hosts keep it from the model and forward the card's calls only to a tool listed with "app".
      expect(tools.filter((t) => t.name === CARD_TOOL).map((t) => t._meta?.ui)).toEqual([{ visibility: ['app'] }]);
      // Spend tools name the card in their listing (how MCP Apps hosts find a tool's view); reads do not.
      expect((tools.find((t) => t.name === 'xvm_send')?._meta?.ui as { resourceUri?: string } | undefined)?.resourceUri).toBe(CARD_URI);
      expect(tools.find((t) => t.name === 'xvm_getBalance')?._meta).toBeUndefined();
      const read = await h.client.readResource({ uri: CARD_URI });
      const card = read.contents[0] as { mimeType?: string; text?: string };
      expect(card.mimeType).toBe('text/html;profile=mcp-app');
      expect(card.text).toMatch(/Content-Security-Policy" content="default-src 'none'; style-src 'sha256-[^']+'; script-src 'sha256-[^']+';/);
      // Nothing in the markup points anywhere; the inlined ext-apps App class carries URL strings
      // (JSON Schema ids, doc text) that are data, and the CSP above lets nothing load anyway.
      // (ext-apps 2's App class also assigns members named action and src: code, not attributes.)
      const markup = card.text!.replace(/<script>[\s\S]*<\/script>/, '');
      expect(markup).not.toMatch(/https?:\/\//);
      expect(markup).not.toMatch(/\b(src|href|action)=/);
      expect(markup).toContain('<div id="status"');
    });

    it("the card shows the facts; its Approve sends once, the model's confirm alone sends nothing", async () => {
      const { id, card } = await preview();
      expect(card.lines.join('\n')).toContain('Amount in smallest units: 1000000000');
      expect(card.lines.join('\n')).toContain(to);
      const before = sends();
      const early = await h.call('xvm_send', { ...args(), confirm: id });
      expect(early.isError).toBe(true);
      expect(early.text).toContain('Not approved by the human yet; nothing was sent');
      expect(sends()).toBe(before);

      const forged = await h.call(CARD_TOOL, { secret: 'A'.repeat(32), decision: 'approve' });
      expect(forged.isError).toBe(true);
      expect(forged.text).toContain('no longer valid');
      const approved = await h.call(CARD_TOOL, { secret: card.secret, decision: 'approve' });
      expect(approved.isError, approved.text).toBe(false);
      expect(approved.text).toContain('Approved');
      const replay = await h.call(CARD_TOOL, { secret: card.secret, decision: 'decline' });
      expect(replay.isError).toBe(true);
      expect(sends()).toBe(before);

      const sent = await h.call('xvm_send', { ...args(), confirm: id });
      expect(sent.isError, sent.text).toBe(false);
      expect(sent.structured?.status).toBe('issued');
      expect(sends()).toBe(before + 1);
      expect((await h.call('xvm_send', { ...args(), confirm: id })).text).toContain('already used');
      expect(sends()).toBe(before + 1);

      const audit = h.logs.map((l) => JSON.parse(l) as { audit?: string; channel?: string });
      expect(audit.some((l) => l.audit === 'approved' && l.channel === 'app')).toBe(true);
      expect(h.logs.join('\n')).not.toContain(card.secret);
    });

    it('a card Decline sends nothing, ever', async () => {
      const { id, card } = await preview();
      const before = sends();
      expect((await h.call(CARD_TOOL, { secret: card.secret, decision: 'decline' })).isError).toBe(false);
      const r = await h.call('xvm_send', { ...args(), confirm: id });
      expect(r.structured?.status).toBe('declined');
      expect((await h.call('xvm_send', { ...args(), confirm: id })).text).toContain('already used');
      expect(sends()).toBe(before);
      expect(h.logs.some((l) => l.includes('"audit":"declined"') && l.includes('"channel":"app"'))).toBe(true);
    });

    it('an expired card approves nothing and sends nothing', async () => {
      const { id, card } = await preview();
      const before = sends();
      h.clock.now += 5 * 60_000 + 1_000;
      const late = await h.call(CARD_TOOL, { secret: card.secret, decision: 'approve' });
      expect(late.isError).toBe(true);
      expect(late.text).toContain('expired');
      const r = await h.call('xvm_send', { ...args(), confirm: id });
      expect(r.isError).toBe(true);
      expect(sends()).toBe(before);
      expect(h.logs.some((l) => l.includes('"audit":"expired"') && l.includes('"channel":"app"'))).toBe(true);
    });

    it('one card approves only its own preview', async () => {
      const first = await preview();
      const second = await preview();
      const before = sends();
      expect((await h.call(CARD_TOOL, { secret: first.card.secret, decision: 'approve' })).isError).toBe(false);
      expect((await h.call('xvm_send', { ...args(), confirm: second.id })).text).toContain('Not approved by the human yet');
      expect(sends()).toBe(before);
      expect((await h.call('xvm_send', { ...args(), confirm: first.id })).structured?.status).toBe('issued');
      expect(sends()).toBe(before + 1);
    });
  });

  it('in headless chromium, played by a host page: the card renders the facts as text under its CSP and its Approve sends once', async () => {
    // launchChromium throws one line naming what to install when no browser can be had: it fails, never skips.
    const h = await harness(devnet);
    const browser = await launchChromium();
    try {
      const p = await h.client.callTool({ name: 'xvm_send', arguments: args() });
      const id = (p.structuredContent as { confirmationId: string }).confirmationId;
      // A stranger-written line must show as text, never as markup.
      const hostile = '<img src=x onerror="document.title=1">"GLD"';
      const meta = p._meta as Record<string, { lines: string[] }>;
      const shown = { ...p, _meta: { ...meta, [CARD_META_KEY]: { ...meta[CARD_META_KEY]!, lines: [...meta[CARD_META_KEY]!.lines, hostile] } } };
      const page = await browser.newPage();
      const violations: string[] = [];
      page.on('console', (m) => {
        if (/Content Security Policy/i.test(m.text())) violations.push(m.text());
      });
      await page.exposeFunction('hostCallTool', async (name: string, a: Record<string, unknown>) => h.client.callTool({ name, arguments: a }));
      await page.setContent('<!doctype html><html><body></body></html>');
      const CARD_HTML = await cardHtml();
      // The host side of the MCP Apps postMessage protocol: initialize, hand over the tool result, proxy tools/call.
      // Browser-side code as a string: the test build has no DOM types.
      await page.evaluate(`(() => {
        const html = ${JSON.stringify(CARD_HTML)};
        const result = ${JSON.stringify(shown)};
        const frame = document.createElement('iframe');
        frame.sandbox.add('allow-scripts');
        frame.style.width = '600px';
        frame.style.height = '400px';
        const post = (m) => frame.contentWindow.postMessage(m, '*');
        window.addEventListener('message', async (ev) => {
          const m = ev.data;
          if (ev.source !== frame.contentWindow || !m) return;
          if (m.method === 'ui/initialize') post({ jsonrpc: '2.0', id: m.id, result: { protocolVersion: '2026-01-26', hostInfo: { name: 'test host', version: '0' }, hostCapabilities: {}, hostContext: {} } });
          if (m.method === 'ui/notifications/initialized') post({ jsonrpc: '2.0', method: 'ui/notifications/tool-result', params: result });
          if (m.method === 'tools/call') post({ jsonrpc: '2.0', id: m.id, result: await window.hostCallTool(m.params.name, m.params.arguments) });
        });
        frame.srcdoc = html;
        document.body.appendChild(frame);
      })()`);
      const card = page.frameLocator('iframe');
      await card.locator('#approve').waitFor({ state: 'visible', timeout: 10_000 });
      const facts = await card.locator('#facts li').allTextContents();
      expect(facts.join('\n')).toContain('Amount in smallest units: 1000000000');
      expect(facts.join('\n')).toContain(to);
      expect(facts).toContain(hostile);
      expect(await card.locator('img').count()).toBe(0);
      expect(await card.locator('#title').textContent()).toContain('Approve');

      const before = sends();
      await card.locator('#approve').click();
      await expect.poll(() => card.locator('#status').textContent(), { timeout: 10_000 }).toContain('Approved');
      expect(sends()).toBe(before);
      const sent = await h.call('xvm_send', { ...args(), confirm: id });
      expect(sent.structured?.status, sent.text).toBe('issued');
      expect(sends()).toBe(before + 1);
      expect(violations).toEqual([]);
    } finally {
      await browser.close();
      await h.close();
    }
  });

  it('a host without MCP Apps gets no card, and the app-only tool decides nothing', async () => {
    const h = await harness(devnet, { capabilities: {} });
    try {
      expect((await h.client.listTools()).tools.some((t) => t._meta !== undefined)).toBe(false);
      const p = await h.call('xvm_send', args());
      expect(p.meta?.[CARD_META_KEY]).toBeUndefined();
      expect(p.structured?.approvalUrl).toMatch(/^http:\/\/127\.0\.0\.1:/);
      const r = await h.call(CARD_TOOL, { secret: 'A'.repeat(32), decision: 'approve' });
      expect(r.isError).toBe(true);
    } finally {
      await h.close();
    }
  });

  it('under confirm-id there is no card and no app-only tool', async () => {
    const h = await harness(devnet, { approval: 'confirm-id' });
    try {
      const p = await h.call('xvm_send', args());
      expect(p.meta?.[CARD_META_KEY]).toBeUndefined();
      await expect(h.call(CARD_TOOL, { secret: 'A'.repeat(32), decision: 'approve' })).rejects.toThrow('Unknown tool');
    } finally {
      await h.close();
    }
  });
});
