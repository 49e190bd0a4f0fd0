import { z } from 'zod';
import { isHexData } from '../codec/index.js';
import { InputError } from '../errors.js';
import { chainSelector } from '../core/fields.js';
import { defineTool, type SpendLimits, type ToolDef } from '../core/tool.js';
import { decodeRawEvmTx, type EvmTxFacts } from '../spend/rlp.js';
import { issuedText } from '../spend/result.js';
import { weiAmount } from '../summarize/format.js';

/** EVM JSON-RPC eth_sendRawTransaction on /ext/bc/C/rpc (spec document 2). Spend tier. */

const WEI_PER_UNIT = 10n ** 9n;

function decoded(signedTx: string): EvmTxFacts | undefined {
  try {
    return decodeRawEvmTx(signedTx);
  } catch {
    return undefined;
  }
}

/** The decoded value in native smallest units (rounded up: 1 unit = 10^9 wei) and the decoded `to`. */
function rawTxLimits(i: { signedTx: string }): SpendLimits {
  const facts = decoded(i.signedTx);
  if (!facts) return { recipients: [], opaque: 'a transaction this server cannot decode' };
  return { amount: (facts.value + WEI_PER_UNIT - 1n) / WEI_PER_UNIT, recipients: facts.to ? [facts.to] : [] };
}

export const evmSpendTools: ToolDef[] = [
  defineTool({
    name: 'eth_sendRawTransaction',
    title: 'Broadcast a signed EVM transaction',
    description: 'Broadcast a signed C-Chain (EVM) transaction; the preview decodes its recipient and value. Follow it with eth_getTransactionReceipt.',
    tier: 'spend',
    toolset: 'evm',
    input: z.strictObject({
      signedTx: z.string().max(1_000_000).refine(isHexData, 'expected 0x-prefixed hex bytes').describe('Signed transaction, 0x hex (RLP or typed envelope).'),
      chain: chainSelector('C'),
    }),
    output: z.object({ txHash: z.string().describe('Transaction hash.') }),
    request: { kind: 'rpc', endpoint: 'evm', method: 'eth_sendRawTransaction', params: (i) => [i.signedTx] },
    decode: (raw) => ({ txHash: typeof raw === 'string' ? raw : String((raw as { result?: unknown })?.result ?? '') }),
    plan: async (i, ctx) => {
      const facts = decoded(i.signedTx);
      if (!facts && i.signedTx.length < 4) throw new InputError('signedTx', 'not a signed transaction (too short)');
      const network = await ctx.network();
      if (!facts) {
        return { lines: [`Network: ${network.networkID}, chain C`, 'Broadcasts a transaction that could not be decoded here: approve only if you built it yourself.'] };
      }
      return {
        lines: [
          `Network: ${network.networkID}, chain C${facts.chainId !== undefined ? ` (EVM chain ID in the tx: ${facts.chainId})` : ''}`,
          `To: ${facts.to ?? 'none: contract creation'}`,
          `Value: ${weiAmount(facts.value, network.assetSymbol).display}`,
          'Fee: gas, paid in the native asset as the transaction sets it',
        ],
        details: { to: facts.to ?? null, valueWei: facts.value.toString() },
      };
    },
    limits: rawTxLimits,
    summarize: (o) => issuedText('EVM transaction', o.txHash, `Follow it with eth_getTransactionReceipt {"txHash": "${o.txHash}"}.`),
  }),
];
