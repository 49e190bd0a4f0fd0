import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { defineTool, type SpendLimits, type ToolDef } from '../../src/core/tool.js';
import { formatChainAddress } from '../../src/codec/index.js';
import { type Config, loadConfig } from '../../src/config.js';
import { NetworkCache, type NetworkInfo } from '../../src/context/network.js';
import { ChainMcpError, RpcError } from '../../src/errors.js';
import { checkOwn, checkWithoutRequests, pinNetwork, recipientsOf, spendLimits, sumAmounts } from '../../src/spend/guard.js';
import { DAY_MS, SpendLedger, signerOf } from '../../src/spend/ledger.js';
import { MemoryStore } from '../../src/state/memory.js';
import { addressPayload, type OwnChain, OwnAddresses } from '../../src/spend/own.js';

/**
 * The hard limits of a spend (DESIGN "Confirmation of spends" 5, section 6): what is refused,
 * with which message and hint, and which stage needs the network lookup.
 */

const config = (extra: Partial<Config> = {}): Config => ({ ...loadConfig({}), ...extra });

const addr = (chain: 'X' | 'P' | 'C', hrp: string, seed = 1) => formatChainAddress(chain, hrp, new Uint8Array(20).fill(seed));
const CAMINO_X = addr('X', 'camino');
const CAMINO_P = addr('P', 'camino', 2);
const COLUMBUS_X = addr('X', 'columbus', 3);
const COLUMBUS_P = addr('P', 'columbus', 5);
const LOCAL_X = addr('X', 'local', 4);

const CAMINO: NetworkInfo = { networkID: '1000', hrp: 'camino', assetSymbol: 'CAM', assetID: '', source: 'configuration' };
const CUSTOM_KNOWN: NetworkInfo = { networkID: '4242', hrp: 'custom', assetSymbol: '', assetID: '', source: 'known-networks' };
const CUSTOM_CONFIGURED: NetworkInfo = { networkID: '4242', hrp: 'custom', assetSymbol: 'TST', assetID: '', source: 'configuration' };

const ONE = 1_000_000_000n; // 1 CAM in the smallest unit

/** The ChainMcpError `fn` throws, as what a person sees: kind, message, hint. */
function refusal(fn: () => unknown): { kind: string; message: string; hint?: string } {
  try {
    fn();
  } catch (err) {
    if (err instanceof ChainMcpError) return { kind: err.kind, message: err.message, hint: err.hint };
    throw err;
  }
  throw new Error('expected a refusal');
}

async function asyncRefusal(p: Promise<unknown>): Promise<{ kind: string; message: string; hint?: string }> {
  try {
    await p;
  } catch (err) {
    if (err instanceof ChainMcpError) return { kind: err.kind, message: err.message, hint: err.hint };
    throw err;
  }
  throw new Error('expected a refusal');
}

const prefixRefusal = (recipient: string, hrp: string, nodeHrp: string) => ({
  kind: 'policy',
  message: `Refused: ${recipient} belongs to network prefix "${hrp}", but the node is on "${nodeHrp}".`,
  hint: 'Check that the address is for this network.',
});

describe('checkWithoutRequests: CHAIN_MCP_MAX_SPEND', () => {
  const limits = (amount: bigint | undefined): SpendLimits => ({ amount, recipients: [CAMINO_X] });

  it('allows an amount exactly at the cap', () => {
    expect(() => checkWithoutRequests(limits(2n * ONE), config({ maxSpend: 2n * ONE }), CAMINO)).not.toThrow();
    expect(() => checkWithoutRequests(limits(2n * ONE), config({ maxSpend: 2n * ONE }), undefined)).not.toThrow();
  });

  it('allows an amount below the cap', () => {
    expect(() => checkWithoutRequests(limits(1n), config({ maxSpend: 2n * ONE }), CAMINO)).not.toThrow();
  });

  it('refuses one unit over the cap, in the native unit when the network is known', () => {
    expect(refusal(() => checkWithoutRequests(limits(2n * ONE + 1n), config({ maxSpend: 2n * ONE }), CAMINO))).toEqual({
      kind: 'policy',
      message: 'Refused: the amount 2.000000001 CAM exceeds CHAIN_MCP_MAX_SPEND (2 CAM).',
      hint: 'Send a smaller amount, or ask the operator to raise the limit.',
    });
  });

  it('refuses one unit over the cap in the smallest unit when the network is not known yet', () => {
    expect(refusal(() => checkWithoutRequests(limits(2n * ONE + 1n), config({ maxSpend: 2n * ONE }), undefined))).toEqual({
      kind: 'policy',
      message: 'Refused: the amount 2000000001 (smallest unit) exceeds CHAIN_MCP_MAX_SPEND (2000000000 (smallest unit)).',
      hint: 'Send a smaller amount, or ask the operator to raise the limit.',
    });
  });

  it('allows any amount without a cap', () => {
    expect(() => checkWithoutRequests(limits(10n ** 30n), config(), CAMINO)).not.toThrow();
  });

  it('allows a spend that moves no stated amount under a cap', () => {
    expect(() => checkWithoutRequests(limits(undefined), config({ maxSpend: 0n }), CAMINO)).not.toThrow();
  });

  it('holds a cap of 0: nothing above 0 passes', () => {
    expect(() => checkWithoutRequests(limits(0n), config({ maxSpend: 0n }), CAMINO)).not.toThrow();
    expect(refusal(() => checkWithoutRequests(limits(1n), config({ maxSpend: 0n }), CAMINO)).message).toBe(
      'Refused: the amount 0.000000001 CAM exceeds CHAIN_MCP_MAX_SPEND (0 CAM).',
    );
  });
});

describe('checkWithoutRequests: opaque signed bytes', () => {
  const opaque: SpendLimits = { recipients: [], opaque: 'a transaction this server cannot decode' };
  const expected = {
    kind: 'policy',
    message:
      'Refused: a transaction this server cannot decode is signed bytes whose recipients and amounts this server cannot check, and CHAIN_MCP_MAX_SPEND, CHAIN_MCP_MAX_SPEND_PER_DAY or CHAIN_MCP_ALLOWED_RECIPIENTS is set.',
    hint: 'Use the tool that builds the transaction (for example xvm_send) so the limits can be checked.',
  };

  it('refuses them when a cap is set', () => {
    expect(refusal(() => checkWithoutRequests(opaque, config({ maxSpend: ONE }), CAMINO))).toEqual(expected);
  });

  it('refuses them when an allow-list is set', () => {
    expect(refusal(() => checkWithoutRequests(opaque, config({ allowedRecipients: [CAMINO_X] }), undefined))).toEqual(expected);
  });

  it('lets them through when neither is set', () => {
    expect(() => checkWithoutRequests(opaque, config(), CAMINO)).not.toThrow();
  });
});

describe('checkWithoutRequests: CHAIN_MCP_MAX_SPEND_PER_DAY and what no limit can bound (issue 21)', () => {
  it('refuses an amount that would carry the last 24 hours over the daily total, and allows exactly up to it', () => {
    const limit = config({ maxSpendPerDay: 3n * ONE });
    expect(() => checkWithoutRequests({ amount: ONE, recipients: [] }, limit, CAMINO, 2n * ONE)).not.toThrow();
    // Every number on the refusal: this spend, the total it would make, the limit, what went before.
    expect(refusal(() => checkWithoutRequests({ amount: ONE + 1n, recipients: [] }, limit, CAMINO, 2n * ONE))).toEqual({
      kind: 'policy',
      message:
        'Refused: this spend (1.000000001 CAM, fees included) would bring the total sent in the last 24 hours to 3.000000001 CAM, over CHAIN_MCP_MAX_SPEND_PER_DAY (3 CAM); 2 CAM was sent already.',
      hint: 'Wait until earlier spends are more than 24 hours old, or ask the operator to raise the limit.',
    });
  });

  it('counts a spend with no stated amount as 0 against the daily total, refusing only when the total is already over', () => {
    expect(() => checkWithoutRequests({ recipients: [] }, config({ maxSpendPerDay: 3n * ONE }), CAMINO, 3n * ONE)).not.toThrow();
    expect(refusal(() => checkWithoutRequests({ recipients: [] }, config({ maxSpendPerDay: 3n * ONE }), CAMINO, 3n * ONE + 1n)).message).toBe(
      'Refused: this spend (0 CAM, fees included) would bring the total sent in the last 24 hours to 3.000000001 CAM, over CHAIN_MCP_MAX_SPEND_PER_DAY (3 CAM); 3.000000001 CAM was sent already.',
    );
  });

  it('refuses handing over a key under any limit, never without one', () => {
    const key: SpendLimits = { recipients: [], unbounded: 'a private key' };
    for (const c of [config({ maxSpend: ONE }), config({ maxSpendPerDay: ONE }), config({ allowedRecipients: [CAMINO_X] })]) {
      expect(refusal(() => checkWithoutRequests(key, c, CAMINO)).message).toContain('this hands over a private key, which no spending limit can bound');
    }
    expect(() => checkWithoutRequests(key, config(), CAMINO)).not.toThrow();
  });
});

describe('checkOwn: change and import destinations under a limit', () => {
  const mine = async (a: string) => (a.startsWith('0x') ? undefined : a === CAMINO_X);
  it('passes the user\'s own address, refuses another, and an unknowable one unless allow-listed; asks nothing without limits', async () => {
    const limited = config({ maxSpend: ONE });
    await expect(checkOwn({ recipients: [], own: [CAMINO_X] }, limited, mine)).resolves.toBeUndefined();
    await expect(checkOwn({ recipients: [], own: [CAMINO_P] }, limited, mine)).rejects.toThrow(`Refused: ${CAMINO_P} is not one of the keystore user's addresses`);
    const hex = '0x1111111111111111111111111111111111111111';
    await expect(checkOwn({ recipients: [], own: [hex] }, limited, mine)).rejects.toThrow('cannot tell whether');
    await expect(checkOwn({ recipients: [], own: [hex] }, config({ allowedRecipients: [hex] }), mine)).resolves.toBeUndefined();
    const asked = vi.fn(mine);
    await checkOwn({ recipients: [], own: [CAMINO_P] }, config(), asked);
    expect(asked).not.toHaveBeenCalled();
  });

  it('tells the two refusals apart by their hint: leave changeAddr out, or ask the operator', async () => {
    const limited = config({ maxSpend: ONE });
    expect(await asyncRefusal(checkOwn({ recipients: [], own: [CAMINO_P] }, limited, mine))).toEqual({
      kind: 'policy',
      message: `Refused: ${CAMINO_P} is not one of the keystore user's addresses, and change or imported funds may go only to the user's own addresses while a spending limit is set.`,
      hint: "Leave changeAddr out (the node then picks one of the user's addresses) or give one of the user's addresses.",
    });
    const hex = '0x2222222222222222222222222222222222222222';
    expect(await asyncRefusal(checkOwn({ recipients: [], own: [hex] }, limited, mine))).toEqual({
      kind: 'policy',
      message: `Refused: this server cannot tell whether ${hex} is one of the keystore user's addresses, and a spending limit is set.`,
      hint: 'Ask the operator to add it to CHAIN_MCP_ALLOWED_RECIPIENTS if it is yours.',
    });
  });

  it('refuses an address the keystore says is not the user\'s even when the operator allow-listed it (the list is for recipients)', async () => {
    await expect(checkOwn({ recipients: [], own: [CAMINO_P] }, config({ allowedRecipients: [CAMINO_P] }), mine)).rejects.toThrow(
      `Refused: ${CAMINO_P} is not one of the keystore user's addresses`,
    );
  });

  it('checks every own address, not only the first', async () => {
    await expect(checkOwn({ recipients: [], own: [CAMINO_X, CAMINO_P] }, config({ maxSpend: ONE }), mine)).rejects.toThrow(CAMINO_P);
  });
});

describe('OwnAddresses: which addresses are the keystore user\'s', () => {
  const payload = (a: string) => a.slice(2);
  const lists = (byChain: Partial<Record<OwnChain, string[] | Error>>) =>
    vi.fn(async (chain: OwnChain) => {
      const answer = byChain[chain];
      if (answer instanceof Error) throw answer;
      return answer ?? [];
    });

  it('matches by the bech32 payload, so a P address is found in a P list given as X addresses (the X fallback)', async () => {
    const list = lists({ P: [`X-${payload(CAMINO_P)}`] });
    const own = new OwnAddresses(list);
    expect(await own.has(CAMINO_P)).toBe(true);
    expect(addressPayload(CAMINO_P)).toBe(payload(CAMINO_P));
    expect(addressPayload('camino1bare')).toBe('camino1bare');
  });

  it('looks P addresses up in the P list and X and C ones in the X list', async () => {
    const list = lists({ X: [CAMINO_X], P: [CAMINO_P] });
    const own = new OwnAddresses(list);
    expect(await own.has(CAMINO_P)).toBe(true);
    expect(await own.has(`P-${payload(CAMINO_X)}`)).toBe(false);
    expect(await own.has(`C-${payload(CAMINO_X)}`)).toBe(true);
    expect(list.mock.calls.map(([chain]) => chain)).toEqual(['P', 'P', 'X']);
  });

  it('asks once for a hit, and once more on a miss (a key may have been made since)', async () => {
    const list = lists({ X: [CAMINO_X] });
    const own = new OwnAddresses(list);
    expect(await own.has(CAMINO_X)).toBe(true);
    expect(await own.has(CAMINO_X)).toBe(true);
    expect(list).toHaveBeenCalledTimes(1);
    expect(await own.has(LOCAL_X)).toBe(false);
    expect(list).toHaveBeenCalledTimes(2);
  });

  it('cannot tell for a hex address, a string that only contains a chain letter, or without a keystore user', async () => {
    const list = lists({ X: [CAMINO_X] });
    const own = new OwnAddresses(list);
    expect(await own.has('0x1111111111111111111111111111111111111111')).toBeUndefined();
    expect(await own.has(`ZX-${payload(CAMINO_X)}`)).toBeUndefined();
    expect(list).not.toHaveBeenCalled();
    expect(await new OwnAddresses(undefined).has(CAMINO_X)).toBeUndefined();
  });

  it('cannot tell when the node will not list, and does not remember the failure', async () => {
    let fail = true;
    const list = vi.fn(async () => {
      if (fail) throw new RpcError(-32000, 'no such user', undefined);
      return [CAMINO_X];
    });
    const own = new OwnAddresses(list);
    expect(await own.has(CAMINO_X)).toBeUndefined();
    fail = false;
    expect(await own.has(CAMINO_X)).toBe(true);
  });
});

describe('SpendLedger: the rolling 24 h total', () => {
  it('sums what was reserved in the last 24 hours, gives back a released share, and forgets what is older', async () => {
    const clock = { now: 1_000_000 };
    const ledger = new SpendLedger(() => clock.now);
    const a = await ledger.reserve(2n, 5n);
    expect(a).toBeDefined();
    expect(await ledger.reserve(4n, 5n)).toBeUndefined();
    const b = (await ledger.reserve(3n, 5n))!;
    expect(await ledger.spent()).toBe(5n);
    await ledger.release(b);
    expect(await ledger.spent()).toBe(2n);
    clock.now += DAY_MS - 1;
    expect(await ledger.spent()).toBe(2n);
    clock.now += 1;
    expect(await ledger.spent()).toBe(0n);
    expect(await ledger.reserve(10n ** 30n, undefined)).toBeDefined();
  });

  it('holds a share for exactly 24 hours of wall clock (86,400,000 ms)', async () => {
    expect(DAY_MS).toBe(86_400_000);
    const clock = { now: 0 };
    const ledger = new SpendLedger(() => clock.now);
    await ledger.reserve(7n, undefined);
    clock.now = 86_399_999;
    expect(await ledger.spent()).toBe(7n);
    clock.now = 86_400_000;
    expect(await ledger.spent()).toBe(0n);
  });

  it('belongs to the signer: two users of one keystore user share it, another keystore user has its own', async () => {
    const store = new MemoryStore();
    const alice = new SpendLedger(() => 0, store, signerOf({ keystore: { username: 'ops', password: 'x' } }));
    const bob = new SpendLedger(() => 0, store, signerOf({ keystore: { username: 'ops', password: 'y' } }));
    const other = new SpendLedger(() => 0, store, signerOf({ keystore: { username: 'treasury', password: 'x' } }));
    expect(await alice.reserve(3n, 5n)).toBeDefined();
    expect(await bob.reserve(3n, 5n)).toBeUndefined();
    expect(await other.reserve(3n, 5n)).toBeDefined();
    expect([await bob.spent(), await other.spent(), signerOf({})]).toEqual([3n, 3n, 'default']);
  });
});

describe('checkWithoutRequests: CHAIN_MCP_ALLOWED_RECIPIENTS', () => {
  const notAllowed = (recipient: string) => ({
    kind: 'policy',
    message: `Refused: ${recipient} is not in CHAIN_MCP_ALLOWED_RECIPIENTS.`,
    hint: 'Only the operator can add recipients to the allow-list.',
  });

  it('allows a spend whose every recipient is on the list', () => {
    expect(() => checkWithoutRequests({ recipients: [CAMINO_X, CAMINO_P] }, config({ allowedRecipients: [CAMINO_P, CAMINO_X] }), CAMINO)).not.toThrow();
  });

  it('checks every recipient, not only the first: the change address off the list is refused', () => {
    expect(refusal(() => checkWithoutRequests({ recipients: [CAMINO_X, CAMINO_P] }, config({ allowedRecipients: [CAMINO_X] }), CAMINO))).toEqual(
      notAllowed(CAMINO_P),
    );
  });

  it('refuses everything with an empty list, and allows a spend with no recipients', () => {
    expect(refusal(() => checkWithoutRequests({ recipients: [CAMINO_X] }, config({ allowedRecipients: [] }), CAMINO))).toEqual(notAllowed(CAMINO_X));
    expect(() => checkWithoutRequests({ recipients: [] }, config({ allowedRecipients: [] }), CAMINO)).not.toThrow();
  });

  it('compares EVM addresses without regard to case (EIP-55 checksums), both ways', () => {
    const mixed = '0xAbCdEf0123456789aBcDeF0123456789AbCdEf01';
    expect(() => checkWithoutRequests({ recipients: [mixed.toLowerCase()] }, config({ allowedRecipients: [mixed] }), undefined)).not.toThrow();
    expect(() => checkWithoutRequests({ recipients: [mixed] }, config({ allowedRecipients: [mixed.toLowerCase()] }), undefined)).not.toThrow();
    expect(() => checkWithoutRequests({ recipients: [`0x${mixed.slice(2).toUpperCase()}`] }, config({ allowedRecipients: [mixed] }), undefined)).not.toThrow();
  });

  it('refuses an EVM address that differs in a digit, naming it as given', () => {
    const listed = '0xAbCdEf0123456789aBcDeF0123456789AbCdEf01';
    const other = '0xabcdef0123456789abcdef0123456789abcdef02';
    expect(refusal(() => checkWithoutRequests({ recipients: [other] }, config({ allowedRecipients: [listed] }), undefined))).toEqual(notAllowed(other));
  });

  it('compares exactly what is not a whole 0x + 40 hex address: a leading label, a 42nd digit', () => {
    const hex40 = 'AbCdEf0123456789aBcDeF0123456789AbCdEf01';
    const labelled = `C-0x${hex40}`;
    expect(refusal(() => checkWithoutRequests({ recipients: [labelled.toLowerCase()] }, config({ allowedRecipients: [labelled] }), undefined))).toEqual(
      notAllowed(labelled.toLowerCase()),
    );
    const long = `0x${hex40}Ab`;
    expect(refusal(() => checkWithoutRequests({ recipients: [long.toLowerCase()] }, config({ allowedRecipients: [long] }), undefined))).toEqual(
      notAllowed(long.toLowerCase()),
    );
  });

  it('compares bech32 addresses exactly', () => {
    expect(refusal(() => checkWithoutRequests({ recipients: [CAMINO_X.toUpperCase()] }, config({ allowedRecipients: [CAMINO_X] }), undefined))).toEqual(
      notAllowed(CAMINO_X.toUpperCase()),
    );
  });
});

describe('checkWithoutRequests: recipient prefix with a cached network', () => {
  it('refuses a recipient of another network when the network is cached', () => {
    expect(refusal(() => checkWithoutRequests({ recipients: [CAMINO_X, COLUMBUS_X] }, config(), CAMINO))).toEqual(
      prefixRefusal(COLUMBUS_X, 'columbus', 'camino'),
    );
  });

  it('leaves the prefix check to stage 2 when no network is cached', () => {
    expect(() => checkWithoutRequests({ recipients: [COLUMBUS_X] }, config(), undefined)).not.toThrow();
  });

  it('checks P- and C- addresses too, and skips EVM addresses and other strings', () => {
    expect(refusal(() => checkWithoutRequests({ recipients: [addr('P', 'columbus')] }, config(), CAMINO))).toEqual(
      prefixRefusal(addr('P', 'columbus'), 'columbus', 'camino'),
    );
    expect(refusal(() => checkWithoutRequests({ recipients: [addr('C', 'local')] }, config(), CAMINO))).toEqual(prefixRefusal(addr('C', 'local'), 'local', 'camino'));
    const others = ['0xabcdef0123456789abcdef0123456789abcdef01', 'XP-not-an-address', 'camino1bare'];
    expect(() => checkWithoutRequests({ recipients: others }, config(), CAMINO)).not.toThrow();
  });

  it('cannot check a network the node did not describe (hrp "custom" from the known-networks table)', () => {
    expect(() => checkWithoutRequests({ recipients: [LOCAL_X] }, config(), CUSTOM_KNOWN)).not.toThrow();
  });

  it('checks against "custom" when the node\'s configuration itself says so', () => {
    expect(refusal(() => checkWithoutRequests({ recipients: [LOCAL_X] }, config(), CUSTOM_CONFIGURED))).toEqual(prefixRefusal(LOCAL_X, 'local', 'custom'));
  });

  it('checks a known network from the known-networks table', () => {
    const local: NetworkInfo = { networkID: '12345', hrp: 'local', assetSymbol: '', assetID: '', source: 'known-networks' };
    expect(() => checkWithoutRequests({ recipients: [LOCAL_X] }, config(), local)).not.toThrow();
    expect(refusal(() => checkWithoutRequests({ recipients: [CAMINO_X] }, config(), local))).toEqual(prefixRefusal(CAMINO_X, 'camino', 'local'));
  });
});

describe('pinNetwork', () => {
  const lookup = (info: NetworkInfo) => vi.fn(async () => info);

  it('makes no lookup without a pin when stage 1 already had the network', async () => {
    const network = lookup(CAMINO);
    await pinNetwork({ recipients: [COLUMBUS_X] }, config(), network, true);
    expect(network).not.toHaveBeenCalled();
  });

  it('looks the network up once and checks prefixes when stage 1 had none', async () => {
    const network = lookup(CAMINO);
    expect(await asyncRefusal(pinNetwork({ recipients: [COLUMBUS_X] }, config(), network, false))).toEqual(prefixRefusal(COLUMBUS_X, 'columbus', 'camino'));
    expect(network).toHaveBeenCalledTimes(1);
    const again = lookup(CAMINO);
    await pinNetwork({ recipients: [CAMINO_X] }, config(), again, false);
    expect(again).toHaveBeenCalledTimes(1);
  });

  it('refuses a node on another network than the pin, naming both', async () => {
    const network = lookup({ ...CAMINO, networkID: '1001', hrp: 'columbus' });
    expect(await asyncRefusal(pinNetwork({ recipients: [] }, config({ expectNetworkId: '1000' }), network, true))).toEqual({
      kind: 'policy',
      message: 'Refused: the node is on network 1001, not CHAIN_MCP_EXPECT_NETWORK_ID=1000.',
      hint: 'Point CHAIN_MCP_NODE_URL at the expected network.',
    });
    expect(network).toHaveBeenCalledTimes(1);
  });

  it('says "unknown" when the node gave no network ID', async () => {
    const network = lookup({ ...CUSTOM_KNOWN, networkID: '' });
    expect((await asyncRefusal(pinNetwork({ recipients: [] }, config({ expectNetworkId: '1000' }), network, false))).message).toBe(
      'Refused: the node is on network unknown, not CHAIN_MCP_EXPECT_NETWORK_ID=1000.',
    );
  });

  it('passes a matching pin and does not repeat the prefix check stage 1 already made', async () => {
    const network = lookup(CAMINO);
    await pinNetwork({ recipients: [COLUMBUS_X] }, config({ expectNetworkId: '1000' }), network, true);
    expect(network).toHaveBeenCalledTimes(1);
  });

  it('runs the prefix check after a matching pin when stage 1 had no network', async () => {
    const network = lookup(CAMINO);
    expect(await asyncRefusal(pinNetwork({ recipients: [COLUMBUS_X] }, config({ expectNetworkId: '1000' }), network, false))).toEqual(
      prefixRefusal(COLUMBUS_X, 'columbus', 'camino'),
    );
  });

  it('checks the pin before the prefixes', async () => {
    const network = lookup({ ...CAMINO, networkID: '1001', hrp: 'columbus' });
    expect((await asyncRefusal(pinNetwork({ recipients: [CAMINO_X] }, config({ expectNetworkId: '1000' }), network, false))).message).toBe(
      'Refused: the node is on network 1001, not CHAIN_MCP_EXPECT_NETWORK_ID=1000.',
    );
  });

  it('skips the prefix check after the lookup for an undescribed ("custom") network', async () => {
    await pinNetwork({ recipients: [LOCAL_X] }, config(), lookup(CUSTOM_KNOWN), false);
  });
});

describe('spendLimits', () => {
  const base = {
    title: 'Test spend',
    description: 'A scripted spend.',
    tier: 'spend' as const,
    toolset: 'xvm' as const,
    input: z.strictObject({ to: z.string(), amount: z.bigint() }),
    output: z.object({ txID: z.string() }),
    summarize: () => 'done',
  };

  it('answers the limits the tool computes from the input', () => {
    const tool = defineTool({ ...base, name: 'test_spend', limits: (i) => ({ amount: i.amount, recipients: [i.to] }) }) as unknown as ToolDef;
    expect(spendLimits(tool, { to: CAMINO_X, amount: 5n })).toStrictEqual({ amount: 5n, recipients: [CAMINO_X] });
  });

  it('refuses a spend tool that declares no limits, as an internal error naming the tool', () => {
    const tool = defineTool({ ...base, name: 'test_unlimited' }) as unknown as ToolDef;
    expect(refusal(() => spendLimits(tool, { to: CAMINO_X, amount: 5n }))).toEqual({
      kind: 'internal',
      message: 'Spend tool test_unlimited declares no limits; refusing to run it.',
      hint: undefined,
    });
  });
});

describe('limit helpers', () => {
  it('recipientsOf keeps strings and lists in order and drops what the caller left out', () => {
    expect(recipientsOf(CAMINO_X, undefined, [CAMINO_P, COLUMBUS_X], undefined, LOCAL_X)).toEqual([CAMINO_X, CAMINO_P, COLUMBUS_X, LOCAL_X]);
    expect(recipientsOf(undefined)).toEqual([]);
    expect(recipientsOf()).toEqual([]);
    expect(recipientsOf([])).toEqual([]);
  });

  it('sumAmounts adds exactly, 0 for none', () => {
    expect(sumAmounts([])).toBe(0n);
    expect(sumAmounts([1n, 2n, 3n])).toBe(6n);
    expect(sumAmounts([2n ** 64n, 1n])).toBe(2n ** 64n + 1n);
  });
});

/** A node without platform.getConfiguration on network 1001 (columbus); records what was asked. */
function nodeWithoutConfiguration(configurationError: Error = new RpcError(-32601, 'the method platform.getConfiguration does not exist/is not available', undefined)) {
  const requests: string[] = [];
  const cache = new NetworkCache(async (_endpoint, method) => {
    requests.push(method);
    if (method === 'platform.getConfiguration') throw configurationError;
    if (method === 'info.getNetworkID') return { networkID: '1001' };
    throw new Error(`unexpected ${method}`);
  });
  return { cache, requests };
}

describe('network by ID when platform.getConfiguration is an RPC error', () => {
  it('learns the network from info.getNetworkID and the known-networks table', async () => {
    const { cache, requests } = nodeWithoutConfiguration();
    expect(await cache.get()).toEqual({ networkID: '1001', hrp: 'columbus', assetSymbol: '', assetID: '', source: 'known-networks', lockModeBondDeposit: true });
    expect(requests).toEqual(['platform.getConfiguration', 'info.getNetworkID']);
  });

  it('refuses a recipient with another network\'s prefix on the cold path (pinNetwork) and on the cached one', async () => {
    const { cache, requests } = nodeWithoutConfiguration();
    expect(await asyncRefusal(pinNetwork({ recipients: [COLUMBUS_P, CAMINO_X] }, config(), () => cache.get(), false))).toEqual(
      prefixRefusal(CAMINO_X, 'camino', 'columbus'),
    );
    expect(requests).toEqual(['platform.getConfiguration', 'info.getNetworkID']);
    let refused: unknown;
    try {
      checkWithoutRequests({ recipients: [CAMINO_X] }, config(), cache.peek());
    } catch (err) {
      refused = err;
    }
    expect(refused).toBeInstanceOf(ChainMcpError);
    expect({ kind: (refused as ChainMcpError).kind, message: (refused as ChainMcpError).message, hint: (refused as ChainMcpError).hint }).toEqual(
      prefixRefusal(CAMINO_X, 'camino', 'columbus'),
    );
    expect(requests).toHaveLength(2);
  });

  it('lets a recipient with the network\'s own prefix through', async () => {
    const { cache } = nodeWithoutConfiguration();
    await expect(pinNetwork({ recipients: [COLUMBUS_X, COLUMBUS_P] }, config(), () => cache.get(), false)).resolves.toBeUndefined();
    expect(() => checkWithoutRequests({ recipients: [COLUMBUS_X, COLUMBUS_P] }, config(), cache.peek())).not.toThrow();
  });

  it('does not fall back on a failure that is not an RPC error, and does not cache it', async () => {
    const { cache, requests } = nodeWithoutConfiguration(new ChainMcpError('timeout', 'The node did not answer within 15000 ms.'));
    expect((await asyncRefusal(cache.get())).kind).toBe('timeout');
    expect(requests).toEqual(['platform.getConfiguration']);
    expect(cache.peek()).toBeUndefined();
    expect((await asyncRefusal(cache.get())).kind).toBe('timeout');
    expect(requests).toEqual(['platform.getConfiguration', 'platform.getConfiguration']);
  });
});
