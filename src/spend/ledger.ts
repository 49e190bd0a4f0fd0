/**
 * CHAIN_MCP_MAX_SPEND_PER_DAY: a rolling 24 h total of everything sent (amounts and fees, in the
 * smallest unit). A spend reserves its share synchronously just before its one request, so two
 * concurrent confirms cannot both fit under the last of the allowance; a spend that certainly
 * failed gives it back, one with an unknown outcome keeps it (counted as sent: the safe side).
 */

export const DAY_MS = 24 * 60 * 60 * 1000;

interface Entry {
  at: number;
  amount: bigint;
}

export class SpendLedger {
  private entries: Entry[] = [];

  constructor(private readonly now: () => number) {}

  /** Sum of what was sent in the last 24 hours. */
  spent(): bigint {
    const since = this.now() - DAY_MS;
    this.entries = this.entries.filter((e) => e.at > since);
    return this.entries.reduce((sum, e) => sum + e.amount, 0n);
  }

  /** Whether `amount` more stays within `limit` (no limit: always). */
  fits(amount: bigint, limit: bigint | undefined): boolean {
    return limit === undefined || this.spent() + amount <= limit;
  }

  /** Records `amount` now if it fits; returns the entry to release, or undefined when it does not fit. */
  reserve(amount: bigint, limit: bigint | undefined): Entry | undefined {
    if (!this.fits(amount, limit)) return undefined;
    const entry = { at: this.now(), amount };
    this.entries.push(entry);
    return entry;
  }

  /** The spend certainly did not go out: its share comes back. */
  release(entry: Entry): void {
    this.entries = this.entries.filter((e) => e !== entry);
  }
}
