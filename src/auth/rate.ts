import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import RateLimiterMemory from 'rate-limiter-flexible/lib/RateLimiterMemory.js';
import RateLimiterPostgres from 'rate-limiter-flexible/lib/RateLimiterPostgres.js';
import RateLimiterRes from 'rate-limiter-flexible/lib/RateLimiterRes.js';
import type { Logger } from '../log.js';

/** Over the limit: how long until the next request would be taken. */
export interface RateLimit {
  retryAfterSeconds: number;
  limit: string;
}

/**
 * CHAIN_MCP_RATE_LIMIT: requests to the MCP endpoint per user (per address before a valid token)
 * and period, with rate-limiter-flexible. In memory for one process; on the state store's
 * PostgreSQL pool when replicas share one, so the count is the deployment's, not each replica's.
 */
export class RateLimits {
  private readonly limiter: RateLimiterAbstract;
  private readonly text: string;
  /** Resolves once the limiter can count (its PostgreSQL table exists); serveHttp waits for it before listening. */
  readonly ready: Promise<void>;

  constructor(
    rate: { points: number; seconds: number; text: string },
    private readonly log: Logger,
    /** A pg Pool of the shared store; absent: this process counts alone. */
    pool?: unknown,
  ) {
    this.text = rate.text;
    let created: () => void = () => undefined;
    this.ready = new Promise((resolve) => {
      created = resolve;
    });
    // Replicas starting together may race to create the table; the library takes the loser's duplicate as done.
    this.limiter = pool
      ? new RateLimiterPostgres({ storeClient: pool, storeType: 'pool', tableName: 'chain_mcp_rate_limit', points: rate.points, duration: rate.seconds, keyPrefix: 'mcp' }, (err?: Error) => {
          if (err) log.warn({ err: err.message }, 'rate limit table could not be created; requests are not limited until it exists');
          created();
        })
      : new RateLimiterMemory({ points: rate.points, duration: rate.seconds, keyPrefix: 'mcp' });
    if (!pool) created();
  }

  /** Takes one request from `key`'s allowance; the refusal when there was none left. */
  async consume(key: string): Promise<RateLimit | undefined> {
    try {
      await this.limiter.consume(key);
      return undefined;
    } catch (err) {
      if (err instanceof RateLimiterRes) return this.refusal(err);
      // The limit guards against floods, not money: a store hiccup lets the request through, said once per failure.
      this.log.warn({ err: (err as Error).message }, 'rate limit not checked: the store did not answer');
      return undefined;
    }
  }

  /** Whether `key` is over its allowance now, without taking anything. */
  async over(key: string): Promise<RateLimit | undefined> {
    const state = await this.limiter.get(key).catch(() => null);
    return state && state.consumedPoints > this.limiter.points ? this.refusal(state) : undefined;
  }

  private refusal(res: RateLimiterRes): RateLimit {
    return { retryAfterSeconds: Math.max(1, Math.ceil(res.msBeforeNext / 1000)), limit: `${this.text} (CHAIN_MCP_RATE_LIMIT)` };
  }
}
