import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startDevnet, type Devnet } from '../../src/devnet/index.js';
import type { Tx } from '../../src/devnet/state/index.js';
import { type SpendHarness, spendHarness } from '../helpers/spend-harness.js';

/**
 * wait_for_tx against the server's clock (issue 44, group `camino`, its survivors of 2026-11-29): the
 * seconds it says it waited, the progress it reports, its deadline, the pause between polls, and
 * the X-Chain asked alone, through MCP against the simulator (spec dialect).
 */

// biome-ignore lint/suspicious/noExplicitAny: structured results are checked field by field
type Rec = Record<string, any>;

describe('wait_for_tx: its clock, its deadline and its pace', () => {
  let devnet: Devnet;
  let h: SpendHarness;
  let x: Tx;
  const statusReads = () =>
    devnet.router.requests
      .flatMap((r) => (Array.isArray(r.body) ? r.body : [r.body]))
      .map((b) => String((b as Rec).method))
      .filter((m) => /Status$|getBlock$|getTransaction$/.test(m));
  /** xvm.getTxStatus answers from `script` (then Accepted), moving the server's clock by `step` ms on each read. */
  const xStatus = (script: string[], step: number) =>
    devnet.router.on('/ext/bc/X', 'xvm.getTxStatus', () => {
      h.clock.now += step;
      return { status: script.shift() ?? 'Accepted' };
    });

  beforeEach(async () => {
    devnet = await startDevnet();
    devnet.router.record = true;
    h = await spendHarness(devnet);
    x = [...devnet.state.txs.values()].find((t) => t.chain === 'X' && t.status === 'Accepted')!;
  });
  afterEach(async () => {
    await h.close();
    await devnet.close();
  });
  const wait = async (args: Rec) => {
    const progress: Array<{ progress: number; total?: number; message?: string }> = [];
    const r = await h.client.callTool({ name: 'wait_for_tx', arguments: { txID: x.id, ...args } }, { onprogress: (n) => progress.push(n) });
    expect(r.isError).not.toBe(true);
    return { s: (r.structuredContent as Rec), progress };
  };

  it('on X asks only the X-Chain, and says the seconds of its own clock it waited, in tenths, in its answer and its progress', async () => {
    xStatus(['Processing'], 1_234);
    const { s, progress } = await wait({ chain: 'X', timeoutSeconds: 60, intervalSeconds: 0.2 });
    expect(s).toMatchObject({ chain: 'X', status: 'Accepted', final: true, polls: 2, waitedSeconds: 2.5 });
    expect(statusReads()).toEqual(['xvm.getTxStatus', 'xvm.getTxStatus']);
    expect(progress.map((n) => [n.progress, n.total, n.message])).toEqual([
      [1.2, 60, 'Processing after 1 poll(s)'],
      [2.5, 60, 'Accepted after 2 poll(s)'],
    ]);
  });

  it('stops at its deadline exactly: the poll that reaches it is the last', async () => {
    xStatus(['Processing', 'Processing', 'Processing'], 1_000);
    const { s } = await wait({ chain: 'X', timeoutSeconds: 1, intervalSeconds: 0.2 });
    expect(s).toMatchObject({ status: 'Processing', final: false, polls: 1, waitedSeconds: 1 });
  });

  it('pauses intervalSeconds between polls, never the whole time left (the server clock held)', async () => {
    // The clock does not move: a pause of the time left would outlast the test (300 s).
    xStatus(['Processing'], 0);
    const { s } = await wait({ chain: 'X', timeoutSeconds: 300, intervalSeconds: 0.2 });
    expect(s).toMatchObject({ status: 'Accepted', polls: 2 });
  });

  it('paces its polls in seconds, not milliseconds (the server clock real)', async () => {
    Object.defineProperty(h.clock, 'now', { get: () => Date.now() });
    devnet.router.on('/ext/bc/X', 'xvm.getTxStatus', () => ({ status: 'Processing' }));
    const { s } = await wait({ chain: 'X', timeoutSeconds: 1, intervalSeconds: 0.5 });
    // At 0, 0.5 and 1 s, one more if a timer ends a little early: never dozens.
    expect(s.final).toBe(false);
    expect(s.polls).toBeLessThanOrEqual(4);
  });
});
