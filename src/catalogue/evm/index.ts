/**
 * Contract chain EVM JSON-RPC, /ext/bc/C/rpc with positional params (spec document 2):
 * typed tools for the common reads, evm_rpc for any other read method, evm_watch over
 * the WebSocket endpoint. Quantities arrive as 0x hex and leave as decimal strings.
 */
import type { ToolDef } from '../../core/tool.js';
import { withShallowOutputs } from '../../summarize/schema.js';
import { accountTools } from './accounts.js';
import { blockTools } from './blocks.js';
import { poolAndFeeTools } from './fees.js';
import { nodeTools } from './node.js';
import { rawTools } from './raw.js';
import { watchTools } from './watch.js';


export const evmTools: ToolDef[] = withShallowOutputs([...nodeTools, ...accountTools, ...blockTools, ...poolAndFeeTools, ...rawTools, ...watchTools]);
