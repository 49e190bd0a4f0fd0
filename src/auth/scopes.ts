import type { Tier } from '../core/tool.js';

/** The scopes a token carries (space-separated `scope`, or a `scp` list) and what each opens. */
export const SCOPES = ['chain:read', 'chain:spend', 'chain:admin'] as const;
export type Scope = (typeof SCOPES)[number];

/**
 * The one scope a tool needs. Reads need `chain:read`; a spend, and a wallet call (it acts as the
 * operator's keystore user), `chain:spend`; node administration and key export `chain:admin`.
 * Scopes do not imply one another: an identity provider grants each one it means.
 */
export function scopeFor(tool: { tier: Tier }): Scope {
  switch (tool.tier) {
    case 'read':
      return 'chain:read';
    case 'wallet':
    case 'spend':
      return 'chain:spend';
    case 'admin':
      return 'chain:admin';
  }
}

export function mayUse(tool: { tier: Tier }, scopes: readonly string[]): boolean {
  return scopes.includes(scopeFor(tool));
}
