import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { formatBareBech32, parseBareBech32, relativeTime } from '../../src/codec/index.js';
import { Client, InMemoryTransport } from '@modelcontextprotocol/client';
import { accountOverview } from '../../src/catalogue/assistant/account.js';
import { CATALOGUE } from '../../src/catalogue/index.js';
import { loadConfig } from '../../src/config.js';
import { silentLogger } from '../../src/log.js';
import { buildServer } from '../../src/server.js';
import { startDevnet, type Devnet } from '../../src/devnet/index.js';
import { RpcFault } from '../../src/devnet/rpc.js';
import { ADDRESS_BYTES, addTx, fund, holdDeposit, realKey, registeredId } from '../../src/devnet/state/index.js';
import { heldCamino } from '../helpers/held-camino.js';
import { devnetEnv, inMemoryStack, type Stack } from '../helpers/stack.js';
import { nodeAnswer } from '../helpers/node-answer.js';

/**
 * account_overview's lines a holder acts on (issue 44, group `camino`), through MCP against the
 * simulator: each lock's reason and dates, the unlock hints the node accepts, what the answer says
 * when a read fails or the node leaves something out, its input bounds, and where the other
 * assets on C come from.
 */

// biome-ignore lint/suspicious/noExplicitAny: structured results are checked field by field
type Rec = Record<string, any>;

describe('account_overview: lock lines and unlock hints (camino node, both clocks held)', () => {
  const camino = heldCamino({ serverClock: true });
  const overview = async (addresses: string[]) => {
    const r = await camino.h.call('account_overview', { addresses });
    expect(r.isError, r.text).toBe(false);
    return { s: r.structured as Rec, lines: r.text.split('\n') };
  };
  const day = (t: Rec) => t.iso.slice(0, 10);
  const at = (t: Rec) => `${day(t)} (${relativeTime(BigInt(t.unix), BigInt(camino.now))})`;
  const lineOf = (lines: string[], ids: string) => lines.find((l) => l.endsWith(`(${ids})`));
  const hints = (lines: string[]) => lines.filter((l) => l.includes('platform_unlockDeposit'));
  /** The lines of one address's part of the answer. */
  const partOf = (lines: string[], bare: string) => {
    const from = lines.indexOf(`${bare}:`);
    const next = lines.findIndex((l, i) => i > from && /^[a-z0-9]+1[a-z0-9]+:$/.test(l));
    return lines.slice(from, next < 0 ? undefined : next);
  };

  it('each lock says why and until when (a deposit and bond: both ends), a gradual unlock still to come; only a deposit with something to unlock gets a hint', async () => {
    const state = camino.devnet.state;
    const d0 = state.users.get('devnet')!.keys[0]!;
    const [dep0, dep1, bond0, bond1] = [registeredId('deposit:0'), registeredId('deposit:1'), registeredId('validator-0:tx'), registeredId('validator-1:tx')];
    const { s, lines } = await overview([d0.p]);
    const locks = s.accounts[0].locks as Rec[];
    const lock = (dep?: string, bond?: string) => locks.find((l) => l.depositTxID === dep && l.bondTxID === bond)!;

    // deposit:0 is before its unlock period: nothing to unlock yet, and the day it starts.
    const l0 = lock(dep0, undefined);
    expect(l0.unlockableNow.value).toBe('0');
    expect(Number(l0.unlockPeriodStart.unix)).toBeGreaterThan(camino.now);
    expect(lineOf(lines, `deposit ${dep0}`)).toBe(
      `  - ${l0.amount.display} deposited until ${at(l0.until)}, unlocking gradually from ${day(l0.unlockPeriodStart)}, deposit reward ${l0.depositReward.display} claimable now (deposit ${dep0})`,
    );
    // deposit:1 is also the stake of a running validator: both reasons, both end days, in its unlock period.
    const l1 = lock(dep1, bond1);
    expect(l1.reason).toBe('deposit and bond');
    expect(BigInt(l1.unlockableNow.value)).toBeGreaterThan(0n);
    expect(Number(l1.bondStart.unix)).toBeLessThan(camino.now);
    expect(lineOf(lines, `deposit ${dep1}, bond ${bond1}`)).toBe(
      `  - ${l1.amount.display} deposited and bonded to ${l1.nodeID} until ${at(l1.until)}: the deposit unlocks ${day(l1.depositUnlockTime)}, the staking period ends ${day(l1.bondEnd)}, ${l1.unlockableNow.display} unlockable now, deposit reward ${l1.depositReward.display} claimable now (deposit ${dep1}, bond ${bond1})`,
    );
    // A validator that started: no "staking starts".
    const b0 = lock(undefined, bond0);
    expect(lineOf(lines, `bond ${bond0}`)).toBe(`  - ${b0.amount.display} bonded to ${b0.nodeID} until ${at(b0.until)} (bond ${bond0})`);
    // Only deposit:1 has something to unlock; no hint for deposit:0 and no empty group.
    expect(hints(lines)).toEqual([`  - to unlock: platform_unlockDeposit {"depositTxIDs": ${JSON.stringify([dep1])}}`]);
  });

  it('a deposit and bond whose deposit unlocks after the staking period ends: until the later of the two', async () => {
    const state = camino.devnet.state;
    const d0 = state.users.get('devnet')!.keys[0]!;
    const [dep1, bond1] = [registeredId('deposit:1'), registeredId('validator-1:tx')];
    const v1 = [...state.validators, ...state.pendingValidators].find((v) => v.txID === bond1)!;
    const d = state.deposits.get(dep1)!;
    // The deposit camino.now ends ten days after the validator.
    d.duration = Number(v1.endTime) + 10 * 86_400 - d.start;
    const { s } = await overview([d0.p]);
    const l1 = (s.accounts[0].locks as Rec[]).find((l) => l.depositTxID === dep1 && l.bondTxID === bond1)!;
    expect(BigInt(l1.depositUnlockTime.unix)).toBeGreaterThan(BigInt(l1.bondEnd.unix));
    expect(l1.until.unix).toBe(l1.depositUnlockTime.unix);
  });

  it('its structuredContent is what its output schema declares, field by field (tools/list lists it shallow)', async () => {
    const state = camino.devnet.state;
    const [d0, d1] = state.users.get('devnet')!.keys;
    const { s } = await overview([d0!.x, d0!.c, d1!.x, camino.devnet.localKey.p]);
    // Locks, a claim, and funds waiting on X from P and from C and on C from X: every nested shape.
    expect((s.accounts as Rec[]).flatMap((a) => a.waiting.map((w: Rec) => `${w.from}->${w.on}`)).sort()).toEqual(['C->X', 'P->X', 'X->C', 'X->C']);
    expect(s.accounts[0].locks.length).toBeGreaterThan(0);
    const declared = accountOverview.output.safeParse(s);
    expect(declared.success, JSON.stringify(declared.error?.issues)).toBe(true);
  });

  it('a time that is this second has come: a validator starting now is staking, an unlock period starting now is not announced, a deposit ending now is unlocked with the ended ones', async () => {
    const state = camino.devnet.state;
    const d0 = state.users.get('devnet')!.keys[0]!;
    const a1 = state.users.get('alice')!.keys[1]!;
    const key = camino.devnet.localKey;
    const pending = state.pendingValidators[0]!;
    pending.startTime = camino.now;
    fund(state, 'P', a1.p, [40_000_000_000n], { lock: 'bonded', bondTxID: pending.txID });
    const dep0 = registeredId('deposit:0');
    const d = state.deposits.get(dep0)!;
    const offer = state.depositOffers.find((o) => o.id === d.offerID)!;
    d.start = camino.now + offer.unlockPeriodDuration - d.duration;
    const [running, ended] = [registeredId('local-signer:deposit'), registeredId('local-signer:expired-deposit')];
    const r = state.deposits.get(running)!;
    r.start = camino.now - r.duration;

    const { s, lines } = await overview([a1.p, d0.p, key.p]);
    const [alice, devnetKey, local] = s.accounts as [Rec, Rec, Rec];
    // The stake on a validator starting this second.
    const bond = alice.locks[0];
    expect(bond.bondStart.unix).toBe(String(camino.now));
    expect(lineOf(lines, `bond ${pending.txID}`)).toBe(`  - 40 CAM bonded to ${pending.nodeID} until ${at(bond.until)} (bond ${pending.txID})`);
    // Nothing to claim for alice's key: no claim line in its part.
    expect(alice.claimable.total.value).toBe('0');
    expect(partOf(lines, a1.bech32).filter((l) => l.includes('claimable now'))).toEqual([]);
    // deposit:0's unlock period starts this second.
    const l0 = (devnetKey.locks as Rec[]).find((l) => l.depositTxID === dep0)!;
    expect(l0.unlockPeriodStart.unix).toBe(String(camino.now));
    expect(lineOf(lines, `deposit ${dep0}`)).not.toContain('unlocking gradually');
    // The local key's deposit ending this second is ended: one unlock with the one that ended before
    // (the node counts a deposit as expired from its end second and refuses the two kinds mixed).
    const ready = (local.locks as Rec[]).filter((l) => l.depositTxID).map((l) => l.depositTxID);
    expect([...ready].sort()).toEqual([running, ended].sort());
    expect(hints(partOf(lines, key.p.slice(2)))).toEqual([`  - to unlock: platform_unlockDeposit {"depositTxIDs": ${JSON.stringify(ready)}}`]);
  });

  it("what a released node leaves out (no unlockable amount, offers unreadable) and a bond whose validator is gone: the lines say what is known, no hint", async () => {
    const state = camino.devnet.state;
    const a1 = state.users.get('alice')!.keys[1]!;
    const id = holdDeposit(state, a1.p, 'account-lines:deposit', 20_000_000_000n)!;
    const gone = registeredId('account-lines:validator-gone');
    fund(state, 'P', a1.p, [5_000_000_000n], { lock: 'bonded', bondTxID: gone });
    // caminogo's released branch answers without `unlockableAmount` (its dev branch adds it).
    const answer = await nodeAnswer<Rec>(camino.devnet.nodeUrl, '/ext/P', 'platform.getDeposits', { depositTxIDs: [id] });
    const released = { ...answer, deposits: (answer.deposits as Rec[]).map(({ unlockableAmount: _dev, ...rest }) => rest) };
    camino.devnet.router.on('/ext/P', 'platform.getDeposits', (p) => {
      expect(p.depositTxIDs).toEqual([id]);
      return released;
    });
    camino.devnet.router.on('/ext/P', 'platform.getAllDepositOffers', () => {
      throw new RpcFault('offers index offline');
    });
    const { s, lines } = await overview([a1.p]);
    const locks = s.accounts[0].locks as Rec[];
    const dep = locks.find((l) => l.depositTxID === id)!;
    expect(dep.unlockableNow).toBeUndefined();
    expect(lineOf(lines, `deposit ${id}`)).toBe(`  - 20 CAM deposited until ${at(dep.until)}, deposit reward ${dep.depositReward.display} claimable now (deposit ${id})`);
    expect(lineOf(lines, `bond ${gone}`)).toBe(`  - 5 CAM bonded (end unknown: the node lists no validator for this bond) (bond ${gone})`);
    expect(hints(lines)).toEqual([]);
  });
});

describe('account_overview: failed reads, bounds and other assets (spec node)', () => {
  let devnet: Devnet;
  let stack: Stack;
  beforeEach(async () => {
    devnet = await startDevnet();
    stack = await inMemoryStack({ devnet });
  });
  afterEach(async () => {
    await stack.close();
    await devnet.close();
  });
  const d0 = () => devnet.state.users.get(devnet.state.devnetUser)!.keys[0]!;
  const fail = (path: string, method: string) =>
    devnet.router.on(path, method, () => {
      throw new RpcFault(`${method}: database closed`);
    });

  it('the P balance and the X import reads failing: each named, the X balance and the C import still answered and counted', async () => {
    const key = d0();
    const healthy = (await stack.call('account_overview', { addresses: [key.x] })).structured as Rec;
    fail('/ext/P', 'platform.getBalance');
    fail('/ext/bc/X', 'xvm.getUTXOs');
    const r = await stack.call('account_overview', { addresses: [key.x] });
    expect(r.isError, r.text).toBe(false);
    const s = r.structured as Rec;
    expect(s.problems.map((p: Rec) => p.step).sort()).toEqual([`P balance of ${key.bech32}`, `P->X imports of ${key.bech32}`, `C->X imports of ${key.bech32}`].sort());
    const account = (s.accounts as Rec[])[0]!;
    expect(account.p).toBeUndefined();
    expect(account.x).toEqual(healthy.accounts[0].x);
    expect(account.waiting).toEqual((healthy.accounts[0].waiting as Rec[]).filter((w) => w.on === 'C'));
    expect(account.waiting).toHaveLength(1);
    const xNative = BigInt((account.x as Rec[]).find((l) => l.native)!.amount.value);
    expect(s.nativeTotal.value).toBe(String(xNative + BigInt(account.waiting[0].amount.value)));
    expect(r.text.split('\n').filter((l) => l.startsWith('- P:'))).toEqual([]);
    expect(r.text).toContain(`Could not read: `);
  });

  it("on a node without Camino's lock reads, the first line gives each address's locked amounts", async () => {
    const key = d0();
    const r = await stack.call('account_overview', { addresses: [key.p] });
    const p = (r.structured as Rec).accounts[0].p;
    expect(BigInt(p.bonded.value) + BigInt(p.deposited.value) + BigInt(p.bondedDeposited.value)).toBeGreaterThan(0n);
    expect(r.text.split('\n')[0]).toBe(
      `This node cannot say when the deposited or bonded amounts unlock: it serves the spec's API, without Camino's platform.getDeposits and validator lock reads (${key.bech32}: bonded ${p.bonded.display}, deposited ${p.deposited.display}, bonded+deposited ${p.bondedDeposited.display}). A Camino node answers it.`,
    );
  });

  it("names another network's address by its own place in the list, a 0x address before it counted", async () => {
    const key = d0();
    const foreign = `X-${formatBareBech32('columbus', parseBareBech32(key.bech32).bytes)}`;
    const r = await stack.call('account_overview', { addresses: [key.c, key.x, foreign] });
    expect(r.isError).toBe(true);
    expect(r.text).toContain(`addresses[2]: ${foreign} is an address of network "columbus"`);
  });

  it("without an indexer, a 0x address's other assets on C are found from the X assets given beside it, and nothing is named unread", async () => {
    const key = d0();
    const bare = await inMemoryStack({ devnet: { ...devnet, indexerUrl: undefined, indexer: undefined } });
    try {
      const r = await bare.call('account_overview', { addresses: [key.x, key.c] });
      expect(r.isError, r.text).toBe(false);
      const s = r.structured as Rec;
      expect(s.problems).toEqual([]);
      const onX = new Set((s.accounts[0].x as Rec[]).filter((l) => !l.native).map((l) => l.assetID));
      const held = [...devnet.state.cAssetBalances.get(key.c.toLowerCase())!].filter(([id]) => onX.has(id));
      expect(held.length).toBeGreaterThan(0);
      expect((s.evm[0].assets as Rec[]).map((a) => [a.assetID, a.amount.value]).sort()).toEqual(held.map(([id, v]) => [id, String(v)]).sort());
    } finally {
      await bare.close();
    }
  });

  it('asks the indexer for its asset list only when a 0x address is given', async () => {
    const key = d0();
    const listed = () => devnet.indexer!.requests.filter((q) => q.path === '/v2/assets').length;
    await stack.call('account_overview', { addresses: [key.x] });
    expect(listed()).toBe(0);
    await stack.call('account_overview', { addresses: [key.x, key.c] });
    expect(listed()).toBe(1);
  });

  it('a step whose tool this build lacks is named as not available, the other steps still answered', async () => {
    const key = d0();
    // A server built from a catalogue without cx_getUTXOs (an embedder's own build).
    const config = loadConfig(devnetEnv(devnet));
    const { mcp, services } = buildServer({ config, log: silentLogger(), catalogue: CATALOGUE.filter((t) => t.name !== 'cx_getUTXOs') });
    const client = new Client({ name: 'test', version: '0' });
    const [a, b] = InMemoryTransport.createLinkedPair();
    await mcp.connect(b);
    await client.connect(a);
    try {
      const r = await client.callTool({ name: 'account_overview', arguments: { addresses: [key.x] } });
      expect(r.isError).not.toBe(true);
      const s = r.structuredContent as Rec;
      expect(s.problems).toEqual([{ step: `X->C imports of ${key.bech32}`, error: 'cx_getUTXOs is not available in this build' }]);
      expect((s.accounts[0].waiting as Rec[]).map((w) => `${w.from}->${w.on}`)).toEqual(['P->X']);
    } finally {
      await client.close();
      await mcp.close();
      await services.close();
    }
  });

  it('counts every export waiting for import, past one page of UTXOs', async () => {
    const state = devnet.state;
    const k = realKey(state.hrp, 'account-lines:many-exports');
    ADDRESS_BYTES.set(k.bech32, k.shortId);
    const count = 1030;
    addTx(state, {
      chain: 'P',
      type: 'export',
      inputs: [],
      outputs: Array.from({ length: count }, (_, i) => ({ assetID: state.nativeAssetID, amount: 1_000_000n + BigInt(i), addresses: [k.x], chain: 'X' as const })),
      destinationChain: 'X',
      fee: state.fees.txFee,
    });
    const r = await stack.call('account_overview', { addresses: [k.x] });
    expect(r.isError, r.text).toBe(false);
    const waiting = (r.structured as Rec).accounts[0].waiting as Rec[];
    const sum = Array.from({ length: count }, (_, i) => 1_000_000n + BigInt(i)).reduce((a, b) => a + b, 0n);
    expect(waiting).toEqual([expect.objectContaining({ on: 'X', from: 'P', utxos: count, amount: expect.objectContaining({ value: String(sum) }) })]);
  });

  it('the P part is the native asset whatever else the node lists on P', async () => {
    const state = devnet.state;
    const k = realKey(state.hrp, 'account-lines:two-assets');
    ADDRESS_BYTES.set(k.bech32, k.shortId);
    const other = [...state.assets.keys()].find((id) => id !== state.nativeAssetID)!;
    // The other asset first: a reader taking the first or the only line would take it.
    fund(state, 'P', k.p, [7_000n], { assetID: other });
    fund(state, 'P', k.p, [3_000_000_000n]);
    const listed = ((await stack.call('platform_getBalance', { addresses: [k.p] })).structured as Rec).assets as Rec[];
    expect(listed.map((a) => a.assetID)).toEqual([other, state.nativeAssetID]);
    const r = await stack.call('account_overview', { addresses: [k.p] });
    expect((r.structured as Rec).accounts[0].p.total.value).toBe('3000000000');
  });
});
