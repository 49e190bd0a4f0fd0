/**
 * Every setting chain-mcp reads, once. docs/configuration.md's table, the variable list of
 * `--help` and the one-click bundle's settings (manifest.json `user_config`) are generated from
 * this table, and test/docs/settings-drift.test.ts fails when any of them, or the variables
 * src/config.ts parses, differs from it.
 */

/** How the one-click bundle (MCPB) shows a setting; omitted: not offered there. */
export interface BundleField {
  /** `user_config` key. */
  key: string;
  type: 'string' | 'boolean';
  title: string;
  /** The text under the field; defaults to `meaning`. */
  description?: string;
  sensitive?: boolean;
}

export interface Setting {
  env: string;
  /** What applies when it is unset, as the docs print it. */
  default: string;
  /** One sentence for a person; the first clause is what `--help` prints. */
  meaning: string;
  group: SettingGroup;
  /** A value that must never be shown (masked everywhere, a password field in the bundle). */
  secret?: boolean;
  bundle?: BundleField;
}

export const SETTING_GROUPS = ['node', 'tools', 'spending', 'signer', 'approval', 'state', 'http', 'results'] as const;
export type SettingGroup = (typeof SETTING_GROUPS)[number];

export const SETTING_GROUP_TITLES: Record<SettingGroup, string> = {
  node: 'The node and the indexer',
  tools: 'Which tools are listed',
  spending: 'Spending and its limits',
  signer: 'The local signer (spends on any node)',
  approval: 'The human approval',
  state: 'State: what survives a restart, what replicas share',
  http: 'Streamable HTTP (--http)',
  results: 'Results, logs and timeouts',
};

export const SETTINGS: readonly Setting[] = [
  // --- the node and the indexer
  {
    env: 'CHAIN_MCP_NODE_URL',
    default: 'http://127.0.0.1:9650',
    meaning: 'node base URL (public: https://columbus.camino.network for the Columbus testnet, https://api.camino.network for mainnet)',
    group: 'node',
    bundle: { key: 'node_url', type: 'string', title: 'Node URL', description: 'Base URL of the node API, e.g. https://columbus.camino.network (testnet), https://api.camino.network (mainnet) or http://127.0.0.1:9650 (your own node).' },
  },
  {
    env: 'CHAIN_MCP_INDEXER_URL',
    default: 'unset',
    meaning: 'Magellan indexer base URL; the `indexer_*` tools are listed only when it is set',
    group: 'node',
    bundle: { key: 'indexer_url', type: 'string', title: 'Indexer URL', description: 'Base URL of the Magellan indexer (history, search), e.g. https://magellan.columbus.camino.network. Leave empty if you have none.' },
  },
  {
    env: 'CHAIN_MCP_RUNNER_URL',
    default: 'unset',
    meaning: 'local network runner HTTP gateway; the `runner_*` tools (admin tier) are listed only when it is set',
    group: 'node',
  },
  { env: 'CHAIN_MCP_RUNNER_EXEC_PATH', default: 'unset', meaning: 'node executable path passed to `runner_start`', group: 'node' },
  {
    env: 'CHAIN_MCP_AUTH_TOKEN',
    default: 'unset',
    meaning: 'bearer token sent on every node call except `/ext/auth` (a node started with --api-auth-required)',
    group: 'node',
    secret: true,
    bundle: { key: 'auth_token', type: 'string', title: 'API auth token', description: 'Bearer token for a node started with --api-auth-required. Leave empty otherwise.', sensitive: true },
  },
  { env: 'CHAIN_MCP_AUTH_PASSWORD', default: 'unset', meaning: "the node's authorization password, used only by the `auth_*` tools", group: 'node', secret: true },
  {
    env: 'CHAIN_MCP_AUTH_TOKEN_FILE',
    default: 'unset',
    meaning: 'a file holding `CHAIN_MCP_AUTH_TOKEN` instead of the variable (never both), read at start without one trailing newline',
    group: 'node',
  },
  {
    env: 'CHAIN_MCP_AUTH_PASSWORD_FILE',
    default: 'unset',
    meaning: 'a file holding `CHAIN_MCP_AUTH_PASSWORD` instead of the variable (never both), read at start without one trailing newline',
    group: 'node',
  },
  {
    env: 'CHAIN_MCP_WIRE_NAMES',
    default: 'auto',
    meaning:
      "API names the node speaks: `auto` learns them on first use; `camino` (a real node: `avm`, `avax` at `/ext/bc/C/avax`) or `spec` fix them; key=value pairs (`xvm`, `cx`, `cxPath`, `xvmStatic`, `platform`) refine them, e.g. `camino,platform=/ext/bc/P`",
    group: 'node',
  },
  {
    env: 'CHAIN_MCP_DEVNET_DIALECT',
    default: 'camino',
    meaning: "with `--devnet`: the simulator's API names, `camino` (a real node's) or `spec` (the specification's)",
    group: 'node',
  },
  // --- which tools are listed
  {
    env: 'CHAIN_MCP_TOOLSETS',
    default: 'unset',
    meaning: 'comma list of toolsets to list, or `all`; unset lists all but the `evm` and `cx` reads, each one `enable_toolset` away; fewer toolsets cost the assistant less context',
    group: 'tools',
    bundle: { key: 'toolsets', type: 'string', title: 'Toolsets', description: 'Comma list of toolsets to expose, empty for all. Fewer toolsets cost the assistant less context.' },
  },
  { env: 'CHAIN_MCP_TOOLS', default: 'unset', meaning: 'list only these tools (within the tiers)', group: 'tools' },
  { env: 'CHAIN_MCP_EXCLUDE_TOOLS', default: 'unset', meaning: 'never list these tools; wins over everything', group: 'tools' },
  {
    env: 'CHAIN_MCP_DYNAMIC',
    default: 'false',
    meaning: 'start each session with the assistant tools and the discovery tools (`list_toolsets`, `get_toolset_tools`, `enable_toolset`); toolsets are enabled on demand',
    group: 'tools',
  },
  {
    env: 'CHAIN_MCP_ALLOW_ADMIN',
    default: 'false',
    meaning: 'list the admin tier (node operation, keystore users, key export and import)',
    group: 'tools',
    bundle: { key: 'allow_admin', type: 'boolean', title: 'Allow admin tools', description: 'List the node-operation tools (keystore users, key export and import, profiling). Key export and import still need your approval.' },
  },
  // --- spending
  {
    env: 'CHAIN_MCP_ALLOW_SPEND',
    default: 'false',
    meaning: 'list the spend tier (needs a signer); every spend is still a preview first and needs your approval',
    group: 'spending',
    bundle: { key: 'allow_spend', type: 'boolean', title: 'Allow spending', description: 'List the tools that send value. Every spend still shows a preview and needs your approval.' },
  },
  {
    env: 'CHAIN_MCP_KEYSTORE_USER',
    default: 'unset',
    meaning: 'keystore user of the node whose keys sign (a node with the keystore API on); set it and its password, or neither',
    group: 'spending',
    bundle: { key: 'keystore_user', type: 'string', title: 'Keystore user', description: 'Keystore user on your own node (keystore API on) whose keys sign. Leave empty for read-only use or the local key.', sensitive: true },
  },
  {
    env: 'CHAIN_MCP_KEYSTORE_PASSWORD',
    default: 'unset',
    meaning: "the keystore user's password",
    group: 'spending',
    secret: true,
    bundle: { key: 'keystore_password', type: 'string', title: 'Keystore password', description: 'Password of that keystore user. It stays in the server environment and never passes through the chat.', sensitive: true },
  },
  {
    env: 'CHAIN_MCP_KEYSTORE_PASSWORD_FILE',
    default: 'unset',
    meaning:
      "a file holding `CHAIN_MCP_KEYSTORE_PASSWORD` instead of the variable (never both), read at start without one trailing newline; a process's environment is readable by every process of the same OS user, a file can be readable by chain-mcp's own user only",
    group: 'spending',
  },
  { env: 'CHAIN_MCP_ADMIN_SECRET', default: 'unset', meaning: "the node's admin API secret, sent as the `secret` param of admin calls; never shown", group: 'spending', secret: true },
  {
    env: 'CHAIN_MCP_MAX_SPEND',
    default: 'unset',
    meaning: 'cap for one spend, fees included: nCAM digits (`1500000000`) or a display amount (`1.5 CAM`; 1 CAM = 1000000000 nCAM)',
    group: 'spending',
    bundle: { key: 'max_spend', type: 'string', title: 'Most one spend may send', description: 'Cap for one spend, fees included, e.g. "1.5 CAM" or 1500000000 (nCAM). Empty: no cap.' },
  },
  {
    env: 'CHAIN_MCP_MAX_SPEND_PER_DAY',
    default: 'unset',
    meaning: 'rolling 24 h total of everything sent, fees included, in the same units as `CHAIN_MCP_MAX_SPEND`',
    group: 'spending',
    bundle: { key: 'max_spend_per_day', type: 'string', title: 'Most all spends may send in 24 hours', description: 'Rolling 24-hour total of everything sent, fees included, e.g. "10 CAM". Empty: no daily cap.' },
  },
  {
    env: 'CHAIN_MCP_ALLOWED_RECIPIENTS',
    default: 'unset',
    meaning: 'comma list of addresses spends may go to; any other recipient is refused',
    group: 'spending',
    bundle: { key: 'allowed_recipients', type: 'string', title: 'Allowed recipients', description: 'Comma list of addresses that spends may go to; any other recipient is refused. Empty: any address.' },
  },
  {
    env: 'CHAIN_MCP_EXPECT_NETWORK_ID',
    default: 'unset',
    meaning: "spends are refused unless the node's network ID equals it (1000 Camino, 1001 Columbus)",
    group: 'spending',
    bundle: { key: 'expect_network_id', type: 'string', title: 'Expected network ID', description: 'Refuse every spend unless the node is on this network, e.g. 1000 (Camino) or 1001 (Columbus). Empty: no check.' },
  },
  // --- the local signer
  {
    env: 'CHAIN_MCP_SIGNER',
    default: 'local when the key file exists, else keystore when CHAIN_MCP_KEYSTORE_USER is set',
    meaning: 'who signs spends: `local` (this process, with the key file) or `keystore` (the node, with the keystore user)',
    group: 'signer',
  },
  {
    env: 'CHAIN_MCP_KEY_FILE',
    default: '<config dir>/chain-mcp/key.json',
    meaning:
      'the encrypted key (scrypt and AES-256-GCM, mode 0600) that `chain-mcp key new` or `chain-mcp key import` writes in a terminal; one key gives the X/P and the C address',
    group: 'signer',
    bundle: {
      key: 'key_file',
      type: 'string',
      title: 'Key file',
      description: 'The encrypted key that signs spends, made in a terminal with chain-mcp key new or key import. Empty: the default place. You unlock it on a local page, never in the chat.',
    },
  },
  {
    env: 'CHAIN_MCP_KEY_PASSPHRASE_FILE',
    default: 'unset',
    meaning:
      "a file holding the key's passphrase, read at start, for a server with no person at a browser; the key then stays unlocked, and anything that can read the file can sign (docs/spending.md)",
    group: 'signer',
  },
  {
    env: 'CHAIN_MCP_KEY_IDLE_MINUTES',
    default: '15',
    meaning: 'an unlocked key locks again after this many minutes without a confirmed spend; previews never keep it open (1 to 1440)',
    group: 'signer',
  },
  // --- the human approval
  {
    env: 'CHAIN_MCP_APPROVAL',
    default: 'human',
    meaning: '`human`: a spend is sent only after you approved that exact preview through a channel the model cannot drive; `confirm-id`: the model\'s confirm call alone sends (for scripted use)',
    group: 'approval',
  },
  {
    env: 'CHAIN_MCP_APPROVAL_LINK',
    default: 'passkey',
    meaning: 'the approval page link, for clients with neither elicitation nor MCP Apps: `passkey` (offered only with a registered passkey) or `plain` (always; any program here could press Approve)',
    group: 'approval',
    bundle: { key: 'approval_link', type: 'string', title: 'Approval link', description: 'For a client without approval prompts or cards: "passkey" (Approve needs your registered passkey; run chain-mcp passkey add once) or "plain" (weaker).' },
  },
  { env: 'CHAIN_MCP_PASSKEY_FILE', default: '<config dir>/chain-mcp/passkeys.json', meaning: 'where `chain-mcp passkey add` keeps the registered passkeys', group: 'approval' },
  {
    env: 'CHAIN_MCP_APPROVAL_WAIT_MS',
    default: '60000',
    meaning: 'how long a confirm call waits for the approval page when the client cannot ask you itself (0 to 300000)',
    group: 'approval',
  },
  // --- state
  {
    env: 'CHAIN_MCP_STATE',
    default: 'memory',
    meaning:
      'where confirmation ids, pending approvals, approval-card secrets and the keystore signer\'s daily total live: `memory` (a restart forgets them; the local signer\'s daily total comes from the chain), `sqlite:<file>` (one machine; the keystore signer\'s daily total survives restarts, pending previews do not; node:sqlite on Node 22.5+, or better-sqlite3 if installed) or `postgres://user:password@host:5432/database` (several replicas)',
    group: 'state',
  },
  {
    env: 'CHAIN_MCP_STATE_KEY',
    default: 'unset',
    meaning: '32 bytes as 64 hex digits (`openssl rand -hex 32`), the same on every replica, required with `postgres://…`: it authenticates confirmation ids, approvals and kept previews across replicas. Not used with `memory` or `sqlite:`: a single process uses a secret that never leaves its memory',
    group: 'state',
    secret: true,
  },
  // --- --http
  {
    env: 'CHAIN_MCP_STATE_KEY_FILE',
    default: 'unset',
    meaning: 'a file holding `CHAIN_MCP_STATE_KEY` instead of the variable (never both), read once at start; keep it mode 0600, readable by chain-mcp\'s user only',
    group: 'state',
  },
  {
    env: 'CHAIN_MCP_STATE_FILE',
    default: 'unset',
    meaning: 'a file holding the value of `CHAIN_MCP_STATE` (such as a `postgres://` URL with its password) instead of the variable (never both), read once at start; keep it mode 0600',
    group: 'state',
  },
  { env: 'CHAIN_MCP_HTTP_TOKEN', default: 'unset', meaning: 'bearer token every `--http` request must carry (16+ characters; required with spend or admin tools, unless OAuth is on: the single-user mode)', group: 'http', secret: true },
  { env: 'CHAIN_MCP_HTTP_IDLE_MS', default: '1800000', meaning: 'an `--http` session unused this long is closed', group: 'http' },
  { env: 'CHAIN_MCP_HTTP_MAX_SESSIONS', default: '32', meaning: 'at most this many `--http` sessions at once; a new one beyond is refused', group: 'http' },
  {
    env: 'CHAIN_MCP_OAUTH_ISSUER',
    default: 'unset',
    meaning:
      "`--http` as an OAuth 2.1 resource server (docs/deploy.md): the identity provider's issuer exactly as its tokens name it (`https://id.example.org/realms/chain`; Auth0's ends in `/`); its metadata and JWKS are found from it; needs `CHAIN_MCP_PUBLIC_URL`",
    group: 'http',
  },
  {
    env: 'CHAIN_MCP_PUBLIC_URL',
    default: 'unset',
    meaning: 'the MCP endpoint as clients reach it (`https://chain.example.org/mcp`): the audience tokens must carry, named by the RFC 9728 metadata; the approval page lives on its origin',
    group: 'http',
  },
  { env: 'CHAIN_MCP_OAUTH_AUDIENCE', default: 'the public URL', meaning: "the audience tokens must carry, when the provider cannot put the public URL there (Auth0's API identifier)", group: 'http' },
  {
    env: 'CHAIN_MCP_OAUTH_CLIENT_ID',
    default: 'unset',
    meaning: 'the client the approval page signs the human in with (authorization code + PKCE; redirect URI `<public origin>/approve/callback`); required with OAuth and spends',
    group: 'http',
  },
  {
    env: 'CHAIN_MCP_RATE_LIMIT',
    default: '60/min',
    meaning: 'under OAuth, requests to the MCP endpoint per user (per address before a valid token): `N/s`, `N/min` or `N/h`; over it HTTP 429 with `Retry-After`; counted across replicas on PostgreSQL',
    group: 'http',
  },
  {
    env: 'CHAIN_MCP_TRUSTED_PROXIES',
    default: 'unset',
    meaning: "under OAuth, the proxies (IP addresses or networks, comma-separated) whose `X-Real-IP` or `X-Forwarded-For` names the client for the per-address limit; from any other peer, loopback included, those headers are ignored",
    group: 'http',
  },
  // --- results, logs, timeouts
  { env: 'CHAIN_MCP_TIMEOUT_MS', default: '15000', meaning: 'per-request timeout (reads retry transient failures within it)', group: 'results' },
  { env: 'CHAIN_MCP_LOG_LEVEL', default: 'info', meaning: 'pino level; logs go to stderr only, secrets masked', group: 'results' },
  { env: 'CHAIN_MCP_MAX_OUTPUT_BYTES', default: '8192', meaning: "budget for one result's text", group: 'results' },
  {
    env: 'CHAIN_MCP_MAX_STRUCTURED_BYTES',
    default: '65536',
    meaning: "budget for one result's structuredContent: the largest lists keep their first items and the result says so",
    group: 'results',
  },
];

/** `--help`'s short form of a meaning: up to the first `;` or `:` clause. */
export function shortMeaning(meaning: string): string {
  // The first "; " or ": " outside parentheses and backticks: a cut inside one would leave it open.
  let depth = 0;
  let code = false;
  for (let i = 0; i < meaning.length - 1; i++) {
    const c = meaning[i]!;
    if (c === '`') code = !code;
    else if (!code && c === '(') depth++;
    else if (!code && c === ')') depth = Math.max(0, depth - 1);
    else if (!code && depth === 0 && (c === ';' || c === ':') && meaning[i + 1] === ' ' && i > 0) {
      const head = meaning.slice(0, i);
      // A head that is only a value (`human`) says nothing alone: the whole meaning then.
      if (/^`[^`]+`$/.test(head)) return meaning;
      return head;
    }
  }
  return meaning;
}
