import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RateLimits } from '../../src/auth/rate.js';
import { createLogger } from '../../src/log.js';
import { startPostgres, type TestPostgres } from '../../tools/postgres.js';

/** src/auth/rate.ts: CHAIN_MCP_RATE_LIMIT counted per key in this process or on a real shared PostgreSQL, and a store that fails lets requests through, said in the log. */
describe('the per-user request limit', () => {
  it('takes N requests per period per key, refuses the next with the wait and the setting named; other keys keep theirs', async () => {
    const limits = new RateLimits({ points: 2, seconds: 60, text: '2/min' }, createLogger('silent', []));
    await limits.ready;
    expect(await limits.consume('sub:a')).toBeUndefined();
    expect(await limits.consume('sub:a')).toBeUndefined();
    expect(await limits.over('sub:a')).toBeUndefined();
    const refused = await limits.consume('sub:a');
    expect(refused?.limit).toBe('2/min (CHAIN_MCP_RATE_LIMIT)');
    expect(refused?.retryAfterSeconds).toBeGreaterThanOrEqual(59);
    expect(refused?.retryAfterSeconds).toBeLessThanOrEqual(60);
    // Once past its allowance, `over` says so without taking anything; another key is untouched.
    expect((await limits.over('sub:a'))?.limit).toBe('2/min (CHAIN_MCP_RATE_LIMIT)');
    expect(await limits.over('sub:b')).toBeUndefined();
    expect(await limits.consume('sub:b')).toBeUndefined();
  });

  it('a store that does not answer lets the request through and says so in the log, once per failure', async () => {
    const lines: string[] = [];
    const failing = { query: () => Promise.reject(new Error('the database is down')) };
    const limits = new RateLimits({ points: 1, seconds: 60, text: '1/min' }, createLogger('warn', [], { write: (l: string) => lines.push(l) }), failing);
    await limits.ready;
    for (let i = 0; i < 3; i++) expect(await limits.consume('sub:a')).toBeUndefined();
    expect(await limits.over('sub:a')).toBeUndefined();
    const said = lines.map((l) => JSON.parse(l) as { msg: string; err?: string; level: number });
    const unchecked = said.filter((l) => l.msg === 'rate limit not checked: the store did not answer');
    expect(unchecked).toHaveLength(3);
    // Each line says why (the store's or the library's own words) at warn level.
    for (const l of unchecked) expect(l).toMatchObject({ err: expect.stringMatching(/\S/), level: 40 });
    expect(said.filter((l) => l.msg === 'rate limit table could not be created; requests are not limited until it exists')).toEqual([
      expect.objectContaining({ err: 'the database is down', level: 40 }),
    ]);
  });
});

describe('the per-user request limit on a shared PostgreSQL', () => {
  let postgres: TestPostgres;
  beforeAll(async () => {
    postgres = await startPostgres();
  }, 120_000);
  afterAll(() => postgres?.stop());

  it('is ready only once its table exists, says nothing when it made it, and counts for every replica on the store', async () => {
    const url = await postgres.createDatabase('rate_shared');
    const pools = [new pg.Pool({ connectionString: url }), new pg.Pool({ connectionString: url })];
    // The server stopping after the test ends idle connections: not this test's concern.
    for (const pool of pools) pool.on('error', () => undefined);
    // Another replica is creating the same table in a transaction not yet committed: this one's CREATE waits for it.
    const other = new pg.Client({ connectionString: url });
    await other.connect();
    const lines: string[] = [];
    const log = createLogger('info', [], { write: (l: string) => lines.push(l) });
    try {
      await other.query('BEGIN');
      await other.query('CREATE TABLE chain_mcp_rate_limit (key varchar(255) PRIMARY KEY, points integer NOT NULL DEFAULT 0, expire bigint)');
      const one = new RateLimits({ points: 2, seconds: 60, text: '2/min' }, log, pools[0]);
      let ready = false;
      void one.ready.then(() => {
        ready = true;
      });
      await pools[0]!.query('SELECT 1');
      await new Promise((resolve) => setImmediate(resolve));
      expect(ready).toBe(false);
      await other.query('ROLLBACK');
      await one.ready;
      expect((await pools[0]!.query("SELECT to_regclass('chain_mcp_rate_limit') AS t")).rows[0].t).toBe('chain_mcp_rate_limit');
      const two = new RateLimits({ points: 2, seconds: 60, text: '2/min' }, log, pools[1]);
      await two.ready;
      expect(await one.consume('sub:alice')).toBeUndefined();
      expect(await two.consume('sub:alice')).toBeUndefined();
      expect((await one.consume('sub:alice'))?.limit).toBe('2/min (CHAIN_MCP_RATE_LIMIT)');
      expect((await two.over('sub:alice'))?.limit).toBe('2/min (CHAIN_MCP_RATE_LIMIT)');
      expect(await two.consume('sub:bob')).toBeUndefined();
      expect(lines).toEqual([]);
    } finally {
      await other.end();
      await Promise.all(pools.map((p) => p.end()));
    }
  });
});
