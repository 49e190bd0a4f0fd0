import { randomBytes, timingSafeEqual } from 'node:crypto';
import { ChainMcpError } from '../errors.js';
import { MemoryStore } from '../state/memory.js';
import { type ApprovalRecord, type ApprovalState, LOCAL_OWNER, type StateStore } from '../state/store.js';

export type { ApprovalState } from '../state/store.js';

/** What the human sees before saying yes: the facts of one exact preview. */
export interface ApprovalFacts {
  tool: string;
  title: string;
  /** The preview's lines (amounts in display and smallest units, fee, recipients, network, limits). */
  lines: string[];
}

/**
 * One approval as read from the state store (a snapshot: read it again after a wait). Set
 * `passkeyChallenge` through ApprovalBook.requirePasskey, never in place.
 */
export type Approval = ApprovalRecord;

/** Pending approvals per server: more than a person can review; a new preview beyond it is refused. */
export const MAX_PENDING = 100;

export function tooManyPending(): ChainMcpError {
  return new ChainMcpError('policy', `Refused: ${MAX_PENDING} previews are already waiting for the human's approval; no new preview until some are decided or expire (5 minutes). Nothing was sent.`, {
    hint: 'Ask the human to approve or decline the waiting previews, or wait for them to expire, then preview again. Do not loop on previews.',
  });
}

/**
 * Pending human approvals, kept in the state store (src/state/): with a shared store a decision
 * made through any replica's page or card wakes the confirm waiting on another. Bound to one
 * preview by the confirmation nonce; each decides once (compare-and-set in the store).
 */
export class ApprovalBook {
  constructor(
    private readonly now: () => number,
    readonly store: StateStore = new MemoryStore(),
  ) {}

  /** Throws when the store is full of live approvals: the new preview is refused, no older one is dropped. */
  async ensureRoom(): Promise<void> {
    if ((await this.store.liveApprovals(this.now())) >= MAX_PENDING) throw tooManyPending();
  }

  async open(nonce: string, facts: ApprovalFacts, expiresAt: number, owner: string = LOCAL_OWNER): Promise<Approval> {
    const approval: Approval = {
      ...facts,
      nonce,
      owner,
      token: randomBytes(24).toString('base64url'),
      csrf: randomBytes(24).toString('base64url'),
      expiresAt,
      state: 'pending',
    };
    if (!(await this.store.putApproval(approval, this.now(), MAX_PENDING))) throw tooManyPending();
    return approval;
  }

  /** The live approval of a preview, as stored now. */
  async get(nonce: string): Promise<Approval | undefined> {
    const a = await this.store.getApproval(nonce);
    return a && this.now() <= a.expiresAt ? a : undefined;
  }

  /** The approval behind a page token, or why there is none. */
  async lookup(token: string): Promise<Approval | 'unknown' | 'expired'> {
    const a = await this.store.approvalByToken(token);
    if (!a) return 'unknown';
    return this.now() > a.expiresAt ? 'expired' : a;
  }

  /** From now on Approve on this approval's page needs a passkey assertion over its own challenge. */
  async requirePasskey(approval: Approval): Promise<Approval> {
    const challenge = await this.store.setPasskeyChallenge(approval.nonce, randomBytes(32).toString('base64url'));
    return challenge ? { ...approval, passkeyChallenge: challenge } : approval;
  }

  /** Records the human's decision once; false for a wrong page token, a decided or an expired approval. */
  async decide(approval: Approval, decision: 'approved' | 'declined', by: string, csrf?: string): Promise<boolean> {
    if (csrf !== undefined && !sameSecret(csrf, approval.csrf)) return false;
    return this.store.decideApproval(approval.nonce, decision, by, this.now());
  }

  /** Resolves when the approval is decided (on any process sharing the store), or after `ms` (or on abort), with its state then. */
  async wait(approval: Approval, ms: number, signal?: AbortSignal): Promise<ApprovalState> {
    const left = Math.min(ms, Math.max(0, approval.expiresAt - this.now()));
    if (left <= 0) return (await this.store.getApproval(approval.nonce))?.state ?? approval.state;
    return (await this.store.waitApproval(approval.nonce, left, signal)) ?? approval.state;
  }

  /** Spent: the spend it approved was sent; the page, its card and the id are dead. */
  forget(approval: Approval): Promise<void> {
    return this.store.deleteApproval(approval.nonce);
  }

  /** Expired approvals, for the audit log; removed from the store. */
  sweep(): Promise<Approval[]> {
    return this.store.sweepApprovals(this.now());
  }
}

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}
