import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request as the loopback node received it. */
export interface Seen {
  n: number;
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
  at: number;
}

export type Handler = (req: Seen, res: ServerResponse) => void;

/**
 * A loopback node:http server for transport tests: it records every request (with its arrival
 * time) and answers with whatever `handler` the test sets; `connections` counts TCP connections.
 */
export function recordingNode(initial: Handler) {
  const node = {
    handler: initial,
    seen: [] as Seen[],
    connections: 0,
    origin: '',
    /** Forgets the requests and connections seen so far and goes back to the initial handler. */
    reset(): void {
      node.seen.length = 0;
      node.connections = 0;
      node.handler = initial;
    },
    async listen(): Promise<string> {
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
      node.origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      return node.origin;
    },
    /** Cuts open connections (unanswered requests included), so closing clients never waits on them. */
    cut(): void {
      server.closeAllConnections();
    },
    async close(): Promise<void> {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const s: Seen = {
        n: node.seen.length + 1,
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        at: Date.now(),
      };
      node.seen.push(s);
      node.handler(s, res);
    });
  });
  server.on('connection', () => {
    node.connections++;
  });
  return node;
}
