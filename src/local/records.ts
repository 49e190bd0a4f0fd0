import type { LocalSpend } from './spends.js';

/** At most this many local previews wait for confirmation at once (the confirmation book's own bound is larger). */
export const MAX_LOCAL_RECORDS = 1_000;

export interface LocalRecord {
  tool: string;
  spend: LocalSpend;
  /** sha256 of each step's unsigned bytes, hex, as bound into the confirmation id at preview. */
  hashes: string[];
  /** Amount plus every fee: what the daily total reserves. */
  total: bigint;
  /** The approval lines, as the human saw them. */
  lines: string[];
  expiresAt: number;
}

/**
 * The server-side record of each local preview, keyed by its confirmation nonce: the exact
 * bytes the human approves are kept here and signed at confirm time, never rebuilt.
 */
export class LocalRecords {
  private readonly records = new Map<string, LocalRecord>();

  constructor(private readonly now: () => number) {}

  put(nonce: string, record: LocalRecord): void {
    this.sweep();
    if (this.records.size >= MAX_LOCAL_RECORDS) {
      // Refuse the new one; an older preview a human may be reading is never dropped.
      throw new Error(`${MAX_LOCAL_RECORDS} local previews are open`);
    }
    this.records.set(nonce, record);
  }

  get(nonce: string): LocalRecord | undefined {
    this.sweep();
    return this.records.get(nonce);
  }

  /** Taken out once issued (or declined): a record is used once. */
  take(nonce: string): LocalRecord | undefined {
    const r = this.records.get(nonce);
    this.records.delete(nonce);
    return r;
  }

  get size(): number {
    return this.records.size;
  }

  private sweep(): void {
    const now = this.now();
    for (const [nonce, r] of this.records) if (now > r.expiresAt) this.records.delete(nonce);
  }
}
