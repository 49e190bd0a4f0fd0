import type { AuthInfo } from '@modelcontextprotocol/server';

// Apart from verify.ts (and jose): every server needs these at start, only OAuth needs the verifier.

/** The subject of a verified token: who owns the confirmation ids, approvals and passkeys it makes. */
export function subjectOf(auth: AuthInfo | undefined): string | undefined {
  const sub = auth?.extra?.sub;
  return typeof sub === 'string' ? sub : undefined;
}

/** The owner a token's subject stands for in the state store: never equal to an MCP session id or the local owner. */
export function ownerFor(subject: string): string {
  return `oauth:${subject}`;
}

/** The owner of what a verified token's calls make (confirmation ids, approvals); undefined without OAuth. */
export function ownerOfAuth(auth: AuthInfo | undefined): string | undefined {
  const sub = subjectOf(auth);
  return sub === undefined ? undefined : ownerFor(sub);
}
