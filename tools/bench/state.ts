import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { InMemoryTransport } from '@modelcontextprotocol/client';
import { type StateSetting, loadConfig } from '../../src/config.js';
import { startDevnet } from '../../src/devnet/index.js';
import { silentLogger } from '../../src/log.js';
import { buildServer, createServices } from '../../src/server.js';
import { openStateStore } from '../../src/state/open.js';
import type { StateStore } from '../../src/state/store.js';
import { median, percentile } from '../load.js';
import { startPostgres } from '../postgres.js';

const KEY = 'be'.repeat(32);

interface Lane {
  label: string;
  spend(): Promise<number>;
  close(): Promise<void>;
  /** Per store operation: the time of each call and the round trips to the database it made. */
  steps: Map<string, { ms: number[]; trips: number[] }>;
  /** Whether the store's measurements are being recorded (after the warm-up). */
  recording: { on: boolean };
}

/** Counts the statements a PostgreSQL pool sends: every client it hands out, also to `pool.query`. */
function countRoundTrips(store: StateStore): { n: number } | undefined {
  const pool = (store as { pool?: { connect: (...a: unknown[]) => unknown } }).pool;
  if (store.kind !== 'postgres' || !pool) return undefined;
  const trips = { n: 0 };
  const seen = new WeakSet<object>();
  const wrap = <C extends { query: (...a: unknown[]) => unknown }>(client: C): C => {
    if (client && !seen.has(client)) {
      seen.add(client);
      const query = client.query.bind(client);
      client.query = (...a: unknown[]) => {
        trips.n++;
        return query(...a);
      };
    }
    return client;
  };
  const connect = pool.connect.bind(pool);
  // pg's Pool.query takes its client through connect(callback); a spend's transaction through connect().
  pool.connect = (...a: unknown[]) => {
    const cb = a[0] as ((err: unknown, client: never, done: unknown) => void) | undefined;
    if (typeof cb === 'function') return connect((err: unknown, client: never, done: unknown) => cb(err, client && wrap(client), done));
    return (connect() as Promise<never>).then(wrap);
  };
  return trips;
}

/** The store with each operation timed (and its round trips counted) while `recording.on`. */
function instrument(store: StateStore, steps: Lane['steps'], recording: Lane['recording']): StateStore {
  const trips = countRoundTrips(store);
  return new Proxy(store, {
    get(target, prop) {
      const value = Reflect.get(target, prop, target) as unknown;
      if (typeof value !== 'function') return value;
      if (typeof prop !== 'string' || prop === 'close') return value.bind(target);
      return async (...args: unknown[]) => {
        const t0 = performance.now();
        const n0 = trips?.n ?? 0;
        try {
          return await (value as (...a: unknown[]) => Promise<unknown>).apply(target, args);
        } finally {
          if (recording.on) {
            const step = steps.get(prop) ?? { ms: [], trips: [] };
            step.ms.push(performance.now() - t0);
            step.trips.push((trips?.n ?? 0) - n0);
            steps.set(prop, step);
          }
        }
      };
    },
  });
}

/**
 * One server on the simulator with its state in `setting`, and a client that plays the human
 * (form elicitation, always yes): a spend is a preview and a confirm under
 * CHAIN_MCP_APPROVAL=human with a daily limit, so it does every store operation a real spend
 * does (confirmation id, approval put, decide, read, take, delete, the daily total's reserve).
 */
async function lane(label: string, setting: StateSetting, devnet: Awaited<ReturnType<typeof startDevnet>>, to: string): Promise<Lane> {
  const env = {
    CHAIN_MCP_NODE_URL: devnet.nodeUrl,
    CHAIN_MCP_ALLOW_SPEND: 'true',
    CHAIN_MCP_KEYSTORE_USER: devnet.keystore.username,
    CHAIN_MCP_KEYSTORE_PASSWORD: devnet.keystore.password,
    CHAIN_MCP_MAX_SPEND_PER_DAY: String(2n ** 63n),
    CHAIN_MCP_LOG_LEVEL: 'silent',
    CHAIN_MCP_STATE: setting.kind === 'memory' ? 'memory' : setting.kind === 'sqlite' ? `sqlite:${setting.file}` : setting.url,
    CHAIN_MCP_STATE_KEY: KEY,
  };
  const config = loadConfig(env);
  const log = silentLogger();
  const steps: Lane['steps'] = new Map();
  const recording = { on: false };
  const opened = await openStateStore(config.state, log);
  const state = instrument(opened, steps, recording);
  const services = createServices(config, log, undefined, state);
  const { mcp } = buildServer({ config, log, services });
  const client = new Client({ name: 'bench-human', version: '0' }, { capabilities: { elicitation: {} } });
  client.setRequestHandler('elicitation/create', async () => ({ action: 'accept', content: { approve: true } }));
  const [a, b] = InMemoryTransport.createLinkedPair();
  await mcp.connect(b);
  await client.connect(a);
  const args = { amount: '1000', assetID: 'CAM', to };
  return {
    label,
    steps,
    recording,
    spend: async () => {
      const started = performance.now();
      const preview = await client.callTool({ name: 'xvm_send', arguments: args });
      const id = (preview.structuredContent as { confirmationId?: string } | undefined)?.confirmationId;
      if (!id) throw new Error(`${label}: no preview: ${JSON.stringify(preview.content)}`);
      const sent = await client.callTool({ name: 'xvm_send', arguments: { ...args, confirm: id } });
      if ((sent.structuredContent as { status?: string } | undefined)?.status !== 'issued') throw new Error(`${label}: not issued: ${JSON.stringify(sent.content)}`);
      return performance.now() - started;
    },
    close: async () => {
      await client.close();
      await mcp.close();
      await services.close();
    },
  };
}

/**
 * The latency a shared store adds per spend: the same spends through memory, a SQLite file and
 * a PostgreSQL on loopback, taken in turns (one spend each, round after round) so the machine's
 * load falls on every lane alike.
 */
export async function benchStateStore(rounds = 40): Promise<string> {
  const devnet = await startDevnet();
  // fsync on, as a real server runs: the SQLite lane syncs its reservation too.
  const postgres = await startPostgres({ durable: true });
  const dir = mkdtempSync(join(tmpdir(), 'chain-mcp-bench-state-'));
  const to = devnet.state.users.get('alice')!.keys[1]!.x;
  const lanes: Lane[] = [];
  try {
    lanes.push(await lane('memory', { kind: 'memory' }, devnet, to));
    lanes.push(await lane('SQLite file', { kind: 'sqlite', file: join(dir, 'state.db') }, devnet, to));
    lanes.push(await lane(`PostgreSQL (${postgres.how}, loopback)`, { kind: 'postgres', url: postgres.url }, devnet, to));
    // Warm-up: first calls load the catalogue, the call path and the connections.
    for (const l of lanes) for (let i = 0; i < 3; i++) await l.spend();
    const times = lanes.map(() => [] as number[]);
    for (const l of lanes) l.recording.on = true;
    for (let r = 0; r < rounds; r++) for (const [i, l] of lanes.entries()) times[i]!.push(await l.spend());
    const base = median(times[0]!);
    const rows = lanes.map((l, i) => {
      const m = median(times[i]!);
      return `| ${l.label} | ${m.toFixed(2)} ms | ${percentile(times[i]!, 90).toFixed(2)} ms | ${i === 0 ? '' : `+${(m - base).toFixed(2)} ms`} | ${(m / base).toFixed(2)}× |`;
    });
    return [
      `${rounds} spends per store (xvm_send preview + confirm, human approval by form elicitation, a daily limit), taken in turns:`,
      '',
      '| state store | median per spend | p90 | added vs memory | ratio |',
      '|---|---|---|---|---|',
      ...rows,
      '',
      stepTable(lanes, rounds),
    ].join('\n');
  } finally {
    for (const l of lanes) await l.close().catch(() => undefined);
    await postgres.stop();
    await devnet.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Each store operation of a spend, side by side: how often a spend calls it, the median time of
 * one call in each store, and the statements one call sends to PostgreSQL (each one round trip).
 */
function stepTable(lanes: Lane[], rounds: number): string {
  const pg = lanes[lanes.length - 1]!;
  const names = [...pg.steps.keys()];
  const cell = (l: Lane, name: string) => {
    const ms = l.steps.get(name)?.ms;
    return ms?.length ? `${median(ms).toFixed(2)} ms` : '';
  };
  const rows = names.map((name) => {
    const step = pg.steps.get(name)!;
    const trips = [...new Set(step.trips)].sort((a, b) => a - b).join(' or ');
    const added = median(step.ms) - median(lanes[0]!.steps.get(name)?.ms ?? [0]);
    return `| ${name} | ${(step.ms.length / rounds).toFixed(1)} | ${lanes.map((l) => cell(l, name)).join(' | ')} | +${added.toFixed(2)} ms | ${trips} |`;
  });
  const total = (l: Lane) => [...l.steps.values()].reduce((sum, s) => sum + s.ms.reduce((a, b) => a + b, 0), 0) / rounds;
  return [
    'Per store operation (the steps of one spend; PostgreSQL statements counted at the pool):',
    '',
    `| operation | calls per spend | ${lanes.map((l) => `median, ${l.label}`).join(' | ')} | PostgreSQL added per call | PostgreSQL round trips per call |`,
    `|---|---|${lanes.map(() => '---').join('|')}|---|---|`,
    ...rows,
    `| all store work of one spend (mean) | | ${lanes.map((l) => `${total(l).toFixed(2)} ms`).join(' | ')} | +${(total(pg) - total(lanes[0]!)).toFixed(2)} ms | |`,
  ].join('\n');
}
