import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { Logger } from '../log.js';
import type { KeyFileSigner } from '../signer/keyfile.js';
import { WrongPassphraseError } from '../signer/keyfile.js';

/** Wrong passphrases in a row before the form pauses; each try already costs a full scrypt. */
const MAX_WRONG = 5;
const PAUSE_MS = 60_000;
/** Outstanding unlock forms (one per page load, each posts once). */
const MAX_FORMS = 20;
const FORM_TTL_MS = 10 * 60_000;

const escapeHtml = (text: string): string =>
  text.replace(/[&<>"']/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch] ?? ch);

export interface UnlockReply {
  status: number;
  title: string;
  body: string;
}

/**
 * The unlock form on the loopback approval page: the human types the key's passphrase into their
 * own browser, so it never passes through the chat, a tool argument, an elicitation or the
 * environment. The path carries a per-process secret; each form a one-time token; the page's
 * Host and Origin checks (page.ts) run before this.
 */
export class UnlockForm {
  /** The secret path segment of /unlock/<token>. */
  readonly token = randomBytes(24).toString('base64url');
  private readonly forms = new Map<string, number>();
  private wrong = 0;
  private pausedUntil = 0;

  constructor(
    private readonly signer: KeyFileSigner,
    private readonly log: Logger,
    private readonly idleMinutes: number,
    private readonly now: () => number = Date.now,
  ) {}

  matches(token: string): boolean {
    const a = Buffer.from(token);
    const b = Buffer.from(this.token);
    return a.length === b.length && timingSafeEqual(a, b);
  }

  show(): UnlockReply {
    const key = `<p>Key: <code>${escapeHtml(this.signer.addresses.evm)}</code> (its C-chain address; the same key signs on X and P).</p>`;
    if (this.signer.isUnlocked()) {
      return { status: 200, title: 'Key unlocked', body: `${key}<p>The key is unlocked. It locks again after ${this.idleMinutes} minutes without a spend.</p>` };
    }
    return { status: 200, title: 'Unlock the signing key', body: this.form(key) };
  }

  /** The passphrase form with a fresh one-time token (shown again after a wrong passphrase: no reload needed). */
  private form(lead: string): string {
    const csrf = this.newForm();
    return `${lead}<p>Type the key's passphrase to let chain-mcp sign the spends you approve. Type it only here, never in the chat.</p><form method="post" id="unlock-form"><input type="hidden" name="csrf" value="${csrf}"><label>Passphrase <input type="password" name="passphrase" id="passphrase" autocomplete="current-password" required autofocus></label> <button type="submit" id="unlock">Unlock</button></form><p class="note">It stays unlocked in this process only, and locks again after ${this.idleMinutes} minutes without a spend.</p>`;
  }

  async post(form: URLSearchParams): Promise<UnlockReply> {
    const csrf = form.get('csrf') ?? '';
    if (!this.useForm(csrf)) {
      this.log.warn({ audit: 'unlock_refused', channel: 'page', why: 'token' }, 'unlock form refused a wrong or used form token');
      return { status: 403, title: 'Refused', body: '<p>This form is not from this page or was already used. Reload the page and try again.</p>' };
    }
    if (this.now() < this.pausedUntil) {
      return { status: 429, title: 'Wait a minute', body: `<p>Too many wrong passphrases. Try again in a minute.</p>` };
    }
    const passphrase = form.get('passphrase') ?? '';
    try {
      await this.signer.unlock(passphrase);
    } catch (err) {
      if (!(err instanceof WrongPassphraseError)) {
        this.log.error({ audit: 'unlock_failed', channel: 'page', err: (err as Error).message }, 'key could not be unlocked');
        return { status: 500, title: 'Not unlocked', body: `<p>${escapeHtml((err as Error).message)}</p>` };
      }
      this.wrong += 1;
      if (this.wrong >= MAX_WRONG) {
        this.wrong = 0;
        this.pausedUntil = this.now() + PAUSE_MS;
      }
      this.log.warn({ audit: 'unlock_refused', channel: 'page', why: 'passphrase' }, 'wrong passphrase on the unlock page');
      const again = this.now() < this.pausedUntil ? '<p>Too many wrong passphrases. Reload the page in a minute to try again.</p>' : this.form('');
      return { status: 403, title: 'Wrong passphrase', body: `<p role="alert" class="error">Wrong passphrase. The key stays locked. Try again below.</p>${again}` };
    }
    this.wrong = 0;
    this.log.info({ audit: 'key_unlocked', channel: 'page', key: this.signer.addresses.evm }, 'signing key unlocked on the approval page');
    return {
      status: 200,
      title: 'Key unlocked',
      body: `<p><strong>Unlocked.</strong> Spends you approve can now be signed. The key locks again after ${this.idleMinutes} minutes without a spend. You can close this page.</p>`,
    };
  }

  private newForm(): string {
    const now = this.now();
    for (const [token, expires] of this.forms) if (expires < now) this.forms.delete(token);
    // The oldest form goes first: a page left open too long is simply reloaded.
    while (this.forms.size >= MAX_FORMS) this.forms.delete(this.forms.keys().next().value as string);
    const token = randomBytes(24).toString('base64url');
    this.forms.set(token, now + FORM_TTL_MS);
    return token;
  }

  private useForm(token: string): boolean {
    const expires = this.forms.get(token);
    if (expires === undefined) return false;
    this.forms.delete(token);
    return expires >= this.now();
  }
}
