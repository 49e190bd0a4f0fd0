import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startDevnet, type Devnet } from '../../src/devnet/index.js';
import { pageUtxos } from '../../src/devnet/node/xvm.js';
import { HttpFault, type Params, RpcFault } from '../../src/devnet/rpc.js';
import type { UserKey } from '../../src/devnet/state/index.js';
import { nativeAmount } from '../../src/summarize/format.js';
import { type SpendHarness, spendHarness } from '../helpers/spend-harness.js';
import { nodeAnswer as askNode } from '../helpers/node-answer.js';

/**
 * The keystore `transfer` between its two steps (issue 44, group `camino`): the wait for the
 * export (polls, its bound, a refused or unreadable export), what an import failure means, and the
 * preview's refusals and lines, through MCP against the simulator (spec dialect).
 */

// biome-ignore lint/suspicious/noExplicitAny: structured results are checked field by field
type Rec = Record<string, any>;

const ONE = 1_000_000_000n;
const SPENDS = new Set(['xvm.send', 'xvm.export', 'xvm.import', 'cx.export', 'cx.import', 'platform.exportNative']);

describe('transfer (keystore): the wait for the export, and what each outcome tells the user', () => {
  let devnet: Devnet;
  let h: SpendHarness;
  let d0: UserKey;
  const methods = () => devnet.router.requests.flatMap((r) => (Array.isArray(r.body) ? r.body : [r.body])).map((b) => String((b as Rec).method));
  const spends = () => methods().filter((m) => SPENDS.has(m));

  beforeEach(async () => {
    devnet = await startDevnet();
    d0 = devnet.state.users.get(devnet.state.devnetUser)!.keys[0]!;
    devnet.router.record = true;
  });
  afterEach(async () => {
    await h?.close();
    await devnet.close();
  });

  const harness = async () => {
    h = await spendHarness(devnet, { env: { CHAIN_MCP_APPROVAL: 'confirm-id' } });
    return h;
  };
  /** Preview, then confirm, collecting the progress the client is told. */
  const run = async (args: Rec) => {
    const preview = await h.call('transfer', args);
    expect(preview.isError, preview.text).toBe(false);
    const progress: Array<{ progress: number; message?: string }> = [];
    const from = devnet.router.requests.length;
    const r = await h.client.callTool(
      { name: 'transfer', arguments: { ...args, confirm: (preview.structured as Rec).confirmationId } },
      { onprogress: (n) => progress.push(n), resetTimeoutOnProgress: true },
    );
    const text = ((r.content ?? []) as Array<{ text?: string }>).map((c) => c.text ?? '').join('\n');
    expect(r.isError, text).not.toBe(true);
    const exportPolls = progress.filter((n) => n.message?.startsWith('export '));
    return { result: (r.structuredContent as Rec).result as Rec, text, exportPolls, seen: methods().slice(from) };
  };
  const toC = () => ({ to: `C-${d0.bech32}`, amount: String(2n * ONE), evmAddress: d0.c });
  /** xvm.getTxStatus answers from a script first, then from the simulator's state; `onPoll` runs on each. */
  const xStatus = (script: string[], onPoll: () => void = () => {}) =>
    devnet.router.on('/ext/bc/X', 'xvm.getTxStatus', (p: Params) => {
      onPoll();
      const next = script.shift();
      return { status: next ?? devnet.state.txs.get(String(p.txID))?.status ?? 'Unknown' };
    });

  it('waits while the export is Processing, telling each poll counted up, and imports once it is Accepted', async () => {
    xStatus(['Processing', 'Processing']);
    await harness();
    const { result, exportPolls, seen } = await run(toC());
    expect(result.complete).toBe(true);
    const exportID = result.steps[0].txID;
    expect(exportPolls.map((n) => [n.progress, n.message])).toEqual([
      [1, `export ${exportID}: Processing`],
      [2, `export ${exportID}: Processing`],
      [3, `export ${exportID}: Accepted`],
    ]);
    // The import goes out after the third status read, the first that said Accepted.
    const polls = seen.flatMap((m, n) => (m === 'xvm.getTxStatus' ? [n] : []));
    expect(polls).toHaveLength(3);
    expect(seen.indexOf('cx.import')).toBeGreaterThan(polls[2]!);
  });

  it('a Rejected export: the import is never sent, and the user is told nothing left the source chain', async () => {
    xStatus(['Rejected']);
    await harness();
    const { result, text } = await run(toC());
    expect(result.complete).toBe(false);
    expect(result.steps[1]).toEqual({ step: 2, action: 'import', chain: 'C', status: 'not_run', error: 'not run: the export is Rejected' });
    expect(result.next).toBe('The export did not go through; nothing left the source chain.');
    expect(text).toContain('stopped part way');
    expect(text).toContain(result.next);
    expect(spends()).toEqual(['xvm.export']);
  });

  it('a Dropped export from C: the import on X is never sent, nothing left C', async () => {
    devnet.router.on('/ext/bc/C/cx', 'cx.getAtomicTxStatus', () => ({ status: 'Dropped' }));
    await harness();
    const { result } = await run({ to: d0.x, amount: String(ONE), sourceChain: 'C' });
    expect(result.route).toBe('C->X');
    expect(result.steps[1]).toMatchObject({ status: 'not_run', error: 'not run: the export is Dropped' });
    expect(result.next).toBe('The export did not go through; nothing left the source chain.');
    expect(spends()).toEqual(['cx.export']);
  });

  it('an export still Processing at the 60 s bound: stops after the bound, says how to import later, sends no import', async () => {
    await harness();
    // Each status read takes 30 s of the server's clock: the second one reaches the bound.
    xStatus(['Processing', 'Processing', 'Processing', 'Processing'], () => {
      h.clock.now += 30_000;
    });
    const { result, seen } = await run(toC());
    expect(result.complete).toBe(false);
    expect(seen.filter((m) => m === 'xvm.getTxStatus')).toHaveLength(2);
    expect(result.steps[1]).toMatchObject({ status: 'not_run', error: 'not run: the export is Processing' });
    expect(result.next).toBe(
      `The exported funds wait on C; import them with cx_import ${JSON.stringify({ to: d0.c, sourceChain: 'X' })} once the export is Accepted (tx_status ${result.steps[0].txID}).`,
    );
    expect(spends()).toEqual(['xvm.export']);
  });

  it('a status read that fails: no import, the reason and the way to import later are given', async () => {
    devnet.router.on('/ext/bc/X', 'xvm.getTxStatus', () => {
      throw new RpcFault('database closed');
    });
    await harness();
    const { result } = await run(toC());
    expect(result.complete).toBe(false);
    expect(result.steps[1].status).toBe('not_run');
    expect(result.steps[1].error).toMatch(/^not run: could not confirm the export \(.*database closed.*\)$/);
    expect(result.next).toContain('import them with cx_import');
    expect(spends()).toEqual(['xvm.export']);
  });

  it('P -> X with the wait unreadable: tells the xvm_import that takes the funds later', async () => {
    await harness();
    const args = { to: d0.x, amount: String(ONE), sourceChain: 'P' };
    const preview = await h.call('transfer', args);
    devnet.router.on('/ext/bc/X', 'xvm.getUTXOs', () => {
      throw new RpcFault('database closed');
    });
    const done = await h.call('transfer', { ...args, confirm: (preview.structured as Rec).confirmationId });
    const result = (done.structured as Rec).result;
    expect(result.steps[1].status).toBe('not_run');
    expect(result.next).toBe(
      `The exported funds wait on X; import them with xvm_import ${JSON.stringify({ to: d0.x, sourceChain: 'P' })} once the export is Accepted (tx_status ${result.steps[0].txID}).`,
    );
    expect(spends()).toEqual(['platform.exportNative']);
  });

  it('P -> X: the import waits until the export\'s own outputs wait on X, not only older ones', async () => {
    await harness();
    // Something exported from P earlier already waits for the key on X (the seed's).
    const waitingFromP = [...devnet.state.utxos.values()].filter((u) => !u.spentBy && u.chain === 'X' && u.sourceChain === 'P' && u.addresses.includes(d0.x));
    expect(waitingFromP.length).toBeGreaterThan(0);
    // The first poll after the export answers as a node that has not accepted it yet: its outputs are not there.
    const txsBefore = new Set(devnet.state.txs.keys());
    let polls = 0;
    devnet.router.on('/ext/bc/X', 'xvm.getUTXOs', (p: Params) => {
      const fresh = [...devnet.state.txs.keys()].filter((id) => !txsBefore.has(id));
      if (p.sourceChain !== 'P' || fresh.length === 0 || polls++ > 0) return pageUtxos(devnet.state, 'X', p, ['X'], false);
      const hidden = [...devnet.state.utxos.entries()].filter(([, u]) => fresh.includes(u.txID));
      for (const [id] of hidden) devnet.state.utxos.delete(id);
      try {
        return pageUtxos(devnet.state, 'X', p, ['X'], false);
      } finally {
        for (const [id, u] of hidden) devnet.state.utxos.set(id, u);
      }
    });
    const { result, exportPolls } = await run({ to: d0.x, amount: String(2n * ONE), sourceChain: 'P' });
    expect(result.complete).toBe(true);
    expect(exportPolls.map((n) => n.message)).toEqual([`export ${result.steps[0].txID}: Processing`, `export ${result.steps[0].txID}: Accepted`]);
  });

  it('an import answered without a txID: its outcome is unknown, and the user is told not to repeat it blindly', async () => {
    devnet.router.on('/ext/bc/C/cx', 'cx.import', () => ({}));
    await harness();
    const { result } = await run(toC());
    expect(result.complete).toBe(false);
    expect(result.steps[1]).toMatchObject({ status: 'unknown', error: expect.stringContaining('without a txID') });
    expect(result.next).toMatch(new RegExp(`^The import's outcome is unknown; do not repeat it blindly: check account_overview for C-${d0.bech32} first\\. The exported funds wait on C`));
  });

  it('an import the node does not answer in time: its outcome is unknown, never repeated', async () => {
    let release = () => {};
    let imports = 0;
    devnet.router.on('/ext/bc/C/cx', 'cx.import', () => {
      imports++;
      return new Promise((resolve) => {
        release = () => resolve({ txID: 'late' });
      });
    });
    h = await spendHarness(devnet, { env: { CHAIN_MCP_APPROVAL: 'confirm-id', CHAIN_MCP_TIMEOUT_MS: '1500' } });
    try {
      const { result } = await run(toC());
      expect(result.complete).toBe(false);
      expect(result.steps[1]).toMatchObject({ status: 'unknown', error: expect.stringContaining('did not answer within 1500 ms') });
      expect(result.next).toMatch(/^The import's outcome is unknown; do not repeat it blindly/);
      expect(imports).toBe(1);
    } finally {
      release();
    }
  });

  for (const [label, argsFor, method, path] of [
    ['X -> X send', (k: UserKey) => ({ to: k.x, amount: String(ONE) }), 'xvm.send', '/ext/bc/X'],
    ['X -> C export', (k: UserKey) => ({ to: `C-${k.bech32}`, amount: String(ONE), evmAddress: k.c }), 'xvm.export', '/ext/bc/X'],
    ['P -> X export', (k: UserKey) => ({ to: k.x, amount: String(ONE), sourceChain: 'P' }), 'platform.exportNative', '/ext/P'],
    ['C -> X export', (k: UserKey) => ({ to: k.x, amount: String(ONE), sourceChain: 'C' }), 'cx.export', '/ext/bc/C/cx'],
  ] as const) {
    it(`${label}: a first step the node answers with a transient 503 is sent once, never retried`, async () => {
      await harness();
      const args = argsFor(d0);
      const preview = await h.call('transfer', args);
      expect(preview.isError, preview.text).toBe(false);
      let sent = 0;
      devnet.router.authorize = (p) => {
        const last = devnet.router.requests.at(-1)?.body as Rec | undefined;
        if (p === path && last?.method === method) {
          sent++;
          throw new HttpFault(503, 'node is busy');
        }
      };
      const done = await h.call('transfer', { ...args, confirm: (preview.structured as Rec).confirmationId });
      expect(done.isError).toBe(true);
      expect(sent).toBe(1);
    });
  }

  describe('the preview', () => {
    const lines = async (args: Rec) => {
      const p = await h.call('transfer', args);
      expect(p.isError, p.text).toBe(false);
      return (p.structured as Rec).preview as string[];
    };
    const keys = () => devnet.state.users.get(devnet.state.devnetUser)!.keys;
    const show = (v: bigint) => nativeAmount(v, { assetSymbol: 'CAM' }).display;
    /** What the keystore user's keys hold, as the node's own balance tools say. */
    const xHeld = async () => {
      let sum = 0n;
      for (const k of keys()) sum += BigInt(((await h.call('xvm_getBalance', { address: k.x, assetID: devnet.state.nativeAssetID })).structured as Rec).balance.value);
      return sum;
    };
    const pUnlockedHeld = async () => {
      const r = (await h.call('platform_getBalance', { addresses: keys().map((k) => k.p) })).structured as Rec;
      return BigInt(r.assets.find((a: Rec) => a.assetID === devnet.state.nativeAssetID).unlocked.value);
    };
    const cam = (display: string) => BigInt(Math.round(Number(display.replaceAll(',', '')) * 1e9));
    const balanceLine = (all: string[], chain: string) => {
      const line = all.find((l) => l.startsWith('Balance'))!;
      const m = new RegExp(`^Balance after on ${chain}: ([\\d,.]+) CAM \\(now ([\\d,.]+) CAM\\)$`).exec(line);
      expect(m, line).not.toBeNull();
      return { after: cam(m![1]!), now: cam(m![2]!) };
    };

    it('same chain: one send, the balance after is the balance less amount and fee, and nothing about imports', async () => {
      await harness();
      const all = await lines({ to: d0.x, amount: String(ONE) });
      const { after, now } = balanceLine(all, 'X');
      expect(now).toBe(await xHeld());
      expect(after).toBe(now - ONE - devnet.state.fees.txFee);
      expect(all.slice(2)).toEqual([
        'Network: 12345 (prefix local)',
        'Route: X -> X, one transaction',
        `Amount: 1 CAM to ${d0.x}`,
        'Fees: at most 0.001 CAM in all, counted against the limits',
        `Step 1: xvm.send 1 CAM to ${d0.x} on X (fee 0.001 CAM)`,
        'Change to: one of your addresses (the node picks)',
        all.find((l) => l.startsWith('Balance')),
        'Amount in both units: 1 CAM = 1,000,000,000 nCAM',
      ]);
    });

    it('sending exactly what the key holds less the fee leaves 0, one nCAM more is NOT ENOUGH', async () => {
      await harness();
      const { now } = balanceLine(await lines({ to: d0.x, amount: String(ONE) }), 'X');
      const all = await lines({ to: d0.x, amount: String(now - devnet.state.fees.txFee) });
      expect(all).toContain(`Balance after on X: 0 CAM (now ${all.find((l) => l.startsWith('Balance'))!.split('(now ')[1]}`);
      const over = await lines({ to: d0.x, amount: String(now - devnet.state.fees.txFee + 1n) });
      expect(over.find((l) => l.startsWith('Balance'))).toMatch(/^Balance: NOT ENOUGH, you hold [\d,.]+ CAM unlocked on X and this needs [\d,.]+ CAM$/);
    });

    it('a balance the node does not give: "Balance after: unknown"', async () => {
      devnet.router.on('/ext/bc/X', 'xvm.getBalance', () => {
        throw new RpcFault('database closed');
      });
      await harness();
      expect(await lines({ to: d0.x, amount: String(ONE) })).toContain('Balance after: unknown');
    });

    it('P -> X: the unlocked P balance after, and the sweep of what already waits', async () => {
      await harness();
      const all = await lines({ to: d0.x, amount: String(ONE), sourceChain: 'P' });
      const { after, now } = balanceLine(all, 'P');
      expect(now).toBe(await pUnlockedHeld());
      expect(after).toBe(now - ONE - devnet.state.fees.txFee);
      expect(all).toContain('Fees: at most 0.002 CAM in all, counted against the limits');
      expect(all).toContain('If the import fails, the exported funds wait on the destination chain and can be imported later; nothing is retried automatically.');
    });

    it('nothing waiting on X from P: the amount less the import fee arrives, with no sweep line', async () => {
      for (const u of devnet.state.utxos.values()) if (u.chain === 'X' && u.sourceChain === 'P') u.spentBy = 'an earlier import';
      await harness();
      const all = await lines({ to: d0.x, amount: String(2n * ONE), sourceChain: 'P' });
      const at = all.findIndex((l) => l.startsWith('Arrives'));
      expect(all[at]).toBe('Arrives: about 1.999 CAM after the import fee');
      expect(all[at + 1]).toMatch(/^Balance after on P/);
      // Less than the import fee arrives as nothing, never as a negative amount.
      expect(await lines({ to: d0.x, amount: '1', sourceChain: 'P' })).toContain('Arrives: about 0 CAM after the import fee');
    });

    it('the waiting list unread: the preview says the import takes everything waiting, unknown how much', async () => {
      devnet.router.on('/ext/bc/X', 'xvm.getUTXOs', () => {
        throw new RpcFault('database closed');
      });
      await harness();
      const all = await lines({ to: d0.x, amount: String(2n * ONE), sourceChain: 'P' });
      expect(all).toContain("The node's import takes everything waiting for your key from P on X, not only this amount (the node did not list what waits there now).");
      expect(all).toContain('Arrives: about 1.999 CAM after the import fee');
    });

    it('X -> C: the details name the 0x address the import credits; at least what waits on C plus the amount, less the import fee, arrives', async () => {
      await harness();
      const p = await h.call('transfer', toC());
      const details = (p.structured as Rec).details;
      expect(details).toMatchObject({ to: `C-${d0.bech32}`, evmAddress: d0.c, route: 'X->C' });
      expect(details.steps).toEqual([
        { step: 1, action: 'export', chain: 'X' },
        { step: 2, action: 'import', chain: 'C' },
      ]);
      const own = new Set(keys().map((k) => `C-${k.bech32}`));
      const waiting = [...devnet.state.utxos.values()]
        .filter((u) => !u.spentBy && u.chain === 'C' && u.sourceChain === 'X' && u.assetID === devnet.state.nativeAssetID && u.addresses.some((a) => own.has(a)))
        .reduce((sum, u) => sum + u.amount, 0n);
      expect(waiting).toBeGreaterThan(0n);
      const importFee = BigInt(details.maxFee) - devnet.state.fees.txFee;
      expect((p.structured as Rec).preview).toContain(`Arrives: at least ${show(waiting + 2n * ONE - importFee)} after the import fee`);
    });

    it('C -> X: the balance on C is left to eth_getBalance', async () => {
      await harness();
      const all = await lines({ to: d0.x, amount: String(ONE), sourceChain: 'C' });
      expect(all).toContain('Balance after on C: check eth_getBalance');
    });

    it('X -> C with the outputs waiting on C unlisted: refused before anything is sent, the fee has no bound', async () => {
      devnet.router.on('/ext/bc/C/cx', 'cx.getUTXOs', () => {
        throw new RpcFault('database closed');
      });
      await harness();
      const p = await h.call('transfer', toC());
      expect(p.isError).toBe(true);
      expect(p.text).toContain('The node did not list the outputs waiting on C, so the import fee has no bound; nothing was sent.');
      expect(p.text).toContain('Try again when cx_getUTXOs answers for your addresses.');
      expect(spends()).toEqual([]);
    });

    it('refuses a 0x recipient under the keystore signer, and its misplaced fields, naming each', async () => {
      await harness();
      // An impossible route is refused before any request, even the network lookup.
      const from = devnet.router.requests.length;
      const first = await h.call('transfer', { to: d0.c, amount: '1000' });
      expect(first.isError).toBe(true);
      expect(devnet.router.requests.slice(from)).toEqual([]);
      const cases: Array<[Rec, string]> = [
        [{ to: d0.c, amount: '1000', sourceChain: 'C' }, 'the keystore signer cannot sign it'],
        [{ to: d0.c, amount: '1000' }, 'sourceChain: a 0x recipient is paid on the C-Chain: set sourceChain "C"'],
        [{ to: d0.c, amount: '1000', sourceChain: 'C', evmAddress: d0.c }, 'evmAddress: only for a transfer to a C- address; remove it'],
      ];
      for (const [args, message] of cases) {
        const r = await h.call('transfer', args);
        expect(r.isError, JSON.stringify(args)).toBe(true);
        expect(r.text).toContain(message);
      }
      const bad = await h.call('transfer', { to: 'X-local1notanaddress', amount: '1000' });
      expect(bad.isError).toBe(true);
      expect(bad.text).toContain('to: invalid character "o" in bech32 address');
      expect(spends()).toEqual([]);
    });

    describe('the native asset, when the node configuration does not name it', () => {
      let conf: Rec;
      beforeEach(async () => {
        conf = await askNode<Rec>(devnet.nodeUrl, '/ext/P', 'platform.getConfiguration');
        devnet.router.on('/ext/P', 'platform.getConfiguration', () => ({ ...conf, assetID: undefined }));
      });
      const sentAsset = () => (devnet.router.requests.map((r) => r.body as Rec).find((b) => b.method === 'xvm.send')?.params as Rec | undefined)?.assetID;

      it('is asked of xvm.getAssetDescription', async () => {
        await harness();
        await run({ to: d0.x, amount: String(ONE) });
        expect(sentAsset()).toBe(devnet.state.nativeAssetID);
      });

      it('with no description either, is sent by its symbol', async () => {
        devnet.router.on('/ext/bc/X', 'xvm.getAssetDescription', () => {
          throw new RpcFault('database closed');
        });
        await harness();
        await run({ to: d0.x, amount: String(ONE) });
        expect(sentAsset()).toBe(conf.assetSymbol);
      });

      it('with no symbol either, the transfer is refused before anything is sent', async () => {
        devnet.router.on('/ext/bc/X', 'xvm.getAssetDescription', () => {
          throw new RpcFault('database closed');
        });
        devnet.router.on('/ext/P', 'platform.getConfiguration', () => ({ ...conf, assetID: undefined, assetSymbol: undefined }));
        await harness();
        const p = await h.call('transfer', { to: d0.x, amount: String(ONE) });
        expect(p.isError).toBe(true);
        expect(p.text).toContain('The node did not say which asset is native.');
        expect(p.text).toContain('Use xvm_send or xvm_export with an explicit assetID.');
        expect(spends()).toEqual([]);
      });
    });
  });
});
