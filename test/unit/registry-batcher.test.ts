import { describe, expect, it } from 'vitest';
import { RpcBatcher } from '../../src/registry/batcher.js';
import type { JsonRpcClient, RpcCallOptions, RpcParams, RpcRequest } from '../../src/transport/jsonrpc.js';

/**
 * src/registry/batcher.ts: reads started in one turn go out together, each settling on its own reply:
 * as a batch on the EVM endpoint, elsewhere one request object each (a Camino node takes no batch there).
 */

type Sent =
  | { kind: 'call'; req: RpcRequest; opts: RpcCallOptions }
  | { kind: 'batch'; path: string; calls: Array<{ method: string; params?: RpcParams }>; opts: RpcCallOptions };

/** A JsonRpcClient stand-in that records what is sent and answers from the given functions. */
function fakeNode(answers: {
  call?: (req: RpcRequest) => Promise<unknown>;
  batch?: (path: string, calls: Array<{ method: string; params?: RpcParams }>) => Promise<Array<PromiseSettledResult<unknown>>>;
}) {
  const sent: Sent[] = [];
  const node = {
    call(req: RpcRequest, opts: RpcCallOptions) {
      sent.push({ kind: 'call', req, opts });
      return answers.call ? answers.call(req) : Promise.resolve(`${req.method}-answer`);
    },
    batch(path: string, calls: Array<{ method: string; params?: RpcParams }>, opts: RpcCallOptions) {
      sent.push({ kind: 'batch', path, calls, opts });
      return answers.batch
        ? answers.batch(path, calls)
        : Promise.resolve(calls.map((c): PromiseSettledResult<unknown> => ({ status: 'fulfilled', value: `${c.method}-answer` })));
    },
  };
  return { node: node as unknown as JsonRpcClient, sent };
}

/** Lets the batcher's setImmediate flush run. */
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Fails in 1 s instead of hanging when a read never settles. */
function within<T>(promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('a read did not settle within 1 s')), 1000);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

describe('RpcBatcher', () => {
  it('sends reads started in one turn to one path as one batch, in call order, and each gets its own answer', async () => {
    const { node, sent } = fakeNode({});
    const signal = new AbortController().signal;
    const batcher = new RpcBatcher(node, signal);
    const a = batcher.call('/ext/bc/C/rpc', 'eth_chainId', undefined, true);
    const b = batcher.call('/ext/bc/C/rpc', 'eth_getBalance', { nodeIDs: ['n1'] }, true);
    const c = batcher.call('/ext/bc/C/rpc', 'eth_call', [1], true);
    expect(sent).toEqual([]);
    await nextTurn();
    expect(sent).toEqual([
      {
        kind: 'batch',
        path: '/ext/bc/C/rpc',
        calls: [
          { method: 'eth_chainId', params: undefined },
          { method: 'eth_getBalance', params: { nodeIDs: ['n1'] } },
          { method: 'eth_call', params: [1] },
        ],
        opts: { retry: true, signal },
      },
    ]);
    expect(await within(Promise.all([a, b, c]))).toEqual(['eth_chainId-answer', 'eth_getBalance-answer', 'eth_call-answer']);
  });

  it('sends a lone read as a plain call with its path, params, retry flag and the signal', async () => {
    const { node, sent } = fakeNode({});
    const signal = new AbortController().signal;
    const only = new RpcBatcher(node, signal).call('/ext/bc/X', 'xvm.getHeight', { chain: 'X' }, false);
    await nextTurn();
    expect(sent).toEqual([{ kind: 'call', req: { path: '/ext/bc/X', method: 'xvm.getHeight', params: { chain: 'X' } }, opts: { retry: false, signal } }]);
    expect((sent[0] as { opts: RpcCallOptions }).opts.signal).toBe(signal);
    await expect(within(only)).resolves.toBe('xvm.getHeight-answer');
  });

  it('rejects a lone read with the error of its call', async () => {
    const failure = new Error('node down');
    const { node } = fakeNode({ call: () => Promise.reject(failure) });
    const only = new RpcBatcher(node, new AbortController().signal).call('/ext/bc/C/rpc', 'eth_chainId', undefined, true);
    await expect(within(only)).rejects.toBe(failure);
  });

  it('groups by path and by retry flag: retry and non-retry reads to one path go out separately', async () => {
    const { node, sent } = fakeNode({});
    const signal = new AbortController().signal;
    const batcher = new RpcBatcher(node, signal);
    const reads = [
      batcher.call('/ext/bc/C/rpc', 'r1', undefined, true),
      batcher.call('/ext/bc/C/rpc', 'n1', undefined, false),
      batcher.call('/ext/bc/D/rpc', 'p1', undefined, true),
      batcher.call('/ext/bc/C/rpc', 'r2', undefined, true),
      batcher.call('/ext/bc/C/rpc', 'n2', undefined, false),
    ];
    await nextTurn();
    expect(sent).toEqual([
      { kind: 'batch', path: '/ext/bc/C/rpc', calls: [{ method: 'r1' }, { method: 'r2' }], opts: { retry: true, signal } },
      { kind: 'batch', path: '/ext/bc/C/rpc', calls: [{ method: 'n1' }, { method: 'n2' }], opts: { retry: false, signal } },
      { kind: 'call', req: { path: '/ext/bc/D/rpc', method: 'p1' }, opts: { retry: true, signal } },
    ]);
    expect(await within(Promise.all(reads))).toEqual(['r1-answer', 'n1-answer', 'p1-answer', 'r2-answer', 'n2-answer']);
  });

  it('settles each batched read on its own result: fulfilled ones resolve, rejected ones reject with their reason', async () => {
    const bad = new Error('no such method');
    const { node } = fakeNode({
      batch: async () => [
        { status: 'fulfilled', value: { height: 7 } },
        { status: 'rejected', reason: bad },
        { status: 'fulfilled', value: null },
      ],
    });
    const batcher = new RpcBatcher(node, new AbortController().signal);
    const settled = await within(Promise.allSettled([
      batcher.call('/ext/bc/D/rpc', 'a', undefined, true),
      batcher.call('/ext/bc/D/rpc', 'b', undefined, true),
      batcher.call('/ext/bc/D/rpc', 'c', undefined, true),
    ]));
    expect(settled).toEqual([
      { status: 'fulfilled', value: { height: 7 } },
      { status: 'rejected', reason: bad },
      { status: 'fulfilled', value: null },
    ]);
  });

  it('rejects every read of a batch with the error when the whole batch fails', async () => {
    const down = new Error('connection refused');
    const { node } = fakeNode({ batch: () => Promise.reject(down) });
    const batcher = new RpcBatcher(node, new AbortController().signal);
    const settled = await within(Promise.allSettled([batcher.call('/ext/bc/D/rpc', 'a', undefined, true), batcher.call('/ext/bc/D/rpc', 'b', undefined, true)]));
    expect(settled).toEqual([
      { status: 'rejected', reason: down },
      { status: 'rejected', reason: down },
    ]);
  });

  it('starts a new batch for reads started in a later turn, without resending the earlier ones', async () => {
    const { node, sent } = fakeNode({});
    const signal = new AbortController().signal;
    const batcher = new RpcBatcher(node, signal);
    const first = [batcher.call('/ext/bc/C/rpc', 'a', undefined, true), batcher.call('/ext/bc/C/rpc', 'b', undefined, true)];
    await nextTurn();
    expect(await within(Promise.all(first))).toEqual(['a-answer', 'b-answer']);
    const second = [batcher.call('/ext/bc/C/rpc', 'c', undefined, true), batcher.call('/ext/bc/C/rpc', 'd', undefined, true)];
    await nextTurn();
    expect(await within(Promise.all(second))).toEqual(['c-answer', 'd-answer']);
    expect(sent).toEqual([
      { kind: 'batch', path: '/ext/bc/C/rpc', calls: [{ method: 'a' }, { method: 'b' }], opts: { retry: true, signal } },
      { kind: 'batch', path: '/ext/bc/C/rpc', calls: [{ method: 'c' }, { method: 'd' }], opts: { retry: true, signal } },
    ]);
  });

  it('passes the batcher signal itself to a batch', async () => {
    const { node, sent } = fakeNode({});
    const controller = new AbortController();
    const batcher = new RpcBatcher(node, controller.signal);
    await within(Promise.all([batcher.call('/ext/bc/C/rpc', 'a', undefined, true), batcher.call('/ext/bc/C/rpc', 'b', undefined, true)]));
    expect(sent).toHaveLength(1);
    expect(sent[0]!.opts.signal).toBe(controller.signal);
  });

  it('off the EVM endpoint sends each read at once as its own call, never a batch', async () => {
    const { node, sent } = fakeNode({});
    const signal = new AbortController().signal;
    const batcher = new RpcBatcher(node, signal);
    const reads = [
      batcher.call('/ext/info', 'info.getNodeID', undefined, true),
      batcher.call('/ext/info', 'info.getNetworkID', undefined, true),
      batcher.call('/ext/bc/X', 'avm.getBalance', { address: 'X-a' }, false),
    ];
    // Not even a turn later: nothing waits to be grouped.
    expect(sent).toEqual([
      { kind: 'call', req: { path: '/ext/info', method: 'info.getNodeID', params: undefined }, opts: { retry: true, signal } },
      { kind: 'call', req: { path: '/ext/info', method: 'info.getNetworkID', params: undefined }, opts: { retry: true, signal } },
      { kind: 'call', req: { path: '/ext/bc/X', method: 'avm.getBalance', params: { address: 'X-a' } }, opts: { retry: false, signal } },
    ]);
    expect(await within(Promise.all(reads))).toEqual(['info.getNodeID-answer', 'info.getNetworkID-answer', 'avm.getBalance-answer']);
  });
});
