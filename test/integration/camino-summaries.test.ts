import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Devnet, startDevnet } from '../../src/devnet/index.js';
import { claimableReward, type DevnetState, fund, registeredId, unlockableAmount } from '../../src/devnet/state/index.js';
import { RpcFault } from '../../src/devnet/rpc.js';
import { inMemoryStack, type Stack } from '../helpers/stack.js';

/**
 * Issue 44: the Camino holder answers a person acts on, through a real MCP client against a
 * camino-dialect simulator whose clock is held still (rewards grow each second). Each truth is the
 * simulator's own state, computed as caminogo does (deposit/camino_deposit.go, camino_service.go).
 */

// biome-ignore lint/suspicious/noExplicitAny: structured results are checked field by field
type Rec = Record<string, any>;
const DAY = 86_400;

const offerOf = (state: DevnetState, id: string) => {
  const d = state.deposits.get(id)!;
  return { d, offer: state.depositOffers.find((o) => o.id === d.offerID)! };
};

describe('Camino reads and holder summaries (camino dialect, clock held)', () => {
  let devnet: Devnet;
  let stack: Stack;
  let now: number;
  beforeAll(async () => {
    devnet = await startDevnet({ dialect: 'camino' });
    now = devnet.state.now();
    devnet.state.now = () => now;
    stack = await inMemoryStack({ devnet });
  });
  afterAll(async () => {
    await stack.close();
    await devnet.close();
  });

  it('platform_getDeposits: "unlockable now" is the linear share less what was already unlocked', async () => {
    const id = registeredId('deposit:1');
    const { d, offer } = offerOf(devnet.state, id);
    const before = d.unlockedAmount;
    // 100 CAM of it came back in an earlier unlock.
    d.unlockedAmount = 100_000_000_000n;
    try {
      const r = await stack.call('platform_getDeposits', { depositTxIDs: [id] });
      expect(r.isError, r.text).toBe(false);
      const got = (r.structured!.deposits as Rec[])[0]!;
      const periodStart = d.start + d.duration - offer.unlockPeriodDuration;
      const linear = (d.amount * BigInt(now - periodStart)) / BigInt(offer.unlockPeriodDuration);
      expect(linear).toBeGreaterThan(d.unlockedAmount);
      expect(got.unlockableNow.value).toBe(String(linear - d.unlockedAmount));
      // The simulator refuses an unlock above this (caminogo UnlockableAmount): the same figure.
      expect(got.unlockableNow.value).toBe(String(unlockableAmount(d, offer, now)));
      expect(r.text).toContain(`${got.unlockableNow.display} can be unlocked now`);
    } finally {
      d.unlockedAmount = before;
    }
  });

  it('platform_getDeposits: with no unlock period, everything not yet unlocked is unlockable once the deposit ended', async () => {
    const id = registeredId('deposit:1');
    const { d, offer } = offerOf(devnet.state, id);
    const [period, held, unlocked] = [offer.unlockPeriodDuration, now, d.unlockedAmount];
    offer.unlockPeriodDuration = 0;
    now = d.start + d.duration + DAY;
    d.unlockedAmount = 250_000_000_000n;
    try {
      const r = await stack.call('platform_getDeposits', { depositTxIDs: [id] });
      expect(r.isError, r.text).toBe(false);
      expect((r.structured!.deposits as Rec[])[0]!.unlockableNow.value).toBe(String(d.amount - d.unlockedAmount));
    } finally {
      offer.unlockPeriodDuration = period;
      now = held;
      d.unlockedAmount = unlocked;
    }
  });

  it('platform_getClaimables finds a joint owner whose addresses are given in another order than the node keeps them', async () => {
    const state = devnet.state;
    const d0 = state.users.get('devnet')!.keys[0]!;
    const a0 = state.users.get('alice')!.keys[0]!;
    const owner = { locktime: 0n, threshold: 2, addresses: [d0.p, a0.p] };
    state.claimables.push({ owner, validatorRewards: 7_000_000_000n, expiredDepositRewards: 250_000_000n });
    // A deposit d0 holds whose reward owner is the same joint owner (getDeposits answers it as the node keeps it).
    const { d, offer } = offerOf(state, registeredId('deposit:0'));
    const before = d.rewardOwner;
    d.rewardOwner = owner;
    try {
      const r = await stack.call('platform_getClaimables', { addresses: [a0.p, d0.p], threshold: 2 });
      expect(r.isError, r.text).toBe(false);
      const c = (r.structured!.claimables as Rec[])[0]!;
      const reward = claimableReward(d, offer, now);
      expect(c.found).toBe(true);
      expect(c.validatorRewards.value).toBe('7000000000');
      expect(c.expiredDepositRewards.value).toBe('250000000');
      expect(c.depositRewards.value).toBe(String(reward));
      expect(c.total.value).toBe(String(7_250_000_000n + reward));
      expect(r.text).not.toContain('nothing claimable');
      expect(r.text).toContain(`2 of ${a0.p}, ${d0.p}: ${c.total.display}`);
    } finally {
      state.claimables.pop();
      d.rewardOwner = before;
    }
  });

  it("platform_getClaimables: the headline counts the held deposits' rewards and names each deposit to claim", async () => {
    const state = devnet.state;
    const key = devnet.localKey;
    const held = [registeredId('local-signer:deposit'), registeredId('local-signer:expired-deposit')];
    const rewards = held.map((id) => {
      const { d, offer } = offerOf(state, id);
      return claimableReward(d, offer, now);
    });
    const validator = state.claimables.find((c) => c.owner.addresses.length === 1 && c.owner.addresses[0] === key.p)!;
    expect(rewards[0]).toBeGreaterThan(0n);
    const r = await stack.call('platform_getClaimables', { addresses: [key.p] });
    expect(r.isError, r.text).toBe(false);
    const total = validator.validatorRewards + validator.expiredDepositRewards + rewards.reduce((s, x) => s + x, 0n);
    expect((r.structured as Rec).total.value).toBe(String(total));
    const c = (r.structured!.claimables as Rec[])[0]!;
    expect(c.depositRewards.value).toBe(String(rewards.reduce((s, x) => s + x, 0n)));
    expect(c.deposits).toHaveLength(held.length);
    expect(c.deposits).toEqual(expect.arrayContaining(held.map((depositTxID, i) => ({ depositTxID, claimable: expect.objectContaining({ value: String(rewards[i]) }) }))));
    const lines = r.text.split('\n');
    expect(lines[0]).toContain(`Claimable now: ${(r.structured as Rec).total.display} in total`);
    // What to do next names the IDs it needs; platform_getDeposits without them is no next step.
    for (const id of held) expect(r.text).toContain(`of deposit ${id}`);
    expect(r.text).not.toContain('see platform_getDeposits');
  });

  it('platform_getUpgradePhases says Athens is active only once the chain time reached it', async () => {
    const state = devnet.state;
    const at = state.athensPhaseTime;
    state.athensPhaseTime = now + DAY;
    try {
      const r = await stack.call('platform_getUpgradePhases');
      expect(r.structured).toEqual({ athensPhase: '0', athensActive: false });
      expect(r.text).toContain('not active yet');
    } finally {
      state.athensPhaseTime = at;
    }
    const active = await stack.call('platform_getUpgradePhases');
    expect(active.structured).toEqual({ athensPhase: '1', athensActive: true });
  });

  it("account_overview: a jointly owned deposit's reward is not counted as this address's, and the lock says who claims it", async () => {
    const state = devnet.state;
    const d0 = state.users.get('devnet')!.keys[0]!;
    const a0 = state.users.get('alice')!.keys[0]!;
    const joint = registeredId('deposit:0');
    const { d, offer } = offerOf(state, joint);
    const before = d.rewardOwner;
    d.rewardOwner = { locktime: 0n, threshold: 1, addresses: [d0.p, a0.p] };
    try {
      const r = await stack.call('account_overview', { addresses: [d0.p] });
      expect(r.isError, r.text).toBe(false);
      const account = (r.structured!.accounts as Rec[])[0]!;
      const alone = offerOf(state, registeredId('deposit:1'));
      const own = claimableReward(alone.d, alone.offer, now);
      expect(claimableReward(d, offer, now)).toBeGreaterThan(0n);
      expect(account.claimable.depositRewards.value).toBe(String(own));
      const c = state.claimables.find((x) => x.owner.addresses.length === 1 && x.owner.addresses[0] === d0.p)!;
      expect(account.claimable.total.value).toBe(String(own + c.validatorRewards + c.expiredDepositRewards));
      const line = r.text.split('\n').find((l) => l.includes(`deposit ${joint}`))!;
      expect(line).toContain(`claimable now by its reward owner 1 of ${d0.p}, ${a0.p}, not this address alone`);
    } finally {
      d.rewardOwner = before;
    }
  });

  it('account_overview: a stake on a validator that has not started shows its start and end; bonded-only funds are explained', async () => {
    const state = devnet.state;
    const a1 = state.users.get('alice')!.keys[1]!;
    const pending = state.pendingValidators[0]!;
    fund(state, 'P', a1.p, [40_000_000_000n], { lock: 'bonded', bondTxID: pending.txID });
    const owner = { locktime: 0n, threshold: 1, addresses: [a1.p] };
    state.claimables.push({ owner, validatorRewards: 3_000_000_000n, expiredDepositRewards: 0n });
    try {
      const r = await stack.call('account_overview', { addresses: [a1.p] });
      expect(r.isError, r.text).toBe(false);
      const account = (r.structured!.accounts as Rec[])[0]!;
      expect(account.p.bonded.value).toBe('40000000000');
      expect(account.locks).toEqual([
        expect.objectContaining({ reason: 'bond', bondTxID: pending.txID, nodeID: pending.nodeID, bondStart: expect.objectContaining({ unix: String(pending.startTime) }), until: expect.objectContaining({ unix: String(pending.endTime) }) }),
      ]);
      const start = new Date(pending.startTime * 1000).toISOString().slice(0, 10);
      const end = new Date(pending.endTime * 1000).toISOString().slice(0, 10);
      const line = r.text.split('\n').find((l) => l.includes(`bond ${pending.txID}`))!;
      // "about" unless the call lands in the clock's own second (the server's clock words it).
      expect(line).toMatch(new RegExp(`40 CAM bonded to ${pending.nodeID}, staking starts ${start} \\(in (about )?2 days\\) until ${end}`));
      expect(r.text).not.toContain('end unknown');
      expect(r.text).toContain('claimable now: 3 CAM (deposit rewards 0 CAM, validator rewards 3 CAM');
    } finally {
      state.claimables.pop();
    }
  });

  it('account_overview never suggests one unlock for an ended and a running deposit together (the node refuses the mix)', async () => {
    const key = devnet.localKey;
    const running = registeredId('local-signer:deposit');
    const ended = registeredId('local-signer:expired-deposit');
    const r = await stack.call('account_overview', { addresses: [key.p] });
    expect(r.isError, r.text).toBe(false);
    const hints = r.text.split('\n').filter((l) => l.includes('platform_unlockDeposit'));
    expect(hints.map((l) => l.slice(l.indexOf('{')))).toEqual([JSON.stringify({ depositTxIDs: [ended] }), JSON.stringify({ depositTxIDs: [running] })].map((j) => j.replace(':', ': ')));
  });

  // Last: it replaces the node's platform.getUTXOs for the rest of this devnet.
  it("platform_getClaimables still answers the node's figures when the deposits cannot be read, and says what is left out", async () => {
    const d0 = devnet.state.users.get('devnet')!.keys[0]!;
    devnet.router.on('/ext/P', 'platform.getUTXOs', () => {
      throw new RpcFault('utxo index offline');
    });
    const r = await stack.call('platform_getClaimables', { addresses: [d0.p] });
    expect(r.isError, r.text).toBe(false);
    const c = devnet.state.claimables.find((x) => x.owner.addresses.length === 1 && x.owner.addresses[0] === d0.p)!;
    expect((r.structured as Rec).total.value).toBe(String(c.validatorRewards + c.expiredDepositRewards));
    expect((r.structured as Rec).depositsNotRead).toContain('utxo index offline');
    expect(r.text.split('\n')[1]).toContain('Deposit rewards not read, so not in the total: ');
  });
});
