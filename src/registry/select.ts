import type { Config } from '../config.js';
import type { ToolDef } from '../catalogue/types.js';

/**
 * The one place tiers, toolsets and the allow/exclude lists apply, in that order
 * (exclude wins over everything). Spend needs the flag and the keystore credentials,
 * because a spend tool without them could only fail.
 */
export function selectTools(catalogue: readonly ToolDef[], config: Config): ToolDef[] {
  return catalogue.filter(
    (tool) =>
      tierEnabled(tool, config) &&
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
      return config.allowSpend && config.keystore !== undefined;
    case 'admin':
      return config.allowAdmin;
  }
}
