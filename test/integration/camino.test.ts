import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Devnet, startDevnet } from '../../src/devnet/index.js';
import { addAsset, registeredId } from '../../src/devnet/state/index.js';
import { inMemoryStack, type Stack } from '../helpers/stack.js';

/**
 * Camino's own P-Chain reads (REAL-WIRE.md, caminogo camino_service.go) through a real MCP client:
 * the request on the wire, the holder's figures computed from the simulator's state, and a node of
 * the spec's API saying plainly that it does not offer them.
 */


const YEAR = 31_536_000n;

function sent(devnet: Devnet, method: string) {
  return devnet.router.requests.filter((r) => (r.body as { method?: string })?.method === method).map((r) => (r.body as { params?: unknown }).params);
}

describe('Camino reads against a camino-dialect node', () => {
  let devnet: Devnet;
  let stack: Stack;
  beforeAll(async () => {
    devnet = await startDevnet({ dialect: 'camino', keystoreApi: true });
    devnet.router.record = true;
    stack = await inMemoryStack({ devnet, env: { CHAIN_MCP_KEYSTORE_USER: devnet.keystore.username, CHAIN_MCP_KEYSTORE_PASSWORD: devnet.keystore.password } });
  });
  afterAll(async () => {
    await stack.close();
    await devnet.close();
  });

  it('platform_getDeposits: unlock time = start + duration, rewards from the offer, claimable now from the node', async () => {
    const state = devnet.state;
    const ids = [registeredId('deposit:0'), registeredId('deposit:1')];
    const r = await stack.call('platform_getDeposits', { depositTxIDs: ids });
    expect(r.isError, r.text).toBe(false);
    expect(sent(devnet, 'platform.getDeposits').at(-1)).toEqual({ depositTxIDs: ids });
    const deposits = r.structured!.deposits as Array<Record<string, { value?: string; unix?: string; iso?: string }> & { depositTxID: string }>;
    const now = BigInt((r.structured!.timestamp as { unix: string }).unix);
    for (const [i, id] of ids.entries()) {
      const d = state.deposits.get(id)!;
      const offer = state.depositOffers.find((o) => o.id === d.offerID)!;
      const got = deposits[i]!;
      expect(got.depositTxID).toBe(id);
      expect(got.amount!.value).toBe(String(d.amount));
      expect(got.unlockTime!.unix).toBe(String(d.start + d.duration));
      expect(got.unlockPeriodStart!.unix).toBe(String(d.start + d.duration - offer.unlockPeriodDuration));
      const rewardsEnd = BigInt(d.start + d.duration - offer.noRewardsPeriodDuration);
      const accrue = (until: bigint) => (d.amount * (until - BigInt(d.start)) * offer.interestRateNominator) / (1_000_000n * YEAR);
      expect(got.totalReward!.value).toBe(String(accrue(rewardsEnd)));
      const earned = accrue(now < rewardsEnd ? now : rewardsEnd);
      expect(got.rewardEarned!.value).toBe(String(earned));
      expect(got.claimableReward!.value).toBe(String(earned - d.claimedRewardAmount));
    }
    // The second deposit is in its unlock period: a linear share is unlockable now.
    const d1 = state.deposits.get(ids[1]!)!;
    const offer = state.depositOffers.find((o) => o.id === d1.offerID)!;
    const periodStart = BigInt(d1.start + d1.duration - offer.unlockPeriodDuration);
    expect(deposits[1]!.unlockableNow!.value).toBe(String((d1.amount * (now - periodStart)) / BigInt(offer.unlockPeriodDuration)));
    expect(deposits[0]!.unlockableNow!.value).toBe('0');
    expect(r.text).toContain('500 CAM in 8 % a year');
    // "about" unless the call lands in the seed's own second.
    expect(r.text).toMatch(/until \d{4}-\d\d-\d\d \d\d:\d\d UTC \(in (about )?80 days\)/);
  });

  it('platform_getDeposits: an unknown ID fails the whole call with the node\'s text', async () => {
    const r = await stack.call('platform_getDeposits', { depositTxIDs: [registeredId('deposit:0'), registeredId('no-such-deposit')] });
    expect(r.isError).toBe(true);
    expect(r.text).toContain("could't get deposit from state: not found");
  });

  it('platform_getClaimables: one owner per address by default (threshold 1, locktime 0), matched by rewardOwner', async () => {
    const d0 = devnet.state.users.get('devnet')!.keys[0]!;
    const alice = devnet.state.users.get('alice')!.keys[0]!;
    const r = await stack.call('platform_getClaimables', { addresses: [alice.p, d0.p] });
    expect(r.isError, r.text).toBe(false);
    expect(sent(devnet, 'platform.getClaimables').at(-1)).toEqual({
      owners: [
        { locktime: '0', threshold: '1', addresses: [alice.p] },
        { locktime: '0', threshold: '1', addresses: [d0.p] },
      ],
    });
    const c = devnet.state.claimables[0]!;
    const list = r.structured!.claimables as Array<{ found: boolean; validatorRewards: { value: string }; expiredDepositRewards: { value: string }; depositRewards: { value: string }; deposits: Array<{ depositTxID: string; claimable: { value: string } }> }>;
    // The node answers only d0's owner; alice's is left out and must not take d0's figures.
    expect(list[0]!.found).toBe(false);
    expect(list[0]!.deposits).toEqual([]);
    expect(list[1]!.found).toBe(true);
    expect(list[1]!.validatorRewards.value).toBe(String(c.validatorRewards));
    expect(list[1]!.expiredDepositRewards.value).toBe(String(c.expiredDepositRewards));
    // d0's two deposits (its reward owner alone) are counted too, each by its ID.
    expect(list[1]!.deposits.map((d) => d.depositTxID).sort()).toEqual([registeredId('deposit:0'), registeredId('deposit:1')].sort());
    const deposits = list[1]!.deposits.reduce((sum, d) => sum + BigInt(d.claimable.value), 0n);
    expect(list[1]!.depositRewards.value).toBe(String(deposits));
    expect((r.structured!.total as { value: string }).value).toBe(String(c.validatorRewards + c.expiredDepositRewards + deposits));
    expect(r.text).toContain(`${alice.p}: nothing claimable`);
  });

  it('platform_getClaimables: defaults to the keystore user\'s addresses', async () => {
    const r = await stack.call('platform_getClaimables', {});
    expect(r.isError, r.text).toBe(false);
    const c = devnet.state.claimables[0]!;
    const deposits = (r.structured!.claimables as Array<{ depositRewards: { value: string } }>).reduce((sum, x) => sum + BigInt(x.depositRewards.value), 0n);
    expect(deposits).toBeGreaterThan(0n);
    expect((r.structured!.total as { value: string }).value).toBe(String(c.validatorRewards + c.expiredDepositRewards + deposits));
  });

  it('platform_getMultisigAlias: owners and threshold; an ordinary address is no alias', async () => {
    const [bare, alias] = [...devnet.state.multisigAliases][0]!;
    const r = await stack.call('platform_getMultisigAlias', { address: `P-${bare}` });
    expect(r.isError, r.text).toBe(false);
    expect(r.structured).toMatchObject({ isAlias: true, owners: alias.owner.addresses, threshold: '2', memo: 'treasury' });
    expect(r.text).toContain('2 of 2 owner(s) must sign');
    const none = await stack.call('platform_getMultisigAlias', { address: devnet.state.users.get('alice')!.keys[0]!.p });
    expect(none.isError).toBe(false);
    expect(none.structured!.isAlias).toBe(false);
  });

  it('platform_getRegisteredShortIDLink: both directions, and "not found" as nothing registered', async () => {
    const [nodeID, address] = [...devnet.state.nodeLinks][0]!;
    const a = await stack.call('platform_getRegisteredShortIDLink', { address: nodeID });
    expect(a.structured).toMatchObject({ linked: address, registered: true });
    const b = await stack.call('platform_getRegisteredShortIDLink', { address });
    expect(b.structured).toMatchObject({ linked: nodeID, registered: true });
    const c = await stack.call('platform_getRegisteredShortIDLink', { address: devnet.state.users.get('devnet')!.keys[1]!.p });
    expect(c.structured).toMatchObject({ registered: false });
  });

  it('platform_getBlockAtHeight sends the height as a JSON number; the tip and past it', async () => {
    const tip = devnet.state.pBlocks.at(-1)!;
    const r = await stack.call('platform_getBlockAtHeight', { height: 1 });
    expect(r.isError, r.text).toBe(false);
    expect(sent(devnet, 'platform.getBlockAtHeight').at(-1)).toEqual({ height: 1 });
    expect(r.structured!.height).toBe('1');
    const last = await stack.call('platform_getLastAcceptedBlock');
    expect(last.structured!.height).toBe(String(tip.height));
    expect(last.structured!.txIDs).toEqual(tip.txIDs);
    const past = await stack.call('platform_getBlockAtHeight', { height: tip.height + 5 });
    expect(past.isError).toBe(true);
    expect(past.text).toContain("couldn't get block with id");
  });

  it('account_overview: each locked amount with why (deposit, bond) and until when, and what can be claimed', async () => {
    const state = devnet.state;
    const d0 = state.users.get('devnet')!.keys[0]!;
    const r = await stack.call('account_overview', { addresses: [d0.p] });
    expect(r.isError, r.text).toBe(false);
    const account = (r.structured!.accounts as Array<Record<string, unknown>>)[0]!;
    const locks = account.locks as Array<{ reason: string; amount: { value: string }; depositTxID?: string; bondTxID?: string; until?: { unix: string }; nodeID?: string; depositReward?: { value: string } }>;
    const lockedUtxos = [...state.utxos.values()].filter((u) => u.chain === 'P' && !u.spentBy && u.addresses.includes(d0.p) && (u.depositTxID || u.bondTxID));
    expect(locks.map((l) => l.amount.value).sort()).toEqual(lockedUtxos.map((u) => String(u.amount)).sort());
    const now = BigInt(state.now());
    for (const u of lockedUtxos) {
      const l = locks.find((x) => x.depositTxID === u.depositTxID && x.bondTxID === u.bondTxID)!;
      expect(l.reason).toBe(u.depositTxID && u.bondTxID ? 'deposit and bond' : u.depositTxID ? 'deposit' : 'bond');
      const d = u.depositTxID ? state.deposits.get(u.depositTxID) : undefined;
      const v = u.bondTxID ? state.validators.find((x) => x.txID === u.bondTxID) : undefined;
      const ends = [d ? d.start + d.duration : 0, v ? v.endTime : 0];
      expect(l.until!.unix).toBe(String(Math.max(...ends)));
      if (v) expect(l.nodeID).toBe(v.nodeID);
      if (d) {
        const offer = state.depositOffers.find((o) => o.id === d.offerID)!;
        // The node's clock at the call: this second or the two before (the reward grows each second).
        const at = (t: bigint) => {
          const until = BigInt(Math.min(Number(t), d.start + d.duration - offer.noRewardsPeriodDuration));
          return String((d.amount * (until - BigInt(d.start)) * offer.interestRateNominator) / (1_000_000n * YEAR) - d.claimedRewardAmount);
        };
        expect([at(now), at(now - 1n), at(now - 2n)]).toContain(l.depositReward!.value);
      }
    }
    const claim = account.claimable as Record<string, { value: string }>;
    const c = state.claimables[0]!;
    const depositRewards = locks.reduce((s, l) => s + BigInt(l.depositReward?.value ?? '0'), 0n);
    expect(claim.depositRewards!.value).toBe(String(depositRewards));
    expect(claim.total!.value).toBe(String(depositRewards + c.validatorRewards + c.expiredDepositRewards));
    expect(r.text).toMatch(/500 CAM deposited until \d{4}-\d\d-\d\d \(in (about )?80 days\)/);
    expect(r.text).toContain(`2,000 CAM bonded to ${state.validators[0]!.nodeID}`);
    expect(r.text).toContain('claimable now: ');
  });

  it('platform_getAllDepositOffers with an amount: which offers take deposits now, and what the amount earns', async () => {
    const r = await stack.call('platform_getAllDepositOffers', { amount: '1000 CAM' });
    expect(r.isError, r.text).toBe(false);
    expect(sent(devnet, 'platform.getAllDepositOffers').at(-1)).toEqual({ timestamp: expect.any(Number) });
    const offers = r.structured!.depositOffers as Array<{ id: string; open: boolean; earns: { atMinDuration: { value: string }; atMaxDuration: { value: string }; belowMinimum: boolean } }>;
    for (const o of offers) {
      const seeded = devnet.state.depositOffers.find((x) => x.id === o.id)!;
      const now = devnet.state.now();
      expect(o.open).toBe((seeded.flags & 1n) === 0n && seeded.start <= now && now <= seeded.end);
      const earn = (d: number) => (1_000_000_000_000n * BigInt(d - seeded.noRewardsPeriodDuration) * seeded.interestRateNominator) / (1_000_000n * YEAR);
      expect(o.earns.atMinDuration.value).toBe(String(earn(seeded.minDuration)));
      expect(o.earns.atMaxDuration.value).toBe(String(earn(seeded.maxDuration)));
      expect(o.earns.belowMinimum).toBe(1_000_000_000_000n < seeded.minAmount);
    }
    expect(r.text).toMatch(/the amount earns [\d,.]+ CAM over 60 days/);
  });

  it("a permissioned subnet validator's weight is a weight, not CAM (the node sends weight and stakeAmount)", async () => {
    const subnet = devnet.state.subnets[1]!;
    const v = devnet.state.validators.find((x) => x.subnetID === subnet.id)!;
    const r = await stack.call('platform_getCurrentValidators', { subnetID: subnet.id });
    expect(r.isError, r.text).toBe(false);
    const listed = (r.structured!.validators as Array<Record<string, unknown>>)[0]!;
    expect(listed.weight).toBe(String(v.stakeAmount));
    expect(listed.stakeAmount).toBeUndefined();
    expect(r.text).toContain(`weight ${v.stakeAmount}`);
    expect(r.text).not.toMatch(/stake 0\.0+\d* CAM/);
  });

  it('names every address-state bit a real node defines (2 offers admin, 50 offers creator, the dev bits)', async () => {
    const alice = devnet.state.users.get('alice')!.keys[1]!;
    const bits = [0, 1, 2, 3, 4, 32, 33, 34, 38, 39, 50, 51];
    devnet.state.addressStates.set(alice.bech32, bits.reduce((m, b) => m | (1n << BigInt(b)), 0n) | (1n << 7n));
    const r = await stack.call('platform_getAddressStates', { address: alice.p });
    expect(r.structured!.states).toEqual([
      'AddressStateRoleAdmin',
      'AddressStateRoleKyc',
      'AddressStateRoleOffersAdmin',
      'AddressStateRoleConsortiumSecretary',
      'AddressStateRoleValidatorAdmin',
      'AddressStateKycVerified',
      'AddressStateKycExpired',
      'AddressStateKybVerified',
      'AddressStateConsortium',
      'AddressStateNodeDeferred',
      'AddressStateOffersCreator',
      'AddressStateFoundationAdmin',
    ]);
    expect(r.structured!.unknownBits).toEqual([7]);
    expect(r.text).toContain('AddressStateOffersCreator (bit 50): may create deposit offers');
  });

  it("info_getNodeID keeps the node's BLS key and proof of possession", async () => {
    const r = await stack.call('info_getNodeID');
    const pop = r.structured!.nodePOP as { publicKey: string; proofOfPossession: string };
    expect(pop.publicKey).toMatch(/^0x[0-9a-f]{96}$/);
    expect(pop.proofOfPossession).toMatch(/^0x[0-9a-f]{192}$/);
    expect(r.text).toContain(pop.publicKey);
  });

  it('account_overview with a 0x address keeps every wei in the total', async () => {
    const d1 = devnet.state.users.get('devnet')!.keys[1]!;
    const before = devnet.state.cBalances.get(d1.c)!;
    devnet.state.cBalances.set(d1.c, before + 123_456_789n);
    try {
      const wei = devnet.state.cBalances.get(d1.c)!;
      const r = await stack.call('account_overview', { addresses: [d1.c] });
      expect(r.isError, r.text).toBe(false);
      expect((r.structured!.nativeTotalWei as { value: string }).value).toBe(String(wei));
      expect((r.structured!.nativeTotal as { value: string }).value).toBe(String(wei / 1_000_000_000n));
      expect(r.text).toContain(`Native total: ${(r.structured!.nativeTotalWei as { display: string }).display}`);
      expect(r.text).toMatch(/\.\d*123456789 CAM/);
    } finally {
      devnet.state.cBalances.set(d1.c, before);
    }
  });

  it('indexer_getTxfeeAggregates says the network-wide figure is network-wide, and gives one address its own fees in one call', async () => {
    const network = await stack.call('indexer_getTxfeeAggregates', {});
    expect(network.isError, network.text).toBe(false);
    expect(network.structured!.scope).toBe('network');
    expect(network.text).toContain('Fees paid by the whole network (all addresses; give address for one address');
    const d1 = devnet.state.users.get('devnet')!.keys[1]!;
    // Truth: the fee of every accepted X/P transaction that spent one of d1's outputs, once each.
    const paid = [...devnet.state.txs.values()].filter((t) => t.status === 'Accepted' && t.chain !== 'C' && t.inputs.some((i) => i.addresses.some((a) => a.endsWith(d1.bech32))));
    expect(paid.length).toBeGreaterThan(0);
    const r = await stack.call('indexer_getTxfeeAggregates', { address: [d1.bech32] });
    expect(r.isError, r.text).toBe(false);
    expect(r.structured).toMatchObject({ scope: 'addresses', transactions: paid.length, complete: true });
    expect((r.structured!.txfee as { value: string }).value).toBe(String(paid.reduce((s, t) => s + t.fee, 0n)));
    expect(r.text).toContain(`Fees paid by ${d1.bech32}`);
  });

  it('names an asset by symbol or name where that is unambiguous, and refuses ambiguous or look-alike names naming the candidates', async () => {
    const state = devnet.state;
    const gld = [...state.assets.values()].find((a) => a.symbol === 'GLD')!;
    const d0 = state.users.get('devnet')!.keys[0]!;
    const byId = await stack.call('xvm_getBalance', { address: d0.x, assetID: gld.id });
    for (const name of ['GLD', 'gld', 'Gold Bar']) {
      const r = await stack.call('xvm_getBalance', { address: d0.x, assetID: name });
      expect(r.isError, r.text).toBe(false);
      expect(r.structured!.balance).toEqual(byId.structured!.balance);
    }
    // A look-alike of the native symbol (Greek capital alpha) is refused, naming the native asset.
    const fake = await stack.call('xvm_getBalance', { address: d0.x, assetID: 'C\u0391M' });
    expect(fake.isError).toBe(true);
    expect(fake.text).toContain('only looks like the native CAM');
    // A second asset with a look-alike symbol makes "GLD" ambiguous: both are named.
    const twin = addAsset(state, { name: 'Golden', symbol: 'G\u13deD', denomination: 0, kind: 'fixedCap', txID: registeredId('asset:twin') });
    try {
      const r = await stack.call('xvm_getBalance', { address: d0.x, assetID: 'GLD' });
      expect(r.isError).toBe(true);
      expect(r.text).toContain('Invalid input: assetID');
      expect(r.text).toContain(gld.id);
      expect(r.text).toContain(twin.id);
    } finally {
      state.assets.delete(twin.id);
    }
    const none = await stack.call('xvm_getBalance', { address: d0.x, assetID: 'No Such Coin' });
    expect(none.isError).toBe(true);
    expect(none.text).toContain('no asset has the symbol or name "No Such Coin"');
  });

  it('platform_getUpgradePhases: Athens active', async () => {
    const r = await stack.call('platform_getUpgradePhases');
    expect(r.structured).toEqual({ athensPhase: '1', athensActive: true });
  });
});

describe('Camino reads against a node of the spec\'s API', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await inMemoryStack();
  });
  afterAll(() => stack.close());

  it.each([
    ['platform_getDeposits', { depositTxIDs: [registeredId('deposit:0')] }, 'platform.getDeposits'],
    ['platform_getClaimables', { addresses: ['P-local1g65uqn6t77p656w64023nh8nd9updzmxyymev2'] }, 'platform.getClaimables'],
    ['platform_getMultisigAlias', { address: 'P-local1g65uqn6t77p656w64023nh8nd9updzmxyymev2' }, 'platform.getMultisigAlias'],
    ['platform_getRegisteredShortIDLink', { address: 'NodeID-7Xhw2mDxuDS44j42TCB6U5579esbSt3Lg' }, 'platform.getRegisteredShortIDLink'],
    ['platform_getLastAcceptedBlock', {}, 'platform.getLastAcceptedBlock'],
    ['platform_getBlockAtHeight', { height: 0 }, 'platform.getBlockAtHeight'],
    ['platform_getUpgradePhases', {}, 'platform.getUpgradePhases'],
  ])('%s says plainly that this node does not offer it', async (name, args, method) => {
    const r = await stack.call(name, args);
    expect(r.isError).toBe(true);
    expect(r.text).toContain(`This node does not offer ${method}`);
    expect(r.text).toContain(`rpc: can't find method "${method}"`);
  });
});



describe('platform_claim through the keystore (camino node)', () => {
  let devnet: Devnet;
  let stack: Stack;
  beforeAll(async () => {
    devnet = await startDevnet({ dialect: 'camino', keystoreApi: true });
    devnet.router.record = true;
    stack = await inMemoryStack({
      devnet,
      env: {
        CHAIN_MCP_ALLOW_SPEND: 'true',
        CHAIN_MCP_APPROVAL: 'confirm-id',
        CHAIN_MCP_KEYSTORE_USER: devnet.keystore.username,
        CHAIN_MCP_KEYSTORE_PASSWORD: devnet.keystore.password,
      },
    });
  });
  afterAll(async () => {
    await stack.close();
    await devnet.close();
  });

  it('previews every claimed amount, the destination and the fee, then issues the claim once after approval', async () => {
    const state = devnet.state;
    const d0 = state.users.get('devnet')!.keys[0]!;
    const c = state.claimables[0]!;
    const validatorBefore = c.validatorRewards;
    const deposit = state.deposits.get(registeredId('deposit:1'))!;
    const claimedBefore = deposit.claimedRewardAmount;
    const args = {
      claims: [
        { kind: 'validator', owner: d0.p, amount: '2.5 CAM' },
        { kind: 'deposit', depositTxID: deposit.txID, amount: '1 CAM' },
      ],
      to: d0.p,
    };
    const preview = await stack.call('platform_claim', args);
    expect(preview.isError, preview.text).toBe(false);
    expect(sent(devnet, 'platform.claim')).toHaveLength(0);
    expect(preview.text).toContain(`To: ${d0.p}`);
    expect(preview.text).toContain(`Claim: 2.5 CAM of ${d0.p}'s validator rewards`);
    expect(preview.text).toContain(`Claim: 1 CAM of deposit ${deposit.txID}'s reward`);
    expect(preview.text).toContain('Total claimed: 3.5 CAM');
    expect(preview.text).toMatch(/Fee: 0\.001 CAM/);
    const id = preview.structured!.confirmationId as string;
    const done = await stack.call('platform_claim', { ...args, confirm: id });
    expect(done.isError, done.text).toBe(false);
    expect(sent(devnet, 'platform.claim')).toHaveLength(1);
    expect(sent(devnet, 'platform.claim')[0]).toMatchObject({
      claimables: [
        { depositTxID: '', claimableOwner: { locktime: '0', threshold: '1', addresses: [d0.p] }, amount: '2500000000', claimType: 0 },
        { depositTxID: deposit.txID, amount: '1000000000', claimType: 3 },
      ],
      claimTo: { locktime: '0', threshold: '1', addresses: [d0.p] },
    });
    expect(c.validatorRewards).toBe(validatorBefore - 2_500_000_000n);
    expect(deposit.claimedRewardAmount).toBe(claimedBefore + 1_000_000_000n);
    // The same confirmation id does not send it again.
    const again = await stack.call('platform_claim', { ...args, confirm: id });
    expect(again.isError).toBe(true);
    expect(sent(devnet, 'platform.claim')).toHaveLength(1);
  });

  it('refuses a claim above what is claimable now, naming the field, before anything is sent', async () => {
    const d0 = devnet.state.users.get('devnet')!.keys[0]!;
    const r = await stack.call('platform_claim', { claims: [{ kind: 'expiredDeposit', owner: d0.p, amount: '1000 CAM' }], to: d0.p });
    expect(r.isError).toBe(true);
    expect(r.text).toContain('claims[0].amount');
    expect(r.text).toContain('claimable now');
    expect(sent(devnet, 'platform.claim')).toHaveLength(1);
  });
});

describe('deposit and unlock under the keystore signer', () => {
  let devnet: Devnet;
  let stack: Stack;
  beforeAll(async () => {
    devnet = await startDevnet({ dialect: 'camino' });
    devnet.router.record = true;
    stack = await inMemoryStack({
      devnet,
      env: { CHAIN_MCP_ALLOW_SPEND: 'true', CHAIN_MCP_APPROVAL: 'confirm-id', CHAIN_MCP_KEYSTORE_USER: devnet.keystore.username, CHAIN_MCP_KEYSTORE_PASSWORD: devnet.keystore.password },
    });
  });
  afterAll(async () => {
    await stack.close();
    await devnet.close();
  });

  it.each([
    ['platform_deposit', () => ({ offerID: devnet.state.depositOffers[0]!.id, amount: '10000000000', duration: 90 * 86_400 })],
    ['platform_unlockDeposit', () => ({ depositTxIDs: [registeredId('deposit:1')] })],
  ] as const)('%s refuses in one line naming the local signer, sending nothing', async (name, args) => {
    devnet.router.requests.length = 0;
    const r = await stack.call(name, args());
    expect(r.isError).toBe(true);
    expect(r.text.split('\n')[0]).toContain('needs the local signer (CHAIN_MCP_SIGNER=local');
    expect(devnet.router.requests).toEqual([]);
  });
});
