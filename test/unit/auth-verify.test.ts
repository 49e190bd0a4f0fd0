import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { OAuthError } from '@modelcontextprotocol/server';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Issuer } from '../../src/auth/issuer.js';
import { JwtVerifier } from '../../src/auth/verify.js';
import { startIssuer, type TestIssuer } from '../../tools/test-issuer.js';

/**
 * src/auth/verify.ts through JwtVerifier.verifyAccessToken against the test issuer on loopback:
 * what a good token gives (client id, scopes, subject), why a bad one is refused (invalid_token),
 * and a key set that cannot be fetched (server_error: the server's trouble, not the token's).
 */
const AUD = 'https://chain.example.test/mcp';

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}
const close = (server: Server) =>
  new Promise<void>((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });

describe('the bearer token verifier', () => {
  let issuer: TestIssuer;
  let verifier: JwtVerifier;
  beforeAll(async () => {
    issuer = await startIssuer();
    verifier = new JwtVerifier(new Issuer(issuer.issuer), AUD);
  });
  afterAll(() => issuer.close());
  const mint = (claims: Record<string, unknown>, extra: Partial<Parameters<TestIssuer['mint']>[0]> = {}) => issuer.mint({ sub: 'alice', aud: AUD, claims, ...extra });
  const refusal = (token: string) =>
    verifier.verifyAccessToken(token).then(
      () => undefined,
      (err: unknown) => err as OAuthError,
    );

  it('gives the scopes of `scope` (space-separated, extra spaces ignored), `scp` and `permissions` together, once each', async () => {
    const scopesOf = async (claims: Record<string, unknown>) => (await verifier.verifyAccessToken(await mint(claims))).scopes;
    expect(await scopesOf({ scope: 'chain:read chain:spend' })).toEqual(['chain:read', 'chain:spend']);
    expect(await scopesOf({ scope: ' chain:read  chain:spend ' })).toEqual(['chain:read', 'chain:spend']);
    expect(await scopesOf({ scp: ['chain:read', 7, 'chain:admin'] })).toEqual(['chain:read', 'chain:admin']);
    expect(await scopesOf({ scp: 'chain:admin' })).toEqual(['chain:admin']);
    expect(await scopesOf({ scope: 'chain:read', permissions: ['chain:spend', 'chain:read'] })).toEqual(['chain:read', 'chain:spend']);
    expect(await scopesOf({ scope: 42, scp: { 'chain:read': true } })).toEqual([]);
    expect(await scopesOf({})).toEqual([]);
  });

  it('gives the client id from azp, else client_id, else none; the subject and expiry as claimed', async () => {
    const clientOf = async (claims: Record<string, unknown>) => (await verifier.verifyAccessToken(await mint({ scope: 'chain:read', ...claims }))).clientId;
    expect(await clientOf({ azp: 'the-azp' })).toBe('the-azp');
    expect(await clientOf({ azp: undefined, client_id: 'the-client-id' })).toBe('the-client-id');
    expect(await clientOf({ azp: 'the-azp', client_id: 'the-client-id' })).toBe('the-azp');
    expect(await clientOf({ azp: 5, client_id: 'the-client-id' })).toBe('the-client-id');
    expect(await clientOf({ azp: undefined })).toBe('');
    const token = await mint({ scope: 'chain:read' }, { sub: 'bob', expiresIn: 120 });
    const auth = await verifier.verifyAccessToken(token);
    expect(auth.token).toBe(token);
    expect(auth.extra).toEqual({ sub: 'bob' });
    expect(auth.expiresAt).toBe(JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()).exp);
  });

  it('takes RS256, ES256 and EdDSA; refuses a bad token as invalid_token with the reason', async () => {
    for (const alg of ['RS256', 'ES256', 'EdDSA'] as const) expect((await verifier.verifyAccessToken(await mint({ scope: 'chain:read' }, { alg }))).extra).toEqual({ sub: 'alice' });
    const cases: Array<[string, string]> = [
      [await mint({}, { hs256: true }), 'the token algorithm is not one of RS256, ES256, EdDSA'],
      [await mint({}, { expiresIn: -60 }), 'the token has expired'],
      [await mint({}, { aud: 'https://other.example.test/mcp' }), 'the token is for another audience'],
      ['not-a-jwt', 'the token is not a signed JWT this server can verify'],
    ];
    for (const [token, why] of cases) {
      const err = await refusal(token);
      expect(err, why).toBeInstanceOf(OAuthError);
      expect(err?.code, why).toBe('invalid_token');
      expect(err?.message, why).toBe(why);
    }
  });

  it('a key set that cannot be fetched (refused connection, or no answer in time) is server_error, not invalid_token', { timeout: 3_000 }, async () => {
    // A provider whose metadata is good but whose key set is elsewhere: a closed port, or one that never answers.
    const hanging = createServer(() => undefined);
    const hangingUrl = await listen(hanging);
    let jwksUri = '';
    const provider = createServer((req, res) => {
      if (!req.url?.endsWith('/.well-known/openid-configuration')) return void res.writeHead(404).end();
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ issuer: providerUrl, jwks_uri: jwksUri }));
    });
    const providerUrl = await listen(provider);
    try {
      const token = await issuer.mint({ sub: 'alice', aud: AUD, iss: providerUrl });
      for (const [uri, timeoutMs] of [
        ['http://127.0.0.1:9/jwks', 10_000],
        [`${hangingUrl}/jwks`, 100],
      ] as const) {
        jwksUri = uri;
        const err = await new JwtVerifier(new Issuer(providerUrl, timeoutMs), AUD).verifyAccessToken(token).then(
          () => undefined,
          (e: unknown) => e as OAuthError,
        );
        expect(err, uri).toBeInstanceOf(OAuthError);
        expect(err?.code, uri).toBe('server_error');
        expect(err?.message, uri).toBe('the identity provider key set cannot be fetched');
      }
    } finally {
      await close(provider);
      await close(hanging);
    }
  });

  it('fetches the key set once for many tokens (kept ten minutes)', async () => {
    const own = await startIssuer();
    try {
      const v = new JwtVerifier(new Issuer(own.issuer), AUD);
      for (let i = 0; i < 4; i++) {
        await v.verifyAccessToken(await own.mint({ sub: `u${i}`, aud: AUD }));
        // Each token in a later millisecond than the last: a key set kept for less than that is fetched again.
        const at = Date.now();
        while (Date.now() === at) await new Promise((resolve) => setImmediate(resolve));
      }
      expect(own.hits.get('/jwks')).toBe(1);
    } finally {
      await own.close();
    }
  });

  it('takes a token that verified again without checking it for 60 s, never past its expiry; a refused one is checked every time', async () => {
    const own = new Issuer(issuer.issuer);
    const checks = vi.spyOn(own, 'discover');
    let clock = Date.now();
    const v = new JwtVerifier(own, AUD, () => clock);
    const token = await mint({ scope: 'chain:read' }, { expiresIn: 600 });
    const first = await v.verifyAccessToken(token);
    expect(await v.verifyAccessToken(token)).toEqual(first);
    clock += 59_999;
    expect((await v.verifyAccessToken(token)).scopes).toEqual(['chain:read']);
    expect(checks).toHaveBeenCalledTimes(1);
    clock += 1;
    await v.verifyAccessToken(token);
    expect(checks).toHaveBeenCalledTimes(2);

    // A token with 10 s left is remembered for those 10 s only.
    const short = await mint({ scope: 'chain:read' }, { expiresIn: 10 });
    clock = Date.now();
    await v.verifyAccessToken(short);
    clock += 9_000;
    await v.verifyAccessToken(short);
    expect(checks).toHaveBeenCalledTimes(3);
    clock += 1_500;
    await v.verifyAccessToken(short);
    expect(checks).toHaveBeenCalledTimes(4);

    const foreign = await mint({ scope: 'chain:read' }, { aud: 'https://elsewhere.example.test/mcp' });
    for (let i = 0; i < 2; i++) expect((await v.verifyAccessToken(foreign).catch((e: unknown) => e as OAuthError)) instanceof OAuthError).toBe(true);
    expect(checks).toHaveBeenCalledTimes(6);
  });

  it('remembers a bounded number of tokens: past the bound the memory starts over', async () => {
    const own = new Issuer(issuer.issuer);
    const checks = vi.spyOn(own, 'discover');
    const v = new JwtVerifier(own, AUD, Date.now, 2);
    const [a, b, c] = await Promise.all(['a', 'b', 'c'].map((sub) => mint({ scope: 'chain:read' }, { sub })));
    await v.verifyAccessToken(a!);
    await v.verifyAccessToken(b!);
    await v.verifyAccessToken(a!);
    expect(checks).toHaveBeenCalledTimes(2);
    await v.verifyAccessToken(c!);
    await v.verifyAccessToken(c!);
    expect(checks).toHaveBeenCalledTimes(3);
    await v.verifyAccessToken(b!);
    expect(checks).toHaveBeenCalledTimes(4);
  });
});
