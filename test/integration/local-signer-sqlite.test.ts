import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { formatAmount } from '../../src/codec/index.js';
import { type Devnet, startDevnet } from '../../src/devnet/index.js';
import type { DevnetState } from '../../src/devnet/state/index.js';
import { writeKeyFile } from '../../src/signer/keyfile.js';
import { SqliteStore } from '../../src/state/sqlite.js';
import type { StateStore } from '../../src/state/store.js';
import { requestsFor, type SpendCall, type SpendHarness, spendHarness } from '../helpers/spend-harness.js';

/**
 * The local signer with a store shared by two processes (two connections to one SQLite file). It
 * runs on a Node with node:sqlite (vitest.config.ts's sqlite project: on Node 20, the registry's
 * Node 24), the rest of the local-signer tests on this Node.
 */

const show = (v: bigint) => formatAmount(v, { decimals: 9, symbol: 'CAM' });

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

/** "Tx output 2: 1.5 CAM to X-local1… (payment; unlocked)" -> [amount text, address]. */
function outputsIn(lines: readonly string[], label: string): Array<[string, string]> {
  const re = new RegExp(`^${label} output \\d+: ([\\d,.]+ CAM) to (\\S+) \\(`);
  return lines.flatMap((l) => {
    const m = re.exec(l);
    return m ? [[m[1]!, m[2]!] as [string, string]] : [];
  });
}

function stateOutputs(txID: string): Array<[string, string]> {
  return [...state.utxos.values()]
    .filter((u) => u.txID === txID)
    .sort((a, b) => a.outputIndex - b.outputIndex)
    .map((u) => [show(u.amount), u.addresses.join(', ')] as [string, string]);
}

const sorted = (x: Array<[string, string]>) => [...x].sort((a, b) => (a.join() < b.join() ? -1 : 1));
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

describe('a local-signer preview kept in a shared state store', () => {
  it('is confirmed on another process with the same key and store, issued once; the process that made it then finds it used', async () => {
    // Two processes as two connections to one SQLite file, one state key, one key file each unlocked.
    const file = join(dir, 'shared-state.db');
    const stateKey = 'ab'.repeat(32);
    const one = await harness({ CHAIN_MCP_STATE_KEY: stateKey }, await SqliteStore.open(file));
    const two = await harness({ CHAIN_MCP_STATE_KEY: stateKey }, await SqliteStore.open(file));
    const args = { amount: '1 CAM', assetID: 'CAM', to: alice().x };
    const preview = await previewOf(one, 'xvm_send', args);
    const before = issued();
    const done = await two.call('xvm_send', { ...args, confirm: preview.structured!.confirmationId });
    expect(done.isError, done.text).toBe(false);
    expect(done.text).toMatch(/^Sent on X: issued once, txID \w+/);
    // Exactly the previewed outputs, from the bytes the first process built.
    expect(sorted(outputsIn(preview.structured!.preview as string[], 'Tx'))).toEqual(sorted(stateOutputs(String((done.structured!.result as { txID: string }).txID))));
    const again = await one.call('xvm_send', { ...args, confirm: preview.structured!.confirmationId });
    expect(again.isError).toBe(true);
    expect(issued()['avm.issueTx']).toBe(before['avm.issueTx']! + 1);
  });
});
