import { createHash, randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
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
}

/** The operator's registered passkeys, read from the file on each use (registering needs no restart). */
export class PasskeyStore {
  constructor(
    readonly file: string,
    private readonly log?: Logger,
  ) {}

  list(): StoredPasskey[] {
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

  registered(): boolean {
    return this.list().length > 0;
  }

  add(passkey: StoredPasskey): void {
    this.write([...this.list().filter((c) => c.id !== passkey.id), passkey]);
  }

  /** Keeps the signature counter moving forward (a cloned authenticator shows up as a counter that does not). */
  touch(id: string, counter: number): void {
    const all = this.list();
    const found = all.find((c) => c.id === id);
    if (!found) return;
    found.counter = counter;
    try {
      this.write(all);
    } catch (err) {
      this.log?.warn({ file: this.file, err: (err as Error).message }, 'passkey counter not saved');
    }
  }

  private write(credentials: StoredPasskey[]): void {
    mkdirSync(dirname(this.file), { recursive: true, mode: 0o700 });
    const tmp = `${this.file}.${randomBytes(4).toString('hex')}.tmp`;
    writeFileSync(tmp, `${JSON.stringify({ rpID: RP_ID, credentials }, null, 2)}\n`, { mode: 0o600 });
    renameSync(tmp, this.file);
    chmodSync(this.file, 0o600);
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

/**
 * Checks a WebAuthn assertion made on `origin` for this approval's challenge by one of the stored
 * passkeys, with user verification. Returns why not, or undefined when it holds.
 */
export async function checkAssertion(store: PasskeyStore, raw: string, challenge: string, origin: string): Promise<string | undefined> {
  let response: AuthenticationResponseJSON;
  try {
    response = JSON.parse(raw) as AuthenticationResponseJSON;
  } catch {
    return 'no passkey assertion';
  }
  const credential = store.list().find((c) => c.id === response?.id);
  if (!credential) return 'not a registered passkey';
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
    if (!result.verified) return 'passkey assertion not verified';
    store.touch(credential.id, result.authenticationInfo.newCounter);
    return undefined;
  } catch (err) {
    return `passkey assertion refused (${(err as Error).message})`;
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
