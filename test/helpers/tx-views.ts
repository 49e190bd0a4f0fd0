import type { TxView } from '../../src/codec/tx/index.js';
import type { ToolContext } from '../../src/core/tool.js';

/**
 * Decoded transactions (`TxView`) made by hand, and an indexer that answers from a function: what the
 * local signer's preview, limits and daily total read, without bytes or a node.
 */

export const NATIVE = 'native-asset';
export const TOKEN = 'token-asset';
export const own = { x: 'X-local1key', p: 'P-local1key', cAtomic: 'C-local1key', evm: '0xAbCdEf0000000000000000000000000000000001' };
export const NOW = 1_000_000n;

export type Out = TxView['outputs'][number];
export const out = (amount: bigint, addresses: string[], extra: Partial<Out> = {}): Out => ({ assetID: NATIVE, amount, addresses, locktime: 0n, threshold: 1, exported: false, ...extra });
export const input = (amount: bigint, extra: Partial<TxView['inputs'][number]> = {}): TxView['inputs'][number] => ({
  utxo: 'u:0',
  txID: 'u',
  outputIndex: 0,
  assetID: NATIVE,
  amount,
  sigIndices: [0],
  imported: false,
  ...extra,
});

/** An X-Chain base transaction of these inputs and outputs, its burn per asset computed from them. */
export function view(inputs: TxView['inputs'], outputs: Out[], extra: Partial<TxView> = {}): TxView {
  const burned: Record<string, bigint> = {};
  for (const i of inputs) burned[i.assetID] = (burned[i.assetID] ?? 0n) + i.amount;
  for (const o of outputs) burned[o.assetID] = (burned[o.assetID] ?? 0n) - o.amount;
  return { chain: 'X', kind: 'base', networkID: 1, blockchainID: 'b', inputs, outputs, memo: '0x', burned, ...extra };
}

export type IndexerAnswer = (path: string, query: Array<[string, string]>) => unknown;

/** A tool context whose indexer answers from `answer`, and the requests it was asked. */
export function indexerCtx(answer: IndexerAnswer) {
  const asked: Array<{ path: string; query: Array<[string, string]> }> = [];
  const ctx = {
    indexer: async (path: string, query: Array<[string, string]> = []) => {
      asked.push({ path, query });
      return answer(path, query);
    },
  } as unknown as ToolContext;
  return { ctx, asked };
}
