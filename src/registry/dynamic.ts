import type { ToolDef } from '../core/tool.js';
import { startingToolsets, TOOLSET_ABOUT, TOOLSET_SPEND_ABOUT, TOOLSETS, type Toolset } from '../core/toolsets.js';
import type { Config } from '../config.js';
import type { ToolListing } from './listing.js';
import { whyHidden } from './select.js';

/**
 * CHAIN_MCP_DYNAMIC: a session starts with the assistant composites and three discovery tools,
 * and enables whole toolsets on demand (the way github-mcp-server's dynamic toolsets work). The
 * tiers and filters still decide which tools a toolset holds; this only decides when they are listed.
 * The discovery tools act on the session, not on the chain, so they live here, not in the catalogue.
 */
export const DISCOVERY = ['list_toolsets', 'get_toolset_tools', 'enable_toolset'] as const;
type Discovery = (typeof DISCOVERY)[number];

const toolsetField = { type: 'string', enum: [...TOOLSETS], description: 'Toolset name, as list_toolsets shows it.' };
const hints = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };
const object = (properties: Record<string, unknown>, required: string[] = []) => ({ type: 'object', properties, required, additionalProperties: false });

export const DISCOVERY_LISTING: ToolListing[] = [
  {
    name: 'list_toolsets',
    title: 'List toolsets',
    description: 'List the toolsets this server offers: what each answers, how many tools, whether enabled. Start here when no listed tool fits.',
    inputSchema: object({}),
    outputSchema: { type: 'object' },
    annotations: hints,
  },
  {
    name: 'get_toolset_tools',
    title: 'Tools of a toolset',
    description: 'Names and one-line descriptions of one toolset\'s tools, before enabling it.',
    inputSchema: object({ toolset: toolsetField }, ['toolset']),
    outputSchema: { type: 'object' },
    annotations: hints,
  },
  {
    name: 'enable_toolset',
    title: 'Enable a toolset',
    description: 'Add a toolset\'s tools to this session (the tool list then updates). Tools can be called by name right after.',
    inputSchema: object({ toolset: toolsetField }, ['toolset']),
    outputSchema: { type: 'object' },
    annotations: hints,
  },
];

export interface DiscoveryResult {
  [key: string]: unknown;
  content: Array<{ type: 'text'; text: string }>;
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
  /** True when the session's tool list changed (send notifications/tools/list_changed). */
  changed?: boolean;
}

const firstLine = (text: string) => text.split(/(?<=\.)\s/)[0] ?? text;

/**
 * Whether sessions enable toolsets: with CHAIN_MCP_DYNAMIC, and by default (no CHAIN_MCP_TOOLSETS or
 * CHAIN_MCP_TOOLS), where the rarely used families start off; a chosen list is listed as it is.
 */
export function sessioned(config: Pick<Config, 'dynamic' | 'toolsetsChosen'>): boolean {
  return config.dynamic || !config.toolsetsChosen;
}

/** What a request without a session is told about enabling: nothing is remembered, and every tool is callable by name. */
export const NO_SESSION =
  'This connection has no session (stateless HTTP): enabling a toolset is not remembered after this request and the tool list stays as it starts; every tool of a toolset listed here can be called by name without enabling it.';

/**
 * One MCP session's enabled toolsets. `stateless`: the server answers one request and is gone
 * (stateless HTTP, either protocol era), so no enable_toolset can outlive it; the list stays the
 * starting one and every allowed tool is callable by name, or a dynamic start could never reach
 * the tools it keeps out of the list.
 */
export class ToolsetSession {
  private readonly enabled: Set<Toolset>;

  constructor(
    /** The tools the tiers and filters allow (selectTools). */
    private readonly allowed: readonly ToolDef[],
    private readonly catalogue: readonly ToolDef[],
    private readonly config: Config,
    private readonly stateless = false,
  ) {
    this.enabled = new Set(startingToolsets(config.dynamic));
  }

  isDiscovery(name: string): name is Discovery {
    return (DISCOVERY as readonly string[]).includes(name);
  }

  visible(tool: ToolDef): boolean {
    // By default only the reads of the rarely used families wait for enable_toolset.
    return this.enabled.has(tool.toolset) || (!this.config.dynamic && tool.tier !== 'read');
  }

  /** Whether a call by name is answered: a listed tool, or any allowed tool where no session could list it. */
  callable(tool: ToolDef): boolean {
    return this.stateless || this.visible(tool);
  }

  /** Why a tool the tiers allow is not callable yet, with the call that enables it. */
  notEnabled(tool: ToolDef): string {
    return `Tool ${tool.name} is in the "${tool.toolset}" toolset, which is not enabled in this session yet. Call enable_toolset with {"toolset": "${tool.toolset}"}, then call ${tool.name} again.`;
  }

  call(name: Discovery, args: Record<string, unknown>): DiscoveryResult {
    if (name === 'list_toolsets') return this.list();
    const toolset = args.toolset;
    if (typeof toolset !== 'string' || !(TOOLSETS as readonly string[]).includes(toolset)) {
      return refuse(`Invalid input: toolset: expected one of ${TOOLSETS.join(', ')}.`);
    }
    return name === 'get_toolset_tools' ? this.tools(toolset as Toolset) : this.enable(toolset as Toolset);
  }

  private of(toolset: Toolset): ToolDef[] {
    return this.allowed.filter((t) => t.toolset === toolset);
  }

  private list(): DiscoveryResult {
    const rows = TOOLSETS.map((toolset) => ({ toolset, about: this.about(toolset), tools: this.of(toolset).length, enabled: this.enabled.has(toolset) }));
    const lines = rows.map((r) => `- ${r.toolset} (${r.tools} tool${r.tools === 1 ? '' : 's'}${r.enabled ? ', enabled' : r.tools === 0 ? ', not available here' : ''}): ${r.about}`);
    if (this.stateless) return ok([NO_SESSION, 'Toolsets (get_toolset_tools names the tools of one):', ...lines].join('\n'), { toolsets: rows, session: false });
    return ok([`Toolsets (enable one with enable_toolset):`, ...lines].join('\n'), { toolsets: rows });
  }

  /** A toolset's line names only what this server lets it do: its spend side only when spend tools are allowed. */
  private about(toolset: Toolset): string {
    const spend = TOOLSET_SPEND_ABOUT[toolset];
    return spend && this.of(toolset).some((t) => t.tier === 'spend') ? `${TOOLSET_ABOUT[toolset]} ${spend}` : TOOLSET_ABOUT[toolset];
  }

  private tools(toolset: Toolset): DiscoveryResult {
    const tools = this.of(toolset).map((t) => ({ name: t.name, description: firstLine(t.description) }));
    if (tools.length === 0) return refuse(this.unavailable(toolset));
    const text = [`${toolset}: ${tools.length} tool(s)${this.enabled.has(toolset) ? ', enabled' : ''}:`, ...tools.map((t) => `- ${t.name}: ${t.description}`)].join('\n');
    return ok(text, { toolset, enabled: this.enabled.has(toolset), tools });
  }

  private enable(toolset: Toolset): DiscoveryResult {
    const tools = this.of(toolset);
    if (tools.length === 0) return refuse(this.unavailable(toolset));
    if (this.enabled.has(toolset)) return ok(`The ${toolset} toolset is already enabled (${tools.length} tools).`, { toolset, enabled: true, tools: tools.map((t) => t.name) });
    // Names and one-line descriptions only: the host re-lists tools (list_changed) and gets the
    // schemas there; repeating every schema here doubled what the model read.
    const described = tools.map((t) => ({ name: t.name, description: firstLine(t.description) }));
    if (this.stateless) {
      const text = [`${NO_SESSION} The ${toolset} tools, callable by name now:`, ...described.map((t) => `- ${t.name}: ${t.description}`)].join('\n');
      return ok(text, { toolset, enabled: false, session: false, tools: described });
    }
    this.enabled.add(toolset);
    const text = [`Enabled ${toolset}: ${tools.length} tool(s), callable now (their input schemas come with the updated tool list):`, ...described.map((t) => `- ${t.name}: ${t.description}`)].join('\n');
    return { ...ok(text, { toolset, enabled: true, tools: described }), changed: true };
  }

  /** A toolset with no tool the tiers and filters allow: which setting would change that. */
  private unavailable(toolset: Toolset): string {
    const hidden = this.catalogue.find((t) => t.toolset === toolset);
    const why = hidden ? whyHidden(hidden, this.config) : 'it has no tools';
    return `The ${toolset} toolset cannot be enabled on this server: ${why}. The operator changes that in the server's environment.`;
  }
}

function ok(text: string, structured: Record<string, unknown>): DiscoveryResult {
  return { content: [{ type: 'text', text }], structuredContent: structured };
}

function refuse(text: string): DiscoveryResult {
  return { content: [{ type: 'text', text }], isError: true };
}
