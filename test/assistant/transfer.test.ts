import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HttpFault, RpcFault } from '../../src/devnet/rpc.js';
import { startDevnet, type Devnet } from '../../src/devnet/index.js';
import type { UserKey } from '../../src/devnet/state/index.js';
import { inMemoryStack, type Stack } from '../helpers/stack.js';

// biome-ignore lint/suspicious/noExplicitAny: structured results are checked field by field
type Rec = Record<string, any>;

const ONE = 1_000_000_000n;
const SPEND_METHODS = new Set(['xvm.send', 'xvm.export', 'xvm.import', 'cx.export', 'cx.import', 'platform.exportNative']);

describe('transfer: guarded same-chain and cross-chain moves of the native asset', () => {
  let devnet: Devnet;
  let stack: Stack;
  let d0: UserKey;
  let alice: UserKey;
  const spendCalls = () =>
    devnet.router.requests.flatMap((r) => (Array.isArray(r.body) ? r.body : [r.body])).map((b) => String((b as Rec).method)).filter((m) => SPEND_METHODS.has(m));

  beforeEach(async () => {
    devnet = await startDevnet();
    stack = await inMemoryStack({
      devnet,
      env: { CHAIN_MCP_ALLOW_SPEND: 'true', CHAIN_MCP_APPROVAL: 'confirm-id', CHAIN_MCP_KEYSTORE_USER: devnet.keystore.username, CHAIN_MCP_KEYSTORE_PASSWORD: devnet.keystore.password },
    });
    d0 = devnet.state.users.get(devnet.state.devnetUser)!.keys[0]!;
    alice = devnet.state.users.get('alice')!.keys[0]!;
    devnet.router.record = true;
  });
  afterEach(async () => {
    await stack.close();
    await devnet.close();
  });

  const xNative = async (address: string) => {
    const r = (await stack.call('xvm_getBalance', { address, assetID: devnet.state.nativeAssetID })).structured as Rec;
    return BigInt(r.balance?.value ?? r.balance);
  };

  it('same chain: previews one send without sending, then sends once on confirm', async () => {
    const before = await xNative(alice.x);
    const args = { to: alice.x, amount: String(3n * ONE) };
    const preview = await stack.call('transfer', args);
    expect(preview.isError, preview.text).toBe(false);
    const p = preview.structured as Rec;
    expect(p.status).toBe('preview');
    expect(preview.text).toMatch(/Route: X -> X, one transaction/);
    expect(preview.text).toMatch(/Step 1: xvm\.send 3 CAM to .* on X \(fee 0\.001 CAM\)/);
    expect(spendCalls()).toEqual([]);

    const done = await stack.call('transfer', { ...args, confirm: p.confirmationId });
    expect(done.isError, done.text).toBe(false);
    const r = (done.structured as Rec).result;
    expect(r).toMatchObject({ route: 'X->X', complete: true, steps: [{ step: 1, action: 'send', chain: 'X', status: 'issued' }] });
    expect(r.txID).toBe(r.steps[0].txID);
    expect(devnet.state.txs.get(r.txID)?.status).toBe('Accepted');
    expect(await xNative(alice.x)).toBe(before + 3n * ONE);
    expect(spendCalls()).toEqual(['xvm.send']);

    const again = await stack.call('transfer', { ...args, confirm: p.confirmationId });
    expect(again.isError).toBe(true);
    expect(again.text).toMatch(/already used/);
    expect(spendCalls()).toEqual(['xvm.send']);
  });

  it('cross chain P -> X: the preview shows both steps and fees; one confirmation runs export then import in order', async () => {
    const overviewBefore = (await stack.call('account_overview', { addresses: [d0.x] })).structured as Rec;
    const waitingBefore = BigInt((overviewBefore.accounts[0].waiting as Rec[]).find((w) => w.from === 'P' && w.on === 'X')?.amount.value ?? 0);
    const xBefore = await xNative(d0.x);
    const args = { to: d0.x, amount: String(2n * ONE), sourceChain: 'P' };
    const preview = await stack.call('transfer', args);
    expect(preview.isError, preview.text).toBe(false);
    expect(preview.text).toMatch(/two transactions \(export, then import\)/);
    expect(preview.text).toMatch(/Step 1: platform\.exportNative 2 CAM from P to .*\(fee 0\.001 CAM\)/);
    expect(preview.text).toMatch(/Step 2: xvm\.import on X from P .*\(fee 0\.001 CAM, taken from the imported funds\)/);
    expect((preview.structured as Rec).details.steps).toHaveLength(2);
    expect(spendCalls()).toEqual([]);

    const done = await stack.call('transfer', { ...args, confirm: (preview.structured as Rec).confirmationId });
    expect(done.isError, done.text).toBe(false);
    const r = (done.structured as Rec).result;
    expect(r.complete).toBe(true);
    expect(r.steps.map((s: Rec) => `${s.action}:${s.chain}:${s.status}`)).toEqual(['export:P:issued', 'import:X:issued']);
    expect(spendCalls()).toEqual(['platform.exportNative', 'xvm.import']);
    expect(done.text).toContain(r.steps[0].txID);
    expect(done.text).toContain(r.steps[1].txID);
    // The import sweeps everything waiting from P, then pays its fee.
    expect(await xNative(d0.x)).toBe(xBefore + waitingBefore + 2n * ONE - devnet.state.fees.txFee);
  });

  it('cross chain X -> C: export to the key\'s C side, import credits its 0x address', async () => {
    const before = (await stack.call('account_overview', { addresses: [d0.x] })).structured as Rec;
    const waitingBefore = BigInt((before.accounts[0].waiting as Rec[]).find((w) => w.on === 'C')?.amount.value ?? 0);
    const weiBefore = devnet.state.cBalances.get(d0.c) ?? 0n;
    const args = { to: `C-${d0.bech32}`, amount: String(5n * ONE), evmAddress: d0.c };
    const preview = await stack.call('transfer', args);
    const done = await stack.call('transfer', { ...args, confirm: (preview.structured as Rec).confirmationId });
    expect(done.isError, done.text).toBe(false);
    const r = (done.structured as Rec).result;
    expect(r.complete, done.text).toBe(true);
    expect(spendCalls()).toEqual(['xvm.export', 'cx.import']);
    // The C import burns gas x base fee; every waiting output is single-signature here, so the
    // devnet burns exactly the preview's maximum.
    const maxFee = BigInt((preview.structured as Rec).details.maxFee) - devnet.state.fees.txFee;
    expect(devnet.state.cBalances.get(d0.c)).toBe(weiBefore + (waitingBefore + 5n * ONE - maxFee) * ONE);
  });

  it('cross chain X -> C: when the import fails after the export, it stops, reports the export txID, and never retries', async () => {
    devnet.router.on('/ext/bc/C/cx', 'cx.import', () => {
      throw new RpcFault('insufficient funds: the imported amount does not cover the fee');
    });
    const cAtomic = `C-${d0.bech32}`;
    const before = (await stack.call('account_overview', { addresses: [d0.x] })).structured as Rec;
    const waitingBefore = BigInt((before.accounts[0].waiting as Rec[]).find((w) => w.on === 'C')?.amount.value ?? 0);
    const args = { to: cAtomic, amount: String(4n * ONE), evmAddress: d0.c };
    const preview = await stack.call('transfer', args);
    expect(preview.isError, preview.text).toBe(false);
    expect(preview.text).toMatch(/Step 1: xvm\.export 4 CAM from X/);
    expect(preview.text).toMatch(new RegExp(`Step 2: cx\\.import on C from X to ${d0.c}`));

    const done = await stack.call('transfer', { ...args, confirm: (preview.structured as Rec).confirmationId });
    expect(done.isError, done.text).toBe(false);
    const r = (done.structured as Rec).result;
    expect(r.complete).toBe(false);
    expect(r.steps[0]).toMatchObject({ action: 'export', status: 'issued' });
    expect(r.steps[1]).toMatchObject({ action: 'import', status: 'failed', error: expect.stringContaining('insufficient funds') });
    expect(r.txID).toBe(r.steps[0].txID);
    expect(r.next).toContain('cx_import');
    expect(done.text).toMatch(/stopped part way/);
    expect(spendCalls()).toEqual(['xvm.export', 'cx.import']);
    // The funds are not lost: they wait on C for a later import.
    const after = (await stack.call('account_overview', { addresses: [d0.x] })).structured as Rec;
    expect(BigInt((after.accounts[0].waiting as Rec[]).find((w) => w.on === 'C')!.amount.value)).toBe(waitingBefore + 4n * ONE);
  });

  const importRoutes = [
    { route: 'X -> C', args: (k: UserKey) => ({ to: `C-${k.bech32}`, amount: String(2n * ONE), evmAddress: k.c }), calls: ['xvm.export', 'cx.import'] },
    { route: 'P -> X', args: (k: UserKey) => ({ to: k.x, amount: String(2n * ONE), sourceChain: 'P' }), calls: ['platform.exportNative', 'xvm.import'] },
  ];
  for (const { route, args: argsFor, calls } of importRoutes) {
    it(`cross chain ${route}: an import the node answers with a transient 503 is sent once, never retried`, async () => {
      // A 503 is what reads retry on; the import is a spend, so it must go out exactly once.
      let importRequests = 0;
      const args = argsFor(d0);
      const preview = await stack.call('transfer', args);
      expect(preview.isError, preview.text).toBe(false);
      // authorize runs after the request is recorded: refuse exactly the import, let reads through.
      devnet.router.authorize = () => {
        const last = devnet.router.requests.at(-1)?.body as Rec | undefined;
        if (last?.method === calls[1]) {
          importRequests++;
          throw new HttpFault(503, 'node is busy');
        }
      };
      devnet.router.requests.length = 0;
      const done = await stack.call('transfer', { ...args, confirm: (preview.structured as Rec).confirmationId });
      const r = (done.structured as Rec | undefined)?.result;
      expect(r?.complete, done.text).toBe(false);
      expect(r.steps[0]).toMatchObject({ action: 'export', status: 'issued' });
      expect(r.steps[1]).toMatchObject({ action: 'import', status: 'failed' });
      expect(spendCalls()).toEqual(calls);
      expect(importRequests).toBe(1);
    });
  }

  it('refuses impossible routes before sending anything, naming the field', async () => {
    const cases: Array<[Rec, RegExp]> = [
      [{ to: d0.p, amount: '1000' }, /\bto\b.*P-Chain import/],
      [{ to: `C-${d0.bech32}`, amount: '1000' }, /evmAddress/],
      [{ to: alice.x, amount: '1000', sourceChain: 'P' }, /\bto\b.*not an address of the keystore user/],
      [{ to: `C-${d0.bech32}`, amount: '1000', sourceChain: 'P', evmAddress: d0.c }, /sourceChain/],
      [{ to: alice.x, amount: '0' }, /amount/],
    ];
    for (const [args, message] of cases) {
      const r = await stack.call('transfer', args);
      expect(r.isError, JSON.stringify(args)).toBe(true);
      expect(r.text).toMatch(message);
    }
    expect(spendCalls()).toEqual([]);
  });

  it('applies the hard limits (max spend, allowed recipients) to the whole transfer before any request', async () => {
    const limited = await inMemoryStack({
      devnet,
      env: {
        CHAIN_MCP_ALLOW_SPEND: 'true', CHAIN_MCP_APPROVAL: 'confirm-id',
        CHAIN_MCP_KEYSTORE_USER: devnet.keystore.username,
        CHAIN_MCP_KEYSTORE_PASSWORD: devnet.keystore.password,
        CHAIN_MCP_MAX_SPEND: String(ONE),
        CHAIN_MCP_ALLOWED_RECIPIENTS: d0.x,
      },
    });
    try {
      const tooMuch = await limited.call('transfer', { to: d0.x, amount: String(2n * ONE), sourceChain: 'P' });
      expect(tooMuch.isError).toBe(true);
      expect(tooMuch.text).toMatch(/CHAIN_MCP_MAX_SPEND/);
      const stranger = await limited.call('transfer', { to: alice.x, amount: '1000' });
      expect(stranger.isError).toBe(true);
      expect(stranger.text).toMatch(/CHAIN_MCP_ALLOWED_RECIPIENTS/);
      expect(spendCalls()).toEqual([]);
    } finally {
      await limited.close();
    }
  });

  it('is not listed without CHAIN_MCP_ALLOW_SPEND', async () => {
    const readOnly = await inMemoryStack({ devnet });
    try {
      const names = (await readOnly.client.listTools()).tools.map((t) => t.name);
      expect(names).toContain('account_overview');
      expect(names).not.toContain('transfer');
    } finally {
      await readOnly.close();
    }
  });
});
