import type { TxChain, Utxo } from '../codec/tx/index.js';
import { decodeUtxoHex, utxoKey } from '../codec/tx/index.js';
import { caminoRpc } from '../context/camino.js';
import type { ToolContext } from '../core/tool.js';
import { ChainMcpError } from '../errors.js';

/** A page as large as the node serves (avm/platform/avax getUTXOs cap at 1024). */
const PAGE = 1024;
/** Bounded: a key with more UTXOs than this is told to consolidate, never walked forever. */
export const MAX_UTXOS = 8 * PAGE;

const METHOD: Record<TxChain, { endpoint: 'xvm' | 'platform' | 'cx'; method: string }> = {
  X: { endpoint: 'xvm', method: 'xvm.getUTXOs' },
  P: { endpoint: 'platform', method: 'platform.getUTXOs' },
  C: { endpoint: 'cx', method: 'cx.getUTXOs' },
};

/** An output type this codec does not read: anyone can leave such a UTXO at any address. */
const STRANGER_TYPE = /^unexpected [XPC]-chain output type ID \d+$/;

/**
 * Every UTXO of `addresses` on `chain` (atomic ones from `sourceChain` when given), all pages, in
 * hex, each decoded by the chain's codec. A UTXO of an output type the codec does not read is left
 * out (never spent, so nothing is guessed); one that is malformed otherwise stops the build.
 * Stranger kinds the codec reads (a CrossTransferOutput, a locked.Out with no lock IDs) are
 * returned and no builder spends them.
 */
export async function fetchUtxos(ctx: ToolContext, chain: TxChain, addresses: readonly string[], sourceChain?: TxChain, chainSelector?: string): Promise<Utxo[]> {
  const { endpoint, method } = METHOD[chain];
  const seen = new Map<string, Utxo>();
  let startIndex: unknown;
  for (let page = 0; ; page++) {
    if (page * PAGE >= MAX_UTXOS) {
      throw new ChainMcpError('policy', `The key holds more than ${MAX_UTXOS} UTXOs on ${chain}; the local signer reads at most that many. Nothing was sent.`, {
        hint: 'Consolidate them first with a send to your own address in several smaller steps.',
      });
    }
    // No source chain, or the first page: the field is undefined, which the JSON the node gets leaves out.
    const params = { addresses: [...addresses], limit: PAGE, encoding: 'hex', sourceChain, startIndex };
    // platform.getUTXOs is Camino's own (the spec's API lacks it): a node without it is named as such.
    const raw = (chain === 'P' ? await caminoRpc(ctx, method, params) : await ctx.rpc(endpoint, method, params, { retry: true, chain: chainSelector })) as { utxos?: unknown; numFetched?: unknown; endIndex?: unknown };
    const list = Array.isArray(raw?.utxos) ? raw.utxos : [];
    for (const text of list) {
      let utxo: Utxo;
      try {
        utxo = decodeUtxoHex(chain, String(text));
      } catch (err) {
        if (STRANGER_TYPE.test((err as Error).message)) continue;
        throw new ChainMcpError('malformed', `A UTXO from ${method} does not decode (${(err as Error).message}); nothing was built.`);
      }
      seen.set(utxoKey(utxo.txID, utxo.outputIndex), utxo);
    }
    if (list.length < PAGE || !raw.endIndex) break;
    startIndex = raw.endIndex;
  }
  return [...seen.values()];
}
