import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { formatCb58Id } from '../../src/codec/index.js';
import { amount } from '../../src/core/fields.js';
import type { ToolContext } from '../../src/core/tool.js';
import type { AssetInfo, NetworkInfo } from '../../src/context/network.js';
import { InputError, RpcError } from '../../src/errors.js';
import { type AmountFact, amountFacts, amountLines, resolveDisplayAmounts } from '../../src/spend/amounts.js';

/**
 * Amounts as people write them (src/spend/amounts.ts), without a node: which fields are amounts,
 * how "1.5 CAM" becomes smallest-unit digits (or is refused, naming the field), what the preview
 * shows in both units, and when it warns of a likely unit mistake.
 */

const NATIVE = formatCb58Id(new Uint8Array(32).fill(1));
const GOLD = formatCb58Id(new Uint8Array(32).fill(2));
const BARE = formatCb58Id(new Uint8Array(32).fill(3));
const WIDE = formatCb58Id(new Uint8Array(32).fill(4));
const NETWORK: NetworkInfo = { networkID: '12345', hrp: 'local', assetSymbol: 'CAM', assetID: NATIVE, source: 'configuration' };
const ASSETS: Record<string, AssetInfo> = {
  [GOLD]: { assetID: GOLD, name: 'Gold', symbol: 'GLD', denomination: 2 },
  // An alias the node resolves to the native asset.
  CAMX: { assetID: NATIVE, name: 'Camino', symbol: 'CAM', denomination: 9 },
  [BARE]: { assetID: BARE, name: 'No symbol', symbol: '', denomination: 3 },
  [WIDE]: { assetID: WIDE, name: 'Wide', symbol: 'WIDE', denomination: 18 },
};

/** A spend input with a native amount, an amount of the asset in `assetID`, an optional one, and outputs. */
const input = z.object({
  amount: amount(undefined, 'native').optional(),
  assetID: z.string().optional(),
  assetAmount: amount(undefined, { field: 'assetID' }).optional(),
  tip: amount(undefined, 'native').optional(),
  plain: amount().optional(),
  outputs: z.array(z.object({ assetID: z.string(), amount: amount(undefined, { field: 'assetID' }) })).optional(),
});

function fakeCtx(network: NetworkInfo = NETWORK) {
  const asset = vi.fn(async (id: string) => {
    const info = ASSETS[id];
    if (!info) throw new RpcError(-32000, `couldn't find asset ${id}`, undefined);
    return info;
  });
  const networkLookup = vi.fn(async () => network);
  return { ctx: { asset, network: networkLookup } as unknown as ToolContext, asset, network: networkLookup };
}

const validateWith = () => vi.fn((args: unknown) => void input.parse(args));

async function resolved(args: unknown, ctx = fakeCtx().ctx) {
  return resolveDisplayAmounts(input, args, ctx, validateWith());
}

async function refusal(args: unknown, ctx = fakeCtx().ctx): Promise<{ field: string; message: string }> {
  try {
    await resolved(args, ctx);
  } catch (err) {
    expect(err).toBeInstanceOf(InputError);
    return { field: (err as InputError).field, message: (err as InputError).message };
  }
  throw new Error('expected a refusal');
}

describe('resolveDisplayAmounts', () => {
  it('passes digits through untouched, asking nothing and validating nothing', async () => {
    const fake = fakeCtx();
    const validate = validateWith();
    const args = { amount: '1500000000', plain: '7' };
    const r = await resolveDisplayAmounts(input, args, fake.ctx, validate);
    expect(r.args).toBe(args);
    expect(r.given.size).toBe(0);
    expect(validate).not.toHaveBeenCalled();
    expect(fake.network).not.toHaveBeenCalled();
  });

  it('copies nothing when no field holds a display amount (the common call), and copies before converting one', async () => {
    const clone = vi.spyOn(globalThis, 'structuredClone');
    try {
      const args = { amount: '1500000000', plain: 'GLD' };
      expect((await resolved(args)).args).toBe(args);
      expect(clone).not.toHaveBeenCalled();
      const display = { amount: '1.5 CAM' };
      const r = await resolved(display);
      expect(clone).toHaveBeenCalled();
      expect(display).toEqual({ amount: '1.5 CAM' });
      expect(r.args).toEqual({ amount: '1500000000' });
    } finally {
      clone.mockRestore();
    }
  });

  it('leaves arguments that are not an object to the parser', async () => {
    expect((await resolved(null)).args).toBeNull();
    expect((await resolved('1 CAM')).args).toBe('1 CAM');
  });

  it('converts "1.5 CAM" with 9 decimals, remembers what was written (trimmed), and does not change the caller\'s object', async () => {
    const args = { amount: ' 1.5 CAM ', tip: '3' };
    const r = await resolved(args);
    expect(r.args).toEqual({ amount: '1500000000', tip: '3' });
    expect([...r.given]).toEqual([['amount', '1.5 CAM']]);
    expect(args.amount).toBe(' 1.5 CAM ');
  });

  it('finds display amounts in optional fields and inside each output, and names each by its path', async () => {
    const r = await resolved({
      amount: '1',
      tip: '2 cam',
      outputs: [
        { assetID: GOLD, amount: '2.5 GLD' },
        { assetID: 'CAM', amount: '1,000.25 CAM' },
      ],
    });
    expect(r.args).toEqual({
      amount: '1',
      tip: '2000000000',
      outputs: [
        { assetID: GOLD, amount: '250' },
        { assetID: 'CAM', amount: '1000250000000' },
      ],
    });
    expect([...r.given.keys()]).toEqual(['tip', 'outputs[0].amount', 'outputs[1].amount']);
  });

  it('validates with placeholders first, so a malformed input is refused before any lookup', async () => {
    const fake = fakeCtx();
    const validate = validateWith();
    const bad = { amount: '1.5 CAM', outputs: [null, { assetID: GOLD, amount: '1 GLD' }] };
    await expect(resolveDisplayAmounts(input, bad, fake.ctx, validate)).rejects.toBeInstanceOf(z.ZodError);
    expect(validate).toHaveBeenCalledWith({ amount: '1', outputs: [null, { assetID: GOLD, amount: '1' }] });
    expect(fake.network).not.toHaveBeenCalled();
    expect(fake.asset).not.toHaveBeenCalled();
  });

  it('takes "nCAM" as the smallest unit, whole numbers only', async () => {
    expect((await resolved({ amount: '1500 nCAM' })).args).toEqual({ amount: '1500' });
    expect(await refusal({ amount: '1.5 nCAM' })).toEqual({
      field: 'amount',
      message: 'Invalid input: amount: "1.5 nCAM": expected at most 0 decimal places, got 1 in "1.5"',
    });
  });

  it('refuses a symbol without a number, and zero', async () => {
    expect(await refusal({ amount: 'CAM' })).toEqual({
      field: 'amount',
      message: 'Invalid input: amount: expected nCAM digits or an amount with its symbol such as "1.5 CAM", got "CAM"',
    });
    expect(await refusal({ amount: '0 CAM' })).toEqual({ field: 'amount', message: 'Invalid input: amount: expected a positive amount' });
  });

  it('refuses another asset\'s symbol, and any symbol for an asset that has none', async () => {
    expect(await refusal({ amount: '1 GLD' })).toEqual({
      field: 'amount',
      message: 'Invalid input: amount: "GLD" is not this asset\'s symbol (it has symbol "CAM"); write the amount with that symbol or in its smallest unit (digits)',
    });
    expect(await refusal({ assetID: BARE, assetAmount: '5 XYZ' })).toEqual({
      field: 'assetAmount',
      message: 'Invalid input: assetAmount: "XYZ" is not this asset\'s symbol (it has no symbol); write the amount with that symbol or in its smallest unit (digits)',
    });
    // "nGLD" is no unit: only the native asset has an n-prefixed smallest unit.
    expect((await refusal({ assetID: GOLD, assetAmount: '5 nGLD' })).message).toContain('"nGLD" is not this asset\'s symbol (it has the asset\'s symbol "GLD")');
  });

  it('refuses to convert when the asset is unknown or not given, naming the field', async () => {
    const unknown = 'Invalid input: assetAmount: cannot convert "5 GLD": the asset\'s denomination is unknown; give the amount in its smallest unit (digits)';
    const fake = fakeCtx();
    expect(await refusal({ assetID: 'NOPE', assetAmount: '5 GLD' }, fake.ctx)).toEqual({ field: 'assetAmount', message: unknown });
    expect(await refusal({ assetID: '', assetAmount: '5 GLD' }, fake.ctx)).toEqual({ field: 'assetAmount', message: unknown });
    expect(await refusal({ assetAmount: '5 GLD' }, fake.ctx)).toEqual({ field: 'assetAmount', message: unknown });
    expect(fake.asset.mock.calls).toEqual([['NOPE']]);
  });

  it('knows the native asset by its ID or symbol without a lookup, and an alias the node resolves to it', async () => {
    const fake = fakeCtx();
    expect((await resolved({ assetID: NATIVE, assetAmount: '2 CAM' }, fake.ctx)).args).toEqual({ assetID: NATIVE, assetAmount: '2000000000' });
    expect((await resolved({ assetID: 'CAM', assetAmount: '2 nCAM' }, fake.ctx)).args).toEqual({ assetID: 'CAM', assetAmount: '2' });
    expect(fake.asset).not.toHaveBeenCalled();
    expect((await resolved({ assetID: 'CAMX', assetAmount: '3 nCAM' }, fake.ctx)).args).toEqual({ assetID: 'CAMX', assetAmount: '3' });
    expect(fake.asset.mock.calls).toEqual([['CAMX']]);
  });

  it('does not take the empty symbol of an undescribed network for the native asset', async () => {
    const fake = fakeCtx({ ...NETWORK, assetSymbol: '', assetID: '' });
    expect((await refusal({ assetID: '', assetAmount: '1 CAM' }, fake.ctx)).message).toContain('denomination is unknown');
    // Its asset ID is empty too, so an asset the node describes stays that asset.
    expect((await resolved({ assetID: GOLD, assetAmount: '1 GLD' }, fake.ctx)).args).toEqual({ assetID: GOLD, assetAmount: '100' });
  });
});

describe('amountFacts', () => {
  const parsed = (args: Record<string, unknown>) => input.parse(args) as Record<string, unknown>;

  it('lists each amount with its asset\'s unit and what was written, skipping amounts of an unknown asset', async () => {
    const facts = await amountFacts(
      input,
      parsed({ amount: '1500000000', assetID: 'NOPE', assetAmount: '5', outputs: [{ assetID: GOLD, amount: '250' }] }),
      fakeCtx().ctx,
      new Map([['amount', '1.5 CAM']]),
    );
    expect(facts).toEqual([
      { path: 'amount', units: 1_500_000_000n, decimals: 9, symbol: 'CAM', native: true, given: '1.5 CAM' },
      { path: 'outputs[0].amount', units: 250n, decimals: 2, symbol: 'GLD', native: false },
    ]);
  });

  it('asks nothing when the input has no amount field', async () => {
    const fake = fakeCtx();
    expect(await amountFacts(z.object({ to: z.string() }), { to: 'X-local1x' }, fake.ctx, new Map())).toEqual([]);
    expect(fake.network).not.toHaveBeenCalled();
  });
});

describe('amountLines', () => {
  const cam = (units: bigint, extra: Partial<AmountFact> = {}): AmountFact => ({ path: 'amount', units, decimals: 9, symbol: 'CAM', native: true, ...extra });

  it('shows one amount in both units with what was written, and no warning at the fee or above', () => {
    expect(amountLines([cam(1_500_000_000n, { given: '1.5 CAM' })], 1_000_000n)).toEqual(['Amount in both units: 1.5 CAM = 1,500,000,000 nCAM (you wrote "1.5 CAM")']);
    expect(amountLines([cam(1_000_000n)], 1_000_000n)).toEqual(['Amount in both units: 0.001 CAM = 1,000,000 nCAM']);
  });

  it('warns of a native amount below the fee, with the fee and how to write whole units', () => {
    expect(amountLines([cam(999_999n)], 1_000_000n)).toEqual([
      'Amount in both units: 0.000999999 CAM = 999,999 nCAM',
      'LIKELY UNIT MISTAKE: 0.000999999 CAM = 999,999 nCAM is less than the fee (0.001 CAM). Digits without a symbol are nCAM (1 CAM = 1,000,000,000 nCAM); to send 1 CAM write "1 CAM".',
    ]);
  });

  it('compares only native amounts with the fee, and none when the fee is unknown', () => {
    expect(amountLines([cam(5_000n, { native: false, symbol: 'GLD' })], 1_000_000n)).toHaveLength(1);
    expect(amountLines([cam(5_000n)], undefined)).toHaveLength(1);
  });

  it('warns of less than a millionth of one whole unit, with the generic hint for another asset or a native asset without a symbol', () => {
    const tiny = amountLines([cam(999n)], undefined);
    expect(tiny[1]).toBe(
      'LIKELY UNIT MISTAKE: 0.000000999 CAM = 999 nCAM is less than a millionth of one whole unit. Digits without a symbol are nCAM (1 CAM = 1,000,000,000 nCAM); to send 1 CAM write "1 CAM".',
    );
    expect(amountLines([cam(1_000n)], undefined)).toHaveLength(1);
    expect(amountLines([{ path: 'amount', units: 5n, decimals: 18, symbol: 'WIDE', native: false }], undefined)[1]).toBe(
      'LIKELY UNIT MISTAKE: 0.000000000000000005 "WIDE" = 5 smallest units is less than a millionth of one whole unit. Digits without a symbol are the smallest unit.',
    );
    expect(amountLines([cam(5n, { symbol: '' })], undefined)[1]).toBe(
      'LIKELY UNIT MISTAKE: 0.000000005 = 5 smallest units is less than a millionth of one whole unit. Digits without a symbol are the smallest unit.',
    );
  });

  it('names each amount by its path when there are several, shows at most five, and warns once', () => {
    const facts = Array.from({ length: 6 }, (_, i) => cam(BigInt(i + 1), { path: `outputs[${i}].amount` }));
    const lines = amountLines(facts, undefined);
    expect(lines.slice(0, 5)).toEqual([0, 1, 2, 3, 4].map((i) => `Amount in both units (outputs[${i}].amount): 0.00000000${i + 1} CAM = ${i + 1} nCAM`));
    expect(lines[5]).toBe('… and 1 more amount(s)');
    expect(lines.slice(6)).toEqual([
      'LIKELY UNIT MISTAKE: 0.000000001 CAM = 1 nCAM is less than a millionth of one whole unit. Digits without a symbol are nCAM (1 CAM = 1,000,000,000 nCAM); to send 1 CAM write "1 CAM".',
    ]);
    expect(amountLines(facts.slice(0, 5), undefined)).toHaveLength(6);
  });
});
