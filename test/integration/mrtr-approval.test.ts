import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { type Devnet, startDevnet } from '../../src/devnet/index.js';
import { serveHttp } from '../../src/http-server.js';
import { silentLogger } from '../../src/log.js';
import { Services } from '../../src/services.js';
import { writeKeyFile } from '../../src/signer/keyfile.js';
import { PostgresStore } from '../../src/state/postgres.js';
import { startPostgres, type TestPostgres } from '../../tools/postgres.js';
import { startIssuer, type TestIssuer } from '../../tools/test-issuer.js';
import { requestsFor } from '../helpers/spend-harness.js';

/**
 * The human's approval under the 2026-07-28 protocol on stateless HTTP (issue 41): two replicas of
 * `--http` under OAuth share one PostgreSQL and the state key; a spend by the local signer is
 * previewed, the confirm answers input_required (form elicitation) with a sealed requestState,
 * the client asks the human and retries, and exactly one transaction is issued. The retry is
 * taken by whichever replica gets it, once; a replayed, altered or foreign requestState is refused.
 */
const PUBLIC_URL = 'https://chain.example.test/mcp';
const PASSPHRASE = 'correct horse battery staple 32';
const MODERN = '2026-07-28';

describe('approval through input_required on stateless HTTP (2026-07-28)', () => {
  let devnet: Devnet;
  let issuer: TestIssuer;
  let pg: TestPostgres;
  let dir: string;
  const replicas: Array<{ port: number; close(): Promise<void>; services: Services }> = [];
  const clients: Client[] = [];
  const asked: string[] = [];
  const issued = () => requestsFor(devnet, 'avm.issueTx');
  const to = () => devnet.state.users.get('alice')!.keys[0]!.x;

  beforeAll(async () => {
    [devnet, issuer, pg] = await Promise.all([startDevnet({ dialect: 'camino' }), startIssuer(), startPostgres()]);
    devnet.router.record = true;
    dir = mkdtempSync(join(tmpdir(), 'chain-mcp-mrtr-'));
    await writeKeyFile(join(dir, 'key.json'), devnet.localKey.privateKey, PASSPHRASE, { N: 2 ** 12, r: 8, p: 1 });
    writeFileSync(join(dir, 'passphrase'), `${PASSPHRASE}\n`, { mode: 0o600 });
    const url = await pg.createDatabase('mrtr');
    const env = {
      CHAIN_MCP_NODE_URL: devnet.nodeUrl,
      CHAIN_MCP_LOG_LEVEL: 'silent',
      CHAIN_MCP_STATE: url,
      CHAIN_MCP_STATE_KEY: randomBytes(32).toString('hex'),
      CHAIN_MCP_OAUTH_ISSUER: issuer.issuer,
      CHAIN_MCP_PUBLIC_URL: PUBLIC_URL,
      CHAIN_MCP_OAUTH_CLIENT_ID: 'chain-mcp-approvals',
      CHAIN_MCP_ALLOW_SPEND: 'true',
      CHAIN_MCP_SIGNER: 'local',
      CHAIN_MCP_KEY_FILE: join(dir, 'key.json'),
      CHAIN_MCP_KEY_PASSPHRASE_FILE: join(dir, 'passphrase'),
    };
    for (let n = 0; n < 2; n++) {
      const config = loadConfig(env);
      const services = new Services({ config, log: silentLogger(), state: await PostgresStore.open(url, undefined, 2) });
      await services.prepareSigner();
      const server = await serveHttp({ config, log: silentLogger(), services, port: 0 });
      replicas.push({ ...server, services });
    }
  });
  afterAll(async () => {
    for (const c of clients) await c.close().catch(() => undefined);
    for (const r of replicas) {
      await r.close();
      await r.services.close();
    }
    await Promise.all([devnet?.close(), issuer?.close(), pg?.stop()]);
    rmSync(dir, { recursive: true, force: true });
  });

  const tokenFor = (sub: string) => issuer.mint({ sub, scope: 'chain:read chain:spend', aud: PUBLIC_URL });

  /** A 2026-07-28 client (pinned: no fallback can hide a failure) whose human approves every question. */
  async function modernClient(replica: number, sub: string): Promise<Client> {
    const client = new Client({ name: `${sub}-2026`, version: '0' }, { capabilities: { elicitation: { form: {} } }, versionNegotiation: { mode: { pin: MODERN } } });
    client.setRequestHandler('elicitation/create', async (request) => {
      asked.push(String(request.params.message));
      return { action: 'accept', content: { approve: true } };
    });
    const transport = new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${replicas[replica]!.port}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${await tokenFor(sub)}` } },
    });
    await client.connect(transport);
    clients.push(client);
    return client;
  }

  const spendArgs = (amount: string) => ({ amount, assetID: 'CAM', to: to() });

  async function previewId(client: Client, amount: string): Promise<string> {
    const p = await client.callTool({ name: 'xvm_send', arguments: spendArgs(amount) });
    expect(p.isError, JSON.stringify(p.content)).not.toBe(true);
    const s = p.structuredContent as { status: string; confirmationId: string };
    expect(s.status).toBe('preview');
    return s.confirmationId;
  }

  /** One raw 2026-07-28 tools/call POST (the envelope and the standard headers a client sends). */
  async function rawCall(replica: number, sub: string, args: Record<string, unknown>, retry: Record<string, unknown> = {}) {
    const res = await fetch(`http://127.0.0.1:${replicas[replica]!.port}/mcp`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        authorization: `Bearer ${await tokenFor(sub)}`,
        'mcp-protocol-version': MODERN,
        'mcp-method': 'tools/call',
        'mcp-name': 'xvm_send',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: randomBytes(4).toString('hex'),
        method: 'tools/call',
        params: {
          name: 'xvm_send',
          arguments: args,
          _meta: {
            'io.modelcontextprotocol/protocolVersion': MODERN,
            'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {} } },
            'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '0' },
          },
          ...retry,
        },
      }),
    });
    const text = await res.text();
    // One JSON body, or an SSE stream whose last data line is the answer.
    const json = res.headers.get('content-type')?.includes('text/event-stream') ? JSON.parse(text.split('\n').filter((l) => l.startsWith('data: ')).at(-1)!.slice(6)) : JSON.parse(text);
    return json as { result?: Record<string, unknown>; error?: { code: number; message: string } };
  }

  const ACCEPT = { inputResponses: { approval: { action: 'accept', content: { approve: true } } } };

  it('a whole local-signer spend by an SDK client: preview, the human approves through input_required, exactly one transaction', async () => {
    const client = await modernClient(0, 'user-1');
    expect(client.getNegotiatedProtocolVersion()).toBe(MODERN);
    const confirm = await previewId(client, '1.5 CAM');
    const before = issued();
    asked.length = 0;
    const done = await client.callTool({ name: 'xvm_send', arguments: { ...spendArgs('1.5 CAM'), confirm } });
    expect(done.isError, JSON.stringify(done.content)).not.toBe(true);
    expect((done.structuredContent as { status: string }).status).toBe('issued');
    expect(issued() - before).toBe(1);
    // The human was asked once, with the preview's facts.
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatch(/^Approve .*\n.*1\.5 CAM/s);
  });

  it('a round opened on one replica is answered on the other, once; a replayed, altered or foreign requestState is refused and sends nothing', async () => {
    const client = await modernClient(1, 'user-1');
    const confirm = await previewId(client, '0.25 CAM');
    const args = { ...spendArgs('0.25 CAM'), confirm };
    const first = await rawCall(0, 'user-1', args);
    expect(first.result?.resultType).toBe('input_required');
    const requests = first.result?.inputRequests as Record<string, { method: string; params: { message: string } }>;
    expect(requests.approval?.method).toBe('elicitation/create');
    const state = first.result?.requestState as string;
    expect(state).toMatch(/^v1\./);
    // Opaque to the client: nothing of the call is readable in it.
    expect(Buffer.from(state.slice(3), 'base64url').toString('latin1')).not.toContain('xvm_send');

    const before = issued();
    // Altered by one character: refused before the handler runs (-32602); the round is not used up.
    const flipped = `${state.slice(0, -2)}${state.at(-2) === 'A' ? 'B' : 'A'}${state.at(-1)}`;
    const altered = await rawCall(1, 'user-1', args, { ...ACCEPT, requestState: flipped });
    expect(altered.error?.code).toBe(-32602);
    // Another user's retry with the genuine state: refused, the round stays theirs.
    const foreign = await rawCall(1, 'user-2', args, { ...ACCEPT, requestState: state });
    expect([foreign.error?.code, foreign.error?.message]).toEqual([-32602, expect.stringContaining('another user')]);
    // The same state for other arguments: refused.
    const other = await rawCall(1, 'user-1', { ...args, amount: '0.26 CAM' }, { ...ACCEPT, requestState: state });
    expect([other.error?.code, other.error?.message]).toEqual([-32602, expect.stringContaining('another call')]);
    expect(issued()).toBe(before);

    // The genuine retry on the other replica: issued once.
    const answered = await rawCall(1, 'user-1', args, { ...ACCEPT, requestState: state });
    expect(answered.error, JSON.stringify(answered.error)).toBeUndefined();
    expect((answered.result?.structuredContent as { status?: string } | undefined)?.status).toBe('issued');
    expect(issued() - before).toBe(1);

    // Replayed, to either replica: refused, nothing more is sent.
    for (const replica of [0, 1]) {
      const replay = await rawCall(replica, 'user-1', args, { ...ACCEPT, requestState: state });
      expect([replay.error?.code, replay.error?.message]).toEqual([-32602, expect.stringContaining('used already')]);
    }
    expect(issued() - before).toBe(1);
  });

  it('a declined answer sends nothing and the preview is spent', async () => {
    const client = await modernClient(0, 'user-1');
    const confirm = await previewId(client, '0.5 CAM');
    const args = { ...spendArgs('0.5 CAM'), confirm };
    const first = await rawCall(0, 'user-1', args);
    const before = issued();
    const declined = await rawCall(1, 'user-1', args, { inputResponses: { approval: { action: 'accept', content: { approve: false } } }, requestState: first.result?.requestState });
    expect((declined.result?.structuredContent as { status?: string } | undefined)?.status).toBe('declined');
    const again = await rawCall(0, 'user-1', args);
    expect(again.result?.isError).toBe(true);
    expect(issued()).toBe(before);
  });
});
