import type { ContractExample } from '../types.js';
import { examples as assistant } from './assistant.js';
import { examples as indexer } from './indexer.js';
import { examples as info } from './info.js';
import { examples as platform } from './platform.js';

/** Every family's examples; a family file adds one line here. */
export const EXAMPLES: Record<string, ContractExample> = { ...assistant, ...info, ...platform, ...indexer };
