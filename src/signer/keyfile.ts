import { createCipheriv, createDecipheriv, randomBytes, scrypt as scryptCallback, timingSafeEqual } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { type EvmSignature, type LocalSigner, type SignerAddresses, SignerLockedError } from './types.js';

/*
 * The encrypted key file: scrypt (node:crypto) derives an AES-256-GCM key from the passphrase; the
 * public addresses sit in clear beside the ciphertext and are bound to it as GCM's associated data,
 * so they can be read without unlocking and cannot be swapped without the unlock failing.
 * This module loads no curve code: `./keys.js` is imported only when a key is unlocked or written.
 */

/** scrypt cost for new files: N = 2^17, r = 8 (128 MiB, about a second): a guess costs as much as an unlock. */
export const STRONG_SCRYPT = { N: 2 ** 17, r: 8, p: 1 } as const;
/** Bounds on a file's own parameters, so a crafted file cannot make the server allocate without limit. */
const MAX_N = 2 ** 20;
const FORMAT = 'chain-mcp-key';

export interface ScryptParams {
  N: number;
  r: number;
  p: number;
}

interface KeyFileJson {
  format: typeof FORMAT;
  version: 1;
  public: { shortId: string; publicKey: string; evm: `0x${string}` };
  kdf: { name: 'scrypt'; salt: string } & ScryptParams;
  cipher: { name: 'aes-256-gcm'; iv: string; tag: string; data: string };
}

/** The file is missing, unreadable or not a key file: one line naming the file, never its contents. */
export class KeyFileError extends Error {
  override name = 'KeyFileError';
}

/** A wrong passphrase: one line, no detail (which check failed would help a guesser). */
export class WrongPassphraseError extends Error {
  override name = 'WrongPassphraseError';
  constructor() {
    super('wrong passphrase: the key stays locked');
  }
}

function derive(passphrase: string, salt: Buffer, params: ScryptParams): Promise<Buffer> {
  // An unpooled copy, wiped after: given a string, scrypt copies it into Node's shared Buffer pool,
  // which later Buffer.allocUnsafe calls hand out uninitialised.
  const normal = passphrase.normalize('NFKC');
  const bytes = Buffer.alloc(Buffer.byteLength(normal, 'utf8'));
  bytes.write(normal, 'utf8');
  return new Promise<Buffer>((resolve, reject) => {
    scryptCallback(bytes, salt, 32, { ...params, maxmem: 256 * params.N * params.r + 1024 * 1024 }, (err, key) => (err ? reject(err) : resolve(key)));
  }).finally(() => bytes.fill(0));
}

const hexOf = (b: Uint8Array) => Buffer.from(b).toString('hex');
const isHex = (v: unknown, bytes: number): v is string => typeof v === 'string' && v.length === bytes * 2 && /^[0-9a-f]+$/.test(v);
const isB64 = (v: unknown): v is string => typeof v === 'string' && /^[A-Za-z0-9_-]+$/.test(v);

function parse(file: string, text: string): KeyFileJson {
  let json: KeyFileJson;
  try {
    json = JSON.parse(text) as KeyFileJson;
  } catch {
    throw new KeyFileError(`${file} is not a chain-mcp key file (not JSON)`);
  }
  const k = json?.kdf;
  const c = json?.cipher;
  const pub = json?.public;
  const ok =
    json?.format === FORMAT &&
    json.version === 1 &&
    isHex(pub?.shortId, 20) &&
    isHex(pub?.publicKey, 33) &&
    typeof pub?.evm === 'string' &&
    /^0x[0-9a-fA-F]{40}$/.test(pub.evm) &&
    k?.name === 'scrypt' &&
    isB64(k.salt) &&
    Number.isInteger(k.N) &&
    k.N >= 2 &&
    k.N <= MAX_N &&
    (k.N & (k.N - 1)) === 0 &&
    Number.isInteger(k.r) &&
    k.r >= 1 &&
    k.r <= 32 &&
    Number.isInteger(k.p) &&
    k.p >= 1 &&
    k.p <= 16 &&
    c?.name === 'aes-256-gcm' &&
    isB64(c.iv) &&
    isB64(c.tag) &&
    isB64(c.data);
  if (!ok) throw new KeyFileError(`${file} is not a chain-mcp key file (format ${FORMAT}, version 1)`);
  return json;
}

function addressesOf(json: KeyFileJson): SignerAddresses {
  return {
    shortId: Uint8Array.from(Buffer.from(json.public.shortId, 'hex')),
    publicKey: Uint8Array.from(Buffer.from(json.public.publicKey, 'hex')),
    evm: json.public.evm,
  };
}

/** The associated data: the public part exactly as stored. */
const aadOf = (json: KeyFileJson) => Buffer.from(JSON.stringify(json.public));

function readJson(file: string): KeyFileJson {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new KeyFileError(code === 'ENOENT' ? `no key file at ${file}` : `cannot read the key file ${file} (${code ?? 'error'})`);
  }
  return parse(file, text);
}

/** The public addresses of a key file, without the passphrase. */
export function readKeyFileAddresses(file: string): SignerAddresses {
  return addressesOf(readJson(file));
}

/** Whether group or others may read the file (it should be 0600, as written); false where modes do not apply. */
export function keyFileOpenToOthers(file: string): boolean {
  if (process.platform === 'win32') return false;
  return (statSync(file).mode & 0o077) !== 0;
}

/**
 * Encrypts `key` under `passphrase` into a new file (mode 0600, its folder 0700). Refuses to
 * replace a file that exists: a key overwritten by mistake is money lost.
 */
export async function writeKeyFile(file: string, key: Uint8Array, passphrase: string, params: ScryptParams = STRONG_SCRYPT): Promise<SignerAddresses> {
  if (existsSync(file)) throw new KeyFileError(`a key file already exists at ${file}; move it away first (it may hold funds)`);
  const { addressesOfKey } = await import('./keys.js');
  const addresses = addressesOfKey(key);
  const salt = randomBytes(16);
  const iv = randomBytes(12);
  const aesKey = await derive(passphrase, salt, params);
  const json: KeyFileJson = {
    format: FORMAT,
    version: 1,
    public: { shortId: hexOf(addresses.shortId), publicKey: hexOf(addresses.publicKey), evm: addresses.evm },
    kdf: { name: 'scrypt', salt: salt.toString('base64url'), ...params },
    cipher: { name: 'aes-256-gcm', iv: iv.toString('base64url'), tag: '', data: '' },
  };
  const cipher = createCipheriv('aes-256-gcm', aesKey, iv);
  cipher.setAAD(aadOf(json));
  const data = Buffer.concat([cipher.update(key), cipher.final()]);
  aesKey.fill(0);
  json.cipher.data = data.toString('base64url');
  json.cipher.tag = cipher.getAuthTag().toString('base64url');
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  const tmp = `${file}.${randomBytes(4).toString('hex')}.tmp`;
  // Created 0600 (a umask only takes bits away) and never through an existing path; the rename keeps that mode.
  writeFileSync(tmp, `${JSON.stringify(json, null, 2)}\n`, { mode: 0o600, flag: 'wx' });
  renameSync(tmp, file);
  return addresses;
}

/** Decrypts the key of a parsed file; throws WrongPassphraseError for any failure of the passphrase. */
async function decrypt(json: KeyFileJson, passphrase: string): Promise<Buffer> {
  const aesKey = await derive(passphrase, Buffer.from(json.kdf.salt, 'base64url'), json.kdf);
  try {
    const decipher = createDecipheriv('aes-256-gcm', aesKey, Buffer.from(json.cipher.iv, 'base64url'));
    decipher.setAAD(aadOf(json));
    decipher.setAuthTag(Buffer.from(json.cipher.tag, 'base64url'));
    const head = decipher.update(Buffer.from(json.cipher.data, 'base64url'));
    const tail = decipher.final();
    const key = Buffer.concat([head, tail]);
    head.fill(0);
    tail.fill(0);
    return key;
  } catch {
    throw new WrongPassphraseError();
  } finally {
    aesKey.fill(0);
  }
}

export interface KeyFileSignerOptions {
  /** Lock after this many minutes without a confirmed spend (CHAIN_MCP_KEY_IDLE_MINUTES); 0: never. */
  idleMinutes?: number;
  /** How the human unlocks this key, for the locked error (the approval page's unlock URL). */
  howToUnlock?: () => string;
}

/** The key file's signer: its addresses are known at once; signing waits for `unlock`. */
export class KeyFileSigner implements LocalSigner {
  readonly addresses: SignerAddresses;
  private inner?: LocalSigner;
  private unlocking?: Promise<void>;
  private howToUnlock: () => string;

  constructor(
    readonly file: string,
    private readonly json: KeyFileJson,
    private readonly opts: KeyFileSignerOptions = {},
  ) {
    this.addresses = addressesOf(json);
    this.howToUnlock = opts.howToUnlock ?? (() => 'the human unlocks it by typing the passphrase on the approval page');
  }

  /** Where the refusal of a locked key sends the human (set once the approval page knows its address). */
  setHowToUnlock(fn: () => string): void {
    this.howToUnlock = fn;
  }

  lockedMessage(): string {
    return `The signing key is locked: ${this.howToUnlock()}. Nothing was signed.`;
  }

  isUnlocked(): boolean {
    return this.inner?.isUnlocked() ?? false;
  }

  /**
   * Opens the key with the passphrase; WrongPassphraseError otherwise. The decrypted key must give
   * the addresses stored in clear, or the file is refused (a file whose halves disagree is not used).
   */
  unlock(passphrase: string): Promise<void> {
    const run = async () => {
      const key = await decrypt(this.json, passphrase);
      try {
        const { addressesOfKey, signerFromPrivateKey } = await import('./keys.js');
        const derived = addressesOfKey(key);
        const same = (a: Uint8Array, b: Uint8Array) => a.length === b.length && timingSafeEqual(a, b);
        // Every stored address is used as the key's own (spends, change, "your address"): all must be this key's.
        const matches = same(derived.publicKey, this.addresses.publicKey) && same(derived.shortId, this.addresses.shortId) && derived.evm.toLowerCase() === this.addresses.evm.toLowerCase();
        if (!matches) {
          throw new KeyFileError(`${this.file}: the key does not match the addresses stored beside it; the file is damaged`);
        }
        this.inner?.lock();
        this.inner = signerFromPrivateKey(key, { idleMinutes: this.opts.idleMinutes, lockedMessage: () => this.lockedMessage() });
      } finally {
        key.fill(0);
      }
    };
    // One unlock at a time: two forms posted together do not race.
    const next = (this.unlocking ?? Promise.resolve()).catch(() => undefined).then(run);
    this.unlocking = next;
    return next;
  }

  private open(): LocalSigner {
    if (!this.inner?.isUnlocked()) throw new SignerLockedError(this.lockedMessage());
    return this.inner;
  }

  signHash(hash32: Uint8Array): Uint8Array {
    return this.open().signHash(hash32);
  }

  signEvmDigest(digest32: Uint8Array): EvmSignature {
    return this.open().signEvmDigest(digest32);
  }

  confirmedUse(): void {
    this.inner?.confirmedUse();
  }

  lock(): void {
    this.inner?.lock();
    this.inner = undefined;
  }
}

/** A locked signer over the key file at `file`; KeyFileError when it is missing or not a key file. */
export function openKeyFile(file: string, opts: KeyFileSignerOptions = {}): KeyFileSigner {
  return new KeyFileSigner(file, readJson(file), opts);
}
