import { createHash, generateKeyPairSync, randomBytes, sign } from 'node:crypto';
import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PasskeyStore, RP_ID, checkAssertion } from '../../src/approval/passkey.js';
import { silentLogger } from '../../src/log.js';

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
  it('has no passkey without a file, and a broken file means none (the link stays off), never a crash', () => {
    const file = storeFile();
    const store = new PasskeyStore(file, silentLogger());
    expect(store.list()).toEqual([]);
    expect(store.registered()).toBe(false);
    store.add(authenticator().stored);
    writeFileSync(file, '{ not json');
    expect(store.list()).toEqual([]);
    expect(store.registered()).toBe(false);
  });

  it('keeps only entries with a string id and public key', () => {
    const file = storeFile();
    const store = new PasskeyStore(file);
    const good = authenticator().stored;
    store.add(good);
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as { rpID: string; credentials: unknown[] };
    expect(parsed.rpID).toBe('localhost');
    parsed.credentials.push(null, 'text', { id: 'no-key' }, { publicKey: 'no-id' }, { id: 7, publicKey: 'x' }, { id: 'x', publicKey: 7 });
    writeFileSync(file, JSON.stringify(parsed));
    expect(store.list()).toEqual([good]);
    writeFileSync(file, JSON.stringify({ credentials: 'not a list' }));
    expect(store.list()).toEqual([]);
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
    store.touch('key-c', 40);
    expect(readFileSync(file, 'utf8')).toBe(before);
  });
});

describe('checking a passkey assertion', () => {
  const challenge = b64url(randomBytes(32));

  it('holds for a registered passkey signing this challenge on this origin with user verification, and saves its counter', async () => {
    const file = storeFile();
    const store = new PasskeyStore(file);
    const key = authenticator();
    store.add(key.stored);
    expect(await checkAssertion(store, key.assert(challenge, 5), challenge, ORIGIN)).toBeUndefined();
    expect(store.list()[0]?.counter).toBe(5);
  });

  it('refuses a replayed assertion: the saved counter must move forward (a cloned authenticator)', async () => {
    const store = new PasskeyStore(storeFile());
    const key = authenticator();
    store.add(key.stored);
    const assertion = key.assert(challenge, 5);
    expect(await checkAssertion(store, assertion, challenge, ORIGIN)).toBeUndefined();
    expect(await checkAssertion(store, assertion, challenge, ORIGIN)).toMatch(/^passkey assertion refused \(.*counter/i);
  });

  it('refuses what is not JSON, a passkey not registered, another challenge or origin, and no user verification', async () => {
    const store = new PasskeyStore(storeFile());
    const key = authenticator();
    store.add(key.stored);
    expect(await checkAssertion(store, 'not json', challenge, ORIGIN)).toBe('no passkey assertion');
    expect(await checkAssertion(store, 'null', challenge, ORIGIN)).toBe('not a registered passkey');
    expect(await checkAssertion(store, authenticator().assert(challenge, 1), challenge, ORIGIN)).toBe('not a registered passkey');
    expect(await checkAssertion(store, key.assert(b64url(randomBytes(32)), 1), challenge, ORIGIN)).toMatch(/^passkey assertion refused \(.*challenge/i);
    expect(await checkAssertion(store, key.assert(challenge, 1, { origin: 'http://localhost:9999' }), challenge, ORIGIN)).toMatch(/^passkey assertion refused \(.*origin/i);
    expect(await checkAssertion(store, key.assert(challenge, 1, { userVerified: false }), challenge, ORIGIN)).toMatch(/^passkey assertion refused \(.*verif/i);
    // None of the refusals moved the counter.
    expect(store.list()[0]?.counter).toBe(0);
  });
});
