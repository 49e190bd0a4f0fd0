import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { ToolDef } from '../catalogue/types.js';
import type { Services } from '../registry/execute.js';

/** Sent once at initialize: how the tools are organized, the units, and the spend rule. */
export const SERVER_INSTRUCTIONS = `Tools for a blockchain node with three chains: X (assets, addresses X-...), P (platform: validators, staking, deposit offers, addresses P-...) and C (EVM, addresses 0x...), plus an optional indexer for history.
Names are <namespace>_<method>: info_*, platform_*, xvm_* (X chain), cx_* and eth_*/net_*/web3_* (C chain), indexer_*.
Amounts are integers in the smallest unit (native asset: 9 decimals on X and P; wei, 18 decimals, on C); results also give display units.
Spending tools first return a preview and a confirmationId; show the preview to the human and call again with confirm only after they approve.`;

/** Prompts and resources; the assistant toolset adds to this. */
export function registerAssistantExtras(_mcp: McpServer, _services: Services, _tools: readonly ToolDef[]): void {}
