import { randomBytes, timingSafeEqual } from 'node:crypto';
import { ChainMcpError } from '../errors.js';
import { MemoryStore } from '../state/memory.js';
import { Sealer } from '../state/seal.js';
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
 * One approval as read from the state store (a snapshot: read it again after a wait). Require a
 * passkey when opening it (`open(…, { passkey: true })`), never in place.
 */
export type Approval = ApprovalRecord;

/** Pending approvals per owner (OAuth user, MCP session, or the local user): more than a person can review; a new preview of theirs beyond it is refused. */
export const MAX_PENDING_PER_OWNER = 100;
/** Pending approvals per server, every owner together: a safety bound on the store, well above one owner's. */
export const MAX_PENDING = 1_000;

export function tooManyPending(scope: 'owner' | 'server' = 'owner'): ChainMcpError {
  const n = scope === 'owner' ? `${MAX_PENDING_PER_OWNER} of your previews are` : `${MAX_PENDING} previews (of every user) are`;
  return new ChainMcpError('policy', `Refused: ${n} already waiting for the human's approval; no new preview until some are decided or expire (5 minutes). Nothing was sent.`, {
    hint: 'Ask the human to approve or decline the waiting previews, or wait for them to expire, then preview again. Do not loop on previews.',
  });
}

/** What the store holds for one approval, checked: its facts and its decision are this server's, or it was tampered with. */
export type Checked = Approval | 'tampered' | undefined;

/**
 * Pending human approvals, kept in the state store (src/state/): with a shared store a decision
 * made through any replica's page or card wakes the confirm waiting on another. Bound to one
 * preview by the confirmation nonce; each decides once (compare-and-set in the store).
 *
 * The store is not trusted (DESIGN section 9): each approval carries a MAC over every fact the
 * human reads (`seal`), and each decision a MAC over itself (`decisionSeal`), made with the
 * process's secret (the replicas' shared key with PostgreSQL). A row edited, or a decision
 * written or copied into the store, reads as `tampered`: never shown, never the human's approval.
 */
export class ApprovalBook {
  private readonly sealer: Sealer;

  constructor(
    private readonly now: () => number,
    readonly store: StateStore = new MemoryStore(),
    secret: Buffer = randomBytes(32),
  ) {
    this.sealer = new Sealer(secret, 'approval');
  }

  /** Throws when the owner's share, or the store, is full of live approvals: the new preview is refused, no older one is dropped. */
  async ensureRoom(owner: string = LOCAL_OWNER): Promise<void> {
    if ((await this.store.liveApprovals(this.now(), owner)) >= MAX_PENDING_PER_OWNER) throw tooManyPending('owner');
    if ((await this.store.liveApprovals(this.now())) >= MAX_PENDING) throw tooManyPending('server');
  }

  /** `passkey`: Approve on the page needs a passkey assertion over the approval's own challenge (sealed with the facts). */
  async open(nonce: string, facts: ApprovalFacts, expiresAt: number, owner: string = LOCAL_OWNER, opts: { passkey?: boolean } = {}): Promise<Approval> {
    const approval: Approval = {
      ...facts,
      nonce,
      owner,
      token: randomBytes(24).toString('base64url'),
      csrf: randomBytes(24).toString('base64url'),
      expiresAt,
      state: 'pending',
      ...(opts.passkey ? { passkeyRequired: true, passkeyChallenge: randomBytes(32).toString('base64url') } : {}),
    };
    approval.seal = this.factsSeal(approval);
    if (!(await this.store.putApproval(approval, this.now(), MAX_PENDING, MAX_PENDING_PER_OWNER))) {
      await this.ensureRoom(owner);
      throw tooManyPending('server');
    }
    return approval;
  }

  /** The approval as stored, checked (expired ones too): undefined when there is none. */
  async read(nonce: string): Promise<Checked> {
    return this.check(await this.store.getApproval(nonce));
  }

  /** The live approval of a preview, as stored now; a tampered one is no approval. */
  async get(nonce: string): Promise<Approval | undefined> {
    const a = await this.read(nonce);
    // An object is an approval whose seals hold ('tampered' is a string, a missing one undefined).
    return typeof a === 'object' && this.now() <= a.expiresAt ? a : undefined;
  }

  /** The approval behind a page token, or why there is none (a tampered one is never shown). */
  async lookup(token: string): Promise<Approval | 'unknown' | 'expired'> {
    const a = this.check(await this.store.approvalByToken(token));
    if (!a || a === 'tampered') return 'unknown';
    return this.now() > a.expiresAt ? 'expired' : a;
  }

  /** The stored approval if its facts, and its decision once decided, carry this server's MACs; `tampered` if not. */
  check(a: Approval | undefined): Checked {
    if (!a) return undefined;
    if (!this.sealer.verify(a.seal, ...factsOf(a))) return 'tampered';
    // A passkey required at open stays required: removing the challenge does not remove the passkey.
    if (a.passkeyRequired && !a.passkeyChallenge) return 'tampered';
    if (a.state === 'pending') return a.decidedBy === undefined ? a : 'tampered';
    return this.sealer.verify(a.decisionSeal, ...decisionOf(a, a.state, a.decidedBy ?? '')) ? a : 'tampered';
  }

  /** The approval's state as stored now, checked; `tampered` when the store was written by someone else. */
  async stateOf(approval: Approval): Promise<ApprovalState | 'tampered'> {
    const a = await this.read(approval.nonce);
    if (a === 'tampered') return 'tampered';
    return a?.state ?? approval.state;
  }

  /** From now on Approve on this approval's page needs a passkey assertion over its own challenge. */
  async requirePasskey(approval: Approval): Promise<Approval> {
    const challenge = await this.store.setPasskeyChallenge(approval.nonce, randomBytes(32).toString('base64url'));
    return challenge ? { ...approval, passkeyChallenge: challenge } : approval;
  }

  /** Records the human's decision once; false for a wrong page token, a decided, an expired or a tampered approval. */
  async decide(approval: Approval, decision: 'approved' | 'declined', by: string, csrf?: string): Promise<boolean> {
    if (csrf !== undefined && !sameSecret(csrf, approval.csrf)) return false;
    // The decision is sealed over the approval's own seal: it cannot be copied onto another approval.
    if (this.check({ ...approval, state: 'pending' }) === 'tampered' || approval.state !== 'pending') return false;
    return this.store.decideApproval(approval.nonce, decision, by, this.now(), this.decisionSeal(approval, decision, by));
  }

  /** Resolves when the approval is decided (on any process sharing the store), or after `ms` (or on abort), with its state then, checked. */
  async wait(approval: Approval, ms: number, signal?: AbortSignal): Promise<ApprovalState | 'tampered'> {
    const left = Math.min(ms, Math.max(0, approval.expiresAt - this.now()));
    if (left > 0) await this.store.waitApproval(approval.nonce, left, signal);
    return this.stateOf(approval);
  }

  /** Spent: the spend it approved was sent; the page, its card and the id are dead. */
  forget(approval: Approval): Promise<void> {
    return this.store.deleteApproval(approval.nonce);
  }

  /** Expired approvals, for the audit log; removed from the store. */
  sweep(): Promise<Approval[]> {
    return this.store.sweepApprovals(this.now());
  }

  private factsSeal(a: Approval): string {
    return this.sealer.seal(...factsOf(a));
  }

  private decisionSeal(a: Approval, state: ApprovalState, by: string): string {
    return this.sealer.seal(...decisionOf(a, state, by));
  }
}

/** Every fact of an approval the human reads or the page checks, in a fixed order. */
const factsOf = (a: Approval): unknown[] => ['facts', a.nonce, a.owner, a.tool, a.title, a.lines, a.csrf, a.token, a.expiresAt, a.passkeyRequired === true];
/** A decision, bound to its approval's nonce and seal: it cannot be copied onto another. */
const decisionOf = (a: Approval, state: ApprovalState, by: string): unknown[] => ['decision', a.nonce, a.seal ?? '', state, by];

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}
