import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startDevnet, type Devnet } from '../../src/devnet/index.js';
import { RpcFault } from '../../src/devnet/rpc.js';
import { inMemoryStack, type Stack } from '../helpers/stack.js';
import { nodeAnswer as askNode } from '../helpers/node-answer.js';

/**
 * validator_lookup on a subnet, with its reads failing one at a time, and a node that answers more
 * than it was asked (issue 44, group `camino`), through MCP against the simulator (spec dialect).
 */

// biome-ignore lint/suspicious/noExplicitAny: structured results are checked field by field
type Rec = Record<string, any>;
const UNKNOWN_NODE = 'NodeID-MFrZFVCXPv5iCn6M9K6XduxGTYp891xXZ';

describe('validator_lookup: subnets, failing reads, extra answers', () => {
  let devnet: Devnet;
  let stack: Stack;
  beforeEach(async () => {
    devnet = await startDevnet();
    stack = await inMemoryStack({ devnet });
    devnet.router.record = true;
  });
  afterEach(async () => {
    await stack.close();
    await devnet.close();
  });
  const fail = (method: string) =>
    devnet.router.on('/ext/P', method, () => {
      throw new RpcFault(`${method} database closed`);
    });
  const lookup = async (args: Rec) => {
    const r = await stack.call('validator_lookup', args);
    expect(r.isError, r.text).toBe(false);
    return { s: r.structured as Rec, text: r.text };
  };
  const asked = (method: string) => devnet.router.requests.map((r) => r.body as Rec).filter((b) => b.method === method).map((b) => b.params);

  it('on a subnet: every read names the subnet, the validator is told by its weight', async () => {
    const sub = devnet.state.validators.find((v) => v.subnetID !== devnet.state.primaryNetworkID)!;
    const { s, text } = await lookup({ nodeID: sub.nodeID, subnetID: sub.subnetID });
    expect(s).toMatchObject({ status: 'current', subnetID: sub.subnetID, weight: String(sub.stakeAmount) });
    expect(s.stakeAmount).toBeUndefined();
    expect(text).toContain(`${sub.nodeID} is a current validator: weight ${sub.stakeAmount}, from`);
    expect(asked('platform.getCurrentValidators').map((p) => p.subnetID)).toEqual([sub.subnetID]);
    // The pending validator read and the read of every pending delegator.
    expect(asked('platform.getPendingValidators').map((p) => p.subnetID)).toEqual([sub.subnetID, sub.subnetID]);

    const none = await stack.call('validator_lookup', { nodeID: UNKNOWN_NODE, subnetID: sub.subnetID });
    expect(none.text).toContain(`${UNKNOWN_NODE} is neither a current nor a pending validator of subnet ${sub.subnetID}.`);
    const primary = await stack.call('validator_lookup', { nodeID: UNKNOWN_NODE });
    expect(primary.text).toContain(`${UNKNOWN_NODE} is neither a current nor a pending validator.`);
  });

  const raw = (method: string, params: Rec) => askNode<Rec>(devnet.nodeUrl, '/ext/P', method, params);

  it('a validator answered without weight, delegators or reward owner: each said plainly, nothing made up', async () => {
    const sub = devnet.state.validators.find((v) => v.subnetID !== devnet.state.primaryNetworkID)!;
    const { weight: _w, delegators: _d, rewardOwner: _r, ...bare } = (await raw('platform.getCurrentValidators', { subnetID: sub.subnetID, nodeIDs: [sub.nodeID] })).validators[0];
    devnet.router.on('/ext/P', 'platform.getCurrentValidators', () => ({ validators: [bare] }));
    const { s, text } = await lookup({ nodeID: sub.nodeID, subnetID: sub.subnetID });
    expect(s.rewardOwner).toBeUndefined();
    expect(text).toContain('is a current validator: weight ?, from');
    expect(text).toContain('Current delegators: not reported by the node.');
    expect(text).not.toContain('Reward owner');
    expect(text.split('\n')).toHaveLength(3);

    const pv = devnet.state.pendingValidators[0]!;
    const { delegators: _pd, ...pending } = (await raw('platform.getPendingValidators', { nodeIDs: [pv.nodeID] })).validators[0];
    devnet.router.on('/ext/P', 'platform.getPendingValidators', (p) => (p.nodeIDs ? { validators: [pending], delegators: [] } : { validators: [], delegators: [] }));
    const later = await lookup({ nodeID: pv.nodeID });
    expect(later.s.status).toBe('pending');
    expect(later.text).toContain('No current delegators yet.');
  });

  it('the pending reads failing: the current validator still answers, both failures named', async () => {
    const v = devnet.state.validators[0]!;
    fail('platform.getPendingValidators');
    const { s, text } = await lookup({ nodeID: v.nodeID });
    expect(s.status).toBe('current');
    expect(s.problems.map((p: Rec) => p.step).sort()).toEqual(['pending delegators', 'pending validators']);
    expect(s.problems.find((p: Rec) => p.step === 'pending delegators').error).toMatch(/platform\.getPendingValidators database closed/);
    expect(text).toMatch(/Could not read: .*pending delegators \(.*database closed/);
  });

  it('the current read failing: a pending validator still answers', async () => {
    const pv = devnet.state.pendingValidators[0]!;
    fail('platform.getCurrentValidators');
    const { s } = await lookup({ nodeID: pv.nodeID });
    expect(s.status).toBe('pending');
    expect(s.problems.map((p: Rec) => p.step)).toEqual(['current validators']);
  });

  it('both reads failing: an error that gives each reason', async () => {
    fail('platform.getCurrentValidators');
    fail('platform.getPendingValidators');
    const r = await stack.call('validator_lookup', { nodeID: devnet.state.validators[0]!.nodeID });
    expect(r.isError).toBe(true);
    expect(r.text).toContain(`Could not look up ${devnet.state.validators[0]!.nodeID}: `);
    for (const method of ['platform.getCurrentValidators', 'platform.getPendingValidators']) expect(r.text).toContain(`${method} database closed`);
  });

  it('a pending validator whose start has passed starts in 0 s, not a negative time', async () => {
    const pv = devnet.state.pendingValidators[0]!;
    pv.startTime = Math.floor(Date.now() / 1000) - 3600;
    const { s } = await lookup({ nodeID: pv.nodeID });
    expect(s.status).toBe('pending');
    expect(s.startsIn.seconds).toBe('0');
  });

  it('a node that answers pending validators it was not asked about: not found, not someone else', async () => {
    const pv = devnet.state.pendingValidators[0]!;
    const answer = await raw('platform.getPendingValidators', { nodeIDs: [pv.nodeID] });
    devnet.router.on('/ext/P', 'platform.getPendingValidators', () => answer);
    const { s } = await lookup({ nodeID: UNKNOWN_NODE });
    expect(s.status).toBe('not_found');
  });
});
