import { cb58Decode } from '../../codec/index.js';
import { type Params, RpcFault, type RpcRouter, needString, needUint } from '../rpc.js';
import { addTx, type DevnetState, resolveAsset, utxosOf } from '../state/index.js';
import { importPrivateKey, needKey, needUser } from './keystore.admin.js';
import { issueTx } from './issue.js';
import { needAddress } from './platform.js';
import { issueSigned, sourceChain } from './xvm.spend.js';

/**
 * Contract chain atomic methods (/ext/bc/C/cx, spec document 2): export of native funds
 * from a user's C balance to X, import of atomic UTXOs from X into a hex address, keys.
 * C balances are wei; 1 smallest native unit = 10^9 wei.
 */

const WEI = 1_000_000_000n;

function needHex(p: Params, key: string): string {
  const v = needString(p, key);
  if (!/^0x[0-9a-fA-F]{40}$/.test(v)) throw new RpcFault(`couldn't parse ${key}: expected a hex address`);
  return v.toLowerCase();
}

/** gorilla/rpc's answer to params that do not unmarshal (REAL-WIRE.md conventions). */
export const UNMARSHAL = 'couldn\'t unmarshal an argument. Ensure arguments are valid and properly formatted. See documentation for example calls';

/**
 * `baseFee` is optional. A real node's avax service reads it as hexutil.Big: a 0x-hex string,
 * nothing else (caminoethvm plugin/evm/service.go); the spec calls it an int.
 */
function checkBaseFee(router: RpcRouter, p: Params): void {
  if (p.baseFee === undefined || p.baseFee === null) return;
  if (router.dialect === 'camino') {
    if (typeof p.baseFee !== 'string' || !/^0x(0|[1-9a-fA-F][0-9a-fA-F]*)$/.test(p.baseFee)) throw new RpcFault(UNMARSHAL);
    return;
  }
  needUint(p, 'baseFee');
}

export function registerCxSpend(router: RpcRouter, state: DevnetState): void {
  const path = '/ext/bc/C/cx';
  router
    .on(path, 'cx.export', (p) => {
      checkBaseFee(router, p);
      const user = needUser(state, p);
      const to = needAddress(state, p.to, ['X']);
      const amount = needUint(p, 'amount');
      if (amount === 0n) throw new RpcFault('amount must be positive');
      const asset = resolveAsset(state, needString(p, 'assetID'));
      if (!asset || asset.id !== state.nativeAssetID) throw new RpcFault('only the native asset can be exported by this devnet');
      const fee = state.fees.txFee;
      const needWei = (amount + fee) * WEI;
      const key = user.keys.find((k) => (state.cBalances.get(k.c) ?? 0n) >= needWei);
      if (!key) throw new RpcFault('insufficient funds');
      const nonce = state.cNonces.get(key.c) ?? 0;
      state.cBalances.set(key.c, (state.cBalances.get(key.c) ?? 0n) - needWei);
      state.cNonces.set(key.c, nonce + 1);
      const tx = addTx(state, {
        chain: 'C',
        type: 'export',
        inputs: [],
        outputs: [{ assetID: asset.id, amount, addresses: [to], chain: 'X' }],
        destinationChain: 'X',
        fee,
        details: { ins: [{ address: key.c, amount: Number(amount + fee), assetID: asset.id, nonce }] },
      });
      return { txID: tx.id };
    })
    .on(path, 'cx.import', (p) => {
      checkBaseFee(router, p);
      const user = needUser(state, p);
      const to = needHex(p, 'to');
      const source = sourceChain(state, p, ['X', 'P']);
      const atomic = utxosOf(state, 'C', user.keys.map((k) => k.bech32), { sourceChain: source }).filter((u) => u.assetID === state.nativeAssetID);
      if (atomic.length === 0) throw new RpcFault(`no atomic UTXOs to import from ${source}`);
      const total = atomic.reduce((s, u) => s + u.amount, 0n);
      const fee = state.fees.txFee;
      if (total <= fee) throw new RpcFault('insufficient funds: the imported amount does not cover the fee');
      state.cBalances.set(to, (state.cBalances.get(to) ?? 0n) + (total - fee) * WEI);
      const tx = addTx(state, {
        chain: 'C',
        type: 'import',
        inputs: atomic.map((u) => u.id),
        outputs: [],
        sourceChain: source,
        fee,
        details: { outs: [{ address: to, amount: Number(total - fee), assetID: state.nativeAssetID }] },
      });
      return { txID: tx.id };
    })
    .on(path, 'cx.issueTx', (p) => (router.dialect === 'camino' ? issueTx(state, p, 'C') : issueSigned(state, p, 'C')))
    .on(path, 'cx.exportKey', (p) => {
      const user = needUser(state, p);
      const key = needKey(user, needHex(p, 'address'));
      const raw = cb58Decode(key.privateKey.slice('PrivateKey-'.length));
      return { privateKey: key.privateKey, privateKeyHex: Buffer.from(raw).toString('hex') };
    })
    .on(path, 'cx.importKey', (p) => {
      const user = needUser(state, p);
      return { address: importPrivateKey(state, user, needString(p, 'privateKey')).c };
    });
}
