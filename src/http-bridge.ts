import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * Node's `(req, res)` to the SDK's web-standard per-request entry and back, for a body this server
 * has already read and parsed (http-server.ts reads every POST once, to route it; 2025-11-25
 * sessions do not come here, http-session.ts serves them on Node's own request). Used instead of
 * the SDK's `toNodeHandler` because it, per request, serialises the parsed body again into a
 * streamed web body nobody reads (the SDK is handed the parsed body), and writes a JSON answer as
 * chunks ending in a separate write (the conversion alone was 6 % of the server's CPU under
 * stateless load, docs/benchmarks.md).
 */

/** Headers that describe the bytes on the wire; the web request built here carries none. */
const BODY_HEADERS = new Set(['content-length', 'transfer-encoding', 'content-encoding']);

/**
 * The web `Request` for `req`, without a body: the SDK gets the parsed body beside it (`parsedBody`)
 * and reads nothing from the request but its method, URL, headers and signal.
 */
export function webRequest(req: IncomingMessage, signal: AbortSignal): Request {
  const headers = new Headers();
  const raw = req.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i]!.toLowerCase();
    if (!BODY_HEADERS.has(name)) headers.append(name, raw[i + 1]!);
  }
  const host = req.headers.host ?? 'localhost';
  return new Request(`http://${host}${req.url ?? '/'}`, { method: req.method ?? 'GET', headers, signal });
}

/**
 * An abort signal that fires when the client goes away before its answer is written (the SDK then
 * cancels the call), and a function to say the answer is written.
 */
export function hangUpSignal(res: ServerResponse): { signal: AbortSignal; done(): void } {
  const abort = new AbortController();
  let finished = false;
  res.once('close', () => {
    if (!finished) abort.abort();
  });
  if (res.destroyed) abort.abort();
  return {
    signal: abort.signal,
    done: () => {
      finished = true;
    },
  };
}

const isEventStream = (type: string | null) => (type ?? '').split(';', 1)[0]!.trim().toLowerCase() === 'text/event-stream';

/**
 * Writes a web `Response` to `res`. A whole answer (JSON, an error) goes out in one write with its
 * length. An event stream is relayed as it comes, corked until the next turn of the event loop so
 * that the headers, an event and the stream's end written together leave in one packet; a stream
 * that stays open (a standing GET, an elicitation waiting for the human) is flushed at that turn.
 */
export async function writeResponse(res: ServerResponse, response: Response, signal: AbortSignal): Promise<void> {
  const headers: Record<string, string | string[]> = {};
  for (const [name, value] of response.headers) {
    const had = headers[name];
    headers[name] = had === undefined ? value : [...(Array.isArray(had) ? had : [had]), value];
  }
  if (response.body === null) {
    res.writeHead(response.status, headers).end();
    return;
  }
  if (!isEventStream(response.headers.get('content-type'))) {
    const bytes = Buffer.from(await response.arrayBuffer());
    headers['content-length'] = String(bytes.length);
    res.writeHead(response.status, headers).end(bytes);
    return;
  }
  const reader = response.body.getReader();
  const cancel = () => void reader.cancel().catch(() => undefined);
  signal.addEventListener('abort', cancel, { once: true });
  let corked = false;
  const corkUntilNextTurn = () => {
    if (corked) return;
    corked = true;
    res.cork();
    setImmediate(() => {
      corked = false;
      // end() uncorks fully; once ended the socket may already carry the next answer.
      if (!res.writableEnded) res.uncork();
    });
  };
  corkUntilNextTurn();
  res.writeHead(response.status, headers);
  res.flushHeaders();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done || signal.aborted) break;
      corkUntilNextTurn();
      if (!res.write(value)) await drained(res, signal);
    }
  } catch {
    // The stream failed or was cancelled (the client went away): end what was sent.
  } finally {
    signal.removeEventListener('abort', cancel);
  }
  res.end();
}

/** Waits for `res` to take more, or for the client to go away. */
function drained(res: ServerResponse, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done);
      signal.removeEventListener('abort', done);
      resolve();
    };
    res.once('drain', done);
    signal.addEventListener('abort', done, { once: true });
  });
}
