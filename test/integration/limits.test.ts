import { Client } from '@modelcontextprotocol/client';
import { InMemoryTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CATALOGUE } from '../../src/catalogue/index.js';
import type { ToolDef } from '../../src/core/tool.js';
import { loadConfig } from '../../src/config.js';
import { KNOWN_NETWORKS } from '../../src/context/network.js';
import { formatAmount } from '../../src/codec/index.js';
import { silentLogger } from '../../src/log.js';
import { Services } from '../../src/services.js';
import { buildServer } from '../../src/server.js';
import { EXAMPLES } from '../contract/examples/index.js';
import { startFakeNode } from '../contract/fake-node.js';
import { KEYSTORE } from '../contract/types.js';
import { type Args, RAW_TO, MOVES, FEE_ONLY, OPAQUE, DECODED_RECIPIENTS, SPEND, argSets, recipientPaths, hrpOf, setAt, another } from '../helpers/spend-classes.js';

/**
 * The hard limits of every spend tool, driven from the catalogue (issues 11 and 15): each
 * limit that needs no request refuses with ZERO node requests, the network pin after at most
 * the one cached network lookup, and the reason is stated. What each tool moves and pays is
 * written down HERE, independently of the tools' own `limits`, so a tool that forgets an
 * amount or a recipient field fails, and a new spend tool fails until it is classified.
 */

type Fake = Awaited<ReturnType<typeof startFakeNode>>;

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

  /**
   * The most a spend's fee can burn with this fake node's answers (info.getTxFee answers nothing: 0),
   * counted with the amount in CHAIN_MCP_MAX_SPEND. C atomic spends: cx_export from one key (one EVM
   * input, one output: 11,230 gas) at the example's 30 gwei base fee = 336,900 nCAM; transfer C -> X,
   * the same export at the node's 200 gwei: 11,230 x 200 = 2,246,000 nCAM.
   */
  const FEE_ON_FAKE: Record<string, bigint> = { cx_export: 336_900n, transfer: 2_246_000n };

  for (const tool of SPEND.filter((t) => t.name in MOVES)) {
    it(`${tool.name}: CHAIN_MCP_MAX_SPEND at the amount plus the most the fee burns previews; less refuses, with zero requests below the amount`, async () => {
      for (const args of argSets(tool)) {
        const amount = MOVES[tool.name]!(args);
        const fee = FEE_ON_FAKE[tool.name] ?? 0n;
        expect(amount > 0n, tool.name).toBe(true);
        // A transfer to C credits a 0x address the server cannot tell as the user's: under any limit it
        // passes only allow-listed (the own-address rule of cx_import).
        const allow: Record<string, string> = typeof args.evmAddress === 'string' ? { CHAIN_MCP_ALLOWED_RECIPIENTS: `${args.to},${args.evmAddress}` } : {};
        const at = await attempt(tool, args, { CHAIN_MCP_MAX_SPEND: (amount + fee).toString(), ...allow });
        expect(at.isError, `${tool.name} at the cap: ${at.text}`).toBe(false);
        expect(at.status).toBe('preview');
        if (fee > 0n) {
          const short = await attempt(tool, args, { CHAIN_MCP_MAX_SPEND: (amount + fee - 1n).toString(), ...allow });
          expect(short.isError, tool.name).toBe(true);
          const cam = (v: bigint) => `${formatAmount(v, { decimals: 9 })} CAM`;
          expect(short.text).toContain(`plus the fee of at most ${cam(fee)} is ${cam(amount + fee)}, over CHAIN_MCP_MAX_SPEND (${cam(amount + fee - 1n)})`);
        }
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
