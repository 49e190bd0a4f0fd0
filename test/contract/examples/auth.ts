import type { ContractExample } from '../types.js';
import { AUTH_PASSWORD } from '../types.js';

/** Token API, endpoint /ext/auth (spec document 1); the password comes from the configuration. */
export const examples: Record<string, ContractExample> = {
  auth_newToken: {
    args: { endpoints: ['/ext/info', '/ext/bc/X'] },
    expect: { path: '/ext/auth', method: 'auth.newToken', params: { password: AUTH_PASSWORD, endpoints: ['/ext/info', '/ext/bc/X'] } },
    answers: { 'auth.newToken': { token: 'eyJhbGciOiJIUzI1NiJ9.e30.x' } },
  },
  auth_revokeToken: {
    args: { token: 'eyJhbGciOiJIUzI1NiJ9.e30.x' },
    expect: { path: '/ext/auth', method: 'auth.revokeToken', params: { password: AUTH_PASSWORD, token: 'eyJhbGciOiJIUzI1NiJ9.e30.x' } },
    answers: { 'auth.revokeToken': { success: true } },
  },
  auth_changePassword: {
    args: { newPassword: 'N3w-Secret!' },
    expect: { path: '/ext/auth', method: 'auth.changePassword', params: { oldPassword: AUTH_PASSWORD, newPassword: 'N3w-Secret!' } },
    answers: { 'auth.changePassword': { success: true } },
  },
};
