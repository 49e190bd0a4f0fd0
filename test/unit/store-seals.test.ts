import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { type Approval, ApprovalBook } from '../../src/approval/book.js';
import { CardSecrets } from '../../src/approval/card.js';
import { decideFromCard } from '../../src/approval/card-tool.js';
import { humanDecision } from '../../src/approval/flow.js';
import type { ApprovalPages } from '../../src/approval/page.js';
import { ChainMcpError } from '../../src/errors.js';
import { LocalRecords, type LocalRecord, MAX_LOCAL_RECORDS } from '../../src/local/records.js';
import { createLogger } from '../../src/log.js';
import { MemoryStore } from '../../src/state/memory.js';
import { Sealer, stateSecret } from '../../src/state/seal.js';

/**
 * The seals over what the state store keeps (issue 40): every fact of an approval, its decision and
 * a kept preview is covered; a change to any one of them, or a seal moved elsewhere, reads as
 * `tampered`. The store is written here directly, as anything with access to it could.
 */

const NOW = 1_000_000;
const silent = createLogger('error', [], new Writable({ write: (_c, _e, done) => done() }));

async function opened() {
  const store = new MemoryStore();
  const book = new ApprovalBook(() => NOW, store);
  const a = await book.open('nonce-1', { tool: 'xvm_send', title: 'Send 1 CAM', lines: ['To: X-local1abc', 'Amount: 1 CAM'] }, NOW + 300_000, 'alice');
  /** Replaces the stored row with `change` applied, as a writer of the store would. */
  const rewrite = async (change: Partial<Approval>) => {
    const row = (await store.getApproval(a.nonce))!;
    await store.deleteApproval(a.nonce);
    await store.putApproval({ ...row, ...change }, NOW, 1_000);
  };
  return { store, book, a, rewrite };
}

describe('Sealer', () => {
  it('verifies only the same fields in the same order under the same secret and purpose', () => {
    const secret = randomBytes(32);
    const s = new Sealer(secret, 'one');
    const mac = s.seal('a', 1, ['x']);
    expect(s.verify(mac, 'a', 1, ['x'])).toBe(true);
    expect(s.verify(mac, 'a', 2, ['x'])).toBe(false);
    expect(s.verify(mac, 1, 'a', ['x'])).toBe(false);
    // Field boundaries count: ['ab', 'c'] is not ['a', 'bc'].
    expect(s.verify(s.seal('ab', 'c'), 'a', 'bc')).toBe(false);
    expect(new Sealer(secret, 'two').verify(mac, 'a', 1, ['x'])).toBe(false);
    expect(new Sealer(randomBytes(32), 'one').verify(mac, 'a', 1, ['x'])).toBe(false);
    expect(s.verify(undefined, 'a', 1, ['x'])).toBe(false);
    expect(s.verify(`${mac}x`, 'a', 1, ['x'])).toBe(false);
    expect(s.verify('', 'a', 1, ['x'])).toBe(false);
  });

  it('takes the shared key only for a shared store; otherwise a fresh random secret each time', () => {
    const key = 'ab'.repeat(32);
    expect(stateSecret(true, key).toString('hex')).toBe(key);
    expect(stateSecret(false, key).toString('hex')).not.toBe(key);
    expect(stateSecret(false, key).equals(stateSecret(false, key))).toBe(false);
    expect(stateSecret(true, undefined)).toHaveLength(32);
    expect(stateSecret(false, undefined)).toHaveLength(32);
  });
});

describe('an approval in the store', () => {
  it('reads back as itself while untouched, pending and once decided', async () => {
    const { book, a } = await opened();
    expect(await book.read(a.nonce)).toEqual(a);
    expect(await book.lookup(a.token)).toEqual(a);
    expect(await book.stateOf(a)).toBe('pending');
    expect(await book.decide(a, 'declined', 'page')).toBe(true);
    expect(await book.read(a.nonce)).toMatchObject({ state: 'declined', decidedBy: 'page' });
    expect(await book.stateOf(a)).toBe('declined');
    expect(await book.read('no-such')).toBeUndefined();
  });

  const changes: Array<[string, Partial<Approval>]> = [
    ['nonce-bound facts: the owner', { owner: 'mallory' }],
    ['the tool', { tool: 'platform_exportNative' }],
    ['the title', { title: 'Send 0.001 CAM' }],
    ['a line', { lines: ['To: X-local1abc', 'Amount: 0.001 CAM'] }],
    ['a line added', { lines: ['To: X-local1abc', 'Amount: 1 CAM', 'Fine'] }],
    ['the form token', { csrf: 'known-csrf' }],
    ['the page token', { token: 'known-token' }],
    ['the expiry', { expiresAt: NOW + 3_600_000 }],
    ['the seal removed', { seal: undefined }],
    ['a decision by no one, still pending', { decidedBy: 'page' }],
    ['the state set to approved', { state: 'approved', decidedBy: 'page' }],
    ['the state set to approved with a made-up seal', { state: 'approved', decidedBy: 'page', decisionSeal: 'forged' }],
  ];
  for (const [what, change] of changes) {
    it(`is tampered with ${what}: never shown, decided or approved`, async () => {
      const { book, a, rewrite } = await opened();
      await rewrite(change);
      expect(await book.read(a.nonce)).toBe('tampered');
      expect(await book.get(a.nonce)).toBeUndefined();
      expect(await book.lookup(change.token ?? a.token)).toBe('unknown');
      expect(await book.stateOf(a)).toBe('tampered');
      if (change.state === undefined) expect(await book.decide({ ...a, ...change }, 'approved', 'page')).toBe(false);
    });
  }

  it("is tampered when its decision's channel or state is changed, or the decision is moved to another approval", async () => {
    const { store, book, a, rewrite } = await opened();
    expect(await book.decide(a, 'declined', 'page')).toBe(true);
    const declined = (await store.getApproval(a.nonce))!;
    await rewrite({ state: 'approved' });
    expect(await book.read(a.nonce)).toBe('tampered');
    await rewrite({ state: 'declined', decidedBy: 'app' });
    expect(await book.read(a.nonce)).toBe('tampered');
    await rewrite({ decidedBy: 'page' });
    expect(await book.read(a.nonce)).toEqual(declined);
    // The same decision on another approval (with its own facts and seal) does not verify.
    const b = await book.open('nonce-2', { tool: 'xvm_send', title: 'Send 1 CAM', lines: a.lines }, a.expiresAt, 'alice');
    await store.deleteApproval(b.nonce);
    await store.putApproval({ ...b, state: 'declined', decidedBy: 'page', decisionSeal: declined.decisionSeal! }, NOW, 1_000);
    expect(await book.read(b.nonce)).toBe('tampered');
  });

  it('a decision is bound to the facts it was made on: the same nonce opened again with other facts does not take it', async () => {
    const { store, book, a } = await opened();
    expect(await book.decide(a, 'approved', 'page')).toBe(true);
    const approved = (await store.getApproval(a.nonce))!;
    // Another approval under the same nonce (never made by the server, but its seal verifies), then the old decision copied onto it.
    await store.deleteApproval(a.nonce);
    const other = await book.open(a.nonce, { tool: 'xvm_send', title: 'Send 50 CAM', lines: ['To: X-stranger', 'Amount: 50 CAM'] }, a.expiresAt, 'alice');
    expect(await book.read(a.nonce)).toEqual(other);
    await store.deleteApproval(a.nonce);
    await store.putApproval({ ...other, state: 'approved', decidedBy: approved.decidedBy, decisionSeal: approved.decisionSeal! }, NOW, 1_000);
    expect(await book.read(a.nonce)).toBe('tampered');
    expect(await book.stateOf(other)).toBe('tampered');
  });

  it('opened needing a passkey, it carries a challenge from the start; with the challenge removed, or the need removed, it is tampered', async () => {
    const store = new MemoryStore();
    const book = new ApprovalBook(() => NOW, store);
    const a = await book.open('nonce-pk', { tool: 't', title: 't', lines: [] }, NOW + 1_000, 'alice', { passkey: true });
    expect(a).toMatchObject({ passkeyRequired: true, passkeyChallenge: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/) });
    expect(await book.read(a.nonce)).toEqual(a);
    // Asking again keeps the challenge it has.
    expect(await book.requirePasskey(a)).toEqual(a);
    const rewrite = async (change: Partial<Approval>) => {
      await store.deleteApproval(a.nonce);
      await store.putApproval({ ...a, ...change }, NOW, 1_000);
    };
    await rewrite({ passkeyChallenge: undefined });
    expect(await book.read(a.nonce)).toBe('tampered');
    expect(await book.lookup(a.token)).toBe('unknown');
    await rewrite({ passkeyChallenge: undefined, passkeyRequired: undefined });
    expect(await book.read(a.nonce)).toBe('tampered');
    // Without the need, no challenge is made.
    const plain = await book.open('nonce-plain', { tool: 't', title: 't', lines: [] }, NOW + 1_000);
    expect(plain.passkeyChallenge).toBeUndefined();
    expect(plain.passkeyRequired).toBeUndefined();
  });

  it('is never decided from a snapshot that is not pending, nor with a wrong form token', async () => {
    const { book, a } = await opened();
    expect(await book.decide({ ...a, state: 'approved' }, 'approved', 'page')).toBe(false);
    expect(await book.decide(a, 'approved', 'page', 'wrong-csrf')).toBe(false);
    expect(await book.stateOf(a)).toBe('pending');
    expect(await book.decide(a, 'approved', 'page', a.csrf)).toBe(true);
    expect(await book.stateOf(a)).toBe('approved');
  });

  it('a wait reports tampered; the human decision ends with it, asking nobody, and the card refuses it', async () => {
    const { store, book, a, rewrite } = await opened();
    await rewrite({ state: 'approved', decidedBy: 'page' });
    expect(await book.wait(a, 0)).toBe('tampered');
    expect(await book.wait({ ...a, expiresAt: NOW - 1 }, 10_000)).toBe('tampered');
    let asked = 0;
    const deps = { book, pages: {} as ApprovalPages, log: silent, waitMs: 60_000 };
    const state = await humanDecision(deps, a, {
      elicit: async () => {
        asked++;
        return 'accept';
      },
    });
    expect(state).toBe('tampered');
    expect(asked).toBe(0);
    // Pending but edited: the page wait ends at once, not after its time.
    await rewrite({ state: 'pending', decidedBy: undefined, lines: ['Amount: 0.001 CAM'] });
    expect(await humanDecision(deps, a, {})).toBe('tampered');
    const secrets = new CardSecrets(store);
    const secret = await secrets.issue(a);
    const r = await decideFromCard({ book, secrets, log: silent }, { secret, decision: 'approve' });
    expect(r).toEqual({ isError: true, content: [{ type: 'text', text: 'This approval card is no longer valid (used, or the server restarted); nothing was decided.' }] });
    expect((await store.getApproval(a.nonce))?.state).toBe('pending');
  });

  it('another book (another process, another secret) reads this one as tampered', async () => {
    const { store, a } = await opened();
    const other = new ApprovalBook(() => NOW, store);
    expect(await other.read(a.nonce)).toBe('tampered');
    const shared = randomBytes(32);
    const one = new ApprovalBook(() => NOW, store, shared);
    const two = new ApprovalBook(() => NOW, store, Buffer.from(shared));
    const b = await one.open('nonce-shared', { tool: 't', title: 't', lines: [] }, NOW + 1_000);
    expect(await two.decide(b, 'approved', 'page')).toBe(true);
    expect(await one.read(b.nonce)).toMatchObject({ state: 'approved', decidedBy: 'page' });
  });
});

describe('a kept local preview in the store', () => {
  const record = (): LocalRecord => ({
    tool: 'xvm_send',
    hashes: ['aa'],
    total: 1_001_000_000n,
    lines: ['Amount: 1 CAM'],
    expiresAt: NOW + 300_000,
    spend: { steps: [{ chain: 'X', bytes: Uint8Array.from([1, 2, 3]), sigIndices: [[0]], expectId: 'export-id' }], done: (ids) => `done ${ids[0]}`, result: (ids, complete) => ({ txID: ids[0], complete }) },
  });

  it('reads back as kept, unsigned bytes and the expected ID included', async () => {
    const store = new MemoryStore();
    const records = new LocalRecords(store, () => NOW);
    await records.put('n1', record());
    const got = await records.get('n1');
    if (!got || got === 'tampered') throw new Error('not kept');
    expect(got).toMatchObject({ tool: 'xvm_send', hashes: ['aa'], total: 1_001_000_000n, lines: ['Amount: 1 CAM'], expiresAt: NOW + 300_000 });
    expect(got.spend.steps).toEqual([{ chain: 'X', bytes: Uint8Array.from([1, 2, 3]), sigIndices: [[0]], expectId: 'export-id' }]);
    expect(got.spend.done(['tx1'])).toBe('done tx1');
    // The answer texts made at preview, each txID in its place, complete or not.
    expect(got.spend.result(['tx1'], true)).toEqual({ txID: 'tx1', complete: true });
    expect(got.spend.result([], false)).toEqual({ complete: false });
    expect(await records.get('unknown')).toBeUndefined();
  });

  it('is tampered when anything in it changes, when it is moved to another id, or is not what this server stores', async () => {
    const store = new MemoryStore();
    const records = new LocalRecords(store, () => NOW);
    await records.put('n1', record());
    const text = (await store.getPreview('n1', NOW))!;
    const sealed = JSON.parse(text) as { record: string; seal: string };
    const put = async (nonce: string, value: string) => {
      await store.takePreview(nonce);
      await store.putPreview(nonce, value, NOW + 300_000, NOW, 100);
    };
    const edits = [
      sealed.record.replace('"total":"1001000000"', '"total":"0"'),
      sealed.record.replace('Amount: 1 CAM', 'Amount: 0.001 CAM'),
      sealed.record.replace('"bytes":"010203"', '"bytes":"010204"'),
      sealed.record.replace('"hashes":["aa"]', '"hashes":["ab"]'),
      sealed.record.replace('"expectId":"export-id"', '"expectId":"other-id"'),
      sealed.record.replace('done @@txid-0@@', 'done elsewhere'),
    ];
    for (const edit of edits) {
      expect(edit).not.toBe(sealed.record);
      await put('n1', JSON.stringify({ ...sealed, record: edit }));
      expect(await records.get('n1')).toBe('tampered');
    }
    await put('n2', text);
    expect(await records.get('n2')).toBe('tampered');
    for (const junk of ['not json', '{}', JSON.stringify({ record: 5, seal: sealed.seal }), JSON.stringify({ record: sealed.record })]) {
      await put('n1', junk);
      expect(await records.get('n1')).toBe('tampered');
    }
    await put('n1', text);
    expect(await records.get('n1')).not.toBe('tampered');
    expect(await new LocalRecords(store, () => NOW).get('n1')).toBe('tampered');
  });
});

describe('a full book of local previews (records.ts, issue 44)', () => {
  it(`the ${MAX_LOCAL_RECORDS + 1}th open preview is refused as a policy the model can act on, with what to do; nothing is kept`, async () => {
    const store = new MemoryStore();
    const records = new LocalRecords(store, () => NOW);
    const kept: LocalRecord = {
      tool: 'xvm_send',
      hashes: ['aa'],
      total: 1n,
      lines: [],
      expiresAt: NOW + 300_000,
      spend: { steps: [{ chain: 'X', bytes: Uint8Array.from([1]), sigIndices: [[0]] }], done: () => 'done', result: () => ({}) },
    };
    for (let n = 0; n < MAX_LOCAL_RECORDS; n++) await records.put(`n${n}`, kept);
    const err = await records.put('one-more', kept).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(ChainMcpError);
    expect(err).toMatchObject({
      kind: 'policy',
      message: `Refused: ${MAX_LOCAL_RECORDS} local previews are kept already; no new preview until some are confirmed or expire (5 minutes). Nothing was sent.`,
      hint: 'Confirm or let the open previews expire, then preview again. Do not loop on previews.',
    });
    expect(await records.get('one-more')).toBeUndefined();
  });
});
