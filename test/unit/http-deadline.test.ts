import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ChainMcpError } from '../../src/errors.js';
import { HttpClient } from '../../src/transport/http.js';

/**
 * One deadline per call covers every retry (DESIGN section 5): an attempt after a transient
 * failure gets what is left of CHAIN_MCP_TIMEOUT_MS, not a fresh one. The client's clock is
 * moved forward by the fake node, so the remaining time is known without waiting for it.
 */

const TIMEOUT_MS = 60_000;

let server: Server | undefined;
let client: HttpClient | undefined;
afterEach(async () => {
  await client?.close();
  server?.closeAllConnections();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
  client = undefined;
});

async function fakeNode(handler: (n: number, req: IncomingMessage, res: ServerResponse) => void): Promise<string> {
  let n = 0;
  server = createServer((req, res) => {
    req.resume();
    req.on('end', () => handler(++n, req, res));
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', () => resolve()));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/ext/info`;
}

describe('retry deadline', () => {
  it('gives the retry only the time left of the deadline', async () => {
    let skew = 0;
    const url = await fakeNode((n, _req, res) => {
      if (n === 1) {
        // The first attempt "took" all but 1.5 s of the deadline, then failed transiently.
        skew = TIMEOUT_MS - 1_500;
        res.writeHead(503, { 'content-type': 'text/plain' }).end('busy');
      }
      // The second attempt never gets an answer: only its own timer can end it.
    });
    // The client's clock moves only when the fake node says so: how long the first attempt really
    // took (a loaded machine) cannot change what is left for the retry.
    const frozen = Date.now();
    client = new HttpClient({ timeoutMs: TIMEOUT_MS, now: () => frozen + skew });
    const started = Date.now();
    const err = await client.send({ method: 'POST', url, body: '{}', retry: true, service: 'node' }).catch((e: unknown) => e);
    const elapsed = Date.now() - started;
    expect(err).toBeInstanceOf(ChainMcpError);
    expect((err as ChainMcpError).kind).toBe('timeout');
    // About 1.5 s (1.4 s left after the 100 ms back-off); a fresh full timeout would be 60 s.
    expect(elapsed).toBeLessThan(TIMEOUT_MS / 4);
  }, 20_000);

  it('does not retry when the back-off would end past the deadline', async () => {
    let skew = 0;
    let requests = 0;
    const url = await fakeNode((_n, _req, res) => {
      requests++;
      skew = TIMEOUT_MS - 50;
      res.writeHead(503, { 'content-type': 'text/plain' }).end('busy');
    });
    client = new HttpClient({ timeoutMs: TIMEOUT_MS, now: () => Date.now() + skew });
    const err = await client.send({ method: 'POST', url, body: '{}', retry: true, service: 'node' }).catch((e: unknown) => e);
    expect((err as ChainMcpError).message).toContain('HTTP 503');
    expect(requests).toBe(1);
  });

  it('retries a transient failure while time is left, and never retries a write', async () => {
    let requests = 0;
    const url = await fakeNode((n, _req, res) => {
      requests++;
      if (n === 1) res.writeHead(503, { 'content-type': 'text/plain' }).end('busy');
      else res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    });
    client = new HttpClient({ timeoutMs: TIMEOUT_MS });
    const res = await client.send({ method: 'POST', url, body: '{}', retry: true, service: 'node', decode: JSON.parse });
    expect(res.value).toEqual({ ok: true });
    expect(requests).toBe(2);
    requests = 0;
    const write = await client.send({ method: 'POST', url, body: '{}', retry: false, service: 'node' }).then(
      () => 'answered',
      () => 'refused',
    );
    expect(write).toBe('answered');
    expect(requests).toBe(1);
  });
});
