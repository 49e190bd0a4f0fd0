import { existsSync, readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { isHexAddress, parseChainAddress, parseUnits } from './codec/index.js';
import { nearest } from './core/nearest.js';
import { openModeTrouble, unreadableTrouble, windowsPathTrouble } from './core/files.js';
import { DEFAULT_OFF, TOOLSETS, type Toolset } from './core/toolsets.js';
import { parseWireSetting, type WireSetting } from './wire.js';
import type { Config, StateSetting } from './core/config.js';

export type { Config, StateSetting };

/** chain-mcp's folder in the user's configuration directory (XDG_CONFIG_HOME, %APPDATA%, ~/.config). */
function configDir(env: NodeJS.ProcessEnv): string {
  const base = env.XDG_CONFIG_HOME || (process.platform === 'win32' && env.APPDATA ? env.APPDATA : join(homedir(), '.config'));
  return join(base, 'chain-mcp');
}

/** Where `chain-mcp passkey add` stores the operator's passkey (CHAIN_MCP_PASSKEY_FILE overrides). */
export function defaultPasskeyFile(env: NodeJS.ProcessEnv = process.env): string {
  return join(configDir(env), 'passkeys.json');
}

/** Where `chain-mcp key new` / `key import` write the encrypted key (CHAIN_MCP_KEY_FILE overrides). */
export function defaultKeyFile(env: NodeJS.ProcessEnv = process.env): string {
  return join(configDir(env), 'key.json');
}

/** The key file chain-mcp uses under `env`. */
export function keyFilePath(env: NodeJS.ProcessEnv = process.env): string {
  return env.CHAIN_MCP_KEY_FILE?.trim() || defaultKeyFile(env);
}

/**
 * Secrets that may come from a file instead of the environment (`/proc/<pid>/environ` is readable
 * by every process of the same OS user; a file can be readable by chain-mcp's own user only).
 */
export const SECRET_FILES = ['CHAIN_MCP_KEYSTORE_PASSWORD', 'CHAIN_MCP_AUTH_PASSWORD', 'CHAIN_MCP_AUTH_TOKEN', 'CHAIN_MCP_STATE_KEY', 'CHAIN_MCP_STATE'] as const;

/** Settings that name a file chain-mcp reads or writes: each is checked for a Windows path on POSIX. */
const PATH_SETTINGS = ['CHAIN_MCP_KEY_FILE', 'CHAIN_MCP_KEY_PASSPHRASE_FILE', 'CHAIN_MCP_PASSKEY_FILE', ...SECRET_FILES.map((n) => `${n}_FILE`)];

/** A secret file's text without one trailing newline (what `echo secret > file` adds). */
function readSecretFile(variable: string, path: string): string {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new ConfigError(unreadableTrouble(variable, path) ?? `${variable}: cannot read ${path} (${code === 'ENOENT' ? 'no such file' : (code ?? 'error')})`);
  }
  return text.replace(/\r?\n$/, '');
}

/**
 * Moves each `<SECRET>_FILE`'s content into `<SECRET>` of a copy of `env`, and says which secrets
 * came from the environment itself. Both set is refused: which one wins would be a guess.
 */
function secretsFromFiles(env: NodeJS.ProcessEnv, given: (k: string) => boolean): { env: NodeJS.ProcessEnv; fromEnv: string[] } {
  const out = { ...env };
  const fromEnv: string[] = [];
  for (const name of SECRET_FILES) {
    const file = `${name}_FILE`;
    const hasFile = given(file) && env[file]?.trim() !== '';
    const hasValue = given(name) && env[name] !== '';
    if (hasFile && hasValue) throw new ConfigError(`${name} and ${file}: set one, not both`);
    if (hasFile) out[name] = readSecretFile(file, (env[file] ?? '').trim());
    else if (hasValue) fromEnv.push(name);
    delete out[file];
  }
  return { env: out, fromEnv };
}

/** CHAIN_MCP_STATE: where the state that guards money lives (src/state/). */

/** Parses CHAIN_MCP_STATE; a postgres URL is never echoed (it may hold a password). */
export function parseStateSetting(text: string): StateSetting {
  const value = text.trim();
  if (value === 'memory') return { kind: 'memory' };
  if (value.startsWith('sqlite:')) {
    const file = value.slice('sqlite:'.length);
    if (file === '') throw new ConfigError('CHAIN_MCP_STATE: sqlite: needs a file, as in sqlite:/var/lib/chain-mcp/state.db');
    const windows = windowsPathTrouble('CHAIN_MCP_STATE', file);
    if (windows) throw new ConfigError(windows);
    return { kind: 'sqlite', file: resolve(file) };
  }
  if (/^postgres(ql)?:\/\//.test(value)) {
    try {
      new URL(value);
    } catch {
      throw new ConfigError('CHAIN_MCP_STATE: the postgres:// URL does not parse (postgres://user:password@host:5432/database)');
    }
    return { kind: 'postgres', url: value };
  }
  throw new ConfigError(`CHAIN_MCP_STATE: expected memory, sqlite:<file> or postgres://user:password@host:5432/database (got "${value.slice(0, 40)}")`);
}

/**
 * A node URL that ends in one API's path (`…/ext/bc/C/rpc`, `…/ext/info`): chain-mcp adds each
 * API's path to the base URL, so the calls would go to `…/ext/bc/C/rpc/ext/info`. Only the origin
 * is shown (the URL may hold credentials).
 */
function apiPathTrouble(text: string | undefined): string | undefined {
  let u: URL;
  try {
    u = new URL((text ?? '').trim());
  } catch {
    return undefined;
  }
  const at = u.pathname.search(/\/ext(\/|$)/);
  if (at < 0) return undefined;
  const base = `${u.origin}${u.pathname.slice(0, at)}`;
  return `CHAIN_MCP_NODE_URL: ${u.pathname.slice(at)} is the path of one of the node's APIs; give the node's base URL, ${base}, and chain-mcp adds each API's path itself`;
}

/**
 * Files that hold secrets and that other users may read (the key file, each `*_FILE`, a SQLite
 * state file): one warning each, with the chmod that fixes it. Printed at start and by --check.
 */
export function fileWarnings(config: Config, rawEnv: NodeJS.ProcessEnv): string[] {
  const files: Array<[string, string | undefined]> = [
    ['CHAIN_MCP_KEY_FILE', config.signer === 'local' ? config.keyFile : undefined],
    ['CHAIN_MCP_KEY_PASSPHRASE_FILE', config.keyPassphraseFile],
    ...SECRET_FILES.map((n) => [`${n}_FILE`, rawEnv[`${n}_FILE`]?.trim() || undefined] as [string, string | undefined]),
    ['CHAIN_MCP_STATE', config.state.kind === 'sqlite' ? config.state.file : undefined],
  ];
  return files.flatMap(([name, path]) => {
    const line = path ? openModeTrouble(name, path) : undefined;
    return line ? [line] : [];
  });
}

/** Thrown for configuration that cannot start the server; main prints `message` as one line. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

const boolText = () =>
  z
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

const nameList = () =>
  z.string().transform((v) =>
    v
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
  );

/** The native asset's display unit on every Camino network: 1 CAM = 10^9 nCAM. */
const NATIVE_DECIMALS = 9;
const UNIT_NOTE = '1 CAM = 1000000000 nCAM';

/**
 * An amount limit: nCAM digits (`1500000000`), or a display amount with its unit (`1.5 CAM`,
 * `1500000000 nCAM`). The node is not asked at start, so only the native asset's units are known.
 */
const amountLimit = () =>
  z
    .string()
    .trim()
    .transform((v, ctx) => {
      const m = /^(\d+(?:\.\d+)?)\s*(CAM|nCAM)?$/i.exec(v);
      const unit = m?.[2]?.toLowerCase();
      if (!m || (unit !== 'cam' && m[1]!.includes('.'))) {
        ctx.addIssue({ code: 'custom', message: `expected nCAM digits or a display amount such as "1.5 CAM" (${UNIT_NOTE})` });
        return z.NEVER;
      }
      try {
        return unit === 'cam' ? parseUnits(m[1]!, NATIVE_DECIMALS) : BigInt(m[1]!);
      } catch {
        ctx.addIssue({ code: 'custom', message: `expected at most 9 decimals of CAM (${UNIT_NOTE})` });
        return z.NEVER;
      }
    })
    .refine((v) => v < 2n ** 64n, 'expected a value that fits in 64 bits');

/** `; did you mean "x"?` when a real name is close to the typo, else nothing. */
function didYouMean(typo: string, names: Iterable<string>): string {
  const near = nearest(typo, names);
  return near === undefined ? '' : `; did you mean "${near}"?`;
}

/** Issues whose message already quotes the bad entry: the whole value is not repeated after it. */
const NAMED = { named: true } as const;

const toolsetList = () =>
  nameList().superRefine((names, ctx) => {
    for (const name of names) {
      if (name !== 'all' && !(TOOLSETS as readonly string[]).includes(name)) {
        ctx.addIssue({
          code: 'custom',
          params: NAMED,
          message: `unknown toolset "${name}"${didYouMean(name, TOOLSETS)} (expected "all" or some of: ${TOOLSETS.join(', ')})`,
        });
      }
    }
  });

/**
 * Recipients as the spend guard compares them (spend/guard.ts): a chain address with its
 * X-/P-/C- prefix and a valid bech32 checksum, or a 0x EVM address. An entry in any other
 * form could never match a recipient, so the allow-list would silently refuse everything.
 */
const recipientList = () =>
  nameList().superRefine((entries, ctx) => {
    for (const entry of entries) {
      if (isHexAddress(entry)) continue;
      try {
        parseChainAddress(entry);
      } catch (err) {
        const why = /^0x/i.test(entry) ? 'expected 0x and 40 hex digits' : (err as Error).message;
        ctx.addIssue({ code: 'custom', params: NAMED, message: `"${entry}" is not an address: ${why}` });
        return;
      }
    }
  });

/** Environment variables (DESIGN section 1), each validated on its own so errors can name it. */
/** A result budget in bytes, given as a whole number of at least `min`. */
const byteBudget = (min: number) =>
  z
    .string()
    .regex(/^\d+$/, 'expected bytes as a whole number')
    .transform(Number)
    .refine((n) => n >= min, `expected at least ${min} bytes`);

/**
 * Secrets are masked wherever they could show (src/redact.ts); one shorter than this would
 * match ordinary text, so it could be neither masked reliably nor told from a guess.
 */
export const MIN_SECRET_CHARS = 8;
const secretText = (min = MIN_SECRET_CHARS) =>
  z
    .string()
    .min(min, `expected at least ${min} characters (a shorter secret cannot be redacted reliably)`)
    .max(1024, 'expected at most 1024 characters');

/** One CHAIN_MCP_TRUSTED_PROXIES entry: an IP address, or a network as address/prefix length. */
function proxyEntry(entry: string): boolean {
  const [address = '', prefix, extra] = entry.split('/');
  const version = isIP(address);
  if (version === 0 || extra !== undefined) return false;
  return prefix === undefined || (/^\d{1,3}$/.test(prefix) && Number(prefix) <= (version === 4 ? 32 : 128));
}

const wholeNumber = (what: string, min: number, max: number) =>
  z
    .string()
    .trim()
    .regex(/^\d+$/, `expected ${what} as a whole number`)
    .transform(Number)
    .refine((n) => n >= min && n <= max, `expected ${what} between ${min} and ${max}`);

/** `60/min` as points per duration in seconds (rate-limiter-flexible's terms). */
function parseRate(text: string): { points: number; seconds: number; text: string } {
  const [count, unit] = text.split('/') as [string, string];
  const seconds = unit.startsWith('s') ? 1 : unit === 'min' ? 60 : 3600;
  return { points: Number(count), seconds, text };
}

/**
 * Each variable's schema, built only when the variable is set: a start sets a few of these, and
 * building and first running all of them cost a start about 8 ms (docs/benchmarks.md, "Cold start").
 * An unset variable takes its value from ENV_DEFAULTS, or stays undefined.
 */
const ENV_FIELDS = {
  CHAIN_MCP_NODE_URL: () => url('node'),
  CHAIN_MCP_INDEXER_URL: () => url('indexer'),
  CHAIN_MCP_RUNNER_URL: () => url('network runner gateway'),
  CHAIN_MCP_RUNNER_EXEC_PATH: () => z.string().min(1),
  CHAIN_MCP_AUTH_TOKEN: () => secretText(),
  CHAIN_MCP_AUTH_PASSWORD: () => secretText(),
  CHAIN_MCP_KEYSTORE_USER: () => z.string().min(1).max(1024, 'expected at most 1024 characters'),
  CHAIN_MCP_KEYSTORE_PASSWORD: () => secretText(),
  CHAIN_MCP_ADMIN_SECRET: () => secretText(),
  // A bearer token guards every MCP call over --http: long enough not to be guessed.
  CHAIN_MCP_HTTP_TOKEN: () => secretText(16),
  CHAIN_MCP_HTTP_IDLE_MS: () => wholeNumber('milliseconds', 1000, 86_400_000),
  CHAIN_MCP_HTTP_MAX_SESSIONS: () => wholeNumber('a session count', 1, 10_000),
  CHAIN_MCP_ALLOW_SPEND: () => boolText(),
  CHAIN_MCP_ALLOW_ADMIN: () => boolText(),
  CHAIN_MCP_DYNAMIC: () => boolText(),
  CHAIN_MCP_TOOLSETS: () => toolsetList(),
  CHAIN_MCP_TOOLS: () => nameList(),
  CHAIN_MCP_EXCLUDE_TOOLS: () => nameList(),
  CHAIN_MCP_MAX_SPEND: () => amountLimit(),
  CHAIN_MCP_MAX_SPEND_PER_DAY: () => amountLimit(),
  CHAIN_MCP_ALLOWED_RECIPIENTS: () => recipientList(),
  CHAIN_MCP_EXPECT_NETWORK_ID: () => z.string().trim().regex(/^\d+$/, 'expected a network ID such as 1000'),
  CHAIN_MCP_TIMEOUT_MS: () =>
    z
      .string()
      .trim()
      .regex(/^\d+$/, 'expected milliseconds as a whole number')
      .transform(Number)
      .refine((n) => n >= 100 && n <= 600_000, 'expected between 100 and 600000 milliseconds'),
  CHAIN_MCP_LOG_LEVEL: () => z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']),
  CHAIN_MCP_MAX_OUTPUT_BYTES: () => byteBudget(1024),
  CHAIN_MCP_MAX_STRUCTURED_BYTES: () => byteBudget(4096),
  CHAIN_MCP_WIRE_NAMES: () => z.string(),
  CHAIN_MCP_APPROVAL: () => z.enum(['human', 'confirm-id']),
  CHAIN_MCP_APPROVAL_LINK: () => z.enum(['passkey', 'plain']),
  CHAIN_MCP_STATE: () => z.string().trim().min(1),
  CHAIN_MCP_STATE_KEY: () =>
    z
      .string()
      .trim()
      .regex(/^[0-9a-fA-F]{64}$/, 'expected 32 bytes as 64 hex digits (openssl rand -hex 32)'),
  CHAIN_MCP_PASSKEY_FILE: () => z.string().trim().min(1),
  // The issuer is compared exactly with a token's `iss` (Auth0's ends in a slash), so it keeps its form.
  CHAIN_MCP_OAUTH_ISSUER: () =>
    z
      .string()
      .trim()
      .refine((v) => /^https?:\/\/[^/?#]+(\/[^?#]*)?$/.test(v), 'expected the issuer URL (http:// or https://, no query or fragment), as the identity provider names itself'),
  CHAIN_MCP_OAUTH_AUDIENCE: () => z.string().trim().min(1),
  CHAIN_MCP_OAUTH_CLIENT_ID: () => z.string().trim().min(1).max(256, 'expected at most 256 characters'),
  CHAIN_MCP_PUBLIC_URL: () =>
    z
      .string()
      .trim()
      .refine((v) => /^https?:\/\/[^/?#]+\/[^?#]*[^/?#]$/.test(v), 'expected the MCP endpoint as clients reach it, such as https://chain.example.org/mcp (with its path, no query)'),
  CHAIN_MCP_RATE_LIMIT: () =>
    z
      .string()
      .trim()
      .regex(/^\d+\/(s|sec|min|h|hour)$/, 'expected requests per period, such as 60/min, 5/s or 1000/h')
      .transform(parseRate)
      .refine((r) => r.points >= 1 && r.points <= 1_000_000, 'expected between 1 and 1000000 requests per period'),
  CHAIN_MCP_TRUSTED_PROXIES: () =>
    z
      .string()
      .transform((v) => v.split(',').map((p) => p.trim()).filter(Boolean))
      .refine((list) => list.every(proxyEntry), 'expected IP addresses or networks separated by commas, such as 10.0.0.5,192.168.1.0/24,::1'),
  CHAIN_MCP_SIGNER: () => z.enum(['local', 'keystore']),
  CHAIN_MCP_KEY_FILE: () => z.string().trim().min(1),
  CHAIN_MCP_KEY_PASSPHRASE_FILE: () => z.string().trim().min(1),
  CHAIN_MCP_KEY_IDLE_MINUTES: () => wholeNumber('minutes', 1, 1440),
  CHAIN_MCP_APPROVAL_WAIT_MS: () =>
    z
      .string()
      .regex(/^\d+$/, 'expected milliseconds as a whole number')
      .transform(Number)
      .refine((n) => n <= 300_000, 'expected at most 300000 milliseconds (the approval expires after 5 minutes)'),
};

type EnvFields = typeof ENV_FIELDS;
type EnvName = keyof EnvFields;
/** A set variable's parsed value. */
type EnvValue<K extends EnvName> = z.output<ReturnType<EnvFields[K]>>;

/** What an unset variable means (documented in src/settings.ts). A fresh object each time: callers may keep it. */
function envDefaults() {
  return {
    CHAIN_MCP_NODE_URL: 'http://127.0.0.1:9650',
    CHAIN_MCP_HTTP_IDLE_MS: 30 * 60 * 1000,
    CHAIN_MCP_HTTP_MAX_SESSIONS: 32,
    CHAIN_MCP_ALLOW_SPEND: false,
    CHAIN_MCP_ALLOW_ADMIN: false,
    CHAIN_MCP_DYNAMIC: false,
    CHAIN_MCP_TIMEOUT_MS: 15_000,
    CHAIN_MCP_LOG_LEVEL: 'info',
    CHAIN_MCP_MAX_OUTPUT_BYTES: 8192,
    CHAIN_MCP_MAX_STRUCTURED_BYTES: 65_536,
    CHAIN_MCP_APPROVAL: 'human',
    CHAIN_MCP_APPROVAL_LINK: 'passkey',
    CHAIN_MCP_RATE_LIMIT: { points: 60, seconds: 60, text: '60/min' },
    CHAIN_MCP_KEY_IDLE_MINUTES: 15,
    CHAIN_MCP_APPROVAL_WAIT_MS: 60_000,
  } satisfies { [K in EnvName]?: EnvValue<K> };
}

type EnvDefaults = ReturnType<typeof envDefaults>;
/** The environment as loadConfig reads it: a value for every variable with a default, the others when set. */
type Env = { [K in EnvName]: EnvValue<K> | (K extends keyof EnvDefaults ? never : undefined) };


export interface Cli {
  help: boolean;
  version: boolean;
  http: boolean;
  port: number;
  /** `--host`: the address --http listens on (127.0.0.1 unless OAuth guards the endpoint). */
  host: string;
  devnet: boolean;
  /** `--check`: diagnose the configured node and indexer, print a report, exit (npm run doctor). */
  check: boolean;
}

/**
 * Every flag, once: parseArgs, the mapping onto variables and --help are all derived from this
 * table, so a flag cannot be parsed without being listed (test/unit/config-cli.test.ts).
 * `env` is the variable a flag sets: a string flag's value, or `true` for a boolean flag.
 */
interface Flag {
  name: string;
  type: 'boolean' | 'string';
  short?: string;
  /** What the value looks like in --help (string flags). */
  arg?: string;
  env?: string;
  help: string;
}

export const FLAGS: readonly Flag[] = [
  { name: 'http', type: 'boolean', help: 'serve Streamable HTTP on 127.0.0.1 (path /mcp)' },
  { name: 'port', type: 'string', arg: 'N', help: 'HTTP port (default 3000)' },
  { name: 'host', type: 'string', arg: 'ADDR', help: 'HTTP address (default 127.0.0.1; another only with OAuth)' },
  { name: 'check', type: 'boolean', help: 'check the setup (node, indexer, signer, state; with --http its port and settings too), print what works and why not, exit' },
  {
    name: 'devnet',
    type: 'boolean',
    help: "start the bundled simulator and point the server at it\n(real Camino names; CHAIN_MCP_DEVNET_DIALECT=spec for the spec's)",
  },
  { name: 'node-url', type: 'string', arg: 'URL', env: 'CHAIN_MCP_NODE_URL', help: 'CHAIN_MCP_NODE_URL (default http://127.0.0.1:9650)' },
  { name: 'indexer-url', type: 'string', arg: 'URL', env: 'CHAIN_MCP_INDEXER_URL', help: 'CHAIN_MCP_INDEXER_URL' },
  { name: 'runner-url', type: 'string', arg: 'URL', env: 'CHAIN_MCP_RUNNER_URL', help: 'CHAIN_MCP_RUNNER_URL' },
  { name: 'toolsets', type: 'string', arg: 'a,b', env: 'CHAIN_MCP_TOOLSETS', help: `CHAIN_MCP_TOOLSETS (default: all but the ${[...DEFAULT_OFF].join(' and ')} reads, each one enable_toolset away)` },
  { name: 'tools', type: 'string', arg: 'a,b', env: 'CHAIN_MCP_TOOLS', help: 'CHAIN_MCP_TOOLS' },
  { name: 'exclude-tools', type: 'string', arg: 'a,b', env: 'CHAIN_MCP_EXCLUDE_TOOLS', help: 'CHAIN_MCP_EXCLUDE_TOOLS' },
  { name: 'allow-spend', type: 'boolean', env: 'CHAIN_MCP_ALLOW_SPEND', help: 'CHAIN_MCP_ALLOW_SPEND=true (needs a signer: the key file `chain-mcp key new` makes, or a keystore user)' },
  { name: 'allow-admin', type: 'boolean', env: 'CHAIN_MCP_ALLOW_ADMIN', help: 'CHAIN_MCP_ALLOW_ADMIN=true' },
  { name: 'max-spend', type: 'string', arg: 'N', env: 'CHAIN_MCP_MAX_SPEND', help: 'CHAIN_MCP_MAX_SPEND: cap for one spend, fees included ("1.5 CAM", or nCAM digits)' },
  {
    name: 'max-spend-per-day',
    type: 'string',
    arg: 'N',
    env: 'CHAIN_MCP_MAX_SPEND_PER_DAY',
    help: 'CHAIN_MCP_MAX_SPEND_PER_DAY: rolling 24 h total of everything sent, fees included ("10 CAM", or nCAM digits)',
  },
  {
    name: 'expect-network-id',
    type: 'string',
    arg: 'ID',
    env: 'CHAIN_MCP_EXPECT_NETWORK_ID',
    help: 'CHAIN_MCP_EXPECT_NETWORK_ID: refuse spends unless the node is on this network',
  },
  {
    name: 'dynamic',
    type: 'boolean',
    env: 'CHAIN_MCP_DYNAMIC',
    help: 'CHAIN_MCP_DYNAMIC=true: start with a few tools, enable toolsets on demand',
  },
  { name: 'timeout-ms', type: 'string', arg: 'N', env: 'CHAIN_MCP_TIMEOUT_MS', help: 'CHAIN_MCP_TIMEOUT_MS (default 15000)' },
  { name: 'log-level', type: 'string', arg: 'L', env: 'CHAIN_MCP_LOG_LEVEL', help: 'CHAIN_MCP_LOG_LEVEL (default info; logs go to stderr)' },
  { name: 'help', type: 'boolean', short: 'h', help: 'print this help' },
  { name: 'version', type: 'boolean', short: 'v', help: 'print the version' },
];

/** The parseArgs options, from the table. */
export function cliOptions(): Record<string, { type: 'boolean' | 'string'; short?: string }> {
  return Object.fromEntries(FLAGS.map((f) => [f.name, f.short ? { type: f.type, short: f.short } : { type: f.type }]));
}

export function parseCli(argv: readonly string[], env: NodeJS.ProcessEnv): { cli: Cli; env: NodeJS.ProcessEnv } {
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({
      args: [...argv],
      strict: true,
      allowPositionals: false,
      options: cliOptions(),
    });
  } catch (err) {
    const unknown = /^Unknown option '--([^']+)'/.exec((err as Error).message)?.[1];
    if (unknown !== undefined) {
      const near = nearest(unknown, FLAGS.map((f) => f.name));
      throw new ConfigError(`unknown flag --${unknown}${near ? `; did you mean --${near}?` : ''} (see chain-mcp --help)`);
    }
    throw new ConfigError(`${(err as Error).message}; see chain-mcp --help`);
  }
  const values = parsed.values as Record<string, string | boolean | undefined>;
  const merged: NodeJS.ProcessEnv = { ...env };
  for (const flag of FLAGS) {
    const value = values[flag.name];
    if (flag.env === undefined || value === undefined) continue;
    if (typeof value === 'string') merged[flag.env] = value;
    else if (value === true) merged[flag.env] = 'true';
  }
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
      host: typeof values.host === 'string' ? values.host : '127.0.0.1',
      devnet: values.devnet === true,
      check: values.check === true,
    },
    env: merged,
  };
}

/** Parses and validates the environment; throws ConfigError naming the first bad variable. */
export function loadConfig(rawEnv: NodeJS.ProcessEnv): Config {
  // An unfilled MCPB placeholder ("${user_config.x}") means the user left the field empty.
  const isGiven = (e: NodeJS.ProcessEnv) => (k: string) => e[k] !== undefined && !/^\$\{[^}]*\}$/.test(e[k] ?? '');
  // Before any file is read: a Windows path here would be read as a relative name.
  for (const name of PATH_SETTINGS) {
    const windows = isGiven(rawEnv)(name) ? windowsPathTrouble(name, (rawEnv[name] ?? '').trim()) : undefined;
    if (windows) throw new ConfigError(windows);
  }
  const nodeUrlPath = apiPathTrouble(rawEnv.CHAIN_MCP_NODE_URL);
  if (nodeUrlPath) throw new ConfigError(nodeUrlPath);
  const { env, fromEnv } = secretsFromFiles(rawEnv, isGiven(rawEnv));
  const given = isGiven(env);
  const set = (Object.keys(ENV_FIELDS) as EnvName[]).filter(
    (k) => given(k) && (env[k] !== '' || k === 'CHAIN_MCP_ALLOW_SPEND' || k === 'CHAIN_MCP_ALLOW_ADMIN' || k === 'CHAIN_MCP_DYNAMIC'),
  );
  // Only the set variables' schemas, in ENV_FIELDS' order (the first bad one is named). Parsed
  // once, so without zod's compiled fast path, which costs more to build than it saves here.
  const schema = z.object(Object.fromEntries(set.map((k) => [k, ENV_FIELDS[k]()])));
  const result = schema.safeParse(Object.fromEntries(set.map((k) => [k, env[k]])), { jitless: true });
  if (!result.success) {
    const issue = result.error.issues[0]!;
    const name = String(issue.path[0] ?? 'configuration');
    const secret = name.includes('PASSWORD') || name.includes('TOKEN') || name.includes('SECRET') || name === 'CHAIN_MCP_STATE_KEY' || name === 'CHAIN_MCP_STATE';
    const named = issue.code === 'custom' && issue.params?.named === true;
    const shown = secret || named ? '' : ` (got "${String(env[name] ?? '')}")`;
    const message =
      issue.code === 'invalid_value' && issue.message.startsWith('Invalid') ? `expected one of ${issue.values.join(', ')}` : issue.message;
    throw new ConfigError(`${name}: ${message}${shown}`);
  }
  const e = { ...envDefaults(), ...result.data } as Env;
  if ((e.CHAIN_MCP_KEYSTORE_USER === undefined) !== (e.CHAIN_MCP_KEYSTORE_PASSWORD === undefined)) {
    throw new ConfigError('CHAIN_MCP_KEYSTORE_USER and CHAIN_MCP_KEYSTORE_PASSWORD: set both or neither');
  }
  const oauth = oauthSettings(e.CHAIN_MCP_OAUTH_ISSUER, e.CHAIN_MCP_OAUTH_AUDIENCE, e.CHAIN_MCP_PUBLIC_URL, e.CHAIN_MCP_OAUTH_CLIENT_ID);
  // Only the OAuth endpoint counts requests per client address; elsewhere the setting would promise nothing.
  if (e.CHAIN_MCP_TRUSTED_PROXIES?.length && !oauth) throw new ConfigError('CHAIN_MCP_TRUSTED_PROXIES: set only with CHAIN_MCP_OAUTH_ISSUER (the per-address limit it feeds)');
  if (oauth && e.CHAIN_MCP_DYNAMIC) {
    throw new ConfigError('CHAIN_MCP_DYNAMIC and CHAIN_MCP_OAUTH_ISSUER: choose one; toolsets enabled on demand live in an MCP session, and OAuth serves every request on its own (any replica)');
  }
  // Admin tools that hand over keys go through the same approval as spends.
  if (oauth && (e.CHAIN_MCP_ALLOW_SPEND || e.CHAIN_MCP_ALLOW_ADMIN) && e.CHAIN_MCP_APPROVAL === 'human' && oauth.clientId === undefined) {
    throw new ConfigError(
      `CHAIN_MCP_OAUTH_CLIENT_ID: required with OAuth and ${e.CHAIN_MCP_ALLOW_SPEND ? 'spends' : 'admin tools'}: the approval page signs the human in at the identity provider with this client (authorization code + PKCE), so only the spend's own user can approve it`,
    );
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
  const keyFile = e.CHAIN_MCP_KEY_FILE ?? defaultKeyFile(env);
  const signer = e.CHAIN_MCP_SIGNER ?? (existsSync(keyFile) ? 'local' : e.CHAIN_MCP_KEYSTORE_USER ? 'keystore' : undefined);
  if (e.CHAIN_MCP_SIGNER === 'local' && !existsSync(keyFile)) {
    throw new ConfigError(`CHAIN_MCP_SIGNER=local: no key file at ${keyFile}; make one with \`chain-mcp key new\` or \`chain-mcp key import\` in a terminal, or set CHAIN_MCP_KEY_FILE`);
  }
  const keyUnreadable = signer === 'local' ? unreadableTrouble('CHAIN_MCP_KEY_FILE', keyFile) : undefined;
  if (keyUnreadable) throw new ConfigError(keyUnreadable);
  if (e.CHAIN_MCP_SIGNER === 'keystore' && !e.CHAIN_MCP_KEYSTORE_USER) {
    throw new ConfigError('CHAIN_MCP_SIGNER=keystore: set CHAIN_MCP_KEYSTORE_USER and CHAIN_MCP_KEYSTORE_PASSWORD (or CHAIN_MCP_KEYSTORE_PASSWORD_FILE)');
  }
  let keyPassphrase: string | undefined;
  if (e.CHAIN_MCP_KEY_PASSPHRASE_FILE !== undefined) {
    keyPassphrase = readSecretFile('CHAIN_MCP_KEY_PASSPHRASE_FILE', e.CHAIN_MCP_KEY_PASSPHRASE_FILE);
    if (keyPassphrase.length === 0) throw new ConfigError(`CHAIN_MCP_KEY_PASSPHRASE_FILE: ${e.CHAIN_MCP_KEY_PASSPHRASE_FILE} is empty`);
  }
  // Memory by default, spends on or off: a first transfer needs no database (Node 20 has no
  // node:sqlite). What must survive a restart under the local signer, the daily total, comes from
  // the chain; under the keystore signer it resets, and --check says so (stateFinding).
  const state: StateSetting = e.CHAIN_MCP_STATE ? parseStateSetting(e.CHAIN_MCP_STATE) : { kind: 'memory' };
  if (state.kind === 'postgres' && !e.CHAIN_MCP_STATE_KEY) {
    throw new ConfigError(
      'CHAIN_MCP_STATE_KEY: required with a shared store (CHAIN_MCP_STATE=postgres://…): the same 64 hex digits on every replica (openssl rand -hex 32), so any replica can check the confirmation ids another issued',
    );
  }
  const statePassword = state.kind === 'postgres' ? decodeURIComponent(new URL(state.url).password) : '';
  const secrets = [
    e.CHAIN_MCP_AUTH_TOKEN,
    e.CHAIN_MCP_AUTH_PASSWORD,
    e.CHAIN_MCP_KEYSTORE_PASSWORD,
    e.CHAIN_MCP_ADMIN_SECRET,
    e.CHAIN_MCP_HTTP_TOKEN,
    e.CHAIN_MCP_STATE_KEY,
    keyPassphrase,
    // The database password is masked like the other secrets (a very short one would match ordinary text).
    statePassword.length >= MIN_SECRET_CHARS ? statePassword : undefined,
  ].filter(
    (s): s is string => typeof s === 'string',
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
    toolsetsChosen: (toolsetNames !== undefined && toolsetNames.length > 0) || (e.CHAIN_MCP_TOOLS !== undefined && e.CHAIN_MCP_TOOLS.length > 0),
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
    approvalLink: e.CHAIN_MCP_APPROVAL_LINK,
    passkeyFile: e.CHAIN_MCP_PASSKEY_FILE ?? defaultPasskeyFile(env),
    signer,
    keyFile,
    keyPassphrase,
    keyPassphraseFile: e.CHAIN_MCP_KEY_PASSPHRASE_FILE,
    keyIdleMinutes: e.CHAIN_MCP_KEY_IDLE_MINUTES,
    secretsFromEnv: fromEnv,
    wire,
    state,
    stateKey: e.CHAIN_MCP_STATE_KEY?.toLowerCase(),
    secrets,
    httpToken: e.CHAIN_MCP_HTTP_TOKEN,
    httpIdleMs: e.CHAIN_MCP_HTTP_IDLE_MS,
    httpMaxSessions: e.CHAIN_MCP_HTTP_MAX_SESSIONS,
    oauth,
    rateLimit: e.CHAIN_MCP_RATE_LIMIT,
    ...(e.CHAIN_MCP_TRUSTED_PROXIES?.length ? { trustedProxies: e.CHAIN_MCP_TRUSTED_PROXIES } : {}),
  };
}

/** The OAuth settings hang together or stop the start: a half-configured resource server would refuse everyone, or no one. */
function oauthSettings(issuer: string | undefined, audience: string | undefined, publicUrl: string | undefined, clientId: string | undefined): Config['oauth'] {
  if (issuer === undefined) {
    if (audience !== undefined) throw new ConfigError('CHAIN_MCP_OAUTH_AUDIENCE: set only with CHAIN_MCP_OAUTH_ISSUER (the identity provider whose tokens carry it)');
    if (clientId !== undefined) throw new ConfigError('CHAIN_MCP_OAUTH_CLIENT_ID: set only with CHAIN_MCP_OAUTH_ISSUER (the identity provider that knows the client)');
    return undefined;
  }
  if (publicUrl === undefined) {
    throw new ConfigError('CHAIN_MCP_OAUTH_ISSUER needs CHAIN_MCP_PUBLIC_URL: the MCP endpoint as clients reach it (such as https://chain.example.org/mcp), which tokens name as their audience');
  }
  return { issuer, audience: audience ?? publicUrl, publicUrl, clientId };
}

/** --http with spend or admin tools on needs CHAIN_MCP_HTTP_TOKEN (or OAuth): any local program could call them otherwise. */
export function checkHttpConfig(config: Config): void {
  if (config.oauth && config.httpToken) {
    throw new ConfigError('CHAIN_MCP_HTTP_TOKEN and CHAIN_MCP_OAUTH_ISSUER: choose one; the shared token is the single-user mode, OAuth gives each user their own token');
  }
  if (!config.httpToken && !config.oauth && (config.allowSpend || config.allowAdmin)) {
    throw new ConfigError(
      `CHAIN_MCP_HTTP_TOKEN: required with --http when ${config.allowSpend ? 'CHAIN_MCP_ALLOW_SPEND' : 'CHAIN_MCP_ALLOW_ADMIN'} is on (at least 16 random characters; clients send it as Authorization: Bearer <token>)`,
    );
  }
}

/**
 * `CHAIN_MCP_*` names that are settings but not in ENV_FIELDS: the simulator's own, and the ones
 * other work adds to the schema (listed here so they are known before and after it lands; a
 * name in both places is harmless). Everything else comes from ENV_FIELDS itself, so a variable
 * added there is known without touching this list.
 */
const KNOWN_OUTSIDE_SCHEMA = [
  'CHAIN_MCP_DEVNET_DIALECT',
  'CHAIN_MCP_MAX_SPEND_PER_DAY',
  'CHAIN_MCP_APPROVAL_LINK',
  'CHAIN_MCP_HTTP_TOKEN',
  'CHAIN_MCP_PASSKEY_FILE',
  ...SECRET_FILES.map((name) => `${name}_FILE`),
] as const;

/** Every `CHAIN_MCP_*` name chain-mcp reads. */
export function knownEnvNames(): ReadonlySet<string> {
  return new Set([...Object.keys(ENV_FIELDS), ...KNOWN_OUTSIDE_SCHEMA]);
}

/** One line per `CHAIN_MCP_*` name chain-mcp does not read (DESIGN 7: unknown names warn, they do not stop). */
export function unknownNameWarnings(env: NodeJS.ProcessEnv): string[] {
  const known = knownEnvNames();
  const lines: string[] = [];
  for (const name of Object.keys(env).sort()) {
    if (!name.startsWith('CHAIN_MCP_') || known.has(name)) continue;
    // Compared without the shared prefix, which would make every name look close.
    const suffix = nearest(name.slice('CHAIN_MCP_'.length), [...known].map((k) => k.slice('CHAIN_MCP_'.length)));
    // A secret set where only its file is read (the key's passphrase is never taken from the environment).
    const near = known.has(`${name}_FILE`) ? `${name}_FILE` : suffix === undefined ? undefined : `CHAIN_MCP_${suffix}`;
    lines.push(`${name} is not a chain-mcp setting; ${near ? `did you mean ${near}?` : 'see chain-mcp --help for the settings'}`);
  }
  return lines;
}

/** One line per tier switch that cannot take effect, so the reader learns why tools they expect are missing or fail. */
export function tierWarnings(config: Config): string[] {
  const lines: string[] = [];
  if (config.allowSpend && !config.keystore && config.signer !== 'local') {
    lines.push(
      `CHAIN_MCP_ALLOW_SPEND is on, but spend tools stay hidden: nothing can sign (no key file at ${config.keyFile}, no keystore user); make a key with \`chain-mcp key new\` (or \`chain-mcp key import\`) in a terminal, or set CHAIN_MCP_KEYSTORE_USER and CHAIN_MCP_KEYSTORE_PASSWORD`,
    );
  }
  if (config.allowAdmin && !config.keystore) {
    lines.push(
      'CHAIN_MCP_ALLOW_ADMIN is on without a keystore user: the keystore_* and *_exportKey/*_importKey tools will answer "no keystore user is configured" until CHAIN_MCP_KEYSTORE_USER and CHAIN_MCP_KEYSTORE_PASSWORD are set',
    );
  }
  return lines;
}

/**
 * Whether a tool name list is set (CHAIN_MCP_TOOLS, or a non-empty CHAIN_MCP_EXCLUDE_TOOLS), so
 * main.ts must load the catalogue before initialize to check the names. Without one the start
 * stays fast: the catalogue loads after initialize has been answered.
 */
export function namesToCheck(config: Config): boolean {
  return config.tools !== undefined || config.excludeTools.size > 0;
}

/**
 * Refuses tool names that are not in the catalogue (a typo would otherwise expose nothing, or
 * exclude nothing, silently). main.ts loads the catalogue for it only when a list is set.
 */
export function checkToolNames(config: Config, names: readonly string[]): void {
  const all = new Set(names);
  for (const [variable, list] of [
    ['CHAIN_MCP_TOOLS', config.tools],
    ['CHAIN_MCP_EXCLUDE_TOOLS', config.excludeTools],
  ] as const) {
    for (const name of list ?? []) {
      if (all.has(name)) continue;
      const hint = didYouMean(name, all) || '; no tool has a name like it (names are the toolset, then the method: xvm_getBalance)';
      throw new ConfigError(`${variable}: unknown tool "${name}"${hint}`);
    }
  }
}
