import { describe, expect, it } from 'vitest';
import type { LocalEnv } from '../../src/local/env.js';
import { chainSent } from '../../src/local/sent.js';
import { indexerCtx, NATIVE, TOKEN } from '../helpers/tx-views.js';

/**
 * The local signer's daily total as the indexer records it (src/local/sent.ts), read from answers
 * shaped as Magellan's: what counts as staying the key's, how amounts and times are read, where the
 * total cannot be told (the caller then refuses a spend under CHAIN_MCP_MAX_SPEND_PER_DAY), and how
 * the pages are followed. test/unit/local-outflow.test.ts has the first cases.
 */

const KEY = 'local1key';
const EVM = '0xAbCdEf0000000000000000000000000000000001';
const STRANGER_0X = '0x00000000000000000000000000000000000000b0';
const env = { own: { x: `X-${KEY}`, p: `P-${KEY}`, cAtomic: `C-${KEY}`, evm: EVM }, network: { assetID: NATIVE } } as unknown as LocalEnv;
const NOW_MS = 2_000_000_000_000;
/** 2_000_000_000 in Unix seconds, the time of every record below unless said otherwise. */
const AT = '2033-05-18T03:33:20Z';

const ctxOf = indexerCtx;
const output = (amount: unknown, addresses: unknown, extra: Record<string, unknown> = {}) => ({ assetID: NATIVE, amount, addresses, threshold: 1, locktime: 0, ...extra });
/** A cvm_addresses row as Magellan maps it to an output: the 0x side in `caddresses`, `addresses` null. */
const credit = (amount: string, caddresses: unknown[], extra: Record<string, unknown> = {}) => ({ assetID: NATIVE, amount, addresses: null, caddresses, threshold: 0, locktime: 0, ...extra });
const tx = (id: unknown, ins: unknown[], outs: unknown[], extra: Record<string, unknown> = {}) => ({ id, chainID: 'x-chain', timestamp: AT, inputs: ins.map((o) => ({ output: o })), outputs: outs, ...extra });
/** The total for these X/P/C-atomic records and EVM rows, each list one page. */
const sent = (txs: unknown[], ctxs: unknown[] = []) => chainSent(ctxOf((path) => (path === '/v2/transactions' ? { transactions: txs } : { Transactions: ctxs })).ctx, env, NOW_MS);
/** What one transaction took, the key paying in 10 and getting back `back`. */
const sentWithBack = (back: unknown) => sent([tx('t', [output('10', [KEY])], [back])]);

describe('the daily total from the indexer: amounts, times and ids read strictly', () => {
  it('an amount is a decimal or 0x string, or a JSON number small enough to be exact; a sign, a space, an exponent, an empty string or a bigger number cannot be told', async () => {
    const of = (amount: unknown) => sent([tx('t', [output(amount, [KEY])], [])]);
    expect(await of('10')).toBe(10n);
    expect(await of('0x1f')).toBe(31n);
    expect(await of(7)).toBe(7n);
    for (const unreadable of ['', '-3', ' 4', '4 ', '1e9', '0x', 2 ** 60, -5, 1.5, true, null]) {
      expect({ amount: unreadable, sent: await of(unreadable) }).toEqual({ amount: unreadable, sent: undefined });
    }
  });

  it('a record that spent the key\'s coins without its id or an RFC 3339 time cannot be told; a received one needs neither a time nor readable outputs', async () => {
    const spend = (extra: Record<string, unknown>) => tx('t', [output('10', [KEY])], [output('4', ['local1bob'])], extra);
    expect(await sent([spend({})])).toBe(10n);
    expect(await sent([spend({ id: undefined })])).toBeUndefined();
    expect(await sent([spend({ id: '' })])).toBeUndefined();
    // A list entry that is no record at all has no id either.
    expect(await sent([spend({}), 'junk'])).toBeUndefined();
    expect(await sent([spend({ timestamp: undefined })])).toBeUndefined();
    // A number is not a time (Date.parse would read 2033 as that year).
    expect(await sent([spend({ timestamp: 2033 })])).toBeUndefined();
    const received = tx('r', [output('50', ['local1bob'])], [output('more than you think', [KEY])], { timestamp: undefined });
    expect(await sent([received, spend({})])).toBe(10n);
  });

  it('an input whose output the indexer leaves out, or null, holds nothing of the key\'s; a null output is nobody\'s; the rest still counts', async () => {
    const t = { id: 't', timestamp: AT, inputs: [{ output: null }, {}, { output: output('10', [KEY]) }], outputs: [null, output('4', [KEY])] };
    expect(await sent([t])).toBe(6n);
  });

  it("a transaction that brought the key more than it spent counts nothing and lowers nothing", async () => {
    const gained = tx('g', [output('5', [KEY]), output('50', ['local1bob'])], [output('50', [KEY]), output('5', ['local1bob'])]);
    const paid = tx('p', [output('3', [KEY])], []);
    expect(await sent([gained, paid])).toBe(3n);
  });
});

describe('the daily total from the indexer: what stays the key\'s alone', () => {
  it('change to the key alone, unlocked by the time of the transaction (a locktime equal to it included), stays', async () => {
    expect(await sentWithBack(output('4', [KEY]))).toBe(6n);
    expect(await sentWithBack(output('4', [KEY], { locktime: 2_000_000_000 }))).toBe(6n);
    expect(await sentWithBack(output('4', [KEY], { locktime: 2_000_000_001 }))).toBe(10n);
  });

  it('an output of the key that needs two signatures, or whose threshold or locktime the record does not give, counts as sent', async () => {
    expect(await sentWithBack(output('4', [KEY], { threshold: 2 }))).toBe(10n);
    expect(await sentWithBack(output('4', [KEY], { threshold: undefined }))).toBe(10n);
    expect(await sentWithBack(output('4', [KEY], { locktime: undefined }))).toBe(10n);
  });

  it('another asset coming back to the key does not offset the native amount sent', async () => {
    expect(await sentWithBack(output('4', [KEY], { assetID: TOKEN }))).toBe(10n);
  });

  it("a 0x credit stays only when it names the key's 0x address alone (any case) and no X/P owner", async () => {
    expect(await sentWithBack(credit('4', [EVM]))).toBe(6n);
    expect(await sentWithBack(credit('4', [EVM.toUpperCase().replace('0X', '0x')]))).toBe(6n);
    expect(await sentWithBack(credit('4', [EVM], { addresses: ['local1bob'] }))).toBe(10n);
    expect(await sentWithBack(credit('4', [EVM, STRANGER_0X]))).toBe(10n);
    expect(await sentWithBack(credit('4', [STRANGER_0X]))).toBe(10n);
    expect(await sentWithBack(credit('4', [null]))).toBe(10n);
  });
});

describe('the daily total from the indexer: EVM transactions and pages', () => {
  const evmRow = (hash: unknown, extra: Record<string, unknown> = {}) => ({ hash, fromAddr: EVM.toLowerCase(), toAddr: EVM.toLowerCase(), value: '0', gasLimit: 21_000, maxFeePerGas: '50000000000', ...extra });

  it('an EVM transaction counts its gas limit times its max fee, exactly when it is a whole number of nCAM; one listed twice counts once; one without its hash cannot be told', async () => {
    // 21,000 gas at 50 nCAM a gas: 1,050,000 nCAM, nothing to round.
    expect(await sent([], [evmRow('0x01')])).toBe(1_050_000n);
    expect(await sent([], [evmRow('0x01'), evmRow('0x01'), evmRow('0x02', { maxFeePerGas: undefined, gasPrice: '1000000000' })])).toBe(1_071_000n);
    expect(await sent([], [evmRow('0x01'), evmRow(undefined)])).toBeUndefined();
    expect(await sent([], [evmRow('')])).toBeUndefined();
  });

  it('a next given as a path and query is followed with exactly its parameters', async () => {
    const { ctx, asked } = ctxOf((path, query) => {
      if (path === '/v2/ctransactions') return { Transactions: [] };
      const first = !query.some(([k]) => k === 'offset');
      return first
        ? { transactions: [tx('a', [output('2', [KEY])], [])], next: `/v2/transactions?address=${KEY}&startTime=1999913600&offset=1000` }
        : { transactions: [tx('b', [output('3', [KEY])], [])] };
    });
    expect(await chainSent(ctx, env, NOW_MS)).toBe(5n);
    expect(asked.filter((a) => a.path === '/v2/transactions').map((a) => a.query)[1]).toEqual([
      ['address', KEY],
      ['startTime', '1999913600'],
      ['offset', '1000'],
    ]);
  });

  it('a blank next, or one that is not a string, ends the list', async () => {
    for (const next of ['  ', 5]) {
      const { ctx, asked } = ctxOf((path) => (path === '/v2/ctransactions' ? { Transactions: [] } : { transactions: [tx('a', [output('2', [KEY])], [])], next }));
      expect({ next, sent: await chainSent(ctx, env, NOW_MS) }).toEqual({ next, sent: 2n });
      expect(asked.filter((a) => a.path === '/v2/transactions')).toHaveLength(1);
    }
  });
});
