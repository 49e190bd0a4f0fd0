import type { ContractExample } from '../types.js';
import { examples as assistant } from './assistant.js';
import { examples as indexer } from './indexer.js';
import { examples as info } from './info.js';
import { examples as platform } from './platform.js';
import { examples as xvm } from './xvm.js';
import { examples as cx } from './cx.js';
import { examples as keystore } from './keystore.js';
import { examples as evm } from './evm.js';
import { examples as spend } from './spend.js';
import { examples as wallet } from './wallet.js';
import { examples as auth } from './auth.js';
import { examples as admin } from './admin.js';
import { examples as runner } from './runner.js';

/** Every family's examples; a family file adds one line here. */
export const EXAMPLES: Record<string, ContractExample> = { ...assistant, ...info, ...platform, ...xvm, ...cx, ...keystore, ...evm, ...indexer, ...spend, ...wallet, ...auth, ...admin, ...runner };
