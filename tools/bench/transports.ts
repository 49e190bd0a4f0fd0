import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Agent, request } from 'undici';
import { startDevnet } from '../../src/devnet/index.js';
import { drive, MAIN, median, percentile } from '../load.js';
import { launchReplica, type Replica, stopReplica } from '../replica.js';
import { startIssuer } from '../test-issuer.js';

const PUBLIC_URL = 'https://chain.example.test/mcp';
const MODERN = '2026-07-28';
const LEGACY = '2025-11-25';
/** The per-request envelope a 2026-07-28 client puts in every request's `_meta`. */
const ENVELOPE = {
  'io.modelcontextprotocol/protocolVersion': MODERN,
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'bench', version: '0' },
};

function table(headers: string[], rows: Array<Array<string | number>>): string {
  return [`| ${headers.join(' | ')} |`, `|${headers.map(() => '---').join('|')}|`, ...rows.map((r) => `| ${r.join(' | ')} |`)].join('\n');
}

/** CPU time a process has used so far (user + system, Linux /proc), in milliseconds. */
function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** Throws unless `message` is the answer of a successful info_getNodeID call. */
function checkAnswer(message: unknown): void {
  const result = (message as { result?: { isError?: boolean; structuredContent?: { nodeID?: unknown } } }).result;
  if (!result || result.isError || typeof result.structuredContent?.nodeID !== 'string') throw new Error(`not a node ID: ${JSON.stringify(message).slice(0, 300)}`);
}

/** The JSON-RPC message with `id` in an answer that is JSON or an event stream. */
function answerOf(text: string, contentType: string, id: number): unknown {
  if (!contentType.includes('text/event-stream')) return JSON.parse(text);
  for (const line of text.split('\n')) {
    if (!line.startsWith('data: ')) continue;
    const message = JSON.parse(line.slice(6)) as { id?: unknown };
    if (message.id === id) return message;
  }
  throw new Error(`no answer with id ${id} in the event stream`);
}

/** The SDK alone with one tool of the same name (tools/bench/bare-server.ts), the reference rows. */
const BARE = fileURLToPath(new URL('./bare-server.js', import.meta.url));

/** A stdio server driven by hand: one JSON line per request, answers matched by id. */
function rawStdio(env: Record<string, string>, main = MAIN) {
  const child = spawn(process.execPath, [main], { env: { PATH: process.env.PATH ?? '', CHAIN_MCP_LOG_LEVEL: 'silent', ...env }, stdio: ['pipe', 'pipe', 'ignore'] });
  const waiting = new Map<number, (message: unknown) => void>();
  let buffer = '';
  let next = 0;
  child.stdout.on('data', (chunk: Buffer) => {
    buffer += chunk.toString('utf8');
    for (let nl = buffer.indexOf('\n'); nl !== -1; nl = buffer.indexOf('\n')) {
      const message = JSON.parse(buffer.slice(0, nl)) as { id?: number };
      buffer = buffer.slice(nl + 1);
      if (message.id !== undefined) waiting.get(message.id)?.(message);
      if (message.id !== undefined) waiting.delete(message.id);
    }
  });
  const send = (method: string, params: unknown) =>
    new Promise<unknown>((resolve) => {
      const id = ++next;
      waiting.set(id, resolve);
      child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
    });
  return {
    child,
    async open() {
      await send('initialize', { protocolVersion: LEGACY, capabilities: {}, clientInfo: { name: 'bench', version: '0' } });
      child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
    },
    call: async () => checkAnswer(await send('tools/call', { name: 'info_getNodeID', arguments: {} })),
    close: () =>
      new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.stdin.end();
      }),
  };
}

/** HTTP POSTs of hand-built JSON-RPC messages to one endpoint, keep-alive, `clients` connections. */
function rawHttp(port: number, clients: number) {
  const agent = new Agent({ connections: clients, keepAliveTimeout: 30_000 });
  const url = `http://127.0.0.1:${port}/mcp`;
  let next = 0;
  const post = async (headers: Record<string, string>, message: Record<string, unknown>) => {
    const id = typeof message.id === 'number' ? message.id : undefined;
    const res = await request(url, {
      method: 'POST',
      dispatcher: agent,
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
      body: JSON.stringify(message),
    });
    const text = await res.body.text();
    if (res.statusCode >= 300) throw new Error(`HTTP ${res.statusCode}: ${text.slice(0, 300)}`);
    return { headers: res.headers, answer: id === undefined ? undefined : answerOf(text, String(res.headers['content-type'] ?? ''), id) };
  };
  return {
    /** A 2025-11-25 session: initialize, then initialized; the session's headers. */
    async session(auth: Record<string, string>): Promise<Record<string, string>> {
      const opened = await post(auth, { jsonrpc: '2.0', id: ++next, method: 'initialize', params: { protocolVersion: LEGACY, capabilities: {}, clientInfo: { name: 'bench', version: '0' } } });
      const headers = { ...auth, 'mcp-session-id': String(opened.headers['mcp-session-id']), 'mcp-protocol-version': LEGACY };
      await post(headers, { jsonrpc: '2.0', method: 'notifications/initialized' });
      return headers;
    },
    /** tools/call info_getNodeID as a 2025-11-25 client (in a session when `headers` carry one). */
    legacyCall: async (headers: Record<string, string>) =>
      checkAnswer((await post({ 'mcp-protocol-version': LEGACY, ...headers }, { jsonrpc: '2.0', id: ++next, method: 'tools/call', params: { name: 'info_getNodeID', arguments: {} } })).answer),
    /** The same as a 2026-07-28 client: the envelope in `_meta`, the routing headers. */
    modernCall: async (headers: Record<string, string>) =>
      checkAnswer(
        (
          await post(
            { ...headers, 'mcp-protocol-version': MODERN, 'mcp-method': 'tools/call', 'mcp-name': 'info_getNodeID' },
            { jsonrpc: '2.0', id: ++next, method: 'tools/call', params: { name: 'info_getNodeID', arguments: {}, _meta: ENVELOPE } },
          )
        ).answer,
      ),
    close: () => agent.close(),
  };
}

interface Row {
  transport: string;
  latencies: number[];
  elapsedMs: number;
  errors: number;
  /** The server process's CPU time over the measured calls. */
  cpuMs: number;
  /** This process's CPU time over them: the clients and the simulator node. */
  benchCpuMs: number;
}

/**
 * Issue 41's table, side by side in one run, measured from outside one process each: `clients`
 * concurrent clients calling `info_getNodeID` against the simulator on loopback, over stdio (one
 * session: one pipe), `--http` with a bearer token (a 2025-11-25 session per client), the same
 * endpoint to 2026-07-28 clients (stateless: a server per request), and `--http` under OAuth
 * (stateless for both eras, every request's JWT verified), 2025-11-25 and 2026-07-28 clients, then
 * the SDK alone with one tool of the same name over stdio and on its per-request entry. The
 * seven run interleaved in blocks, all servers up at once, so that each sees the same machine load.
 *
 * The clients are hand-built JSON-RPC (a line on the pipe, a POST with the headers each era
 * sends), each answer parsed and checked: an SDK client spends about 2 ms of CPU per HTTP call
 * (fetch, SSE parsing, schema checks), more than the server, and on two shared cores that
 * measured the client. The server's own CPU time per call is read from /proc for each process, and
 * this process's (the clients and the simulator node, on the same two cores) beside it.
 */
export async function benchTransports(opts: { clients?: number; calls?: number; blocks?: number } = {}): Promise<string> {
  const clients = opts.clients ?? 12;
  const blocks = opts.blocks ?? 10;
  const perBlock = Math.round((opts.calls ?? 3000) / blocks);
  const [devnet, issuer] = await Promise.all([startDevnet(), startIssuer()]);
  const started: Replica[] = [];
  const base = { CHAIN_MCP_NODE_URL: devnet.nodeUrl, CHAIN_MCP_LOG_LEVEL: 'info', CHAIN_MCP_STATE: 'memory' };
  const stdio = rawStdio({ CHAIN_MCP_NODE_URL: devnet.nodeUrl });
  const bareStdio = rawStdio({}, BARE);
  const https: Array<ReturnType<typeof rawHttp>> = [];
  const rows: Row[] = [];
  try {
    await Promise.all([stdio.open(), bareStdio.open()]);
    const token = randomBytes(16).toString('hex');
    const local = await launchReplica(MAIN, 'bearer', { ...base, CHAIN_MCP_HTTP_TOKEN: token });
    started.push(local);
    const oauth = await launchReplica(MAIN, 'oauth', { ...base, CHAIN_MCP_OAUTH_ISSUER: issuer.issuer, CHAIN_MCP_PUBLIC_URL: PUBLIC_URL, CHAIN_MCP_RATE_LIMIT: '1000000/min' });
    started.push(oauth);
    const bare = await launchReplica(BARE, 'bare', {});
    started.push(bare);
    const [bearerHttp, modernHttp, oauthHttp, bareHttp] = [rawHttp(local.port, clients), rawHttp(local.port, clients), rawHttp(oauth.port, clients), rawHttp(bare.port, clients)];
    https.push(bearerHttp, modernHttp, oauthHttp, bareHttp);
    const auth = { authorization: `Bearer ${token}` };
    const users = await Promise.all(
      Array.from({ length: clients }, async (_, i) => ({ authorization: `Bearer ${await issuer.mint({ sub: `bench-${i}`, scope: 'chain:read', aud: PUBLIC_URL, expiresIn: 3600 })}` })),
    );
    const sessions = await Promise.all(Array.from({ length: clients }, () => bearerHttp.session(auth)));
    const runs: Array<[string, number, (i: number) => Promise<void>]> = [
      [`stdio, one session (${LEGACY})`, stdio.child.pid!, () => stdio.call()],
      [`--http, bearer token: a session per client (${LEGACY})`, local.child.pid!, (i) => bearerHttp.legacyCall(sessions[i % clients]!)],
      [`--http, bearer token: stateless, a server per request (${MODERN})`, local.child.pid!, () => modernHttp.modernCall(auth)],
      [`--http under OAuth: stateless (${LEGACY})`, oauth.child.pid!, (i) => oauthHttp.legacyCall(users[i % clients]!)],
      [`--http under OAuth: stateless (${MODERN})`, oauth.child.pid!, (i) => oauthHttp.modernCall(users[i % clients]!)],
      [`the SDK alone, a fixed answer, no node: stdio (${LEGACY})`, bareStdio.child.pid!, () => bareStdio.call()],
      [`the SDK alone: its per-request entry, a server per request (${MODERN})`, bare.child.pid!, () => bareHttp.modernCall({})],
    ];
    for (const [transport, , one] of runs) {
      await drive(clients * 20, clients, one);
      rows.push({ transport, latencies: [], elapsedMs: 0, errors: 0, cpuMs: 0, benchCpuMs: 0 });
    }
    for (let block = 0; block < blocks; block++) {
      for (const [n, [, pid, one]] of runs.entries()) {
        const cpu = cpuMs(pid);
        const own = process.cpuUsage();
        const run = await drive(perBlock, clients, one);
        const spent = process.cpuUsage(own);
        const row = rows[n]!;
        row.cpuMs += cpuMs(pid) - cpu;
        row.benchCpuMs += (spent.user + spent.system) / 1000;
        row.latencies.push(...run.latencies);
        row.elapsedMs += run.elapsedMs;
        row.errors += run.errors.length;
      }
    }
  } finally {
    await Promise.all(https.map((h) => h.close()));
    await Promise.all([stdio.close(), bareStdio.close()]);
    for (const r of started) await stopReplica(r);
    await Promise.all([issuer.close(), devnet.close()]);
  }
  const perSecond = (r: Row) => (r.latencies.length / r.elapsedMs) * 1000;
  const stdioRate = perSecond(rows[0]!);
  const cpuPerCall = (r: Row) => r.cpuMs / Math.max(1, r.latencies.length);
  const entryCost = cpuPerCall(rows[6]!) - cpuPerCall(rows[5]!);
  return [
    `${clients} concurrent clients per transport, ${blocks} blocks of ${perBlock} calls of info_getNodeID each, the seven interleaved; one chain-mcp process per transport (the two bearer-token rows share one), simulator node on loopback; hand-built JSON-RPC clients, every answer checked.`,
    '',
    table(
      ['transport', 'calls/s', 'median latency', 'p99 latency', 'vs stdio', 'server CPU per call', 'clients and node CPU per call', 'errors'],
      rows.map((r) => [
        r.transport,
        perSecond(r).toFixed(0),
        `${median(r.latencies).toFixed(1)} ms`,
        `${percentile(r.latencies, 99).toFixed(1)} ms`,
        `${(perSecond(r) / stdioRate).toFixed(2)}×`,
        `${(r.cpuMs / Math.max(1, r.latencies.length)).toFixed(2)} ms`,
        `${(r.benchCpuMs / Math.max(1, r.latencies.length)).toFixed(2)} ms`,
        r.errors,
      ]),
    ),
    '',
    `The SDK's per-request entry alone (the last two rows) costs ${entryCost.toFixed(2)} ms of server CPU per call more than the same SDK server over stdio; chain-mcp over stdio costs ${cpuPerCall(rows[0]!).toFixed(2)} ms per call in all.`,
  ].join('\n');
}
