import type { Utxo } from '../codec/tx/index.js';
import type { BuildEnv, SpendableUtxo } from './types.js';

/** The UTXOs the key alone can spend now, unlocked, in a deterministic order. */
export function spendableUtxos(env: BuildEnv, utxos: readonly Utxo[]): SpendableUtxo[] {
  void env;
  void utxos;
  throw new Error('spendableUtxos: not implemented yet');
}
