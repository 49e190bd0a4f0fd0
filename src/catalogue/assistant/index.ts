/**
 * The assistant toolset (DESIGN section 4): one call answers a common question. Built only
 * from catalogue operations: reads through ctx.call(<tool>, args), so they share every
 * tolerant decoder; the transfer's spend steps through ctx.rpc, after one confirmation.
 */
import type { ToolDef } from '../../core/tool.js';
import { withShallowOutputs } from '../../summarize/schema.js';
import { accountOverview } from './account.js';
import { networkOverview } from './network.js';
import { transfer } from './transfer.js';
import { txStatus, waitForTx } from './tx.js';
import { validatorLookup } from './validators.js';


/** Output schemas listed shallow like the other families (src/summarize/schema.ts); the types and the data stay deep. */
export const assistantTools: ToolDef[] = withShallowOutputs([accountOverview, validatorLookup, networkOverview, txStatus, waitForTx, transfer]);
