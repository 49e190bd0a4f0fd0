import { createHash } from 'node:crypto';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type Devnet, startDevnet } from '../../src/devnet/index.js';
import { issueTx } from '../../src/devnet/node/issue.js';
import { type Params, RpcFault } from '../../src/devnet/rpc.js';
import { registeredId } from '../../src/devnet/state/index.js';
import { ISSUE_METHODS, localKeyFolder, localSignerEnv } from '../helpers/local-key.js';
import { requestsFor, type SpendCall, type SpendHarness, spendHarness } from '../helpers/spend-harness.js';

/**
 * What the local spend path (src/registry/local-spend.ts) tells the human, the model and the
 * operator around a confirm: the passkey that guards a local preview's page link, what to check
 * before sending again after an issue of unknown outcome, and the audit line of each step.
 * Each test drives the MCP protocol against the simulator (a Camino node without a keystore).
 */

const PASSPHRASE = 'correct horse battery staple 40';
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

async function preview(h: SpendHarness, tool: string, args: Record<string, unknown>): Promise<SpendCall> {
  const p = await h.call(tool, args);
  expect(p.isError, p.text).toBe(false);
  expect(p.structured?.status).toBe('preview');
  return p;
}

beforeAll(async () => {
  dir = await localKeyFolder('chain-mcp-local-confirm-', PASSPHRASE);
});
beforeEach(async () => {
  devnet = await startDevnet({ dialect: 'camino' });
  devnet.router.record = true;
  open.push(devnet);
});
afterEach(async () => {
  for (const o of open.splice(0).reverse()) await o.close();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('a registered passkey guards the page link of a local preview', () => {
  it('the link is on localhost and its approval wants the passkey: Approve posted without one is refused, nothing is sent', async () => {
    // A passkey registered before the start (as `chain-mcp passkey add` leaves it): the link is offered.
    const file = join(dir, 'passkeys.json');
    writeFileSync(file, JSON.stringify({ rpID: 'localhost', credentials: [{ id: 'laptop-key', publicKey: 'pQECAyYgASFYIA', counter: 0, createdAt: '2026-11-26T00:00:00.000Z' }] }));
    const h = await harness({ CHAIN_MCP_APPROVAL: 'human', CHAIN_MCP_APPROVAL_WAIT_MS: '0', CHAIN_MCP_PASSKEY_FILE: file });
    const args = { amount: '1 CAM', assetID: 'CAM', to: alice().x };
    const p = await preview(h, 'xvm_send', args);
    const url = String(p.structured!.approvalUrl);
    // A passkey is bound to its origin: the page asking for one is served on localhost.
    expect(url).toMatch(/^http:\/\/localhost:\d+\/approve\/[A-Za-z0-9_-]{32}$/);
    const nonce = String(p.structured!.confirmationId).split('.')[0]!;
    expect((await h.services.state.getApproval(nonce))?.passkeyChallenge).toEqual(expect.any(String));
    const html = await (await fetch(url)).text();
    const csrf = /name="csrf" value="([^"]+)"/.exec(html)?.[1] ?? '';
    expect(csrf).not.toBe('');
    const post = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: new URL(url).origin },
      body: new URLSearchParams({ csrf, decision: 'approve' }),
    });
    expect(post.status).toBe(403);
    const before = issued();
    const r = await h.call('xvm_send', { ...args, confirm: p.structured!.confirmationId });
    expect(r.isError).toBe(true);
    expect(r.text).toContain('Not approved by the human yet; nothing was sent');
    expect(issued()).toBe(before);
  });
});

describe('an issue of unknown outcome says what to check before sending again', () => {

  it("xvm_send: the X-Chain reads that show it; transfer, which has no reads of its own: the balances (account_overview)", async () => {
    // The X node applies the send, then answers without a txID.
    devnet.router.on('/ext/bc/X', 'xvm.issueTx', (p: Params) => {
      issueTx(devnet.state, p, 'X');
      return {};
    });
    const h = await harness();
    const send = { amount: '1 CAM', assetID: 'CAM', to: alice().x };
    const p = await preview(h, 'xvm_send', send);
    const sent = await h.call('xvm_send', { ...send, confirm: p.structured!.confirmationId });
    expect(sent.isError).toBe(true);
    expect(sent.text.split('\n')[0]).toMatch(/^The outcome of xvm_send is unknown: /);
    expect(sent.text.split('\n')[1]).toBe(
      "What to try: Do not send it again blindly. First check xvm_getAddressTxs or xvm_getBalance for the user's addresses (and xvm_getTxStatus with a txID if you have one); only then decide with the human whether to preview it again.",
    );
    // A transfer from C to a 0x address (one EVM send) whose node answers without a hash.
    for (const path of ['/ext/bc/C/rpc', `/ext/bc/${devnet.state.chains.C}/rpc`]) devnet.router.on(path, 'eth_sendRawTransaction', () => '');
    const move = { to: alice().c, amount: '0.5 CAM', sourceChain: 'C' };
    const q = await preview(h, 'transfer', move);
    const moved = await h.call('transfer', { ...move, confirm: q.structured!.confirmationId });
    expect(moved.text.split('\n')[0]).toMatch(/^The outcome of transfer is unknown: /);
    expect(moved.text.split('\n')[1]).toBe(
      'What to try: Do not send it again blindly. First check the balances (account_overview); only then decide with the human whether to preview it again.',
    );
  });
});


/** The audit lines (stderr, JSON) the server wrote with this `audit` kind. */
const audits = (h: SpendHarness, kind: string) => h.logs.map((l) => JSON.parse(l) as Record<string, unknown>).filter((l) => l.audit === kind);

describe('the audit lines of a local spend (one per step: tool, signer, amount, recipients; never a secret)', () => {
  it('a spend that goes: its preview with the fee and the bytes\' sha256, its confirm with who approved, its issue with the step and txID', async () => {
    const h = await harness({ CHAIN_MCP_APPROVAL: 'human' }, { capabilities: { elicitation: { form: {} } }, elicit: () => ({ action: 'accept', content: { approve: true } }) });
    const args = { amount: '1 CAM', assetID: 'CAM', to: alice().x };
    const p = await preview(h, 'xvm_send', args);
    const record = await h.services.localRecords.get(String(p.structured!.confirmationId).split('.')[0]!);
    if (!record || record === 'tampered') throw new Error('no kept record');
    const sha = [createHash('sha256').update(record.spend.steps[0]!.bytes).digest('hex')];
    const done = await h.call('xvm_send', { ...args, confirm: p.structured!.confirmationId });
    expect(done.isError, done.text).toBe(false);
    const txID = /^Sent on X: issued once, txID (\S+)\./.exec(done.text)![1];
    const who = { tool: 'xvm_send', signer: 'local', amount: '1000000000', recipients: [alice().x] };
    expect(audits(h, 'preview')).toEqual([expect.objectContaining({ ...who, fee: '1000000', unsignedSha256: sha, msg: 'spend preview' })]);
    expect(audits(h, 'confirmed')).toEqual([expect.objectContaining({ ...who, approvedBy: 'form-elicitation', unsignedSha256: sha, msg: 'spend confirmed' })]);
    expect(audits(h, 'issued')).toEqual([expect.objectContaining({ ...who, step: 1, txID, msg: 'spend issued' })]);
    expect(h.logs.join('\n')).not.toContain(PASSPHRASE);
  });

  it('refusals at confirm each leave one line saying why: no kept preview, a decline, a locked key, the daily total reached since the preview', async () => {
    let answer: 'accept' | 'decline' = 'decline';
    const h = await harness(
      { CHAIN_MCP_MAX_SPEND_PER_DAY: String(1_500_000_000n) },
      { capabilities: { elicitation: { form: {} } }, elicit: () => (answer === 'accept' ? { action: 'accept', content: { approve: true } } : { action: 'decline' }) },
    );
    const args = { amount: '1 CAM', assetID: 'CAM', to: alice().x };
    const who = { tool: 'xvm_send', signer: 'local', amount: '1000000000', recipients: [alice().x] };
    const before = issued();
    const p = await preview(h, 'xvm_send', args);
    const id = String(p.structured!.confirmationId);
    // An id naming no kept preview.
    expect((await h.call('xvm_send', { ...args, confirm: `AAAAAAAAAAAAAAAAAAAAAA.${id.split('.').slice(1).join('.')}` })).isError).toBe(true);
    expect(audits(h, 'refused')).toEqual([expect.objectContaining({ ...who, why: 'no local preview for this id', msg: 'spend confirmation refused' })]);
    // The human declines in the client.
    expect((await h.call('xvm_send', { ...args, confirm: id })).structured?.status).toBe('declined');
    expect(audits(h, 'declined')).toEqual([expect.objectContaining({ ...who, answer: 'decline', msg: 'spend declined' })]);
    // Two previews that each fit under the daily 1.5 CAM; the first confirmed leaves no room for the other.
    answer = 'accept';
    const a = await preview(h, 'xvm_send', args);
    const b = await preview(h, 'xvm_send', args);
    expect((await h.call('xvm_send', { ...args, confirm: b.structured!.confirmationId })).structured?.status).toBe('issued');
    const over = await h.call('xvm_send', { ...args, confirm: a.structured!.confirmationId });
    expect(over.text.split('\n')[0]).toContain('over CHAIN_MCP_MAX_SPEND_PER_DAY');
    expect(audits(h, 'refused').slice(1)).toEqual([expect.objectContaining({ ...who, why: 'kept bytes over a limit', msg: 'spend refused' })]);
    // The key locked after the preview.
    const q = await preview(h, 'xvm_send', { ...args, amount: '0.1 CAM' });
    h.services.signer!.lock();
    const locked = await h.call('xvm_send', { ...args, amount: '0.1 CAM', confirm: q.structured!.confirmationId });
    expect(locked.isError).toBe(true);
    expect(locked.text.split('\n')[0]).toMatch(/^The signing key is locked: .* Nothing was sent; the confirmationId stays valid until it expires\.$/);
    expect(locked.text.split('\n').at(-1)).toBe('What to try: Ask the human to unlock the key on the approval page (they type the passphrase there), then call again with the same confirm.');
    expect(audits(h, 'refused').slice(2)).toEqual([expect.objectContaining({ ...who, amount: '100000000', why: 'key locked', msg: 'spend refused: key locked' })]);
    expect(issued()).toBe(before + 1);
  });

  it("a transfer's steps: the node naming another txID for the export, an export signed to another ID, an import the node refuses", async () => {
    const h = await harness();
    const args = { to: `C-${devnet.localKey.x.slice(2)}`, amount: '1 CAM' };
    const who = { tool: 'transfer', signer: 'local', amount: '1000000000', recipients: [args.to] };
    const transfer = async () => {
      const p = await preview(h, 'transfer', args);
      return { p, exportID: (p.structured!.details as { exportTxID: string }).exportTxID };
    };
    // The node applies the export but names another txID.
    devnet.router.on('/ext/bc/X', 'xvm.issueTx', (p: Params) => {
      issueTx(devnet.state, p, 'X');
      return { txID: 'not-the-export' };
    });
    const first = await transfer();
    expect((await h.call('transfer', { ...args, confirm: first.p.structured!.confirmationId })).isError).toBe(true);
    expect(audits(h, 'txid_mismatch')).toEqual([expect.objectContaining({ ...who, step: 1, expected: first.exportID, named: '"not-the-export"' })]);
    devnet.router.on('/ext/bc/X', 'xvm.issueTx', (p: Params) => issueTx(devnet.state, p, 'X'));
    // Its export, signed again at confirm, has another ID than the one its import names.
    const second = await transfer();
    const nonce = String(second.p.structured!.confirmationId).split('.')[0]!;
    const record = await h.services.localRecords.get(nonce);
    if (!record || record === 'tampered') throw new Error('no kept record');
    await h.services.localRecords.take(nonce);
    await h.services.localRecords.put(nonce, { ...record, spend: { ...record.spend, steps: [{ ...record.spend.steps[0]!, expectId: registeredId('another-export') }, record.spend.steps[1]!] } });
    const resigned = await h.call('transfer', { ...args, confirm: second.p.structured!.confirmationId });
    expect(resigned.isError).toBe(true);
    expect(resigned.text.split('\n').at(-1)).toBe('What to try: Call the tool again without confirm for a fresh preview.');
    expect(audits(h, 'refused')).toEqual([expect.objectContaining({ ...who, step: 1, why: 'signed step ID differs from the preview', msg: 'spend refused' })]);
    // The export goes, the node refuses the import.
    devnet.router.on('/ext/bc/C/cx', 'cx.issueTx', () => {
      throw new RpcFault('import refused');
    });
    const third = await transfer();
    const done = await h.call('transfer', { ...args, confirm: third.p.structured!.confirmationId });
    expect(done.structured?.status, done.text).toBe('issued');
    expect(audits(h, 'issued')).toEqual([expect.objectContaining({ ...who, step: 1, txID: third.exportID })]);
    expect(audits(h, 'failed')).toEqual([expect.objectContaining({ ...who, step: 2, kind: 'rpc', msg: 'spend stopped part way' })]);
  });
});
