import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type DevnetIndexer, startIndexer } from './indexer/server.js';
import { registerInfo } from './node/info.js';
import { registerPlatform } from './node/platform.js';
import { HttpFault, RpcRouter } from './rpc.js';
import { createState, type DevnetState } from './state.js';

export interface DevnetOptions {
  /** Node API port on 127.0.0.1; 0 picks a free one. */
  port?: number;
  /** Require `Authorization: Bearer` on every endpoint but /ext/auth (`--api-auth-required`). */
  authRequired?: boolean;
  log?: (line: string) => void;
}

export interface Devnet {
  nodeUrl: string;
  indexerUrl?: string;
  /** The indexer simulator (its request log lets tests count requests). */
  indexer?: DevnetIndexer;
  runnerUrl?: string;
  /** The keystore user the demo and tests sign with. */
  keystore: { username: string; password: string };
  state: DevnetState;
  router: RpcRouter;
  close(): Promise<void>;
}

/** Families register their methods on the router; adding one is one line here. */
const FAMILIES: Array<(router: RpcRouter, state: DevnetState) => void> = [registerInfo, registerPlatform];

async function listen(server: Server, port: number): Promise<string> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** Starts the simulator on loopback. */
export async function startDevnet(opts: DevnetOptions = {}): Promise<Devnet> {
  const state = createState();
  const router = new RpcRouter();
  for (const register of FAMILIES) register(router, state);
  if (opts.authRequired) {
    router.authorize = (path, token) => {
      if (path === '/ext/auth') return;
      if (!token) throw new HttpFault(401, 'auth token not provided');
    };
  }
  const node = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      router.handle(req, res, Buffer.concat(chunks).toString('utf8')).catch((err: unknown) => {
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' }).end(String((err as Error).message));
      });
    });
  });
  node.keepAliveTimeout = 5_000;
  const nodeUrl = await listen(node, opts.port ?? 0);
  opts.log?.(`devnet: node API at ${nodeUrl}`);
  const indexer = await startIndexer(state);
  opts.log?.(`devnet: indexer API at ${indexer.url}`);
  return {
    nodeUrl,
    indexerUrl: indexer.url,
    indexer,
    keystore: { username: 'devnet', password: 'Devnet-Passw0rd!' },
    state,
    router,
    close: async () => {
      await indexer.close();
      await new Promise<void>((resolve) => {
        node.closeAllConnections();
        node.close(() => resolve());
      });
    },
  };
}
