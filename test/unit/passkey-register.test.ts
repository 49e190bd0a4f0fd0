import { createHash, generateKeyPairSync, randomBytes, sign } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectionTo } from '../helpers/raw-http.js';
import { MAX_WRONG_CODES, registrationCode, servePasskeyRegistration, type Registration } from '../../src/approval/passkey-register.js';
import { PasskeyStore, RP_ID, WEBAUTHN_SCRIPT_HASH } from '../../src/approval/passkey.js';

/** One raw exchange with a chosen Host (fetch cannot set it). */
function send(url: string, method: string, headers: Record<string, string> = {}, body?: string): Promise<{ status: number; text: string }> {
  const u = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: u.port, path: u.pathname, method, headers: { host: u.host, ...headers } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => {
        text += c;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/**
 * A software authenticator's registration (attestation format "none"), as a browser's passkey
 * makes it: a P-256 key, its COSE public key in the authenticator data, CBOR by hand.
 */
function attestation(challenge: string, origin: string, userVerified: boolean, opts: { packedSignedByAnotherKey?: boolean } = {}) {
  const id = randomBytes(16);
  const jwk = generateKeyPairSync('ec', { namedCurve: 'P-256' }).publicKey.export({ format: 'jwk' });
  const coord = (v: string | undefined) => Buffer.from(v ?? '', 'base64url');
  // COSE_Key {1: 2 (EC2), 3: -7 (ES256), -1: 1 (P-256), -2: x, -3: y}.
  const cose = Buffer.concat([Buffer.from([0xa5, 0x01, 0x02, 0x03, 0x26, 0x20, 0x01, 0x21, 0x58, 0x20]), coord(jwk.x), Buffer.from([0x22, 0x58, 0x20]), coord(jwk.y)]);
  // Flags: user present, attested credential data, and user verified when asked.
  const flags = userVerified ? 0x45 : 0x41;
  const authData = Buffer.concat([createHash('sha256').update(RP_ID).digest(), Buffer.from([flags, 0, 0, 0, 0]), Buffer.alloc(16), Buffer.from([0, id.length]), id, cose]);
  const clientDataJSON = Buffer.from(JSON.stringify({ type: 'webauthn.create', challenge, origin, crossOrigin: false }));
  const text = (t: string) => Buffer.concat([Buffer.from([0x60 + t.length]), Buffer.from(t)]);
  const bytes = (b: Buffer) => Buffer.concat([Buffer.from([0x58, b.length]), b]);
  // {"fmt": "none", "attStmt": {}}, or a packed self-attestation {"alg": -7 (ES256), "sig": …} signed by a key that is not the credential's.
  let fmt = Buffer.concat([text('fmt'), text('none'), text('attStmt'), Buffer.from([0xa0])]);
  if (opts.packedSignedByAnotherKey) {
    const sig = sign('sha256', Buffer.concat([authData, createHash('sha256').update(clientDataJSON).digest()]), generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey);
    fmt = Buffer.concat([text('fmt'), text('packed'), text('attStmt'), Buffer.from([0xa2]), text('alg'), Buffer.from([0x26]), text('sig'), bytes(sig)]);
  }
  const attestationObject = Buffer.concat([Buffer.from([0xa3]), fmt, text('authData'), bytes(authData)]);
  const b64 = (b: Buffer) => b.toString('base64url');
  return {
    id: b64(id),
    publicKey: b64(cose),
    credential: JSON.stringify({
      id: b64(id),
      rawId: b64(id),
      type: 'public-key',
      clientExtensionResults: {},
      response: { clientDataJSON: b64(clientDataJSON), attestationObject: b64(attestationObject) },
    }),
  };
}

/**
 * `chain-mcp passkey add`'s page (mutation survivors, issue 25): only its secret path on its own
 * host, a registration only from a POST of its own page, and what the browser sent is never markup.
 * The full ceremony with a real authenticator is in test/integration/approval-passkey.test.ts.
 */
const CODE = 'ABCD-EFGH';

describe('the passkey registration page', () => {
  let store: PasskeyStore;
  let reg: Registration;
  let origin: string;
  beforeAll(async () => {
    store = new PasskeyStore(join(mkdtempSync(join(tmpdir(), 'chain-mcp-register-')), 'passkeys.json'));
    store.add({ id: 'already-there', publicKey: 'AAAA', counter: 0, transports: ['usb'], createdAt: '2026-11-26T00:00:00.000Z' });
    reg = await servePasskeyRegistration(store, { code: CODE });
    origin = new URL(reg.url).origin;
  });
  afterAll(() => reg.close());

  it('serves only its secret path, and only under the localhost name it was opened with', async () => {
    expect(reg.url).toMatch(/^http:\/\/localhost:\d+\/[A-Za-z0-9_-]{32}$/);
    expect((await send(`${origin}/`, 'GET')).status).toBe(404);
    expect((await send(`${reg.url}x`, 'GET')).status).toBe(404);
    expect((await send(reg.url, 'GET', { host: `127.0.0.1:${new URL(reg.url).port}` })).status).toBe(404);
    const page = await send(reg.url, 'GET');
    expect(page.status).toBe(200);
    // A passkey already stored is excluded, so the browser does not register the same one twice.
    expect(page.text).toContain('"excludeCredentials":[{"id":"already-there","transports":["usb"],"type":"public-key"}]');
    expect(page.text).toContain('"userVerification":"required"');
  });

  it('takes a registration only as a POST from its own page, after the page was shown', async () => {
    const form = `credential=${encodeURIComponent('{}')}`;
    expect((await send(reg.url, 'PUT', { origin }, form)).status).toBe(403);
    expect((await send(reg.url, 'POST', { origin: 'http://localhost:1' }, form)).status).toBe(403);
    expect((await send(reg.url, 'POST', {}, form)).status).toBe(403);
    expect((await send(reg.url, 'POST', { origin }, `credential=${'x'.repeat(16_385)}`)).status).toBe(413);
  });

  it('refuses a credential that does not verify, saying why without letting it become markup', async () => {
    const hostile = JSON.stringify({ id: '<img src=x onerror=alert(1)>', rawId: 'x', type: 'public-key', response: { clientDataJSON: 'e30', attestationObject: 'oA' } });
    await send(reg.url, 'GET');
    const r = await send(reg.url, 'POST', { origin, 'content-type': 'application/x-www-form-urlencoded' }, `code=${CODE}&credential=${encodeURIComponent(hostile)}`);
    expect(r.status).toBe(400);
    expect(r.text).toContain('<title>Not registered</title>');
    expect(r.text).not.toContain('<img');
    const bad = await send(reg.url, 'POST', { origin }, `code=${CODE.toLowerCase()}&credential=not-json`);
    expect(bad.status).toBe(400);
    // The reason quotes what was sent (JSON.parse's message): shown, each of & < > " ' as a character reference.
    const markup = await send(reg.url, 'POST', { origin }, `code=${CODE}&credential=${encodeURIComponent(`<b>"x'&</b>`)}`);
    expect(markup.status).toBe(400);
    expect(markup.text).toContain('&#60;b&#62;&#34;x&#39;&#38;&#60;/b&#62;');
    expect(markup.text).not.toContain('<b>');
    expect(store.list().map((c) => c.id)).toEqual(['already-there']);
  });

  it('takes no registration before its page was shown (no challenge yet), even from its own origin', async () => {
    const fresh = await servePasskeyRegistration(store, { code: CODE });
    try {
      const own = new URL(fresh.url).origin;
      const r = await send(fresh.url, 'POST', { origin: own }, `credential=${encodeURIComponent('{}')}`);
      expect(r.status).toBe(403);
      expect(r.text).toContain('<title>Refused</title>');
    } finally {
      await fresh.close();
    }
  });

  it('asks for the one-time code shown on the terminal, and closes after three wrong codes, registering nothing', async () => {
    const own = await servePasskeyRegistration(store, { code: CODE });
    const from = new URL(own.url).origin;
    try {
      const shown = await send(own.url, 'GET');
      expect(shown.text).toContain('<input type="text" name="code" id="code"');
      const closed = own.done.then(
        () => 'registered',
        (err: Error) => err.message,
      );
      for (let i = 1; i <= MAX_WRONG_CODES; i++) {
        await send(own.url, 'GET');
        const r = await send(own.url, 'POST', { origin: from }, `code=WXYZ-2345&credential=${encodeURIComponent('{}')}`);
        expect(r.status).toBe(403);
        expect(r.text).toContain(i < MAX_WRONG_CODES ? '<title>Wrong code</title>' : 'This registration is closed');
      }
      expect(await closed).toBe('3 wrong codes on the registration page; nothing was registered (run chain-mcp passkey add again)');
      expect(store.list().map((c) => c.id)).toEqual(['already-there']);
    } finally {
      await own.close();
    }
  });

  it('takes the code as a person types it (lower case, spaces around or inside), and counts a code of another length as wrong', async () => {
    const own = await servePasskeyRegistration(store, { code: CODE });
    const from = new URL(own.url).origin;
    try {
      for (const typed of [' abcd-efgh ', 'ABCD - EFGH', 'abcd-\tefgh']) {
        await send(own.url, 'GET');
        // Past the code: the (empty) credential is what is refused.
        const r = await send(own.url, 'POST', { origin: from }, `code=${encodeURIComponent(typed)}&credential=${encodeURIComponent('{}')}`);
        expect(r.status, typed).toBe(400);
        expect(r.text).toContain('<title>Not registered</title>');
      }
      await send(own.url, 'GET');
      const short = await send(own.url, 'POST', { origin: from }, `code=ABCD&credential=${encodeURIComponent('{}')}`);
      expect(short.status).toBe(403);
      expect(short.text).toContain('<title>Wrong code</title>');
      await send(own.url, 'GET');
      const none = await send(own.url, 'POST', { origin: from }, `credential=${encodeURIComponent('{}')}`);
      expect(none.status).toBe(403);
      expect(none.text).toContain('<title>Wrong code</title>');
      expect(store.list().map((c) => c.id)).toEqual(['already-there']);
    } finally {
      await own.close();
    }
  });

  it('a failure while answering is a 500 page, never a crash; the registration stays open', async () => {
    const own = await servePasskeyRegistration(store, { code: CODE });
    const list = store.list.bind(store);
    try {
      store.list = () => {
        throw new Error('passkey file gone');
      };
      const failed = await send(own.url, 'GET');
      expect(failed.status).toBe(500);
      expect(failed.text).toContain('<p>Something went wrong. Reload the page.</p>');
      expect(failed.text).not.toContain('passkey file gone');
      store.list = list;
      expect((await send(own.url, 'GET')).status).toBe(200);
    } finally {
      store.list = list;
      await own.close();
    }
  });

  it('serves on the port asked for (--port), and reads a form of exactly 16 KB', async () => {
    const probe = createServer();
    const port = await new Promise<number>((resolve) => probe.listen(0, '127.0.0.1', () => resolve((probe.address() as AddressInfo).port)));
    await new Promise((resolve) => probe.close(resolve));
    const own = await servePasskeyRegistration(store, { code: CODE, port });
    try {
      expect(new URL(own.url).port).toBe(String(port));
      await send(own.url, 'GET');
      const base = 'code=WXYZ-2345&pad=';
      // Read whole (then refused for its code), not refused as too large.
      const r = await send(own.url, 'POST', { origin: new URL(own.url).origin }, base + 'x'.repeat(16_384 - base.length));
      expect(r.status).toBe(403);
      expect(r.text).toContain('<title>Wrong code</title>');
    } finally {
      await own.close();
    }
  });

  it('sends the same guarding headers on every answer: only its own script, no framing, no caching, no sniffing', async () => {
    const headersOf = (url: string) =>
      new Promise<Record<string, unknown>>((resolve, reject) => {
        const u = new URL(url);
        request({ host: '127.0.0.1', port: u.port, path: u.pathname, headers: { host: u.host } }, (res) => {
          res.resume();
          resolve({ status: res.statusCode, ...res.headers });
        })
          .on('error', reject)
          .end();
      });
    for (const [url, status] of [[reg.url, 200], [`${origin}/elsewhere`, 404]] as const) {
      expect(await headersOf(url)).toMatchObject({
        status,
        'content-type': 'text/html; charset=utf-8',
        'content-security-policy': `default-src 'none'; script-src ${WEBAUTHN_SCRIPT_HASH}; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'`,
        'cache-control': 'no-store',
        'x-content-type-options': 'nosniff',
      });
    }
  });

  it('closed, it serves nothing more', async () => {
    const own = await servePasskeyRegistration(store, { code: CODE });
    expect((await send(own.url, 'GET')).status).toBe(200);
    await own.close();
    await expect(connectionTo(own.url)).resolves.toBe('ECONNREFUSED');
  });

  it('registers a passkey made with user verification; one made without, or whose attestation another key signed, is refused and not stored', async () => {
    const own = await servePasskeyRegistration(store, { code: CODE, name: 'software key' });
    const from = new URL(own.url).origin;
    const post = (credential: string) => send(own.url, 'POST', { origin: from }, `code=${CODE}&credential=${encodeURIComponent(credential)}`);
    try {
      const challenge = /"challenge":"([A-Za-z0-9_-]+)"/.exec((await send(own.url, 'GET')).text)?.[1] ?? '';
      expect(challenge).not.toBe('');
      // A refusal leaves the page's challenge as it was: the next try answers the same one.
      const unverified = attestation(challenge, from, false);
      const noUv = await post(unverified.credential);
      expect(noUv.status).toBe(400);
      expect(noUv.text).toMatch(/could not be registered \(.*user verification/i);
      const forged = attestation(challenge, from, true, { packedSignedByAnotherKey: true });
      const badSig = await post(forged.credential);
      expect(badSig.status).toBe(400);
      expect(badSig.text).toContain('could not be registered (not verified)');
      expect(store.list().map((c) => c.id)).toEqual(['already-there']);
      const made = attestation(challenge, from, true);
      const r = await post(made.credential);
      expect(r.status).toBe(200);
      expect(r.text).toContain('<strong>Registered.</strong>');
      expect(await own.done).toBe(made.id);
      expect(store.list().find((c) => c.id === made.id)).toMatchObject({ name: 'software key', publicKey: made.publicKey, counter: 0 });
    } finally {
      await own.close();
    }
  });

  it('makes codes of eight unambiguous characters', () => {
    const codes = new Set(Array.from({ length: 50 }, registrationCode));
    expect(codes.size).toBe(50);
    for (const c of codes) expect(c).toMatch(/^[A-HJKMNP-Z2-9]{4}-[A-HJKMNP-Z2-9]{4}$/);
  });
});
