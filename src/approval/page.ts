import { createHash } from 'node:crypto';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from '../log.js';
import type { Approval, ApprovalBook } from './book.js';
import { isTotal, isWarning, splitHead } from './head.js';
import { assertionOptions, checkAssertion, type PasskeyStore, passkeyLabel, WEBAUTHN_SCRIPT_HASH, webauthnData } from './passkey.js';
import type { UnlockForm } from './unlock.js';

// A WebAuthn assertion travels in the form: a few KB.
const MAX_FORM = 16_384;

const escapeHtml = (text: string): string =>
  text.replace(/[&<>"']/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch] ?? ch);

/**
 * The loopback approval page: a human approves or declines one exact preview in a browser, a
 * channel the model cannot drive. Served by this process on 127.0.0.1 at a random port; the path
 * carries a one-time token, the form a per-page token; Host and Origin must be this page's own;
 * a GET only shows, a POST decides, once.
 */
export class ApprovalPages {
  private server?: Server;
  private origin?: string;
  /** Under OAuth the page is the MCP endpoint's own, behind the user's login (src/auth/approval-login.ts); http-server.ts sets it. */
  served?: { url(approval: Approval): string };
  private starting?: Promise<string>;

  constructor(
    private readonly book: ApprovalBook,
    private readonly log: Logger,
    /** The operator's passkeys (CHAIN_MCP_APPROVAL_LINK=passkey); absent: no approval needs one. */
    readonly passkeys?: PasskeyStore,
    /** The local signer's unlock form (src/approval/unlock.ts); absent: no key to unlock. */
    private readonly unlock?: UnlockForm,
  ) {}

  /**
   * The unlock page under the terminal's page token, for the line logged at start; starts the
   * server. Undefined without a local key. Never for the model: a page token it holds is one it can pace out.
   */
  async unlockUrl(): Promise<string | undefined> {
    if (!this.unlock) return undefined;
    return `${await this.start()}/unlock/${this.unlock.terminalToken}`;
  }

  /** The unlock page under a fresh page token of its own, for one URL elicitation (the client shows it to the human). */
  async newUnlockUrl(): Promise<string | undefined> {
    if (!this.unlock) return undefined;
    return `${await this.start()}/unlock/${this.unlock.issue()}`;
  }

  /** From now on Approve on this approval's page needs a fresh passkey assertion over its own challenge. */
  requirePasskey(approval: Approval): Promise<Approval> {
    return this.book.requirePasskey(approval);
  }

  /**
   * Starts the page server on first use; resolves with its origin (`http://127.0.0.1:PORT`).
   * node:http is loaded here, not at start: a start that never shows a page never needs it.
   */
  start(): Promise<string> {
    this.starting ??= import('node:http').then(
      ({ createServer }) =>
        new Promise((resolve, reject) => {
          const server = createServer((req, res) => this.handle(req, res));
          server.once('error', reject);
          server.listen(0, '127.0.0.1', () => {
            this.server = server;
            this.origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
            server.unref();
            resolve(this.origin);
          });
        }),
    );
    return this.starting;
  }

  async url(approval: Approval): Promise<string> {
    if (this.served) return this.served.url(approval);
    const origin = await this.start();
    // WebAuthn's relying party is `localhost`; the page must be opened under that name.
    return `${approval.passkeyChallenge ? this.localhostOrigin() : origin}/approve/${approval.token}`;
  }

  private localhostOrigin(): string {
    return (this.origin ?? '').replace('127.0.0.1', 'localhost');
  }

  close(): Promise<void> {
    const server = this.server;
    if (!server) return Promise.resolve();
    return new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  }

  private allowedHost(req: IncomingMessage): boolean {
    const port = new URL(this.origin ?? 'http://127.0.0.1').port;
    return req.headers.host === `127.0.0.1:${port}` || req.headers.host === `localhost:${port}`;
  }

  private ownOrigin(req: IncomingMessage): boolean {
    // Where the browser tells where a form came from, only this page itself counts.
    const site = req.headers['sec-fetch-site'];
    if (site !== undefined && site !== 'same-origin') return false;
    const origin = req.headers.origin;
    return origin !== undefined && (origin === this.origin || origin === this.localhostOrigin());
  }

  /** GET shows the passphrase form, POST (own Origin, one-time form token) unlocks; same Host check as approvals. */
  private handleUnlock(req: IncomingMessage, token: string, reply: (status: number, body: string) => void): void {
    const unlock = this.unlock;
    if (!unlock?.matches(token)) {
      reply(404, page('Not found', '<p>No approval is waiting at this address.</p>'));
      return;
    }
    if (req.method === 'GET') {
      const shown = unlock.show(token);
      reply(shown.status, page(shown.title, shown.body));
      return;
    }
    if (req.method !== 'POST') {
      reply(405, page('Not allowed', '<p>Use the form on the page.</p>'));
      return;
    }
    if (!this.ownOrigin(req)) {
      this.log.warn({ audit: 'unlock_refused', channel: 'page', why: 'origin' }, 'unlock form refused a foreign origin');
      reply(403, page('Refused', '<p>The key is unlocked only from this page itself.</p>'));
      return;
    }
    readForm(req)
      .then((form) => unlock.post(token, form))
      .then(
        (answer) => reply(answer.status, page(answer.title, answer.body)),
        () => reply(413, page('Too large', '<p>The form was too large.</p>')),
      );
  }

  private handle(req: IncomingMessage, res: ServerResponse) {
    const security = {
      // The scripts allowed are the static WebAuthn and expiry scripts, by their hashes.
      'content-security-policy': `default-src 'none'; script-src ${WEBAUTHN_SCRIPT_HASH} ${EXPIRY_SCRIPT_HASH}; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'`,
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'same-origin',
      'cache-control': 'no-store',
    };
    const reply = (status: number, body: string) => {
      res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', ...security }).end(body);
    };
    if (!this.allowedHost(req)) return reply(403, page('Refused', '<p>This page answers only on its own loopback address.</p>'));
    const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
    const unlockMatch = /^\/unlock\/([A-Za-z0-9_-]{20,64})$/.exec(path);
    if (unlockMatch) return this.handleUnlock(req, unlockMatch[1]!, reply);
    const match = /^\/approve\/([A-Za-z0-9_-]{20,64})$/.exec(path);
    (match ? this.book.lookup(match[1]!) : Promise.resolve('unknown' as const)).then(
      (found) => this.answer(req, res, reply, found),
      (err: unknown) => {
        this.log.warn({ err: (err as Error).message }, 'approval page could not read the state store');
        reply(503, page('Unavailable', '<p>The approval could not be read just now. Nothing was approved. Reload the page.</p>'));
      },
    );
  }

  private answer(req: IncomingMessage, res: ServerResponse, reply: (status: number, body: string) => void, found: Approval | 'unknown' | 'expired') {
    if (found === 'unknown') return reply(404, page('Not found', '<p>No approval is waiting at this address.</p>'));
    if (found === 'expired') return reply(410, page('Expired', '<p>This approval expired (5 minutes). Nothing was sent. Ask for a new preview.</p>'));
    if (req.method === 'GET') {
      const approval = found;
      const options = approval.passkeyChallenge && approval.state === 'pending' && this.passkeys ? assertionOptions(this.passkeys, approval.passkeyChallenge) : undefined;
      Promise.resolve(options).then(
        (o) => reply(200, approvalPage(approval, o)),
        () => reply(500, page('Error', '<p>The passkey check could not be prepared. Nothing was approved.</p>')),
      );
      return;
    }
    if (req.method !== 'POST') return reply(405, page('Not allowed', '<p>Use the buttons on the page.</p>'));
    // A browser sends Origin on a form POST; anything else (another site, a script without it) is refused.
    if (!this.ownOrigin(req)) {
      this.log.warn({ audit: 'approval_refused', channel: 'page', tool: found.tool, why: 'origin' }, 'approval page refused a foreign origin');
      return reply(403, page('Refused', '<p>Approvals are accepted only from this page itself.</p>'));
    }
    readForm(req).then(
      async (form) => {
        const decision = form.get('decision');
        if (decision !== 'approve' && decision !== 'decline') return reply(400, page('Bad request', '<p>Choose Approve or Decline.</p>'));
        if (found.state !== 'pending') return reply(409, page('Already decided', `<p>This preview was already ${found.state}. Nothing more happens.</p>`));
        const state = decision === 'approve' ? 'approved' : 'declined';
        // Page and form can be fetched and posted by any local HTTP client, a model's included;
        // only a passkey with user verification shows that a person is at the page.
        let passkey: string | undefined;
        if (state === 'approved' && found.passkeyChallenge) {
          const check = this.passkeys
            ? await checkAssertion(this.passkeys, form.get('credential') ?? '', found.passkeyChallenge, this.localhostOrigin())
            : { why: 'no passkey registered' };
          const why = check.why;
          if (check.passkey) passkey = passkeyLabel(check.passkey);
          if (why) {
            this.log.warn({ audit: 'approval_refused', channel: 'page', tool: found.tool, why }, 'approval page refused an approval without a valid passkey');
            return reply(403, page('Refused', '<p>Approving needs your passkey on this page (the browser asks for it when you press Approve). Nothing was approved.</p>'));
          }
        }
        if (!(await this.book.decide(found, state, passkey ? `page with passkey ${passkey}` : 'page', form.get('csrf') ?? ''))) {
          // Decided meanwhile through another channel or replica: say so, not "wrong token".
          const now = await this.book.get(found.nonce);
          if (now && now.state !== 'pending') return reply(409, page('Already decided', `<p>This preview was already ${now.state}. Nothing more happens.</p>`));
          this.log.warn({ audit: 'approval_refused', channel: 'page', tool: found.tool, why: 'token' }, 'approval page refused a wrong page token');
          return reply(403, page('Refused', '<p>This form is not from this page. Reload the page and try again.</p>'));
        }
        this.log.info({ audit: state, channel: 'page', tool: found.tool, ...(passkey ? { passkey } : {}) }, `spend ${state} on the approval page`);
        return reply(200, page(state === 'approved' ? 'Approved' : 'Declined', decidedText(state, passkey)));
      },
      () => reply(413, page('Too large', '<p>The form was too large.</p>')),
    ).catch((err: unknown) => {
      this.log.warn({ err: (err as Error).message }, 'approval page could not record the decision');
      if (!res.headersSent) reply(503, page('Unavailable', '<p>The decision could not be recorded just now. Nothing was approved. Reload the page.</p>'));
    });
  }
}

function decidedText(state: 'approved' | 'declined', passkey?: string): string {
  const by = passkey ? ` <span id="passkey">Approved with passkey ${escapeHtml(passkey)}.</span>` : '';
  return state === 'approved'
    ? `<p><strong>Approved.</strong> The assistant can now send this transaction, once.${by} You can close this page.</p>`
    : '<p><strong>Declined.</strong> Nothing will be sent. You can close this page.</p>';
}

async function readForm(req: IncomingMessage): Promise<URLSearchParams> {
  let text = '';
  for await (const chunk of req as AsyncIterable<Buffer>) {
    text += chunk.toString('utf8');
    if (text.length > MAX_FORM) throw new Error('form too large');
  }
  return new URLSearchParams(text);
}

export function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)}</title><style>${STYLE}</style></head><body><main><h1>${escapeHtml(title)}</h1>${body}</main></body></html>`;
}

/**
 * Shows the expiry in the viewer's own clock ("expires 14:32 (in 4 min)") from the ISO time in
 * <time datetime>; static, so the page's CSP allows it by hash. Without it the server's words stay.
 */
export const EXPIRY_SCRIPT = `(function(){var t=document.querySelector('time[datetime]');if(!t)return;var d=new Date(t.getAttribute('datetime')),ms=d.getTime()-Date.now();if(isNaN(ms))return;
var m=Math.round(ms/60000),at=d.toLocaleTimeString([],{hour:'2-digit',minute:'2-digit'});t.textContent=ms<=0?'expired at '+at:'expires '+at+' ('+(m<1?'in under a minute':'in '+m+' min')+')'})();`;
const EXPIRY_SCRIPT_HASH = `'sha256-${createHash('sha256').update(EXPIRY_SCRIPT).digest('base64')}'`;

/**
 * Every fact of the preview, escaped; stranger-written text already arrives quoted by the preview.
 * The head (intents, the total, warnings; head.ts) leads, large; the other lines are folded.
 */
export function approvalPage(a: Approval, passkey?: unknown): string {
  const { head, details } = splitHead(a.lines);
  const headHtml = head.map((line) => `<li${isTotal(line) ? ' class="total"' : isWarning(line) ? ' class="warn"' : ''}>${escapeHtml(line)}</li>`).join('');
  const more = details.length
    ? `<details id="more"><summary>Show every input, output and hash</summary><ul id="details">${details.map((line) => `<li>${escapeHtml(line)}</li>`).join('')}</ul></details>`
    : '';
  const facts = `<div id="facts"><ul id="head">${headHtml}</ul>${more}</div>`;
  const left = Math.max(0, Math.round((a.expiresAt - Date.now()) / 60_000));
  const expires = `<time datetime="${new Date(a.expiresAt).toISOString()}">expires in ${left < 1 ? 'under a minute' : `${left} min`}</time>`;
  const form = (decision: string, label: string, cls: string) =>
    `<form method="post" id="${decision}-form"><input type="hidden" name="csrf" value="${escapeHtml(a.csrf)}"><input type="hidden" name="decision" value="${decision}">${decision === 'approve' && passkey ? '<input type="hidden" name="credential" value="">' : ''}<button type="submit" class="${cls}" id="${decision}">${label}</button></form>`;
  const guard = passkey
    ? `<p class="note">Approving asks for your passkey (fingerprint, face or PIN).</p><p id="status" role="status"></p>${webauthnData({ mode: 'get', form: 'approve-form', options: passkey })}`
    : '';
  const body =
    a.state === 'pending'
      ? `${facts}<p class="note" id="expires">This approval is for these exact facts, once, and ${expires}. Quoted names are written by strangers on the chain.</p><div class="buttons">${form('approve', 'Approve and send once', 'approve')}${form('decline', 'Decline', 'decline')}</div>${guard}<script>${EXPIRY_SCRIPT}</script>`
      : `${facts}<p>This preview was already ${a.state}.</p>`;
  return page(`Approve: ${a.title}`, body);
}

const STYLE =
  'body{font:16px/1.5 system-ui,sans-serif;margin:0;padding:1rem;background:#f6f7f9;color:#111}main{max-width:40rem;margin:auto;background:#fff;border-radius:8px;padding:1rem 1.25rem;box-shadow:0 1px 3px #0002}h1{font-size:1.25rem}ul{padding-left:1.2rem}li{margin:.3rem 0;overflow-wrap:anywhere}#head{list-style:none;padding:0;font-size:1.15rem}#head li.total{font-weight:700}#head li.warn{color:#b42318;font-weight:600;border-left:4px solid #b42318;padding-left:.5rem}details{margin:.5rem 0 1rem}summary{cursor:pointer;color:#555}.note{color:#555;font-size:.9rem}.buttons{display:flex;gap:.75rem;flex-wrap:wrap}button{font:inherit;padding:.6rem 1rem;border-radius:6px;border:1px solid #888;cursor:pointer}button.approve{background:#0a6b2d;color:#fff;border-color:#0a6b2d}button:focus{outline:3px solid #f90;outline-offset:2px}@media (prefers-color-scheme:dark){body{background:#111;color:#eee}main{background:#1c1c1c}.note,summary{color:#aaa}#head li.warn{color:#ff7b72;border-color:#ff7b72}}';
