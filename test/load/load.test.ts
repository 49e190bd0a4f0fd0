import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Devnet, startDevnet } from '../../src/devnet/index.js';
import { drive, memoryOf, median, percentile, type StdioSession, stdioSession } from '../../tools/load.js';

/**
 * 2,000 tool calls at 50 concurrent over one MCP stdio session against the devnet: zero
 * errors and every answer equal to one computed without the server: the expected fields come
 * from direct JSON-RPC requests to the devnet (raw answer, converted by hand here), made before
 * the load and again after it (the state must not have moved, all calls being reads).
 * The 20,000-call leak check lives in `npm run bench` (node dist/tools/load.js).
 */

const CALLS = 2_000;
const CONCURRENCY = 50;
const MB = 1024 * 1024;

// biome-ignore lint/suspicious/noExplicitAny: raw node answers are read field by field
type Raw = any;

interface Oracle {
  name: string;
  args: Record<string, unknown>;
  /** The request the tool stands for, sent straight to the devnet. */
  direct: { path: string; method: string; params: unknown };
  /** The fields the tool's structured answer must have, from the raw answer. */
  expected(raw: Raw): Record<string, unknown>;
}

const value = (v: unknown) => ({ value: String(v) });

function oracles(devnet: Devnet): Oracle[] {
  const s = devnet.state;
  const key = s.users.get(s.devnetUser)!.keys[0]!;
  const native = s.nativeAssetID;
  return [
    { name: 'info_getNodeID', args: {}, direct: { path: '/ext/info', method: 'info.getNodeID', params: {} }, expected: (r) => ({ nodeID: r.nodeID }) },
    { name: 'info_getNetworkID', args: {}, direct: { path: '/ext/info', method: 'info.getNetworkID', params: {} }, expected: (r) => ({ networkID: String(r.networkID) }) },
    {
      name: 'info_getBlockchainID',
      args: { alias: 'X' },
      direct: { path: '/ext/info', method: 'info.getBlockchainID', params: { alias: 'X' } },
      expected: (r) => ({ alias: 'X', blockchainID: r.blockchainID }),
    },
    { name: 'platform_getHeight', args: {}, direct: { path: '/ext/P', method: 'platform.getHeight', params: {} }, expected: (r) => ({ height: String(r.height) }) },
    {
      name: 'info_getTxFee',
      args: {},
      direct: { path: '/ext/info', method: 'info.getTxFee', params: {} },
      expected: (r) => ({ txFee: value(r.txFee), creationTxFee: value(r.creationTxFee) }),
    },
    { name: 'eth_chainId', args: {}, direct: { path: '/ext/bc/C/rpc', method: 'eth_chainId', params: [] }, expected: (r) => ({ chainId: BigInt(r).toString() }) },
    {
      name: 'eth_getBalance',
      args: { address: key.c },
      direct: { path: '/ext/bc/C/rpc', method: 'eth_getBalance', params: [key.c, 'latest'] },
      expected: (r) => ({ balance: value(BigInt(r)) }),
    },
    {
      name: 'xvm_getBalance',
      args: { address: key.x, assetID: native },
      direct: { path: '/ext/bc/X', method: 'xvm.getBalance', params: { address: key.x, assetID: native } },
      expected: (r) => ({ assetID: native, balance: value(r.balance), utxoCount: r.utxoIDs.length }),
    },
    {
      name: 'xvm_getAllBalances',
      args: { address: key.x },
      direct: { path: '/ext/bc/X', method: 'xvm.getAllBalances', params: { address: key.x } },
      expected: (r) => ({ count: r.balances.length, balances: r.balances.map((b: Raw) => ({ asset: b.asset, balance: value(b.balance) })) }),
    },
    {
      name: 'platform_getBalance',
      args: { addresses: [key.p] },
      direct: { path: '/ext/P', method: 'platform.getBalance', params: { addresses: [key.p] } },
      expected: (r) => ({
        utxoCount: r.utxoIDs.length,
        assets: [
          {
            assetID: native,
            total: value(r.balances[native]),
            unlocked: value(r.unlockedOutputs[native]),
            bonded: value(r.bondedOutputs[native]),
            deposited: value(r.depositedOutputs[native]),
            bondedDeposited: value(r.bondedDepositedOutputs[native]),
          },
        ],
      }),
    },
  ];
}

async function direct(devnet: Devnet, req: Oracle['direct']): Promise<Raw> {
  const res = await fetch(devnet.nodeUrl + req.path, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: req.method, params: req.params }),
  });
  const body = (await res.json()) as { result?: unknown; error?: unknown };
  if (body.error !== undefined) throw new Error(`${req.method}: ${JSON.stringify(body.error)}`);
  return body.result;
}

describe('load over one MCP session', () => {
  let devnet: Devnet;
  let session: StdioSession;
  const mix: Array<Oracle & { expect: Record<string, unknown> }> = [];

  beforeAll(async () => {
    devnet = await startDevnet();
    session = await stdioSession({ CHAIN_MCP_NODE_URL: devnet.nodeUrl, ...(devnet.indexerUrl ? { CHAIN_MCP_INDEXER_URL: devnet.indexerUrl } : {}) });
    for (const o of oracles(devnet)) mix.push({ ...o, expect: o.expected(await direct(devnet, o.direct)) });
  }, 120_000);
  afterAll(async () => {
    await session?.close();
    await devnet?.close();
  });

  it(`answers ${CALLS} calls at ${CONCURRENCY} concurrent with zero errors, each correct`, async () => {
    expect(mix.length).toBe(10);
    const before = memoryOf(session.pid);
    const result = await drive(CALLS, CONCURRENCY, async (i) => {
      const call = mix[i % mix.length]!;
      const answer = await session.client.callTool({ name: call.name, arguments: call.args });
      if (answer.isError) throw new Error(`${call.name} answered isError: ${JSON.stringify(answer.content).slice(0, 200)}`);
      expect(answer.structuredContent, call.name).toMatchObject(call.expect);
    });
    const after = memoryOf(session.pid);
    console.log(
      `[load] ${CALLS} calls, ${CONCURRENCY} concurrent, one stdio session, ${mix.length} read tools in rotation: ` +
        `errors ${result.errors.length}, p50 ${median(result.latencies).toFixed(2)} ms, p99 ${percentile(result.latencies, 99).toFixed(2)} ms, ` +
        `${Math.round((CALLS / result.elapsedMs) * 1000)} calls/s; server RSS ${(before.rss / MB).toFixed(1)} -> ${(after.rss / MB).toFixed(1)} MB, peak ${(after.peak / MB).toFixed(1)} MB`,
    );
    expect(result.errors.slice(0, 5)).toEqual([]);
    expect(result.latencies).toHaveLength(CALLS);
    // Nothing moved during the load: the expected answers still hold at the node.
    for (const o of mix) expect(o.expected(await direct(devnet, o.direct)), o.name).toEqual(o.expect);
  }, 180_000);
});
