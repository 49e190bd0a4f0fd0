import { roughDuration } from '../../src/codec/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inMemoryStack, type Stack } from '../helpers/stack.js';

// biome-ignore lint/suspicious/noExplicitAny: structured results are checked field by field
type Rec = Record<string, any>;

describe('composite read tools against the devnet, cross-checked with single operations', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await inMemoryStack();
  });
  afterAll(() => stack.close());

  it('validator_lookup: a current validator matches platform_getCurrentValidators, with time left', async () => {
    const v0 = stack.devnet.state.validators[0]!;
    const single = await stack.call('platform_getCurrentValidators', { nodeIDs: [v0.nodeID], delegatorLimit: 20 });
    const expected = (single.structured as Rec).validators[0]!;
    const look = await stack.call('validator_lookup', { nodeID: v0.nodeID });
    expect(look.isError).toBe(false);
    const s = look.structured as Rec;
    expect(s.status).toBe('current');
    expect(s).toMatchObject({
      txID: expected.txID,
      startTime: expected.startTime,
      endTime: expected.endTime,
      stakeAmount: expected.stakeAmount,
      uptime: expected.uptime,
      connected: expected.connected,
      delegationFee: expected.delegationFee,
      potentialReward: expected.potentialReward,
      rewardOwner: expected.rewardOwner.addresses,
      delegators: { count: expected.delegatorCount, stake: expected.delegatedStake },
    });
    const left = BigInt(v0.endTime) - BigInt(Math.floor(Date.now() / 1000));
    expect(Number(BigInt(s.timeLeft.seconds) - left)).toBeLessThanOrEqual(2);
    expect(s.period.seconds).toBe(String(BigInt(v0.endTime) - BigInt(v0.startTime)));
    expect(look.text).toContain('current validator');
    expect(look.text).toContain(expected.stakeAmount.display);
    expect(look.text).toContain(`${expected.delegatorCount} delegator(s)`);
  });

  it('validator_lookup: a pending validator, its pending delegators, and an unknown node', async () => {
    const pv = stack.devnet.state.pendingValidators[0]!;
    const single = await stack.call('platform_getPendingValidators', { nodeIDs: [pv.nodeID] });
    const before = Date.now();
    const look = await stack.call('validator_lookup', { nodeID: pv.nodeID });
    const s = look.structured as Rec;
    expect(s.status).toBe('pending');
    const pExpected = (single.structured as Rec).validators[0];
    expect(s).toMatchObject({ txID: pExpected.txID, startTime: pExpected.startTime, endTime: pExpected.endTime, stakeAmount: pExpected.stakeAmount });
    // Seconds from the call to the validator's start (the call happened between these two clock reads).
    const startUnix = BigInt(pExpected.startTime.unix);
    const [earliest, latest] = [startUnix - BigInt(Math.floor(Date.now() / 1000)), startUnix - BigInt(Math.floor(before / 1000))];
    expect(BigInt(s.startsIn.seconds)).toBeGreaterThanOrEqual(earliest);
    expect(BigInt(s.startsIn.seconds)).toBeLessThanOrEqual(latest);
    expect(BigInt(s.startsIn.seconds)).toBeGreaterThan(0n);
    // The text rounds as a person would (about 2 days), the structured seconds stay exact.
    expect(look.text).toContain(`starts in ${roughDuration(BigInt(s.startsIn.seconds))}`);
    expect(look.text).not.toMatch(/starts in 1 day 23 h/);

    const pd = stack.devnet.state.pendingDelegators[0]!;
    const withPending = (await stack.call('validator_lookup', { nodeID: pd.nodeID })).structured as Rec;
    expect(withPending.pendingDelegators.count).toBeGreaterThanOrEqual(1);
    expect(withPending.pendingDelegators.stake.value).toBe(
      String(stack.devnet.state.pendingDelegators.filter((d) => d.nodeID === pd.nodeID).reduce((t, d) => t + d.stakeAmount, 0n)),
    );

    const none = await stack.call('validator_lookup', { nodeID: 'NodeID-MFrZFVCXPv5iCn6M9K6XduxGTYp891xXZ' });
    expect(none.structured?.status).toBe('not_found');
    expect(none.text).toMatch(/neither a current nor a pending validator/);
  });

  it('validator_lookup refuses a bad node ID naming the field, sending nothing', async () => {
    stack.devnet.router.record = true;
    stack.devnet.router.requests.length = 0;
    const bad = await stack.call('validator_lookup', { nodeID: 'NodeID-xyz' });
    expect(bad.isError).toBe(true);
    expect(bad.text).toMatch(/nodeID/);
    expect(stack.devnet.router.requests).toHaveLength(0);
    stack.devnet.router.record = false;
  });

  it('network_overview: one call agrees with the info and platform tools', async () => {
    const o = await stack.call('network_overview');
    expect(o.isError).toBe(false);
    const s = o.structured as Rec;
    const [id, name, version, fee, height, supply, conf, offers] = await Promise.all(
      ['info_getNetworkID', 'info_getNetworkName', 'info_getNodeVersion', 'info_getTxFee', 'platform_getHeight', 'platform_getCurrentSupply', 'platform_getConfiguration', 'platform_getAllDepositOffers'].map(
        async (n) => (await stack.call(n)).structured as Rec,
      ),
    );
    expect(s.networkID).toBe(id!.networkID);
    expect(s.networkName).toBe(name!.networkName);
    expect(s.nodeVersion).toBe(version!.version);
    expect(s.txFee).toEqual(fee!.txFee);
    expect(s.pHeight).toBe(height!.height);
    expect(s.cHeight).toBe(((await stack.call('eth_blockNumber')).structured as Rec).blockNumber);
    expect(s.supply).toEqual(supply!.supply);
    expect(s.hrp).toBe(conf!.hrp);
    expect(s.staking.minValidatorStake).toEqual(conf!.minValidatorStake);
    expect(s.staking.minStakeDuration).toEqual(conf!.minStakeDuration);
    expect(s.bootstrapped).toEqual({ X: true, P: true, C: true });
    expect(s.depositOffers.count).toBe(offers!.count);
    expect(s.depositOffers.open).toBe(offers!.open);
    expect(s.depositOffers.offers.map((x: Rec) => x.id).sort()).toEqual(
      (offers!.depositOffers as Rec[]).slice(0, 10).map((x) => x.id).sort(),
    );
    expect(s.problems).toEqual([]);
    expect(o.text).toContain(`ID ${id!.networkID}`);
    expect(o.text).toMatch(/Deposit offers: \d+, \d+ open for new deposits/);
  });

  it('network_overview reports a failing part and still answers the rest', async () => {
    const own = await inMemoryStack();
    try {
      own.devnet.router.on('/ext/info', 'info.isBootstrapped', (p) => ({ isBootstrapped: (p as Rec).chain !== 'C' }));
      own.devnet.router.on('/ext/P', 'platform.getCurrentSupply', () => {
        throw new Error('database closed');
      });
      const o = await own.call('network_overview');
      const s = o.structured as Rec;
      expect(o.isError).toBe(false);
      expect(s.bootstrapped).toEqual({ X: true, P: true, C: false });
      expect(s.supply).toBeUndefined();
      expect(s.pHeight).toBe((await own.call('platform_getHeight')).structured?.height);
      expect(s.pHeight).toBe(String(own.devnet.state.pBlocks.length - 1));
      expect(s.problems).toEqual([{ step: 'supply', error: expect.stringContaining('database closed') }]);
      expect(o.text).toMatch(/C NO/);
      expect(o.text).toMatch(/Could not read: supply/);
    } finally {
      await own.close();
    }
  });
});
