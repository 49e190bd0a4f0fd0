import { request } from 'node:http';
import { Client } from '@modelcontextprotocol/client';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { OAuthProtectedResourceMetadataSchema } from '@modelcontextprotocol/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';
import { serveHttp } from '../../src/http-server.js';
import { diagnose } from '../../src/doctor.js';
import { silentLogger } from '../../src/log.js';
import { createServices } from '../../src/server.js';
import { Services } from '../../src/services.js';
import { LOGIN_TTL_MS } from '../../src/auth/approval-login.js';
import { type Devnet, startDevnet } from '../../src/devnet/index.js';
import { devnetEnv } from '../helpers/stack.js';
import { requestsFor } from '../helpers/spend-harness.js';
import { startIssuer, type TestIssuer, testBrowser } from '../../tools/test-issuer.js';

/**
 * --http as an OAuth 2.1 resource server against a real token issuer on loopback (test/helpers/issuer.ts):
 * RFC 9728 metadata, 401 naming it, audience/issuer/expiry/signature checks, scopes that decide
 * tools/list and answer 403 insufficient_scope, ownership of confirmation ids, and the rate limit.
 * Drives src/auth/resource.ts, verify.ts, scopes.ts, rate.ts, client-address.ts and approval-login.ts
 * from the outside (the HTTP endpoint).
 */
const PUBLIC_ORIGIN = 'https://chain.example.test';
const PUBLIC_URL = `${PUBLIC_ORIGIN}/mcp`;
const INIT = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '0' } } };

describe('--http with OAuth', () => {
  let devnet: Devnet;
  let issuer: TestIssuer;
  const env = (extra: Record<string, string> = {}) =>
    devnetEnv(devnet, {
      CHAIN_MCP_OAUTH_ISSUER: issuer.issuer,
      CHAIN_MCP_PUBLIC_URL: PUBLIC_URL,
      CHAIN_MCP_ALLOW_SPEND: 'true',
      CHAIN_MCP_APPROVAL: 'confirm-id',
      CHAIN_MCP_STATE: 'memory',
      CHAIN_MCP_KEYSTORE_USER: devnet.keystore.username,
      CHAIN_MCP_KEYSTORE_PASSWORD: devnet.keystore.password,
      ...extra,
    });
  const start = (e: Record<string, string>) => {
    const config = loadConfig(e);
    return serveHttp({ config, log: silentLogger(), services: createServices(config, silentLogger()), port: 0 });
  };
  const post = (port: number, body: unknown, token?: string, path = '/mcp') =>
    fetch(`http://127.0.0.1:${port}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify(body),
    });
  const connect = async (port: number, token: string) => {
    const client = new Client({ name: 'oauth-test', version: '0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
    return client;
  };
  const token = (sub: string, scope: string, extra: Parameters<TestIssuer['mint']>[0] extends infer T ? Partial<T> : never = {}) => issuer.mint({ sub, scope, aud: PUBLIC_URL, ...extra });

  beforeAll(async () => {
    devnet = await startDevnet();
    devnet.router.record = true;
    issuer = await startIssuer();
  });
  afterAll(async () => {
    await issuer.close();
    await devnet.close();
  });

  it('stops the start with one line for an issuer without a public URL, a lone audience, or a shared token beside OAuth', async () => {
    expect(() => loadConfig({ CHAIN_MCP_OAUTH_ISSUER: 'https://id.example.test' })).toThrow(/^CHAIN_MCP_OAUTH_ISSUER needs CHAIN_MCP_PUBLIC_URL/);
    expect(() => loadConfig({ CHAIN_MCP_OAUTH_AUDIENCE: 'x' })).toThrow(/^CHAIN_MCP_OAUTH_AUDIENCE: set only with CHAIN_MCP_OAUTH_ISSUER/);
    expect(() => loadConfig({ CHAIN_MCP_PUBLIC_URL: 'https://chain.example.test/' })).toThrow(/^CHAIN_MCP_PUBLIC_URL: expected the MCP endpoint/);
    expect(() => loadConfig({ CHAIN_MCP_RATE_LIMIT: '60 per minute' })).toThrow(/^CHAIN_MCP_RATE_LIMIT: expected requests per period/);
    expect(() => loadConfig(env({ CHAIN_MCP_DYNAMIC: 'true' }))).toThrow(/^CHAIN_MCP_DYNAMIC and CHAIN_MCP_OAUTH_ISSUER: choose one/);
    const err = await start(env({ CHAIN_MCP_HTTP_TOKEN: 'http-token-0123456789abcdef' })).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as Error).message).toMatch(/^CHAIN_MCP_HTTP_TOKEN and CHAIN_MCP_OAUTH_ISSUER: choose one/);
    // With OAuth, spends need no shared token.
    const server = await start(env());
    await server.close();
    // Off loopback only with OAuth: without it nothing tells one caller from another.
    const plain = loadConfig(devnetEnv(devnet));
    const offLoopback = await serveHttp({ config: plain, log: silentLogger(), services: createServices(plain, silentLogger()), port: 0, host: '0.0.0.0' }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect((offLoopback as Error).message).toMatch(/^--host 0\.0\.0\.0: only with OAuth/);
  });

  it('serves the RFC 9728 metadata at both addresses, naming the issuer and the scopes, and /healthz', async () => {
    const server = await start(env());
    try {
      for (const path of ['/.well-known/oauth-protected-resource/mcp', '/.well-known/oauth-protected-resource']) {
        const res = await fetch(`http://127.0.0.1:${server.port}${path}`);
        expect(res.status).toBe(200);
        const doc = OAuthProtectedResourceMetadataSchema.parse(await res.json());
        expect(doc.resource).toBe(PUBLIC_URL);
        expect(doc.authorization_servers).toEqual([issuer.issuer]);
        expect(doc.scopes_supported).toEqual(['chain:read', 'chain:spend', 'chain:admin']);
      }
      // Browsers' clients read it across origins: the preflight is answered, anything but GET is not served.
      const preflight = await fetch(`http://127.0.0.1:${server.port}/.well-known/oauth-protected-resource/mcp`, { method: 'OPTIONS' });
      expect(preflight.status).toBe(204);
      expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
      expect(preflight.headers.get('access-control-allow-methods')).toBe('GET, OPTIONS');
      const posted = await fetch(`http://127.0.0.1:${server.port}/.well-known/oauth-protected-resource`, { method: 'POST', body: '{}' });
      expect(posted.status).toBe(405);
      expect(posted.headers.get('allow')).toBe('GET, OPTIONS');
      const got = await fetch(`http://127.0.0.1:${server.port}/.well-known/oauth-protected-resource`);
      expect(got.headers.get('access-control-allow-origin')).toBe('*');
      await got.text();
      const health = await fetch(`http://127.0.0.1:${server.port}/healthz`);
      expect(health.status).toBe(200);
      expect(await health.json()).toEqual({ status: 'ok' });
    } finally {
      await server.close();
    }
  });

  it('answers 401 with resource_metadata without a token and for a forged, expired, foreign or other-audience one', async () => {
    const server = await start(env());
    const sent = requestsFor(devnet, 'info.getNodeID');
    try {
      const none = await post(server.port, INIT);
      expect(none.status).toBe(401);
      expect(none.headers.get('www-authenticate')).toContain('resource_metadata="https://chain.example.test/.well-known/oauth-protected-resource/mcp"');
      await none.text();
      const bad: Array<[string, string]> = [
        [await token('alice', 'chain:read', { aud: 'https://other.example.test/mcp' }), 'the token is for another audience'],
        [await token('alice', 'chain:read', { expiresIn: -60 }), 'the token has expired'],
        [await token('alice', 'chain:read', { unpublished: true }), 'the token signature does not verify'],
        [await token('alice', 'chain:read', { iss: 'https://impostor.example.test' }), 'the token is from another issuer'],
        [await token('alice', 'chain:read', { noSub: true }), 'the token names no subject'],
        // A token without an expiry would be good forever: refused, whatever else it carries.
        [await token('alice', 'chain:read chain:spend chain:admin', { noExp: true }), 'the token has no expiry'],
        [await token('alice', 'chain:read', { notBefore: 600 }), 'the token is not valid yet'],
        [await token('alice', 'chain:read', { hs256: true }), 'the token algorithm is not one of RS256, ES256, EdDSA'],
        [await token('alice', 'chain:read', { kid: 'rotated-away' }), 'the token is signed by a key the issuer does not publish'],
        ['not-a-jwt', 'the token is not a signed JWT this server can verify'],
      ];
      for (const [jwt, why] of bad) {
        const res = await post(server.port, INIT, jwt);
        expect(res.status, why).toBe(401);
        const header = res.headers.get('www-authenticate') ?? '';
        expect(header).toMatch(/^Bearer error="invalid_token"/);
        expect(header).toContain(`error_description="${why}"`);
        expect(header).toContain('resource_metadata=');
        expect(header).not.toContain(jwt);
        await res.text();
      }
      for (const alg of ['RS256', 'ES256', 'EdDSA'] as const) {
        const res = await post(server.port, INIT, await token('alice', 'chain:read', { alg }));
        expect(res.status, alg).toBe(200);
        await res.text();
      }
      // Discovery and the key set were fetched once and kept.
      expect(issuer.hits.get('/.well-known/openid-configuration')).toBe(1);
      expect(requestsFor(devnet, 'info.getNodeID')).toBe(sent);
    } finally {
      await server.close();
    }
  });

  it('lists only the tools the scopes open; a spend outside them gets HTTP 403 insufficient_scope naming chain:spend', async () => {
    const server = await start(env());
    const reader = await connect(server.port, await token('alice', 'chain:read'));
    const spender = await connect(server.port, await token('alice', 'chain:read chain:spend'));
    try {
      const readerTools = (await reader.listTools()).tools.map((t) => t.name);
      const spenderTools = (await spender.listTools()).tools.map((t) => t.name);
      expect(readerTools).toContain('info_getNodeID');
      expect(readerTools).not.toContain('xvm_send');
      expect(spenderTools).toContain('xvm_send');
      expect(spenderTools.filter((n) => !readerTools.includes(n)).length).toBeGreaterThan(5);
      // Wallet tools act as the operator's keystore user: chain:spend, never chain:read alone.
      expect(readerTools).not.toContain('xvm_createAddress');
      expect(readerTools).not.toContain('xvm_listAddresses');
      expect(spenderTools).toContain('xvm_createAddress');
      // Scopes also arrive as a list (`scp`) or as Auth0's `permissions`.
      for (const claims of [{ scp: ['chain:read', 'chain:spend'] }, { permissions: ['chain:read', 'chain:spend'] }]) {
        const other = await connect(server.port, await token('alice', '', { claims }));
        expect((await other.listTools()).tools.map((t) => t.name)).toEqual(spenderTools);
        await other.close();
      }
      const call = { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'xvm_send', arguments: { amount: '1', assetID: 'CAM', to: 'X-kopernikus1xyz' } } };
      const res = await post(server.port, call, await token('alice', 'chain:read'));
      expect(res.status).toBe(403);
      expect(res.headers.get('www-authenticate')).toMatch(/^Bearer error="insufficient_scope", scope="chain:spend"/);
      await res.text();
      const sentBefore = requestsFor(devnet, 'avm.createAddress') + requestsFor(devnet, 'xvm.createAddress');
      const wallet = await post(server.port, { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'xvm_createAddress', arguments: {} } }, await token('alice', 'chain:read'));
      expect(wallet.status).toBe(403);
      expect(wallet.headers.get('www-authenticate')).toMatch(/^Bearer error="insufficient_scope", scope="chain:spend"/);
      await wallet.text();
      expect(requestsFor(devnet, 'avm.createAddress') + requestsFor(devnet, 'xvm.createAddress')).toBe(sentBefore);
      // Spends stay the operator's choice: chain:spend without CHAIN_MCP_ALLOW_SPEND lists none.
      const readOnly = await start(env({ CHAIN_MCP_ALLOW_SPEND: 'false' }));
      const c = await connect(readOnly.port, await token('alice', 'chain:read chain:spend'));
      expect((await c.listTools()).tools.map((t) => t.name)).not.toContain('xvm_send');
      await c.close();
      await readOnly.close();
    } finally {
      await reader.close();
      await spender.close();
      await server.close();
    }
  });

  it("user 2 cannot confirm user 1's preview: refused, nothing sent, and the id still works for user 1 on any request", async () => {
    const server = await start(env());
    const one = await connect(server.port, await token('user-1', 'chain:read chain:spend'));
    const two = await connect(server.port, await token('user-2', 'chain:read chain:spend'));
    try {
      const args = { amount: '1000000000', assetID: 'CAM', to: devnet.state.users.get('alice')!.keys[1]!.x };
      const preview = await one.callTool({ name: 'xvm_send', arguments: args });
      const id = (preview.structuredContent as { confirmationId: string }).confirmationId;
      const before = requestsFor(devnet, 'xvm.send');
      const stolen = await two.callTool({ name: 'xvm_send', arguments: { ...args, confirm: id } });
      expect(stolen.isError).toBe(true);
      expect(JSON.stringify(stolen.content)).toContain('to another user');
      expect(requestsFor(devnet, 'xvm.send')).toBe(before);
      // A new connection of user 1 (stateless: no session ties the two calls) confirms it, once.
      const again = await connect(server.port, await token('user-1', 'chain:read chain:spend'));
      const sent = await again.callTool({ name: 'xvm_send', arguments: { ...args, confirm: id } });
      expect((sent.structuredContent as { status: string }).status).toBe('issued');
      expect(requestsFor(devnet, 'xvm.send')).toBe(before + 1);
      await again.close();
    } finally {
      await one.close();
      await two.close();
      await server.close();
    }
  });

  it('answers 429 with Retry-After past CHAIN_MCP_RATE_LIMIT per user; another user keeps their own allowance', async () => {
    const server = await start(env({ CHAIN_MCP_RATE_LIMIT: '3/min' }));
    try {
      const alice = await token('alice', 'chain:read');
      for (let i = 0; i < 3; i++) {
        const res = await post(server.port, INIT, alice);
        expect(res.status).toBe(200);
        await res.text();
      }
      const over = await post(server.port, INIT, alice);
      expect(over.status).toBe(429);
      expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(Number(over.headers.get('retry-after'))).toBeLessThanOrEqual(60);
      expect(await over.text()).toContain('CHAIN_MCP_RATE_LIMIT');
      const bob = await post(server.port, INIT, await token('bob', 'chain:read'));
      expect(bob.status).toBe(200);
      await bob.text();
      // Without a valid token, the address is counted: 401s until its allowance is gone, then 429.
      const statuses: number[] = [];
      for (let i = 0; i < 5; i++) {
        const res = await post(server.port, INIT, 'forged');
        statuses.push(res.status);
        await res.text();
      }
      expect(statuses.slice(0, 3)).toEqual([401, 401, 401]);
      expect(statuses.at(-1)).toBe(429);
    } finally {
      await server.close();
    }
  });

  it('X-Real-IP and X-Forwarded-For count only from a CHAIN_MCP_TRUSTED_PROXIES peer: from loopback alone they are the sender\'s own word', async () => {
    const forged = (port: number, headers: Record<string, string>) =>
      fetch(`http://127.0.0.1:${port}/mcp`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: 'Bearer forged', ...headers }, body: JSON.stringify(INIT) }).then(
        async (res) => {
          await res.text();
          return res.status;
        },
      );
    // No trusted proxy: a new X-Real-IP (or X-Forwarded-For) on each request still counts against the one peer.
    const plain = await start(env({ CHAIN_MCP_RATE_LIMIT: '3/min' }));
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 5; i++) statuses.push(await forged(plain.port, { 'x-real-ip': `203.0.113.${i + 1}`, 'x-forwarded-for': `198.51.100.${i + 1}` }));
      // The address is stopped once it has used its allowance (the fourth refusal counts, the fifth is held).
      expect(statuses).toEqual([401, 401, 401, 401, 429]);
    } finally {
      await plain.close();
    }
    // Behind a trusted proxy on loopback: each client its own allowance, named by the proxy's headers.
    const proxied = await start(env({ CHAIN_MCP_RATE_LIMIT: '3/min', CHAIN_MCP_TRUSTED_PROXIES: '127.0.0.1, ::1' }));
    try {
      const one: number[] = [];
      for (let i = 0; i < 5; i++) one.push(await forged(proxied.port, { 'x-real-ip': '203.0.113.9' }));
      expect(one).toEqual([401, 401, 401, 401, 429]);
      expect(await forged(proxied.port, { 'x-real-ip': '203.0.113.10' })).toBe(401);
      // X-Forwarded-For: the right-most hop the proxy appended, not what the client wrote before it.
      const viaForwarded: number[] = [];
      for (let i = 0; i < 5; i++) viaForwarded.push(await forged(proxied.port, { 'x-forwarded-for': `198.51.100.${i + 1}, 203.0.113.20` }));
      expect(viaForwarded).toEqual([401, 401, 401, 401, 429]);
      expect(await forged(proxied.port, { 'x-forwarded-for': '203.0.113.20, 203.0.113.21' })).toBe(401);
    } finally {
      await proxied.close();
    }
    expect(() => loadConfig(env({ CHAIN_MCP_TRUSTED_PROXIES: '10.0.0.0/33' }))).toThrow(/^CHAIN_MCP_TRUSTED_PROXIES: expected IP addresses or networks/);
    expect(() => loadConfig(env({ CHAIN_MCP_TRUSTED_PROXIES: 'proxy.internal' }))).toThrow(/^CHAIN_MCP_TRUSTED_PROXIES: expected IP addresses or networks/);
    expect(() => loadConfig(devnetEnv(devnet, { CHAIN_MCP_TRUSTED_PROXIES: '127.0.0.1' }))).toThrow(/^CHAIN_MCP_TRUSTED_PROXIES: set only with CHAIN_MCP_OAUTH_ISSUER/);
  });

  it('under OAuth a request naming another Host, or sent from another Origin, is refused before anything is served (DNS rebinding)', async () => {
    const server = await start(env());
    const raw = (path: string, headers: Record<string, string>, method = 'POST', body = JSON.stringify(INIT)) =>
      new Promise<{ status: number; text: string }>((resolve, reject) => {
        const req = request({ host: '127.0.0.1', port: server.port, path, method, headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers } }, (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (c: string) => {
            text += c;
          });
          res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
        });
        req.on('error', reject);
        req.end(method === 'POST' ? body : undefined);
      });
    try {
      const jwt = await token('alice', 'chain:read');
      const bearer = { authorization: `Bearer ${jwt}` };
      const sent = requestsFor(devnet, 'info.getNodeID');
      // A rebound name (the attacker's domain now resolving to this server) or any other host.
      for (const host of ['evil.example.test', `evil.example.test:${server.port}`, 'chain.example.test.evil.example', '10.0.0.1']) {
        const refused = await raw('/mcp', { ...bearer, host });
        expect(refused.status, host).toBe(403);
        expect(refused.text).toContain('this host or origin is not the public URL');
        expect((await raw('/.well-known/oauth-protected-resource/mcp', { host }, 'GET')).status, host).toBe(403);
        expect((await raw('/approve/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA', { host }, 'GET')).status, host).toBe(403);
      }
      // The public host (a proxy passes it on) is served; from another site's page it is not.
      expect((await raw('/mcp', { ...bearer, host: 'chain.example.test' })).status).toBe(200);
      expect((await raw('/mcp', { ...bearer, host: 'chain.example.test', origin: 'https://evil.example.test' })).status).toBe(403);
      expect((await raw('/mcp', { ...bearer, host: 'chain.example.test', origin: PUBLIC_ORIGIN })).status).toBe(200);
      expect(requestsFor(devnet, 'info.getNodeID')).toBe(sent);
    } finally {
      await server.close();
    }
  });

  it('an identity provider that cannot be reached is the server\'s trouble (HTTP 500), not the token\'s (no 401 loop), and is tried again', async () => {
    const server = await start(env({ CHAIN_MCP_OAUTH_ISSUER: 'http://127.0.0.1:9/realms/gone' }));
    try {
      for (let i = 0; i < 2; i++) {
        const res = await post(server.port, INIT, await token('alice', 'chain:read'));
        expect(res.status).toBe(500);
        const body = (await res.json()) as { error?: string; error_description?: string };
        expect(body.error).toBe('server_error');
        expect(body.error_description).toMatch(/^the identity provider cannot be reached: no metadata for the issuer http:\/\/127\.0\.0\.1:9\/realms\/gone/);
      }
    } finally {
      await server.close();
    }
  });

  const browser = (user: string, port: number) => {
    const b = testBrowser(issuer, user, PUBLIC_ORIGIN, port);
    return (url: string, init?: Parameters<typeof b.go>[1]) => b.go(url, init);
  };

  it("the approval page sits behind the spend's own user's login: user 2 signs in and sees nothing, cannot decide; user 1 approves and the confirm sends once", async () => {
    expect(() => loadConfig(env({ CHAIN_MCP_APPROVAL: 'human' }))).toThrow(/^CHAIN_MCP_OAUTH_CLIENT_ID: required with OAuth and spends/);
    const server = await start(env({ CHAIN_MCP_APPROVAL: 'human', CHAIN_MCP_OAUTH_CLIENT_ID: 'chain-mcp-approvals', CHAIN_MCP_APPROVAL_WAIT_MS: '0' }));
    const one = await connect(server.port, await token('user-1', 'chain:read chain:spend'));
    const two = await connect(server.port, await token('user-2', 'chain:read chain:spend'));
    try {
      const args = { amount: '1000000000', assetID: 'CAM', to: devnet.state.users.get('alice')!.keys[1]!.x };
      const preview = await one.callTool({ name: 'xvm_send', arguments: args });
      const { confirmationId: id, approvalUrl } = preview.structuredContent as { confirmationId: string; approvalUrl: string };
      expect(approvalUrl).toMatch(/^https:\/\/chain\.example\.test\/approve\/[A-Za-z0-9_-]{20,}$/);
      expect(JSON.stringify(preview.content)).toContain('they sign in and approve there');
      const before = requestsFor(devnet, 'xvm.send');
      // Not approved yet: the confirm sends nothing and the id stays.
      const early = await one.callTool({ name: 'xvm_send', arguments: { ...args, confirm: id } });
      expect(early.isError).toBe(true);
      expect(JSON.stringify(early.content)).toContain('Not approved by the human yet');
      // User 2 cannot confirm it either.
      const stolen = await two.callTool({ name: 'xvm_send', arguments: { ...args, confirm: id } });
      expect(JSON.stringify(stolen.content)).toContain('to another user');

      const mallory = browser('user-2', server.port);
      const seen = await mallory(approvalUrl);
      expect(seen.status).toBe(403);
      const seenText = await seen.text();
      expect(seenText).toContain('belongs to another account');
      expect(seenText).not.toContain('1000000000');
      const forced = await mallory(approvalUrl, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'https://chain.example.test' }, body: 'decision=approve&csrf=x' });
      expect(forced.status).toBe(403);
      await forced.text();
      // A browser that never signed in is sent to the provider, never shown the facts.
      const anonymous = await fetch(approvalUrl.replace('https://chain.example.test', `http://127.0.0.1:${server.port}`), { redirect: 'manual' });
      expect(anonymous.status).toBe(302);
      expect(anonymous.headers.get('location')).toMatch(new RegExp(`^${issuer.issuer}/authorize\\?`));
      expect(new URL(anonymous.headers.get('location')!).searchParams.get('code_challenge_method')).toBe('S256');
      await anonymous.text();

      const alice = browser('user-1', server.port);
      const shown = await alice(approvalUrl);
      expect(shown.status).toBe(200);
      const html = await shown.text();
      expect(html).toContain('1000000000');
      const csrf = /name="csrf" value="([^"]+)"/.exec(html)?.[1];
      expect(csrf).toBeDefined();
      // Another site's form is refused even with the user's cookie and the page's own form token:
      // a foreign Origin, none at all, or the browser's word that the form came from another site.
      // (A foreign Origin is already refused by the server's host and origin check; the page refuses the rest.)
      const evil = await alice(approvalUrl, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'https://evil.example.test' }, body: `decision=approve&csrf=${csrf}` });
      expect(evil.status).toBe(403);
      await evil.text();
      const crossSite: Array<Record<string, string>> = [{}, { origin: PUBLIC_ORIGIN, 'sec-fetch-site': 'cross-site' }, { origin: PUBLIC_ORIGIN, 'sec-fetch-site': 'same-site' }];
      for (const headers of crossSite) {
        const foreign = await alice(approvalUrl, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers }, body: `decision=approve&csrf=${csrf}` });
        expect(foreign.status, JSON.stringify(headers)).toBe(403);
        expect(await foreign.text()).toContain('accepted only from this page itself');
      }
      expect(requestsFor(devnet, 'xvm.send')).toBe(before);
      const approved = await alice(approvalUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'https://chain.example.test', 'sec-fetch-site': 'same-origin' },
        body: `decision=approve&csrf=${csrf}`,
      });
      expect(approved.status).toBe(200);
      expect(await approved.text()).toContain('Approved');

      const sent = await one.callTool({ name: 'xvm_send', arguments: { ...args, confirm: id } });
      expect((sent.structuredContent as { status: string }).status).toBe('issued');
      expect(requestsFor(devnet, 'xvm.send')).toBe(before + 1);
    } finally {
      await one.close();
      await two.close();
      await server.close();
    }
  });

  it('the approval page under OAuth: its cookies, a sign-in that did not start here, a forged or lapsed sign-in, and each wrong request answered without deciding', async () => {
    let now = Date.now();
    const config = loadConfig(env({ CHAIN_MCP_APPROVAL: 'human', CHAIN_MCP_OAUTH_CLIENT_ID: 'chain-mcp-approvals', CHAIN_MCP_APPROVAL_WAIT_MS: '0' }));
    const services = new Services({ config, log: silentLogger(), now: () => now });
    const server = await serveHttp({ config, log: silentLogger(), services, port: 0 });
    const one = await connect(server.port, await token('user-1', 'chain:read chain:spend'));
    const local = (url: string) => url.replace(PUBLIC_ORIGIN, `http://127.0.0.1:${server.port}`);
    const form = { 'content-type': 'application/x-www-form-urlencoded', origin: PUBLIC_ORIGIN };
    const previewUrl = async () => {
      const preview = await one.callTool({ name: 'xvm_send', arguments: { amount: '1000000000', assetID: 'CAM', to: devnet.state.users.get('alice')!.keys[1]!.x } });
      return (preview.structuredContent as { approvalUrl: string }).approvalUrl;
    };
    try {
      const first = await previewUrl();
      const before = requestsFor(devnet, 'xvm.send');
      expect((await fetch(local(`${PUBLIC_ORIGIN}/approve/${'A'.repeat(32)}`))).status).toBe(404);
      // The first visit goes to the provider; the PKCE verifier waits in a cookie only this path, over HTTPS, gets.
      const visit = await fetch(local(first), { redirect: 'manual' });
      expect(visit.status).toBe(302);
      const [pkce] = visit.headers.getSetCookie();
      expect(pkce).toMatch(/^chain_mcp_pkce=[^;]+; Path=\/approve; HttpOnly; SameSite=Lax; Max-Age=600; Secure$/);
      const state = new URL(visit.headers.get('location') ?? '').searchParams.get('state');
      const cookie = pkce!.split(';')[0]!;
      const callback = (query: string, headers: Record<string, string> = { cookie }) => fetch(local(`${PUBLIC_ORIGIN}/approve/callback?${query}`), { headers, redirect: 'manual' });
      // A callback that did not start here, answers another sign-in, or brings a code the provider never issued.
      expect((await callback(`code=x&state=${state}`, {})).status).toBe(400);
      expect((await callback('code=x&state=another')).status).toBe(400);
      expect((await callback(`state=${state}`)).status).toBe(400);
      const forgedCode = await callback(`code=forged&state=${state}`);
      expect(forgedCode.status).toBe(403);
      expect(await forgedCode.text()).toContain('did not confirm who you are');
      // A post with no sign-in, or a login cookie this deployment did not sign, decides nothing.
      const forgedLogin = `chain_mcp_login=${Buffer.from(JSON.stringify({ o: 'oauth:user-1', exp: now + 60_000 })).toString('base64url')}.AAAA`;
      for (const headers of [form, { ...form, cookie: forgedLogin }]) {
        const anon = await fetch(local(first), { method: 'POST', headers, body: 'decision=approve&csrf=x', redirect: 'manual' });
        expect(anon.status).toBe(403);
        expect(await anon.text()).toContain('Sign in first');
      }
      const alice = testBrowser(issuer, 'user-1', PUBLIC_ORIGIN, server.port);
      const html = await (await alice.go(first)).text();
      const csrf = /name="csrf" value="([^"]+)"/.exec(html)?.[1] ?? '';
      expect((await alice.go(first, { method: 'PUT' })).status).toBe(405);
      const noDecision = await alice.go(first, { method: 'POST', headers: form, body: `csrf=${csrf}` });
      expect(noDecision.status).toBe(400);
      const wrongToken = await alice.go(first, { method: 'POST', headers: form, body: 'decision=approve&csrf=not-this-page' });
      expect(wrongToken.status).toBe(403);
      expect(await wrongToken.text()).toContain('This form is not from this page');
      // Past its 5 minutes the approval is gone; past 10 the sign-in is too, so a new preview needs a new sign-in.
      now += LOGIN_TTL_MS + 1_000;
      expect((await alice.go(first, { method: 'POST', headers: form, body: `decision=approve&csrf=${csrf}` })).status).toBe(410);
      const second = await previewUrl();
      const lapsed = await alice.go(second, { method: 'POST', headers: form, body: 'decision=approve&csrf=x' });
      expect(lapsed.status).toBe(403);
      expect(await lapsed.text()).toContain('Sign in first');
      const declined = await alice.decide(second, 'decline');
      expect(declined.status).toBe(200);
      expect(await declined.text()).toContain('Declined');
      const again = await alice.decide(second, 'approve');
      expect(again.status).toBe(409);
      expect(requestsFor(devnet, 'xvm.send')).toBe(before);
    } finally {
      await one.close();
      await server.close();
      await services.close();
    }
  });

  it('--check reports the issuer (metadata and JWKS reachable), the public URL, and an issuer that cannot be used', async () => {
    const check = async (e: Record<string, string>) => {
      const config = loadConfig(e);
      const services = createServices(config, silentLogger());
      try {
        return await diagnose(services);
      } finally {
        await services.close();
      }
    };
    const good = await check(env());
    expect(good).toContainEqual({ level: 'ok', text: `issuer ${issuer.issuer}: metadata found, JWKS at ${issuer.issuer}/jwks reachable (3 usable keys: RS256, ES256, EdDSA)` });
    expect(good.find((f) => f.text.startsWith('public URL'))).toEqual({
      level: 'ok',
      text: `public URL ${PUBLIC_URL}: tokens must name the audience ${PUBLIC_URL}; metadata at ${PUBLIC_ORIGIN}/.well-known/oauth-protected-resource/mcp; load balancers probe /healthz`,
    });
    const elsewhere = await startIssuer({ path: '/realms/x' });
    try {
      // The provider answers, but names itself differently (no trailing slash): its keys are not trusted.
      const bad = await check(env({ CHAIN_MCP_OAUTH_ISSUER: `${elsewhere.issuer}/`, CHAIN_MCP_PUBLIC_URL: 'http://chain.example.test/mcp' }));
      expect(bad.find((f) => f.text.startsWith('issuer'))).toEqual({
        level: 'fail',
        text: `issuer ${elsewhere.issuer}/ cannot be used: ${elsewhere.issuer}/.well-known/openid-configuration names the issuer "${elsewhere.issuer}", not CHAIN_MCP_OAUTH_ISSUER "${elsewhere.issuer}/" (they must be identical, trailing slash included)`,
      });
      const none = await check(env({ CHAIN_MCP_OAUTH_ISSUER: `${elsewhere.issuer}/missing` }));
      expect(none.find((f) => f.text.startsWith('issuer'))?.text).toMatch(/cannot be used: no metadata for the issuer .*HTTP 404/);
      expect(bad.find((f) => f.text.startsWith('public URL'))?.level).toBe('warn');
      // An issuer with a path (Keycloak's realms) is found where OpenID Connect puts it.
      const realm = await check(env({ CHAIN_MCP_OAUTH_ISSUER: elsewhere.issuer }));
      expect(realm.find((f) => f.text.startsWith('issuer'))?.level).toBe('ok');
    } finally {
      await elsewhere.close();
    }
  });
});
