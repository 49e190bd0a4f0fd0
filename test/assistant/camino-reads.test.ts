import { describe, expect, it } from 'vitest';
import { fund, registeredId } from '../../src/devnet/state/index.js';
import { heldCamino } from '../helpers/held-camino.js';
import { inMemoryStack } from '../helpers/stack.js';
import { nodeAnswer as askNode } from '../helpers/node-answer.js';

/**
 * Camino's own P reads where the holder's words depend on dates and on what the node left out
 * (issue 44, group `camino`): deposit lines, the node's clock, blocks, aliases, the default owner.
 * Camino dialect with the keystore API, its clock held; the server's clock is the harness's.
 */

// biome-ignore lint/suspicious/noExplicitAny: structured results are checked field by field
type Rec = Record<string, any>;
const DAY = 86_400;

describe('Camino reads: what the holder is told', () => {
  const camino = heldCamino({ record: true });
  /** A Camino method's own answer, before a test replaces it. */
  const nodeAnswer = (method: string, params: Rec = {}) => askNode<Rec>(camino.devnet.nodeUrl, '/ext/P', method, params);
  const deposits = async (ids: string[]) => {
    const r = await camino.h.call('platform_getDeposits', { depositTxIDs: ids });
    expect(r.isError, r.text).toBe(false);
    return { out: r.structured as Rec, lines: r.text.split('\n') };
  };
  const day = (t: Rec) => t.iso.slice(0, 10);

  it('a running deposit: since its start day, unlocking gradually from the period start until the end, nothing unlockable yet', async () => {
    const id = registeredId('deposit:0');
    const d = camino.devnet.state.deposits.get(id)!;
    const offer = camino.devnet.state.depositOffers.find((o) => o.id === d.offerID)!;
    // Before its unlock period: nothing can be unlocked.
    camino.now = d.start + d.duration - offer.unlockPeriodDuration - DAY;
    expect(offer.unlockPeriodDuration).toBeGreaterThan(0);
    const { out, lines } = await deposits([id]);
    const got = out.deposits[0];
    expect(got.unlockableNow.value).toBe('0');
    expect(lines[1]).toContain(
      ` since ${day(got.start)}: unlocks gradually from ${day(got.unlockPeriodStart)} until ${got.unlockTime.iso.slice(0, 16).replace('T', ' ')} UTC (`,
    );
    expect(lines[1]).not.toContain('can be unlocked now');
    expect(lines).not.toContain('(Offer not found for some deposits: unlock period and total reward not computed.)');
  });

  it('an offer without an unlock period: the deposit unlocks at its end, not "gradually"', async () => {
    const id = registeredId('deposit:0');
    const d = camino.devnet.state.deposits.get(id)!;
    const offer = camino.devnet.state.depositOffers.find((o) => o.id === d.offerID)!;
    offer.unlockPeriodDuration = 0;
    camino.now = d.start + DAY;
    const { out, lines } = await deposits([id]);
    expect(lines[1]).toContain(`: unlocks until ${out.deposits[0].unlockTime.iso.slice(0, 16).replace('T', ' ')} UTC (`);
  });

  it('at its very end a deposit is fully unlockable, since its unlock day', async () => {
    const id = registeredId('deposit:0');
    const d = camino.devnet.state.deposits.get(id)!;
    camino.now = d.start + d.duration;
    const { out, lines } = await deposits([id]);
    const got = out.deposits[0];
    expect(lines[1]).toContain(`: fully unlockable since ${day(got.unlockTime)}; `);
    expect(lines[1]).toContain(`; ${got.unlockableNow.display} can be unlocked now (deposit ${id})`);
  });

  it('a deposit whose offer the node does not list: said once, under the list', async () => {
    const [found, lost] = [registeredId('deposit:0'), registeredId('deposit:1')];
    // The lost deposit's offer is one the node no longer lists (the other's still is).
    const other = camino.devnet.state.depositOffers.find((o) => o.id !== camino.devnet.state.deposits.get(found)!.offerID)!;
    camino.devnet.state.deposits.get(lost)!.offerID = other.id;
    const answers = new Map<unknown, Rec>();
    for (const id of [found, lost]) {
      const at = camino.devnet.state.deposits.get(id)!.start;
      const all = await nodeAnswer('platform.getAllDepositOffers', { timestamp: at });
      answers.set(at, { ...all, depositOffers: (all.depositOffers ?? []).filter((o: Rec) => o.id !== other.id) });
    }
    camino.devnet.router.on('/ext/P', 'platform.getAllDepositOffers', (p) => answers.get(p.timestamp) ?? { depositOffers: null });
    const { out, lines } = await deposits([found, lost]);
    expect(out.deposits.map((x: Rec) => x.totalReward === undefined)).toEqual([false, true]);
    expect(lines.filter((l) => l.startsWith('(Offer not found'))).toEqual(['(Offer not found for some deposits: unlock period and total reward not computed.)']);
  });

  it('a getDeposits answer without the node\'s timestamp: the rewards are counted at this server\'s clock', async () => {
    const id = registeredId('deposit:0');
    const real = await nodeAnswer('platform.getDeposits', { depositTxIDs: [id] });
    camino.devnet.router.on('/ext/P', 'platform.getDeposits', () => ({ ...real, timestamp: undefined }));
    camino.h.clock.now = (camino.now + 7 * DAY) * 1000 + 999;
    const { out } = await deposits([id]);
    expect(out.timestamp.unix).toBe(String(camino.now + 7 * DAY));
  });

  it('platform_getClaimables with no addresses asks for the keystore user\'s own P addresses', async () => {
    const r = await camino.h.call('platform_getClaimables', {});
    expect(r.isError, r.text).toBe(false);
    const asked = camino.devnet.router.requests.map((q) => q.body as Rec).find((b) => b.method === 'platform.getClaimables')!.params;
    const keys = camino.devnet.state.users.get(camino.devnet.state.devnetUser)!.keys;
    expect(asked.owners.map((o: Rec) => o.addresses[0])).toEqual(keys.map((k) => k.p));
  });

  it('platform_getClaimables finds held deposits on the second page of platform.getUTXOs', async () => {
    const d0 = camino.devnet.state.users.get(camino.devnet.state.devnetUser)!.keys[0]!;
    fund(camino.devnet.state, 'P', d0.p, Array.from({ length: 1100 }, () => 1_000_000n));
    // The deposits' outputs sort after every other output of the address (the node pages by UTXO ID).
    for (const [id, u] of [...camino.devnet.state.utxos]) {
      if (u.chain !== 'P' || !u.depositTxID || u.spentBy || !u.addresses.includes(d0.p)) continue;
      camino.devnet.state.utxos.delete(id);
      u.id = `zzzz${id}`;
      camino.devnet.state.utxos.set(u.id, u);
    }
    const r = await camino.h.call('platform_getClaimables', { addresses: [d0.p] });
    expect(r.isError, r.text).toBe(false);
    const held = (r.structured as Rec).claimables[0].deposits.map((d: Rec) => d.depositTxID);
    expect(held).toContain(registeredId('deposit:0'));
    const pages = camino.devnet.router.requests.map((q) => q.body as Rec).filter((b) => b.method === 'platform.getUTXOs');
    expect(pages).toHaveLength(2);
    expect(pages[1]!.params.startIndex).toEqual(expect.objectContaining({ address: expect.any(String), utxo: expect.any(String) }));
  });

  it('platform_getClaimables with no addresses and no key or keystore user: refused, naming addresses', async () => {
    const readOnly = await inMemoryStack({ devnet: camino.devnet });
    try {
      const r = await readOnly.call('platform_getClaimables', {});
      expect(r.isError).toBe(true);
      expect(r.text).toContain('addresses: required (no local key or keystore user is configured to default to)');
    } finally {
      await readOnly.close();
    }
  });

  it('a block dated by `timestamp` (not `time`) keeps its date; one with neither has none', async () => {
    const real = await nodeAnswer('platform.getLastAcceptedBlock');
    const { time, ...undated } = real.block;
    const unix = time ?? real.block.timestamp;
    expect(unix).toBeDefined();
    camino.devnet.router.on('/ext/P', 'platform.getLastAcceptedBlock', () => ({ ...real, block: { ...undated, timestamp: unix } }));
    const dated = await camino.h.call('platform_getLastAcceptedBlock', {});
    expect((dated.structured as Rec).time.unix).toBe(String(unix));
    const { timestamp: _, ...none } = undated;
    camino.devnet.router.on('/ext/P', 'platform.getLastAcceptedBlock', () => ({ ...real, block: none }));
    const bare = await camino.h.call('platform_getLastAcceptedBlock', {});
    expect((bare.structured as Rec).time).toBeUndefined();
    expect(bare.text).toMatch(/^Last accepted P-Chain block: height \d+, parent /);
    // A block without transactions (a commit block has no txs field): none, not one.
    const { txs: _t, transactions: _u, ...empty } = none;
    camino.devnet.router.on('/ext/P', 'platform.getLastAcceptedBlock', () => ({ ...real, block: empty }));
    const commit = await camino.h.call('platform_getLastAcceptedBlock', {});
    expect(commit.structured).toMatchObject({ txCount: 0, txIDs: [], txs: [] });
    expect(commit.text).toMatch(/, 0 transaction\(s\)\.$/);
  });

  it('a multisig alias locked until a date says the date; one past any date says the raw locktime', async () => {
    const [address, alias] = [...camino.devnet.state.multisigAliases.entries()][0]!;
    alias.owner.locktime = BigInt(camino.now + 30 * DAY);
    const dated = await camino.h.call('platform_getMultisigAlias', { address: `P-${address}` });
    expect(dated.text).toContain(`(locked until ${new Date((camino.now + 30 * DAY) * 1000).toISOString()})`);
    alias.owner.locktime = 2n ** 64n - 1n;
    const never = await camino.h.call('platform_getMultisigAlias', { address: `P-${address}` });
    expect(never.text).toContain(`(locked until ${2n ** 64n - 1n})`);
  });
});
