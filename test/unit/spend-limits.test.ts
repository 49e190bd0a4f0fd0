import { describe, expect, it } from 'vitest';
import type { ToolContext } from '../../src/core/tool.js';
import { resolveDisplayAmounts } from '../../src/spend/amounts.js';
import { EXAMPLES } from '../contract/examples/index.js';
import { type Args, argSets, DECODED_RECIPIENTS, FEE_ONLY, MOVES, OPAQUE, recipientPaths, SPEND } from '../helpers/spend-classes.js';

/**
 * Each spend tool's own `limits`, called directly on its contract example: the amount leaving the
 * user and every address it pays or credits, as written down independently in
 * test/helpers/spend-classes.ts. test/integration/limits.test.ts checks the same through MCP; this
 * one also runs in mutation testing's static pass, where the catalogue's import-time entries
 * (the `limits` functions stored in them) are switched on.
 */
describe("every spend tool's limits, from the catalogue", () => {
  for (const tool of SPEND) {
    it(`${tool.name}`, () => {
      for (const args of argSets(tool)) {
        const input = tool.input.parse(args);
        const limits = tool.limits!(input as never);
        if (OPAQUE.includes(tool.name)) {
          expect(limits.opaque, tool.name).toMatch(/\S/);
          continue;
        }
        if (tool.name in MOVES) expect(limits.amount, tool.name).toBe(MOVES[tool.name]!(args));
        if (FEE_ONLY.includes(tool.name)) expect(limits.amount ?? 0n, tool.name).toBe(0n);
        const expected = [...recipientPaths(args).map((r) => r.address), ...(DECODED_RECIPIENTS[tool.name] ?? [])];
        expect([...new Set(limits.recipients.map((r) => r.toLowerCase()))].sort(), tool.name).toEqual([...new Set(expected.map((r) => r.toLowerCase()))].sort());
        // Change and an import's destination must be the user's own: under a limit a stranger's is refused.
        if (typeof args.changeAddr === 'string') expect(limits.own, tool.name).toContain(args.changeAddr);
        if (tool.name === 'xvm_import' || tool.name === 'cx_import') expect(limits.own, tool.name).toEqual([args.to]);
      }
    });
  }
});

describe('display amounts on every spend tool that takes them ("1.5 GLD")', () => {
  const GLD = 'GLDassetID111111111111111111111111111111111111111';
  const ctx = {
    network: async () => ({ networkID: '1001', hrp: 'columbus', assetSymbol: 'CAM', assetID: 'CAMassetID', source: 'configuration' }),
    asset: async (id: string) => {
      if (id !== GLD) throw new Error('unknown asset');
      return { assetID: GLD, name: 'Gold', symbol: 'GLD', denomination: 2 };
    },
  } as unknown as ToolContext;

  /** Each amount field of the tool's contract example, written as "1.5 GLD" with its asset field naming GLD. */
  const cases: Array<[string, (a: Args) => Args, (a: Args) => unknown]> = [
    ['xvm_send', (a) => ({ ...a, assetID: GLD, amount: '1.5 GLD' }), (a) => a.amount],
    ['wallet_send', (a) => ({ ...a, assetID: GLD, amount: '1.5 GLD' }), (a) => a.amount],
    ['xvm_export', (a) => ({ ...a, assetID: GLD, amount: '1.5 GLD' }), (a) => a.amount],
    ['cx_export', (a) => ({ ...a, assetID: GLD, amount: '1.5 GLD' }), (a) => a.amount],
    ['xvm_mint', (a) => ({ ...a, assetID: GLD, amount: '1.5 GLD' }), (a) => a.amount],
    ['xvm_sendMultiple', (a) => ({ ...a, outputs: [{ ...(a.outputs as Args[])[0], assetID: GLD, amount: '1.5 GLD' }] }), (a) => (a.outputs as Args[])[0]!.amount],
  ];
  for (const [name, write, read] of cases) {
    it(`${name} converts with the named asset's denomination`, async () => {
      const t = SPEND.find((x) => x.name === name)!;
      const { args } = await resolveDisplayAmounts(t.input, write(EXAMPLES[name]!.args), ctx, () => undefined);
      expect(read(args as Args), name).toBe('150');
    });
  }
});
