import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer } from 'ws';

export interface Recorded {
  httpMethod: string;
  path: string;
  query: Array<[string, string]>;
  headers: IncomingHttpHeaders;
  body: unknown;
}

/** A real Camino node's names for the spec's (docs/real-nodes.md), written out by hand. */
const CAMINO_TO_SPEC: Record<string, string> = { avm: 'xvm', avax: 'cx' };
const CAMINO_METHODS: Record<string, string> = { 'platform.exportAVAX': 'platform.exportNative' };

/**
 * A recording stand-in for the node, indexer or runner on loopback: it keeps every request
 * exactly as received and answers from a table of canned raw answers, keyed by the spec's
 * method names. As a `camino` node it reports `avm` among its VMs, so the server speaks
 * `avm.*`/`avax.*` to it; the answers are looked up under the spec's name of the same method.
 */
export async function startFakeNode(opts: { dialect?: 'spec' | 'camino' } = {}) {
  const dialect = opts.dialect ?? 'spec';
  const versions = { vmVersions: dialect === 'camino' ? { avm: 'v1.1.18', evm: 'v0.5.4', platform: 'v1.1.18' } : { xvm: 'v1.1.18', evm: 'v0.5.4', platform: 'v1.1.18' } };
  const specName = (method: string): string => {
    if (dialect === 'camino' && Object.hasOwn(CAMINO_METHODS, method)) return CAMINO_METHODS[method]!;
    const dot = method.indexOf('.');
    const ns = CAMINO_TO_SPEC[method.slice(0, dot)];
    return dialect === 'camino' && dot > 0 && ns ? `${ns}${method.slice(dot)}` : method;
  };
  const recorded: Recorded[] = [];
  let answers: Record<string, unknown> = {};
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      const text = Buffer.concat(chunks).toString('utf8');
      let body: unknown;
      try {
        body = text ? JSON.parse(text) : undefined;
      } catch {
        body = text;
      }
      recorded.push({ httpMethod: req.method ?? '', path: url.pathname, query: [...url.searchParams.entries()], headers: req.headers, body });
      const answerFor = (item: { id?: unknown; method?: unknown }) => {
        const method = specName(String(item.method));
        const fallback = method === 'info.getNodeVersion' ? versions : url.pathname.endsWith('/rpc') ? '0x0' : {};
        const result = method in answers ? answers[method] : fallback;
        return { jsonrpc: '2.0', id: item.id, result };
      };
      let reply: unknown;
      // A real Camino node decodes one request object per POST except on the EVM endpoint (REAL-WIRE.md).
      if (Array.isArray(body) && dialect === 'camino' && !url.pathname.endsWith('/rpc')) {
        reply = { jsonrpc: '2.0', error: { code: -32700, message: 'json: cannot unmarshal array into Go value of type json2.serverRequest', data: null }, id: null };
      } else if (Array.isArray(body)) reply = body.map(answerFor);
      else if (body && typeof body === 'object' && (body as { jsonrpc?: unknown }).jsonrpc === '2.0') reply = answerFor(body as { method?: unknown });
      else reply = url.pathname in answers ? answers[url.pathname] : {};
      const out = JSON.stringify(reply);
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(out) }).end(out);
    });
  });
  // WebSocket endpoints (eth_subscribe): each message is recorded with httpMethod 'WS' and
  // answered like HTTP; eth_subscribe gets a subscription ID and eth_unsubscribe true.
  const wss = new WebSocketServer({ server });
  wss.on('connection', (ws, req) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    ws.on('message', (data: Buffer) => {
      let body: { id?: unknown; method?: unknown } = {};
      try {
        body = JSON.parse(data.toString('utf8'));
      } catch {
        // recorded as sent
      }
      recorded.push({ httpMethod: 'WS', path: url.pathname, query: [...url.searchParams.entries()], headers: req.headers, body });
      const method = String(body.method);
      const result = method in answers ? answers[method] : method === 'eth_subscribe' ? '0x1' : method === 'eth_unsubscribe' ? true : null;
      ws.send(JSON.stringify({ jsonrpc: '2.0', id: body.id, result }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    recorded,
    setAnswers(next: Record<string, unknown>) {
      answers = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const client of wss.clients) client.terminate();
        wss.close();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
