import type { ToolDef } from '../core/tool.js';

let loading: Promise<readonly ToolDef[]> | undefined;

/**
 * The catalogue, loaded on first need: building every tool's zod schemas takes ~300 ms,
 * so the server answers initialize first and loads the catalogue right after (or on the
 * first tools/list or tools/call, whichever comes first).
 */
export function loadCatalogue(): Promise<readonly ToolDef[]> {
  loading ??= import('./index.js').then((m) => m.CATALOGUE);
  return loading;
}
