import { z } from 'zod';
import { hexToBytes, isHexData } from '../codec/index.js';
import { InputError } from '../errors.js';
import { chainSelector } from '../core/fields.js';
import { defineTool, type SpendLimits, type ToolDef } from '../core/tool.js';
import { decodeRawEvmTx, type EvmTxFacts, erc20Transfer, maxFeeWei } from '../spend/rlp.js';
import { evmTxHash } from '../spend/issued-id.js';
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

/** Wei to the native smallest unit, rounded up (1 unit = 10^9 wei): a limit never counts less than is paid. */
const weiToUnits = (wei: bigint): bigint => (wei + WEI_PER_UNIT - 1n) / WEI_PER_UNIT;

/**
 * The decoded value plus the maximum fee (gas limit x the highest gas price), in native smallest
 * units; the decoded `to` and, for an ERC-20 transfer, the token's recipient too.
 */
function rawTxLimits(i: { signedTx: string }): SpendLimits {
  const facts = decoded(i.signedTx);
  if (!facts) return { recipients: [], opaque: 'a transaction this server cannot decode' };
  const token = erc20Transfer(facts.data);
  return { amount: weiToUnits(facts.value + maxFeeWei(facts)), recipients: [...(facts.to ? [facts.to] : []), ...(token ? [token.recipient] : [])] };
}

/** What the calldata does, in one line: a contract creation, an ERC-20 transfer, another call, or none. */
function callLine(facts: EvmTxFacts): string | undefined {
  if (!facts.to) return `Creates a contract: ${facts.data.length} bytes of init code; its address follows from the sender and nonce.`;
  const token = erc20Transfer(facts.data);
  if (token) return `Token transfer (ERC-20 transfer): ${token.amount} of the token's smallest units to ${token.recipient}; token contract ${facts.to}`;
  if (facts.data.length === 0) return undefined;
  const selector = facts.data.length >= 4 ? Array.from(facts.data.subarray(0, 4), (b) => b.toString(16).padStart(2, '0')).join('') : '';
  return `Calls contract ${facts.to}: ${facts.data.length} bytes of calldata${selector ? `, function selector 0x${selector}` : ''} (not decoded here)`;
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
    // The node answers keccak256 of exactly these bytes; any other answer is not taken.
    issuedID: (i) => evmTxHash(hexToBytes(i.signedTx)),
    plan: async (i, ctx) => {
      const facts = decoded(i.signedTx);
      if (!facts && i.signedTx.length < 4) throw new InputError('signedTx', 'not a signed transaction (too short)');
      const network = await ctx.network();
      if (!facts) {
        return { lines: [`Network: ${network.networkID}, chain C`, 'Broadcasts a transaction that could not be decoded here: approve only if you built it yourself.'] };
      }
      const fee = maxFeeWei(facts);
      const call = callLine(facts);
      return {
        lines: [
          `Network: ${network.networkID}, chain C${facts.chainId !== undefined ? ` (EVM chain ID in the tx: ${facts.chainId})` : ''}`,
          `To: ${facts.to ?? 'none: contract creation'}`,
          `Value: ${weiAmount(facts.value, network.assetSymbol).display}`,
          `Fee: at most ${weiAmount(fee, network.assetSymbol).display} (gas limit ${facts.gas} x at most ${facts.maxGasPrice} wei per gas)`,
          `Total at most: ${weiAmount(facts.value + fee, network.assetSymbol).display} (${weiToUnits(facts.value + fee)} smallest units, counted against the limits)`,
          ...(call ? [call] : []),
        ],
        details: { to: facts.to ?? null, valueWei: facts.value.toString(), maxFeeWei: fee.toString(), gas: facts.gas.toString(), maxGasPriceWei: facts.maxGasPrice.toString() },
      };
    },
    limits: rawTxLimits,
    summarize: (o) => issuedText('EVM transaction', o.txHash, `Follow it with eth_getTransactionReceipt {"txHash": "${o.txHash}"}.`),
  }),
];
