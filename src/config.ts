import { parseArgs } from 'node:util';
import { z } from 'zod';
import { TOOLSETS, type Toolset } from './core/toolsets.js';
import { parseWireSetting, type WireSetting } from './wire.js';

/** Thrown for configuration that cannot start the server; main prints `message` as one line. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

const boolText = z
  .enum(['true', 'false', '1', '0', 'yes', 'no', ''], { error: 'expected true or false' })
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

const url = (what: string) =>
  z
    .string()
    .trim()
    .refine((v) => {
      try {
        const u = new URL(v);
        return u.protocol === 'http:' || u.protocol === 'https:';
      } catch {
        return false;
      }
    }, `expected an http:// or https:// URL of the ${what}`)
    .transform((v) => v.replace(/\/+$/, ''));

const nameList = z
  .string()
  .transform((v) =>
    v
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
  );

const uint64Text = z
  .string()
  .trim()
  .regex(/^\d+$/, 'expected a whole number of the smallest unit (digits only)')
  .transform((v) => BigInt(v))
  .refine((v) => v < 2n ** 64n, 'expected a value that fits in 64 bits');

const toolsetList = nameList.superRefine((names, ctx) => {
  for (const name of names) {
    if (name !== 'all' && !(TOOLSETS as readonly string[]).includes(name)) {
      ctx.addIssue({ code: 'custom', message: `unknown toolset "${name}"; expected "all" or some of: ${TOOLSETS.join(', ')}` });
    }
  }
});

/** Environment variables (DESIGN section 1), each validated on its own so errors can name it. */
/** A result budget in bytes, given as a whole number of at least `min`. */
const byteBudget = (min: number, fallback: number) =>
  z
    .string()
    .regex(/^\d+$/, 'expected bytes as a whole number')
    .transform(Number)
    .refine((n) => n >= min, `expected at least ${min} bytes`)
    .default(fallback);

const envSchema = z.object({
  CHAIN_MCP_NODE_URL: url('node').default('http://127.0.0.1:9650'),
  CHAIN_MCP_INDEXER_URL: url('indexer').optional(),
  CHAIN_MCP_RUNNER_URL: url('network runner gateway').optional(),
  CHAIN_MCP_RUNNER_EXEC_PATH: z.string().min(1).optional(),
  CHAIN_MCP_AUTH_TOKEN: z.string().min(1, 'expected a non-empty token').optional(),
  CHAIN_MCP_AUTH_PASSWORD: z.string().min(1).max(1024, 'expected at most 1024 characters').optional(),
  CHAIN_MCP_KEYSTORE_USER: z.string().min(1).max(1024, 'expected at most 1024 characters').optional(),
  CHAIN_MCP_KEYSTORE_PASSWORD: z.string().min(1).max(1024, 'expected at most 1024 characters').optional(),
  CHAIN_MCP_ADMIN_SECRET: z.string().min(1).max(1024, 'expected at most 1024 characters').optional(),
  CHAIN_MCP_ALLOW_SPEND: boolText.default(false),
  CHAIN_MCP_ALLOW_ADMIN: boolText.default(false),
  CHAIN_MCP_DYNAMIC: boolText.default(false),
  CHAIN_MCP_TOOLSETS: toolsetList.optional(),
  CHAIN_MCP_TOOLS: nameList.optional(),
  CHAIN_MCP_EXCLUDE_TOOLS: nameList.optional(),
  CHAIN_MCP_MAX_SPEND: uint64Text.optional(),
  CHAIN_MCP_MAX_SPEND_PER_DAY: uint64Text.optional(),
  CHAIN_MCP_ALLOWED_RECIPIENTS: nameList.optional(),
  CHAIN_MCP_EXPECT_NETWORK_ID: z.string().trim().regex(/^\d+$/, 'expected a network ID such as 1000').optional(),
  CHAIN_MCP_TIMEOUT_MS: z
    .string()
    .trim()
    .regex(/^\d+$/, 'expected milliseconds as a whole number')
    .transform(Number)
    .refine((n) => n >= 100 && n <= 600_000, 'expected between 100 and 600000 milliseconds')
    .default(15_000),
  CHAIN_MCP_LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  CHAIN_MCP_MAX_OUTPUT_BYTES: byteBudget(1024, 8192),
  CHAIN_MCP_MAX_STRUCTURED_BYTES: byteBudget(4096, 65_536),
  CHAIN_MCP_WIRE_NAMES: z.string().optional(),
  CHAIN_MCP_APPROVAL: z.enum(['human', 'confirm-id']).default('human'),
  CHAIN_MCP_APPROVAL_WAIT_MS: z
    .string()
    .regex(/^\d+$/, 'expected milliseconds as a whole number')
    .transform(Number)
    .refine((n) => n <= 300_000, 'expected at most 300000 milliseconds (the approval expires after 5 minutes)')
    .default(60_000),
});

export interface Config {
  nodeUrl: string;
  indexerUrl?: string;
  runnerUrl?: string;
  runnerExecPath?: string;
  authToken?: string;
  authPassword?: string;
  keystore?: { username: string; password: string };
  /** The node's admin API secret, sent as the `secret` param of admin calls (never in a schema, log or result). */
  adminSecret?: string;
  allowSpend: boolean;
  allowAdmin: boolean;
  /** Start with the assistant tools and the discovery tools; each session enables toolsets on demand. */
  dynamic: boolean;
  toolsets: ReadonlySet<Toolset>;
  tools?: ReadonlySet<string>;
  excludeTools: ReadonlySet<string>;
  maxSpend?: bigint;
  /** Rolling 24 h total of everything sent, fees included, smallest unit (src/spend/ledger.ts). */
  maxSpendPerDay?: bigint;
  allowedRecipients?: readonly string[];
  expectNetworkId?: string;
  timeoutMs: number;
  logLevel: string;
  maxOutputBytes: number;
  /**
   * `human`: a spend is sent only after the human approved that exact preview through a channel
   * the model cannot drive (src/approval). `confirm-id`: the model's confirm call alone sends.
   */
  approval: 'human' | 'confirm-id';
  /** How long a confirm call waits for the approval page when the client has no way to ask the human. */
  approvalWaitMs: number;
  /** Budget for one result's structuredContent; lists lose whole items from their end to fit. */
  maxStructuredBytes: number;
  /** CHAIN_MCP_WIRE_NAMES: `auto` learns the node's names on first use (src/context/dialect.ts). */
  wire: WireSetting;
  /** Values that must never appear in a log line, an error or a tool result. */
  secrets: readonly string[];
}

export interface Cli {
  help: boolean;
  version: boolean;
  http: boolean;
  port: number;
  devnet: boolean;
  /** `--check`: diagnose the configured node and indexer, print a report, exit (npm run doctor). */
  check: boolean;
}

/** CLI flags map onto the same variable names, so one schema validates both. */
const FLAG_TO_ENV: Record<string, string> = {
  'node-url': 'CHAIN_MCP_NODE_URL',
  'indexer-url': 'CHAIN_MCP_INDEXER_URL',
  'runner-url': 'CHAIN_MCP_RUNNER_URL',
  toolsets: 'CHAIN_MCP_TOOLSETS',
  tools: 'CHAIN_MCP_TOOLS',
  'exclude-tools': 'CHAIN_MCP_EXCLUDE_TOOLS',
  'log-level': 'CHAIN_MCP_LOG_LEVEL',
  'timeout-ms': 'CHAIN_MCP_TIMEOUT_MS',
  'max-spend': 'CHAIN_MCP_MAX_SPEND',
  'max-spend-per-day': 'CHAIN_MCP_MAX_SPEND_PER_DAY',
  'expect-network-id': 'CHAIN_MCP_EXPECT_NETWORK_ID',
};

export const HELP = `chain-mcp: MCP server for a blockchain node and its indexer

Usage: chain-mcp [--http [--port N]] [--devnet] [options]

  (no flags)            serve MCP on stdio
  --http                serve Streamable HTTP on 127.0.0.1 (path /mcp)
  --port N              HTTP port (default 3000)
  --check               check the node and indexer setup, print what works and why not, exit
  --devnet              start the bundled simulator and point the server at it
                        (real Camino names; CHAIN_MCP_DEVNET_DIALECT=spec for the spec's)
  --node-url URL        CHAIN_MCP_NODE_URL (default http://127.0.0.1:9650)
  --indexer-url URL     CHAIN_MCP_INDEXER_URL
  --runner-url URL      CHAIN_MCP_RUNNER_URL
  --toolsets a,b        CHAIN_MCP_TOOLSETS (default all)
  --tools a,b           CHAIN_MCP_TOOLS
  --exclude-tools a,b   CHAIN_MCP_EXCLUDE_TOOLS
  --allow-spend         CHAIN_MCP_ALLOW_SPEND=true
  --allow-admin         CHAIN_MCP_ALLOW_ADMIN=true
  --dynamic             CHAIN_MCP_DYNAMIC=true: start with a few tools, enable toolsets on demand
  --max-spend N         CHAIN_MCP_MAX_SPEND: cap of one spend, smallest unit
  --max-spend-per-day N CHAIN_MCP_MAX_SPEND_PER_DAY: rolling 24 h total, fees included
  --timeout-ms N        CHAIN_MCP_TIMEOUT_MS (default 15000)
  --log-level L         CHAIN_MCP_LOG_LEVEL (default info; logs go to stderr)
  CHAIN_MCP_WIRE_NAMES  auto (default: learn the node's names), spec, camino, or key=value pairs
  --help, --version

Secrets (auth token and password, keystore user and password) are read from the
environment only. See README.md for every variable.`;

export function parseCli(argv: readonly string[], env: NodeJS.ProcessEnv): { cli: Cli; env: NodeJS.ProcessEnv } {
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({
      args: [...argv],
      strict: true,
      allowPositionals: false,
      options: {
        help: { type: 'boolean', short: 'h' },
        version: { type: 'boolean', short: 'v' },
        http: { type: 'boolean' },
        port: { type: 'string' },
        devnet: { type: 'boolean' },
        check: { type: 'boolean' },
        'allow-spend': { type: 'boolean' },
        'allow-admin': { type: 'boolean' },
        dynamic: { type: 'boolean' },
        ...Object.fromEntries(Object.keys(FLAG_TO_ENV).map((k) => [k, { type: 'string' as const }])),
      },
    });
  } catch (err) {
    throw new ConfigError(`${(err as Error).message}; see chain-mcp --help`);
  }
  const values = parsed.values as Record<string, string | boolean | undefined>;
  const merged: NodeJS.ProcessEnv = { ...env };
  for (const [flag, name] of Object.entries(FLAG_TO_ENV)) {
    const value = values[flag];
    if (typeof value === 'string') merged[name] = value;
  }
  if (values['allow-spend']) merged.CHAIN_MCP_ALLOW_SPEND = 'true';
  if (values['allow-admin']) merged.CHAIN_MCP_ALLOW_ADMIN = 'true';
  if (values.dynamic) merged.CHAIN_MCP_DYNAMIC = 'true';
  let port = 3000;
  if (typeof values.port === 'string') {
    port = Number(values.port);
    if (!/^\d+$/.test(values.port) || port > 65535) throw new ConfigError(`--port: expected a port number 0-65535, got "${values.port}"`);
  }
  return {
    cli: {
      help: values.help === true,
      version: values.version === true,
      http: values.http === true,
      port,
      devnet: values.devnet === true,
      check: values.check === true,
    },
    env: merged,
  };
}

/** Parses and validates the environment; throws ConfigError naming the first bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv): Config {
  // An unfilled MCPB placeholder ("${user_config.x}") means the user left the field empty.
  const given = (k: string) => env[k] !== undefined && !/^\$\{[^}]*\}$/.test(env[k] ?? '');
  const relevant = Object.fromEntries(
    Object.keys(envSchema.shape)
      .filter((k) => given(k) && (env[k] !== '' || k === 'CHAIN_MCP_ALLOW_SPEND' || k === 'CHAIN_MCP_ALLOW_ADMIN' || k === 'CHAIN_MCP_DYNAMIC'))
      .map((k) => [k, env[k]]),
  );
  const result = envSchema.safeParse(relevant);
  if (!result.success) {
    const issue = result.error.issues[0]!;
    const name = String(issue.path[0] ?? 'configuration');
    const shown = name.includes('PASSWORD') || name.includes('TOKEN') || name.includes('SECRET') ? '' : ` (got "${String(env[name] ?? '')}")`;
    const message =
      issue.code === 'invalid_value' && issue.message.startsWith('Invalid') ? `expected one of ${issue.values.join(', ')}` : issue.message;
    throw new ConfigError(`${name}: ${message}${shown}`);
  }
  const e = result.data;
  if ((e.CHAIN_MCP_KEYSTORE_USER === undefined) !== (e.CHAIN_MCP_KEYSTORE_PASSWORD === undefined)) {
    throw new ConfigError('CHAIN_MCP_KEYSTORE_USER and CHAIN_MCP_KEYSTORE_PASSWORD: set both or neither');
  }
  let wire: WireSetting;
  try {
    wire = parseWireSetting(e.CHAIN_MCP_WIRE_NAMES);
  } catch (err) {
    throw new ConfigError(`CHAIN_MCP_WIRE_NAMES: ${(err as Error).message}`);
  }
  const toolsetNames = e.CHAIN_MCP_TOOLSETS;
  const toolsets = new Set<Toolset>(
    !toolsetNames || toolsetNames.length === 0 || toolsetNames.includes('all') ? TOOLSETS : (toolsetNames as Toolset[]),
  );
  const secrets = [e.CHAIN_MCP_AUTH_TOKEN, e.CHAIN_MCP_AUTH_PASSWORD, e.CHAIN_MCP_KEYSTORE_PASSWORD, e.CHAIN_MCP_ADMIN_SECRET].filter(
    (s): s is string => typeof s === 'string' && s.length >= 4,
  );
  return {
    nodeUrl: e.CHAIN_MCP_NODE_URL,
    indexerUrl: e.CHAIN_MCP_INDEXER_URL,
    runnerUrl: e.CHAIN_MCP_RUNNER_URL,
    runnerExecPath: e.CHAIN_MCP_RUNNER_EXEC_PATH,
    authToken: e.CHAIN_MCP_AUTH_TOKEN,
    authPassword: e.CHAIN_MCP_AUTH_PASSWORD,
    keystore:
      e.CHAIN_MCP_KEYSTORE_USER && e.CHAIN_MCP_KEYSTORE_PASSWORD
        ? { username: e.CHAIN_MCP_KEYSTORE_USER, password: e.CHAIN_MCP_KEYSTORE_PASSWORD }
        : undefined,
    adminSecret: e.CHAIN_MCP_ADMIN_SECRET,
    allowSpend: e.CHAIN_MCP_ALLOW_SPEND,
    allowAdmin: e.CHAIN_MCP_ALLOW_ADMIN,
    dynamic: e.CHAIN_MCP_DYNAMIC,
    toolsets,
    tools: e.CHAIN_MCP_TOOLS && e.CHAIN_MCP_TOOLS.length > 0 ? new Set(e.CHAIN_MCP_TOOLS) : undefined,
    excludeTools: new Set(e.CHAIN_MCP_EXCLUDE_TOOLS ?? []),
    maxSpend: e.CHAIN_MCP_MAX_SPEND,
    maxSpendPerDay: e.CHAIN_MCP_MAX_SPEND_PER_DAY,
    allowedRecipients: e.CHAIN_MCP_ALLOWED_RECIPIENTS,
    expectNetworkId: e.CHAIN_MCP_EXPECT_NETWORK_ID,
    timeoutMs: e.CHAIN_MCP_TIMEOUT_MS,
    logLevel: e.CHAIN_MCP_LOG_LEVEL,
    maxOutputBytes: e.CHAIN_MCP_MAX_OUTPUT_BYTES,
    maxStructuredBytes: e.CHAIN_MCP_MAX_STRUCTURED_BYTES,
    approval: e.CHAIN_MCP_APPROVAL,
    approvalWaitMs: e.CHAIN_MCP_APPROVAL_WAIT_MS,
    wire,
    secrets,
  };
}
