import { indexerTools } from './indexer.js';
import { infoTools } from './info.js';
import type { ToolDef } from './types.js';

/**
 * Every operation, one entry each, in the order tools/list shows them. Registration,
 * the manifest, the README table and the contract tests all iterate this list.
 */
export const CATALOGUE: readonly ToolDef[] = [...infoTools, ...indexerTools];
