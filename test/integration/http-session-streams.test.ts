import { type ClientRequest, request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { type Devnet, startDevnet } from '../../src/devnet/index.js';
import { serveHttp } from '../../src/http-server.js';
import { silentLogger } from '../../src/log.js';
import { createServices } from '../../src/server.js';
import { requestsFor } from '../helpers/spend-harness.js';
import { devnetEnv } from '../helpers/stack.js';

/**
 * What a 2025-11-25 session sends the client unasked (src/http-session.ts), read off the wire: a
 * question to the human during a call comes on that call's own event stream and its answer is a
 * POST of its own; a notification outside any call comes on the standing GET stream.
 */
const TOKEN = 'session-streams-token-0123456789';
const LEGACY = '2025-11-25';

interface Message {
  id?: number | string;
  method?: string;
  params?: Record<string, unknown>;
  result?: Record<string, unknown>;
}

/** An HTTP exchange whose event stream is read as it comes: each JSON-RPC message, in order. */
function stream(url: string, method: string, headers: Record<string, string>, body?: unknown) {
  const messages: Message[] = [];
  const waiting: Array<() => void> = [];
  let ended = false;
  let req: ClientRequest | undefined;
  const opened = new Promise<{ status: number; contentType: string | undefined; session: string | undefined }>((resolve, reject) => {
    req = request(url, { method, headers }, (res) => {
      let buffer = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        buffer += chunk;
        for (let end = buffer.indexOf('\n\n'); end !== -1; end = buffer.indexOf('\n\n')) {
          const data = buffer
            .slice(0, end)
            .split('\n')
            .find((line) => line.startsWith('data: '));
          buffer = buffer.slice(end + 2);
          if (data) messages.push(JSON.parse(data.slice(6)) as Message);
        }
        for (const wake of waiting.splice(0)) wake();
      });
      res.on('end', () => {
        ended = true;
        for (const wake of waiting.splice(0)) wake();
      });
      resolve({ status: res.statusCode ?? 0, contentType: res.headers['content-type'], session: res.headers['mcp-session-id'] as string | undefined });
    });
    req.on('error', reject);
    req.end(body === undefined ? undefined : JSON.stringify(body));
  });
  /** The first message `match` accepts; fails when the stream ends without one. */
  const next = async (match: (m: Message) => boolean): Promise<Message> => {
    for (;;) {
      const found = messages.find(match);
      if (found) return found;
      if (ended) throw new Error(`the stream ended without it; it carried ${JSON.stringify(messages)}`);
      await new Promise<void>((wake) => waiting.push(wake));
    }
  };
  const end = async () => {
    while (!ended) await new Promise<void>((wake) => waiting.push(wake));
    return messages;
  };
  return { opened, next, end, messages, close: () => req?.destroy() };
}

describe('an HTTP session sends the client what it did not ask for, each on its stream', () => {
  let devnet: Devnet;
  let server: Awaited<ReturnType<typeof serveHttp>>;
  let url: string;
  const json = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${TOKEN}` };
  let nextId = 0;

  const start = async (env: Record<string, string>) => {
    const config = loadConfig(devnetEnv(devnet, { CHAIN_MCP_HTTP_TOKEN: TOKEN, ...env }));
    server = await serveHttp({ config, log: silentLogger(), services: createServices(config, silentLogger()), port: 0 });
    url = `http://127.0.0.1:${server.port}/mcp`;
  };
  /** initialize (declaring `capabilities`) and initialized; the session's headers. */
  const open = async (capabilities: Record<string, unknown> = {}) => {
    const init = stream(url, 'POST', json, { jsonrpc: '2.0', id: ++nextId, method: 'initialize', params: { protocolVersion: LEGACY, capabilities, clientInfo: { name: 'streams', version: '0' } } });
    const { session: id } = await init.opened;
    await init.end();
    if (!id) throw new Error('initialize named no session');
    const headers = { ...json, 'mcp-session-id': id, 'mcp-protocol-version': LEGACY };
    await stream(url, 'POST', headers, { jsonrpc: '2.0', method: 'notifications/initialized' }).end();
    return headers;
  };
  const call = (headers: Record<string, string>, name: string, args: Record<string, unknown>) =>
    stream(url, 'POST', headers, { jsonrpc: '2.0', id: ++nextId, method: 'tools/call', params: { name, arguments: args } });

  beforeAll(async () => {
    devnet = await startDevnet();
    devnet.router.record = true;
  });
  afterAll(() => devnet.close());

  it("asks the human on the call's own stream; the answer, a POST of its own, gets 202 and the call then ends with one transaction", async () => {
    await start({
      CHAIN_MCP_ALLOW_SPEND: 'true',
      CHAIN_MCP_APPROVAL: 'human',
      CHAIN_MCP_KEYSTORE_USER: devnet.keystore.username,
      CHAIN_MCP_KEYSTORE_PASSWORD: devnet.keystore.password,
    });
    try {
      const session = await open({ elicitation: { form: {} } });
      const args = { amount: '1000000000', assetID: 'CAM', to: devnet.state.users.get('alice')!.keys[1]!.x };
      const preview = await call(session, 'xvm_send', args).next((m) => m.result !== undefined);
      const confirmationId = (preview.result?.structuredContent as { confirmationId?: string } | undefined)?.confirmationId;
      expect(confirmationId).toBeTypeOf('string');
      const before = requestsFor(devnet, 'xvm.send');

      const confirm = call(session, 'xvm_send', { ...args, confirm: confirmationId });
      expect(await confirm.opened).toMatchObject({ status: 200, contentType: 'text/event-stream' });
      const question = await confirm.next((m) => m.method === 'elicitation/create');
      expect(question.id).toBeDefined();
      expect(String(question.params?.message)).toContain('1 CAM');
      // Nothing is sent while the human has not answered.
      expect(requestsFor(devnet, 'xvm.send')).toBe(before);

      const answer = stream(url, 'POST', session, { jsonrpc: '2.0', id: question.id, result: { action: 'accept', content: { approve: true } } });
      expect((await answer.opened).status).toBe(202);
      expect(await answer.end()).toEqual([]);

      const messages = await confirm.end();
      expect(messages.map((m) => m.method ?? 'result')).toEqual(['elicitation/create', 'result']);
      expect(messages[1]?.result?.structuredContent).toMatchObject({ status: 'issued' });
      expect(requestsFor(devnet, 'xvm.send')).toBe(before + 1);
    } finally {
      await server.close();
    }
  });

  it('sends tools/list_changed on the standing GET stream, not on the call that caused it; without that stream it is dropped and the call still answers', async () => {
    await start({ CHAIN_MCP_DYNAMIC: 'true' });
    try {
      const quiet = await open();
      const alone = await call(quiet, 'enable_toolset', { toolset: 'platform' }).end();
      expect(alone.map((m) => m.method ?? 'result')).toEqual(['result']);

      const session = await open();
      const standing = stream(url, 'GET', { ...session, accept: 'text/event-stream' });
      expect(await standing.opened).toMatchObject({ status: 200, contentType: 'text/event-stream', session: session['mcp-session-id'] });
      const enabled = await call(session, 'enable_toolset', { toolset: 'platform' }).end();
      expect(enabled.map((m) => m.method ?? 'result')).toEqual(['result']);
      expect(await standing.next((m) => m.method === 'notifications/tools/list_changed')).toMatchObject({ jsonrpc: '2.0', method: 'notifications/tools/list_changed' });
      standing.close();
    } finally {
      await server.close();
    }
  });
});
