import { createHash, randomBytes } from 'node:crypto';
import type { Logger } from '../log.js';
import type { KeyFileSigner } from '../signer/keyfile.js';
import { WrongPassphraseError } from '../signer/keyfile.js';

/** Wrong passphrases in a row on one page token before that token pauses; each try already costs a full scrypt. */
const MAX_WRONG = 5;
const PAUSE_MS = 60_000;
/** Outstanding unlock forms per page token (one per page load, each posts once). */
const MAX_FORMS = 20;
const FORM_TTL_MS = 10 * 60_000;
/** Page tokens handed to a client's URL elicitation: each lives this long, and at most this many at once. */
const PAGE_TTL_MS = 10 * 60_000;
const MAX_PAGES = 16;

const escapeHtml = (text: string): string =>
  text.replace(/[&<>"']/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch] ?? ch);

/** Tokens are looked up by their hash: no secret-dependent comparison, and no token kept as given. */
const keyOf = (token: string): string => createHash('sha256').update(token).digest('base64url');

export interface UnlockReply {
  status: number;
  title: string;
  body: string;
}

/** One page token: its own forms, its own count of wrong passphrases and its own pause. */
interface PageState {
  forms: Map<string, number>;
  wrong: number;
  pausedUntil: number;
  /** Infinity for the terminal's token (it lives as long as the process). */
  expires: number;
}

/**
 * The unlock form on the loopback approval page: the human types the key's passphrase into their
 * own browser, so it never passes through the chat, a tool argument, an elicitation or the
 * environment. The path carries a page token that reaches the human only where the model cannot
 * read it: the terminal line at start (`terminalToken`), or a client's URL elicitation (`issue`).
 * Each page token paces on its own (the model shares loopback, and so any source address, with
 * the human): wrong guesses, pauses and page loads on one token never refuse another token's form.
 * Guesses are checked one at a time, so a burst cannot get past the pause. Each form is a one-time
 * token; the page's Host and Origin checks (page.ts) run before this.
 */
export class UnlockForm {
  /** The page token of the address logged on stderr at start. */
  readonly terminalToken = randomBytes(24).toString('base64url');
  private readonly pages = new Map<string, PageState>();
  /** Every passphrase check runs after the one before it (one scrypt at a time). */
  private checking: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly signer: KeyFileSigner,
    private readonly log: Logger,
    private readonly idleMinutes: number,
    private readonly now: () => number = Date.now,
  ) {
    this.pages.set(keyOf(this.terminalToken), { forms: new Map(), wrong: 0, pausedUntil: 0, expires: Number.POSITIVE_INFINITY });
  }

  /** A fresh page token for one channel to the human (a URL elicitation); the oldest such token goes past MAX_PAGES. */
  issue(): string {
    const now = this.now();
    for (const [key, state] of this.pages) if (state.expires < now) this.pages.delete(key);
    const issued = [...this.pages].filter(([, s]) => s.expires !== Number.POSITIVE_INFINITY);
    for (const [key] of issued.slice(0, Math.max(0, issued.length - MAX_PAGES + 1))) this.pages.delete(key);
    const token = randomBytes(24).toString('base64url');
    this.pages.set(keyOf(token), { forms: new Map(), wrong: 0, pausedUntil: 0, expires: now + PAGE_TTL_MS });
    return token;
  }

  matches(token: string): boolean {
    return this.page(token) !== undefined;
  }

  private page(token: string): PageState | undefined {
    const state = this.pages.get(keyOf(token));
    return state && state.expires >= this.now() ? state : undefined;
  }

  show(token: string): UnlockReply {
    const key = `<p>Key: <code>${escapeHtml(this.signer.addresses.evm)}</code> (its C-chain address; the same key signs on X and P).</p>`;
    if (this.signer.isUnlocked()) {
      return { status: 200, title: 'Key unlocked', body: `${key}<p>The key is unlocked. It locks again after ${this.idleMinutes} minutes without a spend.</p>` };
    }
    const page = this.page(token);
    if (!page) return { status: 404, title: 'Not found', body: '<p>No unlock page is at this address.</p>' };
    return { status: 200, title: 'Unlock the signing key', body: this.form(page, key) };
  }

  /** The passphrase form with a fresh one-time token of this page token (shown again after a wrong passphrase: no reload needed). */
  private form(page: PageState, lead: string): string {
    const csrf = newForm(page, this.now());
    return `${lead}<p>Type the key's passphrase to let chain-mcp sign the spends you approve. Type it only here, never in the chat.</p><form method="post" id="unlock-form"><input type="hidden" name="csrf" value="${csrf}"><label>Passphrase <input type="password" name="passphrase" id="passphrase" autocomplete="current-password" required autofocus></label> <button type="submit" id="unlock">Unlock</button></form><p class="note">It stays unlocked in this process only, and locks again after ${this.idleMinutes} minutes without a spend.</p>`;
  }

  async post(token: string, form: URLSearchParams): Promise<UnlockReply> {
    const page = this.page(token);
    const csrf = form.get('csrf') ?? '';
    if (!page || !useForm(page, csrf, this.now())) {
      this.log.warn({ audit: 'unlock_refused', channel: 'page', why: 'token' }, 'unlock form refused a wrong or used form token');
      return { status: 403, title: 'Refused', body: '<p>This form is not from this page or was already used. Reload the page and try again.</p>' };
    }
    const passphrase = form.get('passphrase') ?? '';
    // Queued behind every check before it: the pause is read only once those have counted.
    const turn = this.checking.then(() => this.check(page, passphrase));
    this.checking = turn.catch(() => undefined);
    return turn;
  }

  private async check(page: PageState, passphrase: string): Promise<UnlockReply> {
    if (this.now() < page.pausedUntil) {
      this.log.warn({ audit: 'unlock_refused', channel: 'page', why: 'paused' }, 'unlock form paused after wrong passphrases');
      return { status: 429, title: 'Wait a minute', body: `<p>Too many wrong passphrases on this page. Try again in a minute.</p>` };
    }
    try {
      await this.signer.unlock(passphrase);
    } catch (err) {
      if (!(err instanceof WrongPassphraseError)) {
        this.log.error({ audit: 'unlock_failed', channel: 'page', err: (err as Error).message }, 'key could not be unlocked');
        return { status: 500, title: 'Not unlocked', body: `<p>${escapeHtml((err as Error).message)}</p>` };
      }
      page.wrong += 1;
      if (page.wrong >= MAX_WRONG) {
        page.wrong = 0;
        page.pausedUntil = this.now() + PAUSE_MS;
      }
      this.log.warn({ audit: 'unlock_refused', channel: 'page', why: 'passphrase' }, 'wrong passphrase on the unlock page');
      const again = this.now() < page.pausedUntil ? '<p>Too many wrong passphrases on this page. Reload it in a minute to try again.</p>' : this.form(page, '');
      return { status: 403, title: 'Wrong passphrase', body: `<p role="alert" class="error">Wrong passphrase. The key stays locked. Try again below.</p>${again}` };
    }
    page.wrong = 0;
    this.log.info({ audit: 'key_unlocked', channel: 'page', key: this.signer.addresses.evm }, 'signing key unlocked on the unlock page');
    return {
      status: 200,
      title: 'Key unlocked',
      body: `<p><strong>Unlocked.</strong> Spends you approve can now be signed. The key locks again after ${this.idleMinutes} minutes without a spend. You can close this page.</p>`,
    };
  }
}

function newForm(page: PageState, now: number): string {
  for (const [token, expires] of page.forms) if (expires < now) page.forms.delete(token);
  // The oldest form of this page token goes first: a page left open too long is simply reloaded.
  while (page.forms.size >= MAX_FORMS) page.forms.delete(page.forms.keys().next().value as string);
  const token = randomBytes(24).toString('base64url');
  page.forms.set(token, now + FORM_TTL_MS);
  return token;
}

function useForm(page: PageState, token: string, now: number): boolean {
  const expires = page.forms.get(token);
  if (expires === undefined) return false;
  page.forms.delete(token);
  return expires >= now;
}
