import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createCipheriv, randomBytes, scryptSync } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { afterAll, describe, expect, it } from 'vitest';
import {
  addressesOfKey,
  KeyFileError,
  keyFileOpenToOthers,
  openKeyFile,
  readKeyFileAddresses,
  type ScryptParams,
  writeKeyFile,
} from '../../src/signer/index.js';

/*
 * What a key file must be before it is used, what the file system sees when one is written, and files
 * built here from the format (scrypt, then AES-256-GCM with the public part as associated data)
 * rather than by writeKeyFile, so the reading side is checked against the format and not only
 * against its own writer.
 */

const KEY = Uint8Array.from(Buffer.from('56289e99c94b6912bfc12adc093c9b51124f0dc54ac7a766b2bc5ccf558d8027', 'hex'));
// A second valid key: its public part does not belong to KEY.
const OTHER = Uint8Array.from(Buffer.alloc(32, 0x11));
const PASSPHRASE = 'a long passphrase, typed';
// Cheap scrypt for tests only; the format and the code path are those of STRONG_SCRYPT.
const CHEAP: ScryptParams = { N: 2 ** 10, r: 8, p: 1 };
const dir = mkdtempSync(join(tmpdir(), 'chain-mcp-keyfile-validation-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
const fresh = (name = 'key.json') => join(dir, `f${n++}`, name);

const NOT_A_KEY_FILE = (file: string) => `${file} is not a chain-mcp key file (format chain-mcp-key, version 1)`;

/** The error `fn` throws (undefined when it throws none). */
function thrown(fn: () => unknown): unknown {
  try {
    fn();
  } catch (e) {
    return e;
  }
  return undefined;
}

const publicOf = (key: Uint8Array) => {
  const a = addressesOfKey(key);
  return { shortId: Buffer.from(a.shortId).toString('hex'), publicKey: Buffer.from(a.publicKey).toString('hex'), evm: a.evm };
};

/** A key file built from the format: `secret` encrypted under `passphrase`, beside the public part `pub`. */
function craft(secret: Uint8Array, pub: { shortId: string; publicKey: string; evm: string }, kdf: ScryptParams, passphrase = PASSPHRASE) {
  const salt = randomBytes(16);
  const iv = randomBytes(12);
  const aesKey = scryptSync(passphrase.normalize('NFKC'), salt, 32, { ...kdf, maxmem: 512 * 1024 * 1024 });
  const cipher = createCipheriv('aes-256-gcm', aesKey, iv);
  cipher.setAAD(Buffer.from(JSON.stringify(pub)));
  const data = Buffer.concat([cipher.update(secret), cipher.final()]);
  return {
    format: 'chain-mcp-key',
    version: 1,
    public: pub,
    kdf: { name: 'scrypt', salt: salt.toString('base64url'), ...kdf },
    cipher: { name: 'aes-256-gcm', iv: iv.toString('base64url'), tag: cipher.getAuthTag().toString('base64url'), data: data.toString('base64url') },
  };
}

const put = (json: unknown, file = fresh()) => {
  mkdirSync(join(file, '..'), { recursive: true });
  writeFileSync(file, typeof json === 'string' ? json : JSON.stringify(json));
  return file;
};

// One valid file, written once; each case below changes one thing in a copy of it.
const valid = craft(KEY, publicOf(KEY), CHEAP);
const HEX40 = valid.public.shortId;
const HEX66 = valid.public.publicKey;
const EVM = valid.public.evm;
type Json = ReturnType<typeof craft>;
const edit = (fn: (j: Json) => void): Json => {
  const j = structuredClone(valid);
  fn(j);
  return j;
};
const without = (field: 'public' | 'kdf' | 'cipher' | 'format' | 'version') =>
  edit((j) => {
    delete (j as Partial<Json>)[field];
  });

describe('a key file is read only when every field is as the format says', () => {
  it('takes the valid file as it is', () => {
    expect(readKeyFileAddresses(put(valid)).evm).toBe(EVM);
  });

  const refused: [string, unknown][] = [
    ['JSON null', 'null'],
    ['a JSON string', '"chain-mcp-key"'],
    ['a JSON number', '1'],
    ['a JSON array', '[]'],
    ['an empty object', '{}'],
    ['another format', edit((j) => Object.assign(j, { format: 'chain-mcp-key-2' }))],
    ['no format', without('format')],
    ['version 2', edit((j) => Object.assign(j, { version: 2 }))],
    ['version "1"', edit((j) => Object.assign(j, { version: '1' }))],
    ['no version', without('version')],
    ['no public part', without('public')],
    ['no kdf', without('kdf')],
    ['no cipher', without('cipher')],
    ['public: null', edit((j) => Object.assign(j, { public: null }))],
    ['kdf: null', edit((j) => Object.assign(j, { kdf: null }))],
    ['cipher: null', edit((j) => Object.assign(j, { cipher: null }))],
    // Hex fields: exact length, lower-case hex only, from the first character to the last.
    ['shortId one byte short', edit((j) => Object.assign(j.public, { shortId: HEX40.slice(2) }))],
    ['shortId one byte long', edit((j) => Object.assign(j.public, { shortId: `${HEX40}00` }))],
    ['shortId with a non-hex first character', edit((j) => Object.assign(j.public, { shortId: `g${HEX40.slice(1)}` }))],
    ['shortId with a non-hex last character', edit((j) => Object.assign(j.public, { shortId: `${HEX40.slice(0, -1)}g` }))],
    ['shortId in upper case', edit((j) => Object.assign(j.public, { shortId: HEX40.toUpperCase() }))],
    ['shortId a number', edit((j) => Object.assign(j.public, { shortId: 1234 }))],
    ['publicKey one byte short', edit((j) => Object.assign(j.public, { publicKey: HEX66.slice(2) }))],
    ['publicKey uncompressed (65 bytes)', edit((j) => Object.assign(j.public, { publicKey: Buffer.from(secp256k1.getPublicKey(KEY, false)).toString('hex') }))],
    ['publicKey with a non-hex first character', edit((j) => Object.assign(j.public, { publicKey: `x${HEX66.slice(1)}` }))],
    ['publicKey with a non-hex last character', edit((j) => Object.assign(j.public, { publicKey: `${HEX66.slice(0, -1)}x` }))],
    ['no publicKey', edit((j) => Object.assign(j.public, { publicKey: undefined }))],
    // The C address: 0x and 40 hex digits, nothing before or after, and a string.
    ['evm with a character before 0x', edit((j) => Object.assign(j.public, { evm: `a${EVM}` }))],
    ['evm with a character after', edit((j) => Object.assign(j.public, { evm: `${EVM}a` }))],
    ['evm one digit short', edit((j) => Object.assign(j.public, { evm: EVM.slice(0, -1) }))],
    ['evm without 0x', edit((j) => Object.assign(j.public, { evm: EVM.slice(2) }))],
    ['evm a list holding the address', edit((j) => Object.assign(j.public, { evm: [EVM] }))],
    ['no evm', edit((j) => Object.assign(j.public, { evm: undefined }))],
    // The key derivation.
    ['kdf pbkdf2', edit((j) => Object.assign(j.kdf, { name: 'pbkdf2' }))],
    ['N = 0', edit((j) => Object.assign(j.kdf, { N: 0 }))],
    ['N = 1', edit((j) => Object.assign(j.kdf, { N: 1 }))],
    ['N = 3 (not a power of two)', edit((j) => Object.assign(j.kdf, { N: 3 }))],
    ['N = 1536 (not a power of two)', edit((j) => Object.assign(j.kdf, { N: 1536 }))],
    ['N = 2^21 (above the bound)', edit((j) => Object.assign(j.kdf, { N: 2 ** 21 }))],
    ['N = 2^30', edit((j) => Object.assign(j.kdf, { N: 2 ** 30 }))],
    ['N = 1024.5', edit((j) => Object.assign(j.kdf, { N: 1024.5 }))],
    ['N = "1024"', edit((j) => Object.assign(j.kdf, { N: '1024' }))],
    ['r = 0', edit((j) => Object.assign(j.kdf, { r: 0 }))],
    ['r = 33', edit((j) => Object.assign(j.kdf, { r: 33 }))],
    ['r = 1.5', edit((j) => Object.assign(j.kdf, { r: 1.5 }))],
    ['p = 0', edit((j) => Object.assign(j.kdf, { p: 0 }))],
    ['p = 17', edit((j) => Object.assign(j.kdf, { p: 17 }))],
    ['p = "1"', edit((j) => Object.assign(j.kdf, { p: '1' }))],
    // Base64url fields: its alphabet only, from the first character to the last, and a string.
    ['salt with a + inside', edit((j) => Object.assign(j.kdf, { salt: `${j.kdf.salt.slice(0, 4)}+${j.kdf.salt.slice(5)}` }))],
    ['salt with a stray first character', edit((j) => Object.assign(j.kdf, { salt: `.${j.kdf.salt}` }))],
    ['salt with padding at the end', edit((j) => Object.assign(j.kdf, { salt: `${j.kdf.salt}=` }))],
    ['salt empty', edit((j) => Object.assign(j.kdf, { salt: '' }))],
    ['salt a number', edit((j) => Object.assign(j.kdf, { salt: 12345678 }))],
    ['iv with a stray first character', edit((j) => Object.assign(j.cipher, { iv: `/${j.cipher.iv}` }))],
    ['iv with a stray last character', edit((j) => Object.assign(j.cipher, { iv: `${j.cipher.iv}/` }))],
    ['tag with a stray first character', edit((j) => Object.assign(j.cipher, { tag: ` ${j.cipher.tag}` }))],
    ['tag with a stray last character', edit((j) => Object.assign(j.cipher, { tag: `${j.cipher.tag} ` }))],
    ['data with a stray first character', edit((j) => Object.assign(j.cipher, { data: `=${j.cipher.data}` }))],
    ['data with a stray last character', edit((j) => Object.assign(j.cipher, { data: `${j.cipher.data}=` }))],
    ['data a number', edit((j) => Object.assign(j.cipher, { data: 42 }))],
    // The cipher.
    ['cipher aes-128-gcm', edit((j) => Object.assign(j.cipher, { name: 'aes-128-gcm' }))],
    ['cipher chacha20-poly1305', edit((j) => Object.assign(j.cipher, { name: 'chacha20-poly1305' }))],
  ];

  it.each(refused)('refuses %s in one line naming the file, on reading the addresses and on opening', (_, json) => {
    const file = put(json);
    for (const read of [() => readKeyFileAddresses(file), () => openKeyFile(file)]) {
      const err = thrown(read);
      expect(err).toBeInstanceOf(KeyFileError);
      expect((err as Error).message).toBe(NOT_A_KEY_FILE(file));
    }
  });

  const accepted: [string, Partial<ScryptParams>][] = [
    ['N = 2 (the smallest)', { N: 2 }],
    ['N = 2^20 (the largest)', { N: 2 ** 20 }],
    ['r = 1', { r: 1 }],
    ['r = 32', { r: 32 }],
    ['p = 1', { p: 1 }],
    ['p = 16', { p: 16 }],
  ];

  it.each(accepted)('reads a file with %s, the bound itself being allowed', (_, kdf) => {
    const file = put(edit((j) => Object.assign(j.kdf, kdf)));
    expect(readKeyFileAddresses(file).evm).toBe(EVM);
    expect(openKeyFile(file).addresses.evm).toBe(EVM);
  });

  it('says "not JSON" for a file that is not JSON', () => {
    const file = put('{"format": "chain-mcp-key",');
    const err = thrown(() => openKeyFile(file));
    expect(err).toBeInstanceOf(KeyFileError);
    expect((err as Error).message).toBe(`${file} is not a chain-mcp key file (not JSON)`);
  });

  it('tells a missing file from one that cannot be read', () => {
    const missing = fresh();
    expect(thrown(() => openKeyFile(missing))).toEqual(new KeyFileError(`no key file at ${missing}`));
    // A folder where the file should be cannot be read, even as root (a mode of 000 can be, by root).
    const folder = fresh();
    mkdirSync(folder, { recursive: true });
    const err = thrown(() => readKeyFileAddresses(folder));
    expect(err).toBeInstanceOf(KeyFileError);
    expect((err as Error).message).toBe(`cannot read the key file ${folder} (EISDIR)`);
  });
});

describe('files this module writes and decrypts', () => {
  it('creates every missing folder 0700, writes the file 0600 and leaves no temporary file', async () => {
    const top = fresh('a');
    const file = join(top, 'b', 'key.json');
    await writeKeyFile(file, KEY, PASSPHRASE, CHEAP);
    expect(statSync(top).mode & 0o777).toBe(0o700);
    expect(statSync(join(top, 'b')).mode & 0o777).toBe(0o700);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readdirSync(join(top, 'b'))).toEqual(['key.json']);
  });

  it('refuses to replace an existing file and leaves it as it was', async () => {
    const file = fresh();
    await writeKeyFile(file, KEY, PASSPHRASE, CHEAP);
    const before = readFileSync(file, 'utf8');
    await expect(writeKeyFile(file, OTHER, PASSPHRASE, CHEAP)).rejects.toThrow(new KeyFileError(`a key file already exists at ${file}; move it away first (it may hold funds)`));
    expect(readFileSync(file, 'utf8')).toBe(before);
  });

  it('reports a key file group or others may read, and not one only its owner may', async () => {
    const file = fresh();
    await writeKeyFile(file, KEY, PASSPHRASE, CHEAP);
    expect(keyFileOpenToOthers(file)).toBe(false);
    for (const [mode, open] of [
      [0o644, true],
      [0o640, true],
      [0o604, true],
      [0o601, true],
      [0o610, true],
      [0o600, false],
      [0o400, false],
      [0o700, false],
    ] as const) {
      chmodSync(file, mode);
      expect([mode.toString(8), keyFileOpenToOthers(file)]).toEqual([mode.toString(8), open]);
    }
  });

  it('reports no key file open to others where file modes do not apply (Windows)', async () => {
    const file = fresh();
    await writeKeyFile(file, KEY, PASSPHRASE, CHEAP);
    chmodSync(file, 0o644);
    const platform = Object.getOwnPropertyDescriptor(process, 'platform');
    Object.defineProperty(process, 'platform', { ...platform, value: 'win32' });
    try {
      expect(keyFileOpenToOthers(file)).toBe(false);
    } finally {
      if (platform) Object.defineProperty(process, 'platform', platform);
    }
    expect(keyFileOpenToOthers(file)).toBe(true);
  });

  it.each([
    ['the cost of the tests', CHEAP],
    ['N = 2^14, r = 8 (16 MiB, above the default memory cap of a small N)', { N: 2 ** 14, r: 8, p: 1 }],
    ['N = 2, r = 1, p = 16 (more memory in p than in N)', { N: 2, r: 1, p: 16 }],
    ['N = 2, r = 32, p = 1', { N: 2, r: 32, p: 1 }],
  ])('unlocks a file built from the format with %s, by the scrypt parameters the file names', async (_, kdf) => {
    const file = put(craft(KEY, publicOf(KEY), kdf));
    const signer = openKeyFile(file);
    await signer.unlock(PASSPHRASE);
    expect(signer.isUnlocked()).toBe(true);
    const hash = new Uint8Array(32).fill(9);
    const sig = signer.signHash(hash);
    expect(secp256k1.verify(sig.subarray(0, 64), hash, signer.addresses.publicKey, { prehash: false })).toBe(true);
    signer.lock();
  });

  it('writes and unlocks at the smallest scrypt cost with the most parallelism the format allows', async () => {
    const file = fresh();
    await writeKeyFile(file, KEY, PASSPHRASE, { N: 2, r: 1, p: 16 });
    const signer = openKeyFile(file);
    await signer.unlock(PASSPHRASE);
    expect(signer.isUnlocked()).toBe(true);
    signer.lock();
  });

  it('refuses a file whose encrypted key does not give the public key stored beside it', async () => {
    // Bound to its public part (the associated data), so the passphrase opens it: only the check after decryption can refuse it.
    const file = put(craft(KEY, publicOf(OTHER), CHEAP));
    const signer = openKeyFile(file);
    const err = await signer.unlock(PASSPHRASE).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(KeyFileError);
    expect((err as Error).message).toBe(`${file}: the key does not match the addresses stored beside it; the file is damaged`);
    expect(signer.isUnlocked()).toBe(false);
    expect(thrown(() => signer.signHash(new Uint8Array(32)))).toBeInstanceOf(Error);
    // The right file still unlocks afterwards in the same process.
    const good = openKeyFile(put(craft(KEY, publicOf(KEY), CHEAP)));
    await good.unlock(PASSPHRASE);
    expect(good.isUnlocked()).toBe(true);
    good.lock();
  });

  it.each([
    ['X/P address', (pub: ReturnType<typeof publicOf>) => ({ ...pub, shortId: publicOf(OTHER).shortId })],
    ['C address', (pub: ReturnType<typeof publicOf>) => ({ ...pub, evm: publicOf(OTHER).evm })],
  ])('refuses a file whose stored %s is another key\'s though its public key is right', async (_what, change) => {
    // Spends, change and "your address" use the stored addresses: each must be this key's.
    const file = put(craft(KEY, change(publicOf(KEY)), CHEAP));
    const signer = openKeyFile(file);
    const err = await signer.unlock(PASSPHRASE).catch((e: unknown) => e);
    expect((err as Error).message).toBe(`${file}: the key does not match the addresses stored beside it; the file is damaged`);
    expect(signer.isUnlocked()).toBe(false);
  });

  it('refuses a file whose stored public key is of another length than a compressed key', async () => {
    const uncompressed = { ...publicOf(KEY), publicKey: Buffer.from(secp256k1.getPublicKey(KEY, false)).toString('hex') };
    const file = put(craft(KEY, uncompressed, CHEAP));
    expect(thrown(() => openKeyFile(file))).toEqual(new KeyFileError(NOT_A_KEY_FILE(file)));
  });

  it('leaves no copy of the decrypted key or the passphrase in the shared Buffer pool (which Buffer.allocUnsafe hands out uninitialised)', async () => {
    const json = craft(KEY, publicOf(KEY), CHEAP);
    const signer = openKeyFile(put(json));
    // Outside the pool (Buffer.alloc), so that looking for them puts nothing in it.
    const key = Buffer.alloc(32);
    key.set(KEY);
    const ciphertext = Buffer.alloc(32);
    ciphertext.set(Buffer.from(json.cipher.data, 'base64url'));
    // A large fresh pool, so everything the unlock puts in it stays in the one slab looked at afterwards.
    const size = Buffer.poolSize;
    Buffer.poolSize = 1024 * 1024;
    try {
      // Larger than what the old pool can have left: Node starts a new pool of the new size.
      Buffer.allocUnsafe(Buffer.poolSize / 2 - 1);
      const slab = Buffer.allocUnsafe(1).buffer;
      await signer.unlock(PASSPHRASE);
      expect(Buffer.allocUnsafe(1).buffer).toBe(slab);
      const pool = Buffer.from(slab.slice(0));
      // The unlock did use this slab (the ciphertext was decoded into it)...
      expect(pool.includes(ciphertext)).toBe(true);
      // ...and the key it decrypted there was wiped, and the passphrase never went there.
      expect(pool.includes(key)).toBe(false);
      expect(pool.includes(Buffer.from(PASSPHRASE.normalize('NFKC'), 'utf8'))).toBe(false);
    } finally {
      Buffer.poolSize = size;
      signer.lock();
    }
  });

});
