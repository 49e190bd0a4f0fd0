import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { availableParallelism, cpus, tmpdir, totalmem } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/client';
import { InMemoryTransport } from '@modelcontextprotocol/client';
import { Server } from '@modelcontextprotocol/server';
import { Agent, request } from 'undici';
import { loadConfig } from '../../src/config.js';
import { silentLogger } from '../../src/log.js';
import { buildServer } from '../../src/server.js';
import { type Devnet, startDevnet } from '../../src/devnet/index.js';
import { addManyUtxos, addManyValidators, addressFor, fund } from '../../src/devnet/state/index.js';
import { evalTotals } from '../eval/doc.js';
import { runEval } from '../eval/run.js';
import { bundle } from '../bundle.js';
import { startFaultProxy } from '../fault-proxy.js';
import { benchStateStore } from './state.js';
import { SQLITE_NODE_VERSION, sqliteNode, thisNodeHasSqlite } from '../sqlite-node.js';
import { benchReplicas } from './replicas.js';
import { benchTransports } from './transports.js';
import { describeLeak, drive, leakCheck, leakFree, MAIN, median, percentile, stdioSession } from '../load.js';
import { startReads } from './start-reads.js';

/**
 * `npm run bench`: measurements, printed as Markdown tables (not assertions). Numbers depend
 * on the machine and its load; the machine is printed with them. docs/benchmarks.md keeps a run.
 */

const MINIMAL = fileURLToPath(new URL('./minimal-server.js', import.meta.url));
const KB = 1024;
const MB = 1024 * 1024;
const ms = (v: number) => `${v.toFixed(2)} ms`;
const kb = (bytes: number) => `${(bytes / KB).toFixed(1)} KB`;

function table(headers: string[], rows: Array<Array<string | number>>): string {
  return [`| ${headers.join(' | ')} |`, `|${headers.map(() => '---').join('|')}|`, ...rows.map((r) => `| ${r.join(' | ')} |`)].join('\n');
}

/**
 * CPU time a process has used so far, in milliseconds (Linux /proc): the time on a CPU of each of
 * its threads in nanoseconds (schedstat), or where the kernel has no schedstat, user + system time
 * in 10 ms ticks (stat), too coarse to tell a start of 150 ms from one of 160 ms.
 */
function cpuMs(pid: number | undefined): number {
  if (pid === undefined) return Number.NaN;
  try {
    let ns = 0;
    for (const task of readdirSync(`/proc/${pid}/task`)) ns += Number(readFileSync(`/proc/${pid}/task/${task}/schedstat`, 'utf8').split(' ')[0]);
    return ns / 1e6;
  } catch {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  }
}

/** Spawn to the initialize answer on stdout, in milliseconds; with `cpu`, the process's CPU time to that answer. */
function coldStart(script: string, env: Record<string, string>, cpu?: number[]): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, [script], { env: { PATH: process.env.PATH ?? '', ...env }, stdio: ['pipe', 'pipe', 'ignore'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
      if (out.includes('"id":1') && out.includes('\n')) {
        const elapsed = performance.now() - started;
        cpu?.push(cpuMs(child.pid));
        child.kill('SIGKILL');
        resolve(elapsed);
      }
    });
    child.on('error', reject);
    child.stdin.write(
      `${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bench', version: '0' } } })}\n`,
    );
  });
}

/** The minimal server bundled the way the bin is (tools/bundle.ts: an ESM entry and its chunks). */
async function bundles(): Promise<{ minimal: string; dir: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'chain-mcp-bench-'));
  const root = fileURLToPath(new URL('../../..', import.meta.url));
  const minimal = join(dir, 'minimal.mjs');
  await bundle(join(root, 'tools/bench/minimal-server.ts'), minimal);
  return { minimal, dir };
}

/** The shipped bin: dist/chain-mcp.js and its chunks, the build `npm run build` writes (tools/bundle.ts). */
const BIN = fileURLToPath(new URL('../../chain-mcp.js', import.meta.url));
const PROBE = fileURLToPath(new URL('./start-probe.js', import.meta.url));

/** Medians of a few in-process probes of the tsc output: where the start goes. */
async function startBreakdown(): Promise<string> {
  const runs: Array<Record<string, number>> = [];
  for (let i = 0; i < 5; i++) {
    const line = await new Promise<string>((resolve, reject) => {
      const child = spawn(process.execPath, [PROBE], { stdio: ['ignore', 'pipe', 'ignore'] });
      let out = '';
      child.stdout.on('data', (c: Buffer) => {
        out += c.toString('utf8');
      });
      child.on('error', reject);
      child.on('close', () => resolve(out));
    });
    runs.push(JSON.parse(line) as Record<string, number>);
  }
  const med = (k: string) => ms(median(runs.map((r) => r[k]!)));
  return table(
    ['part of the start (tsc output, median of 5)', 'time'],
    [
      ['Node itself, to the first line of the entry', med('node')],
      ['loading the modules needed to answer initialize (config, log, server, SDK)', med('modules')],
      ['building the server (config, services, handlers)', med('build')],
      ['after initialize: loading the tools/call pipeline (validation, summaries, budget)', med('callPath')],
      [`after initialize: loading the catalogue (${runs[0]!.tools} tools)`, med('catalogue')],
      ['after initialize: every tool\'s listed JSON Schema', med('schemas')],
    ],
  );
}

/** Starts of each server in the cold start table: a start is short, and the load of a shared machine swings it. */
const COLD_RUNS = 20;

/** What the bin reads to answer initialize (an ESM load hook, tools/bench/start-reads.ts), against all it ships. */
async function binReads(env: Record<string, string>): Promise<string> {
  const reads = await startReads(BIN, env);
  const chunks = join(dirname(BIN), 'chunks');
  const shipped = [BIN, ...readdirSync(chunks).map((f) => join(chunks, f))];
  const bytes = (files: string[]) => files.reduce((sum, f) => sum + statSync(f).size, 0);
  return table(
    ['the bin\'s start (stdio, read-only), to the initialize answer', 'value'],
    [
      ['files read (the entry and its chunks)', `${reads.files.length} of ${shipped.length}`],
      ["bytes read", `${(bytes(reads.files) / 1e6).toFixed(2)} MB of ${(bytes(shipped) / 1e6).toFixed(2)} MB`],
      ["Node's modules named by its ES imports (not by require() inside bundled CommonJS packages)", reads.builtins.map((b) => b.replace('node:', '')).sort().join(', ')],
    ],
  );
}

async function benchColdStart(devnet: Devnet): Promise<string> {
  const env = { CHAIN_MCP_NODE_URL: devnet.nodeUrl, CHAIN_MCP_LOG_LEVEL: 'silent' };
  const bundled = await bundles();
  const variants: Array<[string, string, Record<string, string>]> = [
    ['chain-mcp, bin (dist/chain-mcp.js and its chunks)', BIN, env],
    ['minimal SDK server, dist', MINIMAL, {}],
    ['chain-mcp, tsc output (dist/src/main.js, many modules)', MAIN, env],
    ['minimal SDK server, bundled the same way', bundled.minimal, {}],
  ];
  const times = variants.map(() => [] as number[]);
  const cpu = variants.map(() => [] as number[]);
  try {
    // Alternate so all see the same machine state; one unmeasured warm-up each (disk cache).
    for (const [, script, e] of variants) await coldStart(script, e);
    for (let i = 0; i < COLD_RUNS; i++) {
      for (const [k, [, script, e]] of variants.entries()) times[k]!.push(await coldStart(script, e, cpu[k]));
    }
  } finally {
    rmSync(bundled.dir, { recursive: true, force: true });
  }
  const m = times.map((t) => median(t));
  // CPU time moves less than the wall clock when other work shares the machine.
  const c = cpu.map((t) => median(t));
  const ratio = (a: number, b: number) => `${(m[a]! / m[b]!).toFixed(2)}x`;
  const cpuRatio = (a: number, b: number) => `${(c[a]! / c[b]!).toFixed(2)}x`;
  return [
    table(
      ['server', `spawn to initialize answer, median of ${COLD_RUNS}`, 'min', 'max', 'its CPU time to the answer (all threads), median'],
      [
        ...variants.map(([label], k) => [label, ms(m[k]!), ms(Math.min(...times[k]!)), ms(Math.max(...times[k]!)), `${c[k]!.toFixed(0)} ms`]),
        ['ratio, bin vs minimal dist', ratio(0, 1), '', '', cpuRatio(0, 1)],
        ['ratio, tsc output vs minimal dist', ratio(2, 1), '', '', cpuRatio(2, 1)],
        ['ratio, bin vs minimal bundle (issue 41: at most 1.25x)', ratio(0, 3), '', '', cpuRatio(0, 3)],
      ],
    ),
    '',
    await binReads(env),
    '',
    await startBreakdown(),
  ].join('\n');
}

const SIGNER_PROBE = fileURLToPath(new URL('./signer-probe.js', import.meta.url));

/** One run of tools/bench/signer-probe.ts in a fresh process: its JSON line. */
function signerProbe(mode: 'load' | 'work'): Promise<Record<string, number>> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [SIGNER_PROBE, mode], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (c: Buffer) => {
      out += c.toString('utf8');
    });
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve(JSON.parse(out) as Record<string, number>) : reject(new Error(`signer probe ${mode} exited ${code}`))));
  });
}

/**
 * The local signer, side by side in one run: the bin's cold start without and with a key file
 * configured (the signing libraries must not load at start), the first spend's library load in a
 * fresh process, and the signer's own work per spend (build, decode, sign) after the first.
 */
async function benchSigner(devnet: Devnet): Promise<string> {
  const { writeKeyFile } = await import('../../src/signer/keyfile.js');
  const dir = mkdtempSync(join(tmpdir(), 'chain-mcp-bench-key-'));
  try {
    const keyFile = join(dir, 'key.json');
    await writeKeyFile(keyFile, devnet.localKey.privateKey, 'bench passphrase only', { N: 2 ** 12, r: 8, p: 1 });
    const plain = { CHAIN_MCP_NODE_URL: devnet.nodeUrl, CHAIN_MCP_LOG_LEVEL: 'silent' };
    const local = { ...plain, CHAIN_MCP_SIGNER: 'local', CHAIN_MCP_KEY_FILE: keyFile, CHAIN_MCP_ALLOW_SPEND: 'true' };
    const cold = { plain: [] as number[], local: [] as number[] };
    await coldStart(BIN, plain);
    for (let i = 0; i < 10; i++) {
      cold.plain.push(await coldStart(BIN, plain));
      cold.local.push(await coldStart(BIN, local));
    }
    const loads: number[] = [];
    const parts: Array<Record<string, number>> = [];
    for (let i = 0; i < 5; i++) {
      const r = await signerProbe('load');
      loads.push(r.loadMs!);
      parts.push(r);
    }
    const mid = parts[loads.indexOf(median(loads))] ?? parts[0]!;
    const work = await signerProbe('work');
    return table(
      ['measure', 'value', 'goal'],
      [
        ['cold start, bin, no signer (spawn to initialize answer, median of 10)', ms(median(cold.plain)), ''],
        ['cold start, bin, local signer with its key file (median of 10)', ms(median(cold.local)), 'no growth: the signing code loads only when a spend is built'],
        [
          "first X/P/C spend's library load (fresh process after the server and catalogue, median of 5; tsc output)",
          `${ms(median(loads))} (builders and codec ${ms(mid.buildAndCodecMs!)}, curve ${ms(mid.curveMs!)})`,
          'at most 150 ms',
        ],
        ['and the EVM transaction codec, loaded by the first EVM send only', ms(mid.evmMs!), ''],
        [`signer's work, first spend (build from ${work.utxos} UTXOs, decode, sign)`, ms(work.firstMs!), ''],
        ["signer's work per spend after the first, median (p95) of 200", `${ms(work.medianMs!)} (${ms(work.p95Ms!)})`, 'at most 20 ms'],
      ],
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function benchCalls(devnet: Devnet): Promise<string[]> {
  const session = await stdioSession({ CHAIN_MCP_NODE_URL: devnet.nodeUrl });
  const agent = new Agent({ keepAliveTimeout: 10_000 });
  try {
    const tool = async () => {
      await session.client.callTool({ name: 'info_getNodeID', arguments: {} });
    };
    const direct = async () => {
      const res = await request(`${devnet.nodeUrl}/ext/info`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'info.getNodeID', params: {} }),
        dispatcher: agent,
      });
      await res.body.text();
    };
    await drive(300, 1, tool);
    await drive(300, 1, direct);
    const viaTool = await drive(2000, 1, tool);
    const viaHttp = await drive(2000, 1, direct);
    const inProcess = await inProcessCalls(devnet);
    const overhead = table(
      ['2,000 sequential calls', 'median', 'p99'],
      [
        ['tools/call info_getNodeID over stdio, end to end', ms(median(viaTool.latencies)), ms(percentile(viaTool.latencies, 99))],
        ['direct HTTP info.getNodeID to the same devnet', ms(median(viaHttp.latencies)), ms(percentile(viaHttp.latencies, 99))],
        [
          'overhead over stdio (difference; target under 1 ms median)',
          ms(median(viaTool.latencies) - median(viaHttp.latencies)),
          ms(percentile(viaTool.latencies, 99) - percentile(viaHttp.latencies, 99)),
        ],
        ['tools/call in one process (InMemoryTransport), end to end', ms(median(inProcess.tool)), ms(percentile(inProcess.tool, 99))],
        ['the same server\'s own JSON-RPC client, same method, same process', ms(median(inProcess.rpc)), ms(percentile(inProcess.rpc, 99))],
        [
          'overhead in process (MCP framing, validation, decode, summary; issue 41: at most 0.15 ms median)',
          ms(median(inProcess.tool) - median(inProcess.rpc)),
          ms(percentile(inProcess.tool, 99) - percentile(inProcess.rpc, 99)),
        ],
        ['the same request through a bare SDK server (one handler), same process', ms(median(inProcess.bare)), ms(percentile(inProcess.bare, 99))],
        ['of the overhead, the SDK alone (bare server minus the JSON-RPC client)', ms(median(inProcess.bare) - median(inProcess.rpc)), ''],
        ['of the overhead, chain-mcp itself (tool call minus the bare server)', ms(median(inProcess.tool) - median(inProcess.bare)), ''],
      ],
    );
    const rows: Array<Array<string | number>> = [];
    for (const concurrency of [1, 10, 50]) {
      const run = await drive(3000, concurrency, tool);
      rows.push([concurrency, Math.round((3000 / run.elapsedMs) * 1000), ms(median(run.latencies)), ms(percentile(run.latencies, 99)), run.errors.length]);
    }
    const throughput = table(['concurrent calls', 'tool calls per second', 'median latency', 'p99 latency', 'errors'], rows);
    return [overhead, throughput];
  } finally {
    await session.close();
    await agent.close();
  }
}

/**
 * Tool call vs the server's own node client, both in this process: the server's share alone. And
 * the same call through a bare SDK server (one tools/call handler that sends the same request and
 * answers text and structuredContent): what the SDK's framing and validation cost on their own.
 */
async function inProcessCalls(devnet: Devnet): Promise<{ tool: number[]; rpc: number[]; bare: number[] }> {
  const { mcp, services } = buildServer({ config: loadConfig({ CHAIN_MCP_NODE_URL: devnet.nodeUrl, CHAIN_MCP_LOG_LEVEL: 'silent' }), log: silentLogger() });
  const [a, b] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: 'bench', version: '0' });
  await mcp.connect(b);
  await client.connect(a);
  try {
    const tool = async () => {
      await client.callTool({ name: 'info_getNodeID', arguments: {} });
    };
    const rpc = async () => {
      await services.rpc('info', 'info.getNodeID', {}, {});
    };
    const bareServer = new Server({ name: 'bare', version: '0' }, { capabilities: { tools: {} } });
    bareServer.setRequestHandler('tools/call', async () => {
      const answer = (await services.rpc('info', 'info.getNodeID', {}, {})) as { nodeID: string };
      return { content: [{ type: 'text', text: `Node ID: ${answer.nodeID}` }], structuredContent: { nodeID: answer.nodeID } };
    });
    const [c, d] = InMemoryTransport.createLinkedPair();
    const bareClient = new Client({ name: 'bench', version: '0' });
    await bareServer.connect(d);
    await bareClient.connect(c);
    const bare = async () => {
      await bareClient.callTool({ name: 'info_getNodeID', arguments: {} });
    };
    try {
      await drive(300, 1, tool);
      await drive(300, 1, rpc);
      await drive(300, 1, bare);
      // Interleaved in blocks of 200, so that the three see the same machine load and the same
      // state of the JIT (whichever ran first after the warm-up would otherwise pay for its compiles).
      const out = { tool: [] as number[], rpc: [] as number[], bare: [] as number[] };
      for (let block = 0; block < 10; block++) {
        for (const [name, one] of [['tool', tool], ['rpc', rpc], ['bare', bare]] as const) out[name].push(...(await drive(200, 1, one)).latencies);
      }
      return out;
    } finally {
      await bareClient.close();
    }
  } finally {
    await client.close();
    await services.close();
  }
}

/**
 * The composites an assistant calls first, in one process against the devnet in each dialect:
 * their node reads go out side by side (a Camino node takes no JSON-RPC batch but on the EVM path).
 */
async function benchComposites(): Promise<string> {
  const rows: Array<Array<string | number>> = [];
  for (const dialect of ['spec', 'camino'] as const) {
    const devnet = await startDevnet({ dialect });
    const { mcp, services } = buildServer({
      config: loadConfig({ CHAIN_MCP_NODE_URL: devnet.nodeUrl, CHAIN_MCP_LOG_LEVEL: 'silent' }),
      log: silentLogger(),
    });
    const [a, b] = InMemoryTransport.createLinkedPair();
    const client = new Client({ name: 'bench', version: '0' });
    await mcp.connect(b);
    await client.connect(a);
    try {
      const [k0, k1] = devnet.state.users.get(devnet.state.devnetUser)!.keys;
      const validator = devnet.state.validators[0]!.nodeID;
      const calls: Array<[string, Record<string, unknown>]> = [
        ['account_overview', { addresses: [k0!.x, k1!.p, k0!.c] }],
        ['validator_lookup', { nodeID: validator }],
        ['network_overview', {}],
      ];
      for (const [name, args] of calls) {
        let failed = 0;
        const one = async () => {
          const r = await client.callTool({ name, arguments: args });
          const problems = (r.structuredContent as { problems?: unknown[] } | undefined)?.problems ?? [];
          if (r.isError || problems.length) failed++;
        };
        await drive(30, 1, one);
        const run = await drive(300, 1, one);
        rows.push([`${name} (${dialect} node)`, ms(median(run.latencies)), ms(percentile(run.latencies, 99)), failed]);
      }
    } finally {
      await client.close();
      await services.close();
      await devnet.close();
    }
  }
  return [
    table(['300 sequential composite calls, in process', 'median', 'p99', 'calls with a failed step'], rows),
    await benchSideBySide(),
  ].join('\n\n');
}

/**
 * network_overview's 11 node reads on /ext/info and /ext/P, sent as one batch per path (what the
 * spec allows) and as single requests side by side (what a Camino node takes), interleaved so
 * that both see the same machine load: on loopback to the in-process devnet (where every HTTP
 * request costs CPU on both ends), and through a proxy that holds each answer 20 ms (a node
 * across a network, where the round trip is what counts).
 */
async function benchSideBySide(): Promise<string> {
  const devnet = await startDevnet({ dialect: 'spec' });
  const proxy = await startFaultProxy(devnet.nodeUrl);
  proxy.fail({ kind: 'delay', ms: 20 });
  const reads: Array<[string, string, Record<string, unknown>]> = [
    ['/ext/info', 'info.getNetworkID', {}],
    ['/ext/info', 'info.getNetworkName', {}],
    ['/ext/info', 'info.getNodeVersion', {}],
    ['/ext/info', 'info.getTxFee', {}],
    ...(['X', 'P', 'C'] as const).map((chain): [string, string, Record<string, unknown>] => ['/ext/info', 'info.isBootstrapped', { chain }]),
    ['/ext/P', 'platform.getHeight', {}],
    ['/ext/P', 'platform.getCurrentSupply', {}],
    ['/ext/P', 'platform.getConfiguration', {}],
    ['/ext/P', 'platform.getAllDepositOffers', { timestamp: 1_700_000_000 }],
  ];
  const rows: Array<Array<string | number>> = [];
  try {
    for (const [where, url, rounds] of [
      ['loopback, in-process devnet', devnet.nodeUrl, 300],
      ['+20 ms per answer (remote node)', proxy.url, 50],
    ] as const) {
      const { services } = buildServer({ config: loadConfig({ CHAIN_MCP_NODE_URL: url, CHAIN_MCP_LOG_LEVEL: 'silent' }), log: silentLogger() });
      const opts = { retry: true };
      const paths = [...new Set(reads.map(([path]) => path))];
      const variants = {
        batched: async () => {
          await Promise.all(paths.map((path) => services.node.batch(path, reads.filter(([p]) => p === path).map(([, method, params]) => ({ method, params })), opts)));
        },
        sideBySide: async () => {
          await Promise.all(reads.map(([path, method, params]) => services.node.call({ path, method, params }, opts)));
        },
      };
      const times = { batched: [] as number[], sideBySide: [] as number[] };
      try {
        for (let i = 0; i < rounds + 10; i++) {
          for (const name of ['batched', 'sideBySide'] as const) {
            const t0 = performance.now();
            await variants[name]();
            if (i >= 10) times[name].push(performance.now() - t0);
          }
        }
      } finally {
        await services.close();
      }
      rows.push(
        [`${where}: one batch per path (${paths.length} POSTs)`, ms(median(times.batched)), ms(percentile(times.batched, 99))],
        [`${where}: single requests side by side (${reads.length} POSTs)`, ms(median(times.sideBySide)), ms(percentile(times.sideBySide, 99))],
      );
    }
  } finally {
    await proxy.close();
    await devnet.close();
  }
  return table([`network_overview's ${reads.length} node reads, rounds interleaved`, 'median', 'p99'], rows);
}

async function listBytes(env: Record<string, string>): Promise<{ bytes: number; tools: number }> {
  const { mcp, services } = buildServer({ config: loadConfig(env), log: silentLogger() });
  const [a, b] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: 'bench', version: '0' });
  await mcp.connect(b);
  await client.connect(a);
  const result = await client.listTools();
  await client.close();
  await services.close();
  return { bytes: Buffer.byteLength(JSON.stringify(result)), tools: result.tools.length };
}

async function benchToolList(devnet: Devnet): Promise<string> {
  const base = { CHAIN_MCP_NODE_URL: devnet.nodeUrl, CHAIN_MCP_LOG_LEVEL: 'silent' };
  const full = {
    ...base,
    CHAIN_MCP_INDEXER_URL: devnet.indexerUrl ?? 'http://127.0.0.1:8080',
    CHAIN_MCP_RUNNER_URL: devnet.runnerUrl ?? 'http://127.0.0.1:8081',
    CHAIN_MCP_ALLOW_SPEND: 'true',
    CHAIN_MCP_ALLOW_ADMIN: 'true',
    CHAIN_MCP_KEYSTORE_USER: devnet.keystore.username,
    CHAIN_MCP_KEYSTORE_PASSWORD: devnet.keystore.password,
  };
  const rows: Array<Array<string | number>> = [];
  for (const [label, env] of [
    ['default (read tier; no indexer URL)', base],
    // What a real user runs, and the issue-33 budget: at most 40 KB (40,000 bytes).
    ['default with node + indexer (budget 40 KB)', { ...base, CHAIN_MCP_INDEXER_URL: devnet.indexerUrl ?? 'http://127.0.0.1:8080' }],
    ['dynamic start with node + indexer (budget 5 KB)', { ...base, CHAIN_MCP_INDEXER_URL: devnet.indexerUrl ?? 'http://127.0.0.1:8080', CHAIN_MCP_DYNAMIC: 'true' }],
    ['full (all tiers + keystore + indexer + runner)', full],
    ['dynamic start (CHAIN_MCP_DYNAMIC=true, read tier)', { ...base, CHAIN_MCP_DYNAMIC: 'true' }],
    ['dynamic start, full', { ...full, CHAIN_MCP_DYNAMIC: 'true' }],
  ] as const) {
    const { bytes, tools } = await listBytes(env);
    rows.push([label, tools, kb(bytes), `~${Math.round(bytes / 4).toLocaleString('en-US')}`]);
  }
  return table(['configuration', 'tools', 'tools/list JSON', 'approx. tokens (bytes/4)'], rows);
}

async function benchOutputSize(): Promise<string> {
  const devnet = await startDevnet();
  const node = await startFaultProxy(devnet.nodeUrl);
  const indexer = devnet.indexerUrl ? await startFaultProxy(devnet.indexerUrl) : undefined;
  const { mcp, services, tools } = buildServer({
    config: loadConfig({ CHAIN_MCP_NODE_URL: node.url, ...(indexer ? { CHAIN_MCP_INDEXER_URL: indexer.url } : {}), CHAIN_MCP_LOG_LEVEL: 'silent' }),
    log: silentLogger(),
  });
  const [a, b] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: 'bench', version: '0' });
  await mcp.connect(b);
  await client.connect(a);
  const state = devnet.state;
  addManyValidators(state, Math.max(0, 1000 - state.validators.length), 2);
  const utxoOwner = addressFor(state, 'X', 'bench-utxos');
  addManyUtxos(state, 'X', utxoOwner, 5000);
  const txOwner = addressFor(state, 'X', 'bench-txs');
  for (let i = 0; i < 5000; i++) fund(state, 'X', txOwner, [BigInt(1_000 + i)]);
  const cases: Array<[string, string, Record<string, unknown>]> = [
    ['1,000 validators', 'platform_getCurrentValidators', {}],
    ['5,000 UTXOs', 'xvm_getUTXOs', { addresses: [utxoOwner], limit: 1024, fetchAll: true }],
    ['5,000 indexer transactions', 'indexer_listTransactions', { address: [txOwner], limit: 5000 }],
  ];
  const rawBytes = () => [...node.requests, ...(indexer?.requests ?? [])].reduce((sum, r) => sum + r.bytesOut, 0);
  const rows: Array<Array<string | number>> = [];
  try {
    for (const [label, name, args] of cases) {
      if (!(await tools()).some((t) => t.name === name)) {
        rows.push([label, name, 'not in this build', '', '', '']);
        continue;
      }
      // Raw bytes: every answer body the node and indexer sent for this call, at the proxies.
      const before = rawBytes();
      const result = await client.callTool({ name, arguments: args }, { timeout: 120_000 });
      const rawThisCall = rawBytes() - before;
      const text = ((result.content ?? []) as Array<{ text?: string }>).map((c) => c.text ?? '').join('\n');
      const textBytes = Buffer.byteLength(text);
      rows.push([
        label,
        name,
        result.isError ? `error: ${text.slice(0, 80)}` : kb(textBytes),
        kb(Buffer.byteLength(JSON.stringify(result.structuredContent ?? {}))),
        kb(rawThisCall),
        rawThisCall > 0 ? `${((100 * textBytes) / rawThisCall).toFixed(2)} %` : '',
      ]);
    }
  } finally {
    await client.close();
    await services.close();
    await node.close();
    await indexer?.close();
    await devnet.close();
  }
  return table(['answer', 'tool', 'summary text', 'structuredContent', 'raw node/indexer JSON', 'text / raw'], rows);
}

/** The state-store lanes, on a Node with node:sqlite: this one, else the registry's Node 24 in a child. */
async function stateStoreSection(): Promise<string> {
  if (thisNodeHasSqlite()) return benchStateStore();
  const out = execFileSync(sqliteNode(), [fileURLToPath(import.meta.url), 'state', '--bare'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  return `On Node ${SQLITE_NODE_VERSION} (this Node has no node:sqlite; tools/sqlite-node.ts):\n\n${out.trim()}`;
}

async function main(): Promise<void> {
  if (process.argv.includes('--bare')) {
    console.log(await benchStateStore());
    return;
  }
  const machine = `${availableParallelism()} CPUs (${cpus()[0]?.model ?? 'unknown'}), ${(totalmem() / 1024 ** 3).toFixed(1)} GB RAM, Node ${process.version}, ${process.platform} ${process.arch}`;
  const out: string[] = [`Machine: ${machine}`, `Run: ${new Date().toISOString()}`];
  // `npm run bench -- state`: only the state store's latency per spend.
  if (process.argv.includes('state')) {
    out.push('\n### State store: latency per spend\n', await stateStoreSection());
    console.log(out.join('\n'));
    return;
  }
  // `npm run bench -- transports`: only stdio, HTTP sessions and stateless HTTP side by side.
  if (process.argv.includes('transports')) {
    out.push('\n### Transports side by side\n', await benchTransports());
    console.log(out.join('\n'));
    return;
  }
  // `npm run bench -- replicas`: only three replicas on one PostgreSQL against one process.
  if (process.argv.includes('replicas')) {
    out.push('\n### Three replicas and one PostgreSQL against one process (OAuth)\n', await benchReplicas());
    console.log(out.join('\n'));
    return;
  }
  // `npm run bench -- composites`: only the composites' table (a quick side-by-side check).
  if (process.argv.includes('composites')) {
    out.push('\n### Composites\n', await benchComposites());
    console.log(out.join('\n'));
    return;
  }
  // `npm run bench -- calls`: only the per-call overhead and the throughput of one stdio session.
  if (process.argv.includes('calls')) {
    const devnet = await startDevnet();
    try {
      const [overhead, throughput] = await benchCalls(devnet);
      out.push('\n### Per-call overhead\n', overhead!, '\n### Throughput (one stdio session, info_getNodeID)\n', throughput!);
    } finally {
      await devnet.close();
    }
    console.log(out.join('\n'));
    return;
  }
  // `npm run bench -- signer`: only the local signer's table.
  if (process.argv.includes('signer')) {
    const devnet = await startDevnet({ dialect: 'camino' });
    try {
      out.push('\n### Local signer\n', await benchSigner(devnet));
    } finally {
      await devnet.close();
    }
    console.log(out.join('\n'));
    return;
  }
  const devnet = await startDevnet();
  try {
    console.error('bench: cold start...');
    out.push('\n### Cold start\n', await benchColdStart(devnet));
    console.error('bench: local signer...');
    out.push('\n### Local signer\n', await benchSigner(devnet));
    if (process.argv.includes('--cold')) {
      // `npm run bench -- --cold`: the start only.
      console.log(out.join('\n'));
      return;
    }
    console.error('bench: per-call overhead and throughput...');
    const [overhead, throughput] = await benchCalls(devnet);
    out.push('\n### Per-call overhead\n', overhead!, '\n### Throughput (one stdio session, info_getNodeID)\n', throughput!);
    console.error('bench: transports side by side...');
    out.push('\n### Transports side by side\n', await benchTransports());
    console.error('bench: composites...');
    out.push('\n### Composites (node reads side by side)\n', await benchComposites());
    console.error('bench: state store per spend...');
    out.push('\n### State store: latency per spend (memory, SQLite, PostgreSQL side by side)\n', await stateStoreSection());
    console.error('bench: three replicas against one process...');
    out.push('\n### Three replicas and one PostgreSQL against one process (OAuth)\n', await benchReplicas());
    console.error('bench: tools/list size...');
    out.push('\n### tools/list size\n', await benchToolList(devnet));
  } finally {
    await devnet.close();
  }
  console.error('bench: eval (everyday questions)...');
  out.push(
    '\n### Eval: everyday questions (docs/eval.md)\n',
    table(['dialect', 'answered with every fact', 'tool calls', 'bytes a model reads', 'per question'], evalTotals(await runEval())),
  );
  console.error('bench: output size...');
  out.push('\n### Output size of the largest answers\n', await benchOutputSize());
  console.error('bench: 20,000-call leak check...');
  const leak = await leakCheck(20_000);
  out.push(
    '\n### Leak check (20,000 calls, 50 concurrent, one stdio session)\n',
    describeLeak(leak)
      .split('\n')
      .map((l) => `- ${l}`)
      .join('\n'),
    `- verdict: ${leakFree(leak) ? 'no leak (heap in use after a forced GC within 20 MB)' : 'LEAK or errors'}`,
  );
  console.log(out.join('\n'));
  console.error(`bench: done (${(process.memoryUsage().rss / MB).toFixed(0)} MB RSS in the bench process)`);
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
