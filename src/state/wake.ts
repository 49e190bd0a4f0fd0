import type { ApprovalState } from './store.js';

/**
 * Waiters on approvals in this process. A backend calls `wake` when it learns of a decision (its
 * own, or a notification from another process) and `wait` to park a caller: the waiter is
 * registered before the state is read, so a decision between the two is never missed.
 */
export class Waiters {
  private readonly byNonce = new Map<string, Set<() => void>>();

  wake(nonce: string): void {
    for (const done of this.byNonce.get(nonce) ?? []) done();
  }

  /**
   * Resolves with `read()` once it is no longer pending, when woken, after `ms` or on abort.
   * `pollMs` re-reads on a timer too, for a backend with no notifications (SQLite).
   */
  async wait(nonce: string, ms: number, read: () => Promise<ApprovalState | undefined>, signal?: AbortSignal, pollMs?: number): Promise<ApprovalState | undefined> {
    let woken!: () => void;
    const set = this.byNonce.get(nonce) ?? new Set();
    this.byNonce.set(nonce, set);
    let wake = new Promise<void>((resolve) => {
      woken = resolve;
    });
    const rearm = () => {
      wake = new Promise<void>((resolve) => {
        woken = resolve;
      });
    };
    const done = () => woken();
    set.add(done);
    signal?.addEventListener('abort', done, { once: true });
    const deadline = Date.now() + Math.max(0, ms);
    try {
      for (;;) {
        const state = await read();
        if (state !== 'pending' || signal?.aborted) return state;
        const left = deadline - Date.now();
        if (left <= 0) return state;
        let timer: NodeJS.Timeout | undefined;
        await Promise.race([wake, new Promise<void>((resolve) => (timer = setTimeout(resolve, pollMs === undefined ? left : Math.min(pollMs, left))))]);
        clearTimeout(timer);
        rearm();
      }
    } finally {
      set.delete(done);
      if (set.size === 0) this.byNonce.delete(nonce);
      signal?.removeEventListener('abort', done);
    }
  }
}
