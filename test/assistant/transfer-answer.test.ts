import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { transfer } from '../../src/catalogue/assistant/transfer.js';
import { startDevnet, type Devnet } from '../../src/devnet/index.js';
import type { UserKey } from '../../src/devnet/state/index.js';
import { type SpendHarness, spendHarness } from '../helpers/spend-harness.js';

/**
 * The keystore `transfer`'s answer as the user reads it, and a misplaced evmAddress refused (issue 44,
 * group `camino`, its survivors of 2026-11-29), through MCP against the simulator (spec dialect).
 */

// biome-ignore lint/suspicious/noExplicitAny: structured results are checked field by field
type Rec = Record<string, any>;

const ONE = 1_000_000_000n;
const SPENDS = new Set(['xvm.send', 'xvm.export', 'xvm.import', 'cx.export', 'cx.import', 'platform.exportNative']);

describe('transfer (keystore): the finished answer, and evmAddress only towards C', () => {
  let devnet: Devnet;
  let h: SpendHarness;
  let d0: UserKey;
  const spends = () =>
    devnet.router.requests
      .flatMap((r) => (Array.isArray(r.body) ? r.body : [r.body]))
      .map((b) => String((b as Rec).method))
      .filter((m) => SPENDS.has(m));

  beforeEach(async () => {
    devnet = await startDevnet();
    d0 = devnet.state.users.get(devnet.state.devnetUser)!.keys[0]!;
    devnet.router.record = true;
    h = await spendHarness(devnet, { env: { CHAIN_MCP_APPROVAL: 'confirm-id' } });
  });
  afterEach(async () => {
    await h.close();
    await devnet.close();
  });

  it('a finished cross-chain transfer: its answer fits the declared output schema, and the summary has no "next" line', async () => {
    const args = { to: `C-${d0.bech32}`, amount: String(2n * ONE), evmAddress: d0.c };
    const preview = await h.call('transfer', args);
    expect(preview.isError, preview.text).toBe(false);
    const r = await h.call('transfer', { ...args, confirm: (preview.structured as Rec).confirmationId });
    expect(r.isError, r.text).toBe(false);
    const result = (r.structured as Rec).result as Rec;
    expect(result.complete).toBe(true);
    // tools/list gives the output schema shallow: only the declared one checks each step's enums.
    const declared = transfer.output.safeParse(result);
    expect(declared.success, JSON.stringify(declared.error?.issues)).toBe(true);
    const [s1, s2] = result.steps;
    const summary = r.text.slice(r.text.indexOf('Transfer complete'));
    expect(summary.split('\n').slice(0, 4)).toEqual([
      'Transfer complete (X->C):',
      `- step 1 export on X: issued, txID ${s1.txID}`,
      `- step 2 import on C: issued, txID ${s2.txID}`,
      'Follow it with wait_for_tx or tx_status.',
    ]);
  });

  it('evmAddress on a transfer to X is refused, naming it, before anything is sent', async () => {
    for (const sourceChain of ['X', 'P'] as const) {
      const r = await h.call('transfer', { to: d0.x, amount: String(ONE), sourceChain, evmAddress: d0.c });
      expect(r.isError, sourceChain).toBe(true);
      expect(r.text).toContain('evmAddress: only for a transfer to C; remove it');
    }
    expect(spends()).toEqual([]);
  });
});
