import { getEventListeners } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ChainMcpError, HttpStatusError } from '../../src/errors.js';
import { HttpClient, type HttpOptions, type HttpRequest, safeUrl } from '../../src/transport/http.js';
import { type Handler, recordingNode } from '../helpers/recording-node.js';

/**
 * HttpClient.send against a real loopback node:http server whose answers each test scripts.
 * The server records every request (method, URL, headers, body, arrival time), so retries are
 * counted where they happen. Back-off waits are kept short with `Retry-After: 0` or cut off by
 * a scripted clock (`now`), so no test waits for the 900 ms step.
 */

const ok: Handler = (_req, res) => {
  res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
};

const node = recordingNode(ok);
const seen = node.seen;
const clients: HttpClient[] = [];
let origin = '';
let url = '';

beforeAll(async () => {
  origin = await node.listen();
  url = `${origin}/ext/info`;
});

afterAll(() => node.close());

beforeEach(() => node.reset());

afterEach(async () => {
  // Unanswered requests are cut at the server first, so closing the agents never waits on them.
  node.cut();
  await Promise.all(clients.splice(0).map((c) => c.close()));
});

function client(opts: Partial<HttpOptions> = {}): HttpClient {
  const c = new HttpClient({ timeoutMs: 5_000, ...opts });
  clients.push(c);
  return c;
}

function read(extra: Partial<HttpRequest> = {}): HttpRequest {
  return { method: 'GET', url, retry: true, service: 'node', ...extra };
}

/** The ChainMcpError a call failed with; anything else (a success, a TypeError) fails the test. */
async function failure(p: Promise<unknown>): Promise<ChainMcpError> {
  const outcome = await p.then(
    (value) => ({ fulfilled: value }),
    (err: unknown) => err,
  );
  if (!(outcome instanceof ChainMcpError)) throw new Error(`expected a ChainMcpError, got ${String(outcome)} ${JSON.stringify(outcome)}`);
  return outcome;
}

/** A clock that returns the given readings in turn, then keeps returning the last one. */
function readings(...values: number[]): () => number {
  let i = 0;
  return () => values[Math.min(i++, values.length - 1)]!;
}

/** A port nothing listens on: a server is bound to it and closed again. */
async function closedPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', () => resolve()));
  const port = (s.address() as AddressInfo).port;
  await new Promise<void>((resolve) => s.close(() => resolve()));
  return port;
}

type Undici = typeof import('undici');

/**
 * Replaces the undici request function of one client, for failures a loopback server cannot
 * produce (DNS errors, undici's own timeout classes, errors without a code). The real undici
 * error classes stay, so `instanceof` checks in the client see the real types.
 */
async function fakeRequest(c: HttpClient, request: () => Promise<never>): Promise<void> {
  const real = await import('undici');
  (c as unknown as { undici: Promise<Pick<Undici, 'request' | 'errors'>> }).undici = Promise.resolve({
    request: request as unknown as Undici['request'],
    errors: real.errors,
  });
}

function codeError(code: string | undefined, cause?: unknown): Error {
  const err = new Error('low-level failure', cause === undefined ? undefined : { cause });
  if (code !== undefined) Object.assign(err, { code });
  return err;
}

describe('safeUrl', () => {
  it('keeps origin and path and drops user, password, query and fragment', () => {
    expect(safeUrl('http://user:secret@node.example:9650/ext/bc/X?token=abc#frag')).toBe('http://node.example:9650/ext/bc/X');
    expect(safeUrl('https://node.example/ext/info')).toBe('https://node.example/ext/info');
  });

  it("answers '(invalid URL)' for text that is no URL", () => {
    expect(safeUrl('garbage')).toBe('(invalid URL)');
    expect(safeUrl('')).toBe('(invalid URL)');
  });
});

describe('HttpClient basics', () => {
  it('reports the configured timeout', () => {
    expect(client({ timeoutMs: 1234 }).timeoutMs).toBe(1234);
  });

  it('closes without error before any request was made', async () => {
    await expect(new HttpClient({ timeoutMs: 1000 }).close()).resolves.toBeUndefined();
  });

  it('loads undici once: warm() hands out the same promise of the module', async () => {
    const c = client();
    const first = c.warm();
    expect(c.warm()).toBe(first);
    expect(typeof (await first).request).toBe('function');
  });

  it('refuses requests once closed', async () => {
    // Not registered for afterEach: a second close() of the same client rejects.
    const c = new HttpClient({ timeoutMs: 5_000 });
    await c.send(read());
    await c.close();
    const err = await failure(c.send(read({ retry: false })));
    expect(err.kind).toBe('connection');
    expect(err.message).toBe(`The request to the node at ${url} failed: UND_ERR_DESTROYED.`);
    expect(seen).toHaveLength(1);
  });

  it('opens at most 64 connections to one origin and queues further requests', async () => {
    node.handler = (_req, res) => {
      setTimeout(() => res.writeHead(200).end('ok'), 100);
    };
    const c = client();
    const answers = await Promise.all(Array.from({ length: 65 }, () => c.send(read()).then((r) => r.text)));
    expect(answers).toEqual(Array.from({ length: 65 }, () => 'ok'));
    expect(seen).toHaveLength(65);
    expect(node.connections).toBe(64);
  });
});

describe('HttpClient.send: what goes out and what comes back', () => {
  it('sends method, URL, headers and body exactly as given', async () => {
    const c = client();
    await c.send({
      method: 'POST',
      url: `${url}?x=1`,
      headers: { 'content-type': 'application/json', 'x-trace': 'abc' },
      body: '{"memo":"héllo"}',
      retry: false,
      service: 'node',
    });
    expect(seen).toHaveLength(1);
    const [req] = seen;
    expect(req!.method).toBe('POST');
    expect(req!.url).toBe('/ext/info?x=1');
    expect(req!.headers['content-type']).toBe('application/json');
    expect(req!.headers['x-trace']).toBe('abc');
    expect(req!.body).toBe('{"memo":"héllo"}');
  });

  it('sends a GET without a body', async () => {
    await client().send(read());
    expect(seen.map((s) => [s.method, s.url, s.body])).toEqual([['GET', '/ext/info', '']]);
  });

  it('returns status, content type and text, and no value without decode', async () => {
    node.handler = (_req, res) => {
      res.writeHead(201, { 'content-type': 'application/json; charset=utf-8' }).end('{"a":1}');
    };
    const res = await client().send(read());
    expect(res).toEqual({ status: 201, contentType: 'application/json; charset=utf-8', text: '{"a":1}' });
    expect(res.value).toBeUndefined();
  });

  it('returns an empty content type when the answer has none', async () => {
    node.handler = (_req, res) => {
      res.writeHead(200).end('plain');
    };
    const res = await client().send(read());
    expect(res.contentType).toBe('');
    expect(res.text).toBe('plain');
  });

  it('returns what decode made of the text', async () => {
    node.handler = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"b":[1,2]}');
    };
    const res = await client().send(read({ decode: (text) => ({ parsed: JSON.parse(text) as unknown }) }));
    expect(res.value).toEqual({ parsed: { b: [1, 2] } });
    expect(res.text).toBe('{"b":[1,2]}');
  });

  it('treats statuses below 400 as answers', async () => {
    node.handler = (_req, res) => {
      res.writeHead(399).end('odd but fine');
    };
    const res = await client().send(read());
    expect(res.status).toBe(399);
    expect(res.text).toBe('odd but fine');
  });

  it('waits for a slow answer that comes within the deadline', async () => {
    node.handler = (_req, res) => {
      setTimeout(() => res.writeHead(200).end('late'), 40);
    };
    const res = await client({ timeoutMs: 2_000 }).send(read());
    expect(res.text).toBe('late');
  });

  it('leaves no abort listener on the caller signal once the call is over', async () => {
    const controller = new AbortController();
    node.handler = (req, res) => {
      if (req.n === 1) res.writeHead(503, { 'retry-after': '0' }).end();
      else res.writeHead(200).end('ok');
    };
    await client().send(read({ signal: controller.signal }));
    expect(seen).toHaveLength(2);
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
  });
});

const STATUS_CASES: Array<[status: number, label: string, hint: string, transient: boolean]> = [
  [400, 'bad request', 'The request itself was refused: change the argument the message names; retrying it unchanged fails again.', false],
  [401, 'unauthorized', 'Set CHAIN_MCP_AUTH_TOKEN to a valid token that grants this endpoint.', false],
  [403, 'forbidden', 'The token does not grant this endpoint.', false],
  [404, 'not found', 'Check the URL and that this API is enabled on the node.', false],
  [405, 'method not allowed', 'The endpoint expects another HTTP method; check the URL.', false],
  [415, 'unsupported media type', 'The endpoint expects application/json; check the URL.', false],
  [418, 'request refused', 'Check the request; it was refused as sent.', false],
  [429, 'too many requests', 'Wait a moment and try again.', true],
  [499, 'request refused', 'Check the request; it was refused as sent.', false],
  [500, 'server error', 'Try again later.', true],
  [501, 'server error', 'Try again later.', true],
  [502, 'server error', 'Try again later.', true],
  [503, 'service unavailable', 'The node may still be bootstrapping; try again shortly.', true],
  [504, 'server error', 'Try again later.', true],
  [599, 'server error', 'Try again later.', true],
];

describe('HttpClient.send: HTTP status errors', () => {
  it.each(STATUS_CASES)('HTTP %i is reported as (%s) with its hint; transient: %s', async (status, label, hint, transient) => {
    node.handler = (_req, res) => {
      res.writeHead(status, { 'content-type': 'text/plain' }).end('nope');
    };
    const err = await failure(client().send(read({ retry: false })));
    expect(err).toBeInstanceOf(HttpStatusError);
    expect(err.kind).toBe('http_status');
    expect((err as HttpStatusError).status).toBe(status);
    expect(err.message).toBe(`The node at ${url} answered HTTP ${status} (${label}): nope.`);
    expect(err.hint).toBe(hint);
    expect(err.transient).toBe(transient);
    expect((err as HttpStatusError).retryAfterMs).toBeUndefined();
    expect(seen).toHaveLength(1);
  });

  it.each(STATUS_CASES)('a read that got HTTP %i (%s) is retried only if transient (%s)', async (status, _label, _hint, transient) => {
    node.handler = (req, res) => {
      if (req.n === 1) res.writeHead(status, { 'retry-after': '0' }).end();
      else res.writeHead(200).end('second');
    };
    const outcome = await client()
      .send(read())
      .then(
        (r) => r.text,
        (e: unknown) => (e instanceof HttpStatusError ? e.status : e),
      );
    expect(outcome).toBe(transient ? 'second' : status);
    expect(seen).toHaveLength(transient ? 2 : 1);
  });

  it('never retries a request sent with retry: false, even on a transient status', async () => {
    node.handler = (_req, res) => {
      res.writeHead(503, { 'retry-after': '0' }).end();
    };
    const err = await failure(client().send(read({ method: 'POST', body: '{}', retry: false })));
    expect((err as HttpStatusError).status).toBe(503);
    expect(err.transient).toBe(true);
    expect(seen).toHaveLength(1);
  });

  it('retries a read at most 3 times (4 requests), then throws the last error', async () => {
    node.handler = (req, res) => {
      res.writeHead(503, { 'retry-after': '0', 'content-type': 'text/plain' }).end(`busy ${req.n}`);
    };
    const err = await failure(client().send(read()));
    expect(err.message).toBe(`The node at ${url} answered HTTP 503 (service unavailable): busy 4.`);
    expect((err as HttpStatusError).retryAfterMs).toBe(0);
    expect(seen).toHaveLength(4);
  });

  it('waits 100 ms before the first retry and 300 ms before the second when no Retry-After is given', async () => {
    node.handler = (req, res) => {
      if (req.n < 3) res.writeHead(503).end();
      else res.writeHead(200).end('third');
    };
    const res = await client().send(read());
    expect(res.text).toBe('third');
    expect(seen).toHaveLength(3);
    const [a, b, c] = seen.map((s) => s.at);
    expect(b! - a!).toBeGreaterThanOrEqual(95);
    expect(c! - b!).toBeGreaterThanOrEqual(295);
  });
});

describe('HttpClient.send: Retry-After and the deadline', () => {
  const T = 1_000_000;

  it.each([
    ['7', 7_000],
    ['12', 12_000],
    ['0', 0],
  ])('reads Retry-After: %s as %i ms', async (value, ms) => {
    node.handler = (_req, res) => {
      res.writeHead(503, { 'retry-after': value }).end();
    };
    const err = await failure(client().send(read({ retry: false })));
    expect((err as HttpStatusError).retryAfterMs).toBe(ms);
  });

  it.each(['x5', '5x', '1.5', 'Wed, 21 Oct 2015 07:28:00 GMT'])('ignores Retry-After: %s, which is not whole seconds', async (value) => {
    node.handler = (_req, res) => {
      res.writeHead(503, { 'retry-after': value }).end();
    };
    const err = await failure(client().send(read({ retry: false })));
    expect((err as HttpStatusError).retryAfterMs).toBeUndefined();
  });

  it('waits the Retry-After time instead of the back-off step: a wait reaching the deadline gives up', async () => {
    // 5 s of Retry-After against a 5 s deadline on a clock that stands still: 100 ms would fit.
    node.handler = (_req, res) => {
      res.writeHead(503, { 'retry-after': '5' }).end();
    };
    const err = await failure(client({ timeoutMs: 5_000, now: readings(T) }).send(read()));
    expect((err as HttpStatusError).status).toBe(503);
    expect(seen).toHaveLength(1);
  });

  it('gives up when the back-off would end exactly at the deadline', async () => {
    node.handler = (_req, res) => {
      res.writeHead(503).end();
    };
    // Readings: the deadline (T + 10 s), the first attempt, then the check 100 ms before the deadline.
    const err = await failure(client({ timeoutMs: 10_000, now: readings(T, T, T + 9_900) }).send(read()));
    expect((err as HttpStatusError).status).toBe(503);
    expect(seen).toHaveLength(1);
  });

  it('retries when the back-off ends 1 ms before the deadline', async () => {
    node.handler = (req, res) => {
      if (req.n === 1) res.writeHead(503).end();
      else res.writeHead(200).end('retried');
    };
    const res = await client({ timeoutMs: 10_000, now: readings(T, T, T + 9_899, T) }).send(read());
    expect(res.text).toBe('retried');
    expect(seen).toHaveLength(2);
  });

  it('does not retry once the caller has cancelled, even with time left', async () => {
    const controller = new AbortController();
    let calls = 0;
    // The third reading is the retry check; the caller cancels just before it.
    const now = () => {
      calls++;
      if (calls === 3) controller.abort();
      return T;
    };
    node.handler = (_req, res) => {
      res.writeHead(503).end();
    };
    const err = await failure(client({ timeoutMs: 10_000, now }).send(read({ signal: controller.signal })));
    expect(err).toBeInstanceOf(HttpStatusError);
    expect((err as HttpStatusError).status).toBe(503);
    expect(seen).toHaveLength(1);
  });

  it('ends the back-off wait as soon as the caller cancels', async () => {
    const controller = new AbortController();
    node.handler = (_req, res) => {
      // An hour's back-off inside a two-hour deadline: only the cancel can end this test in time.
      res.writeHead(503, { 'retry-after': '3600' }).end();
      setTimeout(() => controller.abort(), 50);
    };
    const err = await failure(client({ timeoutMs: 7_200_000 }).send(read({ signal: controller.signal })));
    expect(err.kind).toBe('cancelled');
    expect(err.message).toBe(`The call to the node at ${url} was cancelled.`);
    expect(seen).toHaveLength(1);
  });
  it('gives each retry only what is left of the deadline, as its header and body timeouts', async () => {
    // Readings: the deadline (T + 60 s), attempt 1, then 1.5 s left for each retry check and the
    // three retries (100 + 300 + 900 ms of back-off, all short of the deadline).
    const c = client({ timeoutMs: 60_000, now: readings(T, T, T + 58_500) });
    const timeouts: Array<[unknown, unknown]> = [];
    await fakeRequest(c, ((_url: string, options: { headersTimeout?: number; bodyTimeout?: number }) => {
      timeouts.push([options.headersTimeout, options.bodyTimeout]);
      return Promise.reject(codeError('ECONNREFUSED'));
    }) as unknown as () => Promise<never>);
    const err = await failure(c.send(read()));
    expect(err.kind).toBe('connection');
    expect(timeouts).toEqual([
      [60_000, 60_000],
      [1_500, 1_500],
      [1_500, 1_500],
      [1_500, 1_500],
    ]);
  });
});

describe('HttpClient.send: decode runs inside the retry loop', () => {
  it('retries a read whose decode failed transiently, after the 100 ms back-off', async () => {
    let decodes = 0;
    const decode = (text: string) => {
      decodes++;
      if (decodes === 1) throw new ChainMcpError('malformed', 'garbled', { transient: true });
      return text.toUpperCase();
    };
    node.handler = (req, res) => {
      res.writeHead(200).end(`answer ${req.n}`);
    };
    const res = await client().send(read({ decode }));
    expect(res.value).toBe('ANSWER 2');
    expect(decodes).toBe(2);
    expect(seen).toHaveLength(2);
    expect(seen[1]!.at - seen[0]!.at).toBeGreaterThanOrEqual(95);
  });

  it('does not retry a transient decode failure when retry is false', async () => {
    const garbled = new ChainMcpError('malformed', 'garbled', { transient: true });
    const err = await failure(
      client().send(
        read({
          retry: false,
          decode: () => {
            throw garbled;
          },
        }),
      ),
    );
    expect(err).toBe(garbled);
    expect(seen).toHaveLength(1);
  });

  it('does not retry a decode failure that is not transient', async () => {
    const fatal = new ChainMcpError('malformed', 'fatal');
    const err = await failure(
      client().send(
        read({
          decode: () => {
            throw fatal;
          },
        }),
      ),
    );
    expect(err).toBe(fatal);
    expect(seen).toHaveLength(1);
  });

  it('retries only ChainMcpErrors: another error marked transient is thrown at once', async () => {
    const odd = Object.assign(new Error('odd'), { transient: true });
    const outcome = await client()
      .send(
        read({
          decode: () => {
            throw odd;
          },
        }),
      )
      .catch((e: unknown) => e);
    expect(outcome).toBe(odd);
    expect(seen).toHaveLength(1);
  });
});

describe('HttpClient.send: error body details', () => {
  async function detailOf(contentType: string | undefined, body: string): Promise<string> {
    node.handler = (_req, res) => {
      res.writeHead(400, contentType === undefined ? {} : { 'content-type': contentType }).end(body);
    };
    const err = await failure(client().send(read({ retry: false })));
    const prefix = `The node at ${url} answered HTTP 400 (bad request)`;
    expect(err.message.startsWith(prefix)).toBe(true);
    return err.message.slice(prefix.length);
  }

  it('quotes the JSON-RPC error.message', async () => {
    expect(await detailOf('application/json', '{"jsonrpc":"2.0","id":1,"error":{"code":-32000,"message":"rpc says no"}}')).toBe(': rpc says no.');
  });

  it('prefers error.message over a top-level message', async () => {
    expect(await detailOf('application/json', '{"error":{"message":"inner"},"message":"outer"}')).toBe(': inner.');
  });

  it("quotes the indexer's top-level message", async () => {
    expect(await detailOf('application/json; charset=utf-8', '{"code":400,"message":"bad cursor"}')).toBe(': bad cursor.');
  });

  it('reads a JSON object body even when the content type does not say JSON', async () => {
    expect(await detailOf('text/plain', '  {"message":"braced"}  ')).toBe(': braced.');
  });

  it('reads a JSON message from an HTML-typed body before dropping HTML', async () => {
    expect(await detailOf('text/html', '{"message":"json after all"}')).toBe(': json after all.');
  });

  it('falls back to the text when the message is not a string', async () => {
    expect(await detailOf('application/json', '{"message":5}')).toBe(': {"message":5}.');
    expect(await detailOf('application/json', '{"error":"plain"}')).toBe(': {"error":"plain"}.');
  });

  it('falls back to the text when a JSON-typed body does not parse', async () => {
    expect(await detailOf('application/json', 'oops {')).toBe(': oops {.');
    expect(await detailOf('text/plain', '{ not json')).toBe(': { not json.');
  });

  it('collapses whitespace in a plain-text body', async () => {
    expect(await detailOf('text/plain', '  line one\n\n\tline   two  ')).toBe(': line one line two.');
  });

  it('uses a body without content type as plain text', async () => {
    expect(await detailOf(undefined, 'busy')).toBe(': busy.');
  });

  it('drops an HTML body', async () => {
    expect(await detailOf('text/html; charset=utf-8', '<html><body><h1>Bad Gateway</h1></body></html>')).toBe('.');
  });

  it('adds nothing for an empty or blank body', async () => {
    expect(await detailOf('text/plain', '')).toBe('.');
    expect(await detailOf('text/plain', ' \n\t ')).toBe('.');
  });

  it('keeps 200 characters whole and clips longer text to 200 with an ellipsis', async () => {
    const exact = 'a'.repeat(200);
    expect(await detailOf('text/plain', exact)).toBe(`: ${exact}.`);
    expect(await detailOf('text/plain', `${'b'.repeat(200)}cut`)).toBe(`: ${'b'.repeat(200)}….`);
    expect(await detailOf('application/json', JSON.stringify({ message: `${'m'.repeat(200)}x` }))).toBe(`: ${'m'.repeat(200)}….`);
  });
});

describe('HttpClient.send: body size cap', () => {
  const MB = 1 << 20;

  it('accepts a body of exactly maxBodyBytes', async () => {
    node.handler = (_req, res) => {
      res.writeHead(200).end('x'.repeat(MB));
    };
    const res = await client({ maxBodyBytes: MB }).send(read());
    expect(res.text.length).toBe(MB);
  });

  it('cuts off a body one byte over the cap with a too_large error naming the MB, and does not retry', async () => {
    node.handler = (_req, res) => {
      res.writeHead(200).end('x'.repeat(MB + 1));
    };
    const err = await failure(client({ maxBodyBytes: MB }).send(read()));
    expect(err.kind).toBe('too_large');
    expect(err.message).toBe(`The node at ${url} sent more than 1 MB; the answer was cut off.`);
    expect(err.hint).toBe('Ask for less: use paging arguments such as limit.');
    expect(err.transient).toBe(false);
    expect(seen).toHaveLength(1);
  });

  it('applies a small cap exactly: 10 bytes pass, 11 do not', async () => {
    node.handler = (req, res) => {
      res.writeHead(200).end(req.n === 1 ? '0123456789' : '0123456789A');
    };
    const c = client({ maxBodyBytes: 10 });
    expect((await c.send(read())).text).toBe('0123456789');
    const err = await failure(c.send(read()));
    expect(err.kind).toBe('too_large');
    expect(err.message).toBe(`The node at ${url} sent more than 0 MB; the answer was cut off.`);
  });

  it('lets a body over 1 MB through when no cap is configured (default 4 MB)', async () => {
    node.handler = (_req, res) => {
      res.writeHead(200).end('y'.repeat(MB + 1));
    };
    const res = await client().send(read());
    expect(res.text.length).toBe(MB + 1);
  });

  it('cuts off a 5 MB answer by default: the cap is sized for a person, not for 31 MB answers', async () => {
    node.handler = (_req, res) => {
      res.writeHead(200).end('y'.repeat(5 * MB));
    };
    const err = await failure(client().send(read()));
    expect(err.kind).toBe('too_large');
    expect(err.message).toBe(`The node at ${url} sent more than 4 MB; the answer was cut off.`);
  });
});

describe('HttpClient.send: timeouts and cancellation', () => {
  it('reports a node that never answers as a timeout naming the configured ms, not transient, sent once', async () => {
    node.handler = () => {
      // no answer
    };
    const err = await failure(client({ timeoutMs: 200 }).send(read()));
    expect(err.kind).toBe('timeout');
    expect(err.message).toBe(`The node at ${url} did not answer within 200 ms.`);
    expect(err.hint).toBe('Check that the service is up and not overloaded, or raise CHAIN_MCP_TIMEOUT_MS.');
    expect(err.transient).toBe(false);
    expect(seen).toHaveLength(1);
  });

  it('times out a body that keeps trickling past the deadline', async () => {
    node.handler = (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      let sent = 0;
      const tick = setInterval(() => {
        sent++;
        if (sent >= 30) {
          clearInterval(tick);
          res.end('done');
        } else res.write('.');
      }, 50);
      res.on('close', () => clearInterval(tick));
    };
    const err = await failure(client({ timeoutMs: 300 }).send(read({ retry: false })));
    expect(err.kind).toBe('timeout');
    expect(err.message).toBe(`The node at ${url} did not answer within 300 ms.`);
  });

  it('maps undici header and body timeouts to a timeout error', async () => {
    const { errors } = await import('undici');
    for (const make of [() => new errors.HeadersTimeoutError(), () => new errors.BodyTimeoutError()]) {
      const c = client({ timeoutMs: 700 });
      await fakeRequest(c, () => Promise.reject(make()));
      const err = await failure(c.send(read({ retry: false })));
      expect(err.kind).toBe('timeout');
      expect(err.message).toBe(`The node at ${url} did not answer within 700 ms.`);
      expect(err.transient).toBe(false);
    }
  });

  it('cancels without sending when the caller signal is already aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    const err = await failure(client().send(read({ signal: controller.signal })));
    expect(err.kind).toBe('cancelled');
    expect(err.message).toBe(`The call to the node at ${url} was cancelled.`);
    expect(err.transient).toBe(false);
    expect(seen).toHaveLength(0);
  });

  it('cancels a request in flight when the caller aborts, and does not retry it', async () => {
    const controller = new AbortController();
    node.handler = () => {
      setTimeout(() => controller.abort(), 20);
    };
    // The node never answers and the timeout is an hour away: only the cancel can end this test in time.
    const err = await failure(client({ timeoutMs: 3_600_000 }).send(read({ signal: controller.signal })));
    expect(err.kind).toBe('cancelled');
    expect(err.message).toBe(`The call to the node at ${url} was cancelled.`);
    expect(seen).toHaveLength(1);
  });
});

describe('HttpClient.send: connection failures', () => {
  it('reports a refused connection as transient, with the refused text', async () => {
    const port = await closedPort();
    const err = await failure(client().send(read({ url: `http://127.0.0.1:${port}/ext/info`, retry: false })));
    expect(err.kind).toBe('connection');
    expect(err.message).toBe(`Could not connect to the node at http://127.0.0.1:${port}/ext/info: connection refused.`);
    expect(err.hint).toBe('Check that the service is running and that the URL is right.');
    expect(err.transient).toBe(true);
  });

  it('reports a connection the server drops as reset, transient', async () => {
    node.handler = (_req, res) => {
      res.socket?.destroy();
    };
    const err = await failure(client().send(read({ retry: false })));
    expect(err.kind).toBe('connection');
    expect(err.message).toBe(`The request to the node at ${url} failed: the connection was reset.`);
    expect(err.hint).toBe('Check that the service is running; try again.');
    expect(err.transient).toBe(true);
    expect(seen).toHaveLength(1);
  });

  it("names the URL '(invalid URL)' when it does not parse", async () => {
    const err = await failure(client().send(read({ url: 'garbage', retry: false })));
    expect(err.kind).toBe('connection');
    expect(err.message).toBe('The request to the node at (invalid URL) failed: ERR_INVALID_URL.');
  });

  it.each([
    ['ENOTFOUND', 'Could not resolve the host of the node at URL: no such name, or no network or DNS.', "Check the host name in the URL, and this machine's network connection and DNS.", false],
    ['EAI_AGAIN', 'Cannot reach the node at URL: no network or DNS.', "Check this machine's network connection and DNS; the URL may be right.", true],
    ['ENETUNREACH', 'Cannot reach the node at URL: no network or DNS.', "Check this machine's network connection and DNS; the URL may be right.", true],
    ['EHOSTUNREACH', 'Cannot reach the node at URL: no network or DNS.', "Check this machine's network connection and DNS; the URL may be right.", true],
    ['ECONNREFUSED', 'Could not connect to the node at URL: connection refused.', 'Check that the service is running and that the URL is right.', true],
    ['ECONNRESET', 'The request to the node at URL failed: the connection was reset.', 'Check that the service is running; try again.', true],
    ['UND_ERR_SOCKET', 'The request to the node at URL failed: the connection was reset.', 'Check that the service is running; try again.', true],
    ['EPIPE', 'The request to the node at URL failed: EPIPE.', 'Check that the service is running; try again.', true],
  ])('maps error code %s to its message, hint and transience', async (code, message, hint, transient) => {
    const c = client();
    await fakeRequest(c, () => Promise.reject(codeError(code)));
    const err = await failure(c.send(read({ retry: false })));
    expect(err.kind).toBe('connection');
    expect(err.message).toBe(message.replace('URL', url));
    expect(err.hint).toBe(hint);
    expect(err.transient).toBe(transient);
  });

  it('takes the code from the cause when the error itself has none', async () => {
    const c = client();
    await fakeRequest(c, () => Promise.reject(codeError(undefined, codeError('ECONNREFUSED'))));
    const err = await failure(c.send(read({ retry: false })));
    expect(err.message).toBe(`Could not connect to the node at ${url}: connection refused.`);
  });

  it("says 'network error' for a failure without any code", async () => {
    const c = client();
    await fakeRequest(c, () => Promise.reject(codeError(undefined)));
    const err = await failure(c.send(read({ retry: false })));
    expect(err.kind).toBe('connection');
    expect(err.message).toBe(`The request to the node at ${url} failed: network error.`);
    expect(err.transient).toBe(true);
  });

  it('never puts user, password or query of the URL into an error', async () => {
    const port = new URL(origin).port;
    const secretUrl = `http://admin:hunter2@127.0.0.1:${port}/ext/info?token=s3cr3t`;
    node.handler = (_req, res) => {
      res.writeHead(401, { 'content-type': 'text/plain' }).end('no');
    };
    const status = await failure(client().send(read({ url: secretUrl })));
    expect(status.message).toBe(`The node at ${url} answered HTTP 401 (unauthorized): no.`);
    expect(seen.map((s) => s.url)).toEqual(['/ext/info?token=s3cr3t']);

    const refusedPort = await closedPort();
    const refused = await failure(client().send(read({ url: `http://admin:hunter2@127.0.0.1:${refusedPort}/x?token=s3cr3t`, retry: false })));
    expect(refused.message).toBe(`Could not connect to the node at http://127.0.0.1:${refusedPort}/x: connection refused.`);

    node.handler = () => {
      // no answer
    };
    const timeout = await failure(client({ timeoutMs: 150 }).send(read({ url: secretUrl })));
    expect(timeout.message).toBe(`The node at ${url} did not answer within 150 ms.`);

    for (const err of [status, refused, timeout]) {
      const all = `${err.message} ${err.hint ?? ''} ${JSON.stringify(err)}`;
      expect(all).not.toContain('hunter2');
      expect(all).not.toContain('admin');
      expect(all).not.toContain('s3cr3t');
    }
  });
});
