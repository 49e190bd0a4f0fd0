import { randomBytes } from 'node:crypto';
import { Client } from '@modelcontextprotocol/client';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Devnet, startDevnet } from '../../src/devnet/index.js';
import { startIssuer, type TestIssuer, testBrowser } from '../../tools/test-issuer.js';
import { startPostgres, type TestPostgres } from '../../tools/postgres.js';
import { requestsFor } from '../helpers/spend-harness.js';
import { MAIN } from '../helpers/stack.js';
import { launchReplica, type Replica, stopReplica, waitForExit } from '../../tools/replica.js';

/**
 * Issue 35's "done when": three chain-mcp processes (`--http`, dist/) on loopback ports sharing one
 * real PostgreSQL and the bundled simulator (started once, here), behind one public URL, with a
 * real token issuer on loopback minting tokens for two users. Each replica is reached directly,
 * as a load balancer would send requests anywhere.
 */
const PUBLIC_ORIGIN = 'https://chain.example.test';
const PUBLIC_URL = `${PUBLIC_ORIGIN}/mcp`;
const CAM = 1_000_000_000n;
const FEE = 1_000_000n;
// Room for three sends of 1 CAM (fees included) and a little more, never four.
const DAILY = 3n * (CAM + FEE) + 400_000_000n;

const launch = (name: string, env: Record<string, string>) => launchReplica(MAIN, name, env);

describe('three replicas, one PostgreSQL, OAuth (issue 35)', () => {
  let devnet: Devnet;
  let issuer: TestIssuer;
  let pg: TestPostgres;
  let env: Record<string, string>;
  const replicas: Replica[] = [];
  const clients: Client[] = [];
  let A: Replica;
  let B: Replica;
  let C: Replica;

  const connect = async (replica: Replica, sub: string, scope = 'chain:read chain:spend') => {
    const token = await issuer.mint({ sub, scope, aud: PUBLIC_URL });
    const client = new Client({ name: `${sub}@${replica.name}`, version: '0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${replica.port}/mcp`), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
    clients.push(client);
    return client;
  };
  const send = (client: Client, amount: bigint, confirm?: string, onprogress?: () => void) =>
    client.callTool(
      { name: 'xvm_send', arguments: { amount: amount.toString(), assetID: 'CAM', to: devnet.state.users.get('alice')!.keys[1]!.x, ...(confirm ? { confirm } : {}) } },
      onprogress ? { onprogress, resetTimeoutOnProgress: true } : undefined,
    );
  const text = (result: Awaited<ReturnType<Client['callTool']>>) => JSON.stringify(result.content);
  const preview = async (client: Client, amount: bigint) => {
    const result = await send(client, amount);
    expect(result.isError, text(result)).not.toBe(true);
    return result.structuredContent as { confirmationId: string; approvalUrl: string };
  };

  beforeAll(async () => {
    [devnet, issuer, pg] = await Promise.all([startDevnet(), startIssuer(), startPostgres()]);
    devnet.router.record = true;
    env = {
      CHAIN_MCP_NODE_URL: devnet.nodeUrl,
      CHAIN_MCP_STATE: await pg.createDatabase('replicas'),
      CHAIN_MCP_STATE_KEY: randomBytes(32).toString('hex'),
      CHAIN_MCP_OAUTH_ISSUER: issuer.issuer,
      CHAIN_MCP_PUBLIC_URL: PUBLIC_URL,
      CHAIN_MCP_OAUTH_CLIENT_ID: 'chain-mcp-approvals',
      CHAIN_MCP_ALLOW_SPEND: 'true',
      CHAIN_MCP_KEYSTORE_USER: devnet.keystore.username,
      CHAIN_MCP_KEYSTORE_PASSWORD: devnet.keystore.password,
      CHAIN_MCP_MAX_SPEND_PER_DAY: DAILY.toString(),
      CHAIN_MCP_APPROVAL_WAIT_MS: '60000',
      CHAIN_MCP_RATE_LIMIT: '10000/min',
      CHAIN_MCP_LOG_LEVEL: 'info',
    };
    // Started together on an empty database: the schema is set up once, not in a race.
    [A, B, C] = await Promise.all([launch('A', env), launch('B', env), launch('C', env)]);
    replicas.push(A, B, C);
  }, 120_000);

  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
    for (const r of replicas) await stopReplica(r);
    await Promise.all([pg?.stop(), issuer?.close(), devnet?.close()]);
  }, 60_000);

  it('a preview on A, approved through B, is confirmed once on B and refused on C', async () => {
    const onA = await connect(A, 'user-1');
    const { confirmationId, approvalUrl } = await preview(onA, CAM);
    // The human signs in through C and approves through B: the login cookie and the approval work on any replica.
    const human = testBrowser(issuer, 'user-1', PUBLIC_ORIGIN, C.port);
    const shown = await human.go(approvalUrl);
    expect(shown.status).toBe(200);
    await shown.text();
    human.port = B.port;
    const approved = await human.decide(approvalUrl, 'approve');
    expect(approved.status).toBe(200);
    await approved.text();
    const before = requestsFor(devnet, 'xvm.send');
    const onB = await connect(B, 'user-1');
    const sent = await send(onB, CAM, confirmationId);
    expect((sent.structuredContent as { status: string }).status, text(sent)).toBe('issued');
    const onC = await connect(C, 'user-1');
    const again = await send(onC, CAM, confirmationId);
    expect(again.isError).toBe(true);
    expect(text(again)).toContain('already used');
    expect(requestsFor(devnet, 'xvm.send')).toBe(before + 1);
  });

  it('an approval decided on B wakes the confirm waiting on A', async () => {
    const onA = await connect(A, 'user-1');
    const { confirmationId, approvalUrl } = await preview(onA, CAM);
    let waiting!: () => void;
    const isWaiting = new Promise<void>((r) => {
      waiting = r;
    });
    // The confirm waits on A (it reports progress while it waits for the human).
    const confirm = send(onA, CAM, confirmationId, () => waiting());
    await isWaiting;
    const human = testBrowser(issuer, 'user-1', PUBLIC_ORIGIN, B.port);
    const approved = await human.decide(approvalUrl, 'approve');
    expect(approved.status).toBe(200);
    await approved.text();
    const sent = await confirm;
    expect((sent.structuredContent as { status: string }).status, text(sent)).toBe('issued');
  });

  it("user 2 cannot confirm, see or approve user 1's spend; the attempts do not use the id up", async () => {
    const one = await connect(A, 'user-1');
    const { confirmationId, approvalUrl } = await preview(one, 1n);
    const two = await connect(C, 'user-2');
    const stolen = await send(two, 1n, confirmationId);
    expect(stolen.isError).toBe(true);
    expect(text(stolen)).toContain('another user');
    const mallory = testBrowser(issuer, 'user-2', PUBLIC_ORIGIN, B.port);
    const seen = await mallory.go(approvalUrl);
    expect(seen.status).toBe(403);
    expect(await seen.text()).not.toContain('Amount in smallest units');
    const forced = await mallory.decide(approvalUrl, 'approve');
    expect(forced.status).toBe(403);
    await forced.text();
    // Still user 1's, still pending: their own decline goes through (nothing is sent).
    const human = testBrowser(issuer, 'user-1', PUBLIC_ORIGIN, C.port);
    const declined = await human.decide(approvalUrl, 'decline');
    expect(declined.status).toBe(200);
    await declined.text();
    const answer = await send(one, 1n, confirmationId);
    expect((answer.structuredContent as { status: string }).status, text(answer)).toBe('declined');
  });

  it('two concurrent confirms on A and B under one daily limit let exactly one spend through', async () => {
    const one = await connect(A, 'user-1');
    const first = await preview(one, CAM);
    const second = await preview(one, CAM);
    const human = testBrowser(issuer, 'user-1', PUBLIC_ORIGIN, C.port);
    for (const p of [first, second]) {
      const res = await human.decide(p.approvalUrl, 'approve');
      expect(res.status).toBe(200);
      await res.text();
    }
    const before = requestsFor(devnet, 'xvm.send');
    const onB = await connect(B, 'user-1');
    const results = await Promise.all([send(one, CAM, first.confirmationId), send(onB, CAM, second.confirmationId)]);
    const issued = results.filter((r) => (r.structuredContent as { status?: string } | undefined)?.status === 'issued');
    const refused = results.filter((r) => r.isError);
    expect(issued).toHaveLength(1);
    expect(refused).toHaveLength(1);
    expect(text(refused[0]!)).toContain('CHAIN_MCP_MAX_SPEND_PER_DAY');
    expect(requestsFor(devnet, 'xvm.send')).toBe(before + 1);
  });

  it('killing and restarting a replica keeps the 24 h total', async () => {
    C.child.kill('SIGKILL');
    await waitForExit(C.child);
    const restarted = await launch('C2', env);
    replicas.push(restarted);
    const onC = await connect(restarted, 'user-1');
    // 3 CAM and fees went out today: another 1 CAM does not fit, 0.3 CAM still does.
    const over = await send(onC, CAM);
    expect(over.isError).toBe(true);
    expect(text(over)).toContain('over CHAIN_MCP_MAX_SPEND_PER_DAY');
    const fits = await send(onC, 300_000_000n);
    expect(fits.isError, text(fits)).not.toBe(true);
  });

  it('a token for another audience gets 401; one without chain:spend gets 403 and sees no spend tool', async () => {
    const foreign = await issuer.mint({ sub: 'user-1', scope: 'chain:read chain:spend', aud: 'https://other.example.test/mcp' });
    const res = await fetch(`http://127.0.0.1:${B.port}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${foreign}` },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toContain('the token is for another audience');
    await res.text();
    const reader = await connect(A, 'user-1', 'chain:read');
    const tools = (await reader.listTools()).tools.map((t) => t.name);
    expect(tools).toContain('xvm_getBalance');
    expect(tools.some((t) => t === 'xvm_send' || t === 'transfer')).toBe(false);
    const readToken = await issuer.mint({ sub: 'user-1', scope: 'chain:read', aud: PUBLIC_URL });
    const call = await fetch(`http://127.0.0.1:${A.port}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${readToken}` },
      body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'xvm_send', arguments: {} } }),
    });
    expect(call.status).toBe(403);
    expect(call.headers.get('www-authenticate')).toContain('error="insufficient_scope", scope="chain:spend"');
    await call.text();
  });

  it("CHAIN_MCP_RATE_LIMIT counts a user's requests across replicas (in PostgreSQL): the fourth of 3/min gets 429 on another replica", async () => {
    const limited = { ...env, CHAIN_MCP_RATE_LIMIT: '3/min' };
    const [D, E] = await Promise.all([launch('D', limited), launch('E', limited)]);
    replicas.push(D, E);
    const token = await issuer.mint({ sub: 'user-limited', scope: 'chain:read', aud: PUBLIC_URL });
    const init = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '0' } } });
    const post = (r: Replica) =>
      fetch(`http://127.0.0.1:${r.port}/mcp`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${token}` }, body: init });
    const statuses: number[] = [];
    for (const r of [D, E, D, E]) {
      const res = await post(r);
      statuses.push(res.status);
      if (res.status === 429) expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
      await res.text();
    }
    expect(statuses).toEqual([200, 200, 200, 429]);
    await Promise.all([stopReplica(D), stopReplica(E)]);
  });

  it('a replica started without CHAIN_MCP_STATE_KEY on the shared store refuses to start with one line', async () => {
    const { CHAIN_MCP_STATE_KEY: _key, ...keyless } = env;
    const err = (await launch('keyless', keyless).then(
      () => undefined,
      (e: unknown) => e,
    )) as { code?: number; stderr?: string } | undefined;
    expect(err?.code).toBe(2);
    const lines = (err?.stderr ?? '').trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^chain-mcp: CHAIN_MCP_STATE_KEY: required with a shared store/);
  });
});
