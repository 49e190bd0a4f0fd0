import { rmSync, } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { formatChainAddress, parseChainAddress } from '../../src/codec/index.js';
import { type Devnet, startDevnet } from '../../src/devnet/index.js';
import { issueTx } from '../../src/devnet/node/issue.js';
import { HttpFault, type Params, RpcFault } from '../../src/devnet/rpc.js';
import type { LocalRecord } from '../../src/local/records.js';
import { requestsFor, type SpendCall, type SpendHarness, spendHarness } from '../helpers/spend-harness.js';
import { ISSUE_METHODS, localKeyFolder, localSignerEnv } from '../helpers/local-key.js';

/**
 * The local spend path from preview to issue, where issue 44's hand-written mutants survived: the
 * confirmation id binds the bytes' hashes, an issue whose outcome is unknown keeps its reservation
 * and is never offered again, a transfer's import waits for its export to be accepted, a base fee
 * below the node's is raised to it, and the requester's memo stays after the server's own lines.
 * Each test drives the MCP protocol against the simulator (a Camino node without a keystore).
 */

const CAM = 1_000_000_000n;
const PASSPHRASE = 'correct horse battery staple 44';
let dir: string;
let devnet: Devnet;
const open: Array<{ close(): Promise<void> }> = [];

async function harness(env: Record<string, string> = {}, more: Omit<NonNullable<Parameters<typeof spendHarness>[1]>, 'env'> = {}): Promise<SpendHarness> {
  const h = await spendHarness(devnet, {
    ...more,
    env: { ...localSignerEnv(dir), ...env },
  });
  open.push(h);
  return h;
}

const issued = () => ISSUE_METHODS.reduce((n, m) => n + requestsFor(devnet, m), 0);
const alice = () => devnet.state.users.get('alice')!.keys[0]!;
const bob = () => devnet.state.users.get('alice')!.keys[1]!;
const nonceOf = (p: SpendCall) => String(p.structured!.confirmationId).split('.')[0]!;

async function preview(h: SpendHarness, tool: string, args: Record<string, unknown>): Promise<SpendCall> {
  const p = await h.call(tool, args);
  expect(p.isError, p.text).toBe(false);
  expect(p.structured?.status).toBe('preview');
  return p;
}

async function kept(h: SpendHarness, p: SpendCall): Promise<LocalRecord> {
  const record = await h.services.localRecords.get(nonceOf(p));
  if (!record || record === 'tampered') throw new Error('no kept record');
  return record;
}

/** Methods of the node's requests in the order it received them (the camino dialect's wire names). */
const methodsSeen = () => devnet.router.requests.map((r) => (r.body as { method?: string }).method ?? '');

beforeAll(async () => {
  dir = await localKeyFolder('chain-mcp-local-issue-', PASSPHRASE);
});
// A fresh node for each test: several replace one of its handlers.
beforeEach(async () => {
  devnet = await startDevnet({ dialect: 'camino' });
  devnet.router.record = true;
  open.push(devnet);
});
afterEach(async () => {
  for (const o of open.splice(0).reverse()) await o.close();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("the confirmation id binds the bytes' hashes, not only the arguments", () => {
  it("another preview's record kept under this id (as this server keeps it) is refused at confirm: nothing signed or sent", async () => {
    const h = await harness();
    const args = { amount: '1 CAM', assetID: 'CAM', to: alice().x };
    const a = await preview(h, 'xvm_send', args);
    // Same tool, other bytes: 3 CAM to bob. Its record is whole (its bytes hash to its own hashes).
    const b = await preview(h, 'xvm_send', { amount: '3 CAM', assetID: 'CAM', to: bob().x });
    const other = await kept(h, b);
    expect(other.hashes).not.toEqual((await kept(h, a)).hashes);
    await h.services.localRecords.take(nonceOf(a));
    await h.services.localRecords.put(nonceOf(a), other);
    const before = issued();
    const r = await h.call('xvm_send', { ...args, confirm: a.structured!.confirmationId });
    expect(r.isError, r.text).toBe(true);
    expect(r.text.split('\n')[0]).toContain('does not match this tool and these exact arguments');
    expect(issued()).toBe(before);
    expect(await h.services.ledger.spent()).toBe(0n);
  });
});

describe('an issue whose outcome is unknown is never offered again', () => {
  /** The node applies the transaction it is sent, then answers `answer` instead of its txID. */
  function garbledX(answer: unknown): void {
    devnet.router.on('/ext/bc/X', 'xvm.issueTx', (p: Params) => {
      issueTx(devnet.state, p, 'X');
      return answer;
    });
  }

  async function sendOnce(h: SpendHarness) {
    const args = { amount: '1 CAM', assetID: 'CAM', to: alice().x };
    const p = await preview(h, 'xvm_send', args);
    const leaving = BigInt((p.structured!.details as { leaving: string }).leaving);
    const txs = devnet.state.txs.size;
    const before = requestsFor(devnet, 'avm.issueTx');
    const done = await h.call('xvm_send', { ...args, confirm: p.structured!.confirmationId });
    expect(requestsFor(devnet, 'avm.issueTx')).toBe(before + 1);
    return { done, leaving, applied: [...devnet.state.txs.keys()].slice(txs) };
  }

  for (const [name, answer] of [
    ['an answer without a txID', {}],
    ['a txID that is not a string', { txID: 7 }],
    ['an empty txID', { txID: '' }],
    ['a null result', null],
  ] as const) {
    it(`${name}: sent once, outcome unknown, its txID named, the reservation kept`, async () => {
      garbledX(answer);
      const h = await harness();
      const { done, leaving, applied } = await sendOnce(h);
      expect(applied).toHaveLength(1);
      expect(done.isError).toBe(true);
      expect(done.text.split('\n')[0]).toBe(
        `The outcome of xvm_send is unknown: The node answered xvm.issueTx without a txID. It was sent once and will not be retried (its txID would be ${applied[0]}).`,
      );
      expect(done.text).toContain('Do not send it again blindly.');
      // What went out stays counted: a second spend cannot use its room.
      expect(await h.services.ledger.spent()).toBe(leaving);
      expect(h.logs.some((l) => l.includes('"audit":"unknown_outcome"'))).toBe(true);
    });
  }

  for (const status of [500, 502]) {
    it(`an HTTP ${status} to the issue: outcome unknown, the reservation kept`, async () => {
      const h = await harness();
      devnet.router.authorize = (path) => {
        if (path === '/ext/bc/X' && devnet.router.requests.at(-1)?.body && (devnet.router.requests.at(-1)!.body as { method?: string }).method === 'avm.issueTx') {
          throw new HttpFault(status, 'upstream gone');
        }
      };
      const { done, leaving } = await sendOnce(h);
      expect(done.isError).toBe(true);
      expect(done.text.split('\n')[0]).toMatch(/^The outcome of xvm_send is unknown: .* It was sent once and will not be retried \(its txID would be \S+\)\.$/);
      expect(await h.services.ledger.spent()).toBe(leaving);
    });
  }

  describe('an EVM send (transfer from C to a 0x address)', () => {
    const send = async (h: SpendHarness) => {
      const args = { to: alice().c, amount: '0.5 CAM', sourceChain: 'C' };
      const p = await preview(h, 'transfer', args);
      const leaving = BigInt((p.structured!.details as { leaving: string }).leaving);
      const done = await h.call('transfer', { ...args, confirm: p.structured!.confirmationId });
      return { done, leaving };
    };

    for (const [name, answer] of [
      ['an empty hash', ''],
      ['no hash at all', null],
    ] as const) {
      it(`${name}: outcome unknown, sent once, the reservation kept`, async () => {
        for (const path of ['/ext/bc/C/rpc', `/ext/bc/${devnet.state.chains.C}/rpc`]) devnet.router.on(path, 'eth_sendRawTransaction', () => answer);
        const h = await harness();
        const { done, leaving } = await send(h);
        expect(done.isError).toBe(true);
        expect(done.text.split('\n')[0]).toMatch(/^The outcome of transfer is unknown: The node answered eth_sendRawTransaction without a transaction hash\. It was sent once and will not be retried \(its txID would be 0x[0-9a-f]{64}\)\.$/);
        expect(requestsFor(devnet, 'eth_sendRawTransaction')).toBe(1);
        expect(await h.services.ledger.spent()).toBe(leaving);
      });
    }

    it('an HTTP 503 to the send is not retried: one request, outcome unknown', async () => {
      devnet.router.authorize = () => {
        if ((devnet.router.requests.at(-1)?.body as { method?: string } | undefined)?.method === 'eth_sendRawTransaction') throw new HttpFault(503, 'busy');
      };
      const h = await harness();
      const { done, leaving } = await send(h);
      expect(done.isError).toBe(true);
      expect(done.text.split('\n')[0]).toMatch(/^The outcome of transfer is unknown: /);
      expect(requestsFor(devnet, 'eth_sendRawTransaction')).toBe(1);
      expect(await h.services.ledger.spent()).toBe(leaving);
    });
  });

  it('an HTTP 503 to an X issue is not retried either', async () => {
    devnet.router.authorize = () => {
      if ((devnet.router.requests.at(-1)?.body as { method?: string } | undefined)?.method === 'avm.issueTx') throw new HttpFault(503, 'busy');
    };
    const h = await harness();
    const { done } = await sendOnce(h);
    expect(done.text.split('\n')[0]).toMatch(/^The outcome of xvm_send is unknown: /);
  });

  it('an HTTP 403 to the issue (refused before the node read it) is a certain failure: the reservation released', async () => {
    devnet.router.authorize = () => {
      if ((devnet.router.requests.at(-1)?.body as { method?: string } | undefined)?.method === 'avm.issueTx') throw new HttpFault(403, 'forbidden');
    };
    const h = await harness();
    const { done } = await sendOnce(h);
    expect(done.isError).toBe(true);
    expect(done.text).not.toContain('unknown');
    expect(await h.services.ledger.spent()).toBe(0n);
  });

  it('a refusal by the node is a certain failure: its message, the reservation released', async () => {
    devnet.router.on('/ext/bc/X', 'xvm.issueTx', () => {
      throw new RpcFault('failed to verify transaction: insufficient funds');
    });
    const h = await harness();
    const { done } = await sendOnce(h);
    expect(done.isError).toBe(true);
    expect(done.text).toContain('insufficient funds');
    expect(done.text).not.toContain('unknown');
    expect(await h.services.ledger.spent()).toBe(0n);
    expect(h.logs.some((l) => l.includes('"audit":"failed"'))).toBe(true);
  });

  it("a transfer whose import gets a garbled answer: step 1's txID, step 2 unknown, not retried; a refused import says it failed", async () => {
    const to = `C-${devnet.localKey.x.slice(2)}`;
    let importID = '';
    devnet.router.on('/ext/bc/C/cx', 'cx.issueTx', (p: Params) => {
      importID = issueTx(devnet.state, p, 'C').txID;
      return { result: 'sent' };
    });
    const h = await harness();
    const p = await preview(h, 'transfer', { to, amount: '1 CAM' });
    const exportID = (p.structured!.details as { exportTxID: string }).exportTxID;
    const done = await h.call('transfer', { to, amount: '1 CAM', confirm: p.structured!.confirmationId });
    expect(done.isError, done.text).toBe(false);
    expect(done.structured?.status).toBe('issued');
    // The import's ID is the one its signed bytes have: the simulator took them.
    expect(importID).not.toBe('');
    const check = `Check step 2 first (tx_status ${importID}); if it did not go through, the exported funds wait on the destination chain: import them with their export's txID ${exportID}.`;
    expect(done.text.split('\n')[0]).toBe(
      `Step 1 was issued once (txID ${exportID}); step 2 (txID ${importID}) has an unknown outcome: The node answered cx.issueTx without a txID. It is not retried. ${check}`,
    );
    // The structured result says the same as the text: step 2 unknown, with its txID; not complete.
    expect((done.structured!.result as Record<string, unknown>)).toEqual({
      route: 'X->C',
      complete: false,
      txID: exportID,
      steps: [
        { step: 1, action: 'export', chain: 'X', status: 'issued', txID: exportID },
        { step: 2, action: 'import', chain: 'C', status: 'unknown', txID: importID, error: 'The node answered cx.issueTx without a txID' },
      ],
      next: check,
    });
    expect(requestsFor(devnet, 'avax.issueTx')).toBe(1);

    devnet.router.on('/ext/bc/C/cx', 'cx.issueTx', () => {
      throw new RpcFault('import refused');
    });
    const q = await preview(h, 'transfer', { to, amount: '1 CAM' });
    const second = (q.structured!.details as { exportTxID: string }).exportTxID;
    const failed = await h.call('transfer', { to, amount: '1 CAM', confirm: q.structured!.confirmationId });
    const later = `The exported funds wait on the destination chain: import them with their export's txID ${second}.`;
    expect(failed.text.split('\n')[0]).toBe(`Step 1 was issued once (txID ${second}); step 2 failed: The node refused avax.issueTx: import refused. It is not retried. ${later}`);
    // Failed, as the text says, with the node's reason; no txID: nothing went through.
    expect((failed.structured!.result as { steps: unknown[] }).steps).toEqual([
      { step: 1, action: 'export', chain: 'X', status: 'issued', txID: second },
      { step: 2, action: 'import', chain: 'C', status: 'failed', error: 'The node refused avax.issueTx: import refused' },
    ]);
    expect(failed.structured!.result).toMatchObject({ complete: false, txID: second, next: later });
  });
});

describe("a transfer's import waits for its export", () => {
  const to = () => `C-${devnet.localKey.x.slice(2)}`;

  /** The export's status as the node answers it: `script` for the first polls, then the node's own. */
  function exportStatus(script: string[], onPoll: () => void = () => {}): void {
    devnet.router.on('/ext/bc/X', 'xvm.getTxStatus', (p: Params) => {
      onPoll();
      const next = script.shift();
      if (next !== undefined) return { status: next };
      const tx = devnet.state.txs.get(String(p.txID));
      return { status: tx ? tx.status : 'Unknown' };
    });
  }

  it('is issued only after the export is Accepted, never while it is Processing', async () => {
    exportStatus(['Processing', 'Processing']);
    const h = await harness();
    const p = await preview(h, 'transfer', { to: to(), amount: '1 CAM' });
    const from = devnet.router.requests.length;
    const exportID = (p.structured!.details as { exportTxID: string }).exportTxID;
    const progress: Array<{ progress: number; message?: string }> = [];
    const done = await h.client.callTool(
      { name: 'transfer', arguments: { to: to(), amount: '1 CAM', confirm: p.structured!.confirmationId } },
      { onprogress: (n) => progress.push(n), resetTimeoutOnProgress: true },
    );
    expect(done.isError, JSON.stringify(done.content)).not.toBe(true);
    // Each poll is told to the client: counted up, with the status the node gave.
    expect(progress.map((n) => [n.progress, n.message])).toEqual([
      [1, `export ${exportID}: Processing`],
      [2, `export ${exportID}: Processing`],
      [3, `export ${exportID}: Accepted`],
    ]);
    const seen = methodsSeen().slice(from);
    const polls = seen.flatMap((m, n) => (m === 'avm.getTxStatus' ? [n] : []));
    expect(polls).toHaveLength(3);
    const imported = seen.indexOf('avax.issueTx');
    expect(imported).toBeGreaterThan(polls[2]!);
    expect(seen.filter((m) => m === 'avax.issueTx')).toHaveLength(1);
  });

  it('an export still Processing when the wait ends: the import is not sent, and the answer says to import it later', async () => {
    const h = await harness();
    // Each poll finds exactly the wait's minute gone: the bounded wait ends at its deadline, after its first poll.
    exportStatus(['Processing', 'Processing', 'Processing'], () => {
      h.clock.now += 60_000;
    });
    const p = await preview(h, 'transfer', { to: to(), amount: '1 CAM' });
    const exportID = (p.structured!.details as { exportTxID: string }).exportTxID;
    const done = await h.call('transfer', { to: to(), amount: '1 CAM', confirm: p.structured!.confirmationId });
    expect(done.isError, done.text).toBe(false);
    expect(done.text.split('\n')[0]).toBe(`Step 1 was issued once (txID ${exportID}) but is Processing; step 2 was not sent. Import its outputs later with txID ${exportID}.`);
    // The structured result says the same: not complete, the import not run.
    expect(done.structured).toMatchObject({
      status: 'issued',
      result: {
        complete: false,
        steps: [{ step: 1, status: 'issued', txID: exportID }, { step: 2, status: 'not_run', error: 'not sent: step 1 is Processing' }],
        next: `Import its outputs later with txID ${exportID}.`,
      },
    });
    expect(h.logs.some((l) => l.includes('"audit":"partial"') && l.includes('"status":"Processing"') && l.includes('"step":2'))).toBe(true);
    expect(requestsFor(devnet, 'avax.issueTx')).toBe(0);
    expect(requestsFor(devnet, 'avm.getTxStatus')).toBe(1);
  });

  for (const status of ['Rejected', 'Dropped']) {
    it(`an export ${status}: the import is not sent, and nothing left the source chain`, async () => {
      exportStatus([status]);
      const h = await harness();
      const p = await preview(h, 'transfer', { to: to(), amount: '1 CAM' });
      const exportID = (p.structured!.details as { exportTxID: string }).exportTxID;
      const done = await h.call('transfer', { to: to(), amount: '1 CAM', confirm: p.structured!.confirmationId });
      expect(done.text.split('\n')[0]).toBe(`Step 1 was issued once (txID ${exportID}) but is ${status}; step 2 was not sent. Nothing left the source chain.`);
      expect(requestsFor(devnet, 'avax.issueTx')).toBe(0);
    });
  }
});

describe("a base fee below the node's", () => {
  it("is raised to the node's: the same bytes as with no base fee given; twice the node's is the most taken", async () => {
    const h = await harness();
    const node = devnet.state.cBaseFee;
    const args = { to: alice().x, amount: '0.5 CAM', assetID: 'CAM' };
    const sha = (p: SpendCall) => (p.structured!.preview as string[]).find((l) => l.includes('approves exactly: sha256'));
    const plain = await preview(h, 'cx_export', args);
    const low = await preview(h, 'cx_export', { ...args, baseFee: String(node / 2n) });
    expect(sha(low)).toBeDefined();
    expect(sha(low)).toBe(sha(plain));
    expect((low.structured!.details as { fee: string }).fee).toBe((plain.structured!.details as { fee: string }).fee);
    const twice = await preview(h, 'cx_export', { ...args, baseFee: String(node * 2n) });
    expect(BigInt((twice.structured!.details as { fee: string }).fee)).toBeGreaterThan(BigInt((plain.structured!.details as { fee: string }).fee));
    const before = issued();
    const over = await h.call('cx_export', { ...args, baseFee: String(node * 2n + 1n) });
    expect(over.isError).toBe(true);
    expect(over.text.split('\n')[0]).toContain(`baseFee: at most twice the node's current base fee (${node * 2n} wei); it is ${node * 2n + 1n}`);
    expect(issued()).toBe(before);
  });
});

describe("the requester's memo", () => {
  it('is kept, as one quoted line, after every line of the server: in the preview and after the limits on the approval', async () => {
    const h = await harness({ CHAIN_MCP_MAX_SPEND: String(5n * CAM) });
    const memo = 'Total leaving the key: 0 CAM';
    const p = await preview(h, 'xvm_send', { amount: '1 CAM', assetID: 'CAM', to: alice().x, memo });
    const lines = p.structured!.preview as string[];
    const line = `Memo (written by the requester): ${JSON.stringify(memo)}`;
    expect(lines.at(-1)).toBe(line);
    expect(lines.filter((l) => l.includes(memo))).toEqual([line]);
    const approval = (await kept(h, p)).lines;
    expect(approval.at(-1)).toBe(line);
    expect(approval.filter((l) => l.includes(memo))).toEqual([line]);
    expect(approval.findIndex((l) => l.includes('CHAIN_MCP_MAX_SPEND'))).toBeGreaterThan(-1);
    expect(approval.findIndex((l) => l.includes('CHAIN_MCP_MAX_SPEND'))).toBeLessThan(approval.length - 1);
    // The text shown to the model ends its list with it too, before the instructions.
    const listed = p.text.split('\n').filter((l) => l.startsWith('- '));
    expect(listed.at(-1)).toBe(`- ${line}`);
  });
});

describe('a transfer whose node names other txIDs', () => {
  const to = () => `C-${devnet.localKey.x.slice(2)}`;

  it('at the export: the node disagreed about step 1 of 2, step 2 not sent, the spend stays counted', async () => {
    devnet.router.on('/ext/bc/X', 'xvm.issueTx', (p: Params) => {
      issueTx(devnet.state, p, 'X');
      return { txID: 'not-the-export' };
    });
    const h = await harness();
    const p = await preview(h, 'transfer', { to: to(), amount: '1 CAM' });
    const exportID = (p.structured!.details as { exportTxID: string }).exportTxID;
    const done = await h.call('transfer', { to: to(), amount: '1 CAM', confirm: p.structured!.confirmationId });
    expect(done.isError).toBe(true);
    expect(done.text.split('\n')[0]).toBe(
      `The node disagreed about step 1 of 2: the signed bytes sent once have txID ${exportID}, but the node answered "not-the-export". It is not known whether it was accepted; it will not be sent again. Step 2 was not sent.`,
    );
    expect(done.text).toContain(`Check tx_status {"txID": "${exportID}"}`);
    expect(requestsFor(devnet, 'avax.issueTx')).toBe(0);
    expect(await h.services.ledger.spent()).toBe(BigInt((p.structured!.details as { leaving: string }).leaving));
  });

  it("at the import: step 1's txID, then the node disagreed about step 2 of 2, its own ID to check", async () => {
    let importID = '';
    devnet.router.on('/ext/bc/C/cx', 'cx.issueTx', (p: Params) => {
      importID = issueTx(devnet.state, p, 'C').txID;
      return { txID: `${importID.slice(0, -1)}${importID.endsWith('A') ? 'B' : 'A'}` };
    });
    const h = await harness();
    const p = await preview(h, 'transfer', { to: to(), amount: '1 CAM' });
    const exportID = (p.structured!.details as { exportTxID: string }).exportTxID;
    const done = await h.call('transfer', { to: to(), amount: '1 CAM', confirm: p.structured!.confirmationId });
    expect(done.isError).toBe(true);
    const first = done.text.split('\n')[0]!;
    expect(first.startsWith(`Step 1 was issued once (txID ${exportID}). The node disagreed about step 2 of 2: the signed bytes sent once have txID ${importID}, but the node answered "`)).toBe(true);
    expect(first.endsWith('it will not be sent again.')).toBe(true);
    expect(done.text).toContain(`Check tx_status {"txID": "${importID}"}`);
  });

  it('a txID longer than 100 characters is shown clipped, quoted', async () => {
    const long = 'Z'.repeat(150);
    devnet.router.on('/ext/bc/X', 'xvm.issueTx', (p: Params) => {
      issueTx(devnet.state, p, 'X');
      return { txID: long };
    });
    const h = await harness();
    const args = { amount: '1 CAM', assetID: 'CAM', to: alice().x };
    const p = await preview(h, 'xvm_send', args);
    const done = await h.call('xvm_send', { ...args, confirm: p.structured!.confirmationId });
    expect(done.text).toContain(`but the node answered "${'Z'.repeat(100)}…". It is not known`);
    expect(done.text).not.toContain('Z'.repeat(101));
  });

  it('a txID of exactly 100 characters is shown whole', async () => {
    const hundred = 'Y'.repeat(100);
    devnet.router.on('/ext/bc/X', 'xvm.issueTx', (p: Params) => {
      issueTx(devnet.state, p, 'X');
      return { txID: hundred };
    });
    const h = await harness();
    const args = { amount: '1 CAM', assetID: 'CAM', to: alice().x };
    const p = await preview(h, 'xvm_send', args);
    const done = await h.call('xvm_send', { ...args, confirm: p.structured!.confirmationId });
    expect(done.text).toContain(`but the node answered "${hundred}". It is not known`);
  });

  it("a status read that fails is not the export's outcome: the wait polls again and the import follows", async () => {
    let polls = 0;
    devnet.router.on('/ext/bc/X', 'xvm.getTxStatus', (p: Params) => {
      polls++;
      if (polls === 1) throw new RpcFault('database closed');
      const tx = devnet.state.txs.get(String(p.txID));
      return { status: tx ? tx.status : 'Unknown' };
    });
    const h = await harness();
    const p = await preview(h, 'transfer', { to: to(), amount: '1 CAM' });
    const exportID = (p.structured!.details as { exportTxID: string }).exportTxID;
    const progress: Array<string | undefined> = [];
    const done = await h.client.callTool(
      { name: 'transfer', arguments: { to: to(), amount: '1 CAM', confirm: p.structured!.confirmationId } },
      { onprogress: (n) => progress.push(n.message), resetTimeoutOnProgress: true },
    );
    expect(done.isError, JSON.stringify(done.content)).not.toBe(true);
    expect((done.content as Array<{ text: string }>)[0]!.text).toMatch(/^Transfer complete \(X->C\)/);
    expect(progress).toEqual([`export ${exportID}: Unknown`, `export ${exportID}: Accepted`]);
    expect(polls).toBe(2);
    expect(requestsFor(devnet, 'avax.issueTx')).toBe(1);
  });
});

describe('a transfer the human approved that stops part way', () => {
  const to = () => `C-${devnet.localKey.x.slice(2)}`;

  /** Previews a transfer, approves it in the client's form (CHAIN_MCP_APPROVAL=human), confirms it. */
  async function approvedTransfer(): Promise<{ done: SpendCall; exportID: string }> {
    const h = await harness({ CHAIN_MCP_APPROVAL: 'human' }, { capabilities: { elicitation: { form: {} } }, elicit: () => ({ action: 'accept', content: { approve: true } }) });
    const p = await preview(h, 'transfer', { to: to(), amount: '1 CAM' });
    const exportID = (p.structured!.details as { exportTxID: string }).exportTxID;
    const done = await h.call('transfer', { to: to(), amount: '1 CAM', confirm: p.structured!.confirmationId });
    expect(done.isError, done.text).toBe(false);
    return { done, exportID };
  }

  it('its export Rejected: the issued result still says who approved it, the import not run', async () => {
    devnet.router.on('/ext/bc/X', 'xvm.getTxStatus', () => ({ status: 'Rejected' }));
    const { done, exportID } = await approvedTransfer();
    expect(done.text.split('\n')[0]).toBe(`Step 1 was issued once (txID ${exportID}) but is Rejected; step 2 was not sent. Nothing left the source chain.`);
    expect(done.structured).toMatchObject({
      status: 'issued',
      approvedBy: 'form-elicitation',
      result: {
        complete: false,
        steps: [{ step: 1, status: 'issued', txID: exportID }, { step: 2, status: 'not_run', error: 'not sent: step 1 is Rejected' }],
        next: 'Nothing left the source chain.',
      },
    });
    expect(requestsFor(devnet, 'avax.issueTx')).toBe(0);
  });

  it('its import refused by the node: the issued result still says who approved it, the export issued', async () => {
    devnet.router.on('/ext/bc/C/cx', 'cx.issueTx', () => {
      throw new RpcFault('import refused');
    });
    const { done, exportID } = await approvedTransfer();
    expect(done.text.split('\n')[0]).toMatch(new RegExp(`^Step 1 was issued once \\(txID ${exportID}\\); step 2 failed: `));
    expect(done.structured).toMatchObject({ status: 'issued', approvedBy: 'form-elicitation', result: { complete: false } });
    expect((done.structured!.result as { steps: unknown[] }).steps[0]).toMatchObject({ step: 1, status: 'issued', txID: exportID });
    expect((done.structured!.result as { steps: unknown[] }).steps[1]).toEqual({ step: 2, action: 'import', chain: 'C', status: 'failed', error: 'The node refused avax.issueTx: import refused' });
    expect(requestsFor(devnet, 'avax.issueTx')).toBe(1);
  });
});

describe('the human asked in their client (CHAIN_MCP_APPROVAL=confirm-id with elicitation)', () => {
  it('sees the approval lines; a decline sends nothing and uses the preview up, an accept sends once', async () => {
    const asked: string[] = [];
    let answer: 'accept' | 'decline' = 'decline';
    const h = await harness(
      {},
      {
        capabilities: { elicitation: { form: {} } },
        elicit: (q) => {
          asked.push(q.message);
          return answer === 'accept' ? { action: 'accept', content: { approve: true } } : { action: 'decline' };
        },
      },
    );
    const args = { amount: '1 CAM', assetID: 'CAM', to: alice().x };
    const p = await preview(h, 'xvm_send', args);
    const lines = (await kept(h, p)).lines;
    const before = issued();
    const declined = await h.call('xvm_send', { ...args, confirm: p.structured!.confirmationId });
    expect(declined.isError).toBe(false);
    expect(declined.text).toBe('Declined by the human (decline); nothing was sent.');
    expect(declined.structured).toMatchObject({ status: 'declined', preview: lines });
    expect(asked).toHaveLength(1);
    expect(asked[0]!.split('\n')[0]).toMatch(/^Approve .+\?$/);
    expect(asked[0]!.split('\n').slice(1)).toEqual(lines);
    expect(await h.services.localRecords.get(nonceOf(p))).toBeUndefined();
    expect(issued()).toBe(before);
    answer = 'accept';
    const q = await preview(h, 'xvm_send', args);
    const done = await h.call('xvm_send', { ...args, confirm: q.structured!.confirmationId });
    expect(done.isError, done.text).toBe(false);
    expect(issued()).toBe(before + 1);
  });
});

describe('the human asked in their client under CHAIN_MCP_APPROVAL=human', () => {
  it('a decline in the client answers with the preview lines it declined; nothing sent', async () => {
    const h = await harness({ CHAIN_MCP_APPROVAL: 'human' }, { capabilities: { elicitation: { form: {} } }, elicit: () => ({ action: 'decline' }) });
    const args = { amount: '1 CAM', assetID: 'CAM', to: alice().x };
    const p = await preview(h, 'xvm_send', args);
    const lines = (await kept(h, p)).lines;
    expect(lines.length).toBeGreaterThan(2);
    const before = issued();
    const declined = await h.call('xvm_send', { ...args, confirm: p.structured!.confirmationId });
    expect(declined.isError, declined.text).toBe(false);
    expect(declined.text).toBe('Declined by the human; nothing was sent.');
    expect(declined.structured).toEqual({ status: 'declined', preview: lines });
    expect(await h.services.localRecords.get(nonceOf(p))).toBeUndefined();
    expect(issued()).toBe(before);
  });
});

describe("the key's own addresses under a limit", () => {
  it("an import to another's X address is refused as not the key's; to the key's own it passes that rule", async () => {
    const h = await harness({ CHAIN_MCP_MAX_SPEND: String(5n * CAM) });
    const before = issued();
    const theirs = await h.call('xvm_import', { to: alice().x, sourceChain: 'C' });
    expect(theirs.isError).toBe(true);
    expect(theirs.text.split('\n')[0]).toContain(`Refused: ${alice().x} is not one of the keystore user's addresses`);
    // The key's own X address passes the rule; the build then finds nothing waiting on X from C.
    const mine = await h.call('xvm_import', { to: devnet.localKey.x, sourceChain: 'C' });
    expect(mine.text.split('\n')[0]).toBe('Cannot build this transaction: nothing the key can import waiting in atomic memory. Nothing was sent.');
    expect(issued()).toBe(before);
  });
});

describe('the daily total under the local signer: the larger of what the chain and the store know', () => {
  const DAILY = { CHAIN_MCP_MAX_SPEND_PER_DAY: String((3n * CAM) / 2n) };
  const args = () => ({ amount: '1 CAM', assetID: 'CAM', to: alice().x });

  it('a spend sent with an unknown outcome, not (yet) on the chain, still counts: the next one over the limit is refused', async () => {
    // The node answers without a txID and applies nothing: the chain shows nothing, the store keeps the reservation.
    devnet.router.on('/ext/bc/X', 'xvm.issueTx', () => ({}));
    const h = await harness(DAILY);
    const p = await preview(h, 'xvm_send', args());
    const unknown = await h.call('xvm_send', { ...args(), confirm: p.structured!.confirmationId });
    expect(unknown.text.split('\n')[0]).toMatch(/^The outcome of xvm_send is unknown/);
    const before = issued();
    const again = await h.call('xvm_send', args());
    expect(again.isError).toBe(true);
    // The unknown spend's 1.001 CAM stays reserved (in flight, not on the chain), added to what the chain shows: the seed's 0.001 CAM fee.
    expect(again.text.split('\n')[0]).toContain('over CHAIN_MCP_MAX_SPEND_PER_DAY (1.5 CAM); 1.002 CAM was sent already.');
    expect(issued()).toBe(before);
  });

  it("what the chain records beyond the store shrinks the room by that much only: a spend that fits exactly is sent", async () => {
    const h = await harness(DAILY);
    // 0.4 CAM sent here (the store and the chain both know it), then 0.5 CAM from another process with a store of its own.
    const small = { amount: '0.4 CAM', assetID: 'CAM', to: alice().x };
    const p = await preview(h, 'xvm_send', small);
    expect((await h.call('xvm_send', { ...small, confirm: p.structured!.confirmationId })).isError).toBe(false);
    const elsewhere = await harness();
    const other = { amount: '0.5 CAM', assetID: 'CAM', to: alice().x };
    const q = await preview(elsewhere, 'xvm_send', other);
    expect((await elsewhere.call('xvm_send', { ...other, confirm: q.structured!.confirmationId })).isError).toBe(false);
    // What the chain says was sent (more than this store's 0.401 CAM), read from a refusal.
    const probe = await h.call('xvm_send', { amount: '1.4 CAM', assetID: 'CAM', to: alice().x });
    const sent = /; ([\d.]+) CAM was sent already/.exec(probe.text)![1]!;
    const [whole, frac = ''] = sent.split('.');
    const spent = BigInt(whole!) * CAM + BigInt(frac.padEnd(9, '0'));
    expect(spent).toBeGreaterThan((9n * CAM) / 10n);
    // The room left, less the 0.001 CAM fee: a spend that fits exactly, and is sent.
    const exact = { amount: String((3n * CAM) / 2n - spent - CAM / 1000n), assetID: 'CAM', to: alice().x };
    const r = await preview(h, 'xvm_send', exact);
    const before = issued();
    const done = await h.call('xvm_send', { ...exact, confirm: r.structured!.confirmationId });
    expect(done.isError, done.text).toBe(false);
    expect(issued()).toBe(before + 1);
  });
});

describe('before anything is built', () => {
  it("a recipient with another network's prefix is refused naming the field, whether the network is known yet or not; nothing is sent", async () => {
    const h = await harness();
    const foreign = formatChainAddress('X', 'camino', parseChainAddress(alice().x).bytes);
    const before = issued();
    const first = await h.call('xvm_send', { amount: '1 CAM', assetID: 'CAM', to: foreign });
    expect(first.isError).toBe(true);
    expect(first.text.split('\n')[0]).toMatch(/^Refused: .*to.*camino/);
    // Known now (a preview read it); the same refusal.
    await preview(h, 'xvm_send', { amount: '1 CAM', assetID: 'CAM', to: alice().x });
    const second = await h.call('xvm_send', { amount: '1 CAM', assetID: 'CAM', to: foreign });
    expect(second.isError).toBe(true);
    expect(second.text.split('\n')[0]).toBe(first.text.split('\n')[0]);
    expect(issued()).toBe(before);
  });

  it('a transfer across chains with the key locked says how to unlock, and to preview again after', async () => {
    const h = await spendHarness(devnet, { env: { CHAIN_MCP_APPROVAL: 'confirm-id', CHAIN_MCP_SIGNER: 'local', CHAIN_MCP_KEY_FILE: join(dir, 'key.json') } });
    open.push(h);
    const r = await h.call('transfer', { to: `C-${devnet.localKey.x.slice(2)}`, amount: '1 CAM' });
    expect(r.isError).toBe(true);
    expect(r.text.split('\n')[0]).toMatch(/^The signing key is locked: .*\(a transfer across chains signs its export to name it in the import\.\) Nothing was sent\.$/);
    expect(r.text).toContain('After the human unlocks it, call the tool again for a preview to approve.');
    expect(h.logs.some((l) => l.includes('"audit":"refused"') && l.includes('"signer":"local"') && l.includes('"why":"key locked"') && l.includes('"tool":"transfer"'))).toBe(true);
  });

  it('a send with the key locked previews from its bytes, marked keyLocked for the card, with nothing to confirm', async () => {
    const h = await spendHarness(devnet, { env: { CHAIN_MCP_APPROVAL: 'confirm-id', CHAIN_MCP_SIGNER: 'local', CHAIN_MCP_KEY_FILE: join(dir, 'key.json') } });
    open.push(h);
    const r = await h.call('xvm_send', { amount: '1 CAM', assetID: 'CAM', to: alice().x });
    expect(r.isError, r.text).toBe(false);
    expect(r.structured).toMatchObject({ status: 'preview', keyLocked: true });
    expect(r.structured!.confirmationId).toBeUndefined();
    expect((r.structured!.preview as string[])[0]).toBe(`Send 1 CAM to ${alice().x.slice(0, 12)}…${alice().x.slice(-4)}`);
    expect(r.text.split('\n').at(-1)).toMatch(/^The signing key is locked: .* Call this tool again once it is unlocked, for a preview to approve\.$/);
    expect(h.logs.some((l) => l.includes('"audit":"preview"') && l.includes('"locked":true'))).toBe(true);
  });
});

describe('how the preview says it is approved, by channel', () => {
  const args = () => ({ amount: '1 CAM', assetID: 'CAM', to: alice().x });
  const howOf = (p: SpendCall) => p.text.split('\n').at(-1)!;

  it('confirm-id: the confirmationId alone, no page, no card', async () => {
    const h = await harness();
    const p = await preview(h, 'xvm_send', args());
    expect(howOf(p)).toBe(`To execute once, call xvm_send again with the same arguments and confirm: "${p.structured!.confirmationId}" (valid 5 minutes).`);
    expect(p.structured!.approvalUrl).toBeUndefined();
    expect(p.meta).toBeUndefined();
  });

  it('human, a client that asks in a form: asked there at confirm; no page link, no card', async () => {
    const h = await harness({ CHAIN_MCP_APPROVAL: 'human', CHAIN_MCP_APPROVAL_WAIT_MS: '0' }, { capabilities: { elicitation: { form: {} } }, elicit: () => ({ action: 'decline' }) });
    const p = await preview(h, 'xvm_send', args());
    expect(howOf(p)).toBe(
      `To execute once, call xvm_send again with the same arguments and confirm: "${p.structured!.confirmationId}" (valid 5 minutes); the human is then asked to approve in their client. Your confirm alone sends nothing.`,
    );
    expect(p.structured!.approvalUrl).toBeUndefined();
    expect(p.meta?.ui).toBeUndefined();
  });

  it('human, a host that renders the approval card: the card, with its data in _meta, no page link', async () => {
    const h = await harness(
      { CHAIN_MCP_APPROVAL: 'human', CHAIN_MCP_APPROVAL_WAIT_MS: '0' },
      { capabilities: { extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] } } } as never },
    );
    const p = await preview(h, 'xvm_send', args());
    expect(howOf(p)).toBe(
      `The human approves or declines on the approval card shown with this preview. After they approve, call xvm_send again with the same arguments and confirm: "${p.structured!.confirmationId}" (valid 5 minutes). Your confirm alone sends nothing.`,
    );
    expect(p.structured!.approvalUrl).toBeUndefined();
    expect(p.meta?.ui).toBeDefined();
    // The card shows the approval lines the server keeps.
    expect(JSON.stringify(p.meta)).toContain(JSON.stringify((await kept(h, p)).lines[0]));
  });

  it('human, a client that can do neither: a page link on this computer', async () => {
    const h = await harness({ CHAIN_MCP_APPROVAL: 'human', CHAIN_MCP_APPROVAL_WAIT_MS: '0', CHAIN_MCP_APPROVAL_LINK: 'plain' });
    const p = await preview(h, 'xvm_send', args());
    const url = String(p.structured!.approvalUrl);
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\//);
    expect(howOf(p)).toBe(
      `Only the human can approve this: give them this link to open in their browser on this computer: ${url} . After they approve there, call xvm_send again with the same arguments and confirm: "${p.structured!.confirmationId}" (valid 5 minutes). Your confirm alone sends nothing.`,
    );
    expect(p.meta?.ui).toBeUndefined();
  });
});

describe('a confirm that names no kept preview', () => {
  const args = () => ({ amount: '1 CAM', assetID: 'CAM', to: alice().x });
  const NONE = 'Confirmation refused: no preview is kept for that confirmationId (expired, already used, or kept by another server whose state this one does not share). Nothing was sent.';

  it('an unknown id, or one made by another tool, is refused as no kept preview; nothing sent', async () => {
    const h = await harness();
    const p = await preview(h, 'xvm_send', args());
    const id = String(p.structured!.confirmationId);
    const before = issued();
    const unknown = await h.call('xvm_send', { ...args(), confirm: `AAAAAAAAAAAAAAAAAAAAAA.${id.split('.').slice(1).join('.')}` });
    expect(unknown.isError).toBe(true);
    expect(unknown.text.split('\n')[0]).toBe(NONE);
    expect(unknown.text).toContain('Call the tool again without confirm to get a fresh preview.');
    const otherTool = await h.call('xvm_export', { to: `C-${devnet.localKey.x.slice(2)}`, amount: '1 CAM', assetID: 'CAM', confirm: id });
    expect(otherTool.isError).toBe(true);
    expect(otherTool.text.split('\n')[0]).toBe(NONE);
    expect(issued()).toBe(before);
    // The preview itself still goes, once.
    expect((await h.call('xvm_send', { ...args(), confirm: id })).isError).toBe(false);
  });

  it('kept bytes that no longer match the approved hash: refused, the preview used up, a fresh one suggested', async () => {
    const h = await harness();
    const p = await preview(h, 'xvm_send', args());
    const nonce = nonceOf(p);
    const record = await kept(h, p);
    const bytes = Uint8Array.from(record.spend.steps[0]!.bytes);
    bytes[bytes.length - 1]! ^= 1;
    await h.services.localRecords.take(nonce);
    await h.services.localRecords.put(nonce, { ...record, spend: { ...record.spend, steps: [{ ...record.spend.steps[0]!, bytes }] } });
    const r = await h.call('xvm_send', { ...args(), confirm: p.structured!.confirmationId });
    expect(r.text.split('\n')[0]).toBe('Refused: the transaction bytes kept for this preview no longer match the hash that was approved. Nothing was signed or sent.');
    expect(r.text).toContain('Call the tool again without confirm for a fresh preview.');
    expect(await h.services.localRecords.get(nonce)).toBeUndefined();
    expect(h.logs.some((l) => l.includes('"why":"bytes differ from the approved hash"') && l.includes('"signer":"local"'))).toBe(true);
  });
});
