import { z } from 'zod';
import { chainIdOrAlias, nodeId } from '../core/fields.js';
import { defineTool, type ToolContext, type ToolDef } from '../core/tool.js';
import { AmountOut, big, listLines, nativeAmount } from '../summarize/format.js';
import { readTxFees } from '../spend/plan.js';

/** Information API, endpoint /ext/info (spec document 1). */

const none = z.strictObject({});
const str = (v: unknown): string => (v === undefined || v === null ? '' : String(v));
const rpc = (method: string) => ({ kind: 'rpc' as const, endpoint: 'info' as const, method });

const Peer = z.object({
  nodeID: z.string(),
  ip: z.string(),
  publicIP: z.string(),
  version: z.string(),
  lastSent: z.string(),
  lastReceived: z.string(),
  benched: z.array(z.string()),
  observedUptime: z.string().describe('Percent, as reported by the peer.'),
});

/** Blockchain ID -> "X-Chain" etc. from info.getBlockchainID; a chain the node does not answer for keeps its ID. */
async function primaryChainNames(ctx: ToolContext): Promise<Map<string, string>> {
  const names = new Map<string, string>();
  await Promise.all(
    ['X', 'P', 'C'].map(async (alias) => {
      try {
        const answer = (await ctx.rpc('info', 'info.getBlockchainID', { alias })) as { blockchainID?: unknown } | null;
        const id = str(answer?.blockchainID);
        if (id) names.set(id, `${alias}-Chain`);
      } catch {
        // Unnamed chains stay as IDs.
      }
    }),
  );
  return names;
}

export const infoTools: ToolDef[] = [
  defineTool({
    name: 'info_getBlockchainID',
    title: 'Blockchain ID of an alias',
    description: 'Get the blockchain ID (cb58) of a chain alias such as X, P or C.',
    tier: 'read',
    toolset: 'info',
    input: z.strictObject({ alias: z.string().min(1).max(64).describe('Chain alias, e.g. X, P or C.') }),
    output: z.object({ alias: z.string(), blockchainID: z.string() }),
    request: rpc('info.getBlockchainID'),
    decode: (raw, input) => ({ alias: input.alias, blockchainID: str((raw as { blockchainID?: unknown }).blockchainID) }),
    summarize: (o) => `Chain ${o.alias} has blockchain ID ${o.blockchainID}.`,
  }),
  defineTool({
    name: 'info_getNetworkID',
    title: 'Network ID',
    description: 'Get the node\'s network ID (1000 main, 1001 test, 1002 dev, 12345 local).',
    tier: 'read',
    toolset: 'info',
    input: none,
    output: z.object({ networkID: z.string(), network: z.string() }),
    request: rpc('info.getNetworkID'),
    decode: (raw) => {
      const networkID = big((raw as { networkID?: unknown }).networkID).toString();
      return { networkID, network: NETWORK_NAMES[networkID] ?? 'custom' };
    },
    summarize: (o) => `Network ID ${o.networkID} (${o.network} network).`,
  }),
  defineTool({
    name: 'info_getNetworkName',
    title: 'Network name',
    description: 'Get the node\'s network name.',
    tier: 'read',
    toolset: 'info',
    input: none,
    output: z.object({ networkName: z.string() }),
    request: rpc('info.getNetworkName'),
    decode: (raw) => ({ networkName: str((raw as { networkName?: unknown }).networkName) }),
    summarize: (o) => `The node is on the ${o.networkName} network.`,
  }),
  defineTool({
    name: 'info_getNodeID',
    title: 'Node ID',
    description: "This node's ID (NodeID-...) and BLS key with its proof of possession.",
    tier: 'read',
    toolset: 'info',
    input: none,
    output: z.object({
      nodeID: z.string(),
      nodePOP: z
        .object({ publicKey: z.string().describe('BLS public key, 0x hex (48 bytes).'), proofOfPossession: z.string().describe('0x hex (96 bytes).') })
        .optional()
        .describe('What a validator registration needs; absent when the node has no BLS key.'),
    }),
    request: rpc('info.getNodeID'),
    decode: (raw) => {
      const r = (raw ?? {}) as { nodeID?: unknown; nodePOP?: { publicKey?: unknown; proofOfPossession?: unknown } | null };
      const pop = r.nodePOP && typeof r.nodePOP === 'object' ? { publicKey: str(r.nodePOP.publicKey), proofOfPossession: str(r.nodePOP.proofOfPossession) } : undefined;
      return { nodeID: str(r.nodeID), ...(pop ? { nodePOP: pop } : {}) };
    },
    summarize: (o) => `Node ID: ${o.nodeID}` + (o.nodePOP ? `\nBLS public key: ${o.nodePOP.publicKey}\nProof of possession: ${o.nodePOP.proofOfPossession}` : ''),
  }),
  defineTool({
    name: 'info_getNodeIP',
    title: 'Node IP',
    description: 'Get the public IP and port this node advertises.',
    tier: 'read',
    toolset: 'info',
    input: none,
    output: z.object({ ip: z.string() }),
    request: rpc('info.getNodeIP'),
    decode: (raw) => ({ ip: str((raw as { ip?: unknown }).ip) }),
    summarize: (o) => `The node advertises ${o.ip}.`,
  }),
  defineTool({
    name: 'info_getNodeVersion',
    title: 'Node version',
    description: "Get the node's software, database, git commit and per-VM versions.",
    tier: 'read',
    toolset: 'info',
    input: none,
    output: z.object({ version: z.string(), databaseVersion: z.string(), gitCommit: z.string(), vmVersions: z.record(z.string(), z.string()) }),
    request: rpc('info.getNodeVersion'),
    decode: (raw) => {
      const r = raw as Record<string, unknown>;
      const vms = (r.vmVersions && typeof r.vmVersions === 'object' ? r.vmVersions : {}) as Record<string, unknown>;
      return {
        version: str(r.version),
        databaseVersion: str(r.databaseVersion),
        gitCommit: str(r.gitCommit),
        vmVersions: Object.fromEntries(Object.entries(vms).map(([k, v]) => [k, str(v)])),
      };
    },
    summarize: (o) =>
      [
        `Node ${o.version} (database ${o.databaseVersion}, commit ${o.gitCommit.slice(0, 12) || 'unknown'}).`,
        ...Object.entries(o.vmVersions).map(([vm, v]) => `- ${vm}: ${v}`),
      ].join('\n'),
  }),
  defineTool({
    name: 'info_getVMs',
    title: 'Installed VMs',
    description: 'List the VMs installed on the node, with their aliases.',
    tier: 'read',
    toolset: 'info',
    input: none,
    output: z.object({ vms: z.record(z.string(), z.array(z.string())) }),
    request: rpc('info.getVMs'),
    decode: (raw) => {
      const vms = ((raw as { vms?: unknown }).vms ?? {}) as Record<string, unknown>;
      return { vms: Object.fromEntries(Object.entries(vms).map(([id, aliases]) => [id, Array.isArray(aliases) ? aliases.map(str) : []])) };
    },
    summarize: (o) =>
      [`${Object.keys(o.vms).length} VMs installed:`, ...Object.entries(o.vms).map(([id, a]) => `- ${a.join(', ') || '(no alias)'}: ${id}`)].join('\n'),
  }),
  defineTool({
    name: 'info_isBootstrapped',
    title: 'Chain bootstrapped?',
    description: 'Check whether the node has bootstrapped a chain; until then its answers may be stale.',
    tier: 'read',
    toolset: 'info',
    input: z.strictObject({ chain: chainIdOrAlias('Chain ID or alias, e.g. X, P or C.') }),
    output: z.object({ chain: z.string(), isBootstrapped: z.boolean() }),
    // `chain` is this method's own parameter here, not the endpoint selector.
    request: { kind: 'rpc', endpoint: 'info', method: 'info.isBootstrapped', params: (i) => ({ chain: i.chain }) },
    decode: (raw, input) => ({ chain: input.chain, isBootstrapped: (raw as { isBootstrapped?: unknown }).isBootstrapped === true }),
    summarize: (o) => (o.isBootstrapped ? `Chain ${o.chain} is bootstrapped.` : `Chain ${o.chain} is still bootstrapping; its data may be incomplete.`),
  }),
  defineTool({
    name: 'info_peers',
    title: 'Connected peers',
    description: 'Describe the node\'s connected peers: count, versions, benched chains.',
    tier: 'read',
    toolset: 'info',
    input: z.strictObject({
      nodeIDs: z.array(nodeId()).max(1000).optional().describe('Only these peers.'),
      offset: z.number().int().min(0).default(0).describe('Peers to skip.'),
      limit: z.number().int().min(1).max(200).default(20).describe('Peers to list; counts cover all.'),
    }),
    output: z.object({
      numPeers: z.string(),
      versions: z.record(z.string(), z.number()).describe('Peer count per version.'),
      benchedPeers: z.number(),
      benchedChains: z.array(z.string()),
      peers: z.array(Peer),
      offset: z.number(),
      hasMore: z.boolean(),
    }),
    request: { kind: 'rpc', endpoint: 'info', method: 'info.peers', params: (i) => (i.nodeIDs ? { nodeIDs: i.nodeIDs } : {}) },
    decode: async (raw, input, ctx) => {
      const r = raw as { numPeers?: unknown; peers?: unknown };
      const all = (Array.isArray(r.peers) ? r.peers : []).map((p: Record<string, unknown>) => ({
        nodeID: str(p.nodeID),
        ip: str(p.ip),
        publicIP: str(p.publicIP),
        version: str(p.version),
        lastSent: str(p.lastSent),
        lastReceived: str(p.lastReceived),
        benched: Array.isArray(p.benched) ? p.benched.map(str) : [],
        observedUptime: str(p.observedUptime),
      }));
      const versions: Record<string, number> = {};
      for (const p of all) versions[p.version || 'unknown'] = (versions[p.version || 'unknown'] ?? 0) + 1;
      // Peers report benched chains by ID; name the primary chains (asked only when a peer is benched).
      if (all.some((p) => p.benched.length)) {
        const names = await primaryChainNames(ctx);
        for (const p of all) p.benched = p.benched.map((id) => names.get(id) ?? id);
      }
      return {
        numPeers: (r.numPeers === undefined ? BigInt(all.length) : big(r.numPeers)).toString(),
        versions,
        benchedPeers: all.filter((p) => p.benched.length > 0).length,
        benchedChains: [...new Set(all.flatMap((p) => p.benched))],
        peers: all.slice(input.offset, input.offset + input.limit),
        offset: input.offset,
        hasMore: input.offset + input.limit < all.length,
      };
    },
    summarize: (o) =>
      [
        `${o.numPeers} peers connected; ${o.benchedPeers} benched${o.benchedPeers ? ` on ${o.benchedChains.join(', ')}` : ''}.`,
        `Versions: ${Object.entries(o.versions).sort((a, b) => b[1] - a[1]).map(([v, n]) => `${v} (${n})`).join(', ') || 'none'}.`,
        ...listLines(o.peers, 10, (p) => `${p.nodeID} ${p.version} at ${p.ip}${p.benched.length ? `, benched on ${p.benched.join(', ')}` : ''}`),
        ...(o.hasMore ? [`More peers: call again with offset ${o.offset + o.peers.length}.`] : []),
      ].join('\n'),
  }),
  defineTool({
    name: 'info_getTxFee',
    title: 'Transaction fees',
    description: 'Get the transaction fee and the asset creation fee.',
    tier: 'read',
    toolset: 'info',
    input: none,
    output: z.object({ txFee: AmountOut, creationTxFee: AmountOut }),
    request: rpc('info.getTxFee'),
    decode: async (raw, _input, ctx) => {
      const fees = readTxFees(raw);
      const network = await ctx.network().catch(() => ({ assetSymbol: '' }));
      return { txFee: nativeAmount(fees.txFee, network), creationTxFee: nativeAmount(fees.creationTxFee, network) };
    },
    summarize: (o) => `Transaction fee: ${o.txFee.display}. Asset creation fee: ${o.creationTxFee.display}.`,
  }),
  defineTool({
    name: 'info_uptime',
    title: 'Uptime as seen by peers',
    description: "Get this node's uptime as peers see it: share of stake counting it up, weighted average.",
    tier: 'read',
    toolset: 'info',
    input: none,
    output: z.object({ rewardingStakePercentage: z.string(), weightedAveragePercentage: z.string() }),
    request: rpc('info.uptime'),
    decode: (raw) => {
      const r = raw as Record<string, unknown>;
      return { rewardingStakePercentage: percent(r.rewardingStakePercentage), weightedAveragePercentage: percent(r.weightedAveragePercentage) };
    },
    summarize: (o) =>
      `${o.rewardingStakePercentage} % of stake sees this node above the uptime requirement; stake-weighted average uptime ${o.weightedAveragePercentage} %.`,
  }),
];

const NETWORK_NAMES: Record<string, string> = { '1000': 'main', '1001': 'test', '1002': 'dev', '12345': 'local' };

/** Node percentages are float64, sometimes sent as strings; keep them as short decimal text. */
function percent(value: unknown): string {
  const n = typeof value === 'number' ? value : Number(value);
  return Number.isFinite(n) ? String(Math.round(n * 10_000) / 10_000) : '0';
}
