import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDevnet } from '../../src/devnet/index.js';
import type { DevnetDialect } from '../../src/devnet/rpc.js';
import { balanceOf, type DevnetState } from '../../src/devnet/state/index.js';
import { inMemoryStack, type Stack } from '../helpers/stack.js';

/** Amounts as people write them: "1.5 CAM" beside smallest-unit digits, both forms in the preview, and a unit-mistake warning. */

const ENV = { CHAIN_MCP_ALLOW_SPEND: 'true', CHAIN_MCP_APPROVAL: 'confirm-id', CHAIN_MCP_KEYSTORE_USER: 'devnet', CHAIN_MCP_KEYSTORE_PASSWORD: 'Devnet-Passw0rd!' };

async function confirmed(stack: Stack, name: string, args: Record<string, unknown>) {
  const preview = await stack.call(name, args);
  expect(preview.isError, preview.text).toBe(false);
  const done = await stack.call(name, { ...args, confirm: preview.structured?.confirmationId });
  expect(done.isError, done.text).toBe(false);
  expect(done.structured?.status).toBe('issued');
  return { preview, done };
}

const alice = (state: DevnetState) => state.users.get('alice')!.keys[0]!;
const gold = (state: DevnetState) => [...state.assets.values()].find((a) => a.symbol === 'GLD')!;

describe.each(['spec', 'camino'] as DevnetDialect[])('display amounts in spend tools (%s node)', (dialect) => {
  let stack: Stack;
  let state: DevnetState;
  beforeAll(async () => {
    stack = await inMemoryStack({ devnet: await startDevnet({ dialect, keystoreApi: true }), env: ENV });
    state = stack.devnet.state;
  });
  afterAll(async () => {
    await stack.close();
    await stack.devnet.close();
  });

  it('xvm_send takes "1.5 CAM", converts it with 9 decimals, shows both forms and sends exactly that', async () => {
    const to = alice(state).x;
    const before = balanceOf(state, 'X', to, state.nativeAssetID);
    const { preview } = await confirmed(stack, 'xvm_send', { amount: '1.5 CAM', assetID: 'CAM', to });
    expect(preview.text).toContain('Amount in both units: 1.5 CAM = 1,500,000,000 nCAM (you wrote "1.5 CAM")');
    expect(preview.text).not.toContain('UNIT MISTAKE');
    expect((preview.structured?.details as Record<string, string> | undefined)?.amount).toBe('1500000000');
    expect(balanceOf(state, 'X', to, state.nativeAssetID)).toBe(before + 1_500_000_000n);
  });

  it('converts another asset with its own denomination (GLD has 2 decimals)', async () => {
    const to = alice(state).x;
    const g = gold(state);
    const before = balanceOf(state, 'X', to, g.id);
    await confirmed(stack, 'xvm_send', { amount: '2.5 GLD', assetID: g.id, to });
    expect(balanceOf(state, 'X', to, g.id)).toBe(before + 250n);
  });

  it('refuses a symbol that is not the asset\'s, naming the field, and sends no spend', async () => {
    stack.devnet.router.record = true;
    stack.devnet.router.requests.length = 0;
    try {
      const r = await stack.call('xvm_send', { amount: '1.5 GLD', assetID: 'CAM', to: alice(state).x });
      expect(r.isError).toBe(true);
      expect(r.text).toMatch(/amount/);
      expect(r.text).toContain('"GLD" is not this asset\'s symbol');
      const methods = stack.devnet.router.requests.map((q) => (q.body as { method?: string }).method);
      expect(methods.some((m) => /\.send$/.test(m ?? ''))).toBe(false);
    } finally {
      stack.devnet.router.record = false;
    }
  });

  it('refuses malformed input with a display amount before any request', async () => {
    stack.devnet.router.record = true;
    stack.devnet.router.requests.length = 0;
    try {
      const r = await stack.call('xvm_send', { amount: '1.5 CAM', assetID: 'CAM', to: 'X-nonsense' });
      expect(r.isError).toBe(true);
      expect(r.text).toMatch(/\bto\b/);
      expect(stack.devnet.router.requests).toHaveLength(0);
    } finally {
      stack.devnet.router.record = false;
    }
  });

  it('keeps digits as the smallest unit and flags "1" as a likely unit mistake below the fee', async () => {
    const r = await stack.call('xvm_send', { amount: '1', assetID: 'CAM', to: alice(state).x });
    expect(r.isError, r.text).toBe(false);
    expect(r.text).toContain('Amount in both units: 0.000000001 CAM = 1 nCAM');
    expect(r.text).toContain('LIKELY UNIT MISTAKE: 0.000000001 CAM = 1 nCAM is less than the fee (0.001 CAM)');
    expect(r.text).toContain('to send 1 CAM write "1 CAM"');
    expect((r.structured?.details as Record<string, string> | undefined)?.amount).toBe('1');
  });

  it('compares a native output with the fee even beside an output of another asset (sendMultiple)', async () => {
    const to = alice(state).x;
    const r = await stack.call('xvm_sendMultiple', {
      outputs: [
        { assetID: gold(state).id, amount: '1 GLD', to },
        { assetID: 'CAM', amount: '5000', to },
      ],
    });
    expect(r.isError, r.text).toBe(false);
    expect(r.text).toContain('LIKELY UNIT MISTAKE: 0.000005 CAM = 5,000 nCAM is less than the fee (0.001 CAM).');
  });

  it('takes display amounts in the other spend entries: transfer, sendMultiple outputs, the P-Chain export', async () => {
    const to = alice(state).x;
    const t = await stack.call('transfer', { to, amount: '2 CAM' });
    expect(t.isError, t.text).toBe(false);
    expect(t.text).toContain('Amount in both units: 2 CAM = 2,000,000,000 nCAM (you wrote "2 CAM")');
    const multi = await stack.call('xvm_sendMultiple', {
      outputs: [
        { assetID: 'CAM', amount: '0.25 CAM', to },
        { assetID: gold(state).id, amount: '1 GLD', to },
      ],
    });
    expect(multi.isError, multi.text).toBe(false);
    expect(multi.text).toContain('Amount in both units (outputs[0].amount): 0.25 CAM = 250,000,000 nCAM');
    expect(multi.text).toContain('Amount in both units (outputs[1].amount): 1 "GLD" = 100 smallest units');
    const own = state.users.get('devnet')!.keys[0]!;
    const exp = await stack.call('platform_exportNative', { amount: '3 CAM', to: own.x });
    expect(exp.isError, exp.text).toBe(false);
    expect(exp.text).toContain('3 CAM = 3,000,000,000 nCAM');
  });
});
