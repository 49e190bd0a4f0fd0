/**
 * CHAIN_MCP_MAX_SPEND_PER_DAY: a rolling 24 h total of everything sent (amounts and fees, in the
 * smallest unit), per signer, kept in the state store (src/state/) so a restart or another
 * process of the same signer resumes the same window. A spend reserves its share atomically just
 * before its one request, so two concurrent confirms (in any processes sharing the store) cannot
 * both fit under the last of the allowance; a spend that certainly failed gives it back, one
 * with an unknown outcome keeps it (counted as sent: the safe side).
 */
import type { Config } from '../config.js';
import { MemoryStore } from '../state/memory.js';
import { DAY_MS, type Reservation, type StateStore } from '../state/store.js';

export { DAY_MS };

/**
 * Whose money a spend moves: the daily total belongs to it, not to the user asking, so several
 * users of one deployment together never exceed it. The keystore user's name on any node (the
 * same name on two nodes shares one total: the safe side).
 */
export function signerOf(config: Pick<Config, 'keystore'>): string {
  return config.keystore ? `keystore:${config.keystore.username}` : 'default';
}

export class SpendLedger {
  constructor(
    private readonly now: () => number,
    private readonly store: StateStore = new MemoryStore(),
    readonly signer = 'default',
  ) {}

  /** Sum of what was sent in the last 24 hours. */
  spent(): Promise<bigint> {
    return this.store.spent(this.signer, this.now());
  }

  /** Of that, what is reserved for spends still in flight (not committed, not released). */
  inFlight(): Promise<bigint> {
    return this.store.inFlight(this.signer, this.now());
  }

  /** Records `amount` now if it fits; returns the reservation, or undefined when it does not fit. */
  reserve(amount: bigint, limit: bigint | undefined): Promise<Reservation | undefined> {
    return this.store.reserve(this.signer, amount, limit, this.now());
  }

  /** The request went out (or may have): the share stays counted for good. */
  commit(reservation: Reservation): Promise<void> {
    return this.store.commit(reservation);
  }

  /** The spend certainly did not go out: its share comes back. */
  release(reservation: Reservation): Promise<void> {
    return this.store.release(reservation);
  }
}
