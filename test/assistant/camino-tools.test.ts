import { rmSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { RpcFault } from '../../src/devnet/rpc.js';
import { claimableReward, registeredId } from '../../src/devnet/state/index.js';
import { STRANGER_NOTE } from '../../src/summarize/stranger.js';
import { localKeyFolder, localSignerEnv } from '../helpers/local-key.js';
import { nodeAnswer as askNode } from '../helpers/node-answer.js';
import { spendHarness } from '../helpers/spend-harness.js';
import { heldCamino } from '../helpers/held-camino.js';

/**
 * Camino's own P tools (src/catalogue/camino.ts) where a line, a field or a refusal depends on a
 * detail of the node's answer: offer memos, the unlockable amount at the edges of the unlock
 * period, UTXO paging, blocks, owner matching, aliases and registered nodes (issue 44, the
 * survivors of the `camino` group's run of 2026-11-29). Camino dialect, keystore API, clock held.
 */

// biome-ignore lint/suspicious/noExplicitAny: structured results are checked field by field
type Rec = Record<string, any>;
const DAY = 86_400;
const CAM = 1_000_000_000n;

describe('Camino P tools: what each answer says', () => {
  const camino = heldCamino({ record: true });
  const nodeAnswer = (method: string, params: Rec = {}) => askNode<Rec>(camino.devnet.nodeUrl, '/ext/P', method, params);
  const asked = (method: string) => camino.devnet.router.requests.map((q) => q.body as Rec).filter((b) => b.method === method);
  const offerOf = (id: string) => camino.devnet.state.depositOffers.find((o) => o.id === camino.devnet.state.deposits.get(id)!.offerID)!;
  const call = async (name: string, args: Rec) => {
    const r = await camino.h.call(name, args);
    expect(r.isError, r.text).toBe(false);
    return { out: r.structured as Rec, lines: r.text.split('\n') };
  };
  const d0 = () => camino.devnet.state.users.get(camino.devnet.state.devnetUser)!.keys[0]!.p;
  const a0 = () => camino.devnet.state.users.get('alice')!.keys[0]!.p;

  it("platform_getDeposits: an offer's memo is quoted with the stranger note once; offers without a memo give neither", async () => {
    const [a, b] = [registeredId('deposit:0'), registeredId('deposit:1')];
    // deposit:1 moved to another offer active at its start, so that the two offers' memos differ.
    const db = camino.devnet.state.deposits.get(b)!;
    db.offerID = camino.devnet.state.depositOffers.find((o) => o.id !== offerOf(a).id && o.start <= db.start && db.start < o.end)!.id;
    const one = await call('platform_getDeposits', { depositTxIDs: [a] });
    expect(one.out.deposits[0].offerMemo).toBe('Standard 8% offer');
    expect(one.lines).toEqual([expect.stringMatching(/^1 deposit\(s\) at /), expect.stringContaining('"Standard 8% offer"'), STRANGER_NOTE]);
    // One offer with a memo among offers without: the note once, at the end.
    offerOf(b).memo = '';
    const mixed = await call('platform_getDeposits', { depositTxIDs: [b, a] });
    expect(mixed.out.deposits[0]).not.toHaveProperty('offerMemo');
    expect(mixed.lines).toHaveLength(4);
    expect(mixed.lines[3]).toBe(STRANGER_NOTE);
    offerOf(a).memo = '';
    const none = await call('platform_getDeposits', { depositTxIDs: [a, b] });
    expect(none.out.deposits.map((d: Rec) => 'offerMemo' in d)).toEqual([false, false]);
    expect(none.lines).toHaveLength(3);
    expect(none.lines.slice(1).every((l) => l.includes('(deposit '))).toBe(true);
  });

  it('platform_getDeposits: at the exact end of a deposit without unlock period, and after the end of one with a period, all still locked is unlockable', async () => {
    const id = registeredId('deposit:0');
    const d = camino.devnet.state.deposits.get(id)!;
    const offer = offerOf(id);
    d.unlockedAmount = 100n * CAM;
    const rest = String(d.amount - d.unlockedAmount);
    expect(offer.unlockPeriodDuration).toBeGreaterThan(0);
    camino.now = d.start + d.duration + DAY;
    const after = await call('platform_getDeposits', { depositTxIDs: [id] });
    expect(after.out.deposits[0].unlockableNow.value).toBe(rest);
    offer.unlockPeriodDuration = 0;
    camino.now = d.start + d.duration;
    const atEnd = await call('platform_getDeposits', { depositTxIDs: [id] });
    expect(atEnd.out.deposits[0].unlockableNow.value).toBe(rest);
  });

  it("platform_getDeposits: a node's own unlockableAmount (caminogo's dev branch) is shown as it is, with or without the offer", async () => {
    const id = registeredId('deposit:0');
    const real = await nodeAnswer('platform.getDeposits', { depositTxIDs: [id] });
    camino.devnet.router.on('/ext/P', 'platform.getDeposits', () => ({ ...real, deposits: real.deposits.map((d: Rec) => ({ ...d, unlockableAmount: '123456789' })) }));
    const withOffer = await call('platform_getDeposits', { depositTxIDs: [id] });
    expect(withOffer.out.deposits[0].totalReward).toBeDefined();
    expect(withOffer.out.deposits[0].unlockableNow.value).toBe('123456789');
    camino.devnet.router.on('/ext/P', 'platform.getAllDepositOffers', () => ({ depositOffers: [] }));
    const without = await call('platform_getDeposits', { depositTxIDs: [id] });
    expect(without.out.deposits[0].totalReward).toBeUndefined();
    expect(without.out.deposits[0].unlockableNow.value).toBe('123456789');
  });

  it('a node that pages platform.getUTXOs forever is asked 20 pages, and an undecodable UTXO among them is passed over', async () => {
    const address = d0();
    const real = await nodeAnswer('platform.getUTXOs', { addresses: [address], limit: 1024, encoding: 'hex' });
    expect(real.utxos.length).toBeGreaterThan(0);
    camino.devnet.router.requests.length = 0;
    const page = [...Array.from({ length: 1023 }, () => real.utxos[0]), '0xdeadbeef'];
    camino.devnet.router.on('/ext/P', 'platform.getUTXOs', () => ({ numFetched: '1024', utxos: page, endIndex: real.endIndex, encoding: 'hex' }));
    const { out } = await call('platform_getClaimables', { addresses: [address] });
    expect(out.claimables).toHaveLength(1);
    expect(asked('platform.getUTXOs')).toHaveLength(20);
  });

  it("a P block: encoding, the node's block as sent, each transaction's ID, its date from `time`; an answer without encoding is json", async () => {
    const real = await nodeAnswer('platform.getBlockAtHeight', { height: 1 });
    expect(real.block.time).toBeDefined();
    const { out, lines } = await call('platform_getBlockAtHeight', { height: 1 });
    expect(out.encoding).toBe('json');
    expect(out.block).toEqual(real.block);
    expect(out.txs.map((t: Rec) => t.id)).toEqual(real.block.txs.map((t: Rec) => t.id));
    expect(out.time.unix).toBe(String(real.block.time));
    expect(lines[0]).toContain(`, ${out.time.iso}, parent `);
    camino.devnet.router.on('/ext/P', 'platform.getBlockAtHeight', () => ({ block: real.block }));
    expect((await call('platform_getBlockAtHeight', { height: 1 })).out.encoding).toBe('json');
  });

  it("a block's import names its source chain; an export after another kind of transaction names its destination", async () => {
    const exp = (await nodeAnswer('platform.getBlockAtHeight', { height: 1 })).block;
    const other = (await nodeAnswer('platform.getBlockAtHeight', { height: 4 })).block.txs[0];
    const tx = exp.txs[0];
    const chain = tx.unsignedTx.destinationChain as string;
    const { destinationChain: _d, exportedOutputs: _e, ...rest } = tx.unsignedTx;
    const imp = { ...tx, unsignedTx: { ...rest, sourceChain: chain, importedInputs: [] } };
    camino.devnet.router.on('/ext/P', 'platform.getLastAcceptedBlock', () => ({ block: { ...exp, txs: [imp] }, encoding: 'json' }));
    const imported = await call('platform_getLastAcceptedBlock', {});
    expect(imported.out.txs[0].kind).toBe('import');
    expect(imported.lines[1]).toMatch(/[XC]-Chain/);
    expect(imported.lines[1]).not.toContain(`chain ${chain}`);
    camino.devnet.router.on('/ext/P', 'platform.getLastAcceptedBlock', () => ({ block: { ...exp, txs: [other, tx] }, encoding: 'json' }));
    const mixed = await call('platform_getLastAcceptedBlock', {});
    expect(mixed.out.txs.map((t: Rec) => t.kind)[1]).toBe('export');
    expect(mixed.lines[2]).toMatch(/[XC]-Chain/);
    expect(mixed.lines[2]).not.toContain(`chain ${chain}`);
  });

  it('platform_getClaimables: a threshold above the number of addresses is refused naming threshold, nothing sent', async () => {
    const r = await camino.h.call('platform_getClaimables', { addresses: [d0()], threshold: 2 });
    expect(r.isError).toBe(true);
    expect(r.text).toContain('threshold: 2 is more than the 1 address(es) given');
    expect(asked('platform.getClaimables')).toHaveLength(0);
    expect(asked('platform.getUTXOs')).toHaveLength(0);
  });

  it("platform_getClaimables: found with the node's entry alone or a deposit reward alone; a held deposit with nothing to claim is not listed", async () => {
    const state = camino.devnet.state;
    const [mine, other] = [d0(), a0()];
    const id = registeredId('deposit:0');
    const d = state.deposits.get(id)!;
    expect(d.rewardOwner.addresses).toEqual([mine]);
    state.claimables = state.claimables.filter((c) => !c.owner.addresses.includes(mine) && !c.owner.addresses.includes(other));
    state.claimables.push({ owner: { locktime: 0n, threshold: 1, addresses: [other] }, validatorRewards: 5n * CAM, expiredDepositRewards: 0n });
    const first = await call('platform_getClaimables', { addresses: [mine, other] });
    const [m, o] = first.out.claimables;
    expect(m.found).toBe(true);
    expect(m.deposits.map((x: Rec) => x.depositTxID)).toContain(id);
    expect(o.found).toBe(true);
    expect(o.deposits).toEqual([]);
    expect(first.lines).not.toContain(expect.stringContaining('nothing claimable'));
    expect(first.lines).toHaveLength(4);
    // Every reward of the deposits `mine` holds claimed: nothing claimable, and no deposit listed.
    for (const [, x] of state.deposits) {
      if (x.rewardOwner.addresses.includes(mine)) x.claimedRewardAmount += claimableReward(x, state.depositOffers.find((f) => f.id === x.offerID)!, camino.now);
    }
    const second = await call('platform_getClaimables', { addresses: [mine] });
    expect(second.out.claimables[0]).toMatchObject({ found: false, deposits: [] });
    expect(second.lines[1]).toBe(`- ${mine}: nothing claimable`);
  });

  it("platform_getClaimables: a deposit's reward owner must match the asked owner's threshold, locktime and addresses in any order", async () => {
    const state = camino.devnet.state;
    const [mine, other] = [d0(), a0()];
    const id = registeredId('deposit:0');
    state.deposits.get(id)!.rewardOwner = { locktime: 0n, threshold: 2, addresses: [mine, other] };
    const listed = async (args: Rec) => (await call('platform_getClaimables', args)).out.claimables[0].deposits.map((x: Rec) => x.depositTxID);
    expect(await listed({ addresses: [mine, other], threshold: 2 })).toContain(id);
    expect(await listed({ addresses: [other, mine], threshold: 2 })).toContain(id);
    expect(await listed({ addresses: [mine, other], threshold: 1 })).not.toContain(id);
    expect(await listed({ addresses: [mine, other], threshold: 2, locktime: 5 })).not.toContain(id);
  });

  it('platform_getClaimables with no addresses under the local signer asks for the key\'s P address', async () => {
    const dir = await localKeyFolder('camino-tools-', 'pass phrase');
    const local = await spendHarness(camino.devnet, { env: localSignerEnv(dir) });
    try {
      camino.devnet.router.requests.length = 0;
      const r = await local.call('platform_getClaimables', {});
      expect(r.isError, r.text).toBe(false);
      expect(asked('platform.getClaimables')[0]!.params.owners).toEqual([{ locktime: '0', threshold: '1', addresses: [camino.devnet.localKey.p] }]);
    } finally {
      await local.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('platform_getMultisigAlias: no lock line at locktime 0; a memo is quoted with the stranger note; no memo, no lines for it; not an alias has no owners', async () => {
    const [address, alias] = [...camino.devnet.state.multisigAliases.entries()][0]!;
    expect(alias.owner.locktime).toBe(0n);
    const withMemo = await call('platform_getMultisigAlias', { address: `P-${address}` });
    expect(withMemo.lines[0]).toMatch(/must sign\.$/);
    expect(withMemo.lines.slice(-2)).toEqual(['Memo: "treasury"', STRANGER_NOTE]);
    alias.memo = '0x';
    const bare = await call('platform_getMultisigAlias', { address: `P-${address}` });
    expect(bare.lines).toHaveLength(1 + alias.owner.addresses.length);
    const none = await call('platform_getMultisigAlias', { address: d0() });
    expect(none.out).toEqual({ address: d0(), isAlias: false, owners: [], threshold: '0', locktime: '0', memo: '' });
  });

  it('platform_getMultisigAlias: a "not found" ending in white space is none; one followed by more words is a failure', async () => {
    const [address] = [...camino.devnet.state.multisigAliases.keys()];
    camino.devnet.router.on('/ext/P', 'platform.getMultisigAlias', () => {
      throw new RpcFault('not found \n');
    });
    expect((await call('platform_getMultisigAlias', { address: `P-${address}` })).out.isAlias).toBe(false);
    camino.devnet.router.on('/ext/P', 'platform.getMultisigAlias', () => {
      throw new RpcFault('alias index: not found in cache, try again');
    });
    const r = await camino.h.call('platform_getMultisigAlias', { address: `P-${address}` });
    expect(r.isError).toBe(true);
    expect(r.text).toContain('not found in cache');
  });

  it('platform_getRegisteredShortIDLink: each direction in its words; an X address or a garbled one refused naming address, nothing sent', async () => {
    const [node, member] = [...camino.devnet.state.nodeLinks.entries()][0]!;
    expect((await call('platform_getRegisteredShortIDLink', { address: node })).lines).toEqual([`Node ${node} is registered by ${member}.`]);
    expect((await call('platform_getRegisteredShortIDLink', { address: member })).lines).toEqual([`${member} registered node ${node}.`]);
    expect((await call('platform_getRegisteredShortIDLink', { address: d0() })).lines).toEqual([`Nothing is registered for ${d0()} (the node answers "not found").`]);
    camino.devnet.router.requests.length = 0;
    const x = await camino.h.call('platform_getRegisteredShortIDLink', { address: `X-${member.slice(2)}` });
    expect(x.isError).toBe(true);
    expect(x.text).toMatch(/address.*expected NodeID-\.\.\. or P-\.\.\./s);
    const garbled = await camino.h.call('platform_getRegisteredShortIDLink', { address: 'P-nonsense' });
    expect(garbled.isError).toBe(true);
    expect(garbled.text).toContain('expected NodeID-... or P-...');
    expect(asked('platform.getRegisteredShortIDLink')).toHaveLength(0);
  });

  it('platform_getUpgradePhases: a node answering null says Athens is not active, not an internal error', async () => {
    camino.devnet.router.on('/ext/P', 'platform.getUpgradePhases', () => null);
    const { out } = await call('platform_getUpgradePhases', {});
    expect(out).toEqual({ athensPhase: '0', athensActive: false });
  });

  it('platform_getClaimables on a node without platform.getConfiguration (native asset unknown) still finds the deposits held', async () => {
    camino.devnet.router.on('/ext/P', 'platform.getConfiguration', () => {
      throw new RpcFault('the method platform.getConfiguration does not exist/is not available', -32601);
    });
    const { out } = await call('platform_getClaimables', { addresses: [d0()] });
    expect(out.claimables[0].deposits.map((x: Rec) => x.depositTxID)).toContain(registeredId('deposit:0'));
  });

  it('platform_getDeposits: an offer whose no-rewards period outlasts the deposit gives no reward, never a negative one', async () => {
    const id = registeredId('deposit:0');
    const d = camino.devnet.state.deposits.get(id)!;
    offerOf(id).noRewardsPeriodDuration = d.duration + DAY;
    const { out } = await call('platform_getDeposits', { depositTxIDs: [id] });
    expect(out.deposits[0].totalReward.value).toBe('0');
    expect(out.deposits[0].rewardEarned.value).toBe('0');
  });
});
