import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Devnet, startDevnet } from '../../tools/devnet/index.js';
import { checkAnswer, drive, type LoadCall, memoryOf, median, percentile, type StdioSession, stdioSession } from '../../tools/load.js';
import { CATALOGUE } from '../../src/catalogue/index.js';
import { exampleArgs } from '../faults/harness.js';

/**
 * 2,000 tool calls at 50 concurrent over one MCP stdio session against the devnet: zero
 * errors and every answer equal to the answer the same call gave alone. The mix is every
 * read tool whose contract example answers quickly and the same twice, a second apart,
 * against the devnet (no clock-dependent or deliberately waiting tools).
 * The 20,000-call leak check lives in `npm run bench` (node dist/tools/load.js).
 */

const CALLS = 2_000;
const CONCURRENCY = 50;
const MB = 1024 * 1024;

describe('load over one MCP session', () => {
  let devnet: Devnet;
  let session: StdioSession;
  const mix: LoadCall[] = [];

  beforeAll(async () => {
    devnet = await startDevnet();
    session = await stdioSession({ CHAIN_MCP_NODE_URL: devnet.nodeUrl, ...(devnet.indexerUrl ? { CHAIN_MCP_INDEXER_URL: devnet.indexerUrl } : {}) });
    const { tools } = await session.client.listTools();
    const listed = new Set(tools.map((t) => t.name));
    const candidates: LoadCall[] = [];
    for (const tool of CATALOGUE) {
      const args = exampleArgs(tool);
      if (tool.tier !== 'read' || !listed.has(tool.name) || !args) continue;
      const started = performance.now();
      const first = await session.client.callTool({ name: tool.name, arguments: args });
      // Tools that wait on purpose (polling until a deadline) report how long they waited.
      if (first.isError || performance.now() - started > 250) continue;
      candidates.push({ name: tool.name, args, expect: first.structuredContent });
    }
    // Answers that follow the clock (ages, "until now" ranges) cannot be checked by equality.
    await new Promise((r) => setTimeout(r, 1_100));
    for (const call of candidates) {
      const again = await session.client.callTool({ name: call.name, arguments: call.args });
      if (JSON.stringify(again.structuredContent) === JSON.stringify(call.expect)) mix.push(call);
    }
  }, 120_000);
  afterAll(async () => {
    await session?.close();
    await devnet?.close();
  });

  it(`answers ${CALLS} calls at ${CONCURRENCY} concurrent with zero errors, each correct`, async () => {
    expect(mix.length).toBeGreaterThanOrEqual(5);
    const before = memoryOf(session.pid);
    const result = await drive(CALLS, CONCURRENCY, async (i) => {
      const call = mix[i % mix.length]!;
      checkAnswer(call, await session.client.callTool({ name: call.name, arguments: call.args }));
    });
    const after = memoryOf(session.pid);
    console.log(
      `[load] ${CALLS} calls, ${CONCURRENCY} concurrent, one stdio session, ${mix.length} read tools in rotation: ` +
        `errors ${result.errors.length}, p50 ${median(result.latencies).toFixed(2)} ms, p99 ${percentile(result.latencies, 99).toFixed(2)} ms, ` +
        `${Math.round((CALLS / result.elapsedMs) * 1000)} calls/s; server RSS ${(before.rss / MB).toFixed(1)} -> ${(after.rss / MB).toFixed(1)} MB, peak ${(after.peak / MB).toFixed(1)} MB`,
    );
    expect(result.errors.slice(0, 5)).toEqual([]);
    expect(result.latencies).toHaveLength(CALLS);
  }, 180_000);
});
