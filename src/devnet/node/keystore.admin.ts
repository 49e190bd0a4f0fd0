import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { cb58Decode, cb58Encode } from '../../codec/index.js';
import { type Params, RpcFault, type RpcRouter, needString } from '../rpc.js';
import { addUser, addUserKey, type DevnetState, type KeystoreUser, makeKey, type UserKey } from '../state/index.js';

/**
 * Keystore API (/ext/keystore, spec document 1): users with the strength rule and the
 * length limits; export/import keep the password (the data is encrypted with it).
 * Also the helpers every signing method uses to check `username`/`password`.
 */

/** The spec's recommended strength, which the devnet enforces: 8+ characters, upper, lower, digit, symbol. */
export function weakPassword(password: string): boolean {
  return password.length < 8 || !/[a-z]/.test(password) || !/[A-Z]/.test(password) || !/[0-9]/.test(password) || !/[^A-Za-z0-9]/.test(password);
}

function wrongPassword(username: string): RpcFault {
  return new RpcFault(`problem retrieving user "${username}": incorrect password for user "${username}"`);
}

/** The user named by `username`, if `password` is right; the real node's message otherwise. */
export function needUser(state: DevnetState, p: Params): KeystoreUser {
  const username = needString(p, 'username');
  const password = typeof p.password === 'string' ? p.password : '';
  const user = state.keystoreApi ? state.users.get(username) : undefined;
  if (!user || user.password !== password) throw wrongPassword(username);
  return user;
}

/** The key of `user` behind an address in any chain form, or a node-like refusal. */
export function needKey(user: KeystoreUser, address: string): UserKey {
  const bare = address.startsWith('0x') ? address.toLowerCase() : address.slice(address.indexOf('-') + 1);
  const key = user.keys.find((k) => k.bech32 === bare || k.c === bare);
  if (!key) throw new RpcFault(`problem retrieving private key: user "${user.username}" does not control address ${address}`);
  return key;
}

/** Adds a private key to a user; the same key always gives the same addresses. */
export function importPrivateKey(state: DevnetState, user: KeystoreUser, privateKey: string): UserKey {
  if (!/^PrivateKey-[1-9A-HJ-NP-Za-km-z]+$/.test(privateKey)) throw new RpcFault('problem parsing private key: expected PrivateKey-<cb58>');
  try {
    cb58Decode(privateKey.slice('PrivateKey-'.length));
  } catch (err) {
    throw new RpcFault(`problem parsing private key: ${(err as Error).message}`);
  }
  const existing = user.keys.find((k) => k.privateKey === privateKey);
  if (existing) return existing;
  for (const other of state.users.values()) {
    const known = other.keys.find((k) => k.privateKey === privateKey);
    if (known) {
      user.keys.push(known);
      return known;
    }
  }
  const key = { ...makeKey(state.hrp, `imported:${privateKey}`), privateKey };
  user.keys.push(key);
  return key;
}

function cipherKey(password: string): Buffer {
  return createHash('sha256').update(`devnet-keystore:${password}`).digest();
}

function encode(bytes: Buffer, encoding: string): string {
  if (encoding === 'hex') {
    const sum = createHash('sha256').update(bytes).digest().subarray(-4);
    return `0x${Buffer.concat([bytes, sum]).toString('hex')}`;
  }
  return cb58Encode(bytes);
}

function decode(text: string, encoding: string): Buffer {
  try {
    if (encoding === 'hex') {
      const all = Buffer.from(text.replace(/^0x/, ''), 'hex');
      const body = all.subarray(0, all.length - 4);
      if (!createHash('sha256').update(body).digest().subarray(-4).equals(all.subarray(-4))) throw new Error('bad checksum');
      return body;
    }
    return Buffer.from(cb58Decode(text));
  } catch (err) {
    throw new RpcFault(`couldn't decode user: ${(err as Error).message}`);
  }
}

function needEncoding(p: Params): string {
  const e = p.encoding;
  if (e === undefined || e === '') return 'cb58';
  if (e !== 'cb58' && e !== 'hex') throw new RpcFault(`invalid encoding: "${String(e)}"`);
  return e;
}

function checkLengths(username: string, password: string): void {
  if (username.length > 1024) throw new RpcFault('username exceeds maximum length of 1024 characters');
  if (password.length > 1024) throw new RpcFault('password exceeds maximum length of 1024 characters');
}

export function registerKeystoreAdmin(router: RpcRouter, state: DevnetState): void {
  const path = '/ext/keystore';
  router
    .on(path, 'keystore.createUser', (p) => {
      const username = needString(p, 'username');
      const password = typeof p.password === 'string' ? p.password : '';
      checkLengths(username, password);
      if (state.users.has(username)) throw new RpcFault(`user already exists: ${username}`);
      if (weakPassword(password)) throw new RpcFault('password is too weak');
      addUser(state, username, password, 0);
      return router.emptyReply();
    })
    .on(path, 'keystore.deleteUser', (p) => {
      const user = needUser(state, p);
      state.users.delete(user.username);
      return router.emptyReply();
    })
    .on(path, 'keystore.exportUser', (p) => {
      const user = needUser(state, p);
      const encoding = needEncoding(p);
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', cipherKey(user.password), iv);
      const plain = Buffer.from(JSON.stringify({ keys: user.keys.map((k) => ({ label: k.label, privateKey: k.privateKey })) }), 'utf8');
      const sealed = Buffer.concat([iv, cipher.update(plain), cipher.final(), cipher.getAuthTag()]);
      return { user: encode(sealed, encoding), encoding };
    })
    .on(path, 'keystore.importUser', (p) => {
      const username = needString(p, 'username');
      const password = typeof p.password === 'string' ? p.password : '';
      checkLengths(username, password);
      if (state.users.has(username)) throw new RpcFault(`user already exists: ${username}`);
      const sealed = decode(needString(p, 'user'), needEncoding(p));
      let keys: Array<{ label: string; privateKey: string }>;
      try {
        const decipher = createDecipheriv('aes-256-gcm', cipherKey(password), sealed.subarray(0, 12));
        decipher.setAuthTag(sealed.subarray(-16));
        keys = JSON.parse(Buffer.concat([decipher.update(sealed.subarray(12, -16)), decipher.final()]).toString('utf8')).keys;
      } catch {
        throw wrongPassword(username);
      }
      const user = addUser(state, username, password, 0);
      for (const k of keys) {
        const key = addUserKey(state, user, k.label);
        if (key.privateKey !== k.privateKey) Object.assign(key, { privateKey: k.privateKey });
      }
      return router.emptyReply();
    });
}
