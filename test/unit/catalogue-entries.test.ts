import { describe, expect, it } from 'vitest';
import { CATALOGUE } from '../../src/catalogue/index.js';
import { loadConfig } from '../../src/config.js';
import { PRIMARY_NETWORK } from '../../src/spend/plan.js';
import type { SpendPlan, ToolContext, ToolDef } from '../../src/core/tool.js';
import { hexChecksumEncode } from '../../src/codec/encoded.js';
import { EXAMPLES } from '../contract/examples/index.js';

const tool = (name: string): ToolDef => CATALOGUE.find((t) => t.name === name)!;
const ctx = (keystore = true) =>
  ({
    config: loadConfig(keystore ? { CHAIN_MCP_KEYSTORE_USER: 'alice', CHAIN_MCP_KEYSTORE_PASSWORD: 'Correct-Horse-9' } : {}),
    network: async () => ({ networkID: '1001', hrp: 'columbus', assetSymbol: 'CAM', assetID: 'n', source: 'configuration' }),
  }) as unknown as ToolContext;

/**
 * Catalogue entries checked one function at a time, without a node (mutation survivors, issue 25):
 * the parts of an entry its contract example does not reach. Mutation testing's static pass
 * switches these import-time entries on and runs the unit tests.
 */
describe('key and keystore previews say whose keys and what happens to them', () => {
  const cases: Array<[string, RegExp]> = [
    ['keystore_deleteUser', /^Deletes: the keystore user and every key it holds/],
    ['keystore_exportUser', /^Exports: the keystore user's keys, encrypted with its password/],
    ['keystore_importUser', /^Imports: /],
    ['xvm_exportKey', /^Exports: /],
    ['xvm_importKey', /^Imports: a private key into the keystore user \(X chain\)/],
    ['cx_exportKey', /^Exports: /],
    ['cx_importKey', /^Imports: a private key into the keystore user \(C chain\)/],
    ['platform_exportKey', /^Exports: /],
  ];
  for (const [name, what] of cases) {
    it(`${name}`, async () => {
      const input = tool(name).input.parse(EXAMPLES[name]!.args);
      const plan = (await tool(name).plan!(input as never, ctx())) as SpendPlan;
      expect(plan.lines.slice(0, 2)).toEqual(['Network: test 1001 (prefix columbus)', 'Keystore user: alice (configured)']);
      expect(plan.lines[2]).toMatch(what);
      const limits = tool(name).limits!(input as never);
      expect(limits.recipients).toEqual([]);
      if (name.includes('export')) expect(limits.unbounded).toMatch(/\S/);
    });
  }

  it('names no user when none is configured', async () => {
    const input = tool('xvm_exportKey').input.parse(EXAMPLES.xvm_exportKey!.args);
    expect(((await tool('xvm_exportKey').plan!(input as never, ctx(false))) as SpendPlan).lines[1]).toBe('Keystore user: (not configured) (configured)');
  });
});

describe('input rules of staking and subnet entries', () => {
  it('a delegation fee has at most 4 decimals, any number of whole digits', () => {
    const base = EXAMPLES.platform_addValidator!.args;
    for (const rate of [2, 12.3456, 100]) expect(tool('platform_addValidator').input.safeParse({ ...base, delegationFeeRate: rate }).success, String(rate)).toBe(true);
    expect(tool('platform_addValidator').input.safeParse({ ...base, delegationFeeRate: 2.12345 }).success).toBe(false);
  });

  it('the Primary Network is not a subnet to validate or to create a chain in', () => {
    for (const name of ['platform_addSubnetValidator', 'platform_createBlockchain']) {
      const r = tool(name).input.safeParse({ ...EXAMPLES[name]!.args, subnetID: PRIMARY_NETWORK });
      expect(r.success, name).toBe(false);
      expect(r.error?.issues.map((i) => `${i.path.join('.')}: ${i.message}`)).toContain('subnetID: must be a subnet, not the Primary Network');
    }
  });

  it("a subnet validator's period lies inside the node's Primary Network period, its ends included", async () => {
    const t = tool('platform_addSubnetValidator');
    const base = t.input.parse(EXAMPLES.platform_addSubnetValidator!.args) as { nodeID: string; startTime: number; endTime: number };
    const [start, end] = [base.startTime, base.endTime];
    const withValidator = {
      ...ctx(),
      rpc: async (_endpoint: string, method: string) =>
        method === 'platform.getCurrentValidators'
          ? { validators: [{ nodeID: base.nodeID, startTime: String(start), endTime: String(end), stakeAmount: '2000000000000' }] }
          : method === 'info.getTxFee'
            ? { txFee: '1000000' }
            : { validators: [] },
    } as unknown as ToolContext;
    const plan = (period: [number, number]) => t.plan!({ ...base, startTime: period[0], endTime: period[1] } as never, withValidator);
    await expect(plan([start, end])).resolves.toMatchObject({ fee: 1_000_000n });
    for (const period of [
      [start - 1, end],
      [start, end + 1],
    ] as Array<[number, number]>) {
      await expect(plan(period), String(period)).rejects.toThrow(`startTime: the subnet period must lie inside the node's Primary Network period ${start}-${end}`);
    }
  });

  it('an NFT payload may be 1024 bytes, not one more', () => {
    const t = tool('xvm_mintNFT');
    const at = (bytes: number) => () => t.validate!(t.input.parse({ ...EXAMPLES.xvm_mintNFT!.args, payload: hexChecksumEncode(new Uint8Array(bytes)), encoding: 'hex' }) as never, 0);
    expect(at(1024)).not.toThrow();
    expect(at(1025)).toThrow(/payload: must be at most 1024 bytes; it is 1025 bytes/);
  });
});

describe("your addresses: the keystore user's a page at a time, or the local key's", () => {
  const list = tool('xvm_listAddresses');
  const keystore = (addresses: unknown) => ({ ...ctx(), rpc: async () => ({ addresses }), keyAddresses: async () => undefined }) as unknown as ToolContext;
  const all = ['X-a', 'X-b', 'X-c'];
  it('slices by offset and limit and says whether there is more', async () => {
    expect(await list.run!(list.input.parse({ offset: 1, limit: 1 }) as never, keystore(all))).toEqual({ signer: 'keystore user', total: 3, addresses: ['X-b'], offset: 1, hasMore: true });
    expect(await list.run!(list.input.parse({ offset: 1, limit: 2 }) as never, keystore(all))).toEqual({ signer: 'keystore user', total: 3, addresses: ['X-b', 'X-c'], offset: 1, hasMore: false });
    expect(await list.run!(list.input.parse({}) as never, keystore(null))).toEqual({ signer: 'keystore user', total: 0, addresses: [], offset: 0, hasMore: false });
  });

  it("answers the local key's addresses when it signs, without asking the keystore", async () => {
    const local = { ...ctx(), rpc: async () => { throw new Error('the keystore is not asked'); }, keyAddresses: async () => ({ x: 'X-columbus1abc', evm: '0xabc' }) } as unknown as ToolContext;
    const o = await list.run!(list.input.parse({}) as never, local);
    expect(o).toEqual({ signer: 'local key', total: 1, addresses: ['X-columbus1abc'], pAddress: 'P-columbus1abc', evmAddress: '0xabc', offset: 0, hasMore: false });
    expect(await list.summarize!(o as never, {} as never, ctx())).toMatch(/^Your addresses \(the local key this server signs with\): X X-columbus1abc, P P-columbus1abc, C-Chain EVM 0xabc\./);
  });

  it('tells the model where to go on', async () => {
    const text = await list.summarize!({ signer: 'keystore user', total: 3, addresses: ['X-b'], offset: 1, hasMore: true } as never, {} as never, ctx());
    expect(text).toBe('The keystore user controls 3 X addresses.\n- X-b\nMore: call again with offset 2.');
  });
});

describe('asset creation previews', () => {
  const withFees = {
    ...ctx(),
    rpc: async () => ({ txFee: '1000000', createAssetTxFee: '10000000' }),
    ownAddress: async () => true,
  } as unknown as ToolContext;
  const M1 = 'X-columbus1qqqsyqcyq5rqwzqfpg9scrgwpugpzysnkatd8j';
  const M2 = 'X-columbus1zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3cxxvrm';

  it('numbers each minter set from 1 and quotes the requested name and symbol last', async () => {
    for (const name of ['xvm_createVariableCapAsset', 'xvm_createNFTAsset']) {
      const input = { name: 'Gold', symbol: 'GLD', minterSets: [{ minters: [M1], threshold: 1 }, { minters: [M1, M2], threshold: 2 }] };
      const plan = (await tool(name).plan!(input as never, withFees)) as SpendPlan;
      expect(plan.lines, name).toContain(`Minter set 1: 1 of ${M1}`);
      expect(plan.lines, name).toContain(`Minter set 2: 2 of ${M1}, ${M2}`);
      expect(plan.lines.slice(-2), name).toEqual(['Name (written by the requester): "Gold"', 'Symbol (written by the requester): "GLD"']);
      expect(plan.details, name).toEqual({ kind: expect.any(String), name: 'Gold', symbol: 'GLD', fee: '10000000' });
      expect(plan.fee, name).toBe(10_000_000n);
    }
  });

  it('says denomination 0 when none is given, and has no symbol line without a symbol', async () => {
    const plan = (await tool('xvm_createNFTAsset').plan!({ name: 'Badges', symbol: '', minterSets: [{ minters: [M1], threshold: 1 }] } as never, withFees)) as SpendPlan;
    expect(plan.lines).toContain('Creates an NFT asset, denomination 0');
    expect(plan.lines.at(-1)).toBe('Name (written by the requester): "Badges"');
  });
});

