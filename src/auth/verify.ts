import { errors, jwtVerify } from 'jose';
import { type AuthInfo, OAuthError, OAuthErrorCode, type OAuthTokenVerifier } from '@modelcontextprotocol/server';
import type { Issuer } from './issuer.js';

// Kept here for the modules that import them with the verifier; server.ts takes them from owner.ts (no jose at start).
export { ownerFor, ownerOfAuth, subjectOf } from './owner.js';

/** Asymmetric algorithms only: a symmetric (HS*) token could be minted by anyone holding the shared key. */
export const ALGORITHMS = ['RS256', 'ES256', 'EdDSA'];

/**
 * The token's scopes: `scope` (RFC 9068, space-separated), `scp` (a list: Microsoft's, Okta's) and
 * `permissions` (Auth0's API permissions under RBAC), together.
 */
function scopesOf(payload: Record<string, unknown>): string[] {
  const listed = (value: unknown): string[] =>
    typeof value === 'string' ? value.split(' ').filter(Boolean) : Array.isArray(value) ? value.filter((s): s is string => typeof s === 'string') : [];
  return [...new Set([...listed(payload.scope), ...listed(payload.scp), ...listed(payload.permissions)])];
}

const invalidToken = (why: string) => new OAuthError(OAuthErrorCode.InvalidToken, why);
const serverError = (why: string) => new OAuthError(OAuthErrorCode.ServerError, why);

/**
 * Why a token was refused, in words fit for a WWW-Authenticate header (no quotes) and for the
 * client's log; never the token or its claims.
 */
function refusal(err: unknown): OAuthError {
  if (err instanceof errors.JWTExpired) return invalidToken('the token has expired');
  if (err instanceof errors.JWTClaimValidationFailed) {
    const what: Record<string, string> = { aud: 'the token is for another audience', iss: 'the token is from another issuer', sub: 'the token names no subject', exp: 'the token has no expiry', nbf: 'the token is not valid yet' };
    return invalidToken(what[err.claim] ?? 'the token failed a claim check');
  }
  if (err instanceof errors.JWSSignatureVerificationFailed) return invalidToken('the token signature does not verify');
  if (err instanceof errors.JWKSNoMatchingKey) return invalidToken('the token is signed by a key the issuer does not publish');
  if (err instanceof errors.JOSEAlgNotAllowed) return invalidToken(`the token algorithm is not one of ${ALGORITHMS.join(', ')}`);
  return invalidToken('the token is not a signed JWT this server can verify');
}

/**
 * How long a token that verified is taken again without verifying its signature: a client sends the
 * same token on every request, and stateless HTTP checks each one. Never past the token's expiry.
 * It widens nothing: the issuer's key set is itself kept 10 minutes (issuer.ts), so a key the
 * issuer withdraws keeps verifying that long anyway.
 */
const VERIFIED_FOR_MS = 60_000;
/** Distinct tokens remembered at most; past it the memory starts over. */
const VERIFIED_MAX = 10_000;

/**
 * Bearer JWTs checked against the issuer's JWKS: signature (asymmetric), issuer, audience,
 * expiry and a subject. The SDK's verifyBearerToken calls it; its challenge response is the 401.
 */
export class JwtVerifier implements OAuthTokenVerifier {
  private readonly verified = new Map<string, { auth: AuthInfo; until: number }>();

  constructor(
    private readonly issuer: Issuer,
    private readonly audience: string,
    private readonly now: () => number = Date.now,
    private readonly remembered = VERIFIED_MAX,
  ) {}

  async verifyAccessToken(token: string): Promise<AuthInfo> {
    const known = this.verified.get(token);
    if (known && this.now() < known.until) return { ...known.auth };
    const auth = await this.verify(token);
    // A lapsed entry is replaced here; one whose token now fails stays lapsed until the memory starts over.
    if (this.verified.size >= this.remembered) this.verified.clear();
    this.verified.set(token, { auth, until: Math.min(this.now() + VERIFIED_FOR_MS, (auth.expiresAt ?? 0) * 1000) });
    return auth;
  }

  private async verify(token: string): Promise<AuthInfo> {
    let found: Awaited<ReturnType<Issuer['discover']>>;
    try {
      found = await this.issuer.discover();
    } catch (err) {
      // The provider is down or misnamed: the server's trouble, not the token's (no 401 loop for the client).
      throw serverError(`the identity provider cannot be reached: ${(err as Error).message}`);
    }
    let payload: Record<string, unknown>;
    try {
      ({ payload } = await jwtVerify(token, found.keys, {
        issuer: found.metadata.issuer,
        audience: this.audience,
        algorithms: ALGORITHMS,
        requiredClaims: ['exp', 'sub'],
        clockTolerance: 5,
      }));
    } catch (err) {
      if (err instanceof errors.JWKSTimeout || (err instanceof Error && err.name === 'TypeError')) throw serverError('the identity provider key set cannot be fetched');
      throw refusal(err);
    }
    const clientId = [payload.azp, payload.client_id].find((v): v is string => typeof v === 'string') ?? '';
    return { token, clientId, scopes: scopesOf(payload), expiresAt: payload.exp as number, extra: { sub: payload.sub } };
  }
}
