import { createHash, randomBytes } from 'node:crypto';
import type { ClientCapabilities } from '@modelcontextprotocol/server';
import { MemoryStore } from '../state/memory.js';
import type { StateStore } from '../state/store.js';
import type { Approval } from './book.js';
import { splitHead } from './head.js';

/**
 * MCP Apps' MIME type for a view and the id of its client extension: the values
 * @modelcontextprotocol/ext-apps/server exports as RESOURCE_MIME_TYPE and EXTENSION_ID (a unit test
 * checks they still match). They are spelled here because importing that module evaluates the
 * whole MCP Apps protocol's schemas, about 20 ms of every start, for two strings.
 */
export const RESOURCE_MIME_TYPE = 'text/html;profile=mcp-app';
export const UI_EXTENSION_ID = 'io.modelcontextprotocol/ui';

/** The MCP Apps approval card: a `ui://` view linked from spend previews when the host can show it. */
export const CARD_URI = 'ui://chain-mcp/approval-card.html';
export const CARD_DESCRIPTION = "A spend preview's approval card: what leaves the key and any warning first, every detail on request; Approve or Decline once.";
/** App-only tool the card's Approve/Decline buttons call. */
export const CARD_TOOL = 'approval_decide';

/**
 * Its tools/list entry for MCP Apps hosts: visibility `["app"]`, so a host keeps it out of the
 * model's tool list, and, by the MCP Apps spec, forwards the card's call only because it is listed
 * with app visibility. Being listed makes nothing callable by the model: the call decides only with
 * the card's one-time secret, which the model never sees (card-tool.ts). Tiny, as it is in the
 * tool list's byte budget.
 */
export const CARD_TOOL_LISTING = {
  name: CARD_TOOL,
  description: "The approval card's buttons; app only.",
  inputSchema: {
    type: 'object' as const,
    properties: { secret: { type: 'string' }, decision: { type: 'string', enum: ['approve', 'decline'] } },
    required: ['secret', 'decision'],
  },
  _meta: { ui: { visibility: ['app'] } },
};
/** Result `_meta` key carrying the card's data: hosts hand `_meta` to the view, not to the model. */
export const CARD_META_KEY = 'chain-mcp/approval';

/** The host renders MCP Apps views (it advertised the ui extension with our MIME type). */
export function hostShowsCards(caps: ClientCapabilities | undefined): boolean {
  // ext-apps' getUiCapability: the client's `extensions` entry under the extension id.
  const ui = (caps as { extensions?: Record<string, { mimeTypes?: unknown } | undefined> } | undefined)?.extensions?.[UI_EXTENSION_ID];
  return Array.isArray(ui?.mimeTypes) && ui.mimeTypes.includes(RESOURCE_MIME_TYPE);
}

/**
 * One secret per card, kept in the state store (only its hash: the store never holds a usable
 * secret); the secret is the only way the app-only tool finds an approval, and it is spent on
 * first use, on whichever replica the card's call reaches.
 */
export class CardSecrets {
  constructor(private readonly store: StateStore = new MemoryStore()) {}

  async issue(approval: Approval): Promise<string> {
    const secret = randomBytes(24).toString('base64url');
    await this.store.putCardSecret(hashSecret(secret), approval.nonce, approval.expiresAt);
    return secret;
  }

  /** The approval nonce behind a secret, once. */
  take(secret: string): Promise<string | undefined> {
    return this.store.takeCardSecret(hashSecret(secret));
  }

  /** Puts a secret back that was taken by someone it does not belong to: their attempt does not use it up. */
  giveBack(secret: string, approval: Approval): Promise<void> {
    return this.store.putCardSecret(hashSecret(secret), approval.nonce, approval.expiresAt);
  }
}

const hashSecret = (secret: string): string => createHash('sha256').update(secret).digest('base64url');

/** The preview result's `_meta`: the card link and the facts plus the secret, for the view only. */
export async function cardMeta(secrets: CardSecrets, approval: Approval): Promise<Record<string, unknown>> {
  return {
    ui: { resourceUri: CARD_URI },
    // headLines: how many of the lines lead (head.ts), split here so the card, the page and the elicitation agree.
    [CARD_META_KEY]: { secret: await secrets.issue(approval), title: approval.title, lines: approval.lines, headLines: splitHead(approval.lines).head.length, expiresAt: new Date(approval.expiresAt).toISOString() },
  };
}

let html: Promise<string> | undefined;

/**
 * The card's self-contained HTML. It inlines the ext-apps App class (~260 KB), so it is built on
 * the first read and kept, not at start (card-html.ts).
 */
export function cardHtml(): Promise<string> {
  html ??= import('./card-html.js').then((m) => m.buildCardHtml(CARD_META_KEY, CARD_TOOL));
  return html;
}

/** The card's resource, as resources/read returns it. */
export async function cardResource(): Promise<{ uri: string; mimeType: string; text: string; _meta: Record<string, unknown> }> {
  return { uri: CARD_URI, mimeType: RESOURCE_MIME_TYPE, text: await cardHtml(), _meta: { ui: { csp: { connectDomains: [], resourceDomains: [] }, prefersBorder: true } } };
}
