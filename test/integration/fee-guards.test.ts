import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Devnet, startDevnet } from '../../src/devnet/index.js';
import { type DevnetState, utxosOf } from '../../src/devnet/state/index.js';
import { inMemoryStack, type Stack } from '../helpers/stack.js';

/**
 * Issue 34, "every fee is a number, shown and counted": a C atomic spend burns gas x base fee, and
 * a real node takes any base fee it is given. The server bounds the base fee (at most twice the
 * node's current one), sends it explicitly, shows the most the fee can burn, counts it in the
 * per-spend cap and the daily total, and binds it to the confirmation id, so a base fee that rises
 * between preview and confirm sends nothing. The devnet burns ⌈gas x base fee / 10^9⌉ nCAM like
 * caminoethvm (one EVM input and one output: 11,230 gas for an export).
 */

const CAM = 1_000_000_000n;
const WEI = 1_000_000_000n;
const GWEI = 1_000_000_000n;
/** The devnet's base fee (seed): 25 gwei. */
const BASE = 25n * GWEI;
/** What the devnet burns for a one-input export: 230 unsigned bytes + 1,000 + 10,000 gas. */
const EXPORT_GAS = 11_230n;
/** The server's bound for the devnet user's export: one EVM input per key (3 keys), 366 bytes + 3,000 + 10,000. */
const EXPORT_GAS_BOUND = 13_366n;

const burn = (gas: bigint, baseFee: bigint) => (gas * baseFee + WEI - 1n) / WEI;

function cTotal(state: DevnetState): bigint {
  return state.users.get('devnet')!.keys.reduce((sum, k) => sum + (state.cBalances.get(k.c) ?? 0n), 0n);
}

const keystore = { CHAIN_MCP_ALLOW_SPEND: 'true', CHAIN_MCP_APPROVAL: 'confirm-id', CHAIN_MCP_KEYSTORE_USER: 'devnet', CHAIN_MCP_KEYSTORE_PASSWORD: 'Devnet-Passw0rd!' };

describe('C atomic fees: bounded, shown, counted and bound to the confirmation', () => {
  let devnet: Devnet;
  let state: DevnetState;
  const stacks: Stack[] = [];
  const serve = async (env: Record<string, string> = {}) => {
    const stack = await inMemoryStack({ devnet, env: { ...keystore, ...env } });
    stacks.push(stack);
    return stack;
  };
  const exports = () => devnet.router.requests.filter((r) => (r.body as { method?: string })?.method === 'cx.export').length;
  beforeAll(async () => {
    devnet = await startDevnet();
    devnet.router.record = true;
    state = devnet.state;
  });
  afterAll(async () => {
    for (const s of stacks) await s.close();
    await devnet.close();
  });

  it('refuses a base fee over twice the node\'s current one, naming the field, before anything is sent', async () => {
    const stack = await serve();
    const to = state.users.get('devnet')!.keys[0]!.x;
    const before = cTotal(state);
    for (const baseFee of ['18446744073709551615', (2n * BASE + 1n).toString()]) {
      const r = await stack.call('cx_export', { to, amount: '1000000000', assetID: 'CAM', baseFee });
      expect(r.isError, r.text).toBe(true);
      expect(r.text).toContain(`baseFee: at most twice the node's current base fee, ${2n * BASE} wei (now ${BASE} wei); got ${baseFee} wei`);
      const i = await stack.call('cx_import', { to: state.users.get('devnet')!.keys[0]!.c, sourceChain: 'X', baseFee });
      expect(i.isError, i.text).toBe(true);
      expect(i.text).toContain("baseFee: at most twice the node's current base fee");
    }
    expect(cTotal(state)).toBe(before);
  });

  it('sends the base fee the preview counted, and the node burns no more than the preview\'s maximum', async () => {
    const stack = await serve();
    const to = state.users.get('devnet')!.keys[0]!.x;
    const given = 2n * BASE;
    const args = { to, amount: '1000000000', assetID: 'CAM', baseFee: given.toString() };
    const preview = await stack.call('cx_export', args);
    expect(preview.isError, preview.text).toBe(false);
    const max = burn(EXPORT_GAS_BOUND, given);
    expect(preview.text).toContain(`Fee: at most 0.0006683 CAM, burnt on C (gas at most ${EXPORT_GAS_BOUND} x base fee ${given} wei`);
    expect(preview.structured?.details).toMatchObject({ maxFee: max.toString(), baseFeeWei: given.toString() });
    const before = cTotal(state);
    const done = await stack.call('cx_export', { ...args, confirm: preview.structured?.confirmationId });
    expect(done.isError, done.text).toBe(false);
    // The node burnt gas x the base fee it was sent (50 gwei), not its own 25 gwei: the server sent it.
    const burnt = before - cTotal(state) - CAM * WEI;
    expect(burnt).toBe(burn(EXPORT_GAS, given) * WEI);
    expect(burnt <= max * WEI).toBe(true);
    // Without a base fee the node's current one is sent explicitly, so the node cannot pick a higher one.
    const plain = { to, amount: '1000000000', assetID: 'CAM' };
    const p2 = await stack.call('cx_export', plain);
    await stack.call('cx_export', { ...plain, confirm: p2.structured?.confirmationId });
    const last = devnet.router.requests.filter((r) => (r.body as { method?: string })?.method === 'cx.export').at(-1)!;
    expect((last.body as { params: Record<string, unknown> }).params.baseFee).toBe(Number(BASE));
  });

  it('counts the fee in CHAIN_MCP_MAX_SPEND: a 1 CAM export under a 1 CAM cap is refused, nothing sent', async () => {
    const stack = await serve({ CHAIN_MCP_MAX_SPEND: CAM.toString() });
    const to = state.users.get('devnet')!.keys[0]!.x;
    const before = cTotal(state);
    const r = await stack.call('cx_export', { to, amount: CAM.toString(), assetID: 'CAM' });
    expect(r.isError, r.text).toBe(true);
    expect(r.text).toContain(`Refused: the amount 1 CAM plus the fee of at most 0.00033415 CAM is 1.00033415 CAM, over CHAIN_MCP_MAX_SPEND (1 CAM).`);
    expect(cTotal(state)).toBe(before);
  });

  it('counts the most the fee can burn in the daily total, on the preview and at the send', async () => {
    const amount = CAM;
    const max = burn(EXPORT_GAS_BOUND, BASE);
    const to = state.users.get('devnet')!.keys[0]!.x;
    const short = await serve({ CHAIN_MCP_MAX_SPEND_PER_DAY: (amount + max - 1n).toString() });
    const refused = await short.call('cx_export', { to, amount: amount.toString(), assetID: 'CAM' });
    expect(refused.isError, refused.text).toBe(true);
    expect(refused.text).toContain('Refused: this spend (1.00033415 CAM, fees included)');
    const exact = await serve({ CHAIN_MCP_MAX_SPEND_PER_DAY: (amount + max).toString() });
    const preview = await exact.call('cx_export', { to, amount: amount.toString(), assetID: 'CAM' });
    expect(preview.isError, preview.text).toBe(false);
    const done = await exact.call('cx_export', { to, amount: amount.toString(), assetID: 'CAM', confirm: preview.structured?.confirmationId });
    expect(done.isError, done.text).toBe(false);
    // The whole allowance is used by amount + maximum fee: one more nCAM is refused.
    const next = await exact.call('xvm_send', { to, amount: '1', assetID: 'CAM' });
    expect(next.isError, next.text).toBe(true);
    expect(next.text).toContain(`${'1.00033415 CAM'} was sent already`);
  });

  it('a base fee that rises between preview and confirm sends nothing; a fresh preview shows the new maximum', async () => {
    const stack = await serve();
    const to = state.users.get('devnet')!.keys[0]!.x;
    const args = { to, amount: '1000000000', assetID: 'CAM' };
    const preview = await stack.call('cx_export', args);
    expect(preview.text).toContain(`x base fee ${BASE} wei`);
    const before = cTotal(state);
    const sent = exports();
    state.cBaseFee = 3n * BASE;
    try {
      const done = await stack.call('cx_export', { ...args, confirm: preview.structured?.confirmationId });
      expect(done.isError, done.text).toBe(true);
      expect(done.text).toContain('Confirmation refused: the confirmationId does not match this tool and these exact arguments (or the fee changed since the preview');
      expect(cTotal(state)).toBe(before);
      expect(exports()).toBe(sent);
      const again = await stack.call('cx_export', args);
      expect(again.text).toContain(`x base fee ${3n * BASE} wei`);
    } finally {
      state.cBaseFee = BASE;
    }
  });

  it('cx_import: the most its fee burns follows every output waiting, is shown with what arrives, and is counted', async () => {
    const key = state.users.get('devnet')!.keys[1]!;
    const waiting = utxosOf(state, 'C', state.users.get('devnet')!.keys.map((k) => k.bech32), { sourceChain: 'X' });
    // The 0x destination cannot be told as the user's: under a limit it must be allow-listed.
    const stack = await serve({ CHAIN_MCP_MAX_SPEND_PER_DAY: '1', CHAIN_MCP_ALLOWED_RECIPIENTS: key.c });
    const r = await stack.call('cx_import', { to: key.c, sourceChain: 'X' });
    // Each single-signature input is 88 bytes and 1,000 gas; one EVM output (60 bytes); header 82 bytes; 10,000 base.
    const gas = BigInt(82 + 88 * waiting.length + 60 + 1_000 * waiting.length + 10_000);
    const fee = burn(gas, BASE);
    expect(r.isError, r.text).toBe(true);
    expect(r.text).toContain('Refused: this spend (');
    const open = await serve();
    const preview = await open.call('cx_import', { to: key.c, sourceChain: 'X' });
    expect(preview.isError, preview.text).toBe(false);
    expect(preview.structured?.details).toMatchObject({ maxFee: fee.toString(), baseFeeWei: BASE.toString() });
    expect(preview.text).toContain(`gas at most ${gas} x base fee ${BASE} wei`);
  });
});

describe('transfer: its C destination follows the own-address rule, and its C fees are counted', () => {
  let stack: Stack;
  let limited: Stack;
  let devnet: Devnet;
  beforeAll(async () => {
    devnet = await startDevnet();
    stack = await inMemoryStack({ devnet, env: keystore });
    limited = await inMemoryStack({ devnet, env: { ...keystore, CHAIN_MCP_MAX_SPEND: (100n * CAM).toString() } });
  });
  afterAll(async () => {
    await stack.close();
    await limited.close();
    await devnet.close();
  });

  it('marks the 0x address an X -> C transfer credits as one that cannot be checked as yours, and shows both fees', async () => {
    const key = devnet.state.users.get('devnet')!.keys[0]!;
    const r = await stack.call('transfer', { to: `C-${key.bech32}`, amount: '2000000000', evmAddress: key.c });
    expect(r.isError, r.text).toBe(false);
    expect(r.text).toContain(`(credited to ${key.c} (cannot be checked as yours))`);
    // X export: txFee; C import: every output waiting for the user's keys plus this export's.
    expect(r.text).toMatch(/Step 2: cx\.import .*fee at most [\d.]+ CAM: gas at most \d+ x base fee 25000000000 wei/);
    const maxFee = BigInt((r.structured!.details as { maxFee: string }).maxFee);
    expect(maxFee > devnet.state.fees.txFee).toBe(true);
  });

  it('refuses that transfer under any limit unless the operator allow-listed the 0x address, sending nothing', async () => {
    const key = devnet.state.users.get('devnet')!.keys[0]!;
    const before = devnet.state.txs.size;
    const r = await limited.call('transfer', { to: `C-${key.bech32}`, amount: '2000000000', evmAddress: key.c });
    expect(r.isError, r.text).toBe(true);
    expect(r.text).toContain(`Refused: this server cannot tell whether ${key.c} is one of the keystore user's addresses, and a spending limit is set.`);
    expect(devnet.state.txs.size).toBe(before);
  });

  it('counts the C export fee of a C -> X transfer: the most it burns plus the X import fee', async () => {
    const key = devnet.state.users.get('devnet')!.keys[0]!;
    const r = await stack.call('transfer', { to: key.x, amount: '2000000000', sourceChain: 'C' });
    expect(r.isError, r.text).toBe(false);
    const expected = burn(EXPORT_GAS_BOUND, BASE) + devnet.state.fees.txFee;
    expect((r.structured!.details as { maxFee: string }).maxFee).toBe(expected.toString());
    expect(r.text).toContain(`Step 1: cx.export 2 CAM from C to ${key.x} (fee at most 0.00033415 CAM: gas at most ${EXPORT_GAS_BOUND} x base fee ${BASE} wei)`);
  });
});
