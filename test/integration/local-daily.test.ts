import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type Devnet, startDevnet } from '../../src/devnet/index.js';
import type { DevnetState } from '../../src/devnet/state/index.js';
import { writeKeyFile } from '../../src/signer/keyfile.js';
import { MemoryStore } from '../../src/state/memory.js';
import { PostgresStore } from '../../src/state/postgres.js';
import { SqliteStore } from '../../src/state/sqlite.js';
import type { StateStore } from '../../src/state/store.js';
import { startPostgres, type TestPostgres } from '../../tools/postgres.js';
import { recordingNode } from '../helpers/recording-node.js';
import { requestsFor, type SpendHarness, spendHarness } from '../helpers/spend-harness.js';

/**
 * Under the local signer the rolling 24 h total (CHAIN_MCP_MAX_SPEND_PER_DAY) counts what the
 * indexer records the key sent, so ledger rows deleted from any state backend, or a restart with
 * a fresh memory store, let nothing more through; an indexer that cannot say refuses the spend.
 * Each test has a fresh simulator: its only earlier spend by the key is the seed's 0.001 CAM fee.
 */

const CAM = 1_000_000_000n;
let devnet: Devnet;
let state: DevnetState;
let dir: string;
const open: SpendHarness[] = [];
const PASSPHRASE = 'correct horse battery staple 32';
const ISSUES = ['avm.issueTx', 'platform.issueTx', 'avax.issueTx', 'eth_sendRawTransaction'];
const issued = () => ISSUES.reduce((n, m) => n + requestsFor(devnet, m), 0);

async function harness(env: Record<string, string> = {}, store?: StateStore): Promise<SpendHarness> {
  const h = await spendHarness(devnet, {
    env: { CHAIN_MCP_APPROVAL: 'confirm-id', CHAIN_MCP_SIGNER: 'local', CHAIN_MCP_KEY_FILE: join(dir, 'key.json'), CHAIN_MCP_KEY_PASSPHRASE_FILE: join(dir, 'passphrase'), ...env },
    ...(store ? { state: store } : {}),
  });
  open.push(h);
  return h;
}

const alice = () => state.users.get('alice')!.keys[0]!;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'chain-mcp-daily-'));
  const first = await startDevnet({ dialect: 'camino' });
  await writeKeyFile(join(dir, 'key.json'), first.localKey.privateKey, PASSPHRASE, { N: 2 ** 12, r: 8, p: 1 });
  await first.close();
  writeFileSync(join(dir, 'passphrase'), `${PASSPHRASE}\n`, { mode: 0o600 });
});
beforeEach(async () => {
  devnet = await startDevnet({ dialect: 'camino' });
  devnet.router.record = true;
  state = devnet.state;
});
afterEach(async () => {
  for (const h of open.splice(0)) await h.close();
  await devnet.close();
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('the daily total counts what the chain records the key sent: editing the store lowers nothing', () => {
  const DAILY = { CHAIN_MCP_MAX_SPEND_PER_DAY: String((3n * CAM) / 2n) };
  let postgres: TestPostgres | undefined;
  afterAll(async () => {
    await postgres?.stop();
  });
  const backends: Array<{ name: string; open(): Promise<{ store: StateStore; wipe(): Promise<StateStore> }> }> = [
    {
      name: 'memory (a restart starts a fresh store)',
      open: async () => ({ store: new MemoryStore(), wipe: async () => new MemoryStore() }),
    },
    {
      name: 'sqlite (ledger rows deleted in the file)',
      open: async () => {
        const store = await SqliteStore.open(join(dir, `state-${Date.now()}.db`));
        const wipe = async () => {
          // As a shell writing the file would: the store's own connection, the table emptied.
          (store as unknown as { db: { exec(sql: string): void } }).db.exec('DELETE FROM chain_mcp_ledger');
          return store;
        };
        return { store, wipe };
      },
    },
    {
      name: 'postgres (ledger rows deleted by a role that can write the table)',
      open: async () => {
        postgres ??= await startPostgres();
        const store = await PostgresStore.open(postgres.url, undefined, 2);
        const wipe = async () => {
          await store.pool.query('DELETE FROM chain_mcp_ledger');
          return store;
        };
        return { store, wipe };
      },
    },
  ];

  for (const backend of backends) {
    it(`${backend.name}: 1 CAM sent under a 1.5 CAM daily limit, the rows gone, another 1 CAM is still refused`, async () => {
      const { store, wipe } = await backend.open();
      try {
        const h = await harness(DAILY, store);
        const args = { amount: '1 CAM', assetID: 'CAM', to: alice().x };
        const p = await h.call('xvm_send', args);
        expect(p.isError, p.text).toBe(false);
        const done = await h.call('xvm_send', { ...args, confirm: p.structured!.confirmationId });
        expect(done.isError, done.text).toBe(false);
        const tampered = await wipe();
        expect(await tampered.spent('default', Date.now())).toBe(0n);
        const again = await harness(DAILY, tampered);
        const before = issued();
        const r = await again.call('xvm_send', args);
        expect(r.isError).toBe(true);
        expect(r.text).toContain('CHAIN_MCP_MAX_SPEND_PER_DAY');
        expect(r.text).toContain('; 1.002 CAM was sent already');
        expect(issued()).toBe(before);
      } finally {
        for (const h of open.splice(0)) await h.close();
        await store.close().catch(() => undefined);
      }
    }, 120_000);
  }

  it('at confirm the chain is read again: what the key sent elsewhere since the preview (another store) is counted, nothing is sent', async () => {
    const h = await harness(DAILY);
    const p = await h.call('xvm_send', { amount: '0.4 CAM', assetID: 'CAM', to: alice().x });
    expect(p.isError, p.text).toBe(false);
    // The same key spends 1.2 CAM from a process with a store of its own and no limit.
    const elsewhere = await harness();
    const args = { amount: '1.2 CAM', assetID: 'CAM', to: alice().x };
    const q = await elsewhere.call('xvm_send', args);
    expect((await elsewhere.call('xvm_send', { ...args, confirm: q.structured!.confirmationId })).isError).toBe(false);
    const before = issued();
    const r = await h.call('xvm_send', { amount: '0.4 CAM', assetID: 'CAM', to: alice().x, confirm: p.structured!.confirmationId });
    expect(r.isError).toBe(true);
    expect(r.text).toContain('; 1.202 CAM was sent already');
    expect(issued()).toBe(before);
  });

  it('a confirm in flight (reserved, not on the chain yet) and a spend from elsewhere (on the chain, not in this store) are added, not the larger taken', async () => {
    const store = new MemoryStore();
    const h = await harness(DAILY, store);
    const args = { amount: '0.6 CAM', assetID: 'CAM', to: alice().x };
    const p = await h.call('xvm_send', args);
    expect(p.isError, p.text).toBe(false);
    // Another confirm of this process holds 0.6 CAM while its issue is under way: in the store, not on the chain.
    expect(await store.reserve(h.services.ledger.signer, (6n * CAM) / 10n, undefined, Date.now())).toBeDefined();
    // The same key sends 0.5 CAM from a process with a store of its own: on the chain, not in this store.
    const elsewhere = await harness();
    const q = await elsewhere.call('xvm_send', { ...args, amount: '0.5 CAM' });
    expect((await elsewhere.call('xvm_send', { ...args, amount: '0.5 CAM', confirm: q.structured!.confirmationId })).isError).toBe(false);
    const before = issued();
    // 0.502 CAM on the chain (the seed's fee, 0.5 and its fee) + 0.6 in flight + 0.601 = 1.703 CAM, over 1.5.
    const r = await h.call('xvm_send', { ...args, confirm: p.structured!.confirmationId });
    expect(r.isError, r.text).toBe(true);
    expect(r.text).toContain('; 1.102 CAM was sent already');
    const again = await h.call('xvm_send', args);
    expect(again.isError).toBe(true);
    expect(again.text).toContain('CHAIN_MCP_MAX_SPEND_PER_DAY');
    expect(issued()).toBe(before);
  });

  it('two confirms that each passed the check: the reservation at the issue, with what the chain knows beyond the store, lets only one through', async () => {
    // The key sent 0.3 CAM from a process with a store of its own: 0.302 CAM on the chain with the seed's fee, not in this store.
    const args = { amount: '0.65 CAM', assetID: 'CAM', to: alice().x };
    const elsewhere = await harness();
    const e = await elsewhere.call('xvm_send', { ...args, amount: '0.3 CAM' });
    expect((await elsewhere.call('xvm_send', { ...args, amount: '0.3 CAM', confirm: e.structured!.confirmationId })).isError).toBe(false);
    // A's check passes (0.302 + 0.651), then the human is asked; while they decide, B is confirmed and
    // sent (its check saw nothing of A, which holds no reservation yet). Each fits under 1.5 CAM alone; both do not.
    let other: (() => Promise<void>) | undefined;
    const h = await spendHarness(devnet, {
      env: { ...DAILY, CHAIN_MCP_APPROVAL: 'human', CHAIN_MCP_SIGNER: 'local', CHAIN_MCP_KEY_FILE: join(dir, 'key.json'), CHAIN_MCP_KEY_PASSPHRASE_FILE: join(dir, 'passphrase') },
      capabilities: { elicitation: { form: {} } },
      elicit: async () => {
        const run = other;
        other = undefined;
        await run?.();
        return { action: 'accept', content: { approve: true } };
      },
    });
    open.push(h);
    const a = await h.call('xvm_send', args);
    const b = await h.call('xvm_send', args);
    expect(a.isError || b.isError, `${a.text}\n${b.text}`).toBe(false);
    let sentB: { isError: boolean; text: string } | undefined;
    other = async () => {
      sentB = await h.call('xvm_send', { ...args, confirm: b.structured!.confirmationId });
    };
    const before = issued();
    const sentA = await h.call('xvm_send', { ...args, confirm: a.structured!.confirmationId });
    expect(sentB?.isError, sentB?.text).toBe(false);
    expect(sentA.isError).toBe(true);
    expect(sentA.text.split('\n')[0]).toContain('over CHAIN_MCP_MAX_SPEND_PER_DAY (1.5 CAM)');
    expect(issued()).toBe(before + 1);
    expect(await h.services.ledger.spent()).toBe((651n * CAM) / 1000n);
  });

  it('an indexer that cannot answer refuses a spend under a daily limit in one line, and none is sent', async () => {
    const down = recordingNode((_req, res) => {
      res.writeHead(503, { 'content-type': 'text/plain' });
      res.end('unavailable');
    });
    const url = await down.listen();
    try {
      const h = await harness({ ...DAILY, CHAIN_MCP_INDEXER_URL: url });
      const before = issued();
      const r = await h.call('xvm_send', { amount: '0.1 CAM', assetID: state.nativeAssetID, to: alice().x });
      expect(r.isError).toBe(true);
      expect(r.text.split('\n')[0]).toBe(
        'Refused: CHAIN_MCP_MAX_SPEND_PER_DAY is set, and the indexer (CHAIN_MCP_INDEXER_URL) could not say what the key sent in the last 24 hours, so the daily total cannot be checked. Nothing was sent.',
      );
      expect(r.text).toContain('Try again when the indexer answers, or ask the operator to set CHAIN_MCP_INDEXER_URL.');
      expect(issued()).toBe(before);
      // Without a daily limit the key's transactions are not asked for.
      const free = await harness({ CHAIN_MCP_INDEXER_URL: url });
      const seen = down.seen.length;
      expect((await free.call('xvm_send', { amount: '0.1 CAM', assetID: state.nativeAssetID, to: alice().x })).isError).toBe(false);
      expect(down.seen.slice(seen).filter((q) => /transactions/.test(q.url))).toEqual([]);
    } finally {
      await down.close();
    }
  });
});

describe("C-Chain atomic moves are counted from the indexer's record (Magellan lists their EVM side)", () => {
  const LIMIT = CAM;
  const DAILY = { CHAIN_MCP_MAX_SPEND_PER_DAY: String(LIMIT) };
  const SEED_FEE = 1_000_000n;
  const X_FEE = 1_000_000n;

  /** A C->X or X->C transfer of 0.5 CAM under the daily limit on a SQLite file; what its ledger counted, then the rows deleted. */
  async function transferThenWipe(args: Record<string, unknown>): Promise<{ store: StateStore; counted: bigint }> {
    const store = await SqliteStore.open(join(dir, `state-c-${Date.now()}.db`));
    const h = await harness(DAILY, store);
    const p = await h.call('transfer', args);
    expect(p.isError, p.text).toBe(false);
    const done = await h.call('transfer', { ...args, confirm: p.structured!.confirmationId });
    expect(done.isError, done.text).toBe(false);
    const counted = await h.services.ledger.spent();
    expect(counted).toBeGreaterThan(X_FEE);
    (store as unknown as { db: { exec(sql: string): void } }).db.exec('DELETE FROM chain_mcp_ledger');
    expect(await h.services.ledger.spent()).toBe(0n);
    return { store, counted };
  }

  it("C->X, the rows deleted: the export's EVM input (the C fee) still counts, so a send 1 nCAM over the limit is refused", async () => {
    const { store, counted } = await transferThenWipe({ to: devnet.localKey.x, amount: '0.5 CAM', sourceChain: 'C' });
    try {
      // The indexer's record of the export, as Magellan writes it: the EVM input with the key's 0x address.
      const res = await fetch(`${devnet.indexer!.url}/v2/transactions?address=${devnet.localKey.x.slice(2)}&limit=1000`);
      const exported = ((await res.json()) as { transactions: Array<Record<string, unknown>> }).transactions.find((t) => t.type === 'atomic_export_tx')!;
      const input = (exported.inputs as Array<{ output: Record<string, unknown> }>)[0]!.output;
      expect(input.addresses).toBeNull();
      expect((input.caddresses as string[]).map((a) => a.toLowerCase())).toEqual([devnet.localKey.c.toLowerCase()]);
      expect(input.caddresses).not.toEqual([devnet.localKey.c.toLowerCase()]);
      // Exactly 1 nCAM over the limit with the C fee counted; within it without.
      const amount = LIMIT - SEED_FEE - counted - X_FEE + 1n;
      const again = await harness(DAILY, store);
      const before = issued();
      const r = await again.call('xvm_send', { amount: String(amount), assetID: 'CAM', to: alice().x });
      expect(r.isError, r.text).toBe(true);
      expect(r.text).toContain('CHAIN_MCP_MAX_SPEND_PER_DAY');
      expect(issued()).toBe(before);
      // One nCAM less fits: the chain's count is exact, not padded.
      const fits = await again.call('xvm_send', { amount: String(amount - 1n), assetID: 'CAM', to: alice().x });
      expect(fits.isError, fits.text).toBe(false);
    } finally {
      for (const h of open.splice(0)) await h.close();
      await store.close().catch(() => undefined);
    }
  });

  it("X->C to the key's own 0x, the rows deleted: the import's 0x credit is the key's, only the fees count, a send up to the limit goes", async () => {
    const { store, counted } = await transferThenWipe({ to: `C-${devnet.localKey.x.slice(2)}`, amount: '0.5 CAM' });
    try {
      const again = await harness(DAILY, store);
      const r = await again.call('xvm_send', { amount: String(LIMIT - SEED_FEE - counted - X_FEE), assetID: 'CAM', to: alice().x });
      expect(r.isError, r.text).toBe(false);
      expect(r.structured!.status).toBe('preview');
    } finally {
      for (const h of open.splice(0)) await h.close();
      await store.close().catch(() => undefined);
    }
  });

  it("cx_export to another's X address is refused under a daily limit, naming `to`; without one it is previewed", async () => {
    const args = { to: alice().x, amount: '0.5 CAM', assetID: 'CAM' };
    const limited = await harness(DAILY);
    const r = await limited.call('cx_export', args);
    expect(r.isError).toBe(true);
    expect(r.text.split('\n')[0]).toContain("to: under CHAIN_MCP_MAX_SPEND_PER_DAY an export from C goes to the key's own X or P address");
    const free = await harness();
    const p = await free.call('cx_export', args);
    expect(p.isError, p.text).toBe(false);
  });
});
