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
import { median, percentile } from '../load.js';
import { startPostgres } from '../postgres.js';

const KEY = 'be'.repeat(32);

interface Lane {
  label: string;
  spend(): Promise<number>;
  close(): Promise<void>;
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
  const state = await openStateStore(config.state, log);
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
    ].join('\n');
  } finally {
    for (const l of lanes) await l.close().catch(() => undefined);
    await postgres.stop();
    await devnet.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
