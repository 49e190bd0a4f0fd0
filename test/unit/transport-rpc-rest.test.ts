import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ChainMcpError, HttpStatusError, RpcError } from '../../src/errors.js';
import { HttpClient, type HttpOptions } from '../../src/transport/http.js';
import { JsonRpcClient, stringifyJson } from '../../src/transport/jsonrpc.js';
import { buildQuery, RestClient } from '../../src/transport/rest.js';
import { type Handler, recordingNode } from '../helpers/recording-node.js';

/**
 * JsonRpcClient and RestClient against a real loopback node:http server: the server records
 * every request and answers what each test scripts, so both the request a client builds and its
 * reading of every answer shape are pinned down.
 */

const node = recordingNode(() => undefined);
const seen = node.seen;
const https: HttpClient[] = [];
let origin = '';

beforeAll(async () => {
  origin = await node.listen();
});

afterAll(() => node.close());

beforeEach(() => node.reset());

afterEach(async () => {
  node.cut();
  await Promise.all(https.splice(0).map((h) => h.close()));
});

function http(opts: Partial<HttpOptions> = {}): HttpClient {
  const h = new HttpClient({ timeoutMs: 5_000, ...opts });
  https.push(h);
  return h;
}

function json(status: number, body: unknown, headers: Record<string, string> = {}): Handler {
  return (_req, res) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
  };
}

function raw(status: number, text: string): Handler {
  return (_req, res) => {
    res.writeHead(status, { 'content-type': 'application/json' }).end(text);
  };
}

/** Answers every JSON-RPC request (or batch item) with `reply(item)`, echoing its id unless told otherwise. */
function rpcNode(reply: (item: { id: unknown; method: string; params?: unknown }) => unknown): Handler {
  return (req, res) => {
    const body = JSON.parse(req.body) as unknown;
    const answer = Array.isArray(body) ? body.map(reply) : reply(body as { id: unknown; method: string });
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
  };
}

async function failure(p: Promise<unknown>): Promise<ChainMcpError> {
  const outcome = await p.then(
    (value) => ({ fulfilled: value }),
    (err: unknown) => err,
  );
  if (!(outcome instanceof ChainMcpError)) throw new Error(`expected a ChainMcpError, got ${String(outcome)} ${JSON.stringify(outcome)}`);
  return outcome;
}

function rejection(r: PromiseSettledResult<unknown> | undefined): ChainMcpError {
  if (r?.status !== 'rejected') throw new Error(`expected a rejected item, got ${JSON.stringify(r)}`);
  if (!(r.reason instanceof ChainMcpError)) throw new Error(`expected a ChainMcpError, got ${String(r.reason)}`);
  return r.reason;
}

const bodies = () => seen.map((s) => JSON.parse(s.body) as unknown);

describe('stringifyJson', () => {
  it('writes bigints in objects and arrays as bare integers and leaves other values alone', () => {
    expect(stringifyJson({ a: [0n, 9007199254740993n], b: 'x', c: 1.5, d: null, e: true })).toBe('{"a":[0,9007199254740993],"b":"x","c":1.5,"d":null,"e":true}');
    expect(stringifyJson(18446744073709551615n)).toBe('18446744073709551615');
  });
});

describe('JsonRpcClient: requests', () => {
  it('sends headers with JSON content type and accept, and no authorization without a token', () => {
    const rpc = new JsonRpcClient(http(), origin);
    expect(rpc.headersFor('/ext/info')).toEqual({ 'content-type': 'application/json', accept: 'application/json' });
  });

  it('adds a bearer token on every path except /ext/auth', () => {
    const rpc = new JsonRpcClient(http(), origin, 'tok-1');
    expect(rpc.headersFor('/ext/bc/X')).toEqual({ 'content-type': 'application/json', accept: 'application/json', authorization: 'Bearer tok-1' });
    expect(rpc.headersFor('/ext/auth')).toEqual({ 'content-type': 'application/json', accept: 'application/json' });
    expect(new JsonRpcClient(http(), origin, '').headersFor('/ext/info')).toEqual({ 'content-type': 'application/json', accept: 'application/json' });
  });

  it('POSTs JSON-RPC 2.0 envelopes to base URL + path with ids 1, 2, 3 and params object, array or none', async () => {
    node.handler = rpcNode((item) => ({ jsonrpc: '2.0', id: item.id, result: item.method }));
    const rpc = new JsonRpcClient(http(), `${origin}/base`, 'tok');
    expect(await rpc.call({ path: '/ext/bc/X', method: 'avm.getBalance', params: { address: 'X-a', amount: 18446744073709551615n } }, { retry: true })).toBe('avm.getBalance');
    expect(await rpc.call({ path: '/ext/bc/C/rpc', method: 'eth_getBalance', params: ['0xabc', 'latest'] }, { retry: false })).toBe('eth_getBalance');
    expect(await rpc.call({ path: '/ext/auth', method: 'info.getNodeID' }, { retry: true })).toBe('info.getNodeID');
    expect(seen.map((s) => s.body)).toEqual([
      '{"jsonrpc":"2.0","id":1,"method":"avm.getBalance","params":{"address":"X-a","amount":18446744073709551615}}',
      '{"jsonrpc":"2.0","id":2,"method":"eth_getBalance","params":["0xabc","latest"]}',
      '{"jsonrpc":"2.0","id":3,"method":"info.getNodeID"}',
    ]);
    expect(seen.map((s) => [s.method, s.url])).toEqual([
      ['POST', '/base/ext/bc/X'],
      ['POST', '/base/ext/bc/C/rpc'],
      ['POST', '/base/ext/auth'],
    ]);
    expect(seen.map((s) => [s.headers['content-type'], s.headers.accept, s.headers.authorization])).toEqual([
      ['application/json', 'application/json', 'Bearer tok'],
      ['application/json', 'application/json', 'Bearer tok'],
      ['application/json', 'application/json', undefined],
    ]);
  });

  it('retries a read on a transient status and sends a write (retry: false) once', async () => {
    node.handler = (req, res) => {
      const body = JSON.parse(req.body) as { id: number };
      if (req.n === 1 || req.n === 3) res.writeHead(503, { 'retry-after': '0' }).end();
      else res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: body.id, result: 'ok' }));
    };
    const rpc = new JsonRpcClient(http(), origin);
    expect(await rpc.call({ path: '/ext/info', method: 'read' }, { retry: true })).toBe('ok');
    expect(seen).toHaveLength(2);
    const err = await failure(rpc.call({ path: '/ext/info', method: 'write' }, { retry: false }));
    expect(err).toBeInstanceOf(HttpStatusError);
    expect((err as HttpStatusError).status).toBe(503);
    expect(seen).toHaveLength(3);
  });

  it("passes the caller's signal: an aborted signal cancels before sending", async () => {
    const controller = new AbortController();
    controller.abort();
    const err = await failure(new JsonRpcClient(http(), origin).call({ path: '/ext/info', method: 'm' }, { retry: true, signal: controller.signal }));
    expect(err.kind).toBe('cancelled');
    expect(err.message).toBe(`The call to the node at ${origin}/ext/info was cancelled.`);
    expect(seen).toHaveLength(0);
  });
});

describe('JsonRpcClient.call: answers', () => {
  async function answer(reply: Handler, method = 'm'): Promise<unknown> {
    node.handler = reply;
    return new JsonRpcClient(http(), origin).call({ path: '/ext/info', method }, { retry: false });
  }

  it('returns the result, also null, false and 0', async () => {
    expect(await answer(json(200, { jsonrpc: '2.0', id: 1, result: { a: [1] } }))).toEqual({ a: [1] });
    expect(await answer(json(200, { jsonrpc: '2.0', id: 1, result: null }))).toBeNull();
    expect(await answer(json(200, { jsonrpc: '2.0', id: 1, result: false }))).toBe(false);
    expect(await answer(json(200, { id: 1, result: 0 }))).toBe(0);
  });

  it('accepts the id as a string', async () => {
    expect(await answer(json(200, { jsonrpc: '2.0', id: '1', result: 'yes' }))).toBe('yes');
  });

  it('refuses an answer carrying another id, or none', async () => {
    expect((await failure(answer(json(200, { jsonrpc: '2.0', id: 99, result: 1 })))).message).toBe("The node's answer to m carries id 99, not 1.");
    expect((await failure(answer(json(200, { jsonrpc: '2.0', id: '2', result: 1 })))).message).toBe('The node\'s answer to m carries id "2", not 1.');
    expect((await failure(answer(json(200, { jsonrpc: '2.0', id: null, result: 1 })))).message).toBe("The node's answer to m carries id null, not 1.");
    const missing = await failure(answer(json(200, { jsonrpc: '2.0', result: 1 })));
    expect(missing.kind).toBe('malformed');
    expect(missing.message).toBe("The node's answer to m carries id undefined, not 1.");
  });

  it('refuses an answer with neither result nor error', async () => {
    const err = await failure(answer(json(200, { jsonrpc: '2.0', id: 1 })));
    expect(err.kind).toBe('malformed');
    expect(err.message).toBe("The node's answer to m has neither result nor error.");
    expect((await failure(answer(json(200, { jsonrpc: '2.0', id: 1, error: null })))).message).toBe("The node's answer to m has neither result nor error.");
  });

  it('returns the result next to a null error', async () => {
    expect(await answer(json(200, { jsonrpc: '2.0', id: 1, result: 'fine', error: null }))).toBe('fine');
  });

  it('turns an error object into an RpcError with code, message, data and hint', async () => {
    const err = await failure(answer(json(200, { jsonrpc: '2.0', id: 1, error: { code: -32601, message: "can't find method", data: { extra: 1 } } }), 'info.nope'));
    expect(err).toBeInstanceOf(RpcError);
    expect(err.kind).toBe('rpc');
    expect((err as RpcError).code).toBe(-32601);
    expect((err as RpcError).data).toEqual({ extra: 1 });
    expect(err.message).toBe("The node refused info.nope: can't find method");
    expect(err.hint).toBe('This node does not serve that method; check the node version or CHAIN_MCP_WIRE_NAMES.');
    expect(err.transient).toBe(false);
  });

  it("fills in code -32000, 'unknown error', null data and no hint for a bare error object", async () => {
    const err = (await failure(answer(json(200, { jsonrpc: '2.0', id: 1, error: {} })))) as RpcError;
    expect(err).toBeInstanceOf(RpcError);
    expect(err.code).toBe(-32000);
    expect(err.message).toBe('The node refused m: unknown error');
    expect(err.data).toBeNull();
    expect(err.hint).toBeUndefined();
  });

  it('ignores a code that is not a number and a message that is not a string', async () => {
    const err = (await failure(answer(json(200, { jsonrpc: '2.0', id: 1, error: { code: '-32601', message: 42, data: 0 } })))) as RpcError;
    expect(err.code).toBe(-32000);
    expect(err.message).toBe('The node refused m: unknown error');
    expect(err.data).toBe(0);
  });

  it('reports the error even when a result or a null id comes with it', async () => {
    const withResult = (await failure(answer(json(200, { jsonrpc: '2.0', id: 1, result: 'x', error: { code: -32000, message: 'both' } })))) as RpcError;
    expect(withResult).toBeInstanceOf(RpcError);
    expect(withResult.message).toBe('The node refused m: both');
    const nullId = (await failure(answer(json(200, { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'parse error' } })))) as RpcError;
    expect(nullId).toBeInstanceOf(RpcError);
    expect(nullId.code).toBe(-32700);
    expect(nullId.message).toBe('The node refused m: parse error');
  });

  it('treats an error that is not an object as a malformed answer', async () => {
    const err = await failure(answer(json(200, { jsonrpc: '2.0', id: 1, error: 'boom' })));
    expect(err).not.toBeInstanceOf(RpcError);
    expect(err.kind).toBe('malformed');
    expect(err.message).toBe("The node's answer to m has neither result nor error.");
  });

  it.each([
    ['null', 'null'],
    ['a number', '5'],
    ['a string', '"text"'],
    ['an array', '[{"jsonrpc":"2.0","id":1,"result":1}]'],
    ['false', 'false'],
  ])('refuses %s as not a JSON-RPC object', async (_what, text) => {
    const err = await failure(answer(raw(200, text)));
    expect(err.kind).toBe('malformed');
    expect(err.message).toBe("The node's answer to m is not a JSON-RPC object.");
  });

  it('refuses a body that is not JSON, as transient, with a hint', async () => {
    const err = await failure(answer(raw(200, '<html>proxy</html>')));
    expect(err.kind).toBe('malformed');
    expect(err.message).toBe('The node at /ext/info answered with a body that is not JSON.');
    expect(err.hint).toBe('Check that CHAIN_MCP_NODE_URL points at the node API, not another service.');
    expect(err.transient).toBe(true);
    expect(seen).toHaveLength(1);
  });

  it('retries a read whose body was not JSON', async () => {
    node.handler = (req, res) => {
      if (req.n === 1) res.writeHead(200).end('{"jsonrpc":"2.0","id":1,"res');
      else res.writeHead(200).end('{"jsonrpc":"2.0","id":1,"result":"whole"}');
    };
    expect(await new JsonRpcClient(http(), origin).call({ path: '/ext/info', method: 'm' }, { retry: true })).toBe('whole');
    expect(seen).toHaveLength(2);
  });
});

describe('JsonRpcClient.batch', () => {
  it('sends nothing for no calls', async () => {
    node.handler = rpcNode((item) => ({ jsonrpc: '2.0', id: item.id, result: 1 }));
    expect(await new JsonRpcClient(http(), origin).batch('/ext/info', [], { retry: true })).toEqual([]);
    expect(seen).toHaveLength(0);
  });

  it('sends one array of envelopes whose ids continue the call counter, params only when given', async () => {
    node.handler = rpcNode((item) => ({ jsonrpc: '2.0', id: item.id, result: `${item.method}#${String(item.id)}` }));
    const rpc = new JsonRpcClient(http(), `${origin}/b`, 'tok');
    expect(await rpc.call({ path: '/ext/info', method: 'first' }, { retry: true })).toBe('first#1');
    const results = await rpc.batch('/ext/bc/X', [{ method: 'a', params: { n: 1n } }, { method: 'b' }, { method: 'c', params: ['x'] }], { retry: true });
    expect(results).toEqual([
      { status: 'fulfilled', value: 'a#2' },
      { status: 'fulfilled', value: 'b#3' },
      { status: 'fulfilled', value: 'c#4' },
    ]);
    expect(seen[1]!.body).toBe(
      '[{"jsonrpc":"2.0","id":2,"method":"a","params":{"n":1}},{"jsonrpc":"2.0","id":3,"method":"b"},{"jsonrpc":"2.0","id":4,"method":"c","params":["x"]}]',
    );
    expect([seen[1]!.method, seen[1]!.url, seen[1]!.headers.authorization, seen[1]!.headers['content-type']]).toEqual(['POST', '/b/ext/bc/X', 'Bearer tok', 'application/json']);
    expect(await rpc.call({ path: '/ext/info', method: 'after' }, { retry: true })).toBe('after#5');
  });

  it('matches replies to calls by id whatever their order, skips null and stray replies, and settles each call on its own', async () => {
    node.handler = (req, res) => {
      const items = JSON.parse(req.body) as Array<{ id: number; method: string }>;
      const replies = items.map((item) =>
        item.method === 'bad' ? { jsonrpc: '2.0', id: item.id, error: { code: -32602, message: 'bad params', data: 'd' } } : { jsonrpc: '2.0', id: item.id, result: item.method },
      );
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify([null, ...replies.reverse(), { id: 999, result: 'stray' }]));
    };
    const results = await new JsonRpcClient(http(), origin).batch('/ext/info', [{ method: 'ok1' }, { method: 'bad' }, { method: 'ok2' }], { retry: true });
    expect(results[0]).toEqual({ status: 'fulfilled', value: 'ok1' });
    const bad = rejection(results[1]) as RpcError;
    expect(bad).toBeInstanceOf(RpcError);
    expect(bad.code).toBe(-32602);
    expect(bad.data).toBe('d');
    expect(bad.message).toBe('The node refused bad: bad params');
    expect(results[2]).toEqual({ status: 'fulfilled', value: 'ok2' });
    expect(results).toHaveLength(3);
  });

  it('rejects only the calls whose reply is missing from the batch answer', async () => {
    node.handler = (req, res) => {
      const items = JSON.parse(req.body) as Array<{ id: number; method: string }>;
      const replies = items.filter((item) => item.method !== 'lost').map((item) => ({ jsonrpc: '2.0', id: item.id, result: item.method }));
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(replies));
    };
    const results = await new JsonRpcClient(http(), origin).batch('/ext/info', [{ method: 'kept' }, { method: 'lost' }], { retry: true });
    expect(results[0]).toEqual({ status: 'fulfilled', value: 'kept' });
    const lost = rejection(results[1]);
    expect(lost.kind).toBe('malformed');
    expect(lost.message).toBe("The node's batch answer lacks the reply to lost.");
    expect(results).toHaveLength(2);
  });

  it('rejects a call whose reply has neither result nor error', async () => {
    node.handler = rpcNode((item) => ({ jsonrpc: '2.0', id: item.id }));
    const results = await new JsonRpcClient(http(), origin).batch('/ext/info', [{ method: 'empty' }], { retry: true });
    expect(rejection(results[0]).message).toBe("The node's answer to empty has neither result nor error.");
  });

  it('rejects every call of a batch answered with one error object, naming the path', async () => {
    node.handler = json(200, { jsonrpc: '2.0', id: null, error: { code: -32600, message: 'batch too large' } });
    const results = await new JsonRpcClient(http(), origin).batch('/ext/info', [{ method: 'a' }, { method: 'b' }, { method: 'c' }], { retry: true });
    expect(results).toHaveLength(3);
    for (const r of results) {
      const err = rejection(r) as RpcError;
      expect(err).toBeInstanceOf(RpcError);
      expect(err.code).toBe(-32600);
      expect(err.message).toBe('The node refused /ext/info: batch too large');
    }
  });

  it.each([
    ['an empty object', {}],
    ['null', null],
    ['a number', 7],
  ])('rejects every call of a batch answered with %s as malformed', async (_what, whole) => {
    node.handler = json(200, whole);
    const results = await new JsonRpcClient(http(), origin).batch('/ext/info', [{ method: 'a' }, { method: 'b' }], { retry: true });
    expect(results).toHaveLength(2);
    for (const r of results) {
      const err = rejection(r);
      expect(err).not.toBeInstanceOf(RpcError);
      expect(err.kind).toBe('malformed');
      expect(err.message).toBe("The node's answer to /ext/info has neither result nor error.");
    }
  });

  it('sends 41 calls as 40 + 1 with consecutive ids and keeps the results in call order', async () => {
    node.handler = rpcNode((item) => ({ jsonrpc: '2.0', id: item.id, result: item.id }));
    const calls = Array.from({ length: 41 }, (_, i) => ({ method: `m${i}` }));
    const results = await new JsonRpcClient(http(), origin).batch('/ext/info', calls, { retry: true });
    const sent = bodies() as Array<Array<{ id: number; method: string }>>;
    expect(sent.map((b) => b.length)).toEqual([40, 1]);
    expect(sent.flat().map((b) => b.id)).toEqual(Array.from({ length: 41 }, (_, i) => i + 1));
    expect(sent.flat().map((b) => b.method)).toEqual(calls.map((c) => c.method));
    expect(results).toEqual(Array.from({ length: 41 }, (_, i) => ({ status: 'fulfilled', value: i + 1 })));
  });

  it('throws for a batch whose answer is not JSON, and sends a write batch once', async () => {
    node.handler = raw(200, 'not json');
    const err = await failure(new JsonRpcClient(http(), origin).batch('/ext/bc/P', [{ method: 'a' }], { retry: false }));
    expect(err.kind).toBe('malformed');
    expect(err.message).toBe('The node at /ext/bc/P answered with a body that is not JSON.');
    expect(seen).toHaveLength(1);
  });

  it('retries a read batch on a transient status', async () => {
    const reply = rpcNode((item) => ({ jsonrpc: '2.0', id: item.id, result: 'late' }));
    node.handler = (req, res) => {
      if (req.n === 1) res.writeHead(502, { 'retry-after': '0' }).end();
      else reply(req, res);
    };
    const results = await new JsonRpcClient(http(), origin).batch('/ext/info', [{ method: 'a' }], { retry: true });
    expect(results).toEqual([{ status: 'fulfilled', value: 'late' }]);
    expect(seen).toHaveLength(2);
  });

  it("passes the caller's signal to the batch request", async () => {
    const controller = new AbortController();
    controller.abort();
    const err = await failure(new JsonRpcClient(http(), origin).batch('/ext/info', [{ method: 'a' }], { retry: true, signal: controller.signal }));
    expect(err.kind).toBe('cancelled');
    expect(seen).toHaveLength(0);
  });
});

describe('buildQuery', () => {
  it('is empty for no pairs', () => {
    expect(buildQuery([])).toBe('');
  });

  it('keeps pair order, repeats a key once per value and form-encodes values', () => {
    expect(
      buildQuery([
        ['chainID', 'a'],
        ['chainID', 'b'],
        ['q', 'a b&c=d/é+'],
      ]),
    ).toBe('?chainID=a&chainID=b&q=a+b%26c%3Dd%2F%C3%A9%2B');
  });
});

describe('RestClient.get', () => {
  it('GETs base URL + path + query with accept: application/json and returns the parsed body', async () => {
    node.handler = json(200, { txs: [1, 2] });
    const rest = new RestClient(http(), `${origin}/idx`, 'indexer');
    expect(await rest.get('/v2/transactions', [['chainID', 'X'], ['limit', '2']])).toEqual({ txs: [1, 2] });
    expect(await rest.get('/v2', [])).toEqual({ txs: [1, 2] });
    expect(seen.map((s) => [s.method, s.url, s.headers.accept, s.body])).toEqual([
      ['GET', '/idx/v2/transactions?chainID=X&limit=2', 'application/json', ''],
      ['GET', '/idx/v2', 'application/json', ''],
    ]);
  });

  it.each([
    ['null', null],
    ['an array', [{ code: 404, message: 'in an array' }]],
    ['a number', 3],
    ['a plain object', { a: 1 }],
    ['a code below 400', { code: 399, message: 'fine' }],
    ['a string code', { code: '404', message: 'x' }],
    ['a message that is not a string', { code: 404, message: 5 }],
    ['four keys', { code: 404, message: 'x', a: 1, b: 2 }],
  ])('returns %s as it is', async (_what, body) => {
    node.handler = json(200, body);
    expect(await new RestClient(http(), origin, 'indexer').get('/v2/x', [])).toEqual(body);
  });

  const REFUSED = 'The request itself was refused: change the argument the message names; retrying it unchanged fails again.';
  it.each([
    [{ code: 404, message: 'no such tx' }, 'not_found', 'no such tx', REFUSED],
    [{ code: 400, message: 'bad cursor' }, 'http_status', 'bad cursor', REFUSED],
    [{ code: 499, message: 'closed' }, 'http_status', 'closed', REFUSED],
    [{ code: 500, message: 'db down', details: 'pg' }, 'http_status', 'db down', undefined],
  ])('throws an indexer error body %j as %s; only a 4xx says the request itself was refused', async (body, kind, message, hint) => {
    node.handler = json(200, body);
    const err = await failure(new RestClient(http(), origin, 'indexer').get('/v2/txs/1', []));
    expect(err.kind).toBe(kind);
    expect(err.message).toBe(`The indexer refused /v2/txs/1: ${message}`);
    expect(err.hint).toBe(hint);
  });

  it('retries a read on a transient status', async () => {
    node.handler = (req, res) => {
      if (req.n === 1) res.writeHead(503, { 'retry-after': '0' }).end();
      else res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    };
    expect(await new RestClient(http(), origin, 'indexer').get('/v2', [])).toEqual({ ok: true });
    expect(seen).toHaveLength(2);
  });

  it('retries a body that is not JSON', async () => {
    node.handler = (req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' }).end(req.n === 1 ? '{"ok":' : '{"ok":2}');
    };
    expect(await new RestClient(http(), origin, 'indexer').get('/v2', [])).toEqual({ ok: 2 });
    expect(seen).toHaveLength(2);
  });

  it('reports a body that stays not JSON as malformed, transient, with a hint naming the service', async () => {
    node.handler = raw(200, 'nope');
    // A clock that jumps to the deadline after the first attempt: no retry is attempted.
    const readings = [0, 0, 10_000];
    let i = 0;
    const now = () => readings[Math.min(i++, readings.length - 1)]!;
    const err = await failure(new RestClient(http({ timeoutMs: 10_000, now }), origin, 'indexer').get('/v2/assets', []));
    expect(err.kind).toBe('malformed');
    expect(err.message).toBe('The indexer answered /v2/assets with a body that is not JSON.');
    expect(err.hint).toBe('Check that the indexer URL is right.');
    expect(err.transient).toBe(true);
    expect(seen).toHaveLength(1);
  });

  it("passes the caller's signal and names the service in errors", async () => {
    const controller = new AbortController();
    controller.abort();
    const err = await failure(new RestClient(http(), origin, 'indexer').get('/v2', [['a', 'b']], controller.signal));
    expect(err.kind).toBe('cancelled');
    expect(err.message).toBe(`The call to the indexer at ${origin}/v2 was cancelled.`);
    expect(seen).toHaveLength(0);
  });
});

describe('RestClient.post', () => {
  it('POSTs the JSON body with content type and accept, and parses the answer', async () => {
    node.handler = json(200, { started: true });
    const rest = new RestClient(http(), `${origin}/gw`, 'network runner');
    expect(await rest.post('/v1/control/start', { numNodes: 5, name: 'é' })).toEqual({ started: true });
    expect(seen.map((s) => [s.method, s.url, s.headers['content-type'], s.headers.accept, s.body])).toEqual([
      ['POST', '/gw/v1/control/start', 'application/json', 'application/json', '{"numNodes":5,"name":"é"}'],
    ]);
  });

  it('sends {} for an undefined or null body', async () => {
    node.handler = json(200, {});
    const rest = new RestClient(http(), origin, 'network runner');
    await rest.post('/v1/a', undefined);
    await rest.post('/v1/b', null);
    expect(seen.map((s) => s.body)).toEqual(['{}', '{}']);
  });

  it('returns {} for an empty or blank answer', async () => {
    node.handler = (req, res) => {
      res.writeHead(200).end(req.n === 1 ? '' : ' \n ');
    };
    const rest = new RestClient(http(), origin, 'network runner');
    expect(await rest.post('/v1/a', {})).toEqual({});
    expect(await rest.post('/v1/a', {})).toEqual({});
  });

  it('reports an answer that is not JSON as malformed', async () => {
    node.handler = raw(200, 'oops');
    const err = await failure(new RestClient(http(), origin, 'network runner').post('/v1/control/stop', {}));
    expect(err.kind).toBe('malformed');
    expect(err.message).toBe('The network runner answered /v1/control/stop with a body that is not JSON.');
  });

  it('never retries, not even a transient status', async () => {
    node.handler = (req, res) => {
      if (req.n === 1) res.writeHead(503, { 'retry-after': '0' }).end();
      else res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    };
    const err = await failure(new RestClient(http(), origin, 'network runner').post('/v1/control/start', {}));
    expect(err).toBeInstanceOf(HttpStatusError);
    expect(err.message).toBe(`The network runner at ${origin}/v1/control/start answered HTTP 503 (service unavailable).`);
    expect(seen).toHaveLength(1);
  });

  it("passes the caller's signal", async () => {
    const controller = new AbortController();
    controller.abort();
    const err = await failure(new RestClient(http(), origin, 'network runner').post('/v1/x', {}, controller.signal));
    expect(err.kind).toBe('cancelled');
    expect(seen).toHaveLength(0);
  });
});
