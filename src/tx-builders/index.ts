// Pure builders for the local signer: UTXOs + intent + the node's fee → an unsigned tx, its bytes and hash.
// No I/O: the caller fetches the UTXOs and the fee, the signer signs `hash`, the codec attaches credentials.
export * from './types.js';
export { BuildError, type BuildErrorCode } from './errors.js';
export { spendableUtxos } from './select.js';
export { buildBaseTx, buildExportTx, buildImportTx, type BaseIntent, type ExportIntent, type ImportIntent } from './xp.js';
export { buildCExportTx, buildCImportTx, type CExportIntent, type CImportIntent } from './c.js';
export {
  buildDepositTx,
  buildUnlockDepositTx,
  buildClaimTx,
  type DepositIntent,
  type UnlockDepositIntent,
  type ClaimIntent,
} from './camino.js';
