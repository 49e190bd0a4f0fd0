import { describe, expect, it } from 'vitest';
import { THIS_TX, type TxView } from '../../src/codec/tx/index.js';
import { type Config, loadConfig } from '../../src/config.js';
import type { NetworkInfo } from '../../src/context/network.js';
import { ChainMcpError } from '../../src/errors.js';
import type { LocalEnv } from '../../src/local/env.js';
import { headOf, shortAddress } from '../../src/local/intent.js';
import { countedTotal, type EvmFields, outflowOf } from '../../src/local/outflow.js';
import { renderTx, type Shower } from '../../src/local/render.js';
import type { BuiltTx } from '../../src/tx-builders/index.js';
import { chainSent } from '../../src/local/sent.js';
import { checkOutflow } from '../../src/spend/guard.js';
import { indexerCtx, input, NATIVE, NOW, out, own, TOKEN, view } from '../helpers/tx-views.js';

/**
 * What leaves the key, from decoded transactions: which outputs stay the key's alone, every fee
 * counted, the strangers named; the limits applied to it; and what the indexer records the key sent.
 */

const CAM = 1_000_000_000n;

const flow = (views: TxView[], evm: EvmFields[] = []) => outflowOf(views, evm, own, NATIVE, NOW);

describe('what leaves the key, from the decoded transactions', () => {
  it('a payment and its fee leave; change to the key alone stays', () => {
    const o = flow([view([input(10n * CAM)], [out(2n * CAM, ['X-local1bob']), out(8n * CAM - 1_000_000n, [own.x])])]);
    expect(o).toMatchObject({ native: 2n * CAM + 1_000_000n, fees: 1_000_000n, strangers: ['X-local1bob'] });
    expect(o.strangeRewardOwner).toBeUndefined();
  });

  it('an output of the key that another shares, that is time-locked, or that this tx locks leaves; one locked before stays', () => {
    const shared = out(1n, [own.x, 'X-local1bob'], { threshold: 1 });
    const twoOfOne = out(2n, [own.x], { threshold: 2 });
    const later = out(4n, [own.x], { locktime: NOW + 1n });
    const due = out(8n, [own.x], { locktime: NOW });
    const deposited = out(16n, [own.p], { lock: { depositTxID: THIS_TX, bondTxID: null } });
    const carried = out(32n, [own.p], { lock: { depositTxID: 'dep1', bondTxID: null } });
    const forged = out(64n, [own.p], { lock: { depositTxID: 'dep2', bondTxID: null } });
    const v = view([input(127n, { lock: { depositTxID: 'dep1', bondTxID: null } })], [shared, twoOfOne, later, due, deposited, carried, forged]);
    const o = flow([v]);
    // 1 + 2 + 4 + 16 + 64 leave; 8 (due now) and 32 (its lock carried from an input) stay; the fee is 0.
    expect(o.native).toBe(87n);
    expect(o.fees).toBe(0n);
    expect(o.strangers).toEqual(['X-local1bob']);
  });

  it('a bond lock of this tx leaves too', () => {
    const o = flow([view([input(5n)], [out(5n, [own.p], { lock: { depositTxID: null, bondTxID: THIS_TX } })])]);
    expect(o.native).toBe(5n);
  });

  it("a claim's minted rewards count with the inputs: paid to the key, only the fee leaves; paid to another, all of it", () => {
    const mine = view([input(10n)], [out(14n, [own.p])], { kind: 'claim', claimables: [{ id: 'c', type: 0n, amount: 5n }] });
    expect(flow([mine])).toMatchObject({ native: 1n, fees: 1n });
    const theirs = view([input(10n)], [out(9n, [own.p]), out(5n, ['P-local1bob'])], { kind: 'claim', claimables: [{ id: 'c', type: 0n, amount: 5n }] });
    expect(flow([theirs])).toMatchObject({ native: 6n, fees: 1n, strangers: ['P-local1bob'] });
    // A claim whose tx burns no native input still counts its minted part as fee arithmetic.
    const bare = view([], [out(4n, [own.p])], { kind: 'claim', claimables: [{ id: 'c', type: 0n, amount: 5n }], burned: {} });
    expect(flow([bare]).fees).toBe(5n);
  });

  it('other assets leave per asset, their burn included, and count unit for unit in the total', () => {
    const v = view([input(10n), input(100n, { assetID: TOKEN })], [out(9n, [own.x]), out(60n, ['X-local1bob'], { assetID: TOKEN }), out(30n, [own.x], { assetID: TOKEN })]);
    const o = flow([v]);
    expect(o.native).toBe(1n);
    expect([...o.assets]).toEqual([[TOKEN, 70n]]);
    expect(countedTotal(o)).toBe(71n);
  });

  it("a deposit's rewards owner other than the key alone is a stranger, named as written", () => {
    const dep = (addresses: string[], threshold: number) =>
      view([input(10n)], [out(9n, [own.p])], { kind: 'deposit', deposit: { depositOfferID: 'o', depositDuration: 60, rewardsOwner: { addresses, locktime: 0n, threshold } } });
    expect(flow([dep([own.p], 1)]).strangeRewardOwner).toBeUndefined();
    expect(flow([dep(['P-local1bob'], 1)])).toMatchObject({ strangeRewardOwner: 'P-local1bob', strangers: ['P-local1bob'] });
    expect(flow([dep([own.p, 'P-local1bob'], 2)])).toMatchObject({ strangeRewardOwner: `2 of ${own.p}, P-local1bob`, strangers: ['P-local1bob'] });
    expect(flow([dep([own.p], 2)]).strangeRewardOwner).toBe(`2 of ${own.p}`);
  });

  it('an EVM transaction: the most its gas can burn, rounded up, and its value unless to the key (any case) with no data', () => {
    const tx = (to: string | undefined, data = new Uint8Array()): EvmFields => ({ to, value: 3n * CAM * CAM + 1n, gas: 21_000n, maxFeePerGas: 51n * CAM + 1n, data });
    const fee = (21_000n * (51n * CAM + 1n) + CAM - 1n) / CAM;
    expect(flow([], [tx(own.evm.toLowerCase())])).toMatchObject({ native: fee, fees: fee, strangers: [] });
    expect(flow([], [tx('0x00000000000000000000000000000000000000bb')])).toMatchObject({ native: fee + 3n * CAM + 1n, strangers: ['0x00000000000000000000000000000000000000bb'] });
    expect(flow([], [tx(own.evm, new Uint8Array([1]))]).native).toBe(fee + 3n * CAM + 1n);
    expect(flow([], [tx(undefined)]).strangers).toEqual(['(contract creation)']);
  });

  it("where the key's own address is expected (an import's or a claim's outputs, a deposit's rewards), another is not yours; a payment is not", () => {
    const imp = view([input(5n, { imported: true })], [out(4n, ['0x00000000000000000000000000000000000000bb'])], { kind: 'import', chain: 'C' });
    expect(flow([imp]).notYours).toEqual(['0x00000000000000000000000000000000000000bb']);
    const mine = view([input(5n, { imported: true })], [out(4n, [own.evm.toLowerCase()])], { kind: 'import', chain: 'C' });
    expect(flow([mine]).notYours).toEqual([]);
    const claim = view([input(10n)], [out(9n, [own.p]), out(5n, ['P-local1bob', own.p], { threshold: 2 })], { kind: 'claim', claimables: [{ id: 'c', type: 0n, amount: 5n }] });
    expect(flow([claim]).notYours).toEqual(['P-local1bob']);
    const pay = view([input(10n)], [out(9n, ['X-local1bob'])]);
    expect(flow([pay]).notYours).toEqual([]);
    const dep = view([input(10n)], [out(9n, [own.p])], { kind: 'deposit', deposit: { depositOfferID: 'o', depositDuration: 60, rewardsOwner: { addresses: ['P-local1bob', 'P-local1bob'], locktime: 0n, threshold: 1 } } });
    expect(flow([dep]).notYours).toEqual(['P-local1bob']);
  });

  it('a lock stays only where an input held by the key carries it: a deposit, a bond, or both; a lock of this tx never', () => {
    const locked = (depositTxID: string | null, bondTxID: string | null) => ({ lock: { depositTxID, bondTxID } });
    const fee = input(1n);
    // Deposited only, from an input both deposited and bonded (an unbond): the deposit was locked before, it stays.
    const unbonded = view([fee, input(8n, locked('dep1', 'bond1'))], [out(8n, [own.p], locked('dep1', null))]);
    expect(flow([unbonded]).native).toBe(1n);
    // Bonded only, carried from an input with that bond: stays.
    const bonded = view([fee, input(8n, locked(null, 'bond1'))], [out(8n, [own.p], locked(null, 'bond1'))]);
    expect(flow([bonded]).native).toBe(1n);
    // Deposited and bonded where the inputs carry the deposit but not that bond: leaves.
    const halfForged = view([fee, input(8n, locked('dep1', null))], [out(8n, [own.p], locked('dep1', 'bond9'))]);
    expect(flow([halfForged]).native).toBe(9n);
    // An input whose lock names "this tx" (a node can hand out such a UTXO) does not make a new lock a carried one.
    const echo = view([fee, input(8n, locked(THIS_TX, null))], [out(8n, [own.p], locked(THIS_TX, null))]);
    expect(flow([echo]).native).toBe(9n);
  });

  it("a claim's minted rewards are native: another asset's burn in the same tx is that asset's alone; nothing leaving lists no asset", () => {
    const claim = view([input(10n), input(3n, { assetID: TOKEN })], [out(14n, [own.p])], { kind: 'claim', claimables: [{ id: 'c', type: 0n, amount: 5n }] });
    const o = flow([claim]);
    expect(o.fees).toBe(1n);
    expect([...o.assets]).toEqual([[TOKEN, 3n]]);
    const change = view([input(10n), input(3n, { assetID: TOKEN })], [out(9n, [own.x]), out(3n, [own.x], { assetID: TOKEN })]);
    expect([...flow([change]).assets]).toEqual([]);
  });

  it("a rewards owner of one threshold but two addresses is not the key's alone, even with the key's listed first", () => {
    const dep = view([input(10n)], [out(9n, [own.p])], {
      kind: 'deposit',
      deposit: { depositOfferID: 'o', depositDuration: 60, rewardsOwner: { addresses: [own.p, 'P-local1bob'], locktime: 0n, threshold: 1 } },
    });
    expect(flow([dep])).toMatchObject({ strangeRewardOwner: `1 of ${own.p}, P-local1bob`, strangers: ['P-local1bob'], notYours: ['P-local1bob'] });
  });

  it('an EVM fee that is a whole number of native units is not rounded up', () => {
    const o = flow([], [{ to: own.evm, value: 0n, gas: 21_000n, maxFeePerGas: 2n * CAM, data: new Uint8Array() }]);
    expect(o.fees).toBe(42_000n);
    expect(o.native).toBe(42_000n);
    // A value of whole units to another address is counted as it is, not one unit more.
    const paid = flow([], [{ to: '0x00000000000000000000000000000000000000bb', value: 2n * CAM * CAM, gas: 21_000n, maxFeePerGas: 2n * CAM, data: new Uint8Array() }]);
    expect(paid.native).toBe(42_000n + 2n * CAM);
  });

  it('two steps add up, a stranger named once', () => {
    const a = view([input(3n)], [out(1n, ['X-local1bob']), out(1n, [own.x])]);
    const b = view([input(3n)], [out(2n, ['X-local1bob'])]);
    expect(flow([a, b])).toMatchObject({ native: 5n, fees: 2n, strangers: ['X-local1bob'] });
  });
});

describe('the limits on what the bytes do', () => {
  const config = (extra: Partial<Config> = {}): Config => ({ ...loadConfig({}), ...extra });
  const CAMINO: NetworkInfo = { networkID: '1000', hrp: 'camino', assetSymbol: 'CAM', assetID: '', source: 'configuration' };
  const refusal = (fn: () => void): string => {
    try {
      fn();
    } catch (err) {
      if (err instanceof ChainMcpError) return err.message;
      throw err;
    }
    return 'passed';
  };

  it('the cap takes the total, fees included, up to the unit', () => {
    expect(refusal(() => checkOutflow({ total: CAM, strangers: [] }, config({ maxSpend: CAM }), CAMINO, 0n))).toBe('passed');
    expect(refusal(() => checkOutflow({ total: CAM + 1n, strangers: [] }, config({ maxSpend: CAM }), CAMINO, 0n))).toBe(
      "Refused: this spend takes 1.000000001 CAM out of the key's control (amount and every fee, read from its bytes), over CHAIN_MCP_MAX_SPEND (1 CAM).",
    );
  });

  it('the daily total: spent + total up to the limit passes; a spent total nobody gave is not checked', () => {
    const c = config({ maxSpendPerDay: 3n * CAM });
    expect(refusal(() => checkOutflow({ total: CAM, strangers: [] }, c, CAMINO, 2n * CAM))).toBe('passed');
    expect(refusal(() => checkOutflow({ total: CAM + 1n, strangers: [] }, c, CAMINO, 2n * CAM))).toContain('CHAIN_MCP_MAX_SPEND_PER_DAY (3 CAM); 2 CAM was sent already');
    expect(refusal(() => checkOutflow({ total: 9n * CAM, strangers: [] }, c, CAMINO, undefined))).toBe('passed');
  });

  it('the allow-list applies to every stranger in the bytes (0x in any case)', () => {
    const c = config({ allowedRecipients: ['X-camino1bob', '0xAAbb000000000000000000000000000000000001'] });
    expect(refusal(() => checkOutflow({ total: 1n, strangers: ['X-camino1bob', '0xaabb000000000000000000000000000000000001'] }, c, CAMINO, 0n))).toBe('passed');
    expect(refusal(() => checkOutflow({ total: 1n, strangers: ['X-camino1bob', 'X-camino1eve'] }, c, CAMINO, 0n))).toBe(
      'Refused: X-camino1eve is not in CHAIN_MCP_ALLOWED_RECIPIENTS (read from the transaction\'s bytes).',
    );
  });

  it("an address where your own was expected: fine with no limit, refused under any limit unless allow-listed", () => {
    const out = { total: 1n, strangers: ['X-camino1bob'], notYours: ['X-camino1bob'] };
    expect(refusal(() => checkOutflow(out, config(), CAMINO, 0n))).toBe('passed');
    expect(refusal(() => checkOutflow(out, config({ maxSpendPerDay: CAM }), CAMINO, 0n))).toBe(
      'Refused: X-camino1bob receives where your own address was expected (NOT your address), and a spending limit is set.',
    );
    expect(refusal(() => checkOutflow(out, config({ maxSpend: CAM, allowedRecipients: ['X-camino1bob'] }), CAMINO, 0n))).toBe('passed');
  });

  it("a deposit's rewards to a stranger: fine with no limit, refused under any limit unless every such address is allow-listed", () => {
    const out = { total: 1n, strangers: ['P-camino1bob'], rewardOwner: 'P-camino1bob' };
    expect(refusal(() => checkOutflow(out, config(), CAMINO, 0n))).toBe('passed');
    expect(refusal(() => checkOutflow(out, config({ maxSpend: CAM }), CAMINO, 0n))).toContain("the deposit's rewards go to P-camino1bob, NOT your address");
    expect(refusal(() => checkOutflow(out, config({ maxSpendPerDay: CAM }), CAMINO, 0n))).toContain('NOT your address');
    expect(refusal(() => checkOutflow(out, config({ maxSpend: CAM, allowedRecipients: ['P-camino1bob'] }), CAMINO, 0n))).toBe('passed');
  });
});

describe('what the indexer records the key sent', () => {
  const env = { own, network: { assetID: NATIVE }, chainIDs: { X: 'x-chain', P: 'p-chain', C: 'c-chain' } } as unknown as LocalEnv;
  const NOW_MS = 2_000_000_000_000;
  const KEY = 'local1key';
  const ctxOf = indexerCtx;
  const output = (amount: string, addresses: string[], extra: Record<string, unknown> = {}) => ({ assetID: NATIVE, amount, addresses, threshold: 1, locktime: 0, ...extra });
  /** A cvm_addresses row as Magellan maps it to an output (services/indexes/avax/reader_list_txs.go `mapOutput`). */
  const cvm = (amount: string, address: string) => ({ assetID: NATIVE, amount, addresses: null, caddresses: [address], threshold: 0, locktime: 0, outputType: 4294967281 });
  const xTx = (id: string, ins: unknown[], outs: unknown[], extra: Record<string, unknown> = {}) => ({
    id,
    chainID: 'x-chain',
    timestamp: '2033-05-18T03:33:20Z',
    inputs: ins.map((o) => ({ output: o })),
    outputs: outs,
    txFee: 1000000,
    ...extra,
  });

  it('asks for the key in the last 24 hours and counts inputs held less outputs to the key alone, and EVM value plus the most gas can burn', async () => {
    const txs = [
      xTx('a', [output('10', [KEY])], [output('3', ['local1bob']), output('6', [KEY])]),
      // Received only: nothing sent.
      xTx('b', [output('50', ['local1bob'])], [output('50', [KEY])]),
      // Another asset, a shared output, a time-locked one.
      xTx('c', [output('10', [KEY]), output('5', [KEY], { assetID: TOKEN })], [output('2', [KEY, 'local1bob']), output('3', [KEY], { locktime: 2_000_000_001 }), output('5', [KEY])]),
      // The same transaction listed twice counts once.
      xTx('a', [output('10', [KEY])], [output('3', ['local1bob']), output('6', [KEY])]),
      // C-Chain atomic transactions as Magellan lists them: the EVM side in `caddresses` (EIP-55), `addresses` null, threshold 0.
      // An import into C crediting the key's own 0x: its fee.
      xTx('d', [output('20', [KEY])], [cvm('13', own.evm)], { chainID: 'c-chain', type: 'atomic_import_tx', txFee: 7 }),
      // An export from C of the key's 0x to the key's X address: its fee.
      xTx('e', [cvm('30', own.evm)], [output('25', [KEY])], { chainID: 'c-chain', type: 'atomic_export_tx' }),
      // An import into C crediting another 0x: all of it.
      xTx('f', [output('8', [KEY])], [cvm('6', '0x00000000000000000000000000000000000000b0')], { chainID: 'c-chain', type: 'atomic_import_tx' }),
      // An export from another 0x: nothing of the key's.
      xTx('g', [cvm('40', '0x00000000000000000000000000000000000000b0')], [output('39', [KEY])], { chainID: 'c-chain', type: 'atomic_export_tx' }),
    ];
    const ctxs = [
      { hash: 'h1', fromAddr: own.evm.toLowerCase(), toAddr: '0xbob', value: String(2n * CAM * CAM + 1n), gasLimit: 21000, maxFeePerGas: '3' },
      { hash: 'h2', fromAddr: own.evm.toLowerCase(), toAddr: own.evm.toLowerCase(), value: String(5n * CAM), gasLimit: 21000, gasPrice: '1' },
      { hash: 'h3', fromAddr: '0xbob', toAddr: own.evm.toLowerCase(), value: '99', gasLimit: 1, maxFeePerGas: '1' },
    ];
    const { ctx, asked } = ctxOf((path) => (path === '/v2/transactions' ? { transactions: txs } : { Transactions: ctxs }));
    // a: 4; c: 10 - 5 = 5; d: 20 - 13 = 7; e: 30 - 25 = 5; f: 8; g: 0; h1: ceil((2e18+1 + 63000) / 1e9) = 2e9 + 1; h2: ceil(21000 / 1e9) = 1.
    expect(await chainSent(ctx, env, NOW_MS)).toBe(4n + 5n + 7n + 5n + 8n + 2n * CAM + 1n + 1n);
    const since = String(NOW_MS / 1000 - 86_400);
    expect(asked).toEqual([
      { path: '/v2/transactions', query: [['address', KEY], ['startTime', since], ['limit', '1000']] },
      { path: '/v2/ctransactions', query: [['fromAddress', own.evm.toLowerCase()], ['startTime', since], ['limit', '1000']] },
    ]);
  });

  it('follows next, bounded: a list that does not end within the pages is not told', async () => {
    let pages = 0;
    const paged = ctxOf((path, query) => {
      if (path === '/v2/ctransactions') return { Transactions: [] };
      pages++;
      const offset = Number(new URLSearchParams(query).get('offset') ?? '0');
      return { transactions: [xTx(`t${offset}`, [output('2', [KEY])], [output('1', [KEY])])], ...(offset < 2 ? { next: `/v2/transactions?address=${KEY}&offset=${offset + 1}` } : {}) };
    });
    expect(await chainSent(paged.ctx, env, NOW_MS)).toBe(3n);
    expect(pages).toBe(3);
    const endless = ctxOf((path) => (path === '/v2/ctransactions' ? { Transactions: [] } : { transactions: [], next: 'offset=1' }));
    expect(await chainSent(endless.ctx, env, NOW_MS)).toBeUndefined();
    expect(endless.asked.filter((a) => a.path === '/v2/transactions')).toHaveLength(10);
  });

  it('a full page of EVM transactions (Magellan gives /v2/ctransactions no next) is not told; one row fewer is', async () => {
    const rows = (n: number) => Array.from({ length: n }, (_, i) => ({ hash: `h${i}`, fromAddr: own.evm.toLowerCase(), toAddr: '0xbob', value: '0', gasLimit: 1, gasPrice: '1' }));
    const full = ctxOf((path) => (path === '/v2/ctransactions' ? { Transactions: rows(1000) } : { transactions: [] }));
    expect(await chainSent(full.ctx, env, NOW_MS)).toBeUndefined();
    const fewer = ctxOf((path) => (path === '/v2/ctransactions' ? { Transactions: rows(999) } : { transactions: [] }));
    // Each burns at most 1 wei of gas: 1 nCAM rounded up.
    expect(await chainSent(fewer.ctx, env, NOW_MS)).toBe(999n);
  });

  it('an indexer that fails or answers an unreadable amount cannot say', async () => {
    expect(
      await chainSent(
        ctxOf(() => {
          throw new Error('503');
        }).ctx,
        env,
        NOW_MS,
      ),
    ).toBeUndefined();
    const bad = ctxOf((path) => (path === '/v2/transactions' ? { transactions: [xTx('a', [output('1e9', [KEY])], [])] } : { Transactions: [] }));
    expect(await chainSent(bad.ctx, env, NOW_MS)).toBeUndefined();
  });
});

describe("the preview's head, from the decoded transactions", () => {
  const env = {
    own,
    network: { assetID: NATIVE, assetSymbol: 'CAM' },
    chainIDs: { X: 'x-chain', P: 'p-chain', C: 'c-chain' },
    build: { now: NOW },
  } as unknown as LocalEnv;
  const show: Shower = (asset, v) => (asset === NATIVE ? `${v} nCAM` : `${v} of ${asset}`);
  const headFor = (views: TxView[], evm: EvmFields[] = []) => headOf(views, evm, outflowOf(views, evm, own, NATIVE, NOW), env, show);

  it('a send names each recipient once with every asset, the total adds the other assets, and a lock or a shared owner is a warning', () => {
    const v = view(
      [input(100n), input(50n, { assetID: TOKEN })],
      [
        out(10n, ['X-local1bob0000000000000000000000000000000']),
        out(20n, ['X-local1bob0000000000000000000000000000000'], { assetID: TOKEN }),
        out(5n, [own.x], { locktime: NOW + 60n }),
        out(3n, [own.x, 'X-local1eve'], { threshold: 2 }),
        out(81n, [own.x]),
        out(30n, [own.x], { assetID: TOKEN }),
      ],
    );
    const h = headFor([v]);
    expect(h.intents).toEqual(['Send 10 nCAM and 20 of token-asset to X-local1bob0…0000', 'Send 3 nCAM to X-local1key, X-local1eve']);
    expect(h.total).toBe('Total leaving your key: 19 nCAM and 20 of token-asset (amount + every fee)');
    expect(h.warnings).toEqual([
      `Lock: 5 nCAM to ${own.x} is spendable only from ${new Date(Number(NOW + 60n) * 1000).toISOString()}`,
      `Shared: 3 nCAM needs 2 of ${own.x}, X-local1eve to sign`,
    ]);
  });

  it('a send to yourself, an export to another, an unlock, and an EVM send to yourself and to a contract', () => {
    expect(headFor([view([input(10n)], [out(9n, [own.x])])]).intents).toEqual([`Send to yourself on the X-Chain (${own.x}): only the fee leaves`]);
    const exp = view([input(10n)], [out(4n, [own.x]), out(5n, ['P-local1bob'], { exported: true })], { kind: 'export', destinationChain: 'p-chain' });
    const e = headFor([exp]);
    expect(e.intents).toEqual(['Export 5 nCAM from the X-Chain to P-local1bob (NOT your address) on the P-Chain']);
    expect(e.warnings).toEqual(['NOT your address: 5 nCAM goes to P-local1bob']);
    const unlock = view(
      [input(10n, { lock: { depositTxID: 'd', bondTxID: null } })],
      [out(4n, [own.p], { lock: { depositTxID: 'd', bondTxID: null } }), out(5n, [own.p])],
      { kind: 'unlockDeposit', chain: 'P' },
    );
    expect(headFor([unlock])).toEqual({ intents: ['Unlock deposits: 5 nCAM becomes spendable on your P account (after the fee)'], total: 'Total leaving your key: 1 nCAM (every fee; nothing else leaves)', warnings: [] });
    const evm = (to: string, data = new Uint8Array()): EvmFields => ({ to, value: 7n * CAM, gas: 1n, maxFeePerGas: CAM, data });
    expect(headFor([], [evm(own.evm)]).intents).toEqual(['Send 7 nCAM to yourself (0xAbCd…0001) on the C-Chain']);
    const call = headFor([], [evm('0x00000000000000000000000000000000000000bb', new Uint8Array(4))]);
    expect(call.intents).toEqual(['Send 7 nCAM to 0x0000…00bb on the C-Chain']);
    expect(call.warnings).toEqual(['Contract call: 4 bytes of data to 0x00000000000000000000000000000000000000bb']);
  });

  it('a send to yourself on P names the P address; a plain C-Chain send warns of nothing; an address is shortened only past 18 characters', () => {
    expect(headFor([view([input(10n)], [out(9n, [own.p])], { chain: 'P' })]).intents).toEqual([`Send to yourself on the P-Chain (${own.p}): only the fee leaves`]);
    expect(headFor([], [{ to: '0x00000000000000000000000000000000000000bb', value: CAM, gas: 21_000n, maxFeePerGas: 1n, data: new Uint8Array() }]).warnings).toEqual([]);
    expect(shortAddress('X-local1abcdefghij')).toBe('X-local1abcdefghij');
    expect(shortAddress('X-local1abcdefghijk')).toBe('X-local1abcd…hijk');
  });

  it('a lock is warned only while it lasts; a shared output, one signer of two or two of one, is warned; an import the key shares is shared, not another\'s', () => {
    const bob = 'X-local1bob0000000000000000000000000000000';
    const due = headFor([view([input(10n)], [out(9n, [bob], { locktime: NOW })])]);
    expect(due.warnings).toEqual([]);
    const either = headFor([view([input(10n)], [out(9n, [bob, own.x], { threshold: 1 })])]);
    expect(either.warnings).toEqual([`Shared: 9 nCAM needs 1 of ${bob}, ${own.x} to sign`]);
    const imported = headFor([view([input(10n, { imported: true })], [out(9n, [own.x, bob], { threshold: 2 })], { kind: 'import', sourceChain: 'p-chain' })]);
    expect(imported.warnings).toEqual([`Shared: 9 nCAM needs 2 of ${own.x}, ${bob} to sign`]);
  });

  it("a move's two steps read as one sentence: what the export takes across and what the import credits", () => {
    const exp = view([input(100n)], [out(89n, [own.x]), out(10n, [own.cAtomic], { exported: true })], { kind: 'export', destinationChain: 'c-chain' });
    const imp = view([input(10n, { imported: true })], [out(8n, [own.evm.toLowerCase()])], { kind: 'import', chain: 'C', sourceChain: 'x-chain' });
    const h = headFor([exp, imp]);
    expect(h.intents).toEqual(['Move 10 nCAM from your X account to your C account (0xabcd…0001); 8 nCAM arrives']);
    expect(h.total).toBe('Total leaving your key: 3 nCAM (every fee; nothing else leaves)');
  });
});

describe("a transaction's detail lines, from its decoded view", () => {
  const env = { own, network: { assetID: NATIVE }, chainIDs: { X: 'x-chain', P: 'p-chain', C: 'c-chain' }, build: { now: NOW } } as unknown as LocalEnv;
  const show: Shower = (asset, v) => (asset === NATIVE ? `${v} nCAM` : `${v} of ${asset}`);
  const built = { hash: new Uint8Array(32), bytes: new Uint8Array(100) } as unknown as BuiltTx;

  it('an output spendable only later says from when (its locktime, in ISO time), one shared says how many sign; the fee is inputs less outputs', () => {
    const later = NOW + 86_400n;
    const v = view([input(100n)], [out(10n, ['X-local1bob'], { locktime: later }), out(20n, ['X-local1bob', own.x], { threshold: 2 }), out(69n, [own.x])]);
    const { lines, fee } = renderTx(built, v, env, show, 'Tx');
    expect(lines).toContain(`Tx output 1: 10 nCAM to X-local1bob (payment; spendable from ${new Date(Number(later) * 1000).toISOString()})`);
    expect(lines).toContain(`Tx output 2: 20 nCAM to X-local1bob, ${own.x} (payment; 2 of 2 owners sign)`);
    expect(fee).toBe(1n);
    expect(lines).toContain('Tx fee: 1 nCAM (inputs 100 nCAM - outputs 99 nCAM)');
  });

  it('an export, an import and a claim for another address: the chain each comes from or goes to, and every output tagged as not yours', () => {
    const bob = 'P-local1bob';
    const exp = renderTx(built, view([input(10n)], [out(5n, [bob], { exported: true }), out(4n, [own.x])], { kind: 'export', destinationChain: 'p-chain' }), env, show, 'Tx').lines;
    expect(exp[0]).toBe('Tx: X-Chain export, network 1, blockchain b, to chain P (p-chain)');
    expect(exp).toContain(`Tx output 1: 5 nCAM to ${bob} (exported; unlocked)`);
    expect(exp).toContain(`Tx output 2: 4 nCAM to ${own.x} (change, your address; unlocked)`);
    const imp = renderTx(built, view([input(10n, { imported: true })], [out(9n, [bob])], { kind: 'import', chain: 'P', sourceChain: 'x-chain' }), env, show, 'Tx').lines;
    expect(imp[0]).toBe('Tx: P-Chain import, network 1, blockchain b, from chain X (x-chain)');
    expect(imp).toContain('Tx input 1: 10 nCAM, UTXO u:0 (waiting in shared memory)');
    expect(imp).toContain(`Tx output 1: 9 nCAM to ${bob} (imported; unlocked)`);
    const claim = renderTx(built, view([], [out(7n, [bob])], { kind: 'claim', chain: 'P', claimables: [{ id: 'owner-id', type: 0n, amount: 8n }] }), env, show, 'Tx').lines;
    expect(claim).toContain(`Tx output 1: 7 nCAM to ${bob} (rewards paid to another address; unlocked)`);
    expect(claim).toContain('Tx claim 1: 8 nCAM, validator rewards of owner owner-id');
    expect(claim).toContain('Tx fee: 1 nCAM (inputs 0 nCAM + claimed 8 nCAM - outputs 7 nCAM)');
  });

  it("the key's own outputs tagged by why they exist: a claim's reward, an unlock's freed and still-locked parts, each lock named", () => {
    const claim = renderTx(built, view([], [out(7n, [own.p])], { kind: 'claim', chain: 'P', claimables: [{ id: 'd1', type: 3n, amount: 8n }] }), env, show, 'Tx').lines;
    expect(claim).toContain(`Tx output 1: 7 nCAM to ${own.p} (to your address; unlocked)`);
    const deposited = { lock: { depositTxID: 'd1', bondTxID: null } };
    const unlock = view(
      [input(10n, deposited)],
      [out(4n, [own.p], deposited), out(3n, [own.p], { lock: { depositTxID: null, bondTxID: 'b1' } }), out(2n, [own.p])],
      { kind: 'unlockDeposit', chain: 'P' },
    );
    const lines = renderTx(built, unlock, env, show, 'Tx').lines;
    expect(lines).toContain(`Tx output 1: 4 nCAM to ${own.p} (stays locked, your address; locked: deposit d1)`);
    expect(lines).toContain(`Tx output 2: 3 nCAM to ${own.p} (stays locked, your address; locked: bond b1)`);
    expect(lines).toContain(`Tx output 3: 2 nCAM to ${own.p} (unlocked, your address; unlocked)`);
  });

  it("a deposit's rewards owner in full: the key alone is yours; one of two, or two of two, is NOT your address", () => {
    const depositLine = (threshold: number, addresses: string[]) =>
      renderTx(built, view([input(10n)], [out(9n, [own.p])], { kind: 'deposit', chain: 'P', deposit: { depositOfferID: 'o1', depositDuration: 86_400, rewardsOwner: { threshold, addresses, locktime: 0n } } } as Partial<TxView>), env, show, 'Tx').lines.find((l) =>
        l.startsWith('Tx deposit: '),
      );
    expect(depositLine(1, [own.p])).toBe(`Tx deposit: offer o1, duration 1 day (86400 s), rewards to ${own.p} (your address)`);
    expect(depositLine(1, [own.p, 'P-local1bob'])).toBe(`Tx deposit: offer o1, duration 1 day (86400 s), rewards to 1 of ${own.p}, P-local1bob (NOT your address)`);
    expect(depositLine(0, [own.p])).toBe(`Tx deposit: offer o1, duration 1 day (86400 s), rewards to 0 of ${own.p} (NOT your address)`);
    expect(depositLine(2, [own.p, 'P-local1bob'])).toBe(`Tx deposit: offer o1, duration 1 day (86400 s), rewards to 2 of ${own.p}, P-local1bob (NOT your address)`);
  });
});
