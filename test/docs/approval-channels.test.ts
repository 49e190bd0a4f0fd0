import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ClientCapabilities } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CARD_META_KEY, CARD_TOOL } from '../../src/approval/card.js';
import { type Devnet, startDevnet } from '../../src/devnet/index.js';
import { type ElicitParams, spendHarness } from '../helpers/spend-harness.js';

/**
 * The README's first transfer says where each host's human approves. Each row is run against the
 * server with the capabilities that host declares at initialize: the channel the server really
 * takes (the decision's audit line, the elicitation it sends) must be the one the row names.
 */

const README = readFileSync(join(import.meta.dirname, '..', '..', 'README.md'), 'utf8');
const FIRST = README.slice(README.indexOf('## Your first transfer'), README.indexOf('## Safety model'));

const UI = { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] } };

/** What each host declares at initialize, as recorded by the sources beside it (November 2026). */
const DECLARED: Record<string, ClientCapabilities> = {
  // MCP Apps since their launch (blog.modelcontextprotocol.io, 2026-01-26); no elicitation (anthropics/claude-ai-mcp#153, open).
  'Claude Desktop': { extensions: UI } as ClientCapabilities,
  // v2.1.237 on the wire (anthropics/claude-code#88075): an empty elicitation object, which means form only.
  'Claude Code': { roots: { listChanged: true }, elicitation: {} },
  // Elicitation since 1.102; MCP Apps since January 2026 (microsoft/vscode#290483).
  'VS Code': { elicitation: { form: {} }, extensions: UI } as ClientCapabilities,
  // Elicitation since 1.5 (modelcontextprotocol/modelcontextprotocol#1396); MCP Apps (cursor.com/docs/context/mcp).
  Cursor: { elicitation: { form: {} }, extensions: UI } as ClientCapabilities,
  'a client with URL elicitation': { elicitation: { url: {} } },
  'a client with none of these': {},
};

/** The README's "declares" words for a capability set. */
function declares(caps: ClientCapabilities): string {
  const e = caps.elicitation as { form?: unknown; url?: unknown } | undefined;
  const words = [
    (caps as { extensions?: Record<string, unknown> }).extensions?.['io.modelcontextprotocol/ui'] ? 'MCP Apps' : '',
    e && (e.form !== undefined || e.url === undefined) ? 'form elicitation' : '',
    e?.url !== undefined ? 'URL elicitation' : '',
  ].filter(Boolean);
  return words.length ? words.join(', ') : 'nothing';
}

interface Row {
  host: string;
  declares: string;
  approve: string;
}

function rows(): Row[] {
  const table = FIRST.split('\n')
    .map((l) => l.trim())
    .filter((l) => l.startsWith('|') && !l.startsWith('|---'));
  expect(table[0]).toBe('| host | declares | you approve |');
  // A row may name several hosts ("VS Code, Cursor"): one Row each.
  return table.slice(1).flatMap((l) => {
    const [hosts, declared, approve] = l
      .slice(1, -1)
      .split('|')
      .map((c) => c.trim());
    return hosts!.split(', ').map((host) => ({ host, declares: declared!, approve: approve! }));
  });
}

/** What the server did for one spend: card and link with the preview, the elicitations it sent, the channel that decided. */
interface Seen {
  card: boolean;
  link: boolean;
  asked: string[];
  /** The audit line's channel of the approval; undefined when nothing was approved by the confirm. */
  decidedBy: string | undefined;
}

const PAGE_LINK = 'on the loopback approval page the preview links, which needs a passkey registered once with `chain-mcp passkey add` in a terminal (or `CHAIN_MCP_APPROVAL_LINK=plain`, weaker)';

/**
 * The README's words for what the server did, from two spends: the human answers the card (if
 * one came with the preview) before the assistant confirms, and the assistant confirms first.
 */
function channelWords(cardFirst: Seen, confirmFirst: Seen): string {
  if (cardFirst.card) {
    // The card decides when answered first, and nothing else is asked then.
    expect(cardFirst).toMatchObject({ asked: [], decidedBy: 'app' });
    if (confirmFirst.decidedBy === undefined) return 'on the approval card under the preview';
    expect(confirmFirst).toMatchObject({ asked: ['form'], decidedBy: 'form-elicitation' });
    return 'on the approval card, or in its own prompt (form elicitation) if the assistant confirms first';
  }
  // No card: answering it first is no different.
  const facts = ({ card, link, asked, decidedBy }: Seen) => ({ card, link, asked, decidedBy });
  expect(facts(cardFirst)).toEqual(facts(confirmFirst));
  if (confirmFirst.link) {
    expect(confirmFirst).toMatchObject({ asked: [], decidedBy: 'page' });
    return PAGE_LINK;
  }
  if (confirmFirst.asked.includes('url')) {
    expect(confirmFirst).toMatchObject({ asked: ['url'], decidedBy: 'page' });
    return 'on the approval page, which the client opens for you (URL elicitation)';
  }
  expect(confirmFirst).toMatchObject({ asked: ['form'], decidedBy: 'form-elicitation' });
  return 'in its own prompt (form elicitation) when the assistant confirms';
}

/** The human at the approval page: presses Approve. */
async function approveOnPage(url: string): Promise<void> {
  const csrf = /name="csrf" value="([^"]+)"/.exec(await (await fetch(url)).text())?.[1] ?? '';
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', origin: new URL(url).origin }, body: new URLSearchParams({ csrf, decision: 'approve' }) });
  expect(res.status, await res.text()).toBe(200);
}

describe("the README's approval channel per host is the one the server takes for what that host declares", () => {
  let devnet: Devnet;
  let to: string;
  beforeAll(async () => {
    devnet = await startDevnet();
    to = devnet.state.users.get('alice')!.keys[1]!.x;
  });
  afterAll(() => devnet.close());

  /** One spend with a client declaring `caps`: the human approves wherever the server asks them to. */
  async function spend(caps: ClientCapabilities, cardFirst: boolean, env: Record<string, string> = {}): Promise<Seen & { text: string }> {
    const asked: string[] = [];
    const h = await spendHarness(devnet, {
      capabilities: caps,
      env: { CHAIN_MCP_APPROVAL_WAIT_MS: '0', ...env },
      // A client answers elicitations only when it declared them (the SDK refuses the handler otherwise).
      elicit: !caps.elicitation ? undefined : async (p: ElicitParams) => {
        asked.push(p.mode ?? 'form');
        if (p.mode === 'url') {
          // The client opened the approval page; the human approves there.
          await approveOnPage(p.url!);
          return { action: 'accept' };
        }
        return { action: 'accept', content: { approve: true } };
      },
    });
    try {
      const args = { amount: '1000000000', assetID: 'CAM', to };
      const preview = await h.call('xvm_send', args);
      if (preview.isError) return { card: false, link: false, asked, decidedBy: undefined, text: preview.text };
      const card = preview.meta?.[CARD_META_KEY] as { secret: string } | undefined;
      const link = preview.structured?.approvalUrl as string | undefined;
      if (card && cardFirst) expect((await h.call(CARD_TOOL, { secret: card.secret, decision: 'approve' })).isError).toBe(false);
      if (link) await approveOnPage(link);
      const done = await h.call('xvm_send', { ...args, confirm: preview.structured?.confirmationId });
      const approved = h.logs.map((l) => JSON.parse(l) as { audit?: string; channel?: string }).find((l) => l.audit === 'approved');
      return { card: card !== undefined, link: link !== undefined, asked, decidedBy: approved?.channel, text: done.text };
    } finally {
      await h.close();
    }
  }

  it('names every host of the snippets, and for each what it declares', () => {
    const table = rows();
    expect(table.map((r) => r.host)).toEqual(Object.keys(DECLARED));
    for (const r of table) expect(r.declares, r.host).toBe(declares(DECLARED[r.host]!));
    // Every host with a snippet above has its row.
    for (const host of ['Claude Desktop', 'Claude Code', 'VS Code', 'Cursor']) expect(README).toContain(`**${host}**`);
  });

  it.each(Object.keys(DECLARED))('%s: the channel the row names', async (host) => {
    const row = rows().find((r) => r.host === host)!;
    // The page link without a passkey needs CHAIN_MCP_APPROVAL_LINK=plain, as that row says.
    const env: Record<string, string> = host === 'a client with none of these' ? { CHAIN_MCP_APPROVAL_LINK: 'plain' } : {};
    const cardFirst = await spend(DECLARED[host]!, true, env);
    const confirmFirst = await spend(DECLARED[host]!, false, env);
    expect(row.approve).toBe(channelWords(cardFirst, confirmFirst));
  });

  it('without a passkey (the default), a client with none of these is refused before anything is asked, naming chain-mcp passkey add', async () => {
    const seen = await spend(DECLARED['a client with none of these']!, false);
    expect(seen.text).toContain('no channel to the human');
    expect(seen.text).toContain('chain-mcp passkey add');
    expect(seen.asked).toEqual([]);
  });
});
