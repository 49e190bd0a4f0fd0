import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatBareBech32, parseBareBech32 } from '../../src/codec/index.js';
import { startDevnet } from '../../src/devnet/index.js';
import type { DevnetDialect } from '../../src/devnet/rpc.js';
import { type DevnetState, utxosOf } from '../../src/devnet/state/index.js';
import { inMemoryStack, type Stack } from '../helpers/stack.js';

// biome-ignore lint/suspicious/noExplicitAny: structured results are checked field by field
type Rec = Record<string, any>;

/** What the simulator holds for one key, native only: X own, P (every lock state), and what waits for import. */
function heldNatively(state: DevnetState, bare: string): { x: bigint; p: bigint; waiting: bigint } {
  const native = (utxos: Array<{ assetID: string; amount: bigint }>) => utxos.filter((u) => u.assetID === state.nativeAssetID).reduce((s, u) => s + u.amount, 0n);
  return {
    x: native(utxosOf(state, 'X', [bare])),
    p: native(utxosOf(state, 'P', [bare])),
    waiting: native(utxosOf(state, 'X', [bare], { sourceChain: 'P' })) + native(utxosOf(state, 'X', [bare], { sourceChain: 'C' })) + native(utxosOf(state, 'C', [bare], { sourceChain: 'X' })),
  };
}

describe.each(['spec', 'camino'] as DevnetDialect[])('account_overview answers an assistant can repeat (%s node)', (dialect) => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await inMemoryStack({ devnet: await startDevnet({ dialect }) });
  });
  afterAll(async () => {
    await stack.close();
    await stack.devnet.close();
  });

  it('counts the X-Chain native balance however the node names it, and the total is the sum of the parts shown', async () => {
    const state = stack.devnet.state;
    const [d0] = state.users.get(state.devnetUser)!.keys;
    const held = heldNatively(state, d0!.bech32);
    expect(held.x).toBeGreaterThan(0n);
    const r = await stack.call('account_overview', { addresses: [d0!.x] });
    expect(r.isError, r.text).toBe(false);
    const o = r.structured as Rec;
    const nativeLines = (o.accounts[0].x as Rec[]).filter((l) => l.native);
    expect(nativeLines).toHaveLength(1);
    expect(nativeLines[0]!.assetID).toBe(state.nativeAssetID);
    expect(nativeLines[0]!.amount.value).toBe(held.x.toString());
    expect(o.accounts[0].p.total.value).toBe(held.p.toString());
    expect(o.nativeTotal.value).toBe((held.x + held.p + held.waiting).toString());
    expect(r.text).toContain(`Native total: ${o.nativeTotal.display}`);
    // The EVM balance was not read: the answer says so and how to include it.
    expect(o.notRead).toEqual([expect.stringContaining('C-Chain EVM balance: not read')]);
    expect(r.text).toMatch(/C-Chain EVM balance: not read \(give the 0x address/);
  });

  it('reads the C-Chain EVM balance when the 0x address is given, and then names nothing as unread', async () => {
    const state = stack.devnet.state;
    const [d0] = state.users.get(state.devnetUser)!.keys;
    const held = heldNatively(state, d0!.bech32);
    const wei = state.cBalances.get(d0!.c.toLowerCase()) ?? 0n;
    expect(wei).toBeGreaterThan(0n);
    const r = await stack.call('account_overview', { addresses: [d0!.x, d0!.c] });
    const o = r.structured as Rec;
    expect(o.notRead).toEqual([]);
    expect(r.text).not.toContain('not read');
    expect(o.nativeTotal.value).toBe((held.x + held.p + held.waiting + wei / 10n ** 9n).toString());
  });

  it('xvm_getAllBalances marks the native line and gives its ID, whatever name the node used', async () => {
    const state = stack.devnet.state;
    const [d0] = state.users.get(state.devnetUser)!.keys;
    const r = await stack.call('xvm_getAllBalances', { address: d0!.x });
    const balances = (r.structured as Rec).balances as Rec[];
    const native = balances.filter((b) => b.native);
    expect(native).toHaveLength(1);
    expect(native[0]).toMatchObject({ asset: dialect === 'camino' ? 'CAM' : state.nativeAssetID, assetID: state.nativeAssetID });
    expect(r.text).toMatch(/ CAM \(native\)/);
    // Every other line resolves to an asset the simulator knows, by ID.
    for (const b of balances) expect(state.assets.has(b.assetID)).toBe(true);
  });

  it("refuses an address of another network, naming both networks, before any request but the network lookup", async () => {
    const state = stack.devnet.state;
    const [d0] = state.users.get(state.devnetUser)!.keys;
    const foreign = `X-${formatBareBech32('columbus', parseBareBech32(d0!.bech32).bytes)}`;
    const fresh = await inMemoryStack({ devnet: stack.devnet });
    stack.devnet.router.record = true;
    stack.devnet.router.requests.length = 0;
    try {
      const r = await fresh.call('account_overview', { addresses: [d0!.x, foreign] });
      expect(r.isError).toBe(true);
      expect(r.text).toContain('addresses[1]');
      expect(r.text).toContain('"columbus" (test network, ID 1001)');
      expect(r.text).toContain(`"${state.config.hrp}"`);
      const methods = stack.devnet.router.requests.flatMap((q) => (Array.isArray(q.body) ? q.body : [q.body]).map((b) => (b as Rec).method));
      expect(methods.every((m) => m === 'platform.getConfiguration' || m === 'info.getNetworkID'), methods.join(',')).toBe(true);
    } finally {
      stack.devnet.router.record = false;
      await fresh.close();
    }
  });
  it('other read tools refuse another network\'s address the same way once the network is known, sending nothing', async () => {
    const state = stack.devnet.state;
    const [d0] = state.users.get(state.devnetUser)!.keys;
    const foreign = (chain: string) => `${chain}-${formatBareBech32('columbus', parseBareBech32(d0!.bech32).bytes)}`;
    await stack.call('network_overview'); // the network is learned and cached
    stack.devnet.router.record = true;
    stack.devnet.router.requests.length = 0;
    try {
      const x = await stack.call('xvm_getAllBalances', { address: foreign('X') });
      expect(x.isError).toBe(true);
      expect(x.text).toMatch(/\baddress\b/);
      expect(x.text).toContain('"columbus" (test network, ID 1001)');
      const p = await stack.call('platform_getBalance', { addresses: [d0!.p, foreign('P')] });
      expect(p.isError).toBe(true);
      expect(p.text).toContain('addresses[1]');
      expect(stack.devnet.router.requests).toHaveLength(0);
    } finally {
      stack.devnet.router.record = false;
    }
  });
});
