import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RpcFault } from '../../src/devnet/rpc.js';
import { inMemoryStack, type Stack } from '../helpers/stack.js';

// biome-ignore lint/suspicious/noExplicitAny: structured results are checked field by field
type Rec = Record<string, any>;

describe('account_overview against the devnet', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await inMemoryStack();
  });
  afterAll(() => stack.close());

  it('gathers X, P, C and waiting imports in one call, each equal to the single-operation tool', async () => {
    const [d0, d1] = stack.devnet.state.users.get(stack.devnet.state.devnetUser)!.keys;
    const overview = await stack.call('account_overview', { addresses: [d0!.x, d1!.p, d0!.c] });
    expect(overview.isError, overview.text).toBe(false);
    const o = overview.structured as Rec;
    expect(o.accounts.map((a: Rec) => a.address)).toEqual([d0!.bech32, d1!.bech32]);
    const native = stack.devnet.state.nativeAssetID;
    let expectedTotal = 0n;
    for (const [i, key] of [d0!, d1!].entries()) {
      const account = o.accounts[i] as Rec;
      const x = (await stack.call('xvm_getAllBalances', { address: key.x })).structured as Rec;
      expect(account.x).toEqual(x.balances.map((b: Rec) => ({ assetID: b.assetID, native: b.native, amount: b.balance })));
      expectedTotal += BigInt(x.balances.find((b: Rec) => b.assetID === native)?.balance.value ?? 0);
      const p = (await stack.call('platform_getBalance', { addresses: [key.p] })).structured as Rec;
      const pn = p.assets.find((a: Rec) => a.assetID === native);
      if (pn) {
        expect(account.p).toEqual({ total: pn.total, unlocked: pn.unlocked, bonded: pn.bonded, deposited: pn.deposited, bondedDeposited: pn.bondedDeposited });
        expectedTotal += BigInt(pn.total.value);
      }
      for (const [tool, addr, on, from] of [
        ['xvm_getUTXOs', key.x, 'X', 'P'],
        ['xvm_getUTXOs', key.x, 'X', 'C'],
        ['cx_getUTXOs', `C-${key.bech32}`, 'C', 'X'],
      ] as const) {
        const u = (await stack.call(tool, { addresses: [addr], sourceChain: from, fetchAll: true })).structured as Rec;
        const t = (u.totals as Rec[]).find((r) => r.assetID === native);
        const w = (account.waiting as Rec[]).find((r) => r.on === on && r.from === from);
        if (t) {
          expect(w?.amount).toEqual(t.amount);
          expectedTotal += BigInt(t.amount.value);
        } else expect(w).toBeUndefined();
      }
    }
    // The seed has funds waiting: P -> X and X -> C for key 0, C -> X for key 1.
    expect((o.accounts[0].waiting as Rec[]).map((w) => `${w.from}->${w.on}`).sort()).toEqual(['P->X', 'X->C']);
    expect((o.accounts[1].waiting as Rec[]).map((w) => `${w.from}->${w.on}`)).toEqual(['C->X']);
    expect(o.accounts[0].p.bonded.value).not.toBe('0');
    const evm = (await stack.call('eth_getBalance', { address: d0!.c })).structured as Rec;
    // The 0x address's other assets on C are listed too (issue 33), each as eth_getAssetBalance reads it.
    const onC = [...(stack.devnet.state.cAssetBalances.get(d0!.c.toLowerCase()) ?? new Map<string, bigint>())];
    expect(onC.length).toBeGreaterThan(0);
    expect(o.evm).toEqual([
      {
        address: d0!.c.toLowerCase(),
        balance: evm.balance,
        assets: await Promise.all(
          onC.map(async ([assetID, amount]) => {
            const one = (await stack.call('eth_getAssetBalance', { address: d0!.c, assetID })).structured as Rec;
            expect(one.balance.value).toBe(String(amount));
            return { assetID, amount: one.balance };
          }),
        ),
      },
    ]);
    expectedTotal += BigInt(evm.balance.value) / 10n ** 9n;
    expect(o.nativeTotal.value).toBe(expectedTotal.toString());
    expect(o.problems).toEqual([]);
    expect(overview.text).toContain(`${d0!.bech32}:`);
    expect(overview.text).toMatch(/waiting for import on C \(exported from X\)/);
  });

  it('refuses an address with a bad checksum, naming it, and sends nothing', async () => {
    stack.devnet.router.record = true;
    stack.devnet.router.requests.length = 0;
    const bad = await stack.call('account_overview', { addresses: ['X-local1qurswpc8qurswpc8qurswpc8qurswpc8lzh466'] });
    expect(bad.isError).toBe(true);
    expect(bad.text).toMatch(/addresses\[0\]/);
    expect(stack.devnet.router.requests).toHaveLength(0);
    stack.devnet.router.record = false;
  });

  it('sends its node reads side by side, one request object each, batched only on the EVM endpoint', async () => {
    const [d0, d1] = stack.devnet.state.users.get(stack.devnet.state.devnetUser)!.keys;
    const args = { addresses: [d0!.x, d1!.p, d0!.c, d1!.c] };
    const first = await stack.call('account_overview', args); // learns the network and asset names once
    stack.devnet.router.record = true;
    stack.devnet.router.requests.length = 0;
    try {
      const second = await stack.call('account_overview', args);
      expect(second.structured).toEqual(first.structured);
      expect((second.structured as Rec).problems).toEqual([]);
      const shape = (body: unknown) => (Array.isArray(body) ? `[${body.map((b: Rec) => b.method).sort()}]` : String((body as Rec).method));
      const byPath = new Map<string, string[]>();
      for (const r of stack.devnet.router.requests) byPath.set(r.path, [...(byPath.get(r.path) ?? []), shape(r.body)]);
      // A caminogo endpoint takes one request object per POST; only the EVM's takes a batch.
      expect(Object.fromEntries([...byPath].map(([path, bodies]) => [path, bodies.sort()]))).toEqual({
        '/ext/bc/X': ['xvm.getAllBalances', 'xvm.getAllBalances', 'xvm.getUTXOs', 'xvm.getUTXOs', 'xvm.getUTXOs', 'xvm.getUTXOs'],
        // Key 0 has locked P funds: its UTXOs are asked for their lock IDs (a spec node lacks the method).
        // platform.getCurrentSupply: the asset list's native row carries the node's supply beside the indexer's.
        '/ext/P': ['platform.getBalance', 'platform.getBalance', 'platform.getCurrentSupply', 'platform.getUTXOs'],
        '/ext/bc/C/cx': ['cx.getUTXOs', 'cx.getUTXOs'],
        // Three non-native assets on X, asked on C for both 0x addresses in one batch.
        '/ext/bc/C/rpc': [`[${Array(6).fill('eth_getAssetBalance')}]`, '[eth_getBalance,eth_getBalance]'],
      });
    } finally {
      stack.devnet.router.record = false;
    }
  });
});

describe('account_overview when one read of a batch fails', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await inMemoryStack();
  });
  afterAll(() => stack.close());

  it('reports the failed step as a problem and still answers every other step', async () => {
    const [d0] = stack.devnet.state.users.get(stack.devnet.state.devnetUser)!.keys;
    const healthy = (await stack.call('account_overview', { addresses: [d0!.x] })).structured as Rec;
    expect(healthy.problems).toEqual([]);
    stack.devnet.router.on('/ext/bc/X', 'xvm.getAllBalances', () => {
      throw new RpcFault('balances index offline');
    });
    const result = await stack.call('account_overview', { addresses: [d0!.x] });
    expect(result.isError, result.text).toBe(false);
    const o = result.structured as Rec;
    expect(o.problems).toEqual([{ step: `X balances of ${d0!.bech32}`, error: expect.stringContaining('balances index offline') }]);
    expect(o.accounts[0].x).toEqual([]);
    // The other reads of the same batch (the UTXO pages) and of the other endpoints still answered.
    expect(o.accounts[0].waiting).toEqual(healthy.accounts[0].waiting);
    expect(o.accounts[0].p).toEqual(healthy.accounts[0].p);
    expect(result.text).toContain('Could not read: X balances of');
  });
});
