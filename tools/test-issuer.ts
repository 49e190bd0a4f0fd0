import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type CryptoKey, exportJWK, generateKeyPair, type JWK, SignJWT } from 'jose';

/**
 * A real token issuer on loopback for the OAuth tests and the replicas bench: its metadata (OpenID Connect discovery, or
 * RFC 8414's document), a JWKS of keys jose generated (RS256, ES256, EdDSA), and tokens minted for
 * any subject, scopes and audience. A key it does not publish signs the forgeries.
 */
export interface TestIssuer {
  issuer: string;
  /** Requests the issuer answered, by path (discovery is cached by the server). */
  hits: Map<string, number>;
  /** How the provider's sign-in misbehaves (tests of the approval page set it; all off by default). */
  login: LoginQuirks;
  /** The headers of each token request, in order. */
  tokenRequests: Array<Record<string, string | string[] | undefined>>;
  mint(opts: { sub: string; scope?: string; claims?: Record<string, unknown>; aud?: string; alg?: 'RS256' | 'ES256' | 'EdDSA'; expiresIn?: number; iss?: string; unpublished?: boolean; noSub?: boolean; noExp?: boolean; notBefore?: number; kid?: string; hs256?: boolean }): Promise<string>;
  close(): Promise<void>;
}

/** A provider that gets the sign-in wrong, for the approval page's own checks of what comes back. */
export interface LoginQuirks {
  /** Metadata without authorization_endpoint. */
  noAuthorizationEndpoint?: boolean;
  /** Codes redeemed without checking the PKCE verifier, client or redirect (a careless provider). */
  ignorePkce?: boolean;
  /** The token endpoint's HTTP status (the ID token still in the body). */
  tokenStatus?: number;
  /** The token endpoint answers without an ID token. */
  noIdToken?: boolean;
  /** The ID token's audience instead of the client id. */
  idTokenAudience?: string;
  /** The ID token without a subject. */
  idTokenNoSub?: boolean;
}

const ALGS = ['RS256', 'ES256', 'EdDSA'] as const;

export async function startIssuer(opts: { style?: 'oidc' | 'rfc8414'; path?: string } = {}): Promise<TestIssuer> {
  const keys = new Map<string, { privateKey: CryptoKey; jwk: JWK }>();
  for (const alg of ALGS) {
    const pair = await generateKeyPair(alg, alg === 'EdDSA' ? { crv: 'Ed25519' } : {});
    keys.set(alg, { privateKey: pair.privateKey, jwk: { ...(await exportJWK(pair.publicKey)), kid: `test-${alg}`, alg, use: 'sig' } });
  }
  const stranger = await generateKeyPair('ES256');
  // Authorization codes of the login the approval page starts (authorization code + PKCE).
  const codes = new Map<string, { sub: string; clientId: string; redirectUri: string; challenge: string; nonce: string }>();
  const hits = new Map<string, number>();
  const login: LoginQuirks = {};
  const tokenRequests: TestIssuer['tokenRequests'] = [];
  const path = opts.path ?? '';
  let issuer = '';
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    hits.set(url.pathname, (hits.get(url.pathname) ?? 0) + 1);
    const json = (body: unknown) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    const metadata = { issuer, jwks_uri: `${issuer}/jwks`, authorization_endpoint: login.noAuthorizationEndpoint ? undefined : `${issuer}/authorize`, token_endpoint: `${issuer}/token`, response_types_supported: ['code'], scopes_supported: ['chain:read', 'chain:spend', 'chain:admin'] };
    if (opts.style === 'rfc8414' ? url.pathname === `/.well-known/oauth-authorization-server${path}` : url.pathname === `${path}/.well-known/openid-configuration`) return json(metadata);
    if (url.pathname === `${path}/jwks`) return json({ keys: [...keys.values()].map((k) => k.jwk) });
    if (url.pathname === `${path}/authorize`) {
      // The provider's own login is out of scope: the test's browser names its user in a header only the provider reads.
      const sub = req.headers['x-test-user'];
      const q = url.searchParams;
      if (typeof sub !== 'string' || q.get('response_type') !== 'code' || q.get('code_challenge_method') !== 'S256') return void res.writeHead(400).end();
      const code = randomBytes(16).toString('base64url');
      codes.set(code, { sub, clientId: q.get('client_id') ?? '', redirectUri: q.get('redirect_uri') ?? '', challenge: q.get('code_challenge') ?? '', nonce: q.get('nonce') ?? '' });
      const back = new URL(q.get('redirect_uri') ?? '');
      back.search = new URLSearchParams({ code, state: q.get('state') ?? '' }).toString();
      return void res.writeHead(302, { location: back.toString() }).end();
    }
    if (url.pathname === `${path}/token` && req.method === 'POST') {
      tokenRequests.push({ ...req.headers });
      void readBody(req).then(async (form) => {
        const grant = codes.get(form.get('code') ?? '');
        codes.delete(form.get('code') ?? '');
        const verifier = form.get('code_verifier') ?? '';
        const ok = grant && (login.ignorePkce || (grant.clientId === form.get('client_id') && grant.redirectUri === form.get('redirect_uri') && createHash('sha256').update(verifier).digest('base64url') === grant.challenge));
        if (!ok) return void res.writeHead(400, { 'content-type': 'application/json' }).end('{"error":"invalid_grant"}');
        const jwt = new SignJWT({ nonce: grant.nonce })
          .setProtectedHeader({ alg: 'ES256', kid: 'test-ES256' })
          .setIssuer(issuer)
          .setAudience(login.idTokenAudience ?? grant.clientId)
          .setIssuedAt()
          .setExpirationTime('5m');
        if (!login.idTokenNoSub) jwt.setSubject(grant.sub);
        const idToken = await jwt.sign(keys.get('ES256')!.privateKey);
        const body = { token_type: 'Bearer', ...(login.noIdToken ? {} : { id_token: idToken }), access_token: 'opaque', expires_in: 300 };
        res.writeHead(login.tokenStatus ?? 200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      });
      return;
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`;
  return {
    issuer,
    hits,
    login,
    tokenRequests,
    async mint(o) {
      const alg = o.alg ?? 'ES256';
      // HS256 keyed with a published key's bytes: the classic forgery against a verifier that takes any algorithm.
      const key = o.hs256 ? new TextEncoder().encode(JSON.stringify(keys.get('ES256')!.jwk)) : o.unpublished ? stranger.privateKey : keys.get(alg)!.privateKey;
      // `claims` may name its own azp (or none: `azp: undefined`).
      const claims: Record<string, unknown> = { azp: 'test-client', ...(o.claims ?? { scope: o.scope ?? 'chain:read' }) };
      const jwt = new SignJWT(claims)
        .setProtectedHeader({ alg: o.hs256 ? 'HS256' : o.unpublished ? 'ES256' : alg, kid: o.kid ?? (o.unpublished || o.hs256 ? 'test-ES256' : `test-${alg}`), typ: 'at+jwt' })
        .setIssuer(o.iss ?? issuer)
        .setAudience(o.aud ?? '')
        .setIssuedAt();
      if (!o.noExp) jwt.setExpirationTime(Math.floor(Date.now() / 1000) + (o.expiresIn ?? 600));
      if (!o.noSub) jwt.setSubject(o.sub);
      if (o.notBefore !== undefined) jwt.setNotBefore(Math.floor(Date.now() / 1000) + o.notBefore);
      return jwt.sign(key);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function readBody(req: IncomingMessage): Promise<URLSearchParams> {
  let text = '';
  for await (const chunk of req as AsyncIterable<Buffer>) text += chunk.toString('utf8');
  return new URLSearchParams(text);
}

/**
 * A browser for the approval page: follows redirects, keeps the page's cookies, and is signed in at
 * the test issuer as `user`. The public origin is mapped to a replica on loopback; `port` may change
 * between requests (a load balancer sending the same browser to another replica).
 */
export function testBrowser(issuer: TestIssuer, user: string, publicOrigin: string, port: number) {
  const jar = new Map<string, string>();
  const browser = {
    port,
    async go(url: string, init: { method?: string; body?: string; headers?: Record<string, string> } = {}): Promise<Response> {
      const local = (u: string) => u.replace(publicOrigin, `http://127.0.0.1:${browser.port}`);
      let target = local(url);
      let request = init;
      for (let hop = 0; hop < 6; hop++) {
        const atProvider = target.startsWith(issuer.issuer);
        const cookie = [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
        const headers = { ...request.headers, ...(atProvider ? { 'x-test-user': user } : cookie ? { cookie } : {}) };
        const res = await fetch(target, { ...request, headers, redirect: 'manual' });
        if (!atProvider) {
          for (const set of res.headers.getSetCookie()) {
            const pair = set.split(';')[0]!;
            const eq = pair.indexOf('=');
            if (pair.slice(eq + 1) === '') jar.delete(pair.slice(0, eq));
            else jar.set(pair.slice(0, eq), pair.slice(eq + 1));
          }
        }
        if (res.status < 300 || res.status >= 400) return res;
        await res.text();
        target = local(new URL(res.headers.get('location') ?? '', target).toString());
        request = {};
      }
      throw new Error('too many redirects');
    },
    /** Signs in (if needed), reads the page, and posts the decision with the page's own token. */
    async decide(url: string, decision: 'approve' | 'decline'): Promise<Response> {
      const shown = await browser.go(url);
      const html = await shown.text();
      const csrf = /name="csrf" value="([^"]+)"/.exec(html)?.[1] ?? '';
      return browser.go(url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', origin: publicOrigin }, body: `decision=${decision}&csrf=${csrf}` });
    },
  };
  return browser;
}
