import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDevnet } from '../../src/devnet/index.js';
import type { DevnetDialect } from '../../src/devnet/rpc.js';
import type { DevnetState } from '../../src/devnet/state/index.js';
import { inMemoryStack, type Stack } from '../helpers/stack.js';

// biome-ignore lint/suspicious/noExplicitAny: structured results are checked field by field
type Rec = Record<string, any>;

/** The offers in their period now, and those a Camino node would take a new deposit into (caminogo's deposit tx rules). */
function offersNow(state: DevnetState) {
  const now = Math.floor(Date.now() / 1000);
  const listed = state.depositOffers.filter((o) => o.start <= now && now <= o.end);
  const full = (o: DevnetState['depositOffers'][number]) => (o.totalMaxAmount ?? 0n) > 0n && (o.totalMaxAmount ?? 0n) - (o.depositedAmount ?? 0n) < o.minAmount;
  return { listed, open: listed.filter((o) => (o.flags & 1n) === 0n && !full(o)) };
}

describe.each(['spec', 'camino'] as DevnetDialect[])('deposit offers and stake totals (%s node)', (dialect) => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await inMemoryStack({ devnet: await startDevnet({ dialect }) });
  });
  afterAll(async () => {
    await stack.close();
    await stack.devnet.close();
  });

  it('platform_getAllDepositOffers says which offers take new deposits now and why the others do not, counting only those as open', async () => {
    const { listed, open } = offersNow(stack.devnet.state);
    expect(open.length).toBeGreaterThan(0);
    expect(open.length).toBeLessThan(listed.length); // the seed's premium offer is locked
    const r = await stack.call('platform_getAllDepositOffers');
    const o = r.structured as Rec;
    expect(o.count).toBe(listed.length);
    expect(o.open).toBe(open.length);
    expect((o.depositOffers as Rec[]).filter((d) => d.open).map((d) => d.id).sort()).toEqual(open.map((d) => d.id).sort());
    expect(r.text).toContain(`${listed.length} offer(s), ${open.length} open for new deposits`);
    expect(r.text).toMatch(/"Premium two-year lock" \[NOT open: locked \(flags bit 0\): the node refuses new deposits\]/);
    expect(r.text).toMatch(/"Standard 8% offer" \[open for new deposits\]/);
  });

  it('network_overview counts the open offers and explains each closed one', async () => {
    const { listed, open } = offersNow(stack.devnet.state);
    const r = await stack.call('network_overview');
    const s = r.structured as Rec;
    expect(s.depositOffers).toMatchObject({ count: listed.length, open: open.length });
    expect(r.text).toContain(`Deposit offers: ${listed.length}, ${open.length} open for new deposits:`);
    expect(r.text).toMatch(/12\.5 % a year \[NOT open: locked \(flags bit 0\)/);
    expect(r.text).not.toMatch(/active now/);
  });

  it('network_overview gives total stake, delegated stake, validator count and the minimums', async () => {
    const state = stack.devnet.state;
    const current = state.validators.filter((v) => v.subnetID === state.primaryNetworkID);
    const own = current.reduce((t, v) => t + v.stakeAmount, 0n);
    const delegated = current.reduce((t, v) => t + v.delegators.reduce((d, x) => d + x.stakeAmount, 0n), 0n);
    const delegators = current.reduce((t, v) => t + v.delegators.length, 0);
    expect(delegated).toBeGreaterThan(0n);
    const r = await stack.call('network_overview');
    const s = r.structured as Rec;
    expect(s.stake).toMatchObject({
      validators: current.length,
      delegators,
      validatorStake: { value: own.toString() },
      delegatedStake: { value: delegated.toString() },
      totalStake: { value: (own + delegated).toString() },
    });
    expect(s.staking.minValidatorStake.value).toBe(state.config.minValidatorStake.toString());
    expect(s.staking.minDelegatorStake.value).toBe(state.config.minDelegatorStake.toString());
    expect(r.text).toContain(`Staked: ${s.stake.totalStake.display} in total, ${s.stake.validatorStake.display} by ${current.length} validator(s)`);
    expect(r.text).toMatch(/Staking minimums: validators /);
  });
});

// Only a real node's offer carries totalMaxAmount and depositedAmount (the spec's has no caps).
describe('a full deposit offer (camino node)', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await inMemoryStack({ devnet: await startDevnet({ dialect: 'camino' }) });
  });
  afterAll(async () => {
    await stack.close();
    await stack.devnet.close();
  });

  it('an offer whose total maximum is deposited is full, not open', async () => {
    const { listed, open } = offersNow(stack.devnet.state);
    const standard = stack.devnet.state.depositOffers.find((o) => open.includes(o))!;
    standard.totalMaxAmount = 50_000_000_000n;
    standard.depositedAmount = 50_000_000_000n;
    try {
      const r = await stack.call('platform_getAllDepositOffers');
      expect((r.structured as Rec).open).toBe(open.length - 1);
      expect(r.text).toContain(`${listed.length} offer(s), ${open.length - 1} open for new deposits`);
      expect(r.text).toMatch(/\[NOT open: full: its total maximum is deposited\]/);
      expect(r.text).toContain('50 CAM of 50 CAM deposited');
    } finally {
      delete standard.totalMaxAmount;
      delete standard.depositedAmount;
    }
  });
});
