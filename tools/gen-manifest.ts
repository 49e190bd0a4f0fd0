import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { CATALOGUE } from '../src/catalogue/index.js';
import type { ToolDef } from '../src/core/tool.js';
import { TOOLSETS } from '../src/core/toolsets.js';
import { VERSION } from '../src/version.js';

/**
 * Writes manifest.json (MCPB) from the catalogue: `npm run manifest`.
 * A test regenerates it in memory and fails when the checked-in file is stale.
 */

/** The newest manifest_version that @anthropic-ai/mcpb (pinned in devDependencies) validates. */
export const MANIFEST_VERSION = '0.4';
/** Where the single-file bundle lives inside the .mcpb (see tools/bundle.ts). */
export const BUNDLE_ENTRY = 'server/index.mjs';
/** The bundle's icon, copied from the repository root into the .mcpb next to manifest.json. */
export const ICON = 'icon.png';

const TIER_NOTE: Record<ToolDef['tier'], string> = {
  read: '',
  wallet: ' (wallet tier: needs the keystore user)',
  spend: ' (spend tier: off unless spending is allowed; preview, then confirm)',
  admin: ' (admin tier: off unless CHAIN_MCP_ALLOW_ADMIN=true)',
};

/**
 * Optional fields carry `default: ""`: a host that has no value for a field passes the
 * literal `${user_config.x}` otherwise (modelcontextprotocol/mcpb#250), and the server's
 * configuration treats an empty variable as unset.
 */
const USER_CONFIG = {
  node_url: {
    type: 'string',
    title: 'Node URL',
    description: 'Base URL of the node API, e.g. http://127.0.0.1:9650 or https://api.example.org.',
    required: false,
    default: 'http://127.0.0.1:9650',
  },
  indexer_url: {
    type: 'string',
    title: 'Indexer URL',
    description: 'Base URL of the indexer (history, search). Leave empty if you have none; the indexer tools then say it is not configured.',
    required: false,
    default: '',
  },
  auth_token: {
    type: 'string',
    title: 'API auth token',
    description: 'Bearer token for a node started with --api-auth-required. Leave empty otherwise.',
    required: false,
    sensitive: true,
    default: '',
  },
  keystore_user: {
    type: 'string',
    title: 'Keystore user',
    description: 'Keystore user on the node whose keys sign transfers and other spends. Leave empty for read-only use.',
    required: false,
    sensitive: true,
    default: '',
  },
  keystore_password: {
    type: 'string',
    title: 'Keystore password',
    description: 'Password of that keystore user. It stays in the server environment and never passes through the chat.',
    required: false,
    sensitive: true,
    default: '',
  },
  allow_spend: {
    type: 'boolean',
    title: 'Allow spending',
    description: 'Expose the tools that send value (needs the keystore user). Every spend still shows a preview and needs your confirmation.',
    required: false,
    default: false,
  },
  max_spend: {
    type: 'string',
    title: 'Most one spend may send',
    description: 'Cap for one spend, in the smallest unit of the native asset (1 unit = 10^9), e.g. 5000000000 for 5. Empty: no cap.',
    required: false,
    default: '',
  },
  max_spend_per_day: {
    type: 'string',
    title: 'Most all spends may send in 24 hours',
    description: 'Rolling 24-hour total of everything sent, fees included, in the smallest unit. Empty: no daily cap.',
    required: false,
    default: '',
  },
  allowed_recipients: {
    type: 'string',
    title: 'Allowed recipients',
    description: 'Comma list of addresses that spends may go to; any other recipient is refused. Empty: any address.',
    required: false,
    default: '',
  },
  expect_network_id: {
    type: 'string',
    title: 'Expected network ID',
    description: 'Refuse every spend unless the node is on this network, e.g. 1000 (Camino) or 1001 (Columbus). Empty: no check.',
    required: false,
    default: '',
  },
  toolsets: {
    type: 'string',
    title: 'Toolsets',
    description: `Comma list of toolsets to expose, empty for all: ${TOOLSETS.join(', ')}. Fewer toolsets cost the assistant less context.`,
    required: false,
    default: '',
  },
} as const;

/** `${name}`: a placeholder the host substitutes at install time. */
const ph = (name: string): string => '$' + `{${name}}`;

const ENV = {
  CHAIN_MCP_NODE_URL: ph('user_config.node_url'),
  CHAIN_MCP_INDEXER_URL: ph('user_config.indexer_url'),
  CHAIN_MCP_AUTH_TOKEN: ph('user_config.auth_token'),
  CHAIN_MCP_KEYSTORE_USER: ph('user_config.keystore_user'),
  CHAIN_MCP_KEYSTORE_PASSWORD: ph('user_config.keystore_password'),
  CHAIN_MCP_ALLOW_SPEND: ph('user_config.allow_spend'),
  CHAIN_MCP_MAX_SPEND: ph('user_config.max_spend'),
  CHAIN_MCP_MAX_SPEND_PER_DAY: ph('user_config.max_spend_per_day'),
  CHAIN_MCP_ALLOWED_RECIPIENTS: ph('user_config.allowed_recipients'),
  CHAIN_MCP_EXPECT_NETWORK_ID: ph('user_config.expect_network_id'),
  CHAIN_MCP_TOOLSETS: ph('user_config.toolsets'),
};

const PROMPTS = [
  {
    name: 'portfolio_report',
    description: 'What an address holds on X, P and C, in display units.',
    arguments: ['address'],
    text: `Report what ${ph('arguments.address')} holds on X, P and C (account_overview), in display units.`,
  },
  {
    name: 'validator_report',
    description: "A validator's period, stake, uptime, delegators and reward owner.",
    arguments: ['nodeID'],
    text: `Report on the validator ${ph('arguments.nodeID')} (validator_lookup).`,
  },
  {
    name: 'staking_options',
    description: 'Minimum stakes, staking periods and the deposit offers active now.',
    arguments: [],
    text: 'Explain the staking options and the deposit offers active now (network_overview).',
  },
  {
    name: 'guarded_transfer',
    description: 'Send the native asset with a preview and your explicit confirmation.',
    arguments: ['to', 'amount'],
    text: `Send ${ph('arguments.amount')} of the native asset to ${ph('arguments.to')} with transfer: preview first, execute only after I confirm.`,
  },
];

interface PackageJson {
  name: string;
  version: string;
  description: string;
  license?: string;
}

export function buildManifest(catalogue: readonly ToolDef[] = CATALOGUE, pkg: PackageJson = readPackage()): Record<string, unknown> {
  return {
    manifest_version: MANIFEST_VERSION,
    name: pkg.name,
    display_name: 'Blockchain node (chain-mcp)',
    version: VERSION,
    description: 'Ask a blockchain node and its indexer questions in plain words; guarded transfers with your confirmation.',
    long_description: [
      pkg.description,
      '',
      'Read-only by default. Spending tools appear only when you allow spending and give a keystore user; each spend returns a preview and runs once only after you confirm it.',
      'Credentials stay in the server environment and never pass through the chat.',
    ].join('\n'),
    author: { name: 'chain-mcp contributors' },
    icon: ICON,
    license: pkg.license ?? 'MIT',
    keywords: ['blockchain', 'node', 'validators', 'staking', 'indexer', 'mcp'],
    server: {
      type: 'node',
      entry_point: BUNDLE_ENTRY,
      mcp_config: {
        command: 'node',
        args: [`${ph('__dirname')}/${BUNDLE_ENTRY}`],
        env: ENV,
      },
    },
    tools: catalogue.map((tool) => ({ name: tool.name, description: tool.description + TIER_NOTE[tool.tier] })),
    tools_generated: true,
    prompts: PROMPTS,
    prompts_generated: true,
    compatibility: {
      platforms: ['darwin', 'win32', 'linux'],
      runtimes: { node: '>=20.0.0' },
    },
    user_config: USER_CONFIG,
  };
}

function readPackage(): PackageJson {
  return JSON.parse(readFileSync(resolve(process.cwd(), 'package.json'), 'utf8')) as PackageJson;
}

export function manifestText(catalogue: readonly ToolDef[] = CATALOGUE): string {
  return `${JSON.stringify(buildManifest(catalogue), null, 2)}\n`;
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const out = resolve(process.cwd(), process.argv[2] ?? 'manifest.json');
  writeFileSync(out, manifestText());
  process.stderr.write(`wrote ${out} (${CATALOGUE.length} tools)\n`);
}
