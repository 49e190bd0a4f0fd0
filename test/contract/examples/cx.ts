import type { ContractExample } from '../types.js';

/** Spec document 2, "Contract chain specific methods, endpoint /ext/bc/C/cx". Written by hand. */

const CX = '/ext/bc/C/cx';
const ADDR = 'C-local1nzae6mw98nl99wyjzq6ht4ljt20kqecjmcltwd';
const TX = '2RXG7x5q8zq3jxAvAJxrKPv9sp1YBuh8ZnqrickJL51RsYghay';

export const examples: Record<string, ContractExample> = {
  cx_getAtomicTx: {
    args: { txID: TX, encoding: 'hex' },
    expect: { path: CX, method: 'cx.getAtomicTx', params: { txID: TX, encoding: 'hex' } },
    answers: { 'cx.getAtomicTx': { tx: '0x00', encoding: 'hex', blockHeight: '8' } },
  },
  cx_getAtomicTxStatus: {
    args: { txID: TX },
    expect: { path: CX, method: 'cx.getAtomicTxStatus', params: { txID: TX } },
    answers: { 'cx.getAtomicTxStatus': { status: 'Accepted', blockHeight: '8' } },
  },
  cx_getUTXOs: {
    args: { addresses: [ADDR], sourceChain: 'X' },
    expect: { path: CX, method: 'cx.getUTXOs', params: { addresses: [ADDR], sourceChain: 'X' } },
    answers: { 'cx.getUTXOs': { numFetched: '0', utxos: [], endIndex: { address: ADDR, utxo: '' } } },
  },
};
