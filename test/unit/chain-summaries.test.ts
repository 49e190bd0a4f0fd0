import { describe, expect, it } from 'vitest';
import { wsUrlFor } from '../../src/catalogue/evm/watch.js';
import { memoText } from '../../src/summarize/chain.js';
import { decodeAddressStates, decodeDepositOffer, offerLine, ratePercent } from '../../src/summarize/platform.js';
import { decodeUtxo, totalsByAsset } from '../../src/summarize/utxo.js';
import { decodeValidator, sortValidators, validatorHighlights, validatorLine, validatorStats } from '../../src/summarize/validators.js';
import { createState, type DevnetState, encodeUtxo, hexWithChecksum, utxoString } from '../../src/devnet/state/index.js';

const net = { assetSymbol: 'CAM' };

describe('address states', () => {
  it('decodes every bit of the spec table and lists unknown bits by number', () => {
    const mask = (1n << 0n) | (1n << 1n) | (1n << 32n) | (1n << 33n) | (1n << 38n) | (1n << 39n) | (1n << 5n) | (1n << 63n);
    expect(decodeAddressStates(mask)).toEqual({
      states: ['AddressStateRoleAdmin', 'AddressStateRoleKyc', 'AddressStateKycVerified', 'AddressStateKycExpired', 'AddressStateConsortium', 'AddressStateNodeDeferred'],
      unknownBits: [5, 63],
    });
    expect(decodeAddressStates(0n)).toEqual({ states: [], unknownBits: [] });
  });
});

describe('deposit offers', () => {
  it('turns the nominator into a yearly percentage', () => {
    expect(ratePercent(80_000n)).toBe('8');
    expect(ratePercent(125_000n)).toBe('12.5');
    expect(ratePercent(1n)).toBe('0.0001');
    expect(ratePercent(0n)).toBe('0');
  });

  it('reads the spec spelling and the nodes\' lowercase spelling alike', () => {
    const spec = decodeDepositOffer(
      { ID: 'abc', InterestRateNominator: 80000, Start: 1700000000, End: '1800000000', MinAmount: '1000000000', MinDuration: 86400 * 60, MaxDuration: 86400 * 365, UnlockPeriodDuration: 2592000, NoRewardsPeriodDuration: 0, Memo: 'U3RhbmRhcmQ=', Flags: 1 },
      net,
      1_750_000_000n,
    );
    const lower = decodeDepositOffer(
      { id: 'abc', interestRateNominator: '80000', start: '1700000000', end: 1800000000, minAmount: 1000000000, minDuration: '5184000', maxDuration: 31536000, unlockPeriodDuration: 2592000, noRewardsPeriodDuration: '0', memo: 'U3RhbmRhcmQ=', flags: '1' },
      net,
      1_750_000_000n,
    );
    expect(lower).toEqual(spec);
    expect(spec).toMatchObject({ interestRatePercent: '8', memo: 'Standard', flagNames: ['locked'], minAmount: { display: '1 CAM' } });
    expect(spec.minDuration.human).toBe('60 days');
    expect(offerLine(spec)).toContain('8 % a year "Standard" [NOT open: locked (flags bit 0): the node refuses new deposits]: deposit 60 days to 365 days, min 1 CAM, unlock period 30 days');
  });

  it('names unknown flag bits by number and keeps a binary memo as sent', () => {
    const o = decodeDepositOffer({ ID: 'x', Flags: 5, Memo: '//79' }, net, 0n);
    expect(o.flagNames).toEqual(['locked', 'bit 2']);
    expect(o.memo).toBe('//79');
  });
});

describe('deposit offers: open for new deposits now, or why not (caminogo deposit tx rules)', () => {
  const now = 1_750_000_000n;
  const base = { ID: 'o', InterestRateNominator: '80000', Start: String(now - 100n), End: String(now + 100n), MinAmount: '1000', MinDuration: 86400, MaxDuration: 86400 * 365, Flags: '0' };
  const reasons = (extra: Record<string, unknown>) => decodeDepositOffer({ ...base, ...extra }, net, now);

  it('is open inside its period, unlocked, with room left', () => {
    expect(reasons({})).toMatchObject({ open: true, notOpen: [] });
    expect(reasons({ totalMaxAmount: '5000', depositedAmount: '4000' })).toMatchObject({ open: true });
    expect(offerLine(reasons({}))).toContain('[open for new deposits]');
  });

  it('names each reason: locked, not started, ended, full by amount, full by rewards', () => {
    expect(reasons({ Flags: '1' }).notOpen).toEqual([expect.stringMatching(/^locked \(flags bit 0\)/)]);
    expect(reasons({ Start: String(now + 1n) }).notOpen).toEqual([expect.stringMatching(/^not started: opens 20/)]);
    expect(reasons({ End: String(now - 1n) }).notOpen).toEqual([expect.stringMatching(/^ended 20/)]);
    // Less than minAmount left under totalMaxAmount: no deposit can pass both checks.
    expect(reasons({ totalMaxAmount: '5000', depositedAmount: '4001' }).notOpen).toEqual(['full: its total maximum is deposited']);
    expect(reasons({ totalMaxAmount: '5000', depositedAmount: '5000' }).open).toBe(false);
    // The smallest deposit's reward (1000 for a year at 8 % = 80, over one day about 0.2 -> 0) fits, unless nothing is left.
    expect(reasons({ totalMaxRewardAmount: '100', rewardedAmount: '99' }).open).toBe(true);
    expect(reasons({ totalMaxRewardAmount: '100', rewardedAmount: '100' }).notOpen).toEqual(['full: its rewards are used up']);
    expect(reasons({ MinAmount: '1000000000000', totalMaxRewardAmount: '100', rewardedAmount: '0' }).notOpen).toEqual(['full: its rewards are used up']);
  });
});

describe('validators', () => {
  const now = 1_800_000_000n;
  const raw = (i: number, extra: Record<string, unknown> = {}) => ({
    txID: `tx${i}`,
    nodeID: `NodeID-${i}`,
    startTime: String(Number(now) - 1000),
    endTime: String(Number(now) + 86400 * (10 - i)),
    stakeAmount: String(2_000_000_000_000 + i),
    potentialReward: '5',
    delegationFee: '2.0000',
    uptime: String(99 - i),
    connected: i !== 2,
    delegators: Array.from({ length: i }, (_, d) => ({ txID: `d${d}`, nodeID: `NodeID-${i}`, startTime: '1', endTime: '2', stakeAmount: '25000000000' })),
    ...extra,
  });

  it('counts stake, delegators and connections over all, and lists highlights', () => {
    const all = [0, 1, 2, 3].map((i) => decodeValidator(raw(i), net, 1));
    const stats = validatorStats(all, net);
    expect(stats).toMatchObject({ count: 4, connectedCount: 3, delegatorCount: 6, totalDelegated: { value: '150000000000' } });
    expect(stats.totalStake.value).toBe(String(4 * 2_000_000_000_000 + 6));
    expect(all[3]!.delegators).toHaveLength(1);
    expect(all[3]!.delegatorCount).toBe(3);
    const h = validatorHighlights(all);
    expect(h.endingSoonest.map((v) => v.nodeID)).toEqual(['NodeID-3', 'NodeID-2', 'NodeID-1']);
    expect(h.lowestUptime[0]).toEqual({ nodeID: 'NodeID-3', uptime: '96' });
    expect(h).toMatchObject({ disconnected: ['NodeID-2'], disconnectedCount: 1 });
    expect(validatorLine(all[2]!, now)).toBe('NodeID-2: stake 2,000.000000002 CAM, 2 delegator(s) with 50 CAM, fee 2 %, uptime 97 %, NOT connected, ends in 8 days');
    expect(sortValidators(all, 'stake')[0]!.nodeID).toBe('NodeID-3');
  });

  it('shows subnet validators by weight, and takes delegationFeeRate as the fee', () => {
    const v = decodeValidator({ txID: 't', nodeID: 'NodeID-s', startTime: '1', endTime: '2', weight: '100', delegationFeeRate: '3.5' }, net, 5);
    expect(v.stakeAmount).toBeUndefined();
    expect(v.weight).toBe('100');
    expect(v.delegationFee).toBe('3.5');
    expect(validatorStats([v], net).totalWeight).toBe('100');
  });
});

describe('UTXO decoding', () => {
  let state: DevnetState;
  it('decodes the codec form in cb58 and hex, amounts, owners and NFTs', () => {
    state = createState();
    const key = state.users.get('devnet')!.keys[0]!;
    const fungible = [...state.utxos.values()].find((u) => !u.spentBy && u.amount === 5_000_000_000_000n)!;
    for (const enc of ['cb58', 'hex']) {
      const d = decodeUtxo(utxoString(fungible, enc), state.hrp)!;
      expect(d).toMatchObject({ txID: fungible.txID, outputIndex: fungible.outputIndex, assetID: fungible.assetID, outputType: 7, amount: '5000000000000', threshold: 1, locktime: '0' });
      expect(d.addresses).toEqual([key.bech32]);
    }
    const nft = [...state.utxos.values()].find((u) => u.groupID === 1)!;
    const d = decodeUtxo(hexWithChecksum(encodeUtxo(nft)), state.hrp)!;
    expect(d).toMatchObject({ outputType: 11, groupID: 1 });
    expect(d.amount).toBeUndefined();
    expect(totalsByAsset([d, d]).get(nft.assetID)).toEqual({ amount: 0n, count: 2 });
  });

  it('returns undefined for text that is not a UTXO', () => {
    expect(decodeUtxo('not-cb58!', 'local')).toBeUndefined();
    expect(decodeUtxo('0x00', 'local')).toBeUndefined();
  });
});

describe('small helpers', () => {
  it('decodes printable hex memos and keeps binary ones as hex', () => {
    expect(memoText(`0x${Buffer.from('rent for November').toString('hex')}`)).toBe('rent for November');
    expect(memoText('0x00ff')).toBe('0x00ff');
    expect(memoText('0x')).toBe('');
  });

  it('derives the WebSocket URL: ws for http, wss for https, keeping a base path', () => {
    expect(wsUrlFor('http://127.0.0.1:9650', '/ext/bc/C/ws')).toBe('ws://127.0.0.1:9650/ext/bc/C/ws');
    expect(wsUrlFor('https://api.example.org/node/', '/ext/bc/C/ws')).toBe('wss://api.example.org/node/ext/bc/C/ws');
  });
});
