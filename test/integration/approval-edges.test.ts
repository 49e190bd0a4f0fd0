import { request } from 'node:http';
import type { ClientCapabilities } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CARD_META_KEY, CARD_TOOL } from '../../src/approval/card.js';
import { type Devnet, startDevnet } from '../../src/devnet/index.js';
import { type ElicitAnswer, type ElicitParams, requestsFor, type SpendHarness, spendHarness } from '../helpers/spend-harness.js';

/**
 * The edges of human approval (issue 25): each test here failed with one hand-made bug in the
 * approval flow that the main approval suites let through. Driven through MCP and the page's HTTP.
 */
const UI_HOST = { extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] } } };

const harness = (devnet: Devnet, opts: { capabilities?: ClientCapabilities; elicit?: (p: ElicitParams) => Promise<ElicitAnswer> } = {}) =>
  spendHarness(devnet, { capabilities: opts.capabilities, elicit: opts.elicit, env: { CHAIN_MCP_APPROVAL_WAIT_MS: '0', CHAIN_MCP_APPROVAL_LINK: 'plain' } });

/** A raw POST to the page with exactly this body and Origin (fetch would not send a chosen Host). */
function post(url: string, body: string, headers: Record<string, string> = {}): Promise<number> {
  const u = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request(
      { host: u.hostname, port: u.port, path: u.pathname, method: 'POST', headers: { origin: u.origin, 'content-type': 'application/x-www-form-urlencoded', ...headers } },
      (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

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

async function csrfOf(url: string): Promise<string> {
  const csrf = /name="csrf" value="([^"]+)"/.exec(await (await fetch(url)).text())?.[1];
  expect(csrf, 'the page carries its form token').toMatch(/^[A-Za-z0-9_-]{20,}$/);
  return csrf!;
}

describe('approval edges', () => {
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

  describe('the approval page', () => {
    let h: SpendHarness;
    beforeAll(async () => {
      h = await harness(devnet);
    });
    afterAll(() => h.close());

    async function preview(): Promise<{ id: string; url: string }> {
      const p = await h.call('xvm_send', args());
      expect(p.isError, p.text).toBe(false);
      return { id: p.structured?.confirmationId as string, url: p.structured?.approvalUrl as string };
    }

    /** The approval is still undecided: the model's confirm is told so and nothing is sent. */
    async function stillPending(id: string): Promise<void> {
      const before = sends();
      expect((await h.call('xvm_send', { ...args(), confirm: id })).text).toContain('Not approved by the human yet');
      expect(sends()).toBe(before);
    }

    it('finds an approval only by its whole page token, not by a prefix or an extension of it', async () => {
      const { id, url } = await preview();
      const token = url.slice(url.lastIndexOf('/') + 1);
      const base = url.slice(0, -token.length);
      const csrf = await csrfOf(url);
      for (const other of [token.slice(0, 24), token.slice(0, -1), `${token}A`, `${token}${token}`.slice(0, 64)]) {
        expect((await fetch(base + other)).status, other).toBe(404);
        expect(await post(base + other, new URLSearchParams({ csrf, decision: 'approve' }).toString()), other).toBe(404);
      }
      await stillPending(id);
    });

    it('answers only its own Host, never a name that starts like it', async () => {
      const { id, url } = await preview();
      const port = new URL(url).port;
      expect(await getWithHost(url, `127.0.0.1:${port}`)).toBe(200);
      expect(await getWithHost(url, `localhost:${port}`)).toBe(200);
      for (const host of [`localhost.attacker.example:${port}`, `localhost:${port}.attacker.example`, `127.0.0.1:${port}0`, `127.0.0.1.attacker.example:${port}`, 'localhost', '127.0.0.1']) {
        expect(await getWithHost(url, host), host).toBe(403);
      }
      const csrf = await csrfOf(url);
      expect(await post(url, new URLSearchParams({ csrf, decision: 'approve' }).toString(), { host: `localhost.attacker.example:${port}` })).toBe(403);
      await stillPending(id);
    });

    it('refuses a POST without the csrf field, with an empty one, or with a prefix or extension of it', async () => {
      const { id, url } = await preview();
      const csrf = await csrfOf(url);
      const bodies = ['decision=approve', 'csrf=&decision=approve', `csrf=${csrf.slice(0, 8)}&decision=approve`, `csrf=${csrf.slice(0, -1)}&decision=approve`, `csrf=${csrf}x&decision=approve`];
      for (const body of bodies) expect(await post(url, body), body).toBe(403);
      await stillPending(id);
      // The same page with its own token does decide: the refusals above were about the token.
      expect(await post(url, new URLSearchParams({ csrf, decision: 'approve' }).toString())).toBe(200);
      const before = sends();
      expect((await h.call('xvm_send', { ...args(), confirm: id })).structured?.status).toBe('issued');
      expect(sends()).toBe(before + 1);
    });
  });

  it('form elicitation answered "cancel" (dismissed) is no approval: nothing is sent', async () => {
    for (const action of ['cancel', 'decline'] as const) {
      const h = await harness(devnet, { capabilities: { elicitation: { form: {} } }, elicit: async () => ({ action, content: { approve: true } }) });
      try {
        const p = await h.call('xvm_send', args());
        const before = sends();
        const r = await h.call('xvm_send', { ...args(), confirm: p.structured?.confirmationId });
        expect(r.structured?.status, `${action}: ${r.text}`).toBe('declined');
        expect(sends()).toBe(before);
      } finally {
        await h.close();
      }
    }
  });

  it('URL elicitation "accept" only means the link was opened: the page still decides, and its Decline wins', async () => {
    let opened: (url: string) => void = () => {};
    const url = new Promise<string>((resolve) => {
      opened = resolve;
    });
    const h = await harness(devnet, {
      capabilities: { elicitation: { url: {} } },
      // The client opened the page for the human and says so; the human has decided nothing yet.
      elicit: async (params) => {
        opened(params.url!);
        return { action: 'accept' };
      },
    });
    try {
      const p = await h.call('xvm_send', args());
      const before = sends();
      const pending = h.call('xvm_send', { ...args(), confirm: p.structured?.confirmationId });
      const page = await url;
      expect(await post(page, new URLSearchParams({ csrf: await csrfOf(page), decision: 'decline' }).toString())).toBe(200);
      const r = await pending;
      expect(r.structured?.status, r.text).toBe('declined');
      expect(sends()).toBe(before);
    } finally {
      await h.close();
    }
  });

  describe('the approval card', () => {
    it('a card secret works once: a second use is refused as unknown, whatever the first decided', async () => {
      const h = await harness(devnet, { capabilities: UI_HOST as ClientCapabilities });
      try {
        const p = await h.call('xvm_send', args());
        const secret = (p.meta?.[CARD_META_KEY] as { secret?: string } | undefined)?.secret ?? '';
        expect(secret).toMatch(/^[A-Za-z0-9_-]{32}$/);
        expect((await h.call(CARD_TOOL, { secret, decision: 'decline' })).isError).toBe(false);
        const again = await h.call(CARD_TOOL, { secret, decision: 'approve' });
        expect(again.isError).toBe(true);
        expect(again.text).toContain('no longer valid');
        const before = sends();
        expect((await h.call('xvm_send', { ...args(), confirm: p.structured?.confirmationId })).structured?.status).toBe('declined');
        expect(sends()).toBe(before);
      } finally {
        await h.close();
      }
    });

    it('an approval is decided once across channels: the page approves, then the card cannot decline it', async () => {
      let cardAnswer: { isError: boolean; text: string } | undefined;
      let secret = '';
      let h: SpendHarness | undefined;
      h = await harness(devnet, {
        capabilities: { ...UI_HOST, elicitation: { url: {} } } as ClientCapabilities,
        elicit: async (params) => {
          expect(await post(params.url!, new URLSearchParams({ csrf: await csrfOf(params.url!), decision: 'approve' }).toString())).toBe(200);
          cardAnswer = await h!.call(CARD_TOOL, { secret, decision: 'decline' });
          return { action: 'accept' };
        },
      });
      try {
        const p = await h.call('xvm_send', args());
        secret = (p.meta?.[CARD_META_KEY] as { secret?: string } | undefined)?.secret ?? '';
        expect(secret).toMatch(/^[A-Za-z0-9_-]{32}$/);
        const before = sends();
        const r = await h.call('xvm_send', { ...args(), confirm: p.structured?.confirmationId });
        expect(cardAnswer?.isError, cardAnswer?.text).toBe(true);
        expect(cardAnswer?.text).toContain('already decided');
        expect(r.structured?.status, r.text).toBe('issued');
        expect(sends()).toBe(before + 1);
      } finally {
        await h.close();
      }
    });
  });

  describe('which channel the client declared is the one asked (mutation survivors, issue 25)', () => {
    /** One confirm with these capabilities; returns what the client was asked and the outcome. */
    async function confirmWith(capabilities: ClientCapabilities, answer: (p: ElicitParams & { requestedSchema?: unknown }) => Promise<ElicitAnswer>) {
      const asked: Array<ElicitParams & { requestedSchema?: unknown }> = [];
      const h = await harness(devnet, {
        capabilities,
        elicit: async (p) => {
          asked.push(p);
          return answer(p);
        },
      });
      try {
        const p = await h.call('xvm_send', args());
        const before = sends();
        const r = await h.call('xvm_send', { ...args(), confirm: p.structured?.confirmationId });
        return { asked, status: r.structured?.status, sent: sends() - before, text: r.text };
      } finally {
        await h.close();
      }
    }

    it('a bare elicitation capability (clients older than URL mode) means a form with one required boolean', async () => {
      const r = await confirmWith({ elicitation: {} }, async () => ({ action: 'accept', content: { approve: true } }));
      expect(r.asked).toHaveLength(1);
      expect(r.asked[0]?.mode ?? 'form').toBe('form');
      expect(r.asked[0]?.requestedSchema).toEqual({
        type: 'object',
        properties: { approve: { type: 'boolean', title: 'Approve', description: 'Send this transaction once.' } },
        required: ['approve'],
      });
      expect(r.asked[0]?.message).toMatch(/^Approve Send [^\n]*\?\n/);
      expect([r.status, r.sent]).toEqual(['issued', 1]);
    });

    it('a client declaring URL mode only is never asked with a form', async () => {
      const r = await confirmWith({ elicitation: { url: {} } }, async () => ({ action: 'decline' }));
      expect(r.asked.map((a) => a.mode)).toEqual(['url']);
      expect([r.status, r.sent]).toEqual(['declined', 0]);
    });

    it('a client declaring both is asked by URL first, and only once', async () => {
      const r = await confirmWith({ elicitation: { form: {}, url: {} } }, async () => ({ action: 'decline' }));
      expect(r.asked.map((a) => a.mode)).toEqual(['url']);
      expect(r.sent).toBe(0);
    });

    it('an accepted form without approve: true, or a client failing to ask, is no approval', async () => {
      for (const content of [{ approve: false }, {}, undefined]) {
        const r = await confirmWith({ elicitation: { form: {} } }, async () => ({ action: 'accept', content }));
        expect([r.status, r.sent], JSON.stringify(content)).toEqual(['declined', 0]);
      }
      for (const capabilities of [{ elicitation: { form: {} } }, { elicitation: { url: {} } }] as ClientCapabilities[]) {
        const r = await confirmWith(capabilities, async () => {
          throw new Error('the client could not show the question');
        });
        expect([r.status, r.sent], JSON.stringify(capabilities)).toEqual(['declined', 0]);
      }
    });

    it('under confirm-id, a client with form elicitation (declared alone or beside URL) is asked by form, and its decline sends nothing', async () => {
      for (const elicitation of [{ form: {} }, { form: {}, url: {} }, {}] as NonNullable<ClientCapabilities['elicitation']>[]) {
        const asked: ElicitParams[] = [];
        const h = await spendHarness(devnet, {
          capabilities: { elicitation },
          elicit: async (p) => {
            asked.push(p);
            return { action: 'decline' };
          },
          env: { CHAIN_MCP_APPROVAL: 'confirm-id' },
        });
        try {
          const p = await h.call('xvm_send', args());
          const before = sends();
          const r = await h.call('xvm_send', { ...args(), confirm: p.structured?.confirmationId });
          expect(asked.map((a) => a.mode ?? 'form'), JSON.stringify(elicitation)).toEqual(['form']);
          expect([r.structured?.status, sends() - before], JSON.stringify(elicitation)).toEqual(['declined', 0]);
        } finally {
          await h.close();
        }
      }
    });

    it('under confirm-id, a URL-only client is not asked by form: the confirmation id is the approval', async () => {
      const asked: ElicitParams[] = [];
      const h = await spendHarness(devnet, {
        capabilities: { elicitation: { url: {} } },
        elicit: async (p) => {
          asked.push(p);
          return { action: 'decline' };
        },
        env: { CHAIN_MCP_APPROVAL: 'confirm-id' },
      });
      try {
        const p = await h.call('xvm_send', args());
        const before = sends();
        const r = await h.call('xvm_send', { ...args(), confirm: p.structured?.confirmationId });
        expect(asked).toEqual([]);
        expect([r.structured?.status, sends() - before]).toEqual(['issued', 1]);
      } finally {
        await h.close();
      }
    });
  });
});
