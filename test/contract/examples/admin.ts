import type { ContractExample } from '../types.js';
import { KEYSTORE } from '../types.js';

/**
 * Keystore administration (document 1), key export/import on X, C and P (documents 2, 3)
 * for the configured keystore user, and the contract chain admin API (document 2).
 */

const X1 = 'X-camino1qyqszqgpqyqszqgpqyqszqgpqyqszqgpua39v8';
const P1 = 'P-camino1qyqszqgpqyqszqgpqyqszqgpqyqszqgpua39v8';
const HEX = '0x0101010101010101010101010101010101010101';
const PK = 'PrivateKey-4yo5ZzPDUKCsoucyTX2GfktgoyjxM9cjFUWqkiQsUJrYiEQqr';
/** The bytes of 'exported user' in hex with checksum and in cb58. */
const USER_HEX = '0x6578706f7274656420757365723798a5d6';
const USER_CB58 = 'xJgXREy8DakGZLVvzoBfLAH';
const creds = { username: KEYSTORE.username, password: KEYSTORE.password };
const admin = (method: string, params: Record<string, unknown> = {}) => ({ path: '/ext/bc/C/admin', method, params });

export const examples: Record<string, ContractExample> = {
  keystore_createUser: { args: {}, expect: { path: '/ext/keystore', method: 'keystore.createUser', params: creds }, answers: { 'keystore.createUser': { success: true } } },
  keystore_deleteUser: { args: {}, expect: { path: '/ext/keystore', method: 'keystore.deleteUser', params: creds }, answers: { 'keystore.deleteUser': { success: true } } },
  // Byte strings go to the node in hex (a Camino node refuses cb58); cb58 is read and made here.
  keystore_exportUser: {
    args: { encoding: 'cb58' },
    expect: { path: '/ext/keystore', method: 'keystore.exportUser', params: { ...creds, encoding: 'hex' } },
    answers: { 'keystore.exportUser': { user: USER_HEX, encoding: 'hex' } },
  },
  keystore_importUser: {
    args: { user: USER_CB58 },
    expect: { path: '/ext/keystore', method: 'keystore.importUser', params: { ...creds, user: USER_HEX, encoding: 'hex' } },
    answers: { 'keystore.importUser': { success: true } },
  },
  xvm_exportKey: { args: { address: X1 }, expect: { path: '/ext/bc/X', method: 'xvm.exportKey', params: { ...creds, address: X1 } }, answers: { 'xvm.exportKey': { privateKey: PK } } },
  xvm_importKey: { args: { privateKey: PK }, expect: { path: '/ext/bc/X', method: 'xvm.importKey', params: { ...creds, privateKey: PK } }, answers: { 'xvm.importKey': { address: X1 } } },
  cx_exportKey: {
    args: { address: HEX },
    expect: { path: '/ext/bc/C/cx', method: 'cx.exportKey', params: { ...creds, address: HEX } },
    answers: { 'cx.exportKey': { privateKey: PK, privateKeyHex: '09'.repeat(32) } },
  },
  cx_importKey: { args: { privateKey: PK }, expect: { path: '/ext/bc/C/cx', method: 'cx.importKey', params: { ...creds, privateKey: PK } }, answers: { 'cx.importKey': { address: HEX } } },
  platform_exportKey: { args: { address: P1 }, expect: { path: '/ext/P', method: 'platform.exportKey', params: { ...creds, address: P1 } }, answers: { 'platform.exportKey': { privateKey: PK } } },
  admin_setLogLevel: { args: { level: 'debug' }, expect: admin('admin.setLogLevel', { level: 'debug' }), answers: { 'admin.setLogLevel': { success: true } } },
  admin_startCPUProfiler: { args: {}, expect: admin('admin.startCPUProfiler'), answers: { 'admin.startCPUProfiler': { success: true } } },
  admin_stopCPUProfiler: { args: {}, expect: admin('admin.stopCPUProfiler'), answers: { 'admin.stopCPUProfiler': { success: true } } },
  admin_memoryProfile: { args: {}, expect: admin('admin.memoryProfile'), answers: { 'admin.memoryProfile': { success: true } } },
  admin_lockProfile: { args: {}, expect: admin('admin.lockProfile'), answers: { 'admin.lockProfile': { success: true } } },
};
