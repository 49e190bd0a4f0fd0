import type { ContractExample } from '../types.js';
import { examples as indexer } from './indexer.js';
import { examples as info } from './info.js';
import { examples as platform } from './platform.js';
import { examples as xvm } from './xvm.js';
import { examples as cx } from './cx.js';
import { examples as keystore } from './keystore.js';

/** Every family's examples; a family file adds one line here. */
export const EXAMPLES: Record<string, ContractExample> = { ...info, ...platform, ...xvm, ...cx, ...keystore, ...indexer };
