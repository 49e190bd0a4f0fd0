import { createHash, generateKeyPairSync, randomBytes, sign } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PasskeyStore, passkeyLabel, RP_ID, WEBAUTHN_SCRIPT, checkAssertion, webauthnData } from '../../src/approval/passkey.js';
import { createLogger, silentLogger } from '../../src/log.js';

const ORIGIN = 'http://localhost:4321';
const b64url = (b: Uint8Array | Buffer) => Buffer.from(b).toString('base64url');

/**
 * A software authenticator: a P-256 key whose public half is stored COSE-encoded, and WebAuthn
 * assertions it signs the way a browser's passkey does (authenticator data, client data, ECDSA).
 */
function authenticator(id = b64url(randomBytes(16))) {
  const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const jwk = publicKey.export({ format: 'jwk' });
  const coord = (v: string | undefined) => Buffer.from(v ?? '', 'base64url');
  // COSE_Key {1: 2 (EC2), 3: -7 (ES256), -1: 1 (P-256), -2: x, -3: y}, CBOR by hand.
  const cose = Buffer.concat([Buffer.from([0xa5, 0x01, 0x02, 0x03, 0x26, 0x20, 0x01, 0x21, 0x58, 0x20]), coord(jwk.x), Buffer.from([0x22, 0x58, 0x20]), coord(jwk.y)]);
  const stored = { id, publicKey: b64url(cose), counter: 0, createdAt: '2026-11-26T00:00:00.000Z' };
  const assert = (challenge: string, counter: number, opts: { origin?: string; userVerified?: boolean } = {}) => {
    const flags = opts.userVerified === false ? 0x01 : 0x05; // user present, and user verified unless asked not to
    const counterBytes = Buffer.alloc(4);
    counterBytes.writeUInt32BE(counter);
    const authData = Buffer.concat([createHash('sha256').update(RP_ID).digest(), Buffer.from([flags]), counterBytes]);
    const clientData = Buffer.from(JSON.stringify({ type: 'webauthn.get', challenge, origin: opts.origin ?? ORIGIN, crossOrigin: false }));
    const signature = sign('sha256', Buffer.concat([authData, createHash('sha256').update(clientData).digest()]), privateKey);
    return JSON.stringify({
      id,
      rawId: id,
      type: 'public-key',
      clientExtensionResults: {},
      response: { clientDataJSON: b64url(clientData), authenticatorData: b64url(authData), signature: b64url(signature) },
    });
  };
  return { stored, assert };
}

const storeFile = () => join(mkdtempSync(join(tmpdir(), 'chain-mcp-passkeys-')), 'sub', 'passkeys.json');

describe('the passkey store (mutation survivors, issue 25)', () => {
  it('has no passkey without a file, and a broken file read at start means none (the link stays off), never a crash', () => {
    const file = storeFile();
    const store = new PasskeyStore(file, silentLogger());
    expect(store.list()).toEqual([]);
    expect(store.registered()).toBe(false);
    store.add(authenticator().stored);
    writeFileSync(file, '{ not json');
    const later = new PasskeyStore(file, silentLogger());
    expect(later.list()).toEqual([]);
    expect(later.registered()).toBe(false);
  });

  it('keeps only entries with a string id and public key', () => {
    const file = storeFile();
    const good = authenticator().stored;
    new PasskeyStore(file).add(good);
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as { rpID: string; credentials: unknown[] };
    expect(parsed.rpID).toBe('localhost');
    parsed.credentials.push(null, 'text', { id: 'no-key' }, { publicKey: 'no-id' }, { id: 7, publicKey: 'x' }, { id: 'x', publicKey: 7 });
    writeFileSync(file, JSON.stringify(parsed));
    expect(new PasskeyStore(file).list()).toEqual([good]);
    writeFileSync(file, JSON.stringify({ credentials: 'not a list' }));
    expect(new PasskeyStore(file).list()).toEqual([]);
  });

  it('reads the file once: a passkey written into it while running is ignored until a restart, and the change is logged once', () => {
    const file = storeFile();
    const mine = authenticator('key-mine').stored;
    new PasskeyStore(file).add(mine);
    const lines: Array<Record<string, unknown>> = [];
    const store = new PasskeyStore(file, createLogger('info', [], { write: (l: string) => lines.push(JSON.parse(l) as Record<string, unknown>) }));
    expect(store.list().map((c) => c.id)).toEqual(['key-mine']);
    // Another program (a model with a shell) writes its own key into the file.
    const theirs = authenticator('key-theirs').stored;
    writeFileSync(file, JSON.stringify({ rpID: 'localhost', credentials: [mine, theirs] }));
    expect(store.list().map((c) => c.id)).toEqual(['key-mine']);
    expect(store.registered()).toBe(true);
    store.list();
    expect(lines.filter((l) => l.audit === 'passkey_file_changed')).toHaveLength(1);
    expect(lines[0]?.msg).toBe('the passkey file changed on disk while the server runs; the change is ignored until a restart (passkeys are read once at start)');
    // Emptied on disk: the passkey read at start still guards the link.
    writeFileSync(file, '{}');
    expect(store.registered()).toBe(true);
    // A restart reads what the file holds then.
    expect(new PasskeyStore(file).list()).toEqual([]);
  });

  it("takes its own writes without calling them a change from outside", () => {
    const file = storeFile();
    const lines: string[] = [];
    const store = new PasskeyStore(file, createLogger('info', [], { write: (l: string) => lines.push(l) }));
    store.add(authenticator('key-a').stored);
    store.touch('key-a', 3);
    expect(store.list().map((c) => [c.id, c.counter])).toEqual([['key-a', 3]]);
    expect(lines).toEqual([]);
  });

  it('names a passkey by its name and the start of its id', () => {
    expect(passkeyLabel({ id: 'abcdefghijklmnop', name: 'laptop' })).toBe('"laptop" (abcdefghijkl…)');
    expect(passkeyLabel({ id: 'short' })).toBe('short');
    // Twelve characters are shown whole; from thirteen on the rest is cut.
    expect(passkeyLabel({ id: 'abcdefghijkl' })).toBe('abcdefghijkl');
    expect(passkeyLabel({ id: 'abcdefghijklm', name: '' })).toBe('abcdefghijkl…');
  });

  it('writes only the owner may read (0600), replaces a passkey registered again, and keeps the others', () => {
    const file = storeFile();
    const store = new PasskeyStore(file);
    const a = authenticator('key-a').stored;
    const b = authenticator('key-b').stored;
    store.add(a);
    store.add(b);
    store.add({ ...a, counter: 9 });
    expect(store.list()).toEqual([b, { ...a, counter: 9 }]);
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it('moves only the named passkey counter forward, and leaves the file alone for an unknown one', () => {
    const file = storeFile();
    const store = new PasskeyStore(file);
    const a = authenticator('key-a').stored;
    const b = authenticator('key-b').stored;
    store.add(a);
    store.add(b);
    store.touch('key-b', 12);
    expect(store.list()).toEqual([a, { ...b, counter: 12 }]);
    const before = readFileSync(file, 'utf8');
    const { ino } = statSync(file);
    store.touch('key-c', 40);
    expect(readFileSync(file, 'utf8')).toBe(before);
    // Not even rewritten with the same text (a write replaces the file: a new inode).
    expect(statSync(file).ino).toBe(ino);
  });
});

describe('the passkey store when the file fails it (issue 40)', () => {
  const logged = () => {
    const lines: Array<Record<string, unknown>> = [];
    return { lines, log: createLogger('info', [], { write: (line: string) => lines.push(JSON.parse(line) as Record<string, unknown>) }) };
  };

  it('a broken file at start is no passkey and one warning naming the file, with or without a logger', () => {
    const file = storeFile();
    mkdirSync(join(file, '..'), { recursive: true });
    writeFileSync(file, '{ not json');
    const { lines, log } = logged();
    expect(new PasskeyStore(file, log).registered()).toBe(false);
    expect(lines.map(({ msg, file: f }) => [msg, f])).toEqual([['passkey file unreadable; the approval link stays off', file]]);
    expect(lines[0]?.err).toEqual(expect.any(String));
    expect(new PasskeyStore(file).list()).toEqual([]);
  });

  it('no file, a file with no list, or a list with junk beside a passkey is no warning: only an unreadable file is', () => {
    const { lines, log } = logged();
    const file = storeFile();
    expect(new PasskeyStore(file, log).registered()).toBe(false);
    mkdirSync(join(file, '..'), { recursive: true });
    writeFileSync(file, JSON.stringify({ rpID: 'localhost' }));
    expect(new PasskeyStore(file, log).registered()).toBe(false);
    const good = authenticator().stored;
    writeFileSync(file, JSON.stringify({ rpID: 'localhost', credentials: [null, 'text', good] }));
    expect(new PasskeyStore(file, log).list()).toEqual([good]);
    expect(lines).toEqual([]);
  });

  it('a counter that cannot be saved still moves forward in memory (a replay here is still refused), with a warning', () => {
    for (const withLog of [true, false]) {
      const file = storeFile();
      const { lines, log } = logged();
      const store = new PasskeyStore(file, withLog ? log : undefined);
      const key = authenticator('key-a').stored;
      store.add(key);
      // The file's place is taken by a folder with something in it: the rename onto it fails.
      rmSync(file);
      mkdirSync(join(file, 'in-the-way'), { recursive: true });
      store.touch('key-a', 7);
      expect(store.list()).toEqual([{ ...key, counter: 7 }]);
      if (withLog) expect(lines.filter((l) => l.msg === 'passkey counter not saved').map((l) => l.file)).toEqual([file]);
    }
  });
});

describe('checking a passkey assertion', () => {
  const challenge = b64url(randomBytes(32));

  it('holds for a registered passkey signing this challenge on this origin with user verification, and saves its counter', async () => {
    const file = storeFile();
    const store = new PasskeyStore(file);
    const key = authenticator();
    store.add(key.stored);
    expect(await checkAssertion(store, key.assert(challenge, 5), challenge, ORIGIN)).toEqual({ passkey: key.stored });
    expect(store.list()[0]?.counter).toBe(5);
  });

  it('refuses a replayed assertion: the saved counter must move forward (a cloned authenticator)', async () => {
    const store = new PasskeyStore(storeFile());
    const key = authenticator();
    store.add(key.stored);
    const assertion = key.assert(challenge, 5);
    expect((await checkAssertion(store, assertion, challenge, ORIGIN)).passkey?.id).toBe(key.stored.id);
    expect((await checkAssertion(store, assertion, challenge, ORIGIN)).why).toMatch(/^passkey assertion refused \(.*counter/i);
  });

  it('refuses what is not JSON, a passkey not registered, another challenge or origin, no user verification, and another key signing under its id', async () => {
    const store = new PasskeyStore(storeFile());
    const key = authenticator();
    store.add(key.stored);
    expect((await checkAssertion(store, 'not json', challenge, ORIGIN)).why).toBe('no passkey assertion');
    expect((await checkAssertion(store, 'null', challenge, ORIGIN)).why).toBe('not a registered passkey');
    expect((await checkAssertion(store, authenticator().assert(challenge, 1), challenge, ORIGIN)).why).toBe('not a registered passkey');
    expect((await checkAssertion(store, key.assert(b64url(randomBytes(32)), 1), challenge, ORIGIN)).why).toMatch(/^passkey assertion refused \(.*challenge/i);
    expect((await checkAssertion(store, key.assert(challenge, 1, { origin: 'http://localhost:9999' }), challenge, ORIGIN)).why).toMatch(/^passkey assertion refused \(.*origin/i);
    expect((await checkAssertion(store, key.assert(challenge, 1, { userVerified: false }), challenge, ORIGIN)).why).toMatch(/^passkey assertion refused \(.*verif/i);
    // The registered passkey's id, everything right, but signed by another key (a model's own software key): no passkey.
    expect(await checkAssertion(store, authenticator(key.stored.id).assert(challenge, 1), challenge, ORIGIN)).toEqual({ why: 'passkey assertion not verified' });
    // None of the refusals moved the counter.
    expect(store.list()[0]?.counter).toBe(0);
  });
});

describe("the page's passkey data block (issue 40)", () => {
  it('carries the options as JSON no value can close: every "<" is escaped, and the JSON reads back the same', () => {
    const data = { mode: 'get', form: 'approve-form', options: { challenge: 'abc', note: '</script><script>alert(1)</script><!--' } };
    const html = webauthnData(data);
    const block = /^<script type="application\/json" id="webauthn">(.*?)<\/script><script>/s.exec(html)?.[1];
    expect(block).toBeDefined();
    expect(block).not.toContain('<');
    expect(JSON.parse(block!)).toEqual(data);
    expect(html.endsWith(`<script>${WEBAUTHN_SCRIPT}</script>`)).toBe(true);
  });
});
