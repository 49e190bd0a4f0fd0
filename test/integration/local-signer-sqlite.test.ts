import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type Devnet, startDevnet } from '../../src/devnet/index.js';
import type { DevnetState } from '../../src/devnet/state/index.js';
import { writeKeyFile } from '../../src/signer/keyfile.js';
import { SqliteStore } from '../../src/state/sqlite.js';
import type { StateStore } from '../../src/state/store.js';
import { requestsFor, type SpendCall, type SpendHarness, spendHarness } from '../helpers/spend-harness.js';

/**
 * The local signer with one SQLite file under two processes (two connections): each binds its previews to a secret of its own. It
 * runs on a Node with node:sqlite (vitest.config.ts's sqlite project: on Node 20, the registry's
 * Node 24), the rest of the local-signer tests on this Node.
 */

let devnet: Devnet;
let state: DevnetState;
const open: SpendHarness[] = [];
let dir: string;
const PASSPHRASE = 'correct horse battery staple 32';

async function harness(env: Record<string, string>, store: StateStore): Promise<SpendHarness> {
  const h = await spendHarness(devnet, {
    env: { CHAIN_MCP_APPROVAL: 'confirm-id', CHAIN_MCP_SIGNER: 'local', CHAIN_MCP_KEY_FILE: join(dir, 'key.json'), CHAIN_MCP_KEY_PASSPHRASE_FILE: join(dir, 'passphrase'), ...env },
    state: store,
  });
  open.push(h);
  return h;
}

const ISSUES = ['avm.issueTx', 'platform.issueTx', 'avax.issueTx', 'eth_sendRawTransaction'];
const issued = () => Object.fromEntries(ISSUES.map((m) => [m, requestsFor(devnet, m)]));

async function previewOf(h: SpendHarness, tool: string, args: Record<string, unknown>): Promise<SpendCall> {
  const p = await h.call(tool, args);
  expect(p.isError, p.text).toBe(false);
  expect(p.structured?.status).toBe('preview');
  return p;
}

const alice = () => state.users.get('alice')!.keys[0]!;

beforeAll(async () => {
  devnet = await startDevnet({ dialect: 'camino' });
  devnet.router.record = true;
  state = devnet.state;
  dir = mkdtempSync(join(tmpdir(), 'chain-mcp-local-sqlite-'));
  await writeKeyFile(join(dir, 'key.json'), devnet.localKey.privateKey, PASSPHRASE, { N: 2 ** 12, r: 8, p: 1 });
  writeFileSync(join(dir, 'passphrase'), `${PASSPHRASE}\n`, { mode: 0o600 });
});
afterEach(async () => {
  for (const h of open.splice(0)) await h.close();
});
afterAll(async () => {
  await devnet.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('a local-signer preview kept in SQLite (one machine, no shared key)', () => {
  it('is not confirmed by another process on the same file, even with the same CHAIN_MCP_STATE_KEY: each process binds its previews to a secret of its own', async () => {
    // Two processes as two connections to one SQLite file, one state key in both environments.
    const file = join(dir, 'shared-state.db');
    const stateKey = 'ab'.repeat(32);
    const one = await harness({ CHAIN_MCP_STATE_KEY: stateKey }, await SqliteStore.open(file));
    const two = await harness({ CHAIN_MCP_STATE_KEY: stateKey }, await SqliteStore.open(file));
    const args = { amount: '1 CAM', assetID: 'CAM', to: alice().x };
    const preview = await previewOf(one, 'xvm_send', args);
    const before = issued();
    const elsewhere = await two.call('xvm_send', { ...args, confirm: preview.structured!.confirmationId });
    expect(elsewhere.isError).toBe(true);
    expect(elsewhere.text).toContain('kept by another process (not this server)');
    expect(issued()).toEqual(before);
    // The process that made it still confirms it, once.
    const done = await one.call('xvm_send', { ...args, confirm: preview.structured!.confirmationId });
    expect(done.isError, done.text).toBe(false);
    expect(issued()['avm.issueTx']).toBe(before['avm.issueTx']! + 1);
  });
});
