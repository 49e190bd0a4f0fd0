import type { ApprovalRecord, ApprovalState } from './store.js';

/** An approval as both SQL backends keep it: the facts the human reads as one JSON text. */
export interface ApprovalRow {
  nonce: string;
  owner: string;
  token: string;
  facts: string;
  expires_at: number | bigint;
  state: string;
  decided_by: string | null;
  passkey_challenge: string | null;
  decision_seal?: string | null;
}

export function approvalFromRow(row: ApprovalRow): ApprovalRecord {
  const facts = JSON.parse(row.facts) as { tool: string; title: string; lines: string[]; csrf: string; seal?: string; passkeyRequired?: boolean };
  return {
    nonce: row.nonce,
    owner: row.owner,
    tool: facts.tool,
    title: facts.title,
    lines: facts.lines,
    csrf: facts.csrf,
    token: row.token,
    expiresAt: Number(row.expires_at),
    state: row.state as ApprovalState,
    ...(row.decided_by ? { decidedBy: row.decided_by } : {}),
    ...(row.passkey_challenge ? { passkeyChallenge: row.passkey_challenge } : {}),
    ...(facts.seal ? { seal: facts.seal } : {}),
    ...(facts.passkeyRequired === true ? { passkeyRequired: true } : {}),
    ...(row.decision_seal ? { decisionSeal: row.decision_seal } : {}),
  };
}

export function approvalFacts(a: ApprovalRecord): string {
  return JSON.stringify({ tool: a.tool, title: a.title, lines: a.lines, csrf: a.csrf, ...(a.seal ? { seal: a.seal } : {}), ...(a.passkeyRequired ? { passkeyRequired: true } : {}) });
}

