import { randomBytes } from 'node:crypto';
import { closeSync, mkdirSync, openSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { ConfigError } from '../config.js';
import { DAY_MS, type ApprovalRecord, type ApprovalState, type PasskeyRecord, type Reservation, type StateStore, type TakeOutcome } from './store.js';
import { type ApprovalRow, approvalFacts, approvalFromRow } from './rows.js';
import { Waiters } from './wake.js';

/** The part of node:sqlite's DatabaseSync and better-sqlite3's Database used here (the same in both). */
interface Db {
  exec(sql: string): unknown;
  prepare(sql: string): {
    run(...params: unknown[]): { changes: number | bigint };
    get(...params: unknown[]): unknown;
    all(...params: unknown[]): unknown[];
  };
  close(): unknown;
}

export const NO_SQLITE =
  'CHAIN_MCP_STATE=sqlite:… needs SQLite: run chain-mcp on Node.js 22.5 or later (node:sqlite), or `npm i better-sqlite3@12` beside it, or set CHAIN_MCP_STATE=memory knowing the daily total then resets on every restart';

export type SqliteDriver = 'node:sqlite' | 'better-sqlite3';

/**
 * node:sqlite when this Node has it (22.5+; unflagged from 22.13), else better-sqlite3 12 if it is
 * installed beside chain-mcp (an optional native addon, never a dependency: loaded only here).
 */
async function loadDriver(): Promise<{ Database: new (file: string) => Db; driver: SqliteDriver }> {
  // Names in variables: neither is bundled (tools/bundle.ts), and Node 20's types have no node:sqlite.
  const builtin = 'node:sqlite';
  try {
    const { DatabaseSync } = (await import(builtin)) as { DatabaseSync: new (file: string) => Db };
    return { Database: DatabaseSync, driver: 'node:sqlite' };
  } catch (err) {
    if (!isMissing(err)) throw err;
  }
  const addon = 'better-sqlite3';
  try {
    return { Database: createRequire(import.meta.url)(addon) as new (file: string) => Db, driver: 'better-sqlite3' };
  } catch {
    throw new ConfigError(NO_SQLITE);
  }
}

function isMissing(err: unknown): boolean {
  const code = (err as { code?: string })?.code;
  return code === 'ERR_UNKNOWN_BUILTIN_MODULE' || code === 'ERR_MODULE_NOT_FOUND';
}

const SCHEMA = `
CREATE TABLE IF NOT EXISTS chain_mcp_confirmations (id TEXT PRIMARY KEY, owner TEXT NOT NULL, expires_at INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS chain_mcp_approvals (nonce TEXT PRIMARY KEY, owner TEXT NOT NULL, token TEXT NOT NULL UNIQUE, facts TEXT NOT NULL,
  expires_at INTEGER NOT NULL, state TEXT NOT NULL, decided_by TEXT, passkey_challenge TEXT, decision_seal TEXT);
CREATE TABLE IF NOT EXISTS chain_mcp_card_secrets (secret TEXT PRIMARY KEY, nonce TEXT NOT NULL, expires_at INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS chain_mcp_previews (nonce TEXT PRIMARY KEY, record TEXT NOT NULL, expires_at INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS chain_mcp_ledger (id TEXT PRIMARY KEY, signer TEXT NOT NULL, at INTEGER NOT NULL, amount TEXT NOT NULL, sent INTEGER NOT NULL DEFAULT 0);
CREATE INDEX IF NOT EXISTS chain_mcp_ledger_signer_at ON chain_mcp_ledger (signer, at);
CREATE TABLE IF NOT EXISTS chain_mcp_passkeys (owner TEXT NOT NULL, id TEXT NOT NULL, record TEXT NOT NULL, PRIMARY KEY (owner, id));
`;

const WAL_TRIES = 100;
const WAL_PAUSE_MS = 50;

/**
 * Switches the file to WAL. SQLite answers "database is locked" at once, without its busy
 * timeout, while another process is switching the same new file (two servers started together
 * on one file): so a bounded retry here, at most 5 s, then the error.
 */
async function enterWal(db: Db): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      db.exec('PRAGMA journal_mode = WAL');
      return;
    } catch (err) {
      if (attempt >= WAL_TRIES || !isBusy(err)) throw err;
      await new Promise((resolve) => setTimeout(resolve, WAL_PAUSE_MS));
    }
  }
}

function isBusy(err: unknown): boolean {
  const e = err as { errcode?: number; code?: string; message?: string };
  // node:sqlite gives the result code (5 = SQLITE_BUSY), better-sqlite3 its name.
  return (e?.errcode ?? 0) % 256 === 5 || e?.code?.startsWith('SQLITE_BUSY') === true || /database is locked/.test(e?.message ?? '');
}

/** How often a waiter re-reads an approval: SQLite has no notifications, and every process is on this machine. */
export const SQLITE_POLL_MS = 200;

/**
 * State in one SQLite file (CHAIN_MCP_STATE=sqlite:<file>): survives restarts and is shared by
 * every process on this machine that opens the same file. WAL mode and a busy timeout let
 * several processes use it at once; a read-then-write runs in BEGIN IMMEDIATE, which takes the
 * file's write lock first, so two processes never both see room under the daily limit. The
 * driver is synchronous, so within this process nothing interleaves inside one operation.
 */
export class SqliteStore implements StateStore {
  readonly kind = 'sqlite';
  readonly shared = false;
  private readonly waiters = new Waiters();

  private constructor(
    private readonly db: Db,
    readonly where: string,
    /** Which SQLite this process opened the file with. */
    readonly driver: SqliteDriver,
  ) {}

  static async open(file: string): Promise<SqliteStore> {
    // No file is made when no driver can open it.
    const { Database, driver } = await loadDriver();
    if (file !== ':memory:') {
      mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
      // Created 0600 before SQLite opens it (its -wal and -shm files take the database's mode):
      // the store holds approval and card tokens another OS user must not read.
      closeSync(openSync(file, 'a', 0o600));
    }
    const db = new Database(file);
    db.exec('PRAGMA busy_timeout = 10000');
    await enterWal(db);
    // NORMAL: a commit is synced at checkpoints only; the reservation before a spend is synced
    // itself (reserve), and with it everything committed before it (the WAL is one sequence).
    db.exec('PRAGMA synchronous = NORMAL');
    const store = new SqliteStore(db, file, driver);
    store.write(() => {
      db.exec(SCHEMA);
      // A file made before decisions were sealed gains the column (its pending rows then fail to verify: refused, never approved).
      const columns = db.prepare('PRAGMA table_info(chain_mcp_approvals)').all() as Array<{ name: string }>;
      if (!columns.some((c) => c.name === 'decision_seal')) db.exec('ALTER TABLE chain_mcp_approvals ADD COLUMN decision_seal TEXT');
    });
    return store;
  }

  /** One write transaction, holding the file's write lock from its start. */
  private write<T>(fn: () => T): T {
    this.db.exec('BEGIN IMMEDIATE');
    try {
      const result = fn();
      this.db.exec('COMMIT');
      return result;
    } catch (err) {
      this.db.exec('ROLLBACK');
      throw err;
    }
  }

  private run(sql: string, ...params: unknown[]): number {
    return Number(this.db.prepare(sql).run(...params).changes);
  }

  private get<T>(sql: string, ...params: unknown[]): T | undefined {
    return this.db.prepare(sql).get(...params) as T | undefined;
  }

  async putConfirmation(id: string, owner: string, expiresAt: number, now: number, maxOpen: number): Promise<boolean> {
    return this.write(() => {
      this.run('DELETE FROM chain_mcp_confirmations WHERE expires_at < ?', now);
      const open = this.get<{ n: number }>('SELECT count(*) AS n FROM chain_mcp_confirmations')?.n ?? 0;
      if (Number(open) >= maxOpen) return false;
      this.run('INSERT INTO chain_mcp_confirmations (id, owner, expires_at) VALUES (?, ?, ?)', id, owner, expiresAt);
      return true;
    });
  }

  private classify(id: string, owner: string, now: number): TakeOutcome {
    const row = this.get<{ owner: string; expires_at: number }>('SELECT owner, expires_at FROM chain_mcp_confirmations WHERE id = ?', id);
    if (!row) return 'unknown';
    if (now > Number(row.expires_at)) {
      this.run('DELETE FROM chain_mcp_confirmations WHERE id = ?', id);
      return 'expired';
    }
    return row.owner === owner ? 'ok' : 'other-owner';
  }

  async checkConfirmation(id: string, owner: string, now: number): Promise<TakeOutcome> {
    return this.classify(id, owner, now);
  }

  async takeConfirmation(id: string, owner: string, now: number): Promise<TakeOutcome> {
    // One DELETE decides: of any number of takers in any process, one removes the row.
    if (this.run('DELETE FROM chain_mcp_confirmations WHERE id = ? AND owner = ? AND expires_at >= ?', id, owner, now) === 1) return 'ok';
    const why = this.classify(id, owner, now);
    return why === 'ok' ? 'unknown' : why;
  }

  async openConfirmations(now: number): Promise<number> {
    return Number(this.get<{ n: number }>('SELECT count(*) AS n FROM chain_mcp_confirmations WHERE expires_at >= ?', now)?.n ?? 0);
  }

  async putApproval(a: ApprovalRecord, now: number, maxPending: number, maxPerOwner?: number): Promise<boolean> {
    return this.write(() => {
      const live = Number(this.get<{ n: number }>('SELECT count(*) AS n FROM chain_mcp_approvals WHERE expires_at >= ?', now)?.n ?? 0);
      if (live >= maxPending) return false;
      if (maxPerOwner !== undefined) {
        const own = Number(this.get<{ n: number }>('SELECT count(*) AS n FROM chain_mcp_approvals WHERE expires_at >= ? AND owner = ?', now, a.owner)?.n ?? 0);
        if (own >= maxPerOwner) return false;
      }
      this.run(
        'INSERT INTO chain_mcp_approvals (nonce, owner, token, facts, expires_at, state, decided_by, passkey_challenge, decision_seal) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
        a.nonce,
        a.owner,
        a.token,
        approvalFacts(a),
        a.expiresAt,
        a.state,
        a.decidedBy ?? null,
        a.passkeyChallenge ?? null,
        a.decisionSeal ?? null,
      );
      return true;
    });
  }

  async getApproval(nonce: string): Promise<ApprovalRecord | undefined> {
    const row = this.get<ApprovalRow>('SELECT * FROM chain_mcp_approvals WHERE nonce = ?', nonce);
    return row && approvalFromRow(row);
  }

  async approvalByToken(token: string): Promise<ApprovalRecord | undefined> {
    const row = this.get<ApprovalRow>('SELECT * FROM chain_mcp_approvals WHERE token = ?', token);
    return row && approvalFromRow(row);
  }

  async setPasskeyChallenge(nonce: string, challenge: string): Promise<string | undefined> {
    this.run('UPDATE chain_mcp_approvals SET passkey_challenge = ? WHERE nonce = ? AND passkey_challenge IS NULL', challenge, nonce);
    return this.get<{ c: string | null }>('SELECT passkey_challenge AS c FROM chain_mcp_approvals WHERE nonce = ?', nonce)?.c ?? undefined;
  }

  async decideApproval(nonce: string, decision: 'approved' | 'declined', by: string, now: number, seal?: string): Promise<boolean> {
    const changed = this.run(
      "UPDATE chain_mcp_approvals SET state = ?, decided_by = ?, decision_seal = ? WHERE nonce = ? AND state = 'pending' AND expires_at >= ?",
      decision,
      by,
      seal ?? null,
      nonce,
      now,
    );
    if (changed === 1) this.waiters.wake(nonce);
    return changed === 1;
  }

  waitApproval(nonce: string, ms: number, signal?: AbortSignal): Promise<ApprovalState | undefined> {
    const read = async () => this.get<{ state: ApprovalState }>('SELECT state FROM chain_mcp_approvals WHERE nonce = ?', nonce)?.state;
    return this.waiters.wait(nonce, ms, read, signal, SQLITE_POLL_MS);
  }

  async deleteApproval(nonce: string): Promise<void> {
    this.write(() => {
      this.run('DELETE FROM chain_mcp_approvals WHERE nonce = ?', nonce);
      this.run('DELETE FROM chain_mcp_card_secrets WHERE nonce = ?', nonce);
    });
  }

  async sweepApprovals(now: number): Promise<ApprovalRecord[]> {
    return this.write(() => {
      const rows = this.db.prepare('SELECT * FROM chain_mcp_approvals WHERE expires_at < ?').all(now) as ApprovalRow[];
      this.run('DELETE FROM chain_mcp_approvals WHERE expires_at < ?', now);
      this.run('DELETE FROM chain_mcp_card_secrets WHERE expires_at < ?', now);
      return rows.map(approvalFromRow);
    });
  }

  async liveApprovals(now: number, owner?: string): Promise<number> {
    if (owner !== undefined) return Number(this.get<{ n: number }>('SELECT count(*) AS n FROM chain_mcp_approvals WHERE expires_at >= ? AND owner = ?', now, owner)?.n ?? 0);
    return Number(this.get<{ n: number }>('SELECT count(*) AS n FROM chain_mcp_approvals WHERE expires_at >= ?', now)?.n ?? 0);
  }

  async putCardSecret(secret: string, nonce: string, expiresAt: number): Promise<void> {
    this.run('INSERT INTO chain_mcp_card_secrets (secret, nonce, expires_at) VALUES (?, ?, ?)', secret, nonce, expiresAt);
  }

  async takeCardSecret(secret: string): Promise<string | undefined> {
    return this.write(() => {
      const row = this.get<{ nonce: string }>('SELECT nonce FROM chain_mcp_card_secrets WHERE secret = ?', secret);
      if (row) this.run('DELETE FROM chain_mcp_card_secrets WHERE secret = ?', secret);
      return row?.nonce;
    });
  }

  async putPreview(nonce: string, record: string, expiresAt: number, now: number, maxOpen: number): Promise<boolean> {
    return this.write(() => {
      this.run('DELETE FROM chain_mcp_previews WHERE expires_at < ?', now);
      const open = Number(this.get<{ n: number }>('SELECT count(*) AS n FROM chain_mcp_previews')?.n ?? 0);
      if (open >= maxOpen) return false;
      this.run('INSERT INTO chain_mcp_previews (nonce, record, expires_at) VALUES (?, ?, ?)', nonce, record, expiresAt);
      return true;
    });
  }

  async getPreview(nonce: string, now: number): Promise<string | undefined> {
    return this.get<{ record: string }>('SELECT record FROM chain_mcp_previews WHERE nonce = ? AND expires_at >= ?', nonce, now)?.record;
  }

  async takePreview(nonce: string): Promise<boolean> {
    return this.write(() => {
      const row = this.get<{ nonce: string }>('SELECT nonce FROM chain_mcp_previews WHERE nonce = ?', nonce);
      if (row) this.run('DELETE FROM chain_mcp_previews WHERE nonce = ?', nonce);
      return row !== undefined;
    });
  }

  private total(signer: string, now: number, inFlightOnly = false): bigint {
    const sql = `SELECT amount FROM chain_mcp_ledger WHERE signer = ? AND at > ?${inFlightOnly ? ' AND sent = 0' : ''}`;
    const rows = this.db.prepare(sql).all(signer, now - DAY_MS) as Array<{ amount: string }>;
    // Amounts are TEXT and summed here as bigints: SQLite's own sum() would go through a float.
    return rows.reduce((sum, r) => sum + BigInt(r.amount), 0n);
  }

  async spent(signer: string, now: number): Promise<bigint> {
    return this.total(signer, now);
  }

  async inFlight(signer: string, now: number): Promise<bigint> {
    return this.total(signer, now, true);
  }

  async reserve(signer: string, amount: bigint, limit: bigint | undefined, now: number): Promise<Reservation | undefined> {
    // On disk before the spend's request goes out: a power cut cannot forget what was reserved,
    // nor the confirmation id taken before it.
    this.db.exec('PRAGMA synchronous = FULL');
    try {
      return this.reserveNow(signer, amount, limit, now);
    } finally {
      this.db.exec('PRAGMA synchronous = NORMAL');
    }
  }

  private reserveNow(signer: string, amount: bigint, limit: bigint | undefined, now: number): Reservation | undefined {
    return this.write(() => {
      this.run('DELETE FROM chain_mcp_ledger WHERE signer = ? AND at <= ?', signer, now - DAY_MS);
      if (limit !== undefined && this.total(signer, now) + amount > limit) return undefined;
      const id = randomBytes(12).toString('base64url');
      this.run('INSERT INTO chain_mcp_ledger (id, signer, at, amount) VALUES (?, ?, ?, ?)', id, signer, now, amount.toString());
      return { id, signer };
    });
  }

  async commit(reservation: Reservation): Promise<void> {
    this.run('UPDATE chain_mcp_ledger SET sent = 1 WHERE id = ? AND signer = ?', reservation.id, reservation.signer);
  }

  async release(reservation: Reservation): Promise<void> {
    this.run('DELETE FROM chain_mcp_ledger WHERE id = ? AND signer = ? AND sent = 0', reservation.id, reservation.signer);
  }

  async listPasskeys(owner: string): Promise<PasskeyRecord[]> {
    const rows = this.db.prepare('SELECT record FROM chain_mcp_passkeys WHERE owner = ? ORDER BY rowid').all(owner) as Array<{ record: string }>;
    return rows.map((r) => JSON.parse(r.record) as PasskeyRecord);
  }

  async addPasskey(owner: string, passkey: PasskeyRecord): Promise<void> {
    this.write(() => {
      this.run('DELETE FROM chain_mcp_passkeys WHERE owner = ? AND id = ?', owner, passkey.id);
      this.run('INSERT INTO chain_mcp_passkeys (owner, id, record) VALUES (?, ?, ?)', owner, passkey.id, JSON.stringify(passkey));
    });
  }

  private closed = false;

  /** Closing twice is a no-op (node:sqlite throws on a second close; better-sqlite3 does not). */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.db.close();
  }
}
