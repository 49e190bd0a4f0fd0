import type { ToolDef } from '../core/tool.js';
import { CONFIRMATION_TTL_MS } from '../confirm.js';
import { toChainMcpError } from '../errors.js';
import { makeContext } from '../registry/context.js';
import { parseInput, runOperation } from '../registry/operation.js';
import type { Services } from '../services.js';
import { outputFields, toolListing } from '../registry/listing.js';

/**
 * Contents of the MCP resources (the SDK wiring is in extras.ts). Everything read from
 * the node goes through catalogue operations, like the composite tools.
 */

export const RESOURCE_URIS = { network: 'chain://network', tools: 'chain://tools', limits: 'chain://limits' } as const;

/** Runs one read operation of the full catalogue (exposed or not) to its structured output. */
export async function readOperation(services: Services, name: string, args: Record<string, unknown> = {}): Promise<Record<string, unknown>> {
  const tool = await services.tool(name);
  if (tool?.tier !== 'read') throw new Error(`${name} is not a read operation of this build`);
  const input = parseInput(tool, tool.input, args);
  return (await runOperation(tool, input, makeContext(services, tool, {}))) as Record<string, unknown>;
}

const NETWORK_READS = ['info_getNetworkID', 'info_getNetworkName', 'info_getNodeVersion', 'info_getTxFee', 'platform_getConfiguration', 'platform_getHeight'];

/** chain://network: what network the node is on and its configuration, as JSON. Parts that fail are listed, not fatal. */
export async function networkResource(services: Services): Promise<string> {
  const tiers = await Promise.all(NETWORK_READS.map(async (name) => (await services.tool(name))?.tier));
  const present = NETWORK_READS.filter((_name, i) => tiers[i] === 'read');
  const settled = await Promise.allSettled(present.map((name) => readOperation(services, name)));
  const parts: Record<string, unknown> = {};
  const unavailable: Record<string, string> = {};
  settled.forEach((result, i) => {
    const name = present[i]!;
    if (result.status === 'fulfilled') parts[name] = result.value;
    else unavailable[name] = toChainMcpError(result.reason).message;
  });
  let network: unknown;
  try {
    network = await services.network();
  } catch (err) {
    unavailable['network'] = toChainMcpError(err).message;
  }
  let dialect: unknown;
  try {
    dialect = await services.dialect.get();
  } catch (err) {
    unavailable['dialect'] = toChainMcpError(err).message;
  }
  const body = {
    nodeUrl: redactUrl(services.config.nodeUrl),
    dialect,
    indexerConfigured: services.config.indexerUrl !== undefined,
    network,
    ...parts,
    ...(Object.keys(unavailable).length ? { unavailable } : {}),
  };
  return JSON.stringify(body, null, 2);
}

/** Credentials in a URL (user:pass@) never reach a result. */
function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.username || u.password) {
      u.username = '';
      u.password = '';
    }
    return u.toString().replace(/\/$/, '');
  } catch {
    return '(invalid URL)';
  }
}

interface JsonProperty {
  description?: string;
  type?: string | string[];
}

/** chain://tools: the exposed tools by toolset, with their parameters, as Markdown. */
export function toolsResource(exposed: readonly ToolDef[], catalogue: readonly ToolDef[]): string {
  const lines = ['# Tools of this server', ''];
  lines.push(
    'Tiers: read (queries), wallet (needs keystore credentials), spend (changes the chain; preview first, then confirm), admin (node operation and secrets).',
    'Amounts are integers in the smallest unit unless a parameter says otherwise; results add display units.',
    '',
  );
  const bySet = new Map<string, ToolDef[]>();
  for (const tool of exposed) bySet.set(tool.toolset, [...(bySet.get(tool.toolset) ?? []), tool]);
  for (const [set, tools] of bySet) {
    lines.push(`## ${set}`, '');
    for (const tool of tools) {
      lines.push(`- **${tool.name}** (${tool.tier}): ${tool.description}`);
      const schema = toolListing(tool).inputSchema as { properties?: Record<string, JsonProperty>; required?: string[] };
      const required = new Set(schema.required ?? []);
      for (const [field, prop] of Object.entries(schema.properties ?? {})) {
        lines.push(`  - \`${field}\`${required.has(field) ? ' (required)' : ''}: ${prop.description ?? ''}`.trimEnd());
      }
      lines.push(`  - returns: ${outputFields(tool).join(', ')}`);
    }
    lines.push('');
  }
  const hidden = catalogue.length - exposed.length;
  if (hidden > 0) {
    lines.push(`${hidden} more tools exist but are not exposed by this configuration (tiers, CHAIN_MCP_TOOLSETS, CHAIN_MCP_TOOLS, CHAIN_MCP_EXCLUDE_TOOLS).`);
  }
  return lines.join('\n');
}

/** chain://limits: the spec's limits and this server's own guards, as JSON. */
export function limitsResource(services: Services): string {
  const { config } = services;
  const body = {
    spec: {
      memoBytes: { max: 256, appliesTo: ['xvm_send', 'xvm_sendMultiple', 'wallet_send'] },
      nftPayloadBytes: { max: 1024, appliesTo: ['xvm_mintNFT'] },
      assetSymbolCharacters: { min: 0, max: 4 },
      utxoPageSize: { default: 1024, max: 1024, appliesTo: ['xvm_getUTXOs', 'cx_getUTXOs'] },
      addressTxsPageSize: { default: 1024, appliesTo: ['xvm_getAddressTxs'] },
      jsonRpcBatchItems: { max: 40 },
      keystoreUsernameCharacters: { max: 1024 },
      keystorePasswordCharacters: { max: 1024 },
      authTokenLifetimeHours: 12,
      validationPeriod: { min: '2 weeks', max: '1 year', appliesTo: ['platform_addValidator'] },
      delegationFeeRatePercent: { min: 0, max: 100, decimals: 4, networkMinimum: 2 },
      validatorStake: { testNetwork: '2000000000000', mainNetwork: '100000000000000', unit: 'smallest unit (10^-9 of the native asset)' },
      validatorTotalWeightCap: 'min(5 x own stake, 3,000,000 native units)',
      indexerListLimit: { default: 5000, max: 5000 },
      indexerCBlocksLimit: { max: 10000 },
      depositInterest: 'yearly rate = interestRateNominator / 1,000,000 (80000 = 8 %)',
    },
    server: {
      spendEnabled: config.allowSpend && config.keystore !== undefined,
      maxSpend: config.maxSpend?.toString() ?? null,
      allowedRecipients: config.allowedRecipients ?? null,
      expectNetworkId: config.expectNetworkId ?? null,
      confirmationValidSeconds: CONFIRMATION_TTL_MS / 1000,
      requestTimeoutMs: config.timeoutMs,
      resultTextBytes: config.maxOutputBytes,
    },
  };
  return JSON.stringify(body, null, 2);
}
