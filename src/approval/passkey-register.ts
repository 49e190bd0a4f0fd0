import { randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { page } from './page.js';
import { type PasskeyStore, RP_ID, WEBAUTHN_SCRIPT_HASH, webauthnData } from './passkey.js';

export interface Registration {
  /** Open this in a browser on this computer (a secret path: printed to the operator only). */
  url: string;
  /** Resolves with the new passkey's id once it is stored; rejects after MAX_WRONG_CODES wrong codes. */
  done: Promise<string>;
  close(): Promise<void>;
}

const MAX_FORM = 16_384;
/** Wrong one-time codes before the registration closes: a guesser gets three tries at 40 bits. */
export const MAX_WRONG_CODES = 3;
/** Crockford-like: no 0/O or 1/I/L to misread off a terminal. */
const CODE_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';

/** A one-time code for the registration page, shown only on the operator's terminal: XXXX-XXXX. */
export function registrationCode(): string {
  const pick = () => Array.from({ length: 4 }, () => CODE_ALPHABET[randomInt(CODE_ALPHABET.length)]).join('');
  return `${pick()}-${pick()}`;
}

function sameCode(given: string, expected: string): boolean {
  // Every space goes, around the code or inside it, as a person may type it.
  const a = Buffer.from(given.toUpperCase().replace(/\s+/g, ''));
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

export interface RegistrationOptions {
  /** The one-time code the person types into the page (shown on their terminal only). */
  code: string;
  /** The passkey's name in audit lines (`--name`). */
  name?: string;
  port?: number;
}

/**
 * `chain-mcp passkey add`: serves a one-page registration on http://localhost:<port>/<secret>,
 * checks the one-time code the person read off their terminal, then the browser's WebAuthn
 * attestation (user verification required), and stores the passkey's public key. The secret path
 * and the code (never on stdout: a program that runs the command without a terminal gets neither)
 * keep other local programs from registering their own.
 */
export async function servePasskeyRegistration(store: PasskeyStore, opts: RegistrationOptions): Promise<Registration> {
  const { generateRegistrationOptions, verifyRegistrationResponse } = await import('@simplewebauthn/server');
  const secret = randomBytes(24).toString('base64url');
  let origin = '';
  let challenge = '';
  let wrongCodes = 0;
  let finish: (id: string) => void = () => undefined;
  let fail: (err: Error) => void = () => undefined;
  const done = new Promise<string>((resolve, reject) => {
    finish = resolve;
    fail = reject;
  });
  // A caller that only awaits later must not see an unhandled rejection first.
  done.catch(() => undefined);
  const reply = (res: ServerResponse, status: number, body: string) =>
    res
      .writeHead(status, {
        'content-type': 'text/html; charset=utf-8',
        'content-security-policy': `default-src 'none'; script-src ${WEBAUTHN_SCRIPT_HASH}; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'`,
        'cache-control': 'no-store',
        'x-content-type-options': 'nosniff',
      })
      .end(body);
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    if (req.headers.host !== new URL(origin).host || new URL(req.url ?? '/', origin).pathname !== `/${secret}`) {
      return reply(res, 404, page('Not found', '<p>Nothing here.</p>'));
    }
    if (req.method === 'GET') {
      const options = await generateRegistrationOptions({
        rpName: 'chain-mcp approvals',
        rpID: RP_ID,
        userName: 'chain-mcp operator',
        attestationType: 'none',
        authenticatorSelection: { residentKey: 'discouraged', userVerification: 'required' },
        excludeCredentials: store.list().map((c) => ({ id: c.id, transports: c.transports })),
        timeout: 120_000,
      });
      challenge = options.challenge;
      const body = `<p>Register a passkey for approving chain-mcp spends on this computer. Type the code shown in the terminal where you ran <code>chain-mcp passkey add</code>; then your browser asks for your fingerprint, face, PIN or security key.</p><form method="post" id="register-form"><input type="hidden" name="credential" value=""><label>Code from your terminal <input type="text" name="code" id="code" autocomplete="off" required></label> <button type="submit" id="register">Register passkey</button></form><p id="status" role="status"></p>${webauthnData({ mode: 'create', form: 'register-form', options })}`;
      return reply(res, 200, page('chain-mcp: register a passkey', body));
    }
    if (req.method !== 'POST' || req.headers.origin !== origin || !challenge) return reply(res, 403, page('Refused', '<p>Use the button on the page.</p>'));
    let text = '';
    for await (const chunk of req as AsyncIterable<Buffer>) {
      text += chunk.toString('utf8');
      if (text.length > MAX_FORM) return reply(res, 413, page('Too large', '<p>The form was too large.</p>'));
    }
    const form = new URLSearchParams(text);
    if (!sameCode(form.get('code') ?? '', opts.code)) {
      wrongCodes += 1;
      challenge = '';
      if (wrongCodes >= MAX_WRONG_CODES) {
        reply(res, 403, page('Refused', '<p>Wrong code too many times. This registration is closed; run <code>chain-mcp passkey add</code> again.</p>'));
        fail(new Error(`${MAX_WRONG_CODES} wrong codes on the registration page; nothing was registered (run chain-mcp passkey add again)`));
        return;
      }
      return reply(res, 403, page('Wrong code', '<p>That is not the code shown in your terminal. Reload the page and try again.</p>'));
    }
    try {
      const result = await verifyRegistrationResponse({
        response: JSON.parse(form.get('credential') ?? ''),
        expectedChallenge: challenge,
        expectedOrigin: origin,
        expectedRPID: RP_ID,
        requireUserVerification: true,
      });
      if (!result.verified) throw new Error('not verified');
      const c = result.registrationInfo.credential;
      challenge = '';
      store.add({
        id: c.id,
        publicKey: Buffer.from(c.publicKey).toString('base64url'),
        counter: c.counter,
        transports: c.transports,
        createdAt: new Date().toISOString(),
        ...(opts.name ? { name: opts.name } : {}),
      });
      reply(res, 200, page('Passkey registered', '<p><strong>Registered.</strong> Approval links now ask for this passkey. You can close this page.</p>'));
      finish(c.id);
    } catch (err) {
      reply(res, 400, page('Not registered', `<p>The passkey could not be registered (${escapeText((err as Error).message)}). Reload the page and try again.</p>`));
    }
  };
  const server = createServer((req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) reply(res, 500, page('Error', '<p>Something went wrong. Reload the page.</p>'));
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, '127.0.0.1', () => resolve());
  });
  origin = `http://localhost:${(server.address() as AddressInfo).port}`;
  return {
    url: `${origin}/${secret}`,
    done,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const escapeText = (text: string): string => text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
