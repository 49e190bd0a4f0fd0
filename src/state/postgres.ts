import { randomBytes } from 'node:crypto';
import type { Pool, PoolClient, Client as PgClient } from 'pg';
import type { Logger } from '../log.js';
import { type ApprovalRow, approvalFacts, approvalFromRow } from './rows.js';
import { DAY_MS, type ApprovalRecord, type ApprovalState, type PasskeyRecord, type Reservation, type StateStore, type TakeOutcome } from './store.js';
import { Waiters } from './wake.js';

/** The channel a decision is announced on; the payload is the approval's nonce. */
const CHANNEL = 'chain_mcp_approval';
/** Advisory lock key (any fixed bigint) held while the schema is set up: replicas starting together do not race. */
const SCHEMA_LOCK = 7_340_184_532_901;

const SCHEMA = [
  'CREATE TABLE IF NOT EXISTS chain_mcp_confirmations (id TEXT PRIMARY KEY, owner TEXT NOT NULL, expires_at BIGINT NOT NULL)',
  `CREATE TABLE IF NOT EXISTS chain_mcp_approvals (nonce TEXT PRIMARY KEY, owner TEXT NOT NULL, token TEXT NOT NULL UNIQUE, facts TEXT NOT NULL,
    expires_at BIGINT NOT NULL, state TEXT NOT NULL, decided_by TEXT, passkey_challenge TEXT, decision_seal TEXT)`,
  // A database made before decisions were sealed gains the column (its pending rows then fail to verify: refused, never approved).
  'ALTER TABLE chain_mcp_approvals ADD COLUMN IF NOT EXISTS decision_seal TEXT',
  'CREATE TABLE IF NOT EXISTS chain_mcp_card_secrets (secret TEXT PRIMARY KEY, nonce TEXT NOT NULL, expires_at BIGINT NOT NULL)',
  'CREATE TABLE IF NOT EXISTS chain_mcp_previews (nonce TEXT PRIMARY KEY, record TEXT NOT NULL, expires_at BIGINT NOT NULL)',
  // NUMERIC with no scale: exact integers of any size (uint64 sums and beyond), never a float.
  `CREATE TABLE IF NOT EXISTS chain_mcp_ledger (id TEXT PRIMARY KEY, signer TEXT NOT NULL, at BIGINT NOT NULL,
    amount NUMERIC NOT NULL CHECK (amount >= 0 AND amount = trunc(amount)), sent BOOLEAN NOT NULL DEFAULT false)`,
  'CREATE INDEX IF NOT EXISTS chain_mcp_ledger_signer_at ON chain_mcp_ledger (signer, at)',
  'CREATE TABLE IF NOT EXISTS chain_mcp_passkeys (owner TEXT NOT NULL, id TEXT NOT NULL, record TEXT NOT NULL, added BIGSERIAL, PRIMARY KEY (owner, id))',
];

/** `postgres://host:port/db`: the URL without user or password, for logs and `--check`. */
export function postgresWhere(url: string): string {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}${u.pathname}`;
  } catch {
    return 'postgres';
  }
}

/**
 * State in PostgreSQL (CHAIN_MCP_STATE=postgres://…), shared by every replica. Take-once and
 * the decision are single conditional statements (the row lock decides between concurrent
 * ones); the daily total is checked and reserved in one transaction under a per-signer advisory
 * lock; a decision is announced with NOTIFY in the same statement and heard with LISTEN on one
 * connection per process.
 */
export class PostgresStore implements StateStore {
  readonly kind = 'postgres';
  readonly shared = true;
  private readonly waiters = new Waiters();
  private listener?: Promise<PgClient>;
  private closed = false;

  private constructor(
    /** The pool, for other users of the same database (rate limits). */
    readonly pool: Pool,
    private readonly url: string,
    /** pg's own: the reservation's one simple query takes no parameters, so its signer goes in as a literal. */
    private readonly escapeLiteral: (text: string) => string,
    private readonly log?: Logger,
  ) {}

  get where(): string {
    return postgresWhere(this.url);
  }

  static async open(url: string, log?: Logger, poolSize = 10): Promise<PostgresStore> {
    const pg = (await import('pg')).default;
    const pool = new pg.Pool({ connectionString: url, max: poolSize });
    // An idle connection that breaks emits here; without a listener it would end the process.
    pool.on('error', (err) => log?.warn({ err: err.message }, 'state store connection lost'));
    const store = new PostgresStore(pool, url, pg.escapeLiteral, log);
    try {
      await store.transaction(async (c) => {
        await c.query('SELECT pg_advisory_xact_lock($1)', [SCHEMA_LOCK]);
        for (const sql of SCHEMA) await c.query(sql);
      });
    } catch (err) {
      await pool.end().catch(() => undefined);
      throw err;
    }
    return store;
  }

  private async transaction<T>(fn: (c: PoolClient) => Promise<T>): Promise<T> {
    const c = await this.pool.connect();
    try {
      await c.query('BEGIN');
      const result = await fn(c);
      await c.query('COMMIT');
      return result;
    } catch (err) {
      await c.query('ROLLBACK').catch(() => undefined);
      throw err;
    } finally {
      c.release();
    }
  }

  private async q<T>(sql: string, params: unknown[] = []): Promise<{ rows: T[]; rowCount: number }> {
    const r = await this.pool.query(sql, params);
    return { rows: r.rows as T[], rowCount: r.rowCount ?? 0 };
  }

  async putConfirmation(id: string, owner: string, expiresAt: number, now: number, maxOpen: number): Promise<boolean> {
    // Sweep, count and insert in one statement (one round trip): the count sees the rows as they
    // were before the sweep, so it counts the live ones only. Concurrent previews on several
    // replicas may pass the bound by a few, which only limits memory.
    const r = await this.q(
      `WITH swept AS (DELETE FROM chain_mcp_confirmations WHERE expires_at < $5)
       INSERT INTO chain_mcp_confirmations (id, owner, expires_at) SELECT $1, $2, $3 WHERE (SELECT count(*) FROM chain_mcp_confirmations WHERE expires_at >= $5) < $4`,
      [id, owner, expiresAt, maxOpen, now],
    );
    return r.rowCount === 1;
  }

  private async classify(id: string, owner: string, now: number): Promise<TakeOutcome> {
    const { rows } = await this.q<{ owner: string; expires_at: string }>('SELECT owner, expires_at FROM chain_mcp_confirmations WHERE id = $1', [id]);
    const row = rows[0];
    if (!row) return 'unknown';
    if (now > Number(row.expires_at)) {
      await this.q('DELETE FROM chain_mcp_confirmations WHERE id = $1', [id]);
      return 'expired';
    }
    return row.owner === owner ? 'ok' : 'other-owner';
  }

  checkConfirmation(id: string, owner: string, now: number): Promise<TakeOutcome> {
    return this.classify(id, owner, now);
  }

  async takeConfirmation(id: string, owner: string, now: number): Promise<TakeOutcome> {
    // One conditional DELETE: concurrent takers queue on the row lock and all but one find it gone.
    const r = await this.q('DELETE FROM chain_mcp_confirmations WHERE id = $1 AND owner = $2 AND expires_at >= $3', [id, owner, now]);
    if (r.rowCount === 1) return 'ok';
    const why = await this.classify(id, owner, now);
    return why === 'ok' ? 'unknown' : why;
  }

  async openConfirmations(now: number): Promise<number> {
    const { rows } = await this.q<{ n: string }>('SELECT count(*) AS n FROM chain_mcp_confirmations WHERE expires_at >= $1', [now]);
    return Number(rows[0]?.n ?? 0);
  }

  async putApproval(a: ApprovalRecord, now: number, maxPending: number, maxPerOwner?: number): Promise<boolean> {
    const r = await this.q(
      `INSERT INTO chain_mcp_approvals (nonce, owner, token, facts, expires_at, state, decided_by, passkey_challenge, decision_seal)
       SELECT $1, $2, $3, $4, $5, $6, $7, $8, $11 WHERE (SELECT count(*) FROM chain_mcp_approvals WHERE expires_at >= $9) < $10
         AND ($12::int IS NULL OR (SELECT count(*) FROM chain_mcp_approvals WHERE expires_at >= $9 AND owner = $2) < $12::int)`,
      [a.nonce, a.owner, a.token, approvalFacts(a), a.expiresAt, a.state, a.decidedBy ?? null, a.passkeyChallenge ?? null, now, maxPending, a.decisionSeal ?? null, maxPerOwner ?? null],
    );
    return r.rowCount === 1;
  }

  async getApproval(nonce: string): Promise<ApprovalRecord | undefined> {
    const { rows } = await this.q<ApprovalRow>('SELECT * FROM chain_mcp_approvals WHERE nonce = $1', [nonce]);
    return rows[0] && approvalFromRow(rows[0]);
  }

  async approvalByToken(token: string): Promise<ApprovalRecord | undefined> {
    const { rows } = await this.q<ApprovalRow>('SELECT * FROM chain_mcp_approvals WHERE token = $1', [token]);
    return rows[0] && approvalFromRow(rows[0]);
  }

  async setPasskeyChallenge(nonce: string, challenge: string): Promise<string | undefined> {
    const { rows } = await this.q<{ c: string | null }>(
      'UPDATE chain_mcp_approvals SET passkey_challenge = coalesce(passkey_challenge, $2) WHERE nonce = $1 RETURNING passkey_challenge AS c',
      [nonce, challenge],
    );
    return rows[0]?.c ?? undefined;
  }

  async decideApproval(nonce: string, decision: 'approved' | 'declined', by: string, now: number, seal?: string): Promise<boolean> {
    // The update and its announcement in one statement: NOTIFY is delivered when it commits.
    const r = await this.q(
      `WITH decided AS (UPDATE chain_mcp_approvals SET state = $2, decided_by = $3, decision_seal = $5 WHERE nonce = $1 AND state = 'pending' AND expires_at >= $4 RETURNING nonce)
       SELECT pg_notify('${CHANNEL}', nonce) FROM decided`,
      [nonce, decision, by, now, seal ?? null],
    );
    if (r.rowCount === 1) this.waiters.wake(nonce);
    return r.rowCount === 1;
  }

  /** One LISTEN connection per process, opened on the first wait; a broken one is opened again on the next. */
  private listen(): Promise<PgClient> {
    this.listener ??= (async () => {
      const pg = (await import('pg')).default;
      const client = new pg.Client({ connectionString: this.url });
      client.on('notification', (msg) => {
        if (msg.channel === CHANNEL && msg.payload) this.waiters.wake(msg.payload);
      });
      client.on('error', (err) => {
        this.log?.warn({ err: err.message }, 'state store notifications lost; listening again on the next wait');
        this.listener = undefined;
      });
      await client.connect();
      await client.query(`LISTEN ${CHANNEL}`);
      return client;
    })().catch((err: unknown) => {
      this.listener = undefined;
      throw err;
    });
    return this.listener;
  }

  async waitApproval(nonce: string, ms: number, signal?: AbortSignal): Promise<ApprovalState | undefined> {
    // Listening before the first read: a decision made between them still wakes this waiter.
    await this.listen();
    const read = async () => (await this.q<{ state: ApprovalState }>('SELECT state FROM chain_mcp_approvals WHERE nonce = $1', [nonce])).rows[0]?.state;
    return this.waiters.wait(nonce, ms, read, signal);
  }

  async deleteApproval(nonce: string): Promise<void> {
    await this.q('WITH secrets AS (DELETE FROM chain_mcp_card_secrets WHERE nonce = $1) DELETE FROM chain_mcp_approvals WHERE nonce = $1', [nonce]);
  }

  async sweepApprovals(now: number): Promise<ApprovalRecord[]> {
    const { rows } = await this.q<ApprovalRow>('WITH secrets AS (DELETE FROM chain_mcp_card_secrets WHERE expires_at < $1) DELETE FROM chain_mcp_approvals WHERE expires_at < $1 RETURNING *', [now]);
    return rows.map(approvalFromRow);
  }

  async liveApprovals(now: number, owner?: string): Promise<number> {
    const { rows } =
      owner === undefined
        ? await this.q<{ n: string }>('SELECT count(*) AS n FROM chain_mcp_approvals WHERE expires_at >= $1', [now])
        : await this.q<{ n: string }>('SELECT count(*) AS n FROM chain_mcp_approvals WHERE expires_at >= $1 AND owner = $2', [now, owner]);
    return Number(rows[0]?.n ?? 0);
  }

  async putCardSecret(secret: string, nonce: string, expiresAt: number): Promise<void> {
    await this.q('INSERT INTO chain_mcp_card_secrets (secret, nonce, expires_at) VALUES ($1, $2, $3)', [secret, nonce, expiresAt]);
  }

  async takeCardSecret(secret: string): Promise<string | undefined> {
    const { rows } = await this.q<{ nonce: string }>('DELETE FROM chain_mcp_card_secrets WHERE secret = $1 RETURNING nonce', [secret]);
    return rows[0]?.nonce;
  }

  async putPreview(nonce: string, record: string, expiresAt: number, now: number, maxOpen: number): Promise<boolean> {
    // Sweep, count and insert in one statement, as for confirmations: the bound only limits what is kept.
    const r = await this.q(
      `WITH swept AS (DELETE FROM chain_mcp_previews WHERE expires_at < $5)
       INSERT INTO chain_mcp_previews (nonce, record, expires_at) SELECT $1, $2, $3 WHERE (SELECT count(*) FROM chain_mcp_previews WHERE expires_at >= $5) < $4`,
      [nonce, record, expiresAt, maxOpen, now],
    );
    return r.rowCount === 1;
  }

  async getPreview(nonce: string, now: number): Promise<string | undefined> {
    const { rows } = await this.q<{ record: string }>('SELECT record FROM chain_mcp_previews WHERE nonce = $1 AND expires_at >= $2', [nonce, now]);
    return rows[0]?.record;
  }

  async takePreview(nonce: string): Promise<boolean> {
    const { rowCount } = await this.q('DELETE FROM chain_mcp_previews WHERE nonce = $1', [nonce]);
    return (rowCount ?? 0) > 0;
  }

  async spent(signer: string, now: number): Promise<bigint> {
    const { rows } = await this.q<{ total: string }>('SELECT coalesce(sum(amount), 0)::text AS total FROM chain_mcp_ledger WHERE signer = $1 AND at > $2', [signer, now - DAY_MS]);
    return BigInt(rows[0]?.total ?? '0');
  }

  async inFlight(signer: string, now: number): Promise<bigint> {
    const { rows } = await this.q<{ total: string }>('SELECT coalesce(sum(amount), 0)::text AS total FROM chain_mcp_ledger WHERE signer = $1 AND at > $2 AND NOT sent', [
      signer,
      now - DAY_MS,
    ]);
    return BigInt(rows[0]?.total ?? '0');
  }

  async reserve(signer: string, amount: bigint, limit: bigint | undefined, now: number): Promise<Reservation | undefined> {
    if (!Number.isSafeInteger(now) || amount < 0n || (limit !== undefined && limit < 0n)) throw new Error('reserve: a time that is not an integer, or a negative amount or limit');
    const id = randomBytes(12).toString('base64url');
    const who = this.escapeLiteral(signer);
    // One round trip: several statements in one simple query run as one transaction, each on a
    // fresh snapshot. The first takes the signer's advisory lock (one reserver per signer at a time
    // on every replica, held to the end), so the sum read after it sees every reservation committed
    // before; the insert happens only when the total stays within the limit. Values are inlined (a
    // simple query takes no parameters): integers checked above, the signer escaped as a literal.
    const results = (await this.pool.query(
      [
        `SELECT pg_advisory_xact_lock(hashtextextended('chain-mcp-ledger:' || ${who}, 0))`,
        `DELETE FROM chain_mcp_ledger WHERE signer = ${who} AND at <= ${now - DAY_MS}`,
        `INSERT INTO chain_mcp_ledger (id, signer, at, amount) SELECT '${id}', ${who}, ${now}, ${amount}::numeric
         WHERE ${limit === undefined ? 'true' : `(SELECT coalesce(sum(amount), 0) FROM chain_mcp_ledger WHERE signer = ${who}) + ${amount}::numeric <= ${limit}::numeric`}`,
      ].join(';\n'),
    )) as unknown as Array<{ rowCount: number | null }>;
    return results[2]?.rowCount === 1 ? { id, signer } : undefined;
  }

  async commit(reservation: Reservation): Promise<void> {
    await this.q('UPDATE chain_mcp_ledger SET sent = true WHERE id = $1 AND signer = $2', [reservation.id, reservation.signer]);
  }

  async release(reservation: Reservation): Promise<void> {
    await this.q('DELETE FROM chain_mcp_ledger WHERE id = $1 AND signer = $2 AND NOT sent', [reservation.id, reservation.signer]);
  }

  async listPasskeys(owner: string): Promise<PasskeyRecord[]> {
    const { rows } = await this.q<{ record: string }>('SELECT record FROM chain_mcp_passkeys WHERE owner = $1 ORDER BY added', [owner]);
    return rows.map((r) => JSON.parse(r.record) as PasskeyRecord);
  }

  async addPasskey(owner: string, passkey: PasskeyRecord): Promise<void> {
    await this.transaction(async (c) => {
      await c.query('DELETE FROM chain_mcp_passkeys WHERE owner = $1 AND id = $2', [owner, passkey.id]);
      await c.query('INSERT INTO chain_mcp_passkeys (owner, id, record) VALUES ($1, $2, $3)', [owner, passkey.id, JSON.stringify(passkey)]);
    });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const listener = this.listener;
    this.listener = undefined;
    await listener?.then((c) => c.end()).catch(() => undefined);
    await this.pool.end();
  }
}
