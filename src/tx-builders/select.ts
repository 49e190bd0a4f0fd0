import type { Utxo } from '../codec/tx/index.js';
import { spendable } from './common.js';
import type { BuildEnv, SpendableUtxo } from './types.js';

/**
 * The UTXOs the key alone can spend now, unlocked, each once, in the order the builders pick them
 * (per asset, largest first, then by UTXO ID).
 */
export function spendableUtxos(env: BuildEnv, utxos: readonly Utxo[]): SpendableUtxo[] {
  return spendable(env, utxos);
}
