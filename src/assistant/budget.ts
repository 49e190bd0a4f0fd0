import { CATALOGUE } from '../catalogue/index.js';
import type { ToolDef } from '../core/tool.js';
import type { Config } from '../config.js';
import { DISCOVERY_LISTING } from '../registry/dynamic.js';
import { toolListing } from '../registry/listing.js';
import { selectTools } from '../registry/select.js';

/** What one configuration's tools/list costs an assistant: bytes of the `tools` array as sent, and ~tokens (bytes / 4). */
export interface ToolListSize {
  tools: number;
  bytes: number;
  approxTokens: number;
  /** Bytes a model typically sees (name, title, description, inputSchema, annotations; no outputSchema). */
  modelBytes: number;
}

export function toolListSize(config: Config, catalogue: readonly ToolDef[] = CATALOGUE): ToolListSize {
  const selected = selectTools(catalogue, config);
  // CHAIN_MCP_DYNAMIC: a session starts with the assistant composites and the discovery tools.
  const listing = config.dynamic ? [...selected.filter((t) => t.toolset === 'assistant').map(toolListing), ...DISCOVERY_LISTING] : selected.map(toolListing);
  const bytes = Buffer.byteLength(JSON.stringify(listing), 'utf8');
  const modelBytes = Buffer.byteLength(JSON.stringify(listing.map(({ outputSchema: _out, ...rest }) => rest)), 'utf8');
  return { tools: listing.length, bytes, approxTokens: Math.round(bytes / 4), modelBytes };
}
