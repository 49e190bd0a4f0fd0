import { describe, expect, it } from 'vitest';
import { RateLimits } from '../../src/auth/rate.js';
import { createLogger } from '../../src/log.js';

/** src/auth/rate.ts: CHAIN_MCP_RATE_LIMIT counted per key in this process, and a store that fails lets requests through, said in the log. */
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
    const said = lines.map((l) => JSON.parse(l) as { msg: string });
    expect(said.filter((l) => l.msg === 'rate limit not checked: the store did not answer')).toHaveLength(3);
    expect(said.map((l) => l.msg)).toContain('rate limit table could not be created; requests are not limited until it exists');
  });
});
