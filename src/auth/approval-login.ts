import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { jwtVerify } from 'jose';
import type { Approval, ApprovalBook } from '../approval/book.js';
import { approvalPage, page } from '../approval/page.js';
import { WEBAUTHN_SCRIPT_HASH } from '../approval/passkey.js';
import type { Logger } from '../log.js';
import type { Issuer } from './issuer.js';
import { ALGORITHMS, ownerFor } from './verify.js';

/** How long a sign-in on the approval page lasts: long enough to read and decide, shorter than the IdP's session. */
export const LOGIN_TTL_MS = 10 * 60 * 1000;
const LOGIN_COOKIE = 'chain_mcp_login';
const PKCE_COOKIE = 'chain_mcp_pkce';
const MAX_FORM = 4096;

const b64 = (data: Buffer | string) => Buffer.from(data).toString('base64url');

/**
 * The approval page under OAuth, served by every replica at the public URL's origin
 * (`/approve/<token>`), behind the spend's own user's login.
 *
 * Why a login and not the link alone: the link passes through the model's hands (it is the only
 * channel a client without elicitation or MCP Apps has), so the link cannot be what proves the
 * human. The page signs the human in at the identity provider (authorization code with PKCE, the
 * provider's own login and second factor), and shows or decides an approval only for the user
 * whose token made the preview. The sign-in becomes a short-lived cookie signed with a key every
 * replica derives from CHAIN_MCP_STATE_KEY, so the callback, the page and the decision may each
 * reach a different replica; the approval itself is read and decided in the state store.
 */
export class LoginApprovalPages {
  private readonly key: Buffer;
  private readonly origin: string;
  private readonly secure: boolean;

  constructor(
    private readonly opts: {
      publicUrl: string;
      clientId: string;
      issuer: Issuer;
      book: ApprovalBook;
      log: Logger;
      /** CHAIN_MCP_STATE_KEY (hex), given only with a shared store; a random key otherwise (one process). */
      stateKey?: string;
      now?: () => number;
    },
  ) {
    // A key of its own: a cookie MAC can never be replayed as a confirmation id MAC.
    const base = opts.stateKey ? Buffer.from(opts.stateKey, 'hex') : randomBytes(32);
    this.key = createHmac('sha256', base).update('chain-mcp approval-page login').digest();
    const u = new URL(opts.publicUrl);
    this.origin = u.origin;
    this.secure = u.protocol === 'https:';
  }

  private now(): number {
    return (this.opts.now ?? Date.now)();
  }

  /** The link the human opens: on the public origin, so it works whichever replica the browser reaches. */
  url(approval: Pick<Approval, 'token'>): string {
    return `${this.origin}/approve/${approval.token}`;
  }

  /** Answers `/approve/…`; false for any other path. */
  async handle(req: IncomingMessage, res: ServerResponse, path: string): Promise<boolean> {
    if (path === '/approve/callback') {
      await this.callback(req, res);
      return true;
    }
    const match = /^\/approve\/([A-Za-z0-9_-]{20,64})$/.exec(path);
    if (!match) return false;
    await this.approval(req, res, match[1]!);
    return true;
  }

  private reply(res: ServerResponse, status: number, body: string, headers: Record<string, string | string[]> = {}): void {
    res
      .writeHead(status, {
        'content-type': 'text/html; charset=utf-8',
        'content-security-policy': `default-src 'none'; script-src ${WEBAUTHN_SCRIPT_HASH}; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'`,
        'x-content-type-options': 'nosniff',
        'referrer-policy': 'same-origin',
        'cache-control': 'no-store',
        ...headers,
      })
      .end(body);
  }

  private async approval(req: IncomingMessage, res: ServerResponse, token: string): Promise<void> {
    const found = await this.opts.book.lookup(token);
    if (found === 'unknown') return this.reply(res, 404, page('Not found', '<p>No approval is waiting at this address.</p>'));
    if (found === 'expired') return this.reply(res, 410, page('Expired', '<p>This approval expired (5 minutes). Nothing was sent. Ask for a new preview.</p>'));
    const owner = this.signedIn(req);
    if (owner === undefined) {
      if (req.method !== 'GET') return this.reply(res, 403, page('Sign in first', '<p>Open the approval link again to sign in. Nothing was approved.</p>'));
      return this.startLogin(res, token);
    }
    if (owner !== found.owner) {
      // Not even the facts: another user's spend is none of this user's business.
      this.opts.log.warn({ audit: 'approval_refused', channel: 'page', tool: found.tool, why: 'other user' }, 'approval page refused another user');
      return this.reply(res, 403, page('Not yours', '<p>This approval belongs to another account. Nothing is shown and nothing was approved.</p>'));
    }
    if (req.method === 'GET') return this.reply(res, 200, approvalPage(found));
    if (req.method !== 'POST') return this.reply(res, 405, page('Not allowed', '<p>Use the buttons on the page.</p>'));
    // A browser sends Origin on a form POST, and Sec-Fetch-Site where it knows it: another site's
    // form (or a script without Origin) is refused, even with the user's cookie.
    const site = req.headers['sec-fetch-site'];
    if (req.headers.origin !== this.origin || (site !== undefined && site !== 'same-origin')) {
      this.opts.log.warn({ audit: 'approval_refused', channel: 'page', tool: found.tool, why: 'origin' }, 'approval page refused a cross-site form');
      return this.reply(res, 403, page('Refused', '<p>Approvals are accepted only from this page itself.</p>'));
    }
    const form = await readForm(req).catch(() => undefined);
    if (!form) return this.reply(res, 413, page('Too large', '<p>The form was too large.</p>'));
    const decision = form.get('decision');
    if (decision !== 'approve' && decision !== 'decline') return this.reply(res, 400, page('Bad request', '<p>Choose Approve or Decline.</p>'));
    const state = decision === 'approve' ? 'approved' : 'declined';
    if (!(await this.opts.book.decide(found, state, 'page', form.get('csrf') ?? ''))) {
      const now = await this.opts.book.get(found.nonce);
      if (now && now.state !== 'pending') return this.reply(res, 409, page('Already decided', `<p>This preview was already ${now.state}. Nothing more happens.</p>`));
      return this.reply(res, 403, page('Refused', '<p>This form is not from this page. Reload the page and try again.</p>'));
    }
    this.opts.log.info({ audit: state, channel: 'page', tool: found.tool }, `spend ${state} on the approval page`);
    const text = state === 'approved' ? '<p><strong>Approved.</strong> The assistant can now send this transaction, once. You can close this page.</p>' : '<p><strong>Declined.</strong> Nothing will be sent. You can close this page.</p>';
    return this.reply(res, 200, page(state === 'approved' ? 'Approved' : 'Declined', text));
  }

  /** Sends the browser to the identity provider's login, with PKCE; the verifier waits in a signed cookie. */
  private async startLogin(res: ServerResponse, token: string): Promise<void> {
    const { metadata } = await this.opts.issuer.discover();
    if (!metadata.authorization_endpoint) return this.reply(res, 503, page('Sign-in unavailable', '<p>The identity provider names no authorization endpoint. Nothing was approved.</p>'));
    const verifier = b64(randomBytes(32));
    const state = b64(randomBytes(16));
    const target = new URL(metadata.authorization_endpoint);
    target.search = new URLSearchParams({
      response_type: 'code',
      client_id: this.opts.clientId,
      redirect_uri: `${this.origin}/approve/callback`,
      scope: 'openid',
      state,
      nonce: state,
      code_challenge: b64(createHash('sha256').update(verifier).digest()),
      code_challenge_method: 'S256',
    }).toString();
    const pkce = this.sign({ v: verifier, s: state, t: token, exp: this.now() + LOGIN_TTL_MS });
    res.writeHead(302, { location: target.toString(), 'set-cookie': this.cookie(PKCE_COOKIE, pkce, LOGIN_TTL_MS), 'cache-control': 'no-store' }).end();
  }

  /** The provider sends the browser back with a code: exchanged (with the verifier) for an ID token, whose subject signs the human in. */
  private async callback(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', this.origin);
    const pkce = this.verify(cookies(req).get(PKCE_COOKIE)) as { v?: string; s?: string; t?: string } | undefined;
    const code = url.searchParams.get('code');
    if (!pkce?.v || !pkce.t || !code || url.searchParams.get('state') !== pkce.s) {
      return this.reply(res, 400, page('Sign-in failed', '<p>This sign-in did not start here, or took too long. Open the approval link again.</p>'));
    }
    const { metadata, keys } = await this.opts.issuer.discover();
    let sub: unknown;
    try {
      const answer = await fetch(metadata.token_endpoint ?? '', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
        body: new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: `${this.origin}/approve/callback`, client_id: this.opts.clientId, code_verifier: pkce.v }),
        signal: AbortSignal.timeout(10_000),
      });
      const tokens = (await answer.json()) as { id_token?: unknown };
      if (!answer.ok || typeof tokens.id_token !== 'string') throw new Error(`the token endpoint answered HTTP ${answer.status}`);
      const { payload } = await jwtVerify(tokens.id_token, keys, { issuer: metadata.issuer, audience: this.opts.clientId, algorithms: ALGORITHMS, requiredClaims: ['sub', 'exp'] });
      if (payload.nonce !== pkce.s) throw new Error('the ID token answers another sign-in');
      sub = payload.sub;
    } catch (err) {
      this.opts.log.warn({ audit: 'login_failed', why: (err as Error).message }, 'approval page sign-in failed');
      return this.reply(res, 403, page('Sign-in failed', '<p>The identity provider did not confirm who you are. Nothing was approved.</p>'));
    }
    const login = this.sign({ o: ownerFor(String(sub)), exp: this.now() + LOGIN_TTL_MS });
    res
      .writeHead(303, { location: `/approve/${pkce.t}`, 'set-cookie': [this.cookie(LOGIN_COOKIE, login, LOGIN_TTL_MS), this.cookie(PKCE_COOKIE, '', 0)], 'cache-control': 'no-store' })
      .end();
  }

  /** The owner the browser signed in as, when its cookie is this deployment's and still fresh. */
  private signedIn(req: IncomingMessage): string | undefined {
    const login = this.verify(cookies(req).get(LOGIN_COOKIE)) as { o?: unknown } | undefined;
    return typeof login?.o === 'string' ? login.o : undefined;
  }

  private cookie(name: string, value: string, maxAgeMs: number): string {
    // Lax: sent on the provider's redirect back (a top-level GET), never on another site's POST.
    return `${name}=${value}; Path=/approve; HttpOnly; SameSite=Lax; Max-Age=${Math.floor(maxAgeMs / 1000)}${this.secure ? '; Secure' : ''}`;
  }

  private sign(data: Record<string, unknown>): string {
    const body = b64(JSON.stringify(data));
    return `${body}.${createHmac('sha256', this.key).update(body).digest('base64url')}`;
  }

  private verify(value: string | undefined): Record<string, unknown> | undefined {
    const [body, mac] = (value ?? '').split('.');
    if (!body || !mac) return undefined;
    const expected = Buffer.from(createHmac('sha256', this.key).update(body).digest('base64url'));
    const given = Buffer.from(mac);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) return undefined;
    try {
      const data = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as Record<string, unknown>;
      return typeof data.exp === 'number' && data.exp > this.now() ? data : undefined;
    } catch {
      return undefined;
    }
  }
}

function cookies(req: IncomingMessage): Map<string, string> {
  const map = new Map<string, string>();
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0) map.set(part.slice(0, eq).trim(), part.slice(eq + 1).trim());
  }
  return map;
}

async function readForm(req: IncomingMessage): Promise<URLSearchParams> {
  let text = '';
  for await (const chunk of req as AsyncIterable<Buffer>) {
    text += chunk.toString('utf8');
    if (text.length > MAX_FORM) throw new Error('form too large');
  }
  return new URLSearchParams(text);
}
