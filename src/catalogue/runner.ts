import { z } from 'zod';
import { ChainMcpError } from '../errors.js';
import { defineTool, type ToolDef } from '../core/tool.js';
import { listLines } from '../summarize/format.js';

/**
 * The local network runner's HTTP gateway (spec document 1, "Local test network runner"),
 * at CHAIN_MCP_RUNNER_URL. The node executable path comes from CHAIN_MCP_RUNNER_EXEC_PATH.
 */

const NodeOut = z.object({ name: z.string(), uri: z.string(), id: z.string() });
const Cluster = z.object({
  healthy: z.boolean(),
  nodeNames: z.array(z.string()),
  nodes: z.array(NodeOut),
  pid: z.string(),
  rootDataDir: z.string(),
  customVmsHealthy: z.boolean(),
});

const str = (v: unknown): string => (v === undefined || v === null ? '' : String(v));

function cluster(raw: unknown): z.input<typeof Cluster> {
  const outer = (raw ?? {}) as Record<string, unknown>;
  const c = (outer.clusterInfo ?? outer.cluster_info ?? outer) as Record<string, unknown>;
  const infos = (c.nodeInfos ?? c.node_infos ?? {}) as Record<string, Record<string, unknown>>;
  return {
    healthy: c.healthy === true,
    nodeNames: Array.isArray(c.nodeNames ?? c.node_names) ? ((c.nodeNames ?? c.node_names) as unknown[]).map(str) : [],
    nodes: Object.entries(infos).map(([name, info]) => ({ name: str(info?.name ?? name), uri: str(info?.uri), id: str(info?.id) })),
    pid: str(c.pid),
    rootDataDir: str(c.rootDataDir ?? c.root_data_dir),
    customVmsHealthy: c.customVmsHealthy === true,
  };
}

function clusterText(o: z.output<typeof Cluster>): string {
  return [
    `Cluster ${o.healthy ? 'healthy' : 'not healthy (yet)'}: ${o.nodeNames.length} nodes${o.pid ? `, runner pid ${o.pid}` : ''}.`,
    ...listLines(o.nodes, 10, (n) => `${n.name} ${n.id} at ${n.uri}`),
    ...(o.healthy ? [] : ['Right after start the cluster is not healthy and lists no nodes; poll runner_health.']),
  ].join('\n');
}

export const runnerTools: ToolDef[] = [
  defineTool({
    name: 'runner_start',
    title: 'Start a local test network',
    description: 'Start a local cluster with the network runner (CHAIN_MCP_RUNNER_URL); poll runner_health until it is healthy.',
    tier: 'admin',
    toolset: 'runner',
    input: z.strictObject({
      numNodes: z.number().int().min(1).max(32).default(5).describe('Nodes to start (default 5).'),
      logLevel: z.string().regex(/^[A-Za-z]{1,16}$/).default('INFO').describe('Node log level, e.g. INFO or DEBUG.'),
    }),
    output: Cluster,
    request: {
      kind: 'runner',
      path: '/v1/control/start',
      body: (i, ctx) => {
        if (!ctx.config.runnerExecPath) {
          throw new ChainMcpError('not_configured', 'The node executable path for the network runner is not configured.', {
            hint: 'Set CHAIN_MCP_RUNNER_EXEC_PATH to the node binary and restart the server.',
          });
        }
        return { execPath: ctx.config.runnerExecPath, numNodes: i.numNodes, logLevel: i.logLevel };
      },
    },
    decode: cluster,
    summarize: clusterText,
    annotations: { idempotentHint: false, openWorldHint: false },
  }),
  defineTool({
    name: 'runner_health',
    title: 'Local test network health',
    description: 'Get the local cluster\'s state from the network runner: healthy when every node is.',
    tier: 'admin',
    toolset: 'runner',
    input: z.strictObject({}),
    output: Cluster,
    request: { kind: 'runner', path: '/v1/control/health' },
    decode: cluster,
    summarize: clusterText,
    annotations: { idempotentHint: true, openWorldHint: false },
  }),
  defineTool({
    name: 'runner_uris',
    title: 'Local test network node URLs',
    description: "List the HTTP base URL of each node of the local cluster, to point CHAIN_MCP_NODE_URL at one.",
    tier: 'admin',
    toolset: 'runner',
    input: z.strictObject({}),
    output: z.object({ uris: z.array(z.string()) }),
    request: { kind: 'runner', path: '/v1/control/uris' },
    decode: (raw) => ({ uris: Array.isArray((raw as { uris?: unknown })?.uris) ? ((raw as { uris: unknown[] }).uris.map(str)) : [] }),
    summarize: (o) => (o.uris.length ? [`${o.uris.length} node URLs:`, ...listLines(o.uris, 20, (u) => u)].join('\n') : 'No nodes are running.'),
    annotations: { idempotentHint: true, openWorldHint: false },
  }),
];
