import type { Toolset } from './toolsets.js';
import type { WireSetting } from '../wire.js';

/**
 * The typed configuration every layer reads (src/config.ts parses the environment and flags into
 * it). It lives in the base layer so that core types such as ToolContext need nothing from the parser above.
 */

/** CHAIN_MCP_STATE: memory, one SQLite file, or a PostgreSQL shared by replicas. */
export type StateSetting = { kind: 'memory' } | { kind: 'sqlite'; file: string } | { kind: 'postgres'; url: string };

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
  /** CHAIN_MCP_TOOLSETS was given: exactly those toolsets are listed, with no discovery tools. */
  toolsetsChosen: boolean;
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
  /**
   * The approval link (for a client with neither elicitation nor MCP Apps): `passkey` offers it only
   * with a registered passkey and Approve needs a WebAuthn assertion; `plain` offers it always,
   * knowing a model with an HTTP client can press the button itself.
   */
  approvalLink: 'passkey' | 'plain';
  /** Where `chain-mcp passkey add` stores the passkey (CHAIN_MCP_PASSKEY_FILE). */
  passkeyFile: string;
  /**
   * Who signs spends (CHAIN_MCP_SIGNER): `local` (this process, from the key file), `keystore` (the
   * node's keystore user), or none. Default: `local` when the key file exists, else `keystore` with a keystore user.
   */
  signer?: 'local' | 'keystore';
  /** The encrypted key file (CHAIN_MCP_KEY_FILE), used when `signer` is `local`. */
  keyFile: string;
  /** CHAIN_MCP_KEY_PASSPHRASE_FILE's content, read at start: the key is unlocked with it (a server with no human at a browser). */
  keyPassphrase?: string;
  /** Where that passphrase came from (for --check). */
  keyPassphraseFile?: string;
  /** An unlocked key locks again after this many minutes without a spend (CHAIN_MCP_KEY_IDLE_MINUTES). */
  keyIdleMinutes: number;
  /** Secret variables taken from the environment rather than from their `_FILE` (for --check's warning). */
  secretsFromEnv: readonly string[];
  /** Budget for one result's structuredContent; lists lose whole items from their end to fit. */
  maxStructuredBytes: number;
  /** CHAIN_MCP_WIRE_NAMES: `auto` learns the node's names on first use (src/context/dialect.ts). */
  wire: WireSetting;
  /** CHAIN_MCP_STATE: memory, one SQLite file, or a PostgreSQL shared by replicas (src/state/). */
  state: StateSetting;
  /** CHAIN_MCP_STATE_KEY (64 hex digits): the replicas' shared key, used only with a shared store (src/state/seal.ts); a single process uses a secret of its own. */
  stateKey?: string;
  /** Values that must never appear in a log line, an error or a tool result. */
  secrets: readonly string[];
  /** CHAIN_MCP_HTTP_TOKEN: the bearer token every --http request must carry. */
  httpToken?: string;
  /** An --http session unused this long is closed (CHAIN_MCP_HTTP_IDLE_MS). */
  httpIdleMs: number;
  /** At most this many --http sessions at once; a new one beyond is refused (CHAIN_MCP_HTTP_MAX_SESSIONS). */
  httpMaxSessions: number;
  /**
   * --http as an OAuth 2.1 resource server (src/auth): the issuer whose JWKS signs the bearer
   * tokens, the audience they must carry (the public URL unless CHAIN_MCP_OAUTH_AUDIENCE), and
   * the MCP endpoint as clients reach it. Absent: no OAuth.
   */
  oauth?: { issuer: string; audience: string; publicUrl: string; clientId?: string };
  /** Requests to /mcp per user (per address when unauthenticated) and period (CHAIN_MCP_RATE_LIMIT). */
  rateLimit: { points: number; seconds: number; text: string };
  /** Peers whose X-Real-IP / X-Forwarded-For name the client (CHAIN_MCP_TRUSTED_PROXIES); absent: no header is trusted. */
  trustedProxies?: readonly string[];
}
