import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * The local network runner's HTTP gateway (spec document 1): POST /v1/control/start,
 * /health, /uris. A started cluster reports `healthy: false` with no nodes at first and
 * becomes healthy on a later health call; node 1's URI is the devnet node itself.
 */

export interface RunnerGateway {
  url: string;
  /** Bodies of /v1/control/start calls, for tests. */
  starts: unknown[];
  close(): Promise<void>;
}

interface Cluster {
  execPath: string;
  numNodes: number;
  healthChecks: number;
}

function reply(res: import('node:http').ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) }).end(text);
}

export async function startRunnerGateway(nodeUrl: string, port = 0): Promise<RunnerGateway> {
  let cluster: Cluster | undefined;
  const starts: unknown[] = [];
  const info = (c: Cluster) => {
    const healthy = c.healthChecks > 0;
    const names = healthy ? Array.from({ length: c.numNodes }, (_, i) => `node${i + 1}`) : [];
    const base = new URL(nodeUrl);
    return {
      nodeNames: names,
      nodeInfos: Object.fromEntries(
        names.map((name, i) => [
          name,
          {
            name,
            execPath: c.execPath,
            uri: i === 0 ? nodeUrl : `http://127.0.0.1:${Number(base.port) + 2 * i}`,
            id: `NodeID-${name}`,
            logDir: `/tmp/runner/${name}/logs`,
            dbDir: `/tmp/runner/${name}/db`,
            pluginDir: '',
            whitelistedSubnets: '',
            config: '',
          },
        ]),
      ),
      pid: 4242,
      rootDataDir: '/tmp/runner',
      healthy,
      attachedPeerInfos: {},
      customVmsHealthy: healthy,
      customVms: {},
    };
  };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.method !== 'POST') return reply(res, 405, { code: 12, message: 'Method Not Allowed' });
      let body: Record<string, unknown> = {};
      try {
        const text = Buffer.concat(chunks).toString('utf8');
        body = text.trim() ? JSON.parse(text) : {};
      } catch {
        return reply(res, 400, { code: 3, message: 'invalid JSON body' });
      }
      switch (req.url) {
        case '/v1/control/start': {
          starts.push(body);
          if (cluster) return reply(res, 400, { code: 9, message: 'network already running' });
          const execPath = body.execPath;
          const numNodes = Number(body.numNodes ?? 5);
          if (typeof execPath !== 'string' || execPath === '') return reply(res, 400, { code: 3, message: 'execPath is required' });
          if (!Number.isInteger(numNodes) || numNodes < 1) return reply(res, 400, { code: 3, message: 'numNodes must be positive' });
          cluster = { execPath, numNodes, healthChecks: 0 };
          return reply(res, 200, { clusterInfo: info(cluster) });
        }
        case '/v1/control/health': {
          if (!cluster) return reply(res, 400, { code: 9, message: 'not bootstrapped' });
          const answer = { clusterInfo: info(cluster) };
          cluster.healthChecks += 1;
          return reply(res, 200, answer);
        }
        case '/v1/control/uris': {
          if (!cluster) return reply(res, 400, { code: 9, message: 'not bootstrapped' });
          const c = info(cluster);
          return reply(res, 200, { uris: Object.values(c.nodeInfos).map((n) => n.uri) });
        }
        default:
          return reply(res, 404, { code: 5, message: 'Not Found' });
      }
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    starts,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
