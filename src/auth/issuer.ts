import { createRemoteJWKSet, type JWTVerifyGetKey } from 'jose';

/** What chain-mcp needs from the identity provider's metadata (RFC 8414 / OpenID Connect Discovery). */
export interface IssuerMetadata {
  issuer: string;
  jwks_uri: string;
  authorization_endpoint?: string;
  token_endpoint?: string;
  scopes_supported?: string[];
}

/**
 * Where the metadata may be, in RFC 8414's order: the OAuth document with the issuer's path after
 * the well-known segment, then OpenID Connect's after the issuer's path (Keycloak, Auth0 and most
 * providers serve the second; some serve both).
 */
export function metadataUrls(issuer: string): string[] {
  const u = new URL(issuer);
  const path = u.pathname.replace(/\/+$/, '');
  return [`${u.origin}/.well-known/oauth-authorization-server${path}`, `${u.origin}${path}/.well-known/openid-configuration`];
}

/** Refusals of the issuer's setup: said once, in one line, to the log and to --check. */
export class IssuerError extends Error {
  override name = 'IssuerError';
}

async function fetchJson(url: string, timeoutMs: number): Promise<unknown> {
  const res = await fetch(url, { signal: AbortSignal.timeout(timeoutMs), headers: { accept: 'application/json' }, redirect: 'error' });
  if (!res.ok) throw new IssuerError(`${url} answered HTTP ${res.status}`);
  return res.json();
}

/**
 * The issuer's metadata, found once and kept (a failure is not kept, so the next request tries
 * again), and its key set, which jose fetches on first use, caches, and fetches again when a
 * token names a key it has not seen (the provider rotated its keys).
 */
export class Issuer {
  private found?: Promise<{ metadata: IssuerMetadata; keys: JWTVerifyGetKey }>;

  constructor(
    readonly issuer: string,
    private readonly timeoutMs = 10_000,
  ) {}

  discover(): Promise<{ metadata: IssuerMetadata; keys: JWTVerifyGetKey }> {
    this.found ??= this.load().catch((err: unknown) => {
      this.found = undefined;
      throw err;
    });
    return this.found;
  }

  private async load(): Promise<{ metadata: IssuerMetadata; keys: JWTVerifyGetKey }> {
    const tried: string[] = [];
    for (const url of metadataUrls(this.issuer)) {
      let raw: unknown;
      try {
        raw = await fetchJson(url, this.timeoutMs);
      } catch (err) {
        tried.push(`${url}: ${(err as Error).message}`);
        continue;
      }
      const metadata = raw as Partial<IssuerMetadata> | null;
      // RFC 8414 section 3.3: metadata naming another issuer must not be used (an impostor's keys).
      if (metadata?.issuer !== this.issuer) {
        throw new IssuerError(`${url} names the issuer "${String(metadata?.issuer)}", not CHAIN_MCP_OAUTH_ISSUER "${this.issuer}" (they must be identical, trailing slash included)`);
      }
      if (typeof metadata.jwks_uri !== 'string') throw new IssuerError(`${url} names no jwks_uri, so no token could be verified`);
      const keys = createRemoteJWKSet(new URL(metadata.jwks_uri), { timeoutDuration: this.timeoutMs, cooldownDuration: 30_000, cacheMaxAge: 10 * 60_000 });
      return { metadata: metadata as IssuerMetadata, keys };
    }
    throw new IssuerError(`no metadata for the issuer ${this.issuer} (${tried.join('; ')})`);
  }
}

/**
 * For --check: the issuer's metadata found, and its JWKS fetched and read, with the usable keys
 * counted (an asymmetric key of an algorithm the verifier takes, or one naming none).
 */
export async function checkIssuer(issuer: Issuer, algorithms: readonly string[]): Promise<{ metadata: IssuerMetadata; keys: number; algs: string[] }> {
  const { metadata } = await issuer.discover();
  const set = (await fetchJson(metadata.jwks_uri, 10_000)) as { keys?: Array<{ kty?: string; alg?: string; use?: string }> } | null;
  const usable = (set?.keys ?? []).filter((k) => k.kty !== 'oct' && k.use !== 'enc' && (k.alg === undefined || algorithms.includes(k.alg)));
  return { metadata, keys: usable.length, algs: [...new Set(usable.map((k) => k.alg ?? k.kty ?? '?'))] };
}
