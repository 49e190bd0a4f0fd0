import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ToolDef } from '../../src/core/tool.js';
import { ownerOfAuth, subjectOf } from '../../src/auth/owner.js';
import { RateLimits } from '../../src/auth/rate.js';
import { calledTools, metadataPath, ResourceServer, resourceMetadata, tooMany } from '../../src/auth/resource.js';
import { mayUse, scopeFor } from '../../src/auth/scopes.js';
import { createLogger } from '../../src/log.js';

/**
 * src/auth/resource.ts, scopes.ts and owner.ts from outside: the RFC 9728 document and its
 * answers, which tools a JSON-RPC body calls, the 403 insufficient_scope and the 429 as a client
 * reads them (on a loopback server), the audit line of a refusal, and whose a token's calls are.
 */
const OAUTH = { issuer: 'https://id.example.test/realms/chain', audience: 'https://chain.example.test/mcp', publicUrl: 'https://chain.example.test/mcp' };

describe('the OAuth resource server', () => {
  let server: Server;
  let base = '';
  let handler: (req: IncomingMessage, res: ServerResponse) => void = (_req, res) => void res.end();
  beforeAll(async () => {
    server = createServer((req, res) => handler(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  const recording = () => {
    const lines: Array<Record<string, unknown>> = [];
    const stream = new Writable({
      write(chunk: Buffer, _enc, done) {
        for (const line of chunk.toString('utf8').split('\n').filter(Boolean)) lines.push(JSON.parse(line) as Record<string, unknown>);
        done();
      },
    });
    return { log: createLogger('info', [], stream), lines };
  };
  const resource = (log = createLogger('silent', [])) => new ResourceServer(OAUTH, new RateLimits({ points: 10, seconds: 60, text: '10/min' }, log), log);

  it('publishes the RFC 9728 document: the resource, its issuer, the scopes, bearer tokens in the header only', () => {
    expect(resourceMetadata(OAUTH)).toEqual({
      resource: 'https://chain.example.test/mcp',
      authorization_servers: ['https://id.example.test/realms/chain'],
      scopes_supported: ['chain:read', 'chain:spend', 'chain:admin'],
      bearer_methods_supported: ['header'],
      resource_name: 'chain-mcp',
    });
    expect(metadataPath('https://chain.example.test/mcp')).toBe('/.well-known/oauth-protected-resource/mcp');
    expect(metadataPath('https://chain.example.test/tenant/mcp//')).toBe('/.well-known/oauth-protected-resource/tenant/mcp');
    expect(metadataPath('https://chain.example.test/')).toBe('/.well-known/oauth-protected-resource');
  });

  it('serveMetadata says it answered (GET, OPTIONS, any other method) at its two paths, and not elsewhere', async () => {
    const rs = resource();
    const answered: boolean[] = [];
    handler = (req, res) => {
      const handled = rs.serveMetadata(req, res, new URL(req.url ?? '/', base).pathname);
      answered.push(handled);
      if (!handled) res.writeHead(404).end();
    };
    const statuses: number[] = [];
    for (const [path, method] of [
      ['/.well-known/oauth-protected-resource/mcp', 'GET'],
      ['/.well-known/oauth-protected-resource', 'OPTIONS'],
      ['/.well-known/oauth-protected-resource/mcp', 'DELETE'],
      ['/.well-known/oauth-protected-resource/other', 'GET'],
    ] as const) {
      const res = await fetch(`${base}${path}`, { method });
      statuses.push(res.status);
      await res.text();
    }
    expect(statuses).toEqual([200, 204, 405, 404]);
    expect(answered).toEqual([true, true, true, false]);
  });

  it('calledTools names the tools of tools/call messages only, in a single message or a batch', () => {
    expect(calledTools({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'xvm_send', arguments: {} } })).toEqual(['xvm_send']);
    expect(calledTools([{ method: 'tools/call', params: { name: 'a' } }, { method: 'tools/list' }, { method: 'tools/call', params: { name: 'b' } }])).toEqual(['a', 'b']);
    expect(calledTools({ method: 'tools/list', params: { name: 'xvm_send' } })).toEqual([]);
    expect(calledTools({ method: 'resources/read', params: { name: 'xvm_send' } })).toEqual([]);
    expect(calledTools({ method: 'tools/call', params: { name: 7 } })).toEqual([]);
    expect(calledTools({ method: 'tools/call' })).toEqual([]);
    expect(calledTools({ jsonrpc: '2.0', id: 1, method: 'initialize', params: {} })).toEqual([]);
    expect(calledTools(null)).toEqual([]);
    expect(calledTools([null, 3, 'x'])).toEqual([]);
  });

  it('each tool tier needs its one scope', () => {
    expect(scopeFor({ tier: 'read' })).toBe('chain:read');
    expect(scopeFor({ tier: 'wallet' })).toBe('chain:spend');
    expect(scopeFor({ tier: 'spend' })).toBe('chain:spend');
    expect(scopeFor({ tier: 'admin' })).toBe('chain:admin');
    expect(mayUse({ tier: 'admin' }, ['chain:read', 'chain:spend'])).toBe(false);
    expect(mayUse({ tier: 'admin' }, ['chain:admin'])).toBe(true);
  });

  it('a tools/call outside the scopes: 403 with the challenge and a JSON body naming the scope, an audit line, and true', async () => {
    const { log, lines } = recording();
    const rs = resource(log);
    const tools: Record<string, Pick<ToolDef, 'tier'>> = { xvm_send: { tier: 'spend' }, info_getNodeID: { tier: 'read' } };
    const refused: boolean[] = [];
    handler = (req, res) => {
      let text = '';
      req.on('data', (c: Buffer) => {
        text += c.toString('utf8');
      });
      req.on('end', () => {
        const auth = { token: 't', clientId: 'c', scopes: ['chain:read'], extra: { sub: 'alice' } };
        const out = rs.refuseOutOfScope(res, auth, JSON.parse(text), (name) => tools[name] as ToolDef | undefined);
        refused.push(out);
        if (!out) res.writeHead(200, { 'content-type': 'application/json' }).end('{"passed":true}');
      });
    };
    const call = (name: string) => fetch(base, { method: 'POST', body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: {} } }) });
    const res = await call('xvm_send');
    expect(res.status).toBe(403);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(res.headers.get('www-authenticate')).toBe(
      'Bearer error="insufficient_scope", scope="chain:spend", resource_metadata="https://chain.example.test/.well-known/oauth-protected-resource/mcp", error_description="xvm_send needs the chain:spend scope"',
    );
    expect(await res.json()).toEqual({ error: 'insufficient_scope', error_description: 'xvm_send needs the chain:spend scope' });
    for (const name of ['info_getNodeID', 'no_such_tool']) {
      const ok = await call(name);
      expect(ok.status, name).toBe(200);
      await ok.text();
    }
    expect(refused).toEqual([true, false, false]);
    expect(lines.filter((l) => 'audit' in l).map(({ audit, tool, scope, msg }) => ({ audit, tool, scope, msg }))).toEqual([
      { audit: 'insufficient_scope', tool: 'xvm_send', scope: 'chain:spend', msg: 'tool call refused: scope missing from the token' },
    ]);
  });

  it('429 is a JSON-RPC error (code -32000) with the wait in Retry-After and in words', async () => {
    handler = (_req, res) => tooMany(res, { retryAfterSeconds: 42, limit: '10/min (CHAIN_MCP_RATE_LIMIT)' });
    const res = await fetch(base);
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe('42');
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(await res.json()).toEqual({ jsonrpc: '2.0', error: { code: -32000, message: 'Too many requests: at most 10/min (CHAIN_MCP_RATE_LIMIT); retry in 42 s.' }, id: null });
  });

  it("a token's calls belong to its string subject; without a subject (or without extra) to nobody", () => {
    expect(subjectOf({ token: 't', clientId: 'c', scopes: [], extra: { sub: 'alice' } })).toBe('alice');
    expect(ownerOfAuth({ token: 't', clientId: 'c', scopes: [], extra: { sub: 'alice' } })).toBe('oauth:alice');
    expect(subjectOf({ token: 't', clientId: 'c', scopes: [] })).toBeUndefined();
    expect(ownerOfAuth({ token: 't', clientId: 'c', scopes: [] })).toBeUndefined();
    expect(subjectOf({ token: 't', clientId: 'c', scopes: [], extra: { sub: 42 } })).toBeUndefined();
    expect(subjectOf({ token: 't', clientId: 'c', scopes: [], extra: {} })).toBeUndefined();
    expect(subjectOf(undefined)).toBeUndefined();
  });
});
