import { readFileSync, writeFileSync } from 'node:fs';
import { PROMPT_INFO } from '../src/assistant/extras.js';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { CATALOGUE } from '../src/catalogue/index.js';
import type { ToolDef } from '../src/core/tool.js';
import { type Setting, SETTINGS } from '../src/settings.js';
import { VERSION } from '../src/version.js';

/**
 * Writes manifest.json (MCPB) from the catalogue: `npm run manifest`.
 * A test regenerates it in memory and fails when the checked-in file is stale.
 */

/** The newest manifest_version that @anthropic-ai/mcpb (pinned in devDependencies) validates. */
export const MANIFEST_VERSION = '0.4';
/** Where the server's entry lives inside the .mcpb, its chunks in server/chunks/ beside it (see tools/bundle.ts). */
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
 * The bundle's settings come from src/settings.ts (the rows with `bundle`), so the bundle, the
 * docs and `--help` cannot drift apart. Optional fields carry `default: ""` (or false): a host
 * that has no value for a field passes the literal `${user_config.x}` otherwise
 * (modelcontextprotocol/mcpb#250), and the server's configuration treats an empty variable as unset.
 */
export function userConfig(settings: readonly Setting[] = SETTINGS): Record<string, Record<string, unknown>> {
  return Object.fromEntries(
    settings.flatMap((s) => {
      if (!s.bundle) return [];
      const b = s.bundle;
      const field: Record<string, unknown> = {
        type: b.type,
        title: b.title,
        description: b.description ?? s.meaning,
        required: false,
        ...(b.sensitive || s.secret ? { sensitive: true } : {}),
        default: b.type === 'boolean' ? s.default === 'true' : s.env === 'CHAIN_MCP_NODE_URL' ? s.default : '',
      };
      return [[b.key, field]];
    }),
  );
}

/** `${name}`: a placeholder the host substitutes at install time. */
const ph = (name: string): string => '$' + `{${name}}`;

/** Each bundle setting's variable, filled from its field. */
export function bundleEnv(settings: readonly Setting[] = SETTINGS): Record<string, string> {
  return Object.fromEntries(settings.flatMap((s) => (s.bundle ? [[s.env, ph(`user_config.${s.bundle.key}`)]] : [])));
}

/**
 * server.json's (MCP Registry) variables: the same settings the one-click bundle offers, with
 * their bundle descriptions, so the two listings cannot disagree. No `runtimeHint`: the package is
 * not on the npm registry yet, and a host that reads one would run `npx chain-mcp` and fail.
 */
export function serverJsonEnv(settings: readonly Setting[] = SETTINGS): Array<Record<string, unknown>> {
  return settings.flatMap((s) => {
    if (!s.bundle) return [];
    return [
      {
        name: s.env,
        description: s.bundle.description ?? s.meaning,
        isRequired: false,
        ...(s.bundle.sensitive || s.secret ? { isSecret: true } : {}),
        ...(s.bundle.type === 'boolean' ? { default: s.default } : {}),
      },
    ];
  });
}

/** server.json with its identity (package.json's mcpName, name and version) and variables regenerated; the rest is kept as written. */
export function serverJsonText(current: string, pkg: PackageJson = readPackage()): string {
  const server = JSON.parse(current) as { name: string; version: string; packages: Array<Record<string, unknown>> };
  if (pkg.mcpName) server.name = pkg.mcpName;
  server.version = pkg.version;
  server.packages = server.packages.map(({ runtimeHint: _, ...p }) => ({ ...p, identifier: pkg.name, version: pkg.version, environmentVariables: serverJsonEnv() }));
  return `${JSON.stringify(server, null, 2)}\n`;
}

const PROMPTS = [
  {
    name: 'portfolio_report',
    description: PROMPT_INFO.portfolio_report.description,
    arguments: [...PROMPT_INFO.portfolio_report.args],
    text: `Report what ${ph('arguments.address')} holds on X, P and C (account_overview), in display units.`,
  },
  {
    name: 'validator_report',
    description: PROMPT_INFO.validator_report.description,
    arguments: [...PROMPT_INFO.validator_report.args],
    text: `Report on the validator ${ph('arguments.nodeID')} (validator_lookup).`,
  },
  {
    name: 'staking_options',
    description: PROMPT_INFO.staking_options.description,
    arguments: [...PROMPT_INFO.staking_options.args],
    text: 'Explain the staking options and the deposit offers active now (network_overview).',
  },
  {
    name: 'guarded_transfer',
    description: PROMPT_INFO.guarded_transfer.description,
    arguments: [...PROMPT_INFO.guarded_transfer.args],
    text: `Send ${ph('arguments.amount')} of the native asset to ${ph('arguments.to')} with transfer: preview first, execute only after I confirm.`,
  },
];

interface PackageJson {
  name: string;
  /** The MCP Registry name (server.json's `name`). */
  mcpName?: string;
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
      'Read-only by default. Spending tools appear only when you allow spending and a key signs: your own (chain-mcp key new or key import, in a terminal) or a keystore user on your node; each spend returns a preview and runs once only after you approve it.',
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
        env: bundleEnv(),
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
    user_config: userConfig(),
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
  const serverJson = resolve(process.cwd(), 'server.json');
  writeFileSync(serverJson, serverJsonText(readFileSync(serverJson, 'utf8')));
  process.stderr.write(`wrote ${out} (${CATALOGUE.length} tools)\n`);
}
