import { CATALOGUE } from '../catalogue/index.js';
import { needsConfirmation, type ToolDef } from '../core/tool.js';
import type { Config } from '../config.js';
import { startingToolsets } from '../core/toolsets.js';
import { DISCOVERY_LISTING, sessioned } from '../registry/dynamic.js';
import { type ToolListing, toolListing } from '../registry/listing.js';
import { selectTools } from '../registry/select.js';
import { appsListing } from '../views/apps-listing.js';

/** What one configuration's tools/list costs an assistant: bytes of the `tools` array as sent, and ~tokens (bytes / 4). */
export interface ToolListSize {
  tools: number;
  bytes: number;
  approxTokens: number;
  /** Bytes a model typically sees (name, title, description, inputSchema, annotations; no outputSchema). */
  modelBytes: number;
}

/**
 * `appsHost`: as an MCP Apps host receives it (views and card named in `_meta`, and the card's
 * app-only tool when spends are approved by the human), which is what the budget counts.
 */
export function toolListSize(config: Config, catalogue: readonly ToolDef[] = CATALOGUE, opts: { appsHost?: boolean } = {}): ToolListSize {
  const selected = selectTools(catalogue, config);
  // CHAIN_MCP_DYNAMIC: a session starts with the assistant composites and the discovery tools.
  // By default the rarely used families start off, and the discovery tools are listed instead.
  const start = new Set(startingToolsets(config.dynamic));
  const shown = (t: ToolDef) => start.has(t.toolset) || (!config.dynamic && t.tier !== 'read');
  const plain = sessioned(config) ? [...selected.filter(shown).map(toolListing), ...DISCOVERY_LISTING] : selected.map(toolListing);
  const byName = new Map(selected.map((t) => [t.name, t]));
  const confirms = (name: string) => {
    const tool = byName.get(name);
    return tool !== undefined && needsConfirmation(tool);
  };
  const listing = opts.appsHost ? appsListing(plain, confirms, config.allowSpend && config.approval === 'human') : plain;
  const bytes = Buffer.byteLength(JSON.stringify(listing), 'utf8');
  const modelBytes = Buffer.byteLength(JSON.stringify(
      listing.map((t) => {
        const { outputSchema: _out, ...rest } = t as Partial<ToolListing>;
        return rest;
      }),
    ), 'utf8');
  return { tools: listing.length, bytes, approxTokens: Math.round(bytes / 4), modelBytes };
}
