import type { Config } from '../config.js';
import type { ToolDef } from '../core/tool.js';

/**
 * The one place tiers, toolsets and the allow/exclude lists apply, in that order
 * (exclude wins over everything). Spend needs the flag and the keystore credentials,
 * because a spend tool without them could only fail. For the same reason the indexer and
 * runner tools are listed only when their service URL is set: the tool list is sent to the
 * model in every conversation, and 17 indexer tools that can only answer "not configured"
 * would cost a quarter of it (README: "Configuration").
 */
export function selectTools(catalogue: readonly ToolDef[], config: Config): ToolDef[] {
  return catalogue.filter(
    (tool) =>
      tierEnabled(tool, config) &&
      serviceConfigured(tool, config) &&
      config.toolsets.has(tool.toolset) &&
      (!config.tools || config.tools.has(tool.name)) &&
      !config.excludeTools.has(tool.name),
  );
}

export function tierEnabled(tool: ToolDef, config: Config): boolean {
  switch (tool.tier) {
    case 'read':
      return true;
    case 'wallet':
      return config.keystore !== undefined;
    case 'spend':
      return config.allowSpend && (config.keystore !== undefined || config.signer === 'local');
    case 'admin':
      return config.allowAdmin;
  }
}

export function serviceConfigured(tool: ToolDef, config: Config): boolean {
  if (tool.toolset === 'indexer') return config.indexerUrl !== undefined;
  if (tool.toolset === 'runner') return config.runnerUrl !== undefined;
  return true;
}

/** Why a catalogue tool is not listed, in words an operator can act on. */
export function whyHidden(tool: ToolDef, config: Config): string {
  if (config.excludeTools.has(tool.name)) return 'it is in CHAIN_MCP_EXCLUDE_TOOLS';
  if (!tierEnabled(tool, config)) {
    if (tool.tier === 'wallet') return 'it needs CHAIN_MCP_KEYSTORE_USER and CHAIN_MCP_KEYSTORE_PASSWORD';
    if (tool.tier === 'spend') return 'spending is off (CHAIN_MCP_ALLOW_SPEND=true and a signer, the local key or the keystore user, enable it)';
    return 'the admin tier is off (CHAIN_MCP_ALLOW_ADMIN=true enables it)';
  }
  if (!serviceConfigured(tool, config)) return tool.toolset === 'indexer' ? 'CHAIN_MCP_INDEXER_URL is not set' : 'CHAIN_MCP_RUNNER_URL is not set';
  if (!config.toolsets.has(tool.toolset)) return `the ${tool.toolset} toolset is not in CHAIN_MCP_TOOLSETS`;
  return 'it is not in CHAIN_MCP_TOOLS';
}
