import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { RpcBatcher } from '../../src/registry/batcher.js';
import { HttpClient } from '../../src/transport/http.js';
import { JsonRpcClient, MAX_BATCH, stringifyJson } from '../../src/transport/jsonrpc.js';

describe('stringifyJson', () => {
  it('writes bigints as exact bare integers', () => {
    expect(stringifyJson({ amount: 18446744073709551615n, n: [1n, 2] })).toBe('{"amount":18446744073709551615,"n":[1,2]}');
  });
  it('leaves strings that look like the marker alone', () => {
    expect(stringifyJson({ memo: 'big:12' })).toBe('{"memo":"big:12"}');
  });
});

/** A loopback node that answers every batch item by method, and records each request body. */
async function batchNode(answer: (item: { id: unknown; method: string; params?: unknown }) => unknown, whole?: unknown) {
  const bodies: unknown[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
      bodies.push(body);
      const reply = whole !== undefined ? whole : Array.isArray(body) ? body.map(answer).filter((r) => r !== undefined).reverse() : answer(body as { id: unknown; method: string });
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(reply));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const http = new HttpClient({ timeoutMs: 5_000 });
  const client = new JsonRpcClient(http, `http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  const close = async () => {
    await http.close();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  return { bodies, client, close };
}

describe('JsonRpcClient.batch', () => {
  it('sends 85 calls as batches of 40, 40 and 5 and settles each call on its own reply', async () => {
    const node = await batchNode((item) => {
      const n = (item.params as { n: number }).n;
      if (n === 41) return undefined; // a reply missing from the batch answer
      if (n % 10 === 7) return { jsonrpc: '2.0', id: item.id, error: { code: -32000, message: `no ${n}` } };
      return { jsonrpc: '2.0', id: item.id, result: { double: n * 2 } };
    });
    try {
      const calls = Array.from({ length: 85 }, (_, n) => ({ method: 'test.echo', params: { n } }));
      const results = await node.client.batch('/ext/info', calls, { retry: true });
      expect(node.bodies.map((b) => (b as unknown[]).length)).toEqual([MAX_BATCH, MAX_BATCH, 5]);
      expect(MAX_BATCH).toBe(40);
      expect(results).toHaveLength(85);
      results.forEach((r, n) => {
        if (n === 41) {
          expect(r.status).toBe('rejected');
          expect(String((r as PromiseRejectedResult).reason.message)).toContain('lacks the reply to test.echo');
        } else if (n % 10 === 7) {
          expect(r.status).toBe('rejected');
          expect(String((r as PromiseRejectedResult).reason.message)).toContain(`no ${n}`);
        } else expect(r).toEqual({ status: 'fulfilled', value: { double: n * 2 } });
      });
    } finally {
      await node.close();
    }
  });

  it('sends exactly 40 calls as one batch', async () => {
    const node = await batchNode((item) => ({ jsonrpc: '2.0', id: item.id, result: item.method }));
    try {
      const results = await node.client.batch('/ext/info', Array.from({ length: 40 }, (_, n) => ({ method: `m${n}` })), { retry: true });
      expect(node.bodies).toHaveLength(1);
      expect(results.map((r) => (r as PromiseFulfilledResult<unknown>).value)).toEqual(Array.from({ length: 40 }, (_, n) => `m${n}`));
    } finally {
      await node.close();
    }
  });

  it('rejects every call of a batch the node answers with one error object', async () => {
    const node = await batchNode(() => undefined, { jsonrpc: '2.0', id: null, error: { code: -32600, message: 'batch too large' } });
    try {
      const results = await node.client.batch('/ext/info', [{ method: 'a' }, { method: 'b' }], { retry: true });
      expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
      for (const r of results) expect(String((r as PromiseRejectedResult).reason.message)).toContain('batch too large');
    } finally {
      await node.close();
    }
  });
});

describe('RpcBatcher', () => {
  it('on the EVM path sends reads started together as one batch per path, a lone read as a plain call', async () => {
    const node = await batchNode((item) => ({ jsonrpc: '2.0', id: item.id, result: `${item.method}:${JSON.stringify(item.params ?? null)}` }));
    try {
      const batcher = new RpcBatcher(node.client, new AbortController().signal);
      const answers = await Promise.all([
        batcher.call('/ext/bc/C/rpc', 'eth_a', [1], true),
        batcher.call('/ext/bc/D/rpc', 'eth_b', undefined, true),
        batcher.call('/ext/bc/C/rpc', 'eth_c', [2], true),
      ]);
      expect(answers).toEqual(['eth_a:[1]', 'eth_b:null', 'eth_c:[2]']);
      expect(node.bodies).toHaveLength(2);
      const [c, d] = node.bodies as [Array<Record<string, unknown>>, Record<string, unknown>];
      expect(c.map((b) => b.method)).toEqual(['eth_a', 'eth_c']);
      expect(Array.isArray(d)).toBe(false);
      expect(d.method).toBe('eth_b');
      // A later turn is a new batch.
      expect(await batcher.call('/ext/bc/C/rpc', 'eth_d', undefined, true)).toBe('eth_d:null');
      expect(node.bodies).toHaveLength(3);
    } finally {
      await node.close();
    }
  });

  it('elsewhere sends each read as its own request object, all at once (a Camino node takes no batch there)', async () => {
    const node = await batchNode((item) => ({ jsonrpc: '2.0', id: item.id, result: item.method }));
    try {
      const batcher = new RpcBatcher(node.client, new AbortController().signal);
      const answers = await Promise.all([
        batcher.call('/ext/bc/X', 'avm.a', { n: 1 }, true),
        batcher.call('/ext/P', 'platform.b', undefined, true),
        batcher.call('/ext/bc/X', 'avm.c', { n: 2 }, true),
        batcher.call('/ext/bc/C/avax', 'avax.d', {}, true),
      ]);
      expect(answers).toEqual(['avm.a', 'platform.b', 'avm.c', 'avax.d']);
      expect(node.bodies).toHaveLength(4);
      expect(node.bodies.filter((b) => Array.isArray(b))).toEqual([]);
    } finally {
      await node.close();
    }
  });

  it('rejects every read of a batch whose request failed, and settles each read of an answered batch on its own', async () => {
    const node = await batchNode((item) =>
      item.method === 'bad' ? { jsonrpc: '2.0', id: item.id, error: { code: -32000, message: 'nope' } } : { jsonrpc: '2.0', id: item.id, result: 1 },
    );
    const batcher = new RpcBatcher(node.client, new AbortController().signal);
    const mixed = await Promise.allSettled([batcher.call('/ext/bc/C/rpc', 'good', undefined, true), batcher.call('/ext/bc/C/rpc', 'bad', undefined, true)]);
    expect(mixed.map((r) => r.status)).toEqual(['fulfilled', 'rejected']);
    expect(String((mixed[1] as PromiseRejectedResult).reason.message)).toContain('nope');
    await node.close();
    const down = await Promise.allSettled([batcher.call('/ext/bc/C/rpc', 'good', undefined, false), batcher.call('/ext/bc/C/rpc', 'good', undefined, false)]);
    expect(down.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    expect((down[0] as PromiseRejectedResult).reason).toBe((down[1] as PromiseRejectedResult).reason);
  });
});
