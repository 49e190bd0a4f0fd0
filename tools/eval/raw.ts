import type { Devnet } from '../../src/devnet/index.js';

/**
 * The node's and the indexer's own answers, asked directly (not through the server): the truth an
 * eval question or a test holds the server's text to.
 */
export interface RawApi {
  /** A JSON-RPC call; `where` is P, X, C (the EVM), info, or a path such as /ext/bc/C/avax. */
  rpc(where: string, method: string, params?: Record<string, unknown> | unknown[]): Promise<unknown>;
  /** GET on the indexer, e.g. /v2/assets/<id>. */
  rest(path: string): Promise<unknown>;
}

const PATHS: Record<string, string> = { P: '/ext/P', X: '/ext/bc/X', C: '/ext/bc/C/rpc', info: '/ext/info', keystore: '/ext/keystore' };

export function rawApi(devnet: Pick<Devnet, 'nodeUrl' | 'indexerUrl'>): RawApi {
  return {
    async rpc(where, method, params = {}) {
      const res = await fetch(new URL(PATHS[where] ?? where, devnet.nodeUrl), {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
      });
      const body = (await res.json()) as { result?: unknown; error?: { message: string } };
      if (body.error) throw new Error(`${method}: ${body.error.message}`);
      return body.result;
    },
    async rest(path) {
      if (!devnet.indexerUrl) throw new Error('this devnet runs no indexer');
      const res = await fetch(new URL(path, devnet.indexerUrl));
      if (!res.ok) throw new Error(`GET ${path}: HTTP ${res.status}`);
      return res.json();
    },
  };
}
