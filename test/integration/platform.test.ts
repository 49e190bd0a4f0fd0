import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addManyValidators } from '../../src/devnet/state/index.js';
import { inMemoryStack, type Stack } from '../helpers/stack.js';

describe('platform toolset against the devnet', () => {
  let stack: Stack;
  let pAddr: string;
  beforeAll(async () => {
    stack = await inMemoryStack();
    pAddr = stack.devnet.state.users.get('devnet')!.keys[0]!.p;
  });
  afterAll(() => stack.close());

  it('explains the configuration in display units and durations', async () => {
    const r = await stack.call('platform_getConfiguration');
    expect(r.isError).toBe(false);
    expect(r.text).toContain('address prefix "local"');
    expect(r.text).toContain('Validator stake 2,000 CAM to 3,000,000 CAM');
    expect(r.text).toContain('Stake duration 14 days to 365 days');
    expect(r.text).toContain('minimum delegation fee 2 %');
    expect(r.structured!.minStakeDuration).toEqual({ seconds: String(14 * 86400), human: '14 days' });
  });

  it('summarizes current validators: count, stake, connected, ending soonest, paging', async () => {
    const state = stack.devnet.state;
    const primary = state.validators.filter((v) => v.subnetID === state.primaryNetworkID);
    const r = await stack.call('platform_getCurrentValidators', { limit: 3 });
    expect(r.isError).toBe(false);
    const connected = primary.filter((v) => v.connected).length;
    expect(r.text).toContain(`${primary.length} current validator(s) on the primary network; ${connected} connected.`);
    const soonest = [...primary].sort((a, b) => a.endTime - b.endTime)[0]!;
    expect(r.text).toMatch(new RegExp(`Ending soonest:\\n- ${soonest.nodeID} ends in`));
    expect((r.structured!.validators as unknown[]).length).toBe(3);
    expect(r.text).toContain('call again with offset 3');
    const stats = r.structured!.stats as { totalStake: { value: string }; delegatorCount: number };
    expect(stats.totalStake.value).toBe(String(primary.reduce((s, v) => s + v.stakeAmount, 0n)));
    expect(stats.delegatorCount).toBe(primary.reduce((s, v) => s + v.delegators.length, 0));

    const down = await stack.call('platform_getCurrentValidators', { connected: false });
    expect((down.structured!.validators as Array<{ connected: boolean }>).every((v) => v.connected === false)).toBe(true);
    expect(down.structured!.matched).toBe(primary.length - connected);

    const one = await stack.call('platform_getCurrentValidators', { nodeIDs: [primary[1]!.nodeID] });
    expect((one.structured!.stats as { count: number }).count).toBe(1);
  });

  it('lists subnet validators by weight', async () => {
    const state = stack.devnet.state;
    const subnet = state.subnets[1]!;
    const r = await stack.call('platform_getCurrentValidators', { subnetID: subnet.id });
    expect(r.text).toContain(`on subnet ${subnet.id}`);
    expect(r.text).toContain('weight 100');
  });

  it('summarizes pending validators and delegators', async () => {
    const r = await stack.call('platform_getPendingValidators');
    expect(r.text).toContain('2 pending validator(s)');
    expect(r.text).toContain('1 pending delegator(s) with 50 CAM');
    // 48 h after the seed: exactly 2 days when asked within the seed's second, else about 2 days.
    expect(r.text).toMatch(/starts in (about )?2 days/);
  });

  it('splits the P balance by lock state and says why locked funds cannot be spent', async () => {
    const r = await stack.call('platform_getBalance', { addresses: [pAddr] });
    expect(r.text).toContain('total 6,569.999 CAM: 3,069.999 CAM unlocked, 2,000 CAM bonded, 500 CAM deposited, 1,000 CAM bonded and deposited');
    expect(r.text).toContain('Only unlocked funds can be spent or pay fees');
    const asset = (r.structured!.assets as Array<{ bonded: { value: string } }>)[0]!;
    expect(asset.bonded.value).toBe('2000000000000');
  });

  it('decodes address states, including unknown bits', async () => {
    const r = await stack.call('platform_getAddressStates', { address: pAddr });
    expect(r.structured!.states).toEqual(['AddressStateRoleAdmin', 'AddressStateKycVerified']);
    const a1 = stack.devnet.state.users.get('alice')!.keys[1]!.p;
    const r2 = await stack.call('platform_getAddressStates', { address: a1 });
    expect(r2.structured!.states).toEqual(['AddressStateKycExpired']);
    expect(r2.structured!.unknownBits).toEqual([5]);
    expect(r2.text).toContain('unknown bit 5');
  });

  it('lists deposit offers active now, with percent, durations, memo and flags', async () => {
    const r = await stack.call('platform_getAllDepositOffers');
    expect(r.structured!.count).toBe(2);
    expect(r.text).toContain('12.5 % a year "Premium two-year lock" [NOT open: locked (flags bit 0): the node refuses new deposits]: deposit 365 days to 730 days');
    expect(r.text).toContain('8 % a year "Standard 8% offer"');
    expect(r.text).not.toContain('ended');
    // An explicit time long ago finds the expired launch promotion instead.
    const past = stack.devnet.state.genesisTime - 200 * 86400;
    const old = await stack.call('platform_getAllDepositOffers', { timestamp: past });
    expect(old.text).toContain('Launch promotion (ended)');
  });

  it('answers height, block, chains, subnets, supply, stakes and reward UTXOs', async () => {
    const state = stack.devnet.state;
    expect((await stack.call('platform_getHeight')).structured!.height).toBe(String(state.pBlocks.length - 1));
    const block = state.pBlocks[3]!;
    const b = await stack.call('platform_getBlock', { blockID: block.id, encoding: 'json' });
    expect(b.text).toContain(`at height 3, parent ${block.parentID}, 1 transaction(s)`);
    const bytes = await stack.call('platform_getBlock', { blockID: block.id });
    expect(bytes.text).toContain('Ask with encoding json');
    expect((await stack.call('platform_getBlockchains')).text).toContain('4 blockchain(s) besides the P-Chain');
    const status = await stack.call('platform_getBlockchainStatus', { blockchainID: state.chains.X });
    expect(status.text).toContain('Validating, validated by this node');
    const subnet = state.subnets[1]!;
    expect((await stack.call('platform_getSubnets', { ids: [subnet.id] })).text).toContain('1 of 2 control key(s) must sign');
    expect((await stack.call('platform_validates', { subnetID: subnet.id })).structured!.blockchainIDs).toHaveLength(1);
    expect((await stack.call('platform_validatedBy', { blockchainID: state.chains.C })).text).toContain('the primary network');
    expect((await stack.call('platform_getMinStake')).text).toBe('Minimum stake: 2,000 CAM to validate, 25 CAM to delegate.');
    expect((await stack.call('platform_getCurrentSupply')).structured!.supply).toEqual({ value: String(state.supply), display: expect.stringContaining('CAM') });
    expect((await stack.call('platform_getStakingAssetID')).structured!.assetID).toBe(state.nativeAssetID);
    const [stakingTx] = [...state.rewardUtxos.entries()].find(([, ids]) => ids.length > 0)!;
    const rewards = await stack.call('platform_getRewardUTXOs', { txID: stakingTx });
    expect(rewards.text).toContain('2 reward UTXO(s)');
    expect(rewards.text).toContain('total 163.2 CAM');
    const v = state.validators[2]!;
    const max = await stack.call('platform_getMaxStakeAmount', { nodeID: v.nodeID, startTime: v.startTime, endTime: v.endTime });
    const peak = v.stakeAmount + v.delegators.reduce((s, d) => s + d.stakeAmount, 0n);
    expect((max.structured!.amount as { value: string }).value).toBe(String(peak));
  });

  it('passes node errors through as isError results', async () => {
    const r = await stack.call('platform_validates', { subnetID: stack.devnet.state.nativeAssetID });
    expect(r.isError).toBe(true);
    expect(r.text).toContain('not found');
  });

  it('refuses bad input naming the field, sending nothing', async () => {
    const router = stack.devnet.router;
    router.record = true;
    router.requests.length = 0;
    const xAddr = stack.devnet.state.users.get('devnet')!.keys[0]!.x;
    const cases: Array<[string, Record<string, unknown>, RegExp]> = [
      ['platform_getBalance', { addresses: [xAddr] }, /addresses\[0\].*P chain/],
      ['platform_getBalance', { addresses: [`${pAddr.slice(0, -1)}q`] }, /addresses\[0\].*checksum/],
      ['platform_getAddressStates', { address: 'local1abc' }, /address.*chain prefix/],
      ['platform_getCurrentValidators', { nodeIDs: ['NodeID-xyz'] }, /nodeIDs\[0\]/],
      ['platform_getCurrentValidators', { limit: 1000 }, /limit.*at most 100/],
      ['platform_getBlock', { blockID: 'not-an-id' }, /blockID/],
      ['platform_getBlock', { blockID: stack.devnet.state.pBlocks[0]!.id, encoding: 'base64' }, /encoding/],
      ['platform_getAllDepositOffers', { timestamp: 'yesterday' }, /timestamp/],
      ['platform_getMaxStakeAmount', { nodeID: stack.devnet.state.nodeID, startTime: -1, endTime: 5 }, /startTime/],
    ];
    for (const [tool, args, pattern] of cases) {
      const r = await stack.call(tool, args);
      expect(r.isError, `${tool} ${JSON.stringify(args)}`).toBe(true);
      expect(r.text).toMatch(pattern);
    }
    expect(router.requests).toHaveLength(0);
    router.record = false;
  });
});

describe('output budget with 1,000 validators', () => {
  it('keeps the summary under 8 KB and counts all of them', async () => {
    const stack = await inMemoryStack();
    try {
      addManyValidators(stack.devnet.state, 1000, 3);
      const r = await stack.call('platform_getCurrentValidators', { limit: 100, delegatorLimit: 100 });
      expect(r.isError).toBe(false);
      expect(Buffer.byteLength(r.text, 'utf8')).toBeLessThan(8 * 1024);
      expect(r.text).not.toContain('cut to fit');
      expect(r.text).toContain('1008 current validator(s) on the primary network');
      expect((r.structured!.stats as { delegatorCount: number }).delegatorCount).toBe(3000 + 7);
      expect(JSON.stringify(r.structured).length).toBeLessThan(400_000);
    } finally {
      await stack.close();
    }
  });
});
