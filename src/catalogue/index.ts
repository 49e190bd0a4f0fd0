import { adminTools } from './admin.js';
import { assistantTools } from './assistant/index.js';
import { authTools } from './auth.js';
import { cxSpendTools } from './cx.spend.js';
import { evmSpendTools } from './evm.spend.js';
import { keystoreAdminTools } from './keystore.admin.js';
import { platformSpendTools } from './platform.spend.js';
import { runnerTools } from './runner.js';
import { walletTools } from './wallet.js';
import { xvmSpendTools } from './xvm.spend.js';
import { indexerTools } from './indexer/index.js';
import { infoTools } from './info.js';
import { platformTools } from './platform.js';
import { caminoTools } from './camino.js';
import { xvmTools } from './xvm.js';
import { cxTools } from './cx.js';
import { keystoreTools } from './keystore.js';
import { evmTools } from './evm/index.js';
import type { ToolDef } from '../core/tool.js';

/**
 * Every operation, one entry each, in the order tools/list shows them. Registration,
 * the manifest, the README table and the contract tests all iterate this list.
 */
export const CATALOGUE: readonly ToolDef[] = [
  ...assistantTools,
  ...infoTools,
  ...platformTools,
  ...caminoTools,
  ...xvmTools,
  ...cxTools,
  ...keystoreTools,
  ...evmTools,
  ...indexerTools,
  ...xvmSpendTools,
  ...walletTools,
  ...platformSpendTools,
  ...cxSpendTools,
  ...evmSpendTools,
  ...authTools,
  ...keystoreAdminTools,
  ...adminTools,
  ...runnerTools,
];
