import { randomBytes } from 'node:crypto';
import { HttpFault, RpcFault, type RpcRouter, needString } from '../rpc.js';
import type { DevnetState } from '../state.js';

/**
 * Token API (/ext/auth, spec document 1), reachable only when the devnet runs with auth
 * required: tokens grant endpoints (`*` all), expire after 12 hours, can be revoked, and
 * die when the password changes. `authorizer` enforces them on every other path with the
 * real node's 401 messages (DESIGN section 5).
 */

export const DEVNET_AUTH_PASSWORD = 'devnet-auth-Passw0rd';
const TOKEN_LIFETIME_S = 12 * 3600;

interface TokenRecord {
  endpoints: string[];
  createdAt: number;
  epoch: number;
  revoked: boolean;
}

export interface AuthModel {
  password: string;
  /** Bumped by changePassword: tokens of older epochs are invalid. */
  epoch: number;
  tokens: Map<string, TokenRecord>;
}

const models = new WeakMap<DevnetState, AuthModel>();

export function authModel(state: DevnetState): AuthModel {
  let model = models.get(state);
  if (!model) {
    model = { password: DEVNET_AUTH_PASSWORD, epoch: 0, tokens: new Map() };
    models.set(state, model);
  }
  return model;
}

function grants(endpoints: string[], path: string): boolean {
  return endpoints.some((e) => e === '*' || path === e || path.startsWith(`${e.replace(/\/+$/, '')}/`));
}

/** The router's authorize hook; `preissued` tokens grant everything (for tests that bring their own). */
export function authorizer(state: DevnetState, preissued: readonly string[] = []) {
  const model = authModel(state);
  for (const token of preissued) model.tokens.set(token, { endpoints: ['*'], createdAt: state.now(), epoch: model.epoch, revoked: false });
  return (path: string, token: string | undefined): void => {
    if (path === '/ext/auth') return;
    if (!token) throw new HttpFault(401, 'auth token not provided');
    const record = model.tokens.get(token);
    if (!record) throw new HttpFault(401, 'the provided auth token is invalid');
    if (record.revoked) throw new HttpFault(401, 'the provided auth token was revoked');
    if (record.epoch !== model.epoch) throw new HttpFault(401, 'the provided auth token was invalidated by a password change');
    if (state.now() >= record.createdAt + TOKEN_LIFETIME_S) throw new HttpFault(401, 'the provided auth token is expired');
    if (!grants(record.endpoints, path)) throw new HttpFault(401, 'the provided auth token does not allow access to this endpoint');
  };
}

export function registerAuth(router: RpcRouter, state: DevnetState): void {
  const model = authModel(state);
  const checkPassword = (value: unknown) => {
    if (value !== model.password) throw new RpcFault('incorrect password');
  };
  router
    .on('/ext/auth', 'auth.newToken', (p) => {
      checkPassword(p.password);
      const endpoints = Array.isArray(p.endpoints) ? p.endpoints.filter((e): e is string => typeof e === 'string') : [];
      if (endpoints.length === 0) throw new RpcFault('must name at least one endpoint');
      const token = randomBytes(24).toString('base64url');
      model.tokens.set(token, { endpoints, createdAt: state.now(), epoch: model.epoch, revoked: false });
      return { token };
    })
    .on('/ext/auth', 'auth.revokeToken', (p) => {
      checkPassword(p.password);
      const record = model.tokens.get(needString(p, 'token'));
      if (record) record.revoked = true;
      return router.emptyReply();
    })
    .on('/ext/auth', 'auth.changePassword', (p) => {
      checkPassword(p.oldPassword);
      const next = typeof p.newPassword === 'string' ? p.newPassword : '';
      if (next.length < 1 || next.length > 1024) throw new RpcFault('new password must be 1 to 1024 characters');
      model.password = next;
      model.epoch += 1;
      return router.emptyReply();
    });
}
