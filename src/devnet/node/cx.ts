import { RpcFault, type RpcRouter, needString } from '../rpc.js';
import { type DevnetState, txString } from '../state/index.js';
import { checkEncoding } from './platform.js';
import { pageUtxos } from './xvm.js';

/** Contract chain specific methods, /ext/bc/C/cx (and /ext/bc/<C chain ID>/cx). */
export function registerCx(router: RpcRouter, state: DevnetState): void {
  for (const path of ['/ext/bc/C/cx', `/ext/bc/${state.chains.C}/cx`]) {
    router
      .on(path, 'cx.getAtomicTx', (p) => {
        const id = needString(p, 'txID');
        const encoding = checkEncoding(p, ['cb58', 'hex']);
        const tx = state.txs.get(id);
        if (tx?.chain !== 'C' || tx.status !== 'Accepted') throw new RpcFault('could not find tx');
        return { tx: txString(tx, encoding), encoding, blockHeight: String(tx.blockHeight ?? 0) };
      })
      .on(path, 'cx.getAtomicTxStatus', (p) => {
        const id = needString(p, 'txID');
        const tx = state.txs.get(id);
        if (tx?.chain !== 'C') return { status: 'Unknown' };
        if (tx.status === 'Accepted') return { status: 'Accepted', blockHeight: String(tx.blockHeight ?? 0) };
        return { status: tx.status === 'Rejected' ? 'Dropped' : tx.status };
      })
      .on(path, 'cx.getUTXOs', (p) => pageUtxos(state, 'C', p, ['C'], true));
  }
}
