import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ClientCapabilities } from '@modelcontextprotocol/client';
import { ApprovalBook, MAX_PENDING_PER_OWNER } from '../../src/approval/book.js';
import { CARD_META_KEY, CARD_TOOL } from '../../src/approval/card.js';
import { signedTxHex } from '../../src/codec/tx/index.js';
import { ConfirmationBook } from '../../src/confirm.js';
import { type Devnet, startDevnet } from '../../src/devnet/index.js';
import { signBuilt } from '../../src/local/spends.js';
import { signerFromPrivateKey } from '../../src/signer/keys.js';
import { writeKeyFile } from '../../src/signer/keyfile.js';
import { MemoryStore } from '../../src/state/memory.js';
import { PostgresStore } from '../../src/state/postgres.js';
import { Sealer } from '../../src/state/seal.js';
import { SqliteStore } from '../../src/state/sqlite.js';
import { LOCAL_OWNER, type StateStore } from '../../src/state/store.js';
import { startPostgres, type TestPostgres } from '../../tools/postgres.js';
import { requestsFor, type SpendHarness, spendHarness } from '../helpers/spend-harness.js';

/**
 * Issue 40, "writing the state store is approving": the state store is not trusted (DESIGN
 * section 9). Whoever can write it (a shell of the same OS user beside the model, any role that
 * can write the PostgreSQL tables) edits approvals and kept previews here, on each backend, with
 * a connection of its own; nothing they write is the human's approval, and nothing is sent.
 */

const PASSPHRASE = 'correct horse battery staple 40';
/** The replicas' shared key in the PostgreSQL case (from its file); a value anyone could read in the single-process cases. */
const KNOWN_KEY = 'cd'.repeat(32);
const ISSUES = ['avm.issueTx', 'platform.issueTx', 'avax.issueTx', 'eth_sendRawTransaction'];

let devnet: Devnet;
let dir: string;
let postgres: TestPostgres | undefined;
let postgresError: Error | undefined;
const open: SpendHarness[] = [];
const stores: StateStore[] = [];
const track = <T extends StateStore>(s: T): T => {
  stores.push(s);
  return s;
};

interface Backend {
  name: 'memory' | 'sqlite' | 'postgres';
  /** The server's store, and the writer's own connection to the same state. */
  pair(): Promise<{ server: StateStore; writer: StateStore }>;
}

const backends: Backend[] = [
  {
    name: 'memory',
    pair: async () => {
      const s = new MemoryStore();
      return { server: s, writer: s };
    },
  },
  {
    name: 'sqlite',
    pair: async () => {
      const file = join(dir, `${randomBytes(6).toString('hex')}.db`);
      return { server: track(await SqliteStore.open(file)), writer: track(await SqliteStore.open(file)) };
    },
  },
  {
    name: 'postgres',
    pair: async () => {
      if (!postgres) throw postgresError ?? new Error('PostgreSQL did not start');
      const url = await postgres.createDatabase(`tamper_${randomBytes(4).toString('hex')}`);
      return { server: track(await PostgresStore.open(url, undefined, 4)), writer: track(await PostgresStore.open(url, undefined, 2)) };
    },
  },
];

const issued = () => Object.fromEntries(ISSUES.map((m) => [m, requestsFor(devnet, m)]));
const alice = () => devnet.state.users.get('alice')!.keys[0]!;
const bob = () => devnet.state.users.get('bob')?.keys[0] ?? devnet.state.users.get('alice')!.keys[1]!;

async function harness(state: StateStore, env: Record<string, string> = {}, capabilities?: ClientCapabilities): Promise<SpendHarness> {
  const h = await spendHarness(devnet, {
    ...(capabilities ? { capabilities } : {}),
    env: {
      CHAIN_MCP_APPROVAL: 'human',
      // The page link without a passkey: the human's channel here is the page (the test plays the human through the book).
      CHAIN_MCP_APPROVAL_LINK: 'plain',
      CHAIN_MCP_SIGNER: 'local',
      CHAIN_MCP_KEY_FILE: join(dir, 'key.json'),
      CHAIN_MCP_KEY_PASSPHRASE_FILE: join(dir, 'passphrase'),
      CHAIN_MCP_STATE_KEY: KNOWN_KEY,
      ...env,
    },
    state,
  });
  open.push(h);
  return h;
}

async function preview(h: SpendHarness, tool: string, args: Record<string, unknown>) {
  const p = await h.call(tool, args);
  expect(p.isError, p.text).toBe(false);
  const id = String(p.structured!.confirmationId);
  return { id, nonce: id.split('.')[0]!, url: String(p.structured!.approvalUrl), structured: p.structured! };
}

/** The human approves on their channel (what the page does after its checks). */
async function humanApproves(h: SpendHarness, nonce: string): Promise<void> {
  const a = await h.services.approvals.get(nonce);
  expect(a).toBeDefined();
  expect(await h.services.approvals.decide(a!, 'approved', 'page')).toBe(true);
}

function expectTampered(h: SpendHarness, r: { isError: boolean; text: string }): void {
  expect(r.isError).toBe(true);
  expect(r.text).toMatch(/^Refused: the (approval|transaction) kept for this preview was altered in the state store/);
  expect(h.logs.some((l) => l.includes('"audit":"tampered"'))).toBe(true);
  expect(h.logs.some((l) => l.includes('approved by the human'))).toBe(false);
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'chain-mcp-tamper-'));
  [devnet, postgres] = await Promise.all([
    startDevnet({ dialect: 'camino' }),
    startPostgres().catch((err: Error) => {
      postgresError = err;
      return undefined;
    }),
  ]);
  devnet.router.record = true;
  await writeKeyFile(join(dir, 'key.json'), devnet.localKey.privateKey, PASSPHRASE, { N: 2 ** 12, r: 8, p: 1 });
  writeFileSync(join(dir, 'passphrase'), `${PASSPHRASE}\n`, { mode: 0o600 });
}, 120_000);
afterEach(async () => {
  for (const h of open.splice(0)) await h.close();
  for (const s of stores.splice(0)) await s.close().catch(() => undefined);
});
afterAll(async () => {
  await Promise.all([devnet?.close(), postgres?.stop()]);
  rmSync(dir, { recursive: true, force: true });
}, 60_000);

it('runs against a real PostgreSQL', () => {
  if (postgresError) throw postgresError;
  expect(postgres?.url).toMatch(/^postgres:\/\//);
});

describe.each(backends)('the $name state store, written by someone else', (backend) => {
  it('a pending approval set to approved in the store is refused at confirm: nothing sent, the audit says tampered', async () => {
    const { server, writer } = await backend.pair();
    const h = await harness(server);
    const args = { amount: '1 CAM', assetID: 'CAM', to: alice().x };
    const p = await preview(h, 'xvm_send', args);
    expect(await writer.decideApproval(p.nonce, 'approved', 'page', h.clock.now)).toBe(true);
    const before = issued();
    const r = await h.call('xvm_send', { ...args, confirm: p.id });
    expectTampered(h, r);
    expect(issued()).toEqual(before);
    // Dead: the id is used up and the approval gone.
    expect((await h.call('xvm_send', { ...args, confirm: p.id })).isError).toBe(true);
    expect(await writer.getApproval(p.nonce)).toBeUndefined();
    expect(issued()).toEqual(before);
  });

  it('rewritten lines are never shown to the human nor approvable, and refused at confirm', async () => {
    const { server, writer } = await backend.pair();
    const h = await harness(server);
    const args = { amount: '1 CAM', assetID: 'CAM', to: alice().x };
    const p = await preview(h, 'xvm_send', args);
    const a = (await writer.getApproval(p.nonce))!;
    await writer.deleteApproval(p.nonce);
    const forged = { ...a, lines: ['Amount: 0.001 CAM to your own address'] };
    expect(await writer.putApproval(forged, h.clock.now, 1_000)).toBe(true);
    // The human's page shows nothing of it, and nothing can decide it.
    const page = await fetch(p.url);
    expect(page.status).toBe(404);
    expect(await page.text()).not.toContain('0.001 CAM');
    expect(await h.services.approvals.decide(forged, 'approved', 'page')).toBe(false);
    // A writer that also approves it gets no further.
    await writer.decideApproval(p.nonce, 'approved', 'page', h.clock.now);
    const before = issued();
    expectTampered(h, await h.call('xvm_send', { ...args, confirm: p.id }));
    expect(issued()).toEqual(before);
  });

  it("a decision copied from another approval the human did approve is refused; that one's own still goes, once", async () => {
    const { server, writer } = await backend.pair();
    const h = await harness(server);
    const small = { amount: '1 CAM', assetID: 'CAM', to: alice().x };
    const large = { amount: '3 CAM', assetID: 'CAM', to: bob().x };
    const approved = await preview(h, 'xvm_send', small);
    const other = await preview(h, 'xvm_send', large);
    await humanApproves(h, approved.nonce);
    const decided = (await writer.getApproval(approved.nonce))!;
    expect(decided.decisionSeal).toEqual(expect.any(String));
    const target = (await writer.getApproval(other.nonce))!;
    await writer.deleteApproval(other.nonce);
    await writer.putApproval({ ...target, state: 'approved', decidedBy: decided.decidedBy!, decisionSeal: decided.decisionSeal! }, h.clock.now, 1_000);
    const before = issued();
    expectTampered(h, await h.call('xvm_send', { ...large, confirm: other.id }));
    expect(issued()).toEqual(before);
    const real = await h.call('xvm_send', { ...small, confirm: approved.id });
    expect(real.isError, real.text).toBe(false);
    expect(real.structured?.status).toBe('issued');
    expect(issued()['avm.issueTx']).toBe(before['avm.issueTx']! + 1);
  });

  it("a kept preview's bytes swapped for another's, or its total or lines edited, is refused though the human approved: nothing signed", async () => {
    const { server, writer } = await backend.pair();
    const h = await harness(server);
    const small = { amount: '1 CAM', assetID: 'CAM', to: alice().x };
    const large = { amount: '3 CAM', assetID: 'CAM', to: bob().x };
    const a = await preview(h, 'xvm_send', small);
    const b = await preview(h, 'xvm_send', large);
    const c = await preview(h, 'xvm_send', small);
    const sealedA = JSON.parse((await writer.getPreview(a.nonce, h.clock.now))!) as { record: string; seal: string };
    const sealedB = JSON.parse((await writer.getPreview(b.nonce, h.clock.now))!) as { record: string; seal: string };
    const sealedC = JSON.parse((await writer.getPreview(c.nonce, h.clock.now))!) as { record: string; seal: string };
    const rewrite = async (nonce: string, record: string, seal: string) => {
      await writer.takePreview(nonce);
      expect(await writer.putPreview(nonce, JSON.stringify({ record, seal }), h.clock.now + 60_000, h.clock.now, 1_000)).toBe(true);
    };
    // A's id and seal over B's bytes (B's record whole, hashes included).
    await rewrite(a.nonce, sealedB.record, sealedA.seal);
    // C's total (what the daily total counts) set to 0 and its lines rewritten.
    const editedC = JSON.parse(sealedC.record) as { total: string; lines: string[] };
    await rewrite(c.nonce, JSON.stringify({ ...editedC, total: '0', lines: ['Amount: 0.001 CAM to your own address'] }), sealedC.seal);
    for (const nonce of [a.nonce, c.nonce]) await humanApproves(h, nonce);
    const before = issued();
    expectTampered(h, await h.call('xvm_send', { ...small, confirm: a.id }));
    expectTampered(h, await h.call('xvm_send', { ...small, confirm: c.id }));
    expect(issued()).toEqual(before);
    expect(await h.services.ledger.spent()).toBe(0n);
  });

  it('a transfer preview keeps no signed bytes: what the store holds cannot be issued; the export is signed at confirm with the ID the preview named', async () => {
    const { server, writer } = await backend.pair();
    const h = await harness(server);
    const args = { to: `C-${devnet.localKey.x.slice(2)}`, amount: '1 CAM' };
    const p = await preview(h, 'transfer', args);
    const raw = (await writer.getPreview(p.nonce, h.clock.now))!;
    const kept = JSON.parse((JSON.parse(raw) as { record: string }).record) as { steps: Array<{ chain: 'X'; bytes: string; sigIndices: number[][]; expectId?: string }> };
    expect(kept.steps).toHaveLength(2);
    // The export as the key signs it: its credentials appear nowhere in what the store holds.
    const key = signerFromPrivateKey(devnet.localKey.privateKey);
    const exportBytes = Uint8Array.from(Buffer.from(kept.steps[0]!.bytes, 'hex'));
    const signedExport = Buffer.from(signBuilt({ chain: 'X', bytes: exportBytes, sigIndices: kept.steps[0]!.sigIndices }, key)).toString('hex');
    const credentials = signedExport.slice(kept.steps[0]!.bytes.length);
    expect(credentials.length).toBeGreaterThan(130);
    expect(raw).not.toContain(credentials);
    expect(raw).not.toContain('"signed"');
    expect(kept.steps[0]!.expectId).toBe((p.structured.details as { exportTxID: string }).exportTxID);
    // Read access alone: each kept transaction handed to the node as it is, refused, nothing moves.
    const before = issued();
    const utxos = devnet.state.utxos.size;
    for (const [step, path, method] of [
      [kept.steps[0]!, '/ext/bc/X', 'avm.issueTx'],
      [kept.steps[1]!, '/ext/bc/C/avax', 'avax.issueTx'],
    ] as const) {
      const r = await fetch(`${devnet.nodeUrl}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: { tx: signedTxHex(Uint8Array.from(Buffer.from(step.bytes, 'hex'))), encoding: 'hex' } }),
      });
      expect(((await r.json()) as { error?: unknown }).error).toBeDefined();
    }
    expect(devnet.state.utxos.size).toBe(utxos);
    // Approved and confirmed: signed now, with the very ID the import names.
    await humanApproves(h, p.nonce);
    const done = await h.call('transfer', { ...args, confirm: p.id });
    expect(done.isError, done.text).toBe(false);
    const result = done.structured!.result as { steps: Array<{ txID?: string }> };
    expect(result.steps[0]!.txID).toBe((p.structured.details as { exportTxID: string }).exportTxID);
    expect(issued()['avm.issueTx']).toBe(before['avm.issueTx']! + 2);
  });

  it(`a full book for one OAuth owner (${MAX_PENDING_PER_OWNER}) does not refuse another's preview`, async () => {
    const { server } = await backend.pair();
    const now = 1_900_000_000_000;
    const book = new ApprovalBook(() => now, server);
    const facts = { tool: 'xvm_send', title: 'Send', lines: ['Amount: 1 CAM'] };
    for (let i = 0; i < MAX_PENDING_PER_OWNER; i++) await book.open(`a-${i}`, facts, now + 300_000, 'user-a');
    await expect(book.open('a-more', facts, now + 300_000, 'user-a')).rejects.toThrow(`${MAX_PENDING_PER_OWNER} of your previews are already waiting`);
    await book.ensureRoom('user-b');
    const theirs = await book.open('b-0', facts, now + 300_000, 'user-b');
    expect(await book.get('b-0')).toEqual(theirs);
    expect(await server.liveApprovals(now, 'user-a')).toBe(MAX_PENDING_PER_OWNER);
    expect(await server.liveApprovals(now, 'user-b')).toBe(1);
  });
});

describe.each(backends)('the approval card on the $name store', (backend) => {
  it('a card secret decides once: a replayed or unknown secret is refused as no longer valid, and decides nothing', async () => {
    const { server } = await backend.pair();
    const h = await harness(server, {}, { extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] } } } as ClientCapabilities);
    const args = { amount: '1 CAM', assetID: 'CAM', to: alice().x };
    const p = await h.call('xvm_send', args);
    expect(p.isError, p.text).toBe(false);
    const secret = String((p.meta?.[CARD_META_KEY] as { secret?: string } | undefined)?.secret);
    expect(secret).toMatch(/^[A-Za-z0-9_-]{32}$/);
    const nonce = String(p.structured!.confirmationId).split('.')[0]!;
    // A secret the store never held (its lookup finds no approval): refused, not an internal error.
    const unknown = await h.call(CARD_TOOL, { secret: 'A'.repeat(32), decision: 'approve' });
    expect([unknown.isError, unknown.text]).toEqual([true, 'This approval card is no longer valid (used, or the server restarted); nothing was decided.']);
    expect((await server.getApproval(nonce))?.state).toBe('pending');
    const declined = await h.call(CARD_TOOL, { secret, decision: 'decline' });
    expect([declined.isError, declined.text]).toEqual([false, 'Declined; nothing will be sent.']);
    const replay = await h.call(CARD_TOOL, { secret, decision: 'approve' });
    expect([replay.isError, replay.text]).toEqual([true, 'This approval card is no longer valid (used, or the server restarted); nothing was decided.']);
    expect((await server.getApproval(nonce))?.state).toBe('declined');
  });
});

describe.each(backends.filter((b) => b.name !== 'postgres'))('a single process on the $name store, with CHAIN_MCP_STATE_KEY readable in its environment', (backend) => {
  it('ignores the key: an id, a kept preview and an approval forged with it are refused, nothing sent', async () => {
    const { server, writer } = await backend.pair();
    const h = await harness(server);
    // What the writer knows: the key (from /proc/<pid>/environ), the code, and what a preview binds.
    let bound: unknown;
    const issue = h.services.confirmations.issue.bind(h.services.confirmations);
    h.services.confirmations.issue = (tool, args, now, owner) => {
      bound = args;
      return issue(tool, args, now, owner);
    };
    const args = { amount: '2 CAM', assetID: 'CAM', to: bob().x };
    const legit = await preview(h, 'xvm_send', args);
    const sealed = JSON.parse((await writer.getPreview(legit.nonce, h.clock.now))!) as { record: string };
    const key = Buffer.from(KNOWN_KEY, 'hex');
    const { id, expiresAt } = await new ConfirmationBook(writer, KNOWN_KEY).issue('xvm_send', bound, h.clock.now, LOCAL_OWNER);
    const nonce = id.split('.')[0]!;
    await writer.putPreview(nonce, JSON.stringify({ record: sealed.record, seal: new Sealer(key, 'local preview').seal(nonce, sealed.record) }), expiresAt, h.clock.now, 1_000);
    const forger = new ApprovalBook(() => h.clock.now, writer, key);
    const approval = await forger.open(nonce, { tool: 'xvm_send', title: 'Send', lines: ['Amount: 0.001 CAM to your own address'] }, expiresAt);
    expect(await forger.decide(approval, 'approved', 'page')).toBe(true);
    const before = issued();
    const r = await h.call('xvm_send', { ...args, confirm: id });
    expect(r.isError).toBe(true);
    expect(r.text).toMatch(/^(Confirmation refused|Refused: the transaction kept for this preview was altered)/);
    expect(issued()).toEqual(before);
    expect(h.logs.some((l) => l.includes('CHAIN_MCP_STATE_KEY is not used with a'))).toBe(true);
  });
});

describe('replicas on one PostgreSQL share the key', () => {
  it('a local preview made on one replica is confirmed on another, once; a third with another key cannot', async () => {
    if (!postgres) throw postgresError ?? new Error('PostgreSQL did not start');
    const url = await postgres.createDatabase(`tamper_shared_${randomBytes(4).toString('hex')}`);
    const one = await harness(track(await PostgresStore.open(url, undefined, 4)), { CHAIN_MCP_APPROVAL: 'confirm-id' });
    const two = await harness(track(await PostgresStore.open(url, undefined, 4)), { CHAIN_MCP_APPROVAL: 'confirm-id' });
    const stranger = await harness(track(await PostgresStore.open(url, undefined, 4)), { CHAIN_MCP_APPROVAL: 'confirm-id', CHAIN_MCP_STATE_KEY: 'ef'.repeat(32) });
    const args = { amount: '1 CAM', assetID: 'CAM', to: alice().x };
    const p = await preview(one, 'xvm_send', args);
    const before = issued();
    const refused = await stranger.call('xvm_send', { ...args, confirm: p.id });
    expect(refused.isError).toBe(true);
    const done = await two.call('xvm_send', { ...args, confirm: p.id });
    expect(done.isError, done.text).toBe(false);
    expect((await one.call('xvm_send', { ...args, confirm: p.id })).isError).toBe(true);
    expect(issued()['avm.issueTx']).toBe(before['avm.issueTx']! + 1);
  });
});

describe('the idle lock', () => {
  it('is restarted by a confirmed spend only, never by a preview (a transfer signs its export at preview)', async () => {
    const h = await harness(new MemoryStore(), { CHAIN_MCP_APPROVAL: 'confirm-id' });
    const signer = h.services.signer!;
    let uses = 0;
    const use = signer.confirmedUse.bind(signer);
    signer.confirmedUse = () => {
      uses++;
      use();
    };
    const args = { to: `C-${devnet.localKey.x.slice(2)}`, amount: '1 CAM' };
    const p = await preview(h, 'transfer', args);
    await preview(h, 'xvm_send', { amount: '1 CAM', assetID: 'CAM', to: alice().x });
    expect(uses).toBe(0);
    const done = await h.call('transfer', { ...args, confirm: p.id });
    expect(done.isError, done.text).toBe(false);
    expect(uses).toBe(1);
  });
});
