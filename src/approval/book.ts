import { randomBytes, timingSafeEqual } from 'node:crypto';
import { ChainMcpError } from '../errors.js';

export type ApprovalState = 'pending' | 'approved' | 'declined';

/** What the human sees before saying yes: the facts of one exact preview. */
export interface ApprovalFacts {
  tool: string;
  title: string;
  /** The preview's lines (amounts in display and smallest units, fee, recipients, network, limits). */
  lines: string[];
}

export interface Approval extends ApprovalFacts {
  /** The confirmation id's nonce: one approval per preview. */
  nonce: string;
  /** Secret path segment of the approval page; never shown to the model when a better channel exists. */
  token: string;
  /** Per-page token a form POST must carry (a GET never decides). */
  csrf: string;
  expiresAt: number;
  state: ApprovalState;
  /** The channel that decided: page, elicitation, app. */
  decidedBy?: string;
  /** The passkey whose assertion approved on the page (its label, passkey.ts passkeyLabel). */
  passkey?: string;
  /**
   * Set when this approval was offered as a link under CHAIN_MCP_APPROVAL_LINK=passkey: Approve on
   * the page then needs a WebAuthn assertion over this challenge (base64url, this approval's only).
   */
  passkeyChallenge?: string;
}

/** Pending approvals per server: more than a person can review; a new preview beyond it is refused. */
export const MAX_PENDING = 100;

export function tooManyPending(): ChainMcpError {
  return new ChainMcpError('policy', `Refused: ${MAX_PENDING} previews are already waiting for the human's approval; no new preview until some are decided or expire (5 minutes). Nothing was sent.`, {
    hint: 'Ask the human to approve or decline the waiting previews, or wait for them to expire, then preview again. Do not loop on previews.',
  });
}

/**
 * Pending human approvals, in memory only (a restart forgets them all, as it forgets the
 * confirmation ids). Bound to one preview by the confirmation nonce; each decides once.
 */
export class ApprovalBook {
  private readonly byNonce = new Map<string, Approval>();
  private readonly byToken = new Map<string, Approval>();
  private readonly waiters = new Map<string, Set<() => void>>();

  constructor(private readonly now: () => number) {}

  /** Throws when the book is full of live approvals: the new preview is refused, no older one is dropped. */
  ensureRoom(): void {
    this.sweep();
    if (this.byNonce.size >= MAX_PENDING) throw tooManyPending();
  }

  open(nonce: string, facts: ApprovalFacts, expiresAt: number): Approval {
    this.ensureRoom();
    const approval: Approval = { ...facts, nonce, token: randomBytes(24).toString('base64url'), csrf: randomBytes(24).toString('base64url'), expiresAt, state: 'pending' };
    this.byNonce.set(nonce, approval);
    this.byToken.set(approval.token, approval);
    return approval;
  }

  get(nonce: string): Approval | undefined {
    const a = this.byNonce.get(nonce);
    return a && this.now() <= a.expiresAt ? a : undefined;
  }

  /** The approval behind a page token, or why there is none. */
  lookup(token: string): Approval | 'unknown' | 'expired' {
    const a = this.byToken.get(token);
    if (!a) return 'unknown';
    return this.now() > a.expiresAt ? 'expired' : a;
  }

  /** Records the human's decision once; false for a wrong page token, a decided or an expired approval. */
  decide(approval: Approval, decision: 'approved' | 'declined', by: string, csrf?: string): boolean {
    if (csrf !== undefined && !sameSecret(csrf, approval.csrf)) return false;
    if (approval.state !== 'pending' || this.now() > approval.expiresAt) return false;
    approval.state = decision;
    approval.decidedBy = by;
    for (const wake of this.waiters.get(approval.nonce) ?? []) wake();
    return true;
  }

  /** Resolves when the approval is decided, or after `ms` (or on abort) with its state then. */
  wait(approval: Approval, ms: number, signal?: AbortSignal): Promise<ApprovalState> {
    if (approval.state !== 'pending' || ms <= 0) return Promise.resolve(approval.state);
    return new Promise((resolve) => {
      const set = this.waiters.get(approval.nonce) ?? new Set();
      this.waiters.set(approval.nonce, set);
      const done = () => {
        clearTimeout(timer);
        set.delete(done);
        signal?.removeEventListener('abort', done);
        resolve(approval.state);
      };
      const timer = setTimeout(done, Math.min(ms, Math.max(0, approval.expiresAt - this.now())));
      set.add(done);
      signal?.addEventListener('abort', done, { once: true });
    });
  }

  /** Spent: the spend it approved was sent; the page and the id are dead. */
  forget(approval: Approval): void {
    this.byNonce.delete(approval.nonce);
    this.byToken.delete(approval.token);
    this.waiters.delete(approval.nonce);
  }

  /** Expired approvals, for the audit log; removed from the book. */
  sweep(): Approval[] {
    const expired = [...this.byNonce.values()].filter((a) => this.now() > a.expiresAt);
    for (const a of expired) this.forget(a);
    return expired;
  }
}

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}
