/**
 * The state that guards money, behind one interface so that several processes can share it
 * (DESIGN section 8): confirmation ids, approvals, card secrets, the rolling daily total and
 * passkeys. Backends: memory (one process), SQLite (one machine), PostgreSQL (several replicas).
 *
 * Every time is a millisecond epoch passed in by the caller (one clock, the server's `now`).
 * Every amount is a bigint, stored exactly (TEXT or NUMERIC), never a float.
 */

/** The owner of records made without OAuth (stdio, or one bearer token without sessions). */
export const LOCAL_OWNER = 'local';

export type ApprovalState = 'pending' | 'approved' | 'declined';

/** One pending human approval, bound to one preview by the confirmation id's nonce. */
export interface ApprovalRecord {
  /** The confirmation id's nonce: one approval per preview. */
  nonce: string;
  /** Who may confirm and decide it: the token's subject, the MCP session, or LOCAL_OWNER. */
  owner: string;
  tool: string;
  title: string;
  /** The preview's lines, exactly as the human sees them. */
  lines: string[];
  /** Secret path segment of the approval page. */
  token: string;
  /** Per-page token a form POST must carry. */
  csrf: string;
  expiresAt: number;
  state: ApprovalState;
  /** The channel that decided: page, elicitation, app. */
  decidedBy?: string;
  /** WebAuthn challenge (base64url) when a passkey must approve this one. */
  passkeyChallenge?: string;
  /** Opened needing a passkey (sealed with the facts): a row whose challenge was removed is refused, not waved through. */
  passkeyRequired?: boolean;
  /** MAC over every fact above the human reads or the page checks (src/approval/book.ts): a row edited in the store no longer verifies. */
  seal?: string;
  /** MAC over the decision (this approval's nonce and seal, the state, decidedBy), set with it: a decision written or copied into the store does not verify. */
  decisionSeal?: string;
}

/** One registered passkey: only its public half is ever stored. */
export interface PasskeyRecord {
  id: string;
  /** COSE public key, base64url. */
  publicKey: string;
  counter: number;
  transports?: string[];
  createdAt: string;
}

/**
 * Why a confirmation record could not be checked or taken. `other-owner` leaves the record in
 * place: another user's attempt never uses up an id.
 */
export type TakeOutcome = 'ok' | 'unknown' | 'expired' | 'other-owner';

/** A reservation against the daily total, to commit (sent) or release (certainly not sent). */
export interface Reservation {
  id: string;
  signer: string;
}

export interface StateStore {
  /** `memory`, `sqlite` or `postgres`, for `--check` and the logs. */
  readonly kind: 'memory' | 'sqlite' | 'postgres';
  /** Where it lives, without any password (`memory`, the file, `postgres://host:port/db`). */
  readonly where: string;
  /** True when other processes may share it (PostgreSQL): a fixed CHAIN_MCP_STATE_KEY is then required. */
  readonly shared: boolean;

  // Confirmation ids: take-once records keyed by nonce.
  /** Stores an open record unless `maxOpen` live ones exist already (false then; nothing dropped). Sweeps expired ones. */
  putConfirmation(id: string, owner: string, expiresAt: number, now: number, maxOpen: number): Promise<boolean>;
  /** Whether the record is there, live and the owner's, without taking it. */
  checkConfirmation(id: string, owner: string, now: number): Promise<TakeOutcome>;
  /** Takes the record: `ok` exactly once over every process, and only for its owner. */
  takeConfirmation(id: string, owner: string, now: number): Promise<TakeOutcome>;
  /** Live open records (for the bound and the tests). */
  openConfirmations(now: number): Promise<number>;

  // Approvals: a compare-and-set decision and a wake-up that crosses processes.
  /** Stores a new pending approval unless `maxPending` live ones exist, or `maxPerOwner` of its owner's (false then). */
  putApproval(approval: ApprovalRecord, now: number, maxPending: number, maxPerOwner?: number): Promise<boolean>;
  getApproval(nonce: string): Promise<ApprovalRecord | undefined>;
  approvalByToken(token: string): Promise<ApprovalRecord | undefined>;
  /** Sets the passkey challenge once (kept if one is set); returns the challenge in force. */
  setPasskeyChallenge(nonce: string, challenge: string): Promise<string | undefined>;
  /** pending → decision, only while live; true for the one caller that changed it. Wakes waiters everywhere. */
  decideApproval(nonce: string, decision: 'approved' | 'declined', by: string, now: number, seal?: string): Promise<boolean>;
  /** Resolves with the approval's state once it is decided (woken from any process), or after `ms`, or on abort. */
  waitApproval(nonce: string, ms: number, signal?: AbortSignal): Promise<ApprovalState | undefined>;
  deleteApproval(nonce: string): Promise<void>;
  /** Removes approvals past their expiry and returns them (for the audit log). */
  sweepApprovals(now: number): Promise<ApprovalRecord[]>;
  /** Live approvals (decided or not) still in the store; only `owner`'s when given. */
  liveApprovals(now: number, owner?: string): Promise<number>;

  // MCP Apps card secrets: one per card, taken once.
  putCardSecret(secret: string, nonce: string, expiresAt: number): Promise<void>;
  /** The approval nonce behind a secret, once; undefined when unknown or used (the approval's own expiry decides the rest; sweepApprovals removes old ones). */
  takeCardSecret(secret: string): Promise<string | undefined>;

  // Local-signer previews: the unsigned bytes a preview was built from (JSON), kept until signed, used once.
  /** Keeps `record` under `nonce`; false when `maxOpen` unexpired ones are kept already (nothing is dropped). */
  putPreview(nonce: string, record: string, expiresAt: number, now: number, maxOpen: number): Promise<boolean>;
  /** The record while unexpired; undefined when unknown, used or expired. */
  getPreview(nonce: string, now: number): Promise<string | undefined>;
  /** Removes the record and answers whether this call removed it (a record is used once, by one process). */
  takePreview(nonce: string): Promise<boolean>;

  // The rolling 24 h total per signer (where the money comes from), exact.
  /** What the signer sent (or reserved) in the 24 h before `now`. */
  spent(signer: string, now: number): Promise<bigint>;
  /** Of that, what is reserved and neither committed nor released yet: spends still in flight, not on the chain. */
  inFlight(signer: string, now: number): Promise<bigint>;
  /** Atomically: records `amount` at `now` only if spent + amount ≤ limit (no limit: always). */
  reserve(signer: string, amount: bigint, limit: bigint | undefined, now: number): Promise<Reservation | undefined>;
  /** The spend went out (or its outcome is unknown): it stays counted. */
  commit(reservation: Reservation): Promise<void>;
  /** The spend certainly did not go out: its share comes back (after a commit, nothing changes). */
  release(reservation: Reservation): Promise<void>;

  // Passkeys, per owner (read once at start by the approval page; written by `passkey add`).
  listPasskeys(owner: string): Promise<PasskeyRecord[]>;
  addPasskey(owner: string, passkey: PasskeyRecord): Promise<void>;

  close(): Promise<void>;
}

export const DAY_MS = 24 * 60 * 60 * 1000;
