import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkIssuer, Issuer, IssuerError, metadataUrls } from '../../src/auth/issuer.js';
import { startIssuer } from '../../tools/test-issuer.js';

/** src/auth/issuer.ts: where the provider's metadata is looked for, what is refused in it, and which of its keys count. */
describe("the identity provider's metadata", () => {
  // A provider whose answers each test sets: metadata at OpenID Connect's address, and a key set.
  let answer: { metadata?: Record<string, unknown> | null; jwks?: unknown; redirect?: { from: string; to: string } } = {};
  let origin = '';
  /** The accept header of each request. */
  const accepts: Array<string | undefined> = [];
  const server = createServer((req, res) => {
    accepts.push(req.headers.accept);
    if (answer.redirect && req.url === answer.redirect.from) return void res.writeHead(302, { location: answer.redirect.to }).end();
    const body = req.url?.endsWith('/.well-known/openid-configuration') ? answer.metadata : req.url?.endsWith('/jwks') ? answer.jwks : undefined;
    if (body === undefined) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  });
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it("is looked for at RFC 8414's address first, then OpenID Connect's, the issuer's path kept (trailing slashes dropped)", () => {
    expect(metadataUrls('https://id.example.org/realms/chain/')).toEqual([
      'https://id.example.org/.well-known/oauth-authorization-server/realms/chain',
      'https://id.example.org/realms/chain/.well-known/openid-configuration',
    ]);
    expect(metadataUrls('https://id.example.org/realms/chain//')).toEqual(metadataUrls('https://id.example.org/realms/chain'));
    expect(metadataUrls('https://id.example.org')).toEqual(['https://id.example.org/.well-known/oauth-authorization-server', 'https://id.example.org/.well-known/openid-configuration']);
  });

  it("is found under RFC 8414's name too, once, and kept", async () => {
    const rfc = await startIssuer({ style: 'rfc8414', path: '/tenant' });
    try {
      const issuer = new Issuer(rfc.issuer);
      const found = await issuer.discover();
      expect(found.metadata.jwks_uri).toBe(`${rfc.issuer}/jwks`);
      expect(await issuer.discover()).toBe(found);
      expect(rfc.hits.get('/.well-known/oauth-authorization-server/tenant')).toBe(1);
    } finally {
      await rfc.close();
    }
  });

  it('refuses metadata naming another issuer or no key set, and tries again after a failure', async () => {
    const issuer = new Issuer(`${origin}/p`);
    answer = { metadata: { issuer: `${origin}/p/`, jwks_uri: `${origin}/p/jwks` } };
    await expect(issuer.discover()).rejects.toThrow(new IssuerError(`${origin}/p/.well-known/openid-configuration names the issuer "${origin}/p/", not CHAIN_MCP_OAUTH_ISSUER "${origin}/p" (they must be identical, trailing slash included)`));
    answer = { metadata: { issuer: `${origin}/p` } };
    await expect(issuer.discover()).rejects.toThrow(new IssuerError(`${origin}/p/.well-known/openid-configuration names no jwks_uri, so no token could be verified`));
    answer = {};
    const rfc = `${origin}/.well-known/oauth-authorization-server/p`;
    const oidc = `${origin}/p/.well-known/openid-configuration`;
    await expect(issuer.discover()).rejects.toThrow(new IssuerError(`no metadata for the issuer ${origin}/p (${rfc}: ${rfc} answered HTTP 404; ${oidc}: ${oidc} answered HTTP 404)`));
    // A document that is JSON null names no issuer: refused in words, not a TypeError.
    answer = { metadata: null };
    await expect(issuer.discover()).rejects.toThrow(new IssuerError(`${oidc} names the issuer "undefined", not CHAIN_MCP_OAUTH_ISSUER "${origin}/p" (they must be identical, trailing slash included)`));
    answer = { metadata: { issuer: `${origin}/p`, jwks_uri: `${origin}/p/jwks` } };
    expect((await issuer.discover()).metadata.issuer).toBe(`${origin}/p`);
  });

  it('counts only keys a token could be verified with: asymmetric, for signing, of an algorithm taken (or naming none)', async () => {
    answer = {
      metadata: { issuer: `${origin}/k`, jwks_uri: `${origin}/k/jwks` },
      jwks: { keys: [{ kty: 'EC', alg: 'ES256' }, { kty: 'RSA' }, { kty: 'oct', alg: 'HS256' }, { kty: 'RSA', alg: 'RS256', use: 'enc' }, { kty: 'RSA', alg: 'PS512' }, { kty: 'OKP', alg: 'EdDSA', use: 'sig' }] },
    };
    expect(await checkIssuer(new Issuer(`${origin}/k`), ['RS256', 'ES256', 'EdDSA'])).toMatchObject({ keys: 3, algs: ['ES256', 'RSA', 'EdDSA'] });
    answer.jwks = {};
    expect((await checkIssuer(new Issuer(`${origin}/k`), ['ES256'])).keys).toBe(0);
    answer.jwks = null;
    expect((await checkIssuer(new Issuer(`${origin}/k`), ['ES256'])).keys).toBe(0);
    // A symmetric key is never usable, even naming no algorithm.
    answer.jwks = { keys: [{ kty: 'oct' }, { kty: 'oct', alg: 'ES256' }, { kty: 'EC' }] };
    expect(await checkIssuer(new Issuer(`${origin}/k`), ['ES256'])).toMatchObject({ keys: 1, algs: ['EC'] });
  });

  it('asks for JSON and follows no redirect (the metadata is read only where the issuer names it)', async () => {
    accepts.length = 0;
    answer = { metadata: { issuer: `${origin}/a`, jwks_uri: `${origin}/a/jwks` } };
    await new Issuer(`${origin}/a`).discover();
    expect(accepts.length).toBeGreaterThan(0);
    expect(new Set(accepts)).toEqual(new Set(['application/json']));
    answer = { metadata: { issuer: `${origin}/r`, jwks_uri: `${origin}/r/jwks` }, redirect: { from: '/r/.well-known/openid-configuration', to: `${origin}/moved/.well-known/openid-configuration` } };
    await expect(new Issuer(`${origin}/r`).discover()).rejects.toThrow(/^no metadata for the issuer .*\/r \(/);
  });
});
