import { randomBytes } from 'node:crypto';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { startDevnet } from '../../src/devnet/index.js';
import { drive, MAIN, median, percentile, stdioSession } from '../load.js';
import { launchReplica, type Replica, stopReplica } from '../replica.js';
import { startIssuer } from '../test-issuer.js';

const PUBLIC_URL = 'https://chain.example.test/mcp';

function table(headers: string[], rows: Array<Array<string | number>>): string {
  return [`| ${headers.join(' | ')} |`, `|${headers.map(() => '---').join('|')}|`, ...rows.map((r) => `| ${r.join(' | ')} |`)].join('\n');
}

interface Row {
  transport: string;
  latencies: number[];
  elapsedMs: number;
  errors: number;
}

/**
 * Issue 41's table, side by side in one run, measured from outside one process each: `clients`
 * concurrent clients calling `info_getNodeID` against the simulator on loopback, over stdio (one
 * session: one pipe), `--http` with a bearer token (a 2025-11-25 session per client), the same
 * endpoint to 2026-07-28 clients (stateless: a server per request), and `--http` under OAuth
 * (stateless for both eras, every request's JWT verified), 2025-11-25 and 2026-07-28 clients. The
 * five run interleaved in blocks, all servers up at once, so that each sees the same machine load.
 */
export async function benchTransports(opts: { clients?: number; calls?: number; blocks?: number } = {}): Promise<string> {
  const clients = opts.clients ?? 12;
  const blocks = opts.blocks ?? 10;
  const perBlock = Math.round((opts.calls ?? 3000) / blocks);
  const [devnet, issuer] = await Promise.all([startDevnet(), startIssuer()]);
  const open: Client[] = [];
  const started: Replica[] = [];
  const base = { CHAIN_MCP_NODE_URL: devnet.nodeUrl, CHAIN_MCP_LOG_LEVEL: 'info', CHAIN_MCP_STATE: 'memory' };
  const read = (pick: (i: number) => Client) => async (i: number) => {
    const r = await pick(i).callTool({ name: 'info_getNodeID', arguments: {} });
    if (r.isError) throw new Error(JSON.stringify(r.content));
  };
  const connect = async (port: number, modern: boolean, headers: Record<string, string>) => {
    const client = new Client({ name: 'bench', version: '0' }, modern ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {});
    await client.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`), { requestInit: { headers } }));
    open.push(client);
    return client;
  };
  const many = (make: (i: number) => Promise<Client>) => Promise.all(Array.from({ length: clients }, (_, i) => make(i)));
  const stdio = await stdioSession({ CHAIN_MCP_NODE_URL: devnet.nodeUrl });
  const rows: Row[] = [];
  try {
    const token = randomBytes(16).toString('hex');
    const local = await launchReplica(MAIN, 'bearer', { ...base, CHAIN_MCP_HTTP_TOKEN: token });
    started.push(local);
    const oauth = await launchReplica(MAIN, 'oauth', { ...base, CHAIN_MCP_OAUTH_ISSUER: issuer.issuer, CHAIN_MCP_PUBLIC_URL: PUBLIC_URL, CHAIN_MCP_RATE_LIMIT: '1000000/min' });
    started.push(oauth);
    const auth = { authorization: `Bearer ${token}` };
    const user = async (i: number) => ({ authorization: `Bearer ${await issuer.mint({ sub: `bench-${i}`, scope: 'chain:read', aud: PUBLIC_URL, expiresIn: 3600 })}` });
    const sessions = await many(() => connect(local.port, false, auth));
    const modern = await many(() => connect(local.port, true, auth));
    const legacyUsers = await many(async (i) => connect(oauth.port, false, await user(i)));
    const modernUsers = await many(async (i) => connect(oauth.port, true, await user(i)));
    const runs: Array<[string, (i: number) => Promise<void>]> = [
      ['stdio, one session (2025-11-25)', read(() => stdio.client)],
      ['--http, bearer token: a session per client (2025-11-25)', read((i) => sessions[i % clients]!)],
      ['--http, bearer token: stateless, a server per request (2026-07-28)', read((i) => modern[i % clients]!)],
      ['--http under OAuth: stateless (2025-11-25)', read((i) => legacyUsers[i % clients]!)],
      ['--http under OAuth: stateless (2026-07-28)', read((i) => modernUsers[i % clients]!)],
    ];
    for (const [transport, one] of runs) {
      await drive(clients * 20, clients, one);
      rows.push({ transport, latencies: [], elapsedMs: 0, errors: 0 });
    }
    for (let block = 0; block < blocks; block++) {
      for (const [n, [, one]] of runs.entries()) {
        const run = await drive(perBlock, clients, one);
        const row = rows[n]!;
        row.latencies.push(...run.latencies);
        row.elapsedMs += run.elapsedMs;
        row.errors += run.errors.length;
      }
    }
  } finally {
    await Promise.all(open.map((c) => c.close().catch(() => undefined)));
    await stdio.close();
    for (const r of started) await stopReplica(r);
    await Promise.all([issuer.close(), devnet.close()]);
  }
  const perSecond = (r: Row) => (r.latencies.length / r.elapsedMs) * 1000;
  const stdioRate = perSecond(rows[0]!);
  return [
    `${clients} concurrent clients per transport, ${blocks} blocks of ${perBlock} calls of info_getNodeID each, the five interleaved; one chain-mcp process per transport, simulator node on loopback.`,
    '',
    table(
      ['transport', 'calls/s', 'median latency', 'p99 latency', 'vs stdio', 'errors'],
      rows.map((r) => [r.transport, perSecond(r).toFixed(0), `${median(r.latencies).toFixed(1)} ms`, `${percentile(r.latencies, 99).toFixed(1)} ms`, `${(perSecond(r) / stdioRate).toFixed(2)}×`, r.errors]),
    ),
  ].join('\n');
}
