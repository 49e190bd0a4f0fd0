import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CATALOGUE } from '../../src/catalogue/index.js';
import type { ToolDef } from '../../src/core/tool.js';
import { type ChainLetter, formatChainAddress, parseChainAddress } from '../../src/codec/index.js';
import { loadConfig } from '../../src/config.js';
import { KNOWN_NETWORKS } from '../../src/context/network.js';
import { silentLogger } from '../../src/log.js';
import { Services } from '../../src/services.js';
import { buildServer } from '../../src/server.js';
import { EXAMPLES } from '../contract/examples/index.js';
import { startFakeNode } from '../contract/fake-node.js';
import { KEYSTORE } from '../contract/types.js';

/**
 * The hard limits of every spend tool, driven from the catalogue (issues 11 and 15): each
 * limit that needs no request refuses with ZERO node requests, the network pin after at most
 * the one cached network lookup, and the reason is stated. What each tool moves and pays is
 * written down HERE, independently of the tools' own `limits`, so a tool that forgets an
 * amount or a recipient field fails, and a new spend tool fails until it is classified.
 */

type Args = Record<string, unknown>;
type Fake = Awaited<ReturnType<typeof startFakeNode>>;

/** EIP-155 example: to 0x3535...35, value 1 ether = 10^9 native smallest units. */
const RAW_TO = '0x3535353535353535353535353535353535353535';

/** Fund-moving tools: the amount leaving the user's control, from the arguments (docs/choices.md). */
const MOVES: Record<string, (a: Args) => bigint> = {
  xvm_send: (a) => BigInt(a.amount as string),
  wallet_send: (a) => BigInt(a.amount as string),
  xvm_sendMultiple: (a) => (a.outputs as Args[]).reduce((s, o) => s + BigInt(o.amount as string), 0n),
  xvm_export: (a) => BigInt(a.amount as string),
  cx_export: (a) => BigInt(a.amount as string),
  platform_exportNative: (a) => BigInt(a.amount as string),
  platform_addValidator: (a) => BigInt(a.stakeAmount as string),
  platform_addDelegator: (a) => BigInt(a.stakeAmount as string),
  transfer: (a) => BigInt(a.amount as string),
  // Value 1 ether (10^9 units) plus the maximum fee: 21,000 gas x 20 gwei = 4.2 x 10^14 wei = 420,000 units.
  eth_sendRawTransaction: () => 1_000_000_000n + 420_000n,
};
/** Spend tools where only the fee leaves the user (creations, mints, NFT moves, imports, subnet admin). */
const FEE_ONLY = [
  'xvm_createFixedCapAsset',
  'xvm_createVariableCapAsset',
  'xvm_createNFTAsset',
  'xvm_mint',
  'xvm_mintNFT',
  'xvm_sendNFT',
  'xvm_import',
  'cx_import',
  'platform_addSubnetValidator',
  'platform_createSubnet',
  'platform_createBlockchain',
  'platform_setAddressState',
];
/** Signed bytes the server cannot read: refused under any amount or recipient limit. */
const OPAQUE = ['xvm_issueTx', 'wallet_issueTx', 'cx_issueTx'];
/** Address fields that receive nothing: who pays, who controls, who may mint. */
// nodeOwnerAddress: the key that signs for the node in platform.addValidator; nothing moves to it (docs/real-nodes.md).
const NOT_RECIPIENTS = new Set(['from', 'controlKeys', 'minters', 'nodeOwnerAddress']);
/** Recipients hidden inside bytes, decoded by the tool. */
const DECODED_RECIPIENTS: Record<string, string[]> = { eth_sendRawTransaction: [RAW_TO] };

const SPEND = CATALOGUE.filter((t) => t.tier === 'spend');

/** The argument sets tried per tool: the contract example (with a change address where the tool takes one) and extra routes. */
function argSets(tool: ToolDef): Args[] {
  const base = structuredClone(EXAMPLES[tool.name]!.args);
  if ('changeAddr' in tool.input.shape && base.changeAddr === undefined) {
    const hrp = hrpOf(base);
    const candidates = (['X', 'P'] as ChainLetter[]).map((c) => formatChainAddress(c, hrp, new Uint8Array(20).fill(0x33)));
    base.changeAddr = candidates.find((c) => tool.input.safeParse({ ...base, changeAddr: c }).success);
  }
  if (tool.name !== 'transfer') return [base];
  // X -> C credits evmAddress on C: a recipient field the C -> X example does not have.
  const bare = (base.to as string).slice(2);
  return [base, { to: `C-${bare}`, amount: base.amount, sourceChain: 'X', evmAddress: '0x2222222222222222222222222222222222222222' }];
}

/** Every address string in the arguments outside NOT_RECIPIENTS, with its path. */
function recipientPaths(value: unknown, path: Array<string | number> = []): Array<{ path: Array<string | number>; address: string }> {
  if (typeof value === 'string') return isAddress(value) ? [{ path, address: value }] : [];
  if (Array.isArray(value)) return value.flatMap((v, i) => recipientPaths(v, [...path, i]));
  if (value && typeof value === 'object') {
    return Object.entries(value).flatMap(([k, v]) => (NOT_RECIPIENTS.has(k) ? [] : recipientPaths(v, [...path, k])));
  }
  return [];
}

function isAddress(v: string): boolean {
  if (/^0x[0-9a-fA-F]{40}$/.test(v)) return true;
  try {
    parseChainAddress(v);
    return true;
  } catch {
    return false;
  }
}

function hrpOf(args: Args): string {
  const bech = recipientPaths(args).find((r) => /^[XPC]-/.test(r.address));
  return bech ? parseChainAddress(bech.address).hrp : 'camino';
}

function setAt(args: Args, path: Array<string | number>, value: string): Args {
  const copy = structuredClone(args);
  let at: Record<string | number, unknown> = copy;
  for (const key of path.slice(0, -1)) at = at[key] as Record<string | number, unknown>;
  at[path.at(-1)!] = value;
  return copy;
}

/** Another address of the same kind (chain letter or hex) under `hrp`, not in the example. */
function another(address: string, hrp: string, fill: number): string {
  if (address.startsWith('0x')) return `0x${fill.toString(16).padStart(2, '0').repeat(20)}`;
  return formatChainAddress(address[0] as ChainLetter, hrp, new Uint8Array(20).fill(fill));
}

const NETWORK_ID = '4242';
const configuration = (hrp: string) => ({ networkID: NETWORK_ID, hrp, assetSymbol: 'CAM', assetID: '2d4X84o3PHVTv1acUuVp8p9tDfduV3gxgpnHUxT6P7VvMTDVQn' });

interface Server {
  services: Services;
  call(name: string, args: Args): Promise<{ text: string; isError: boolean; status?: unknown }>;
  close(): Promise<void>;
}

async function serve(fake: Fake, env: Record<string, string> = {}): Promise<Server> {
  const config = loadConfig({
    CHAIN_MCP_NODE_URL: fake.url,
    CHAIN_MCP_KEYSTORE_USER: KEYSTORE.username,
    CHAIN_MCP_KEYSTORE_PASSWORD: KEYSTORE.password,
    CHAIN_MCP_ALLOW_SPEND: 'true',
    CHAIN_MCP_APPROVAL: 'confirm-id',
    CHAIN_MCP_LOG_LEVEL: 'silent',
    ...env,
  });
  const log = silentLogger();
  const services = new Services({ config, log, catalogue: CATALOGUE });
  const { mcp } = buildServer({ config, log, services });
  const client = new Client({ name: 'limits', version: '0' });
  const [a, b] = InMemoryTransport.createLinkedPair();
  await mcp.connect(b);
  await client.connect(a);
  return {
    services,
    call: async (name, args) => {
      const r = await client.callTool({ name, arguments: args });
      const text = ((r.content ?? []) as Array<{ text?: string }>).map((c) => c.text ?? '').join('\n');
      return { text, isError: r.isError === true, status: (r.structuredContent as Args | undefined)?.status };
    },
    close: async () => {
      await client.close();
      await mcp.close();
      await services.close();
    },
  };
}

describe('every spend tool is classified and declares its limits', () => {
  it('classifies each spend tool of the catalogue exactly once (a new spend tool must be added here)', () => {
    const classified = [...Object.keys(MOVES), ...FEE_ONLY, ...OPAQUE].sort();
    expect(classified).toEqual(SPEND.map((t) => t.name).sort());
  });

  it('gives every spend tool a limits function and a contract example', () => {
    expect(SPEND.filter((t) => typeof t.limits !== 'function').map((t) => t.name)).toEqual([]);
    expect(SPEND.filter((t) => !EXAMPLES[t.name]).map((t) => t.name)).toEqual([]);
  });

  it('tries every recipient field a tool has: change and reward addresses are in the arguments', () => {
    for (const tool of SPEND) {
      const shape = tool.input.shape as Record<string, unknown>;
      const fields = new Set(argSets(tool).flatMap((a) => recipientPaths(a).map((r) => String(r.path[0]))));
      for (const f of ['changeAddr', 'rewardAddress', 'to', 'address', 'evmAddress', 'initialHolders', 'outputs']) {
        if (f in shape) expect(fields.has(f), `${tool.name}.${f}`).toBe(true);
      }
    }
  });
});

describe('hard limits refuse before any request, on every spend tool', () => {
  let fake: Fake;
  beforeAll(async () => {
    fake = await startFakeNode();
  });
  afterAll(() => fake.close());

  const methods = () =>
    fake.recorded.flatMap((r) => (Array.isArray(r.body) ? r.body : [r.body]).map((b) => String((b as { method?: unknown })?.method)));

  /** The keystore user owns the arguments' bech32 addresses (change, import destinations): limits then pass on them. */
  function answer(tool: ToolDef, network: Record<string, unknown>, args: Args) {
    const own = recipientPaths(args)
      .map((r) => r.address)
      .filter((a) => /^[XPC]-/.test(a))
      .map((a) => a.slice(2));
    const lists = { 'xvm.listAddresses': { addresses: own.map((a) => `X-${a}`) }, 'platform.listAddresses': { addresses: own.map((a) => `P-${a}`) } };
    fake.setAnswers({ ...EXAMPLES[tool.name]!.answers, ...lists, ...network });
    fake.recorded.length = 0;
  }

  /** One server with `env`, the network optionally learned first; calls and counts what reached the node. */
  async function attempt(tool: ToolDef, args: Args, env: Record<string, string>, opts: { warm?: boolean; hrp?: string; network?: Record<string, unknown> } = {}) {
    answer(tool, opts.network ?? { 'platform.getConfiguration': configuration(opts.hrp ?? hrpOf(args)) }, args);
    const server = await serve(fake, env);
    try {
      if (opts.warm) await server.services.network();
      fake.recorded.length = 0;
      const r = await server.call(tool.name, args);
      return { ...r, requests: methods() };
    } finally {
      await server.close();
    }
  }

  for (const tool of SPEND.filter((t) => t.name in MOVES)) {
    it(`${tool.name}: CHAIN_MCP_MAX_SPEND at the amount previews; one unit less refuses with zero requests`, async () => {
      for (const args of argSets(tool)) {
        const amount = MOVES[tool.name]!(args);
        expect(amount > 0n, tool.name).toBe(true);
        const at = await attempt(tool, args, { CHAIN_MCP_MAX_SPEND: amount.toString() });
        expect(at.isError, `${tool.name} at the cap: ${at.text}`).toBe(false);
        expect(at.status).toBe('preview');
        const over = await attempt(tool, args, { CHAIN_MCP_MAX_SPEND: (amount - 1n).toString() });
        expect(over.isError, tool.name).toBe(true);
        expect(over.text).toContain('exceeds CHAIN_MCP_MAX_SPEND');
        expect(over.text).toContain(`(${amount - 1n} (smallest unit))`);
        expect(over.requests, tool.name).toEqual([]);
      }
    });
  }

  for (const tool of SPEND.filter((t) => !OPAQUE.includes(t.name))) {
    it(`${tool.name}: the allow-list is checked on each recipient field separately, with zero requests`, async () => {
      for (const args of argSets(tool)) {
        const found = recipientPaths(args);
        const all = [...found.map((r) => r.address), ...(DECODED_RECIPIENTS[tool.name] ?? [])];
        expect(all.length, tool.name).toBeGreaterThan(0);
        const allowAll = { CHAIN_MCP_ALLOWED_RECIPIENTS: all.join(',') };
        const ok = await attempt(tool, args, allowAll);
        expect(ok.isError, `${tool.name} with every recipient allowed: ${ok.text}`).toBe(false);
        expect(ok.status).toBe('preview');
        for (const { path, address } of found) {
          const stranger = another(address, hrpOf(args), 0x5a);
          const r = await attempt(tool, setAt(args, path, stranger), allowAll);
          expect(r.isError, `${tool.name} ${path.join('.')}`).toBe(true);
          expect(r.text, `${tool.name} ${path.join('.')}`).toContain(`Refused: ${stranger} is not in CHAIN_MCP_ALLOWED_RECIPIENTS`);
          expect(r.requests, `${tool.name} ${path.join('.')}`).toEqual([]);
        }
        for (const hidden of DECODED_RECIPIENTS[tool.name] ?? []) {
          const r = await attempt(tool, args, { CHAIN_MCP_ALLOWED_RECIPIENTS: all.filter((x) => x !== hidden).join(',') || RAW_TO.replace('35', '36') });
          expect(r.text, tool.name).toContain(`Refused: ${hidden} is not in CHAIN_MCP_ALLOWED_RECIPIENTS`);
          expect(r.requests, tool.name).toEqual([]);
        }
      }
    });

    if (!argSets(tool).some((a) => recipientPaths(a).some((r) => /^[XPC]-/.test(r.address)))) continue;
    it(`${tool.name}: a recipient with another network's prefix is refused (cached network: zero requests; cold: only the lookup; fallback network by ID)`, async () => {
      for (const args of argSets(tool)) {
        const hrp = hrpOf(args);
        const foreignHrp = hrp === 'columbus' ? 'kopernikus' : 'columbus';
        const bech = recipientPaths(args).filter((r) => /^[XPC]-/.test(r.address));
        for (const { path, address } of bech) {
          const foreign = another(address, foreignHrp, 0x21);
          const where = `${tool.name} ${path.join('.')}`;
          const warm = await attempt(tool, setAt(args, path, foreign), {}, { warm: true, hrp });
          expect(warm.text, where).toContain(`Refused: ${foreign} belongs to network prefix "${foreignHrp}", but the node is on "${hrp}"`);
          expect(warm.requests, where).toEqual([]);
          const cold = await attempt(tool, setAt(args, path, foreign), {}, { hrp });
          expect(cold.text, where).toContain(`belongs to network prefix "${foreignHrp}"`);
          expect(cold.requests, where).toEqual(['platform.getConfiguration']);
          // A node without platform.getConfiguration: the network comes from info.getNetworkID and the known-networks table.
          const id = Object.entries(KNOWN_NETWORKS).find(([, n]) => n.hrp === hrp)![0];
          const fallback = await attempt(tool, setAt(args, path, foreign), {}, { warm: true, network: { 'platform.getConfiguration': {}, 'info.getNetworkID': { networkID: id } } });
          expect(fallback.text, where).toContain(`Refused: ${foreign} belongs to network prefix "${foreignHrp}", but the node is on "${hrp}"`);
          expect(fallback.requests, where).toEqual([]);
        }
      }
    });
  }

  for (const tool of SPEND) {
    it(`${tool.name}: CHAIN_MCP_EXPECT_NETWORK_ID refuses another network after at most the one cached lookup`, async () => {
      const [args] = argSets(tool);
      const cold = await attempt(tool, args!, { CHAIN_MCP_EXPECT_NETWORK_ID: '1001' });
      expect(cold.isError, tool.name).toBe(true);
      expect(cold.text).toContain(`Refused: the node is on network ${NETWORK_ID}, not CHAIN_MCP_EXPECT_NETWORK_ID=1001`);
      expect(cold.requests, tool.name).toEqual(['platform.getConfiguration']);
      const warm = await attempt(tool, args!, { CHAIN_MCP_EXPECT_NETWORK_ID: '1001' }, { warm: true });
      expect(warm.text).toContain('not CHAIN_MCP_EXPECT_NETWORK_ID=1001');
      expect(warm.requests, tool.name).toEqual([]);
      const pinned = await attempt(tool, args!, { CHAIN_MCP_EXPECT_NETWORK_ID: NETWORK_ID });
      expect(pinned.isError, `${tool.name} on the expected network: ${pinned.text}`).toBe(false);
      expect(pinned.status).toBe('preview');
    });
  }

  for (const tool of SPEND.filter((t) => OPAQUE.includes(t.name))) {
    it(`${tool.name}: signed bytes are refused under a cap or an allow-list with zero requests`, async () => {
      const [args] = argSets(tool);
      const limits: Array<Record<string, string>> = [{ CHAIN_MCP_MAX_SPEND: '1000000000000' }, { CHAIN_MCP_ALLOWED_RECIPIENTS: RAW_TO }];
      for (const env of limits) {
        const r = await attempt(tool, args!, env);
        expect(r.text, tool.name).toContain('signed bytes whose recipients and amounts this server cannot check');
        expect(r.requests, tool.name).toEqual([]);
      }
    });
  }
});
