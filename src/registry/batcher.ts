import { setMaxListeners } from 'node:events';
import type { JsonRpcClient, RpcParams } from '../transport/jsonrpc.js';
import { takesBatches } from '../wire.js';

interface Pending {
  method: string;
  params?: RpcParams;
  resolve(value: unknown): void;
  reject(reason: unknown): void;
}

/**
 * Sends the node reads that a composite's steps start together (one turn of the event loop).
 * Where the node takes batches (the EVM endpoint) they go as one JSON-RPC batch per endpoint;
 * everywhere else a real node takes one request object per POST, so each read goes at once as
 * its own request, side by side over the keep-alive pool. Each read settles on its own reply,
 * so every step keeps its own decoder and its own error.
 */
export class RpcBatcher {
  private queue = new Map<string, { path: string; retry: boolean; items: Pending[] }>();
  private scheduled = false;

  constructor(
    private readonly node: JsonRpcClient,
    private readonly signal: AbortSignal,
  ) {
    // Every read in flight listens for the call's cancellation; a composite has more of them at
    // once than Node's default of 10 listeners before it warns. The signal is this call's own.
    setMaxListeners(256, signal);
  }

  call(path: string, method: string, params: RpcParams, retry: boolean): Promise<unknown> {
    if (!takesBatches(path)) return this.node.call({ path, method, params }, { retry, signal: this.signal });
    return new Promise((resolve, reject) => {
      const key = `${retry ? 'r' : 'n'} ${path}`;
      let group = this.queue.get(key);
      if (!group) {
        group = { path, retry, items: [] };
        this.queue.set(key, group);
      }
      group.items.push({ method, params, resolve, reject });
      if (!this.scheduled) {
        this.scheduled = true;
        // After every promise continuation of this turn: all steps started together are queued.
        setImmediate(() => this.flush());
      }
    });
  }

  private flush(): void {
    this.scheduled = false;
    const groups = [...this.queue.values()];
    this.queue = new Map();
    for (const { path, retry, items } of groups) {
      const opts = { retry, signal: this.signal };
      if (items.length === 1) {
        const [only] = items as [Pending];
        this.node.call({ path, method: only.method, params: only.params }, opts).then(only.resolve, only.reject);
        continue;
      }
      this.node.batch(path, items.map(({ method, params }) => ({ method, params })), opts).then(
        (results) =>
          results.forEach((r, i) => {
            if (r.status === 'fulfilled') items[i]!.resolve(r.value);
            else items[i]!.reject(r.reason);
          }),
        (err: unknown) => {
          for (const item of items) item.reject(err);
        },
      );
    }
  }
}
