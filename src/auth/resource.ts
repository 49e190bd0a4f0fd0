import type { IncomingMessage, ServerResponse } from 'node:http';
import type { BlockList } from 'node:net';
import { type AuthInfo, bearerAuthChallengeResponse, type OAuthProtectedResourceMetadata, verifyBearerToken } from '@modelcontextprotocol/server';
import type { ToolDef } from '../core/tool.js';
import type { Logger } from '../log.js';
import { clientAddress, trustedProxies } from './client-address.js';
import { Issuer } from './issuer.js';
import type { RateLimit, RateLimits } from './rate.js';
import { mayUse, SCOPES, scopeFor } from './scopes.js';
import { JwtVerifier, subjectOf } from './verify.js';

export interface OAuthSettings {
  issuer: string;
  audience: string;
  publicUrl: string;
}

/** Where RFC 9728 puts the metadata of a resource at `publicUrl`: the well-known segment, then the resource's path. */
export function metadataPath(publicUrl: string): string {
  return `/.well-known/oauth-protected-resource${new URL(publicUrl).pathname.replace(/\/+$/, '')}`;
}

export function metadataUrl(publicUrl: string): string {
  return `${new URL(publicUrl).origin}${metadataPath(publicUrl)}`;
}

/** The RFC 9728 document: this resource, the one issuer that vouches for its users, and the scopes it knows. */
export function resourceMetadata(oauth: OAuthSettings): OAuthProtectedResourceMetadata {
  return {
    resource: oauth.publicUrl,
    authorization_servers: [oauth.issuer],
    scopes_supported: [...SCOPES],
    bearer_methods_supported: ['header'],
    resource_name: 'chain-mcp',
  };
}

/** A web Response (the SDK's bearer challenge) written to a node:http response. */
async function writeResponse(res: ServerResponse, answer: Response): Promise<void> {
  const headers: Record<string, string> = {};
  answer.headers.forEach((value, name) => {
    headers[name] = value;
  });
  res.writeHead(answer.status, headers).end(await answer.text());
}

/** What a JSON-RPC body asks for: the tool names of its tools/call messages (a batch may hold several). */
export function calledTools(body: unknown): string[] {
  const messages = Array.isArray(body) ? body : [body];
  return messages.flatMap((m) => {
    const msg = m as { method?: unknown; params?: { name?: unknown } } | null;
    return msg?.method === 'tools/call' && typeof msg.params?.name === 'string' ? [msg.params.name] : [];
  });
}

/**
 * `--http` as an OAuth 2.1 resource server (DESIGN section 8): the RFC 9728 metadata, bearer JWTs
 * verified against the issuer's JWKS (401 naming the metadata), the scope a tool needs (403
 * insufficient_scope naming it), and the per-user request limit (429 with Retry-After).
 */
export class ResourceServer {
  readonly issuer: Issuer;
  private readonly verifier: JwtVerifier;
  private readonly metadataUrl: string;
  private readonly metadataPaths: Set<string>;
  private readonly proxies: BlockList | undefined;

  constructor(
    readonly oauth: OAuthSettings,
    private readonly limits: RateLimits,
    private readonly log: Logger,
    /** CHAIN_MCP_TRUSTED_PROXIES: only their forwarding headers name the client. */
    trusted?: readonly string[],
  ) {
    this.proxies = trustedProxies(trusted);
    this.issuer = new Issuer(oauth.issuer);
    this.verifier = new JwtVerifier(this.issuer, oauth.audience);
    this.metadataUrl = metadataUrl(oauth.publicUrl);
    // The path-specific document, and the bare one for clients that look there first.
    this.metadataPaths = new Set([metadataPath(oauth.publicUrl), '/.well-known/oauth-protected-resource']);
  }

  /** The MCP endpoint's path on this server, taken from the public URL (a proxy passes it through). */
  get mcpPath(): string {
    return new URL(this.oauth.publicUrl).pathname;
  }

  /** Serves the metadata document when `path` is one of its two addresses; true when it answered. */
  serveMetadata(req: IncomingMessage, res: ServerResponse, path: string): boolean {
    if (!this.metadataPaths.has(path)) return false;
    if (req.method === 'OPTIONS') {
      res.writeHead(204, { 'access-control-allow-origin': '*', 'access-control-allow-methods': 'GET, OPTIONS', 'access-control-allow-headers': 'mcp-protocol-version' }).end();
      return true;
    }
    if (req.method !== 'GET') {
      res.writeHead(405, { allow: 'GET, OPTIONS' }).end();
      return true;
    }
    // Public facts; browsers' clients (a web assistant's) read it across origins.
    res.writeHead(200, { 'content-type': 'application/json', 'access-control-allow-origin': '*', 'cache-control': 'max-age=3600' }).end(JSON.stringify(resourceMetadata(this.oauth)));
    return true;
  }

  /**
   * The caller's verified token, or undefined with the answer already written: 401 (no token or a
   * bad one) or 429 (over the limit; unauthenticated requests count against their address).
   */
  async authenticate(req: IncomingMessage & { auth?: AuthInfo }, res: ServerResponse): Promise<AuthInfo | undefined> {
    const address = `addr:${clientAddress(req, this.proxies)}`;
    // An address that keeps sending bad tokens is stopped before its next one is verified.
    const flooding = await this.limits.over(address);
    if (flooding) {
      tooMany(res, flooding);
      return undefined;
    }
    // A bad token is the SDK's 401 challenge (or 500 when the issuer cannot be reached).
    let auth: AuthInfo;
    try {
      auth = await verifyBearerToken(req.headers.authorization, { verifier: this.verifier, resourceMetadataUrl: this.metadataUrl });
    } catch (err) {
      await writeResponse(res, bearerAuthChallengeResponse(err, { resourceMetadataUrl: this.metadataUrl }));
      await this.limits.consume(address);
      return undefined;
    }
    req.auth = auth;
    const over = await this.limits.consume(`sub:${subjectOf(auth)}`);
    if (over) {
      tooMany(res, over);
      return undefined;
    }
    return auth;
  }

  /**
   * A tools/call for a tool outside the token's scopes is refused at the HTTP level (MCP's step-up
   * signal: the client may ask the user for the scope); true when it answered 403.
   */
  refuseOutOfScope(res: ServerResponse, auth: AuthInfo, body: unknown, tool: (name: string) => ToolDef | undefined): boolean {
    for (const name of calledTools(body)) {
      const def = tool(name);
      if (!def || mayUse(def, auth.scopes)) continue;
      const scope = scopeFor(def);
      this.log.info({ audit: 'insufficient_scope', tool: name, scope }, 'tool call refused: scope missing from the token');
      const description = `${name} needs the ${scope} scope`;
      res
        .writeHead(403, {
          'content-type': 'application/json',
          'www-authenticate': `Bearer error="insufficient_scope", scope="${scope}", resource_metadata="${metadataUrl(this.oauth.publicUrl)}", error_description="${description}"`,
        })
        .end(JSON.stringify({ error: 'insufficient_scope', error_description: description }));
      return true;
    }
    return false;
  }
}

export function tooMany(res: ServerResponse, over: RateLimit): void {
  res
    .writeHead(429, { 'content-type': 'application/json', 'retry-after': String(over.retryAfterSeconds) })
    .end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message: `Too many requests: at most ${over.limit}; retry in ${over.retryAfterSeconds} s.` }, id: null }));
}
