import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { AuthenticationResponseJSON, PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/server';
import type { Logger } from '../log.js';

/**
 * WebAuthn takes a domain, not an IP, as its relying party: the approval page is served as
 * http://localhost:<port> (a secure context in browsers) whenever a passkey guards it.
 */
export const RP_ID = 'localhost';

/** One registered passkey: only its public half is ever stored. */
export interface StoredPasskey {
  id: string;
  /** COSE public key, base64url. */
  publicKey: string;
  counter: number;
  transports?: string[];
  createdAt: string;
  /** What the operator called it (`chain-mcp passkey add --name`), shown in audit lines. */
  name?: string;
}

/** How audit lines and results name a passkey: its name and the start of its id. */
export function passkeyLabel(p: Pick<StoredPasskey, 'id' | 'name'>): string {
  const id = `${p.id.slice(0, 12)}${p.id.length > 12 ? '…' : ''}`;
  return p.name ? `"${p.name}" (${id})` : id;
}

/** Where a file stands on disk, to notice a change without reading it. */
function stamp(file: string): string {
  try {
    const s = statSync(file);
    return `${s.ino}:${s.size}:${s.mtimeMs}`;
  } catch {
    return 'absent';
  }
}

/**
 * The operator's registered passkeys, read ONCE when the store is made (at the server's start). A
 * passkey is configuration the human set: a change on disk while the server runs (a program writing
 * its own key into the file) is logged and ignored until a restart. Only this store's own writes
 * (registration in `chain-mcp passkey add`, signature counters) change what it holds.
 */
export class PasskeyStore {
  private credentials: StoredPasskey[];
  private stamp: string;
  private warned = false;

  constructor(
    readonly file: string,
    private readonly log?: Logger,
  ) {
    this.credentials = this.read();
    this.stamp = stamp(file);
  }

  private read(): StoredPasskey[] {
    if (!existsSync(this.file)) return [];
    try {
      const parsed = JSON.parse(readFileSync(this.file, 'utf8')) as { credentials?: unknown };
      const all = Array.isArray(parsed.credentials) ? parsed.credentials : [];
      return all.filter(
        (c): c is StoredPasskey =>
          typeof c === 'object' && c !== null && typeof (c as StoredPasskey).id === 'string' && typeof (c as StoredPasskey).publicKey === 'string',
      );
    } catch (err) {
      // A broken file means no passkey, never a crash: the link is then refused, not opened.
      this.log?.warn({ file: this.file, err: (err as Error).message }, 'passkey file unreadable; the approval link stays off');
      return [];
    }
  }

  /** The passkeys read at start (plus this store's own registrations); a copy. */
  list(): StoredPasskey[] {
    this.noticeChange();
    return this.credentials.map((c) => ({ ...c }));
  }

  registered(): boolean {
    this.noticeChange();
    return this.credentials.length > 0;
  }

  private noticeChange(): void {
    if (!this.warned && stamp(this.file) !== this.stamp) {
      this.warned = true;
      this.log?.warn(
        { audit: 'passkey_file_changed', file: this.file },
        'the passkey file changed on disk while the server runs; the change is ignored until a restart (passkeys are read once at start)',
      );
    }
  }

  add(passkey: StoredPasskey): void {
    this.write([...this.credentials.filter((c) => c.id !== passkey.id), passkey]);
  }

  /** Keeps the signature counter moving forward (a cloned authenticator shows up as a counter that does not). */
  touch(id: string, counter: number): void {
    const found = this.credentials.find((c) => c.id === id);
    if (!found) return;
    const all = this.credentials.map((c) => (c.id === id ? { ...c, counter } : c));
    try {
      this.write(all);
    } catch (err) {
      // The counter still moves forward in memory: a replay in this process is refused either way.
      this.credentials = all;
      this.log?.warn({ file: this.file, err: (err as Error).message }, 'passkey counter not saved');
    }
  }

  private write(credentials: StoredPasskey[]): void {
    mkdirSync(dirname(this.file), { recursive: true, mode: 0o700 });
    const tmp = `${this.file}.${randomBytes(4).toString('hex')}.tmp`;
    // A new file each time, so the mode applies (umask can only narrow it); the rename keeps it.
    writeFileSync(tmp, `${JSON.stringify({ rpID: RP_ID, credentials }, null, 2)}\n`, { mode: 0o600 });
    renameSync(tmp, this.file);
    this.credentials = credentials;
    // Our own write is not a change from outside.
    this.stamp = stamp(this.file);
  }
}

/** Options for navigator.credentials.get: this approval's challenge, the stored passkeys, user verification required. */
export async function assertionOptions(store: PasskeyStore, challenge: string): Promise<PublicKeyCredentialRequestOptionsJSON> {
  const { generateAuthenticationOptions } = await import('@simplewebauthn/server');
  return generateAuthenticationOptions({
    rpID: RP_ID,
    challenge: Buffer.from(challenge, 'base64url'),
    userVerification: 'required',
    timeout: 120_000,
    allowCredentials: store.list().map((c) => ({ id: c.id, transports: c.transports })),
  });
}

/** A WebAuthn check's outcome: which passkey approved, or why none did. */
export type AssertionCheck = { passkey: StoredPasskey; why?: undefined } | { passkey?: undefined; why: string };

/**
 * Checks a WebAuthn assertion made on `origin` for this approval's challenge by one of the stored
 * passkeys, with user verification. Returns the passkey that made it, or why not.
 */
export async function checkAssertion(store: PasskeyStore, raw: string, challenge: string, origin: string): Promise<AssertionCheck> {
  let response: AuthenticationResponseJSON;
  try {
    response = JSON.parse(raw) as AuthenticationResponseJSON;
  } catch {
    return { why: 'no passkey assertion' };
  }
  const credential = store.list().find((c) => c.id === response?.id);
  if (!credential) return { why: 'not a registered passkey' };
  try {
    const { verifyAuthenticationResponse } = await import('@simplewebauthn/server');
    const result = await verifyAuthenticationResponse({
      response,
      expectedChallenge: challenge,
      expectedOrigin: origin,
      expectedRPID: RP_ID,
      requireUserVerification: true,
      credential: { id: credential.id, publicKey: Buffer.from(credential.publicKey, 'base64url'), counter: credential.counter, transports: credential.transports as never },
    });
    if (!result.verified) return { why: 'passkey assertion not verified' };
    store.touch(credential.id, result.authenticationInfo.newCounter);
    return { passkey: credential };
  } catch (err) {
    return { why: `passkey assertion refused (${(err as Error).message})` };
  }
}

/**
 * The page's only script: asks the browser for a passkey (get: approve; create: register), puts
 * the answer in the form's `credential` field and submits. Static, so the page's CSP allows it by hash;
 * its input is the JSON block `#webauthn` on the page.
 */
export const WEBAUTHN_SCRIPT = `(() => {
  const b64 = (s) => Uint8Array.from(atob(s.replace(/-/g, '+').replace(/_/g, '/') + '==='.slice((s.length + 3) % 4)), (c) => c.charCodeAt(0));
  const enc = (buf) => btoa(String.fromCharCode(...new Uint8Array(buf))).replace(/\\+/g, '-').replace(/\\//g, '_').replace(/=+$/, '');
  const cfg = JSON.parse(document.getElementById('webauthn').textContent);
  const form = document.getElementById(cfg.form);
  const status = document.getElementById('status');
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    status.textContent = 'Waiting for your passkey...';
    try {
      const o = cfg.options;
      const ids = (list) => (list || []).map((c) => ({ ...c, id: b64(c.id) }));
      let out;
      if (cfg.mode === 'get') {
        const cred = await navigator.credentials.get({ publicKey: { ...o, challenge: b64(o.challenge), allowCredentials: ids(o.allowCredentials) } });
        const r = cred.response;
        out = { id: cred.id, rawId: enc(cred.rawId), type: cred.type, clientExtensionResults: cred.getClientExtensionResults(),
          response: { clientDataJSON: enc(r.clientDataJSON), authenticatorData: enc(r.authenticatorData), signature: enc(r.signature), userHandle: r.userHandle ? enc(r.userHandle) : undefined } };
      } else {
        const cred = await navigator.credentials.create({ publicKey: { ...o, challenge: b64(o.challenge), user: { ...o.user, id: b64(o.user.id) }, excludeCredentials: ids(o.excludeCredentials) } });
        const r = cred.response;
        out = { id: cred.id, rawId: enc(cred.rawId), type: cred.type, clientExtensionResults: cred.getClientExtensionResults(),
          response: { clientDataJSON: enc(r.clientDataJSON), attestationObject: enc(r.attestationObject), transports: r.getTransports ? r.getTransports() : [] } };
      }
      form.elements.credential.value = JSON.stringify(out);
      form.submit();
    } catch (err) {
      status.textContent = 'The passkey check did not complete (' + err.message + '). Nothing was approved.';
    }
  });
})();`;

export const WEBAUTHN_SCRIPT_HASH = `'sha256-${createHash('sha256').update(WEBAUTHN_SCRIPT).digest('base64')}'`;

/** The JSON block the script reads; `<` escaped so no value can close the script element. */
export function webauthnData(data: unknown): string {
  return `<script type="application/json" id="webauthn">${JSON.stringify(data).replace(/</g, '\\u003c')}</script><script>${WEBAUTHN_SCRIPT}</script>`;
}
