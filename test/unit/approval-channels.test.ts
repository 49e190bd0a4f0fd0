import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { type Approval, ApprovalBook } from '../../src/approval/book.js';
import { CARD_META_KEY, CARD_URI, CardSecrets, RESOURCE_MIME_TYPE, UI_EXTENSION_ID, cardMeta, cardResource, hostShowsCards } from '../../src/approval/card.js';
import { decideFromCard } from '../../src/approval/card-tool.js';
import { type ApprovalDeps, type HumanChannels, humanDecision, needsLink } from '../../src/approval/flow.js';
import type { ApprovalPages } from '../../src/approval/page.js';
import { createLogger } from '../../src/log.js';

/** A logger whose JSON lines the test reads back: the audit trail of every decision. */
function auditLog() {
  const lines: Array<Record<string, unknown>> = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const line of chunk.toString('utf8').split('\n').filter(Boolean)) lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  const log = createLogger('info', [], stream);
  const audits = () => lines.filter((l) => 'audit' in l).map(({ audit, channel, tool, answer, msg }) => ({ audit, channel, tool, answer, msg }));
  return { log, audits };
}

function book(now = 1_000) {
  const clock = { now };
  const b = new ApprovalBook(() => clock.now);
  const open = (tool = 'xvm_send') => b.open(`nonce-${Math.random()}`, { tool, title: 'Send 1 CAM', lines: ['To: X-local1abc', 'Amount: 1 CAM'] }, clock.now + 300_000);
  return { book: b, open, clock };
}

describe('the approval card tool (mutation survivors, issue 25)', () => {
  it('refuses anything but a string secret with approve or decline, deciding nothing and leaving the card usable', async () => {
    const { book: b, open } = book();
    const { log } = auditLog();
    const secrets = new CardSecrets(b.store);
    const approval = await open();
    const secret = await secrets.issue(approval);
    for (const args of [{ secret, decision: 'maybe' }, { secret, decision: 'Approve' }, { secret: 7, decision: 'approve' }, { decision: 'approve' }, { secret }]) {
      const r = await decideFromCard({ book: b, secrets, log }, args);
      expect(r).toEqual({ isError: true, content: [{ type: 'text', text: 'Expected { secret, decision: "approve" | "decline" }; nothing was decided.' }] });
      expect((await b.get(approval.nonce))?.state).toBe('pending');
    }
    expect((await decideFromCard({ book: b, secrets, log }, { secret, decision: 'decline' })).content[0]?.text).toBe('Declined; nothing will be sent.');
    expect((await b.get(approval.nonce))?.state).toBe('declined');
  });

  it('says approved only for approve, and writes each outcome to the audit log with its channel and tool', async () => {
    const { book: b, open } = book();
    const { log, audits } = auditLog();
    const secrets = new CardSecrets(b.store);
    const approval = await open('platform_addValidator');
    const secret = await secrets.issue(approval);
    const r = await decideFromCard({ book: b, secrets, log }, { secret, decision: 'approve' });
    expect(r).toEqual({ content: [{ type: 'text', text: 'Approved. The assistant may now send this exact transaction once.' }] });
    expect(await b.get(approval.nonce)).toMatchObject({ state: 'approved', decidedBy: 'app' });
    expect((await decideFromCard({ book: b, secrets, log }, { secret, decision: 'approve' })).isError).toBe(true);
    expect(audits()).toEqual([
      { audit: 'approved', channel: 'app', tool: 'platform_addValidator', answer: undefined, msg: 'spend approved on the approval card' },
      { audit: 'refused', channel: 'app', tool: undefined, answer: undefined, msg: 'approval card secret unknown or used' },
    ]);
  });
});

describe('card secrets', () => {
  it('finds its approval once, and is gone when the expired approval is swept', async () => {
    const { book: b, open, clock } = book();
    const secrets = new CardSecrets(b.store);
    const first = await open();
    const second = await open();
    const one = await secrets.issue(first);
    const two = await secrets.issue(second);
    expect(one).not.toBe(two);
    expect(await secrets.take(one)).toBe(first.nonce);
    expect(await secrets.take(one)).toBeUndefined();
    expect(await secrets.take('made-up-secret-of-the-same-length-000')).toBeUndefined();
    clock.now = second.expiresAt + 1;
    expect(await b.sweep()).toHaveLength(2);
    expect(await secrets.take(two)).toBeUndefined();
  });

  it('dies with its approval when the spend is sent, and the store never holds the secret itself', async () => {
    const { book: b, open } = book();
    const seen: string[] = [];
    const put = b.store.putCardSecret.bind(b.store);
    b.store.putCardSecret = (secret, nonce, expiresAt) => {
      seen.push(secret);
      return put(secret, nonce, expiresAt);
    };
    const secrets = new CardSecrets(b.store);
    const approval = await open();
    const secret = await secrets.issue(approval);
    expect(seen).toHaveLength(1);
    expect(seen[0]).not.toContain(secret);
    await b.forget(approval);
    expect(await secrets.take(secret)).toBeUndefined();
  });
});

describe('the card resource and host detection', () => {
  it('serves the card as an MCP Apps view that may fetch nothing', async () => {
    const r = await cardResource();
    expect(r.uri).toBe(CARD_URI);
    expect(r.mimeType).toBe('text/html;profile=mcp-app');
    expect(r._meta).toEqual({ ui: { csp: { connectDomains: [], resourceDomains: [] }, prefersBorder: true } });
    expect(r.text).toMatch(/^<!doctype html>/i);
  });

  it('shows cards only to a host that advertised the ui extension with the MCP Apps MIME type', () => {
    expect(hostShowsCards(undefined)).toBe(false);
    expect(hostShowsCards({})).toBe(false);
    expect(hostShowsCards({ extensions: {} } as never)).toBe(false);
    expect(hostShowsCards({ extensions: { [UI_EXTENSION_ID]: {} } } as never)).toBe(false);
    expect(hostShowsCards({ extensions: { [UI_EXTENSION_ID]: { mimeTypes: ['text/html'] } } } as never)).toBe(false);
    expect(hostShowsCards({ extensions: { [UI_EXTENSION_ID]: { mimeTypes: [RESOURCE_MIME_TYPE] } } } as never)).toBe(true);
  });
});

/** A book whose waits return at once, recording each slice asked; the page is not needed here. */
function recordingDeps(waitMs: number, log = auditLog().log) {
  const { book: b, open } = book();
  const waits: number[] = [];
  const realWait = b.wait.bind(b);
  b.wait = (approval: Approval, ms: number, signal?: AbortSignal) => {
    waits.push(ms);
    return realWait(approval, 0, signal);
  };
  const pages = { url: async (a: Approval) => `http://127.0.0.1:1/approve/${a.token}` } as unknown as ApprovalPages;
  const deps: ApprovalDeps = { book: b, pages, log, waitMs };
  return { deps, open, waits };
}

describe('getting the human decision', () => {
  it('asks nobody about an approval already decided', async () => {
    const { deps, open, waits } = recordingDeps(12_000);
    const approval = await open();
    await deps.book.decide(approval, 'declined', 'page');
    let asked = 0;
    const ask = async () => {
      asked++;
      return 'accept' as const;
    };
    expect(await humanDecision(deps, approval, { elicit: ask, elicitUrl: ask })).toBe('declined');
    expect(asked).toBe(0);
    expect(waits).toEqual([]);
  });

  it('waits for the page in slices of 5 s up to the time given, reporting progress, and stops at a decision or an abort', async () => {
    const { deps, open, waits } = recordingDeps(12_000);
    const progress: Array<[number, number | undefined]> = [];
    const channels: HumanChannels = { progress: async (done, total) => void progress.push([done, total]) };
    expect(await humanDecision(deps, await open(), channels)).toBe('pending');
    expect(waits).toEqual([5_000, 5_000, 2_000]);
    expect(progress).toEqual([[0, 12_000], [5_000, 12_000], [10_000, 12_000]]);

    const exact = recordingDeps(10_000);
    await humanDecision(exact.deps, await exact.open(), {});
    expect(exact.waits).toEqual([5_000, 5_000]);

    const aborted = recordingDeps(12_000);
    const controller = new AbortController();
    controller.abort();
    await humanDecision(aborted.deps, await aborted.open(), { signal: controller.signal });
    expect(aborted.waits).toEqual([]);

    const decided = recordingDeps(12_000);
    const approval = await decided.open();
    decided.deps.book.wait = async (a) => {
      decided.waits.push(1);
      await decided.deps.book.decide(a, 'approved', 'page');
      return (await decided.deps.book.get(a.nonce))?.state ?? 'pending';
    };
    expect(await humanDecision(decided.deps, approval, {})).toBe('approved');
    expect(decided.waits).toEqual([1]);
  });

  it('after a URL elicitation is accepted (the link opened), waits at least a minute for the page itself', async () => {
    const { deps, open, waits } = recordingDeps(1_000);
    const approval = await open();
    expect(await humanDecision(deps, approval, { elicitUrl: async () => 'accept' })).toBe('pending');
    expect(waits.reduce((a, b) => a + b, 0)).toBe(60_000);
  });

  it('audits a URL elicitation declined or cancelled, and a form answer, with the channel and the answer', async () => {
    const { log, audits } = auditLog();
    const { deps, open } = recordingDeps(1_000, log);
    expect(await humanDecision(deps, await open('xvm_send'), { elicitUrl: async () => 'cancel' })).toBe('declined');
    expect(await humanDecision(deps, await open('xvm_mint'), { elicit: async () => 'accept' })).toBe('approved');
    expect(await humanDecision(deps, await open('cx_export'), { elicit: async () => 'decline' })).toBe('declined');
    expect(audits()).toEqual([
      { audit: 'declined', channel: 'url-elicitation', tool: 'xvm_send', answer: 'cancel', msg: 'spend declined' },
      { audit: 'approved', channel: 'form-elicitation', tool: 'xvm_mint', answer: 'accept', msg: 'spend approved' },
      { audit: 'declined', channel: 'form-elicitation', tool: 'cx_export', answer: 'decline', msg: 'spend declined' },
    ]);
  });

  it('gives the model the link only when the client has no channel to the human', () => {
    const ask = async () => 'accept' as const;
    expect(needsLink({})).toBe(true);
    expect(needsLink({ elicit: ask })).toBe(false);
    expect(needsLink({ elicitUrl: ask })).toBe(false);
    expect(needsLink({ appCard: true })).toBe(false);
  });
});

describe('the approval surfaces agree on what leads (issue 40)', () => {
  const LINES = ['Send 1 CAM to X-a', 'Total leaving your key: 1.001 CAM', 'NOT your address: X-a', 'Fee: 0.001 CAM', 'Network: local'];

  it('a form elicitation asks with the title, the head, then every other line after a blank line and "Details:"', async () => {
    const { deps } = recordingDeps(1_000);
    const asked: string[] = [];
    const elicit = async (message: string) => {
      asked.push(message);
      return 'decline' as const;
    };
    const withDetails = await deps.book.open('nonce-details', { tool: 'xvm_send', title: 'Send 1 CAM', lines: LINES }, 300_000);
    await humanDecision(deps, withDetails, { elicit });
    // Every line is there, in order; only the head comes first.
    const onlyHead = await deps.book.open('nonce-head', { tool: 'xvm_send', title: 'Send 1 CAM', lines: LINES.slice(0, 3) }, 300_000);
    await humanDecision(deps, onlyHead, { elicit });
    expect(asked).toEqual([
      'Approve Send 1 CAM?\nSend 1 CAM to X-a\nTotal leaving your key: 1.001 CAM\nNOT your address: X-a\n\nDetails:\nFee: 0.001 CAM\nNetwork: local',
      'Approve Send 1 CAM?\nSend 1 CAM to X-a\nTotal leaving your key: 1.001 CAM\nNOT your address: X-a',
    ]);
  });

  it('a URL elicitation names the approval page of this approval, with its nonce as the elicitation id', async () => {
    const { deps, open } = recordingDeps(1_000);
    const approval = await open();
    const asked: Array<[string, string, string]> = [];
    await humanDecision(deps, approval, {
      elicitUrl: async (message, url, id) => {
        asked.push([message, url, id]);
        return 'decline';
      },
    });
    expect(asked).toEqual([[`Approve Send 1 CAM? The approval page shows every fact of this transaction.`, `http://127.0.0.1:1/approve/${approval.token}`, approval.nonce]]);
  });

  it("the card's data: its link, the title, every line, how many lead, the expiry in ISO, and a secret that finds this approval once", async () => {
    const { book: b } = book();
    const secrets = new CardSecrets(b.store);
    const approval = await b.open('nonce-card', { tool: 'xvm_send', title: 'Send 1 CAM', lines: LINES }, Date.UTC(2026, 10, 29, 1, 2, 3));
    const meta = await cardMeta(secrets, approval);
    const data = meta[CARD_META_KEY] as { secret: string };
    expect(meta).toEqual({
      ui: { resourceUri: CARD_URI },
      [CARD_META_KEY]: { secret: expect.stringMatching(/^[A-Za-z0-9_-]{32}$/), title: 'Send 1 CAM', lines: LINES, headLines: 3, expiresAt: '2026-11-29T01:02:03.000Z' },
    });
    expect(await secrets.take(data.secret)).toBe('nonce-card');
    expect(await secrets.take(data.secret)).toBeUndefined();
  });
});

describe('the approval card when the spend went meanwhile (issue 40)', () => {
  it('an approval sent and forgotten between the card reading it and deciding it: "already decided", never a crash', async () => {
    const { book: b, open } = book();
    const { log } = auditLog();
    const secrets = new CardSecrets(b.store);
    const approval = await open();
    const secret = await secrets.issue(approval);
    const decide = b.decide.bind(b);
    b.decide = async (...args: Parameters<ApprovalBook['decide']>) => {
      await b.forget(approval);
      return decide(...args);
    };
    const r = await decideFromCard({ book: b, secrets, log }, { secret, decision: 'approve' });
    expect(r).toEqual({ isError: true, content: [{ type: 'text', text: 'This preview was already decided; nothing changed.' }] });
  });
});

describe('the approval card under OAuth (issue 40)', () => {
  it("another user's card call decides nothing, is audited, and leaves the secret for the spend's own user", async () => {
    const { book: b } = book();
    const { log, audits } = auditLog();
    const secrets = new CardSecrets(b.store);
    const approval = await b.open('nonce-alice', { tool: 'xvm_send', title: 'Send 1 CAM', lines: ['Amount: 1 CAM'] }, 300_000, 'oauth:alice');
    const secret = await secrets.issue(approval);
    const stolen = await decideFromCard({ book: b, secrets, log, owner: 'oauth:mallory' }, { secret, decision: 'approve' });
    expect(stolen).toEqual({ isError: true, content: [{ type: 'text', text: 'This approval belongs to another user; nothing was decided.' }] });
    expect((await b.get(approval.nonce))?.state).toBe('pending');
    const own = await decideFromCard({ book: b, secrets, log, owner: 'oauth:alice' }, { secret, decision: 'decline' });
    expect(own).toEqual({ content: [{ type: 'text', text: 'Declined; nothing will be sent.' }] });
    expect(await b.get(approval.nonce)).toMatchObject({ state: 'declined', decidedBy: 'app' });
    expect(audits()).toEqual([
      { audit: 'refused', channel: 'app', tool: 'xvm_send', answer: undefined, msg: 'approval card refused another user' },
      { audit: 'declined', channel: 'app', tool: 'xvm_send', answer: undefined, msg: 'spend declined on the approval card' },
    ]);
  });
});
