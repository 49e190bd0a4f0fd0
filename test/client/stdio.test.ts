import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type Devnet, startDevnet } from '../../src/devnet/index.js';
import { type FaultProxy, startFaultProxy } from '../../tools/fault-proxy.js';
import { MAIN } from '../helpers/stack.js';

/**
 * A misbehaving client on the raw stdio wire: bytes that are not JSON-RPC, requests before
 * initialize, unknown methods and tools, a client that goes away mid-call. The server must
 * answer per JSON-RPC / MCP and keep running (or exit cleanly when its client is gone).
 */

interface Wire {
  child: ChildProcessWithoutNullStreams;
  messages: Array<Record<string, unknown>>;
  stderr(): string;
  send(line: string): void;
  /** Resolves with the answer carrying this id. */
  answer(id: string | number | null, timeoutMs?: number): Promise<Record<string, unknown>>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

function startWire(env: Record<string, string>): Wire {
  const child = spawn(process.execPath, [MAIN], { env: { PATH: process.env.PATH ?? '', CHAIN_MCP_LOG_LEVEL: 'warn', ...env } });
  const messages: Array<Record<string, unknown>> = [];
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString('utf8');
    let nl = stdout.indexOf('\n');
    while (nl !== -1) {
      const line = stdout.slice(0, nl);
      stdout = stdout.slice(nl + 1);
      // Every line on stdout must be one JSON-RPC message.
      messages.push(JSON.parse(line) as Record<string, unknown>);
      nl = stdout.indexOf('\n');
    }
  });
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
  return {
    child,
    messages,
    stderr: () => stderr,
    send: (line) => child.stdin.write(`${line}\n`),
    answer: async (id, timeoutMs = 10_000) => {
      const deadline = Date.now() + timeoutMs;
      while (Date.now() < deadline) {
        const found = messages.find((m) => m.id === id && ('result' in m || 'error' in m));
        if (found) return found;
        await new Promise((r) => setTimeout(r, 10));
      }
      throw new Error(`no answer with id ${JSON.stringify(id)} within ${timeoutMs} ms; got ${JSON.stringify(messages)}`);
    },
    exited,
  };
}

const INIT = (id: number) =>
  JSON.stringify({ jsonrpc: '2.0', id, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '0' } } });
const INITIALIZED = JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' });
const CALL = (id: number | string, name: string, args: unknown = {}) => JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } });

describe('a misbehaving client on stdio', () => {
  let devnet: Devnet;
  let proxy: FaultProxy;
  let wire: Wire | undefined;

  beforeAll(async () => {
    devnet = await startDevnet();
    proxy = await startFaultProxy(devnet.nodeUrl);
  });
  afterEach(async () => {
    await proxy.clear();
    if (wire && wire.child.exitCode === null) {
      wire.child.kill('SIGTERM');
      await wire.exited;
    }
    wire = undefined;
  });
  afterAll(async () => {
    await proxy.close();
    await devnet.close();
  });

  it('answers malformed JSON-RPC with the JSON-RPC error codes and keeps serving', async () => {
    wire = startWire({ CHAIN_MCP_NODE_URL: devnet.nodeUrl });
    wire.send('this is not json');
    expect(await wire.answer(null)).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32700 } });
    wire.messages.length = 0;
    wire.send('{"jsonrpc":"2.0","id":"no-method"}');
    expect(await wire.answer('no-method')).toMatchObject({ error: { code: -32600 } });
    wire.send('{"jsonrpc":"1.0","id":"old","method":"ping"}');
    expect(await wire.answer('old')).toMatchObject({ error: { code: -32600 } });
    wire.send('{"jsonrpc":"2.0","id":"bad-params","method":"tools/call","params":"oops"}');
    expect(await wire.answer('bad-params')).toMatchObject({ error: { code: -32600 } });
    wire.send('[{"jsonrpc":"2.0","id":"batched","method":"ping"}]');
    expect(await wire.answer(null)).toMatchObject({ error: { code: -32600, message: expect.stringContaining('batch') } });
    wire.messages.length = 0;
    wire.send('{"jsonrpc":"2.0","id":"unknown-method","method":"chain/doSomething"}');
    expect(await wire.answer('unknown-method')).toMatchObject({ error: { code: -32601 } });
    // A malformed notification has no id and gets no answer; the server carries on.
    wire.send('{"jsonrpc":"2.0","method":42}');
    wire.send(INIT(1));
    expect(await wire.answer(1)).toMatchObject({ result: { serverInfo: { name: 'chain-mcp' } } });
    wire.send(INITIALIZED);
    wire.send(CALL(2, 'info_getNetworkID'));
    expect(await wire.answer(2)).toMatchObject({ result: { structuredContent: { networkID: String(devnet.state.networkID) } } });
    expect(wire.messages.filter((m) => m.id === null)).toHaveLength(0);
    expect(wire.child.exitCode).toBeNull();
  });

  it('answers calls sent before initialize and keeps running', async () => {
    wire = startWire({ CHAIN_MCP_NODE_URL: devnet.nodeUrl });
    wire.send(JSON.stringify({ jsonrpc: '2.0', id: 'early-ping', method: 'ping' }));
    expect(await wire.answer('early-ping')).toMatchObject({ result: {} });
    wire.send(CALL('early-call', 'info_getNodeID'));
    const early = await wire.answer('early-call');
    // Either a result or a protocol error is a proper answer; silence or a crash is not.
    expect('result' in early || 'error' in early).toBe(true);
    wire.send(INIT(1));
    await wire.answer(1);
    wire.send(INITIALIZED);
    wire.send(CALL(3, 'info_getNodeID'));
    expect(await wire.answer(3)).toMatchObject({ result: { structuredContent: { nodeID: devnet.state.nodeID } } });
  });

  it('answers unknown tools with a protocol error and bad arguments with an isError result', async () => {
    wire = startWire({ CHAIN_MCP_NODE_URL: devnet.nodeUrl });
    wire.send(INIT(1));
    await wire.answer(1);
    wire.send(INITIALIZED);
    wire.send(CALL(2, 'no_such_tool'));
    const unknown = await wire.answer(2);
    expect(unknown).toMatchObject({ error: { code: -32602, message: expect.stringContaining('no_such_tool') } });
    wire.send(JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'info_getBlockchainID', arguments: { alias: 7 } } }));
    const bad = (await wire.answer(3)) as { result: { isError: boolean; content: Array<{ text: string }> } };
    expect(bad.result.isError).toBe(true);
    expect(bad.result.content[0]?.text).toMatch(/^Invalid input: alias/);
    wire.send(JSON.stringify({ jsonrpc: '2.0', id: 4, method: 'tools/call', params: {} }));
    expect(await wire.answer(4)).toHaveProperty('error');
    wire.send(CALL(5, 'info_getNodeID'));
    expect(await wire.answer(5)).toHaveProperty('result.structuredContent.nodeID', devnet.state.nodeID);
  });

  it('notifications/cancelled aborts the long call and its node request; the server goes on', async () => {
    wire = startWire({ CHAIN_MCP_NODE_URL: proxy.url, CHAIN_MCP_TIMEOUT_MS: '15000' });
    wire.send(INIT(1));
    await wire.answer(1);
    wire.send(INITIALIZED);
    proxy.fail({ kind: 'delay', ms: 8_000 }, 1);
    const seen = proxy.requests.length;
    wire.send(CALL('long', 'info_getNodeID'));
    await proxy.waitForRequests(seen + 1);
    const started = Date.now();
    wire.send(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'long', reason: 'user pressed stop' } }));
    const deadline = Date.now() + 3_000;
    while (!proxy.requests[seen]?.clientAborted && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(proxy.requests[seen]?.clientAborted).toBe(true);
    expect(Date.now() - started).toBeLessThan(3_000);
    wire.send(CALL(9, 'info_getNodeID'));
    expect(await wire.answer(9)).toHaveProperty('result.structuredContent.nodeID', devnet.state.nodeID);
    // A cancelled request gets no answer (MCP cancellation).
    expect(wire.messages.some((m) => m.id === 'long')).toBe(false);
  });

  it('exits cleanly and drops its node request when the client goes away mid-call', async () => {
    wire = startWire({ CHAIN_MCP_NODE_URL: proxy.url, CHAIN_MCP_TIMEOUT_MS: '15000' });
    wire.send(INIT(1));
    await wire.answer(1);
    wire.send(INITIALIZED);
    proxy.fail({ kind: 'delay', ms: 8_000 });
    const seen = proxy.requests.length;
    wire.send(CALL(2, 'info_getNodeID'));
    await proxy.waitForRequests(seen + 1);
    const started = Date.now();
    wire.child.stdin.end();
    const { code } = await wire.exited;
    expect(code).toBe(0);
    expect(Date.now() - started).toBeLessThan(4_000);
    expect(wire.stderr()).not.toMatch(/\n\s+at .+:\d+:\d+/);
    const deadline = Date.now() + 2_000;
    while (proxy.aborted() === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(proxy.requests[seen]?.clientAborted).toBe(true);
  });
});
