import { randomBytes } from 'node:crypto';
import { Client } from '@modelcontextprotocol/client';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { startDevnet } from '../../src/devnet/index.js';
import { drive, MAIN, median, percentile } from '../load.js';
import { startPostgres } from '../postgres.js';
import { launchReplica, type Replica, stopReplica } from '../replica.js';
import { startIssuer } from '../test-issuer.js';

const PUBLIC_URL = 'https://chain.example.test/mcp';

function table(headers: string[], rows: Array<Array<string | number>>): string {
  return [`| ${headers.join(' | ')} |`, `|${headers.map(() => '---').join('|')}|`, ...rows.map((r) => `| ${r.join(' | ')} |`)].join('\n');
}

/**
 * Issue 35's figure, side by side in one run: calls per second through three `--http` replicas on
 * one PostgreSQL (clients spread over them, as a proxy would) against one process with its state in
 * memory, both under OAuth (every request's JWT verified), both on the same simulator. Two loads:
 * a read (`info_getNodeID`) and a whole spend (preview, then confirm with `CHAIN_MCP_APPROVAL=confirm-id`:
 * the confirmation id, the daily reservation and its commit go through the store).
 */
export async function benchReplicas(opts: { clients?: number; reads?: number; spends?: number } = {}): Promise<string> {
  const clients = opts.clients ?? 12;
  const [devnet, issuer, pg] = await Promise.all([startDevnet(), startIssuer(), startPostgres()]);
  const started: Replica[] = [];
  const open: Client[] = [];
  try {
    const base = {
      CHAIN_MCP_NODE_URL: devnet.nodeUrl,
      CHAIN_MCP_OAUTH_ISSUER: issuer.issuer,
      CHAIN_MCP_PUBLIC_URL: PUBLIC_URL,
      CHAIN_MCP_ALLOW_SPEND: 'true',
      CHAIN_MCP_APPROVAL: 'confirm-id',
      CHAIN_MCP_KEYSTORE_USER: devnet.keystore.username,
      CHAIN_MCP_KEYSTORE_PASSWORD: devnet.keystore.password,
      // A daily limit, so every spend checks and reserves the shared total.
      CHAIN_MCP_MAX_SPEND_PER_DAY: '1000000000000000',
      CHAIN_MCP_RATE_LIMIT: '1000000/min',
      CHAIN_MCP_LOG_LEVEL: 'info',
    };
    const single = [await launchReplica(MAIN, 'one', { ...base, CHAIN_MCP_STATE: 'memory' })];
    started.push(...single);
    const shared = { ...base, CHAIN_MCP_STATE: await pg.createDatabase('bench_replicas'), CHAIN_MCP_STATE_KEY: randomBytes(32).toString('hex') };
    const three = await Promise.all([launchReplica(MAIN, 'A', shared), launchReplica(MAIN, 'B', shared), launchReplica(MAIN, 'C', shared)]);
    started.push(...three);
    const to = devnet.state.users.get('alice')!.keys[1]!.x;

    const measure = async (replicas: Replica[]) => {
      // One client per simulated user, each on its replica (round robin), each with its own token.
      const users = await Promise.all(
        Array.from({ length: clients }, async (_, i) => {
          const token = await issuer.mint({ sub: `bench-${i}`, scope: 'chain:read chain:spend', aud: PUBLIC_URL, expiresIn: 3600 });
          const client = new Client({ name: `bench-${i}`, version: '0' });
          await client.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${replicas[i % replicas.length]!.port}/mcp`), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
          open.push(client);
          return client;
        }),
      );
      const read = async (i: number) => {
        const r = await users[i % users.length]!.callTool({ name: 'info_getNodeID', arguments: {} });
        if (r.isError) throw new Error(JSON.stringify(r.content));
      };
      const spend = async (i: number) => {
        const user = users[i % users.length]!;
        const args = { amount: '1', assetID: 'CAM', to };
        const preview = await user.callTool({ name: 'xvm_send', arguments: args });
        const id = (preview.structuredContent as { confirmationId?: string } | undefined)?.confirmationId;
        if (!id) throw new Error(JSON.stringify(preview.content));
        const sent = await user.callTool({ name: 'xvm_send', arguments: { ...args, confirm: id } });
        if ((sent.structuredContent as { status?: string } | undefined)?.status !== 'issued') throw new Error(JSON.stringify(sent.content));
      };
      await drive(clients * 5, clients, read);
      const reads = await drive(opts.reads ?? 3000, clients, read);
      const spends = await drive(opts.spends ?? 300, clients, spend);
      return { reads, spends };
    };
    // Measured one after the other, so the two setups never share the CPU.
    const one = await measure(single);
    const replicated = await measure(three);
    const perSecond = (r: { latencies: number[]; elapsedMs: number }) => (r.latencies.length / r.elapsedMs) * 1000;
    const rows: Array<Array<string | number>> = [];
    for (const [load, pick] of [
      ['read (info_getNodeID)', (m: typeof one) => m.reads],
      ['spend (preview + confirm of xvm_send)', (m: typeof one) => m.spends],
    ] as const) {
      const a = pick(one);
      const b = pick(replicated);
      rows.push([
        load,
        `${perSecond(a).toFixed(0)}/s (p50 ${median(a.latencies).toFixed(1)} ms, p95 ${percentile(a.latencies, 95).toFixed(1)} ms)`,
        `${perSecond(b).toFixed(0)}/s (p50 ${median(b.latencies).toFixed(1)} ms, p95 ${percentile(b.latencies, 95).toFixed(1)} ms)`,
        (perSecond(b) / perSecond(a)).toFixed(2),
        a.errors.length + b.errors.length,
      ]);
    }
    return [
      `${clients} concurrent users (one stateless MCP client and JWT each), loopback, simulator node; ${pg.how} PostgreSQL.`,
      '',
      table(['load', 'one process, state in memory', 'three replicas, one PostgreSQL', 'ratio (three / one)', 'errors'], rows),
      '',
      'On one machine the three replicas share its CPUs with PostgreSQL and the simulator: the ratio shows what the shared store costs, not what more machines would add.',
    ].join('\n');
  } finally {
    await Promise.all(open.map((c) => c.close().catch(() => undefined)));
    for (const r of started) await stopReplica(r);
    await Promise.all([pg.stop(), issuer.close(), devnet.close()]);
  }
}
