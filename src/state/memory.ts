import { randomBytes } from 'node:crypto';
import { DAY_MS, type ApprovalRecord, type ApprovalState, type PasskeyRecord, type Reservation, type StateStore, type TakeOutcome } from './store.js';
import { Waiters } from './wake.js';

interface Entry {
  id: string;
  at: number;
  amount: bigint;
  sent: boolean;
}

/**
 * State in this process only (CHAIN_MCP_STATE=memory, the default): what a restart forgets, the
 * store's daily total included (the keystore signer's; the local signer's comes from the chain). Every operation completes before its promise settles (no await inside), so within the
 * one process each is atomic.
 */
export class MemoryStore implements StateStore {
  readonly kind = 'memory';
  readonly where = 'memory';
  readonly shared = false;
  private readonly confirmations = new Map<string, { owner: string; expiresAt: number }>();
  private readonly approvals = new Map<string, ApprovalRecord>();
  private readonly tokens = new Map<string, string>();
  private readonly cards = new Map<string, { nonce: string; expiresAt: number }>();
  private readonly previews = new Map<string, { record: string; expiresAt: number }>();
  private readonly ledger = new Map<string, Entry[]>();
  private readonly passkeys = new Map<string, PasskeyRecord[]>();
  private readonly waiters = new Waiters();

  async putConfirmation(id: string, owner: string, expiresAt: number, now: number, maxOpen: number): Promise<boolean> {
    for (const [key, c] of this.confirmations) if (now > c.expiresAt) this.confirmations.delete(key);
    if (this.confirmations.size >= maxOpen) return false;
    this.confirmations.set(id, { owner, expiresAt });
    return true;
  }

  async checkConfirmation(id: string, owner: string, now: number): Promise<TakeOutcome> {
    return this.check(id, owner, now);
  }

  private check(id: string, owner: string, now: number): TakeOutcome {
    const c = this.confirmations.get(id);
    if (!c) return 'unknown';
    if (now > c.expiresAt) {
      this.confirmations.delete(id);
      return 'expired';
    }
    return c.owner === owner ? 'ok' : 'other-owner';
  }

  async takeConfirmation(id: string, owner: string, now: number): Promise<TakeOutcome> {
    // No await between the check and the delete: of concurrent takes exactly one sees 'ok'.
    const outcome = this.check(id, owner, now);
    if (outcome === 'ok') this.confirmations.delete(id);
    return outcome;
  }

  async openConfirmations(now: number): Promise<number> {
    return [...this.confirmations.values()].filter((c) => now <= c.expiresAt).length;
  }

  async putApproval(approval: ApprovalRecord, now: number, maxPending: number, maxPerOwner?: number): Promise<boolean> {
    if (this.live(now) >= maxPending) return false;
    if (maxPerOwner !== undefined && this.live(now, approval.owner) >= maxPerOwner) return false;
    this.approvals.set(approval.nonce, { ...approval, lines: [...approval.lines] });
    this.tokens.set(approval.token, approval.nonce);
    return true;
  }

  async getApproval(nonce: string): Promise<ApprovalRecord | undefined> {
    const a = this.approvals.get(nonce);
    return a && { ...a, lines: [...a.lines] };
  }

  async approvalByToken(token: string): Promise<ApprovalRecord | undefined> {
    const nonce = this.tokens.get(token);
    return nonce === undefined ? undefined : this.getApproval(nonce);
  }

  async setPasskeyChallenge(nonce: string, challenge: string): Promise<string | undefined> {
    const a = this.approvals.get(nonce);
    if (!a) return undefined;
    a.passkeyChallenge ??= challenge;
    return a.passkeyChallenge;
  }

  async decideApproval(nonce: string, decision: 'approved' | 'declined', by: string, now: number, seal?: string): Promise<boolean> {
    const a = this.approvals.get(nonce);
    if (a?.state !== 'pending' || now > a.expiresAt) return false;
    a.state = decision;
    a.decidedBy = by;
    if (seal !== undefined) a.decisionSeal = seal;
    else delete a.decisionSeal;
    this.waiters.wake(nonce);
    return true;
  }

  waitApproval(nonce: string, ms: number, signal?: AbortSignal): Promise<ApprovalState | undefined> {
    return this.waiters.wait(nonce, ms, async () => this.approvals.get(nonce)?.state, signal);
  }

  async deleteApproval(nonce: string): Promise<void> {
    const a = this.approvals.get(nonce);
    if (!a) return;
    this.approvals.delete(nonce);
    this.tokens.delete(a.token);
    for (const [secret, c] of this.cards) if (c.nonce === nonce) this.cards.delete(secret);
  }

  async sweepApprovals(now: number): Promise<ApprovalRecord[]> {
    const expired = [...this.approvals.values()].filter((a) => now > a.expiresAt);
    for (const a of expired) void this.deleteApproval(a.nonce);
    for (const [secret, c] of this.cards) if (now > c.expiresAt) this.cards.delete(secret);
    return expired;
  }

  async liveApprovals(now: number, owner?: string): Promise<number> {
    return this.live(now, owner);
  }

  private live(now: number, owner?: string): number {
    return [...this.approvals.values()].filter((a) => now <= a.expiresAt && (owner === undefined || a.owner === owner)).length;
  }

  async putCardSecret(secret: string, nonce: string, expiresAt: number): Promise<void> {
    this.cards.set(secret, { nonce, expiresAt });
  }

  async takeCardSecret(secret: string): Promise<string | undefined> {
    const c = this.cards.get(secret);
    this.cards.delete(secret);
    return c?.nonce;
  }

  async putPreview(nonce: string, record: string, expiresAt: number, now: number, maxOpen: number): Promise<boolean> {
    for (const [n, p] of this.previews) if (now > p.expiresAt) this.previews.delete(n);
    if (this.previews.size >= maxOpen) return false;
    this.previews.set(nonce, { record, expiresAt });
    return true;
  }

  async getPreview(nonce: string, now: number): Promise<string | undefined> {
    const p = this.previews.get(nonce);
    return p && now <= p.expiresAt ? p.record : undefined;
  }

  async takePreview(nonce: string): Promise<boolean> {
    return this.previews.delete(nonce);
  }

  async spent(signer: string, now: number): Promise<bigint> {
    return this.total(signer, now);
  }

  async inFlight(signer: string, now: number): Promise<bigint> {
    this.total(signer, now);
    return (this.ledger.get(signer) ?? []).reduce((sum, e) => (e.sent ? sum : sum + e.amount), 0n);
  }

  private total(signer: string, now: number): bigint {
    const since = now - DAY_MS;
    const kept = (this.ledger.get(signer) ?? []).filter((e) => e.at > since);
    this.ledger.set(signer, kept);
    return kept.reduce((sum, e) => sum + e.amount, 0n);
  }

  async reserve(signer: string, amount: bigint, limit: bigint | undefined, now: number): Promise<Reservation | undefined> {
    // Check and record with no await between them: concurrent reserves cannot both fit.
    if (limit !== undefined && this.total(signer, now) + amount > limit) return undefined;
    const entry = { id: randomBytes(12).toString('base64url'), at: now, amount, sent: false };
    this.ledger.set(signer, [...(this.ledger.get(signer) ?? []), entry]);
    return { id: entry.id, signer };
  }

  async commit(reservation: Reservation): Promise<void> {
    const entry = this.ledger.get(reservation.signer)?.find((e) => e.id === reservation.id);
    if (entry) entry.sent = true;
  }

  async release(reservation: Reservation): Promise<void> {
    const list = this.ledger.get(reservation.signer);
    if (list) this.ledger.set(reservation.signer, list.filter((e) => e.id !== reservation.id || e.sent));
  }

  async listPasskeys(owner: string): Promise<PasskeyRecord[]> {
    return (this.passkeys.get(owner) ?? []).map((p) => ({ ...p }));
  }

  async addPasskey(owner: string, passkey: PasskeyRecord): Promise<void> {
    this.passkeys.set(owner, [...(this.passkeys.get(owner) ?? []).filter((p) => p.id !== passkey.id), { ...passkey }]);
  }

  async close(): Promise<void> {}
}
