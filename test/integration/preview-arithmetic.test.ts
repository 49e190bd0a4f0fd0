import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DevnetState, nodeIdFor } from '../../src/devnet/state/index.js';
import { inMemoryStack, type Stack } from '../helpers/stack.js';

/**
 * The numbers a human approves are the ones that leave: each preview's "Balance after" line is the
 * balance now minus the amount and the fee (or the stake), exactly, to the smallest unit. Found by
 * mutation testing (issue 25): a fee subtracted instead of added, or an output left out of a total,
 * passed every other test.
 */

const DAY = 86_400;
const CAM = 1_000_000_000n;

/** "2,000.5 CAM" in nCAM. */
function nCam(display: string): bigint {
  const [whole, fraction = ''] = display.replaceAll(',', '').split('.');
  return BigInt(whole!) * CAM + BigInt(fraction.padEnd(9, '0'));
}

/** What the preview says leaves the balance: now minus after. */
function leaving(text: string): bigint {
  const m = /Balance after(?: on [XPC])?: ([\d,.]+) CAM \(now ([\d,.]+) CAM\)/.exec(text);
  expect(m, text).not.toBeNull();
  return nCam(m![2]!) - nCam(m![1]!);
}

async function preview(stack: Stack, name: string, args: Record<string, unknown>) {
  const r = await stack.call(name, args);
  expect(r.isError, r.text).toBe(false);
  expect(r.structured?.status).toBe('preview');
  return r;
}

describe.each([true, false])('preview arithmetic (lock mode %s)', (lockMode) => {
  let stack: Stack;
  let state: DevnetState;
  let txFee: bigint;
  beforeAll(async () => {
    stack = await inMemoryStack({
      env: { CHAIN_MCP_ALLOW_SPEND: 'true', CHAIN_MCP_APPROVAL: 'confirm-id', CHAIN_MCP_KEYSTORE_USER: 'devnet', CHAIN_MCP_KEYSTORE_PASSWORD: 'Devnet-Passw0rd!' },
    });
    state = stack.devnet.state;
    state.config.lockModeBondDeposit = lockMode;
    txFee = state.fees.txFee;
  });
  afterAll(() => stack.close());

  const keys = () => {
    const devnet = state.users.get('devnet')!;
    const alice = state.users.get('alice')!;
    return { d0: devnet.keys[0]!, a0: alice.keys[0]!, a1: alice.keys[1]! };
  };

  it('xvm_send: the amount and the fee leave', async () => {
    const r = await preview(stack, 'xvm_send', { amount: '2500000000', assetID: 'CAM', to: keys().a0.x });
    expect(leaving(r.text)).toBe(2_500_000_000n + txFee);
  });

  it('xvm_send and xvm_sendMultiple previews are exactly these lines, in this order, and the memo only when given', async () => {
    const { a0 } = keys();
    const fixed = (preview: unknown) => (preview as string[]).map((l) => l.replace(/^Balance after: .*/, 'Balance after: …'));
    const plain = await preview(stack, 'xvm_send', { amount: '2500000000', assetID: 'CAM', to: a0.x });
    expect(fixed(plain.structured?.preview)).toEqual([
      // Human first (DESIGN section 9): what is sent to whom, and the total with the most the fee can be.
      `Send an asset on X: 2.5 CAM to ${a0.x}`,
      "Total leaving your key: 2.501 CAM (amount + the most the fee can be; the node's keystore user signs)",
      'Network: local 12345 (prefix local), chain X',
      "From: any of the keystore user's addresses",
      `To: ${a0.x}`,
      'Change to: one of your addresses (the node picks)',
      'Amount: 2.5 CAM',
      'Fee: 0.001 CAM',
      'Balance after: …',
      'Amount in both units: 2.5 CAM = 2,500,000,000 nCAM',
    ]);
    expect(plain.structured?.details).toEqual({ to: a0.x, changeAddr: null, amount: '2500000000', assetID: state.nativeAssetID, fee: String(txFee) });
    const memo = await preview(stack, 'xvm_send', { amount: '2500000000', assetID: 'CAM', to: a0.x, memo: 'hi', changeAddr: keys().d0.x });
    expect(fixed(memo.structured?.preview).at(-1)).toBe('Memo (written by the sender): "hi"');
    expect(memo.structured?.details).toMatchObject({ changeAddr: keys().d0.x });
    const multi = await preview(stack, 'xvm_sendMultiple', { outputs: [{ assetID: 'CAM', amount: '2500000000', to: a0.x }] });
    expect(fixed(multi.structured?.preview)).toEqual([
      `Send to several recipients on X: 2.5 CAM to ${a0.x}`,
      "Total leaving your key: 2.501 CAM (amount + the most the fee can be; the node's keystore user signs)",
      'Network: local 12345 (prefix local), chain X',
      "From: any of the keystore user's addresses",
      `Pays 1 of 1: 2.5 CAM to ${a0.x}`,
      'Change to: one of your addresses (the node picks)',
      'Total native: 2.5 CAM',
      'Fee: 0.001 CAM',
      'Balance after: …',
      'Amount in both units: 2.5 CAM = 2,500,000,000 nCAM',
    ]);
    expect(multi.structured?.details).toEqual({ outputs: 1, nativeTotal: '2500000000', fee: String(txFee), changeAddr: null });
    const multiMemo = await preview(stack, 'xvm_sendMultiple', { outputs: [{ assetID: 'CAM', amount: '2500000000', to: a0.x }], memo: 'split', changeAddr: keys().d0.x });
    expect(fixed(multiMemo.structured?.preview).at(-1)).toBe('Memo (written by the sender): "split"');
    expect(multiMemo.structured?.details).toMatchObject({ changeAddr: keys().d0.x });
  });

  it('xvm_sendMultiple: every native output and the fee leave', async () => {
    const { a0, a1 } = keys();
    const r = await preview(stack, 'xvm_sendMultiple', {
      outputs: [
        { assetID: 'CAM', amount: '5000000', to: a1.x },
        { assetID: 'CAM', amount: '7', to: a0.x },
      ],
    });
    expect(leaving(r.text)).toBe(5_000_007n + txFee);
  });

  it("xvm_sendMultiple: another asset's output is not native CAM, in the total or in the balance", async () => {
    const { a0, a1 } = keys();
    const gld = [...state.assets.values()].find((a) => a.symbol === 'GLD')!.id;
    const r = await preview(stack, 'xvm_sendMultiple', {
      outputs: [
        { assetID: 'CAM', amount: '5000000', to: a1.x },
        { assetID: gld, amount: '100', to: a0.x },
      ],
    });
    expect(leaving(r.text)).toBe(5_000_000n + txFee);
    expect(r.structured?.details).toMatchObject({ outputs: 2, nativeTotal: '5000000' });
  });

  it('xvm_export: the amount and the fee leave X', async () => {
    const r = await preview(stack, 'xvm_export', { to: `C-${keys().d0.bech32}`, amount: '3000000000', assetID: 'CAM' });
    expect(leaving(r.text)).toBe(3_000_000_000n + txFee);
  });

  it('xvm_export names the destination chain and the import that completes it, for C and for P', async () => {
    const { d0 } = keys();
    for (const [to, chain, completes] of [
      [`C-${d0.bech32}`, 'C', 'cx_import'],
      [d0.p, 'P', "the platform chain's import"],
    ] as const) {
      const r = await preview(stack, 'xvm_export', { to, amount: '1000', assetID: 'CAM' });
      expect(r.text).toContain(`To: ${to} (chain ${chain}; completed by ${completes})`);
      expect(r.structured?.details).toEqual({ to, amount: '1000', destinationChain: chain });
    }
  });

  it('cx_export shows the most its fee can burn at the base fee given (at most twice the node\'s) or the node\'s own, and the import that completes it', async () => {
    const { d0 } = keys();
    // The devnet user has 3 keys: the node may spend from each, so the bound is 3 EVM inputs and one
    // output: 366 unsigned bytes + 3 x 1,000 + 10,000 = 13,366 gas.
    const given = await preview(stack, 'cx_export', { to: d0.x, amount: '2000000000', assetID: 'CAM', baseFee: 50_000_000_000 });
    expect(given.text).toContain("Fee: at most 0.0006683 CAM, burnt on C (gas at most 13366 x base fee 50000000000 wei; the node's current base fee is 25000000000 wei)");
    expect(given.text).toContain('Total at most: 2.0006683 CAM, counted against the limits');
    expect(given.text).toContain(`To: ${d0.x} (completed by xvm_import with sourceChain "C")`);
    expect(given.text).toContain('Amount: 2 CAM');
    expect(given.structured?.details).toMatchObject({ maxFee: '668300', baseFeeWei: '50000000000' });
    const current = await preview(stack, 'cx_export', { to: d0.x, amount: '2000000000', assetID: 'CAM' });
    expect(current.text).toContain('Fee: at most 0.00033415 CAM, burnt on C (gas at most 13366 x base fee 25000000000 wei');
    const over = await stack.call('cx_export', { to: d0.x, amount: '2000000000', assetID: 'CAM', baseFee: 50_000_000_001 });
    expect(over.isError).toBe(true);
    expect(over.text).toContain("baseFee: at most twice the node's current base fee, 50000000000 wei (now 25000000000 wei); got 50000000001 wei");
  });

  it('platform_exportNative: the amount and the fee leave P', async () => {
    const r = await preview(stack, 'platform_exportNative', { amount: '4000000000', to: keys().d0.x });
    expect(leaving(r.text)).toBe(4_000_000_000n + txFee);
    expect(r.text).toContain(`To: ${keys().d0.x} (completed by xvm_import with sourceChain "P")`);
  });

  it('platform_addValidator: exactly the stake is locked, over the named period', async () => {
    const { d0 } = keys();
    const start = Math.floor(Date.now() / 1000) + 3600;
    const r = await preview(stack, 'platform_addValidator', {
      nodeID: nodeIdFor(`arith-${lockMode}`),
      startTime: start,
      endTime: start + 30 * DAY,
      stakeAmount: '2000000000000',
      rewardAddress: d0.p,
      delegationFeeRate: 2.5,
      ...(lockMode ? { nodeOwnerAddress: d0.p } : {}),
    });
    expect(leaving(r.text)).toBe(2_000n * CAM);
    expect(r.text).toContain(`from ${new Date(start * 1000).toISOString()} to ${new Date((start + 30 * DAY) * 1000).toISOString()}`);
    // The devnet answers platform.getMinStake, so the required stake is known and nothing is added.
    expect(r.text.split('\n')).toContain('- Stake locked: 2,000 CAM');
    expect(r.text).toContain(`Reward to: ${d0.p}; delegation fee 2.5 %`);
    if (lockMode) expect(r.text.split('\n')).toContain(`- Node owner: ${d0.p} (signs for the node; gains nothing)`);
    else expect(r.text).not.toContain('Node owner');
  });

});

describe('bond/deposit lock mode rules, before any preview', () => {
  let stack: Stack;
  let state: DevnetState;
  beforeAll(async () => {
    stack = await inMemoryStack({
      env: { CHAIN_MCP_ALLOW_SPEND: 'true', CHAIN_MCP_APPROVAL: 'confirm-id', CHAIN_MCP_KEYSTORE_USER: 'devnet', CHAIN_MCP_KEYSTORE_PASSWORD: 'Devnet-Passw0rd!' },
    });
    state = stack.devnet.state;
    state.config.lockModeBondDeposit = true;
  });
  afterAll(() => stack.close());

  it('a validator needs its node owner, and a delegation is refused as a policy of the network', async () => {
    const d0 = state.users.get('devnet')!.keys[0]!;
    const start = Math.floor(Date.now() / 1000) + 3600;
    const validator = await stack.call('platform_addValidator', {
      nodeID: nodeIdFor('lock-rules'),
      startTime: start,
      endTime: start + 30 * DAY,
      stakeAmount: '2000000000000',
      rewardAddress: d0.p,
      delegationFeeRate: 2.5,
    });
    expect(validator.isError).toBe(true);
    expect(validator.text).toMatch(/nodeOwnerAddress: required on this network \(lockModeBondDeposit\)/);
    const v = state.validators.find((x) => x.subnetID === state.primaryNetworkID && x.endTime > Date.now() / 1000 + 5 * DAY)!;
    const delegation = await stack.call('platform_addDelegator', { nodeID: v.nodeID, startTime: start, endTime: start + 2 * DAY, stakeAmount: '25000000000', rewardAddress: d0.p });
    expect(delegation.isError).toBe(true);
    expect(delegation.text).toMatch(/^Refused: network \d+ runs in bond\/deposit lock mode \(lockModeBondDeposit\), where a node refuses every delegation\. Nothing was sent\./);
    expect(delegation.structured?.confirmationId).toBeUndefined();
  });
});

describe('delegation preview arithmetic (a network without lock mode: Camino refuses delegation in it)', () => {
  let stack: Stack;
  let state: DevnetState;
  beforeAll(async () => {
    stack = await inMemoryStack({
      env: { CHAIN_MCP_ALLOW_SPEND: 'true', CHAIN_MCP_APPROVAL: 'confirm-id', CHAIN_MCP_KEYSTORE_USER: 'devnet', CHAIN_MCP_KEYSTORE_PASSWORD: 'Devnet-Passw0rd!' },
    });
    state = stack.devnet.state;
    state.config.lockModeBondDeposit = false;
  });
  afterAll(() => stack.close());

  it('platform_addDelegator: exactly the stake is locked, and the validator weight after is its stake, its delegations and this one', async () => {
    const d0 = state.users.get('devnet')!.keys[0]!;
    const v = state.validators.find((x) => x.subnetID === state.primaryNetworkID && x.endTime > Date.now() / 1000 + 5 * DAY)!;
    const start = Math.floor(Date.now() / 1000) + 600;
    const r = await preview(stack, 'platform_addDelegator', { nodeID: v.nodeID, startTime: start, endTime: start + 2 * DAY, stakeAmount: '25000000000', rewardAddress: d0.p });
    expect(leaving(r.text)).toBe(25n * CAM);
    const delegated = [...v.delegators, ...state.pendingDelegators.filter((d) => d.nodeID === v.nodeID)].reduce((sum, d) => sum + d.stakeAmount, 0n);
    const weight = /validator weight after: ([\d,.]+) CAM/.exec(r.text);
    expect(weight, r.text).not.toBeNull();
    expect(nCam(weight![1]!)).toBe(v.stakeAmount + delegated + 25n * CAM);
    expect(r.text).toContain(`from ${new Date(start * 1000).toISOString()} to ${new Date((start + 2 * DAY) * 1000).toISOString()}`);
  });
});
