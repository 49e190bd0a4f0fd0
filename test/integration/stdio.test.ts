import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Devnet, startDevnet } from '../../src/devnet/index.js';
import { MAIN, stdioStack } from '../helpers/stack.js';

/** The built chain-mcp spawned over stdio, as a desktop assistant runs it. */
describe('chain-mcp over stdio', () => {
  let devnet: Devnet;
  beforeAll(async () => {
    devnet = await startDevnet();
  });
  afterAll(() => devnet.close());

  it('lists tools with titles, all four hints, and output schemas', async () => {
    const stack = await stdioStack({ devnet });
    try {
      const { tools } = await stack.client.listTools();
      expect(tools.length).toBeGreaterThanOrEqual(11);
      for (const tool of tools) {
        expect(tool.title ?? tool.annotations?.title, tool.name).toBeTruthy();
        for (const hint of ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'] as const) {
          expect(typeof tool.annotations?.[hint], `${tool.name}.${hint}`).toBe('boolean');
        }
        expect(tool.outputSchema?.type, tool.name).toBe('object');
      }
      const names = tools.map((t) => t.name);
      expect(names).toContain('info_getNodeVersion');
      expect(names.some((n) => /^(xvm_send|wallet_send|auth_newToken|admin_setLogLevel)$/.test(n))).toBe(false);
      const result = await stack.call('info_getNodeVersion');
      expect(result.isError).toBe(false);
      expect(result.text).toContain('camino/1.1.18');
    } finally {
      await stack.close();
    }
  });

  it('reports a node that is down as an isError result and keeps serving', async () => {
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((r) => closed.close(() => r()));
    const stack = await stdioStack({ devnet, env: { CHAIN_MCP_NODE_URL: `http://127.0.0.1:${port}`, CHAIN_MCP_TIMEOUT_MS: '2000' } });
    try {
      const down = await stack.call('info_getNodeID');
      expect(down.isError).toBe(true);
      expect(down.text).toMatch(/connection refused/);
      expect(down.text).toMatch(/What to try/);
      expect(down.text).not.toMatch(/at .*\.js:\d+/);
      const again = await stack.call('info_getNetworkName');
      expect(again.isError).toBe(true);
    } finally {
      await stack.close();
    }
  });

  it('passes a JSON-RPC error object through with its message', async () => {
    const stack = await stdioStack({ devnet });
    try {
      const result = await stack.call('info_getBlockchainID', { alias: 'Q' });
      expect(result.isError).toBe(true);
      expect(result.text).toContain("there is no chain with alias/ID 'Q'");
      expect((await stack.call('info_getNodeID')).isError).toBe(false);
    } finally {
      await stack.close();
    }
  });

  it('answers 401 without a token and succeeds with one', async () => {
    const authNet = await startDevnet({ authRequired: true, authTokens: ['secret-token-value'] });
    const without = await stdioStack({ devnet: authNet });
    const withToken = await stdioStack({ devnet: authNet, env: { CHAIN_MCP_AUTH_TOKEN: 'secret-token-value' } });
    try {
      const refused = await without.call('info_getNodeID');
      expect(refused.isError).toBe(true);
      expect(refused.text).toContain('HTTP 401');
      expect(refused.text).toContain('auth token not provided');
      expect(refused.text).toContain('CHAIN_MCP_AUTH_TOKEN');
      authNet.router.record = true;
      const ok = await withToken.call('info_getNodeID');
      expect(ok.isError).toBe(false);
      expect(authNet.router.requests.at(-1)?.headers.authorization).toBe('Bearer secret-token-value');
      expect(ok.text).not.toContain('secret-token-value');
      expect(withToken.stderr()).not.toContain('secret-token-value');
    } finally {
      await without.close();
      await withToken.close();
      await authNet.close();
    }
  });

  it('times out a node that never answers, within the configured timeout', async () => {
    const hanging = createServer(() => undefined);
    await new Promise<void>((r) => hanging.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(hanging.address() as AddressInfo).port}`;
    const stack = await stdioStack({ devnet, env: { CHAIN_MCP_NODE_URL: url, CHAIN_MCP_TIMEOUT_MS: '300' } });
    try {
      const result = await stack.call('info_getNodeID');
      expect(result.isError).toBe(true);
      expect(result.text).toContain('did not answer within 300 ms');
      expect(result.text).toContain('CHAIN_MCP_TIMEOUT_MS');
    } finally {
      await stack.close();
      hanging.closeAllConnections();
      await new Promise<void>((r) => hanging.close(() => r()));
    }
  });
});

describe('stdout purity', () => {
  it('writes only JSON-RPC messages to stdout over a whole session', async () => {
    const devnet = await startDevnet();
    const child = spawn(process.execPath, [MAIN], {
      env: { PATH: process.env.PATH ?? '', CHAIN_MCP_NODE_URL: devnet.nodeUrl, CHAIN_MCP_LOG_LEVEL: 'trace' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => {
      stdout += c.toString('utf8');
    });
    child.stderr.on('data', (c: Buffer) => {
      stderr += c.toString('utf8');
    });
    const send = (msg: unknown) => child.stdin.write(`${JSON.stringify(msg)}\n`);
    send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '0' } } });
    send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    send({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
    send({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'info_getNodeID', arguments: {} } });
    send({ jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'info_peers', arguments: { limit: 'x' } } });
    // Bounded wait for all four answers (generous: the suite runs test files in parallel).
    const answered = () => [1, 2, 3, 4].every((id) => stdout.includes(`"id":${id}`));
    for (let i = 0; i < 400 && !answered(); i++) await new Promise((r) => setTimeout(r, 50));
    child.stdin.end();
    await new Promise((r) => child.once('exit', r));
    await devnet.close();
    const lines = stdout.split('\n').filter(Boolean);
    expect(lines.length).toBe(4);
    for (const line of lines) expect(JSON.parse(line).jsonrpc).toBe('2.0');
    expect(stderr).toContain('"level":'); // trace logs went to stderr
  });
});

describe('logs on stderr', () => {
  it('a line logged as the start ends reaches stderr even when the client hangs up at once (pino loads with the first line)', async () => {
    const child = spawn(process.execPath, [MAIN], {
      env: { PATH: process.env.PATH ?? '', CHAIN_MCP_NODE_URL: 'http://127.0.0.1:9', CHAIN_MCP_LOG_LEVEL: 'debug' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => {
      stderr += c.toString('utf8');
    });
    // The opening request and the end of input together: the server shuts down right after its
    // debug line "serving MCP on stdio", before pino would have loaded if nothing waited for it.
    child.stdin.end(`${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '0' } } })}\n`);
    const code = await new Promise((r) => child.once('exit', r));
    expect(code).toBe(0);
    const line = stderr.split('\n').find((l) => l.includes('serving MCP on stdio'));
    expect(line, stderr).toBeDefined();
    expect(JSON.parse(line!)).toMatchObject({ level: 20, name: 'chain-mcp', msg: 'serving MCP on stdio' });
  });
});

describe('configuration errors', () => {
  const run = (env: Record<string, string>, args: string[] = []) =>
    new Promise<{ code: number | null; stderr: string; stdout: string }>((resolve) => {
      const child = spawn(process.execPath, [MAIN, ...args], { env: { PATH: process.env.PATH ?? '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
      let stderr = '';
      let stdout = '';
      child.stderr.on('data', (c: Buffer) => {
        stderr += c.toString('utf8');
      });
      child.stdout.on('data', (c: Buffer) => {
        stdout += c.toString('utf8');
      });
      child.on('exit', (code) => resolve({ code, stderr, stdout }));
    });

  it.each([
    [{ CHAIN_MCP_NODE_URL: 'ftp://x' }, 'CHAIN_MCP_NODE_URL: expected an http:// or https:// URL of the node'],
    [{ CHAIN_MCP_TIMEOUT_MS: 'soon' }, 'CHAIN_MCP_TIMEOUT_MS: expected milliseconds as a whole number'],
    [{ CHAIN_MCP_ALLOW_SPEND: 'maybe' }, 'CHAIN_MCP_ALLOW_SPEND: expected true or false (got "maybe")'],
    [{ CHAIN_MCP_TOOLSETS: 'info,bogus' }, 'CHAIN_MCP_TOOLSETS: unknown toolset "bogus"'],
    [{ CHAIN_MCP_MAX_SPEND: '1.5' }, 'CHAIN_MCP_MAX_SPEND: expected nCAM digits or a display amount such as "1.5 CAM" (1 CAM = 1000000000 nCAM) (got "1.5")'],
    [{ CHAIN_MCP_KEYSTORE_USER: 'alice' }, 'CHAIN_MCP_KEYSTORE_USER and CHAIN_MCP_KEYSTORE_PASSWORD: set both or neither'],
  ])('refuses %j with one line naming the variable', async (env, message) => {
    const { code, stderr, stdout } = await run(env);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(stderr).toContain(message);
  });

  it('never echoes a secret in a configuration error', async () => {
    const { code, stderr } = await run({ CHAIN_MCP_AUTH_PASSWORD: 'x'.repeat(1100) });
    expect(code).toBe(2);
    expect(stderr).toContain('CHAIN_MCP_AUTH_PASSWORD');
    expect(stderr).not.toContain('xxxxxxxx');
  });

  it('prints help and version on stdout and exits 0', async () => {
    const help = await run({}, ['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('chain-mcp');
    const version = await run({}, ['--version']);
    expect(version.stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
    const bad = await run({}, ['--frobnicate']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('frobnicate');
  });
});
