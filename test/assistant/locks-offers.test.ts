import { afterEach, describe, expect, it } from 'vitest';
import { CATALOGUE } from '../../src/catalogue/index.js';
import { type Devnet, startDevnet } from '../../src/devnet/index.js';
import { HttpFault, type Params, RpcFault } from '../../src/devnet/rpc.js';
import { addressFor, type DepositOffer, fund, holdDeposit, registeredId } from '../../src/devnet/state/index.js';
import { declaredSchema } from '../../src/summarize/schema.js';
import { inMemoryStack, type Stack } from '../helpers/stack.js';

/**
 * account_overview's locks and claim (src/catalogue/assistant/locks.ts) and network_overview's
 * offers and lines (network.ts), through MCP against a camino-dialect simulator (issue 44, group
 * `camino`): what each says when an address holds something unusual or the node leaves a part out.
 */

// biome-ignore lint/suspicious/noExplicitAny: structured results are checked field by field
type Rec = Record<string, any>;
const CAM = 1_000_000_000n;

describe('account_overview locks and network_overview offers (camino node)', () => {
  let devnet: Devnet;
  let stack: Stack;
  const start = async () => {
    devnet = await startDevnet({ dialect: 'camino' });
    stack = await inMemoryStack({ devnet });
  };
  afterEach(async () => {
    await stack.close();
    await devnet.close();
  });
  const fail = (path: string, method: string, when: (p: Params) => boolean = () => true, otherwise?: (p: Params) => unknown) =>
    devnet.router.on(path, method, (p) => {
      if (when(p)) throw new RpcFault(`${method}: database closed`);
      return otherwise?.(p);
    });
  /** account_overview of one address, answered without error. */
  const overview = async (address: string) => {
    const r = await stack.call('account_overview', { addresses: [address] });
    expect(r.isError, r.text).toBe(false);
    return { s: r.structured as Rec, account: (r.structured as Rec).accounts[0] as Rec, text: r.text };
  };
  /** A P address of its own with nothing on it yet. */
  const freshP = (label: string) => addressFor(devnet.state, 'P', label);

  describe('account_overview: locks and what can be claimed', () => {
    it('an address with a deposit, no bond and nothing in platform.getClaimables: no validator list asked, the claim its deposit reward alone', async () => {
      await start();
      const p = freshP('locks:deposit-only');
      const id = holdDeposit(devnet.state, p, 'locks:deposit-only', 2_000n * CAM)!;
      // Neither validator list is needed without a bond: failing, they change nothing.
      fail('/ext/P', 'platform.getCurrentValidators');
      fail('/ext/P', 'platform.getPendingValidators');
      devnet.router.record = true;
      const { s, account } = await overview(p);
      expect(s.problems).toEqual([]);
      const asked = devnet.router.requests.map((r) => (r.body as Rec).method);
      expect(asked).toContain('platform.getDeposits');
      expect(asked).toContain('platform.getClaimables');
      expect(asked.filter((m) => /Validators$/.test(m))).toEqual([]);
      expect(account.locks).toEqual([expect.objectContaining({ reason: 'deposit', depositTxID: id, amount: expect.objectContaining({ value: String(2_000n * CAM) }) })]);
      const reward = account.locks[0].depositReward.value;
      expect(BigInt(reward)).toBeGreaterThan(0n);
      // platform.getClaimables leaves an owner with nothing out: no validator or expired-deposit rewards.
      expect(devnet.state.claimables.some((c) => c.owner.addresses.includes(p))).toBe(false);
      expect(account.claimable).toMatchObject({ depositRewards: { value: reward }, validatorRewards: { value: '0' }, expiredDepositRewards: { value: '0' }, total: { value: reward } });
    });

    it('a validator list answered 503 once is asked again (a read), and the bond still has its node and end', async () => {
      await start();
      const d0 = devnet.state.users.get('devnet')!.keys[0]!;
      devnet.router.record = true;
      let refused = 0;
      devnet.router.authorize = (path) => {
        const last = devnet.router.requests.at(-1)?.body as Rec | undefined;
        if (path === '/ext/P' && last?.method === 'platform.getCurrentValidators' && refused === 0) {
          refused++;
          throw new HttpFault(503, 'node is busy');
        }
      };
      const { s, account } = await overview(d0.p);
      expect(refused).toBe(1);
      expect(devnet.router.requests.filter((r) => (r.body as Rec).method === 'platform.getCurrentValidators')).toHaveLength(2);
      expect(s.problems).toEqual([]);
      const v0 = devnet.state.validators.find((v) => v.txID === registeredId('validator-0:tx'))!;
      expect(account.locks.find((l: Rec) => l.reason === 'bond')).toMatchObject({ nodeID: v0.nodeID, until: { unix: String(v0.endTime) } });
    });

    it('funds bonded to two validators: one lock for each, with its own node and end', async () => {
      await start();
      const p = freshP('locks:two-bonds');
      const [current, pending] = [devnet.state.validators[0]!, devnet.state.pendingValidators[0]!];
      fund(devnet.state, 'P', p, [300n * CAM], { lock: 'bonded', bondTxID: current.txID });
      fund(devnet.state, 'P', p, [700n * CAM], { lock: 'bonded', bondTxID: pending.txID });
      const { s, account, text } = await overview(p);
      expect(s.problems).toEqual([]);
      expect(account.locks).toHaveLength(2);
      expect(account.locks).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ reason: 'bond', bondTxID: current.txID, nodeID: current.nodeID, amount: expect.objectContaining({ value: String(300n * CAM) }), until: expect.objectContaining({ unix: String(current.endTime) }) }),
          expect.objectContaining({ reason: 'bond', bondTxID: pending.txID, nodeID: pending.nodeID, amount: expect.objectContaining({ value: String(700n * CAM) }), until: expect.objectContaining({ unix: String(pending.endTime) }) }),
        ]),
      );
      expect(text).toContain(`300 CAM bonded to ${current.nodeID}`);
      expect(text).toContain(`700 CAM bonded to ${pending.nodeID}`);
    });

    it('funds bonded to a validator the node no longer lists: the lock is still told, its end unknown, nothing else fails', async () => {
      await start();
      const p = freshP('locks:finished-bond');
      const finished = registeredId('validator-finished:tx');
      holdDeposit(devnet.state, p, 'locks:finished-bond:deposit', 50n * CAM);
      fund(devnet.state, 'P', p, [400n * CAM], { lock: 'bonded', bondTxID: finished });
      const { s, account, text } = await overview(p);
      expect(s.problems).toEqual([]);
      const bond = account.locks.find((l: Rec) => l.bondTxID === finished);
      expect(bond).toEqual({ reason: 'bond', amount: expect.objectContaining({ value: String(400n * CAM) }), bondTxID: finished });
      expect(text).toContain(`400 CAM bonded (end unknown: the node lists no validator for this bond) (bond ${finished})`);
      expect(account.locks.find((l: Rec) => l.reason === 'deposit')?.until).toBeDefined();
    });

    it('a locked amount of another asset on P is not counted among the native locks', async () => {
      await start();
      const p = freshP('locks:other-asset');
      const id = holdDeposit(devnet.state, p, 'locks:other-asset', 1_000n * CAM)!;
      const gld = registeredId('asset:GLD');
      fund(devnet.state, 'P', p, [5_000n], { lock: 'deposited', depositTxID: id, assetID: gld });
      fund(devnet.state, 'P', p, [7_000n], { lock: 'bonded', bondTxID: devnet.state.validators[0]!.txID, assetID: gld });
      const { account } = await overview(p);
      expect(account.locks).toEqual([expect.objectContaining({ reason: 'deposit', depositTxID: id, amount: expect.objectContaining({ value: String(1_000n * CAM) }) })]);
    });

    it('a deposit whose reward owner is nobody in particular (threshold 0, no address): its reward is not counted as this address\'s', async () => {
      await start();
      const p = freshP('locks:nobody-owns');
      const id = holdDeposit(devnet.state, p, 'locks:nobody-owns', 1_000n * CAM)!;
      devnet.state.deposits.get(id)!.rewardOwner = { locktime: 0n, threshold: 0, addresses: [] };
      const { account } = await overview(p);
      const lock = account.locks[0];
      expect(BigInt(lock.depositReward.value)).toBeGreaterThan(0n);
      expect(lock.depositRewardOwner).toBeDefined();
      expect(account.claimable.depositRewards.value).toBe('0');
      expect(account.claimable.total.value).toBe('0');
    });

    it('a deposit in its offer\'s unlock period to come says from when it unlocks gradually', async () => {
      await start();
      const d0 = devnet.state.users.get('devnet')!.keys[0]!;
      const id = registeredId('deposit:0');
      const d = devnet.state.deposits.get(id)!;
      const offer = devnet.state.depositOffers.find((o) => o.id === d.offerID)!;
      const periodStart = d.start + d.duration - offer.unlockPeriodDuration;
      expect(periodStart).toBeGreaterThan(devnet.state.now());
      const { account, text } = await overview(d0.p);
      const lock = account.locks.find((l: Rec) => l.depositTxID === id);
      expect(lock.unlockPeriodStart).toEqual({ unix: String(periodStart), iso: new Date(periodStart * 1000).toISOString() });
      const line = text.split('\n').find((l) => l.includes(`(deposit ${id})`))!;
      expect(line).toContain(`, unlocking gradually from ${new Date(periodStart * 1000).toISOString().slice(0, 10)}`);
    });

    it('what it answers matches the output schema it declares, locks and claim included', async () => {
      await start();
      const d0 = devnet.state.users.get('devnet')!.keys[0]!;
      const { account, s } = await overview(d0.p);
      // Each kind of lock the seed gives this address: deposit, bond, and both.
      expect(new Set(account.locks.map((l: Rec) => l.reason))).toEqual(new Set(['deposit', 'bond', 'deposit and bond']));
      const declared = declaredSchema(CATALOGUE.find((t) => t.name === 'account_overview')!.output);
      const parsed = declared.safeParse(s);
      expect(parsed.success, JSON.stringify(parsed.error?.issues[0])).toBe(true);
    });
  });

  describe('network_overview', () => {
    /** Eleven more offers open now, in the node's list lowest interest first; the highest one asks at least 250,000 CAM. */
    const addOffers = () => {
      const standard = devnet.state.depositOffers[0]!;
      const extra: DepositOffer[] = Array.from({ length: 11 }, (_, i) => ({
        ...standard,
        id: registeredId(`offer:locks-extra-${i}`),
        interestRateNominator: 11_000n + 10_000n * BigInt(i),
        ...(i === 10 ? { minAmount: 250_000n * CAM } : {}),
      }));
      devnet.state.depositOffers.push(...extra);
      const now = devnet.state.now();
      return devnet.state.depositOffers.filter((o) => o.start <= now && now <= o.end);
    };

    it('the ten offers with the highest interest, highest first; the count covers all; open, example amount and no-rewards period per offer', async () => {
      await start();
      const listed = addOffers();
      expect(listed).toHaveLength(13);
      const r = await stack.call('network_overview');
      expect(r.isError, r.text).toBe(false);
      const offers = (r.structured as Rec).depositOffers;
      const top = [...listed].sort((a, b) => Number(b.interestRateNominator - a.interestRateNominator)).slice(0, 10);
      expect(offers.count).toBe(13);
      expect(offers.open).toBe(listed.filter((o) => (o.flags & 1n) === 0n).length);
      expect(offers.offers.map((o: Rec) => o.id)).toEqual(top.map((o) => o.id));
      // Open per offer: only the seed's premium offer is locked.
      const premium = registeredId('offer:premium');
      for (const o of offers.offers) expect(o.open, o.id).toBe(o.id !== premium);
      // The example: 100,000 CAM, or the offer's minimum when that is more.
      const big = offers.offers.find((o: Rec) => o.id === registeredId('offer:locks-extra-10'));
      expect(big.example.amount.value).toBe(String(250_000n * CAM));
      for (const o of offers.offers.filter((x: Rec) => x !== big)) expect(o.example.amount.value, o.id).toBe(String(100_000n * CAM));
      const lines = r.text.split('\n');
      expect(lines).toContain('Deposit offers: 13, 12 open for new deposits:');
      const offerLines = lines.filter((l) => / % a year \[/.test(l));
      expect(offerLines.map((l) => l.slice(2, l.indexOf(' % a year')))).toEqual(offers.offers.map((o: Rec) => o.interestRatePercent));
      expect(offerLines[0]).toMatch(/^- 12\.5 % a year \[NOT open: locked/);
      // The premium offer has no no-rewards period, the standard one 15 days.
      expect(offerLines[0]).not.toContain('no rewards in the last');
      expect(offerLines.find((l) => l.startsWith('- 8 % a year'))).toContain(', no rewards in the last 15 days:');
      expect(offerLines.find((l) => l.includes(big.example.amount.display))).toMatch(/^- 11\.1 % a year .*: 250,000 CAM for 365 days earns /);
    });

    it('every part answered: the version, the heights, supply and cap on their lines', async () => {
      await start();
      const r = await stack.call('network_overview');
      expect(r.isError, r.text).toBe(false);
      const s = r.structured as Rec;
      const one = async (name: string) => (await stack.call(name)).structured as Rec;
      const [version, height, cBlock, supply, conf] = await Promise.all(
        ['info_getNodeVersion', 'platform_getHeight', 'eth_blockNumber', 'platform_getCurrentSupply', 'platform_getConfiguration'].map(one),
      );
      expect(s.supplyCap).toEqual(conf!.supplyCap);
      const lines = r.text.split('\n');
      expect(version!.version).not.toBe('');
      expect(lines[0]).toMatch(new RegExp(`; node ${version!.version.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}\\.$`));
      expect(lines).toContain(`P height ${height!.height}; C height ${cBlock!.blockNumber}; supply at most ${supply!.supply.display}; cap ${conf!.supplyCap.display}`);
    });

    it('the node version, C height, validators and one bootstrap left out: each named, the rest answered, no empty line', async () => {
      await start();
      fail('/ext/info', 'info.getNodeVersion');
      fail('/ext/bc/C/rpc', 'eth_blockNumber');
      fail('/ext/P', 'platform.getCurrentValidators');
      fail('/ext/info', 'info.isBootstrapped', (p) => p.chain === 'C', () => ({ isBootstrapped: true }));
      const r = await stack.call('network_overview');
      expect(r.isError, r.text).toBe(false);
      const s = r.structured as Rec;
      expect(s.nodeVersion).toBe('');
      expect(s.bootstrapped).toEqual({ X: true, P: true });
      expect(s.stake).toBeUndefined();
      expect(s.cHeight).toBeUndefined();
      expect(s.problems.map((p: Rec) => p.step).sort()).toEqual(['C height', 'bootstrap of C', 'node version', 'validators']);
      const lines = r.text.split('\n');
      expect(lines[0]).toMatch(/; node version unknown\.$/);
      expect(lines).toContain('Bootstrapped: X yes, P yes.');
      expect(lines.find((l) => l.startsWith('P height '))).toMatch(/^P height \d+; supply at most [\d,.]+ CAM; cap [\d,.]+ CAM$/);
      expect(lines.some((l) => l.startsWith('Staked: '))).toBe(false);
      expect(lines.filter((l) => l.trim() === '')).toEqual([]);
    });

    it('what it answers matches the output schema it declares', async () => {
      await start();
      addOffers();
      const r = await stack.call('network_overview');
      expect(r.isError, r.text).toBe(false);
      const declared = declaredSchema(CATALOGUE.find((t) => t.name === 'network_overview')!.output);
      const parsed = declared.safeParse(r.structured);
      expect(parsed.success, JSON.stringify(parsed.error?.issues[0])).toBe(true);
    });
  });
});

