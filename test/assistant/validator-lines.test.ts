import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { roughDuration } from '../../src/codec/index.js';
import { startDevnet, type Devnet } from '../../src/devnet/index.js';
import { HttpFault } from '../../src/devnet/rpc.js';
import { type SpendHarness, spendHarness } from '../helpers/spend-harness.js';
import { nodeAnswer as askNode } from '../helpers/node-answer.js';

/**
 * validator_lookup's summary line by line and the time a current validator has left, the server's
 * clock held (issue 44, group `camino`, its survivors of 2026-11-29), through MCP against the simulator.
 */

// biome-ignore lint/suspicious/noExplicitAny: structured results are checked field by field
type Rec = Record<string, any>;

describe('validator_lookup: what the summary says, and the time left', () => {
  let devnet: Devnet;
  let h: SpendHarness;
  beforeEach(async () => {
    devnet = await startDevnet();
    h = await spendHarness(devnet);
  });
  afterEach(async () => {
    await h.close();
    await devnet.close();
  });
  const lookup = async (nodeID: string) => {
    const r = await h.call('validator_lookup', { nodeID });
    expect(r.isError, r.text).toBe(false);
    return { s: r.structured as Rec, lines: r.text.split('\n') };
  };
  const raw = (method: string, params: Rec) => askNode<Rec>(devnet.nodeUrl, '/ext/P', method, params);

  it('a current validator: its time left from the server clock, each reported field named, its reward owner', async () => {
    const v = devnet.state.validators.find((x) => x.subnetID === devnet.state.primaryNetworkID && x.connected && x.rewardOwner)!;
    const end = Number(v.endTime);
    h.clock.now = (end - 3 * 86_400 - 7) * 1000;
    const { s, lines } = await lookup(v.nodeID);
    expect(s.timeLeft).toEqual({ seconds: String(3 * 86_400 + 7), human: s.timeLeft.human });
    expect(lines[0]).toBe(
      `${v.nodeID} is a current validator: stake ${s.stakeAmount.display}, from ${s.startTime.iso} to ${s.endTime.iso} (${s.period.human}), ${roughDuration(3n * 86_400n + 7n)} left.`,
    );
    expect(lines[1]).toBe(`uptime ${s.uptime} %, connected, delegation fee ${s.delegationFee} %, potential reward ${s.potentialReward.display}`);
    expect(lines).toContain(`Reward owner: ${v.rewardOwner!.addresses.join(', ')}.`);

    // Past its end and not yet removed by the node: no time left, never a negative one.
    h.clock.now = (end + 60) * 1000;
    const late = await lookup(v.nodeID);
    expect(late.s.timeLeft.seconds).toBe('0');
  });

  it('a validator reported without uptime, connection, fee or reward: one plain line, and NOT connected said when it is not', async () => {
    const pv = devnet.state.pendingValidators[0]!;
    const answered = (await raw('platform.getPendingValidators', { nodeIDs: [pv.nodeID] })).validators[0];
    const { uptime: _u, connected: _c, delegationFee: _f, potentialReward: _p, ...bare } = answered;
    devnet.router.on('/ext/P', 'platform.getPendingValidators', (p) => (p.nodeIDs ? { validators: [bare], delegators: [] } : { validators: [], delegators: [] }));
    const { lines } = await lookup(pv.nodeID);
    expect(lines[1]).toBe('No uptime or fee reported.');

    devnet.router.on('/ext/P', 'platform.getPendingValidators', (p) =>
      p.nodeIDs ? { validators: [{ ...bare, connected: false, rewardOwner: { locktime: '0', threshold: '0', addresses: [] } }], delegators: [] } : { validators: [], delegators: [] },
    );
    const off = await lookup(pv.nodeID);
    expect(off.lines[1]).toBe('NOT connected');
    expect(off.lines).toContain('Reward owner: ?.');
  });

  it('the read of every pending delegator answered 503 once is asked again (a read): no problem reported', async () => {
    const v = devnet.state.validators[0]!;
    devnet.router.record = true;
    let refused = 0;
    devnet.router.authorize = (path) => {
      const last = devnet.router.requests.at(-1)?.body as Rec | undefined;
      if (path === '/ext/P' && last?.method === 'platform.getPendingValidators' && !last.params?.nodeIDs && refused === 0) {
        refused++;
        throw new HttpFault(503, 'node is busy');
      }
    };
    const { s, lines } = await lookup(v.nodeID);
    expect(refused).toBe(1);
    expect(s.problems).toEqual([]);
    expect(lines.join('\n')).not.toContain('pending delegators');
  });
});
