import { CATALOGUE } from '../catalogue/index.js';
import type { ToolDef } from '../catalogue/types.js';
import type { Config } from '../config.js';
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
  const listing = selectTools(catalogue, config).map(toolListing);
  const bytes = Buffer.byteLength(JSON.stringify(listing), 'utf8');
  const modelBytes = Buffer.byteLength(JSON.stringify(listing.map(({ outputSchema: _out, ...rest }) => rest)), 'utf8');
  return { tools: listing.length, bytes, approxTokens: Math.round(bytes / 4), modelBytes };
}
