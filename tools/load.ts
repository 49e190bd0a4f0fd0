import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { type Devnet, startDevnet } from '../src/devnet/index.js';

/**
 * Load helpers shared by test/load and `npm run bench`, and a standalone leak check:
 * `node dist/tools/load.js [calls]` drives one stdio session with 50 concurrent calls and
 * compares the server's memory after 2,000 calls with its memory after `calls` (default 20,000).
 */

/** The built files, whether this module runs from dist/tools (bench) or tools/ (vitest). */
const DIST = new URL(import.meta.url.includes('/dist/tools/') ? '../' : '../dist/', import.meta.url);
export const MAIN = fileURLToPath(new URL('src/main.js', DIST));

export interface LoadCall {
  name: string;
  args: Record<string, unknown>;
  /** The structured answer every call must return. */
  expect?: unknown;
}

export interface LoadResult {
  latencies: number[];
  errors: string[];
  elapsedMs: number;
}

/** Runs `total` calls with at most `concurrency` in flight; records each call's latency. */
export async function drive(total: number, concurrency: number, one: (i: number) => Promise<void>): Promise<LoadResult> {
  const latencies: number[] = [];
  const errors: string[] = [];
  let next = 0;
  const started = performance.now();
  const worker = async () => {
    while (next < total) {
      const i = next++;
      const t0 = performance.now();
      try {
        await one(i);
      } catch (err) {
        errors.push(`#${i}: ${(err as Error).message}`);
      }
      latencies.push(performance.now() - t0);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, total) }, worker));
  return { latencies, errors, elapsedMs: performance.now() - started };
}

export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

export const median = (values: readonly number[]) => percentile(values, 50);

/** Resident and peak resident memory of a process, in bytes (Linux /proc). */
export function memoryOf(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (key: string) => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? Number.NaN) * 1024;
  return { rss: kb('VmRSS'), peak: kb('VmHWM') };
}

/** Compares a tool result with what it must be; throws with the difference. */
export function checkAnswer(call: LoadCall, answer: unknown): void {
  const result = answer as { isError?: unknown; structuredContent?: unknown; content?: unknown };
  if (result.isError) throw new Error(`${call.name} answered isError: ${JSON.stringify(result.content).slice(0, 200)}`);
  if (call.expect !== undefined && JSON.stringify(result.structuredContent) !== JSON.stringify(call.expect)) {
    throw new Error(`${call.name} answered ${JSON.stringify(result.structuredContent).slice(0, 200)}, expected ${JSON.stringify(call.expect).slice(0, 200)}`);
  }
}

export const PROBE = fileURLToPath(new URL('tools/bench/memory-probe.js', DIST));

export interface StdioSession {
  client: Client;
  pid: number;
  /** With `probe`: the server's memory right after a forced full garbage collection. */
  memoryAfterGc(): Promise<NodeJS.MemoryUsage>;
  close(): Promise<void>;
}

/** The built server spawned over stdio; `probe` runs it under tools/bench/memory-probe. */
export async function stdioSession(env: Record<string, string>, opts: { probe?: boolean } = {}): Promise<StdioSession> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: opts.probe ? ['--expose-gc', PROBE, MAIN] : [MAIN],
    env: { PATH: process.env.PATH ?? '', CHAIN_MCP_LOG_LEVEL: 'silent', ...env },
    stderr: 'pipe',
  });
  let stderr = '';
  const waiting: Array<(m: NodeJS.MemoryUsage) => void> = [];
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
    let nl = stderr.indexOf('\n');
    while (nl !== -1) {
      const line = stderr.slice(0, nl);
      stderr = stderr.slice(nl + 1);
      if (line.startsWith('chain-mcp-memory ')) waiting.shift()?.(JSON.parse(line.slice(17)) as NodeJS.MemoryUsage);
      nl = stderr.indexOf('\n');
    }
  });
  const client = new Client({ name: 'load', version: '0' });
  await client.connect(transport);
  const pid = transport.pid;
  if (pid === null) throw new Error('the server process has no pid');
  return {
    client,
    pid,
    memoryAfterGc: () => {
      if (!opts.probe) return Promise.reject(new Error('start the session with probe: true'));
      const answer = new Promise<NodeJS.MemoryUsage>((resolve) => waiting.push(resolve));
      process.kill(pid, 'SIGUSR2');
      return answer;
    },
    close: () => client.close(),
  };
}

/** Info calls with answers fixed by the devnet state: cheap, deterministic, checkable. */
export function infoCalls(devnet: Devnet): LoadCall[] {
  const s = devnet.state;
  return [
    { name: 'info_getNetworkID', args: {}, expect: { networkID: String(s.networkID), network: 'local' } },
    { name: 'info_getNodeID', args: {}, expect: { nodeID: s.nodeID } },
    { name: 'info_getBlockchainID', args: { alias: 'X' }, expect: { alias: 'X', blockchainID: s.chains.X } },
    { name: 'info_getBlockchainID', args: { alias: 'P' }, expect: { alias: 'P', blockchainID: s.chains.P } },
    { name: 'info_isBootstrapped', args: { chain: 'C' }, expect: { chain: 'C', isBootstrapped: true } },
    { name: 'info_getNodeIP', args: {}, expect: { ip: s.nodeIP } },
  ];
}

export interface LeakReport {
  warmCalls: number;
  totalCalls: number;
  /** Server RSS as sampled, without forcing a collection (how lazily V8 collects). */
  rssAfterWarm: number;
  rssAfterTotal: number;
  /** Server RSS and heap right after a forced full collection: what is really kept. */
  gcRssAfterWarm: number;
  gcRssAfterTotal: number;
  heapAfterWarm: number;
  heapAfterTotal: number;
  peak: number;
  errors: number;
  p50: number;
  p99: number;
}

/** Calls over one stdio session at 50 concurrent; memory after `warm` calls vs after `total`. */
export async function leakCheck(total = 20_000, warm = 2_000, concurrency = 50): Promise<LeakReport> {
  const devnet = await startDevnet();
  const session = await stdioSession({ CHAIN_MCP_NODE_URL: devnet.nodeUrl }, { probe: true });
  try {
    const calls = infoCalls(devnet);
    const one = async (i: number) => {
      const call = calls[i % calls.length]!;
      checkAnswer(call, await session.client.callTool({ name: call.name, arguments: call.args }));
    };
    const first = await drive(warm, concurrency, one);
    const rssAfterWarm = memoryOf(session.pid).rss;
    const warmGc = await session.memoryAfterGc();
    const rest = await drive(total - warm, concurrency, one);
    const after = memoryOf(session.pid);
    const totalGc = await session.memoryAfterGc();
    const latencies = [...first.latencies, ...rest.latencies];
    return {
      warmCalls: warm,
      totalCalls: total,
      rssAfterWarm,
      rssAfterTotal: after.rss,
      gcRssAfterWarm: warmGc.rss,
      gcRssAfterTotal: totalGc.rss,
      heapAfterWarm: warmGc.heapUsed,
      heapAfterTotal: totalGc.heapUsed,
      peak: after.peak,
      errors: first.errors.length + rest.errors.length,
      p50: median(latencies),
      p99: percentile(latencies, 99),
    };
  } finally {
    await session.close();
    await devnet.close();
  }
}

const MB = 1024 * 1024;

const mb = (bytes: number) => `${(bytes / MB).toFixed(1)} MB`;
const delta = (a: number, b: number) => `${b - a >= 0 ? '+' : ''}${mb(b - a)}`;

export function describeLeak(r: LeakReport): string {
  return [
    `${r.totalCalls} calls (50 concurrent, one stdio session): errors ${r.errors}, p50 ${r.p50.toFixed(2)} ms, p99 ${r.p99.toFixed(2)} ms`,
    `server after a forced GC: RSS ${mb(r.gcRssAfterWarm)} after ${r.warmCalls}, ${mb(r.gcRssAfterTotal)} after ${r.totalCalls} (${delta(r.gcRssAfterWarm, r.gcRssAfterTotal)}); heap ${mb(r.heapAfterWarm)} -> ${mb(r.heapAfterTotal)} (${delta(r.heapAfterWarm, r.heapAfterTotal)})`,
    `server RSS as sampled (lazy GC): ${mb(r.rssAfterWarm)} -> ${mb(r.rssAfterTotal)}; peak ${mb(r.peak)}`,
  ].join('\n');
}

/**
 * No leak: after a forced full collection, the memory the server keeps (V8 heap in use) after
 * `total` calls is within 20 MB of after `warm`. RSS after the collection is reported beside
 * it; it also holds pages V8 keeps for its young generation, which a busier run enlarges.
 */
export const leakFree = (r: LeakReport) => r.errors === 0 && r.heapAfterTotal - r.heapAfterWarm <= 20 * MB;

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const total = Number(process.argv[2] ?? 20_000);
  leakCheck(total).then(
    (r) => {
      console.log(describeLeak(r));
      console.log(leakFree(r) ? 'no leak: heap after a forced GC within 20 MB' : 'LEAK: more than 20 MB kept, or errors');
      process.exit(leakFree(r) ? 0 : 1);
    },
    (err: unknown) => {
      console.error(err);
      process.exit(1);
    },
  );
}
