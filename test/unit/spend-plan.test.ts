import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { CallOptions, ToolContext } from '../../src/core/tool.js';
import { cb58Encode, decodeEncoded, formatCb58Id, formatChainAddress } from '../../src/codec/index.js';
import { loadConfig } from '../../src/config.js';
import type { AssetInfo, NetworkInfo } from '../../src/context/network.js';
import { ChainMcpError, InputError, RpcError } from '../../src/errors.js';
import {
  atomicWaiting,
  checkDelegation,
  checkPeriod,
  credentials,
  endsWithLine,
  feeLine,
  findValidator,
  headLines,
  hrpOf,
  importLine,
  importPlan,
  cImportPlan,
  MAX_STAKE_SECONDS,
  MIN_STAKE_SECONDS,
  minDelegatorStake,
  onChain,
  payloadBytes,
  pUnlocked,
  requiredValidatorStake,
  resolveAsset,
  shownAmount,
  txFees,
  unixSeconds,
  userXAddresses,
  WEIGHT_CAP_UNITS,
  xBalance,
} from '../../src/spend/plan.js';
import type { RpcParams } from '../../src/transport/jsonrpc.js';
import type { Endpoint } from '../../src/wire.js';

/**
 * Unit tests of the spend-preview helpers (src/spend/plan.ts): what a person reads before saying
 * yes, what the node is asked, and the spec's staking rules at their exact edges.
 */

// ---------------------------------------------------------------------------------------------
// Fixtures

const id = (fill: number) => formatCb58Id(new Uint8Array(32).fill(fill));
const NATIVE = id(1);
const FOREIGN = id(2);
const ADDR_X = formatChainAddress('X', 'local', new Uint8Array(20).fill(3));
const ADDR_X2 = formatChainAddress('X', 'local', new Uint8Array(20).fill(4));
const NODE = 'NodeID-7Xhw2mDxuDS44j42TCB6U5579esbSt3Lg';
const OTHER_NODE = 'NodeID-MFrZFVCXPv5iCn6M9K6XduxGTYp891xXZ';

/** One native unit in its smallest unit (9 decimals, DESIGN section 5). */
const UNIT = 10n ** 9n;
const cam = (whole: number | bigint) => BigInt(whole) * UNIT;

const LOCAL: NetworkInfo = { networkID: '12345', hrp: 'local', assetSymbol: 'CAM', assetID: NATIVE, source: 'configuration' };
const CAMINO_NATIVE: AssetInfo = { assetID: NATIVE, name: 'Camino', symbol: 'CAM', denomination: 9 };
const FOO: AssetInfo = { assetID: FOREIGN, name: 'Foo token', symbol: 'FOO', denomination: 2 };

const KEYSTORE = { username: 'alice', password: 'correct-horse-battery' };

interface RpcCall {
  endpoint: Endpoint;
  method: string;
  params: RpcParams;
  opts: CallOptions | undefined;
}

/** How the fake node answers one method: a value, or throw to fail the call. */
type Answer = (params: RpcParams) => unknown;
const ok =
  (value: unknown): Answer =>
  () =>
    value;
const fail =
  (err: Error): Answer =>
  () => {
    throw err;
  };

interface Fake {
  ctx: ToolContext;
  calls: RpcCall[];
}

/** A ToolContext whose rpc records every call and answers from `answers` (by method); an unlisted method fails the call. */
function fakeCtx(
  opts: {
    answers?: Record<string, Answer>;
    network?: NetworkInfo | Error;
    assets?: Record<string, AssetInfo | Error>;
    keystore?: boolean;
  } = {},
): Fake {
  const calls: RpcCall[] = [];
  const env = opts.keystore === false ? {} : { CHAIN_MCP_KEYSTORE_USER: KEYSTORE.username, CHAIN_MCP_KEYSTORE_PASSWORD: KEYSTORE.password };
  const ctx = {
    config: loadConfig(env),
    async rpc(endpoint: Endpoint, method: string, params?: RpcParams, callOpts?: CallOptions) {
      calls.push({ endpoint, method, params, opts: callOpts });
      const answer = opts.answers?.[method];
      if (!answer) throw new Error(`fake node: no answer for ${method}`);
      return answer(params);
    },
    async network() {
      const n = opts.network ?? LOCAL;
      if (n instanceof Error) throw n;
      return n;
    },
    async asset(assetID: string) {
      const a = opts.assets?.[assetID];
      if (a === undefined) throw new RpcError(-32000, `couldn't find asset ${assetID}`, undefined);
      if (a instanceof Error) throw a;
      return a;
    },
    now: () => 1_700_000_000_000,
  } as unknown as ToolContext;
  return { ctx, calls };
}

/** The error a function throws (fails the test when it does not throw). */
function thrown(fn: () => unknown): Error {
  try {
    fn();
  } catch (err) {
    return err as Error;
  }
  throw new Error('expected a throw');
}

async function rejection(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (err) {
    return err as Error;
  }
  throw new Error('expected a rejection');
}

/** Asserts an InputError naming `field` with exactly `message` (after the "Invalid input: field: " prefix). */
function expectInputError(err: Error, field: string, message: string): void {
  expect(err).toBeInstanceOf(InputError);
  expect((err as InputError).field).toBe(field);
  expect(err.message).toBe(`Invalid input: ${field}: ${message}`);
}

/** hex as nodes send it: 0x, the data, then the last 4 bytes of sha256(data). */
function hexWithChecksum(bytes: Uint8Array): string {
  const sum = createHash('sha256').update(bytes).digest().subarray(-4);
  return `0x${Buffer.concat([Buffer.from(bytes), sum]).toString('hex')}`;
}

const u32 = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n);
  return b;
};
const u64 = (n: bigint) => {
  const b = Buffer.alloc(8);
  b.writeBigUInt64BE(n);
  return b;
};

/**
 * A UTXO in codec form (see src/summarize/utxo.ts): codec version, txID, output index, asset ID,
 * output type; type 7 (secp256k1 transfer) continues with amount, locktime, threshold and no owners.
 */
function utxo(assetFill: number, index: number, output: { type: 7; amount: bigint } | { type: number }): string {
  const head = Buffer.concat([Buffer.alloc(2), Buffer.alloc(32, 9), u32(index), Buffer.alloc(32, assetFill), u32(output.type)]);
  const body = 'amount' in output ? Buffer.concat([u64(output.amount), u64(0n), u32(1), u32(0)]) : Buffer.alloc(0);
  return hexWithChecksum(new Uint8Array(Buffer.concat([head, body])));
}

// ---------------------------------------------------------------------------------------------

describe('unixSeconds (tool input)', () => {
  const schema = unixSeconds('When the stake starts');

  it('accepts a whole number or its decimal digits and yields a number', () => {
    expect(schema.parse(1_700_000_000)).toBe(1_700_000_000);
    expect(schema.parse('1700000000')).toBe(1_700_000_000);
    expect(schema.parse('123456789012345')).toBe(123_456_789_012_345);
    expect(schema.description).toBe('When the stake starts');
  });

  it.each([
    ['x123', 'a leading non-digit'],
    ['123x', 'a trailing non-digit'],
    ['1234567890123456', 'more than 15 digits'],
    ['-5', 'a sign'],
    ['1.5', 'a fraction'],
    ['', 'nothing'],
  ])('refuses %j (%s) with a custom issue saying what is expected', (value) => {
    const result = schema.safeParse(value);
    expect(result.success).toBe(false);
    expect(result.error?.issues).toEqual([expect.objectContaining({ code: 'custom', message: 'expected Unix seconds as a whole number' })]);
  });
});

describe('credentials', () => {
  it('returns the configured keystore user and password', () => {
    expect(credentials(fakeCtx().ctx)).toEqual(KEYSTORE);
  });

  it('refuses with not_configured and names the environment variables when no keystore user is set', () => {
    const err = thrown(() => credentials(fakeCtx({ keystore: false }).ctx));
    expect(err).toBeInstanceOf(ChainMcpError);
    expect((err as ChainMcpError).kind).toBe('not_configured');
    expect(err.message).toBe('No keystore user is configured.');
    expect((err as ChainMcpError).hint).toBe('Set CHAIN_MCP_KEYSTORE_USER and CHAIN_MCP_KEYSTORE_PASSWORD in the server environment.');
  });
});

describe('txFees', () => {
  it('asks info.getTxFee with empty params, retrying, and reads both fees', async () => {
    const { ctx, calls } = fakeCtx({ answers: { 'info.getTxFee': ok({ txFee: '1000000', creationTxFee: '10000000' }) } });
    expect(await txFees(ctx)).toEqual({ txFee: 1_000_000n, creationTxFee: 10_000_000n });
    expect(calls).toEqual([{ endpoint: 'info', method: 'info.getTxFee', params: {}, opts: { retry: true } }]);
  });

  it('reads an empty (null) answer as zero fees instead of crashing', async () => {
    const { ctx } = fakeCtx({ answers: { 'info.getTxFee': ok(null) } });
    expect(await txFees(ctx)).toEqual({ txFee: 0n, creationTxFee: 0n });
  });
});

describe('userXAddresses', () => {
  it('uses the given `from` addresses as a copy, asking the node nothing', async () => {
    const { ctx, calls } = fakeCtx();
    const from = [ADDR_X, ADDR_X2];
    const got = await userXAddresses(ctx, from);
    expect(got).toEqual([ADDR_X, ADDR_X2]);
    expect(got).not.toBe(from);
    expect(calls).toEqual([]);
  });

  it.each([
    ['absent', undefined],
    ['empty', []],
  ])('lists the keystore user X addresses when `from` is %s, sending the credentials', async (_, from) => {
    const { ctx, calls } = fakeCtx({ answers: { 'xvm.listAddresses': ok({ addresses: [ADDR_X, ADDR_X2] }) } });
    expect(await userXAddresses(ctx, from)).toEqual([ADDR_X, ADDR_X2]);
    expect(calls).toEqual([{ endpoint: 'xvm', method: 'xvm.listAddresses', params: KEYSTORE, opts: { retry: true } }]);
  });

  it('keeps only the string entries of the listed addresses', async () => {
    const { ctx } = fakeCtx({ answers: { 'xvm.listAddresses': ok({ addresses: [ADDR_X, 5, null, { a: 1 }, ADDR_X2] }) } });
    expect(await userXAddresses(ctx)).toEqual([ADDR_X, ADDR_X2]);
  });

  it.each([
    ['a null answer', null],
    ['an answer without addresses', {}],
    ['addresses that are not a list', { addresses: 'X-local1abc' }],
  ])('yields no addresses for %s', async (_, answer) => {
    const { ctx } = fakeCtx({ answers: { 'xvm.listAddresses': ok(answer) } });
    expect(await userXAddresses(ctx)).toEqual([]);
  });
});

describe('onChain and hrpOf', () => {
  it('moves an X address to another chain by replacing only the chain letter', () => {
    const bare = ADDR_X.slice(2);
    expect(onChain(ADDR_X, 'P')).toBe(`P-${bare}`);
    expect(onChain(ADDR_X, 'C')).toBe(`C-${bare}`);
  });

  it('prefixes a bare address (no dash) with the chain', () => {
    const bare = ADDR_X.slice(2);
    expect(onChain(bare, 'P')).toBe(`P-${bare}`);
  });

  it('reads the bech32 prefix of an address', () => {
    expect(hrpOf(ADDR_X)).toBe('local');
    expect(hrpOf(formatChainAddress('P', 'columbus', new Uint8Array(20).fill(7)))).toBe('columbus');
  });
});

describe('resolveAsset', () => {
  it('takes the native asset ID as native and shows amounts with the bare native symbol', async () => {
    const { ctx } = fakeCtx({ assets: { [NATIVE]: CAMINO_NATIVE } });
    const r = await resolveAsset(ctx, NATIVE, LOCAL);
    expect(r.native).toBe(true);
    expect(r.info).toEqual(CAMINO_NATIVE);
    expect(r.show(cam(1) + UNIT / 2n)).toBe('1.5 CAM');
  });

  it('takes the native symbol as native even when the node cannot look the alias up, with a 9-decimal stand-in', async () => {
    const { ctx } = fakeCtx({ assets: { CAM: new RpcError(-32000, 'asset not found', undefined) } });
    const r = await resolveAsset(ctx, 'CAM', LOCAL);
    expect(r.native).toBe(true);
    expect(r.info).toEqual({ assetID: 'CAM', name: '', symbol: 'CAM', denomination: 9 });
    expect(r.show(cam(2))).toBe('2 CAM');
  });

  it('takes the native asset ID as native when the node fails the lookup with an rpc error', async () => {
    const { ctx } = fakeCtx({ assets: { [NATIVE]: new RpcError(-32000, 'asset not found', undefined) } });
    const r = await resolveAsset(ctx, NATIVE, LOCAL);
    expect(r.native).toBe(true);
    expect(r.info).toEqual({ assetID: NATIVE, name: '', symbol: 'CAM', denomination: 9 });
  });

  it('takes an alias as native when the node says it stands for the native asset ID', async () => {
    const { ctx } = fakeCtx({ assets: { camino: CAMINO_NATIVE } });
    const r = await resolveAsset(ctx, 'camino', LOCAL);
    expect(r.native).toBe(true);
    expect(r.info).toEqual(CAMINO_NATIVE);
    expect(r.show(cam(3))).toBe('3 CAM');
  });

  it('takes another asset as foreign: its denomination and its quoted symbol', async () => {
    const { ctx } = fakeCtx({ assets: { [FOREIGN]: FOO } });
    const r = await resolveAsset(ctx, FOREIGN, LOCAL);
    expect(r.native).toBe(false);
    expect(r.info).toEqual(FOO);
    expect(r.show(12_345n)).toBe('123.45 "FOO"');
  });

  it('does not take an asset for native when neither the network nor the node names an asset ID', async () => {
    const unknownIDs: NetworkInfo = { ...LOCAL, assetID: '', source: 'known-networks' };
    const nameless: AssetInfo = { assetID: '', name: 'Bar', symbol: 'BAR', denomination: 0 };
    const { ctx } = fakeCtx({ assets: { bar: nameless } });
    const r = await resolveAsset(ctx, 'bar', unknownIDs);
    expect(r.native).toBe(false);
    expect(r.show(7n)).toBe('7 "BAR"');
  });

  it('does not match an empty asset name against an empty native symbol', async () => {
    const noSymbol: NetworkInfo = { ...LOCAL, assetSymbol: '' };
    const { ctx } = fakeCtx();
    const err = await rejection(resolveAsset(ctx, '', noSymbol));
    expectInputError(err, 'assetID', "the node does not know asset  (couldn't find asset )");
  });

  it('refuses an asset the node does not know with an InputError naming the asset and the node message', async () => {
    const { ctx } = fakeCtx({ assets: { [FOREIGN]: new RpcError(-32000, 'asset not found', undefined) } });
    const err = await rejection(resolveAsset(ctx, FOREIGN, LOCAL));
    expectInputError(err, 'assetID', `the node does not know asset ${FOREIGN} (asset not found)`);
  });

  it.each([
    ['a foreign asset', FOREIGN],
    ['the native asset', NATIVE],
  ])('passes on a failure that is not an rpc error unchanged, for %s', async (_, assetID) => {
    const down = new ChainMcpError('connection', 'connection refused');
    const { ctx } = fakeCtx({ assets: { [assetID]: down } });
    expect(await rejection(resolveAsset(ctx, assetID, LOCAL))).toBe(down);
  });
});

describe('xBalance', () => {
  const balances = (table: Record<string, unknown>): Answer => (params) => {
    const address = (params as { address: string }).address;
    const value = table[address];
    if (value instanceof Error) throw value;
    return value;
  };

  it('sums the asset over the addresses, one xvm.getBalance per address with the assetID, retrying', async () => {
    const { ctx, calls } = fakeCtx({ answers: { 'xvm.getBalance': balances({ [ADDR_X]: { balance: '5' }, [ADDR_X2]: { balance: '7' } }) } });
    expect(await xBalance(ctx, [ADDR_X, ADDR_X2], FOREIGN)).toBe(12n);
    expect(calls).toEqual([
      { endpoint: 'xvm', method: 'xvm.getBalance', params: { address: ADDR_X, assetID: FOREIGN }, opts: { retry: true } },
      { endpoint: 'xvm', method: 'xvm.getBalance', params: { address: ADDR_X2, assetID: FOREIGN }, opts: { retry: true } },
    ]);
  });

  it('counts an address whose answer is empty (null) as zero', async () => {
    const { ctx } = fakeCtx({ answers: { 'xvm.getBalance': balances({ [ADDR_X]: null, [ADDR_X2]: { balance: '7' } }) } });
    expect(await xBalance(ctx, [ADDR_X, ADDR_X2], FOREIGN)).toBe(7n);
  });

  it('is unknown when any one address fails', async () => {
    const { ctx } = fakeCtx({ answers: { 'xvm.getBalance': balances({ [ADDR_X]: { balance: '5' }, [ADDR_X2]: new Error('timeout') }) } });
    expect(await xBalance(ctx, [ADDR_X, ADDR_X2], FOREIGN)).toBeUndefined();
  });

  it('is unknown for no addresses, asking nothing', async () => {
    const { ctx, calls } = fakeCtx({ answers: { 'xvm.getBalance': ok({ balance: '1' }) } });
    expect(await xBalance(ctx, [], FOREIGN)).toBeUndefined();
    expect(calls).toEqual([]);
  });

  it('asks for up to 40 addresses (one batch) and sums them all', async () => {
    const { ctx, calls } = fakeCtx({ answers: { 'xvm.getBalance': ok({ balance: '1' }) } });
    const forty = Array.from({ length: 40 }, (_, i) => `X-local1addr${i}`);
    expect(await xBalance(ctx, forty, FOREIGN)).toBe(40n);
    expect(calls).toHaveLength(40);
  });

  it('is unknown for more than 40 addresses, asking nothing', async () => {
    const { ctx, calls } = fakeCtx({ answers: { 'xvm.getBalance': ok({ balance: '1' }) } });
    const fortyOne = Array.from({ length: 41 }, (_, i) => `X-local1addr${i}`);
    expect(await xBalance(ctx, fortyOne, FOREIGN)).toBeUndefined();
    expect(calls).toEqual([]);
  });
});

describe('pUnlocked', () => {
  const P_ADDR = onChain(ADDR_X, 'P');
  const answering = (answer: unknown) => fakeCtx({ answers: { 'platform.getBalance': ok(answer) } });

  it('reads the native entry of unlockedOutputs, asking platform.getBalance for the addresses', async () => {
    const { ctx, calls } = answering({ unlockedOutputs: { [FOREIGN]: '9', [NATIVE]: '5' }, balances: { [NATIVE]: '20' } });
    expect(await pUnlocked(ctx, [P_ADDR], NATIVE)).toBe(5n);
    expect(calls).toEqual([{ endpoint: 'platform', method: 'platform.getBalance', params: { addresses: [P_ADDR] }, opts: { retry: true } }]);
  });

  it('falls back to balances when the node sends no unlockedOutputs', async () => {
    const { ctx } = answering({ balances: { [NATIVE]: '20' } });
    expect(await pUnlocked(ctx, [P_ADDR], NATIVE)).toBe(20n);
  });

  it('falls back to balances when unlockedOutputs is null', async () => {
    const { ctx } = answering({ unlockedOutputs: null, balances: { [NATIVE]: '20' } });
    expect(await pUnlocked(ctx, [P_ADDR], NATIVE)).toBe(20n);
  });

  it('ignores a scalar where a map belongs', async () => {
    const { ctx } = answering({ unlockedOutputs: '5', balances: { [NATIVE]: '20' } });
    expect(await pUnlocked(ctx, [P_ADDR], NATIVE)).toBe(20n);
  });

  it('takes the only entry of a map keyed otherwise (an alias)', async () => {
    const { ctx } = answering({ unlockedOutputs: { CAM: '3' }, balances: { [NATIVE]: '20' } });
    expect(await pUnlocked(ctx, [P_ADDR], NATIVE)).toBe(3n);
  });

  it('does not guess among several entries none of which is the asset', async () => {
    const { ctx } = answering({ unlockedOutputs: { a: '1', b: '2' }, balances: { [NATIVE]: '20' } });
    expect(await pUnlocked(ctx, [P_ADDR], NATIVE)).toBe(20n);
  });

  it('is unknown when neither map has the asset', async () => {
    const { ctx } = answering({ unlockedOutputs: { a: '1', b: '2' } });
    expect(await pUnlocked(ctx, [P_ADDR], NATIVE)).toBeUndefined();
  });

  it('is unknown when the call fails', async () => {
    const { ctx } = fakeCtx({ answers: { 'platform.getBalance': fail(new Error('timeout')) } });
    expect(await pUnlocked(ctx, [P_ADDR], NATIVE)).toBeUndefined();
  });

  it('is unknown for no addresses, asking nothing', async () => {
    const { ctx, calls } = answering({ unlockedOutputs: { [NATIVE]: '5' } });
    expect(await pUnlocked(ctx, [], NATIVE)).toBeUndefined();
    expect(calls).toEqual([]);
  });
});

describe('endsWithLine', () => {
  const show = (v: bigint) => `${v} u`;

  it('says the balance is unknown when the node did not report it', () => {
    expect(endsWithLine(undefined, 5n, show)).toBe('Balance after: unknown (the node did not report the balance).');
  });

  it('shows what remains and what there is now', () => {
    expect(endsWithLine(10n, 3n, show)).toBe('Balance after: 7 u (now 10 u).');
  });

  it('spending exactly the whole balance leaves zero, not a refusal', () => {
    expect(endsWithLine(5n, 5n, show)).toBe('Balance after: 0 u (now 5 u).');
  });

  it('warns that the node will refuse when the balance is short', () => {
    expect(endsWithLine(4n, 5n, show)).toBe('Balance after: not enough funds: you hold 4 u but this needs 5 u; the node will refuse it.');
  });
});

describe('payloadBytes', () => {
  const data = new Uint8Array([1, 2, 3, 4, 5]);

  it('counts the payload of cb58 (the default encoding) without its checksum', () => {
    expect(payloadBytes('tx', cb58Encode(data), undefined)).toBe(data.length);
  });

  it('counts the payload of checksummed hex without its checksum', () => {
    expect(payloadBytes('tx', hexWithChecksum(data), 'hex')).toBe(data.length);
  });

  it('names the field and cb58 when undecodable bytes come with no encoding', () => {
    const bad = '0OIl';
    const reason = thrown(() => decodeEncoded(bad, undefined)).message;
    expectInputError(thrown(() => payloadBytes('signedTx', bad, undefined)), 'signedTx', `not valid cb58: ${reason}`);
  });

  it('names the field and hex when the checksum is wrong', () => {
    const text = hexWithChecksum(data);
    const bad = text.slice(0, -2) + (text.endsWith('00') ? '01' : '00');
    const reason = thrown(() => decodeEncoded(bad, 'hex')).message;
    expectInputError(thrown(() => payloadBytes('tx', bad, 'hex')), 'tx', `not valid hex: ${reason}`);
  });
});

describe('checkPeriod (2 weeks to 1 year, starting in the future)', () => {
  const NOW_MS = 1_700_000_000_999;
  /** The clock in whole seconds, rounded down. */
  const NOW = 1_700_000_000;
  const TWO_WEEKS = 14 * 24 * 3600;
  const ONE_YEAR = 365 * 24 * 3600;
  const start = NOW + 60;

  it('uses the spec limits of 2 weeks and 1 year', () => {
    expect(MIN_STAKE_SECONDS).toBe(TWO_WEEKS);
    expect(MAX_STAKE_SECONDS).toBe(ONE_YEAR);
  });

  it('refuses a start at exactly now (whole seconds, rounded down)', () => {
    expectInputError(thrown(() => checkPeriod(NOW, NOW + TWO_WEEKS, NOW_MS)), 'startTime', `must be in the future (now is ${NOW} Unix seconds)`);
  });

  it('accepts a start one second after now', () => {
    expect(() => checkPeriod(NOW + 1, NOW + 1 + TWO_WEEKS, NOW_MS)).not.toThrow();
  });

  it('refuses an end equal to the start', () => {
    expectInputError(thrown(() => checkPeriod(start, start, NOW_MS)), 'endTime', 'must be after startTime');
  });

  it('accepts exactly 2 weeks and refuses one second less', () => {
    expect(() => checkPeriod(start, start + TWO_WEEKS, NOW_MS)).not.toThrow();
    expectInputError(
      thrown(() => checkPeriod(start, start + TWO_WEEKS - 1, NOW_MS)),
      'endTime',
      `the period must be at least 2 weeks (${TWO_WEEKS} s); it is ${TWO_WEEKS - 1} s`,
    );
  });

  it('accepts exactly 1 year and refuses one second more', () => {
    expect(() => checkPeriod(start, start + ONE_YEAR, NOW_MS)).not.toThrow();
    expectInputError(
      thrown(() => checkPeriod(start, start + ONE_YEAR + 1, NOW_MS)),
      'endTime',
      `the period must be at most 1 year (${ONE_YEAR} s); it is ${ONE_YEAR + 1} s`,
    );
  });

  it('skips the length limits when asked, but still wants a future start and an end after it', () => {
    expect(() => checkPeriod(start, start + 1, NOW_MS, false)).not.toThrow();
    expect(() => checkPeriod(start, start + ONE_YEAR + 1, NOW_MS, false)).not.toThrow();
    expectInputError(thrown(() => checkPeriod(NOW, NOW + 1, NOW_MS, false)), 'startTime', `must be in the future (now is ${NOW} Unix seconds)`);
    expectInputError(thrown(() => checkPeriod(start, start, NOW_MS, false)), 'endTime', 'must be after startTime');
  });
});

describe('requiredValidatorStake and minDelegatorStake', () => {
  const minStake = (answer: Answer) => fakeCtx({ answers: { 'platform.getMinStake': answer } });

  it.each([
    ['1000', 'main', cam(100_000)],
    ['1001', 'test', cam(2_000)],
  ])('uses the fixed stake of network %s (%s network) without asking the node', async (networkID, _, stake) => {
    const { ctx, calls } = minStake(ok({ minValidatorStake: '1' }));
    expect(await requiredValidatorStake(ctx, { ...LOCAL, networkID })).toBe(stake);
    expect(calls).toEqual([]);
  });

  it("uses the node's minimum elsewhere, asking platform.getMinStake with empty params, retrying", async () => {
    const { ctx, calls } = minStake(ok({ minValidatorStake: '5000000000', minDelegatorStake: '25000000000' }));
    expect(await requiredValidatorStake(ctx, LOCAL)).toBe(cam(5));
    expect(calls).toEqual([{ endpoint: 'platform', method: 'platform.getMinStake', params: {}, opts: { retry: true } }]);
  });

  it('is unknown when the node fails, answers nothing, or says zero', async () => {
    expect(await requiredValidatorStake(minStake(fail(new Error('down'))).ctx, LOCAL)).toBeUndefined();
    expect(await requiredValidatorStake(minStake(ok(null)).ctx, LOCAL)).toBeUndefined();
    expect(await requiredValidatorStake(minStake(ok({ minValidatorStake: '0' })).ctx, LOCAL)).toBeUndefined();
  });

  it("reads the node's minimum delegator stake with the same request", async () => {
    const { ctx, calls } = minStake(ok({ minValidatorStake: '5000000000', minDelegatorStake: '25000000000' }));
    expect(await minDelegatorStake(ctx)).toBe(cam(25));
    expect(calls).toEqual([{ endpoint: 'platform', method: 'platform.getMinStake', params: {}, opts: { retry: true } }]);
  });

  it('takes the minimum delegator stake as zero when the node fails', async () => {
    expect(await minDelegatorStake(minStake(fail(new Error('down'))).ctx)).toBe(0n);
  });
});

describe('findValidator', () => {
  const validators = (current: unknown, pending: unknown) =>
    fakeCtx({ answers: { 'platform.getCurrentValidators': ok(current), 'platform.getPendingValidators': ok(pending) } });

  const currentAnswer = {
    validators: [
      { nodeID: OTHER_NODE, startTime: '1', endTime: '2', stakeAmount: '999', delegators: [{ stakeAmount: '999' }] },
      {
        nodeID: NODE,
        startTime: '1000',
        endTime: '5000',
        stakeAmount: '2000',
        weight: '2030',
        delegators: [{ stakeAmount: '10' }, { stakeAmount: '20' }],
      },
    ],
  };
  const pendingAnswer = {
    validators: [],
    delegators: [
      { nodeID: OTHER_NODE, stakeAmount: '1000' },
      { nodeID: NODE, stakeAmount: '5' },
    ],
  };

  it('asks current and pending validators for the one node, retrying', async () => {
    const { ctx, calls } = validators(currentAnswer, pendingAnswer);
    await findValidator(ctx, NODE);
    const asked = { endpoint: 'platform', params: { nodeIDs: [NODE] }, opts: { retry: true } };
    expect(calls).toEqual([
      { ...asked, method: 'platform.getCurrentValidators' },
      { ...asked, method: 'platform.getPendingValidators' },
    ]);
  });

  it('names the subnet in both requests when one is given', async () => {
    const { ctx, calls } = validators(currentAnswer, pendingAnswer);
    await findValidator(ctx, NODE, 'subnet-1');
    expect(calls.map((c) => c.params)).toEqual([
      { subnetID: 'subnet-1', nodeIDs: [NODE] },
      { subnetID: 'subnet-1', nodeIDs: [NODE] },
    ]);
  });

  it("reads a current validator: its period, own stakeAmount (not weight), its delegators plus pending delegations to that node only", async () => {
    const { ctx } = validators(currentAnswer, pendingAnswer);
    // delegated = own delegators 10 + 20, plus the pending delegation of 5 to NODE (not the 1000 to the other node).
    expect(await findValidator(ctx, NODE)).toEqual({ startTime: 1000, endTime: 5000, stake: 2000n, delegated: 35n });
  });

  it('reads a pending validator when it is not current, taking weight when there is no stakeAmount', async () => {
    const pending = {
      validators: [
        { nodeID: OTHER_NODE, startTime: '7', endTime: '8', weight: '1' },
        { nodeID: NODE, startTime: '3000', endTime: '9000', weight: '3000' },
      ],
    };
    const { ctx } = validators({ validators: [currentAnswer.validators[0]] }, pending);
    expect(await findValidator(ctx, NODE)).toEqual({ startTime: 3000, endTime: 9000, stake: 3000n, delegated: 0n });
  });

  it('tolerates null answers from either request', async () => {
    expect(await findValidator(validators(null, { validators: [{ nodeID: NODE, startTime: '1', endTime: '2', weight: '4' }] }).ctx, NODE)).toEqual({
      startTime: 1,
      endTime: 2,
      stake: 4n,
      delegated: 0n,
    });
    expect(await findValidator(validators(currentAnswer, null).ctx, NODE)).toEqual({ startTime: 1000, endTime: 5000, stake: 2000n, delegated: 30n });
  });

  it('is undefined when the node is neither a current nor a pending validator', async () => {
    const { ctx } = validators({ validators: [currentAnswer.validators[0]] }, pendingAnswer);
    expect(await findValidator(ctx, NODE)).toBeUndefined();
  });
});

describe('checkDelegation', () => {
  const PERIOD = { startTime: 1000, endTime: 5000 };
  const MIN = cam(25);

  /** A node whose validator has `stake` of its own and `delegated` already delegated, and the node's minimum delegator stake. */
  function delegatee(stake: bigint, delegated = 0n) {
    const validator = { nodeID: NODE, startTime: String(PERIOD.startTime), endTime: String(PERIOD.endTime), stakeAmount: String(stake), delegators: [{ stakeAmount: String(delegated) }] };
    return fakeCtx({
      answers: {
        'platform.getCurrentValidators': ok({ validators: [validator] }),
        'platform.getPendingValidators': ok({ validators: [] }),
        'platform.getMinStake': ok({ minValidatorStake: String(cam(2_000)), minDelegatorStake: String(MIN) }),
      },
    }).ctx;
  }
  const delegate = (ctx: ToolContext, stakeAmount: bigint, period: { startTime: number; endTime: number } = PERIOD) =>
    checkDelegation(ctx, { nodeID: NODE, ...period, stakeAmount }, LOCAL);

  it('refuses a node that is not a validator, naming it', async () => {
    const { ctx } = fakeCtx({ answers: { 'platform.getCurrentValidators': ok({ validators: [] }), 'platform.getPendingValidators': ok({ validators: [] }) } });
    expectInputError(await rejection(delegate(ctx, MIN)), 'nodeID', `${NODE} is not a current or pending validator of the Primary Network`);
  });

  it("accepts a period equal to the validator's period", async () => {
    await expect(delegate(delegatee(cam(2_000)), MIN)).resolves.toBeDefined();
  });

  it.each([
    ['starts one second before the validator', { startTime: 999, endTime: 5000 }],
    ['ends one second after the validator', { startTime: 1000, endTime: 5001 }],
  ])('refuses a period that %s', async (_, period) => {
    expectInputError(
      await rejection(delegate(delegatee(cam(2_000)), MIN, period)),
      'startTime',
      `the delegation period ${period.startTime}-${period.endTime} must lie inside the validator's period 1000-5000`,
    );
  });

  it('accepts exactly the minimum delegator stake and refuses one smallest unit less', async () => {
    await expect(delegate(delegatee(cam(2_000)), MIN)).resolves.toBeDefined();
    expectInputError(await rejection(delegate(delegatee(cam(2_000)), MIN - 1n)), 'stakeAmount', 'must be at least the minimum delegator stake 25 CAM');
  });

  describe('weight cap min(5 x own stake, 3,000,000 native units)', () => {
    it('uses 3,000,000 native units as the absolute cap', () => {
      expect(WEIGHT_CAP_UNITS).toBe(cam(3_000_000));
    });

    it('caps a small validator at 5 x its own stake, reaching it exactly is allowed', async () => {
      // own 2,000 + delegated 1,000 + 7,000 = 10,000 = 5 x 2,000
      const result = await delegate(delegatee(cam(2_000), cam(1_000)), cam(7_000));
      expect(result.cap).toBe(cam(10_000));
      expect(result.validator).toEqual({ ...PERIOD, stake: cam(2_000), delegated: cam(1_000) });
    });

    it('refuses one smallest unit over 5 x own stake, saying the total, the cap and the room left', async () => {
      const err = await rejection(delegate(delegatee(cam(2_000), cam(1_000)), cam(7_000) + 1n));
      expectInputError(
        err,
        'stakeAmount',
        "the validator's total weight would be 10,000.000000001 CAM, over its cap 10,000 CAM (min(5 x own stake, 3,000,000)); at most 7,000 CAM can still be delegated",
      );
    });

    it('caps a large validator at 3,000,000 even though 5 x its stake is more', async () => {
      // own 1,000,000 (5 x = 5,000,000) + delegated 1,500,000: room 500,000
      const ctx = delegatee(cam(1_000_000), cam(1_500_000));
      expect((await delegate(ctx, cam(500_000))).cap).toBe(cam(3_000_000));
      expectInputError(
        await rejection(delegate(ctx, cam(500_000) + 1n)),
        'stakeAmount',
        "the validator's total weight would be 3,000,000.000000001 CAM, over its cap 3,000,000 CAM (min(5 x own stake, 3,000,000)); at most 500,000 CAM can still be delegated",
      );
    });

    it('says no room (0, never negative) when the validator is already over its cap', async () => {
      // own 2,000 (cap 10,000) with 9,000 already delegated: 11,000 before this delegation
      expectInputError(
        await rejection(delegate(delegatee(cam(2_000), cam(9_000)), MIN)),
        'stakeAmount',
        "the validator's total weight would be 11,025 CAM, over its cap 10,000 CAM (min(5 x own stake, 3,000,000)); at most 0 CAM can still be delegated",
      );
    });
  });
});

describe('headLines and feeLine', () => {
  it('names a known network, its ID, prefix and chain, and any keystore address when no `from` is given', () => {
    const test: NetworkInfo = { networkID: '1001', hrp: 'columbus', assetSymbol: 'CAM', assetID: NATIVE, source: 'configuration' };
    expect(headLines(test, undefined)).toEqual(['Network: test 1001 (prefix columbus), chain X', "From: any of the keystore user's addresses"]);
  });

  it('calls an unknown network just "network" and names the chain asked for', () => {
    const custom: NetworkInfo = { networkID: '4242', hrp: 'custom', assetSymbol: '', assetID: '', source: 'known-networks' };
    expect(headLines(custom, [], 'P')).toEqual(['Network: network 4242 (prefix custom), chain P', "From: any of the keystore user's addresses"]);
  });

  it('lists the `from` addresses comma separated', () => {
    expect(headLines(LOCAL, [ADDR_X, ADDR_X2])[1]).toBe(`From: ${ADDR_X}, ${ADDR_X2}`);
  });

  it('shows the fee in native display units', () => {
    expect(feeLine(1_000_000n, LOCAL)).toBe('Fee: 0.001 CAM');
  });
});

describe('atomicWaiting', () => {
  const NATIVE_FILL = 1;
  const FOREIGN_FILL = 2;
  const waitingUtxos = [
    utxo(NATIVE_FILL, 0, { type: 7, amount: cam(3) }),
    utxo(FOREIGN_FILL, 1, { type: 7, amount: cam(7) }),
    'not-a-utxo',
    utxo(NATIVE_FILL, 2, { type: 7, amount: cam(2) }),
    // An output type without an amount (a locked output): counted, adds nothing.
    utxo(NATIVE_FILL, 3, { type: 22 }),
  ];
  const shared = (answer: unknown) => fakeCtx({ answers: { 'xvm.getUTXOs': ok(answer), 'cx.getUTXOs': ok(answer) } });

  it('counts the decodable outputs and sums only those of the native asset', async () => {
    const { ctx } = shared({ utxos: waitingUtxos });
    // Each output needs its threshold's signatures (1 here); two assets, so a C import makes two EVM outputs.
    expect(await atomicWaiting(ctx, 'xvm', [ADDR_X], 'P', LOCAL)).toEqual({ count: 4, native: cam(5), signatures: [1, 1, 1, 1], assets: 2 });
  });

  it('asks xvm.getUTXOs for the addresses and source chain, up to 1024, retrying, on the chosen chain', async () => {
    const { ctx, calls } = shared({ utxos: [] });
    await atomicWaiting(ctx, 'xvm', [ADDR_X, ADDR_X2], 'P', LOCAL, 'X');
    expect(calls).toEqual([
      { endpoint: 'xvm', method: 'xvm.getUTXOs', params: { addresses: [ADDR_X, ADDR_X2], limit: 1024, sourceChain: 'P' }, opts: { retry: true, chain: 'X' } },
    ]);
  });

  it('asks cx.getUTXOs on the C side', async () => {
    const { ctx, calls } = shared({ utxos: [] });
    const cAddr = onChain(ADDR_X, 'C');
    await atomicWaiting(ctx, 'cx', [cAddr], 'X', LOCAL);
    expect(calls).toEqual([{ endpoint: 'cx', method: 'cx.getUTXOs', params: { addresses: [cAddr], limit: 1024, sourceChain: 'X' }, opts: { retry: true, chain: undefined } }]);
  });

  it('reads a null answer as nothing waiting', async () => {
    const { ctx } = shared(null);
    expect(await atomicWaiting(ctx, 'xvm', [ADDR_X], 'P', LOCAL)).toEqual({ count: 0, native: 0n, signatures: [], assets: 0 });
  });

  it('is unknown when the call fails', async () => {
    const { ctx } = fakeCtx({ answers: { 'xvm.getUTXOs': fail(new Error('timeout')) } });
    expect(await atomicWaiting(ctx, 'xvm', [ADDR_X], 'P', LOCAL)).toBeUndefined();
  });

  it('is unknown for no addresses, asking nothing', async () => {
    const { ctx, calls } = shared({ utxos: waitingUtxos });
    expect(await atomicWaiting(ctx, 'xvm', [], 'P', LOCAL)).toBeUndefined();
    expect(calls).toEqual([]);
  });
});

describe('importLine', () => {
  const FEE = 1_000_000n;

  it('says everything exported will be imported when the node did not list it', () => {
    expect(importLine(undefined, FEE, LOCAL, 'P')).toBe('Imports: everything exported from chain P (the node did not list it here).');
  });

  it('says the node will refuse when nothing waits', () => {
    expect(importLine({ count: 0, native: 0n }, FEE, LOCAL, 'P')).toBe(
      'Imports: nothing is waiting from chain P; the node will refuse until the export is accepted.',
    );
  });

  it('shows the outputs, their native total and what arrives after the fee', () => {
    expect(importLine({ count: 2, native: cam(5) }, FEE, LOCAL, 'P')).toBe(
      'Imports: 2 output(s) from chain P, 5 CAM; you receive about 4.999 CAM after the fee.',
    );
  });

  it('shows zero arriving, never a negative amount, when the fee eats it all', () => {
    expect(importLine({ count: 1, native: FEE - 1n }, FEE, LOCAL, 'C')).toBe(
      'Imports: 1 output(s) from chain C, 0.000999999 CAM; you receive about 0 CAM after the fee.',
    );
  });
});

describe('importPlan', () => {
  const node = () =>
    fakeCtx({
      answers: {
        'info.getTxFee': ok({ txFee: '1000000', creationTxFee: '10000000' }),
        'xvm.getUTXOs': ok({ utxos: [utxo(1, 0, { type: 7, amount: cam(5) })] }),
        'cx.getUTXOs': ok({ utxos: [] }),
      },
    });

  it('previews an X import: network line only, recipient, what waits, and the chain fee line', async () => {
    const { ctx, calls } = node();
    const plan = await importPlan(ctx, { to: ADDR_X, sourceChain: 'P', chain: 'X', waitingOn: [ADDR_X] });
    expect(plan).toEqual({
      lines: [
        'Network: local 12345 (prefix local), chain X',
        // The fake context cannot list the user's addresses.
        `To: ${ADDR_X} (cannot be checked as yours)`,
        'Imports: 1 output(s) from chain P, 5 CAM; you receive about 4.999 CAM after the fee.',
        'Fee: 0.001 CAM',
      ],
      details: { to: ADDR_X, sourceChain: 'P', amount: '5000000000' },
      fee: 1_000_000n,
    });
    expect(calls.map((c) => [c.endpoint, c.method, c.params, c.opts])).toEqual([
      ['info', 'info.getTxFee', {}, { retry: true }],
      ['xvm', 'xvm.getUTXOs', { addresses: [ADDR_X], limit: 1024, sourceChain: 'P' }, { retry: true, chain: 'X' }],
    ]);
  });

});

describe('cImportPlan', () => {
  const to = '0x1111111111111111111111111111111111111111';
  const node = (utxos: string[], baseFee = '0x5d21dba000') =>
    fakeCtx({ answers: { eth_baseFee: ok(baseFee), 'cx.getUTXOs': ok({ utxos }) } });

  it('bounds the fee by every output waiting at the node\'s base fee, sends that base fee, and counts the fee', async () => {
    const { ctx } = node([utxo(1, 0, { type: 7, amount: cam(5) })]);
    const plan = await cImportPlan(ctx, { to, sourceChain: 'X', waitingOn: [onChain(ADDR_X, 'C')], baseFee: undefined });
    // One single-signature input, one EVM output: 74 + 4 + 88 + 4 + 60 = 230 bytes + 1,000 + 10,000 = 11,230 gas
    // x 400 gwei (0x5d21dba000) = 4,492,000 nCAM.
    expect(plan.lines).toEqual([
      'Network: local 12345 (prefix local), chain C',
      `To: ${to} (cannot be checked as yours)`,
      'Imports: 1 output(s) from chain X, 5 CAM; you receive at least 4.995508 CAM after the fee.',
      "Fee: at most 0.004492 CAM, burnt on C (gas at most 11230 x base fee 400000000000 wei; the node's current base fee is 400000000000 wei); taken from the imported funds",
    ]);
    expect(plan.fee).toBe(4_492_000n);
    expect(plan.send).toEqual({ baseFee: 400_000_000_000n });
  });

  it('refuses a base fee over twice the node\'s, naming the field', async () => {
    const { ctx } = node([]);
    await expect(cImportPlan(ctx, { to, sourceChain: 'X', waitingOn: [onChain(ADDR_X, 'C')], baseFee: 800_000_000_001n })).rejects.toThrow(
      /baseFee: at most twice the node's current base fee, 800000000000 wei/,
    );
  });

  it('refuses when the node will not list what waits: the fee would have no bound', async () => {
    const { ctx } = fakeCtx({ answers: { eth_baseFee: ok('0x1'), 'cx.getUTXOs': fail(new Error('timeout')) } });
    await expect(cImportPlan(ctx, { to, sourceChain: 'X', waitingOn: [onChain(ADDR_X, 'C')], baseFee: undefined })).rejects.toThrow(/has no bound; nothing was sent/);
  });
});

describe('shownAmount', () => {
  it('shows a native amount in display units', async () => {
    const { ctx } = fakeCtx({ assets: { [NATIVE]: CAMINO_NATIVE } });
    expect(await shownAmount(ctx, NATIVE, cam(1) + UNIT / 2n)).toBe('1.5 CAM');
  });

  it('shows a foreign amount with its denomination and quoted symbol', async () => {
    const { ctx } = fakeCtx({ assets: { [FOREIGN]: FOO } });
    expect(await shownAmount(ctx, FOREIGN, 150n)).toBe('1.5 "FOO"');
  });

  it('falls back to smallest units of the asset ID when the asset cannot be looked up', async () => {
    const { ctx } = fakeCtx();
    expect(await shownAmount(ctx, FOREIGN, 150n)).toBe(`150 units of ${FOREIGN}`);
  });

  it('falls back to smallest units when the network cannot be learned', async () => {
    const { ctx } = fakeCtx({ network: new Error('down'), assets: { [NATIVE]: CAMINO_NATIVE } });
    expect(await shownAmount(ctx, NATIVE, 7n)).toBe(`7 units of ${NATIVE}`);
  });
});
