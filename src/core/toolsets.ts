export const TOOLSETS = [
  'info',
  'platform',
  'xvm',
  'wallet',
  'evm',
  'cx',
  'indexer',
  'keystore',
  'auth',
  'admin',
  'runner',
  'assistant',
] as const;
export type Toolset = (typeof TOOLSETS)[number];

/** read: queries; wallet: needs keystore credentials, moves nothing; spend: changes the chain; admin: node operation and secrets. */
export type Tier = 'read' | 'wallet' | 'spend' | 'admin';

/**
 * Families whose reads are left out of the default tools/list (no CHAIN_MCP_TOOLSETS, no
 * CHAIN_MCP_DYNAMIC) to keep it small: the discovery tools are listed instead, each family is one
 * enable_toolset away, and its tools still answer when called by name. Their spend, wallet and
 * admin tools stay listed whenever those tiers are on.
 */
export const DEFAULT_OFF: ReadonlySet<Toolset> = new Set<Toolset>(['evm', 'cx']);

/** The toolsets a session starts with: the assistant only (dynamic), or all but the rarely used ones (default). */
export function startingToolsets(dynamic: boolean): Toolset[] {
  return dynamic ? ['assistant'] : TOOLSETS.filter((t) => !DEFAULT_OFF.has(t));
}

/** What each toolset answers, in one line: list_toolsets shows it so a model can pick one to enable. */
export const TOOLSET_ABOUT: Readonly<Record<Toolset, string>> = {
  assistant: 'One-call answers: balances of an address, a validator, the network, a transaction.',
  info: 'The node itself: version, IDs, network, peers, uptime, fees, bootstrapping.',
  platform: 'P-Chain: balances, validators, delegators, stake, deposit offers, deposits, claimable rewards, multisig aliases, registered nodes, blocks, upgrades, subnets, blockchains.',
  xvm: 'X-Chain: assets, balances, UTXOs, transactions.',
  cx: 'C-Chain atomic side: UTXOs and atomic transactions between C and X or P.',
  evm: 'C-Chain EVM JSON-RPC: blocks, transactions, receipts, logs, balances, gas, calls.',
  wallet: 'X-Chain wallet sends that chain several transactions without waiting.',
  indexer: 'The indexer: history of addresses and assets, search, aggregates, C-Chain blocks.',
  keystore: 'Keystore users on the node: list, create, delete, import, export.',
  auth: 'Node API auth tokens: create, revoke, change the password.',
  admin: 'Node administration: log levels, profilers, aliases.',
  runner: 'The local network runner: start a network, health, URIs.',
};

/** What a toolset adds when its spend tools are allowed too: list_toolsets names it only then. */
export const TOOLSET_SPEND_ABOUT: Readonly<Partial<Record<Toolset, string>>> = {
  assistant: 'Guarded transfers.',
  platform: 'Staking transactions.',
  xvm: 'Sends, exports, imports, asset creation.',
  cx: 'Imports and exports.',
  evm: 'Sending signed raw transactions.',
};
