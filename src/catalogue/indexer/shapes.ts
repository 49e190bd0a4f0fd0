/** Output shapes: transaction, output, address, asset and C-chain rows. */
import { z } from 'zod';
import { AmountOut, TimeOut } from '../../summarize/format.js';
import { AssetAmount } from '../../summarize/indexer.js';
import { blockHeadFields } from '../evm/shapes.js';

export const Next = z.record(z.string(), z.unknown()).optional().describe('When there is more: arguments for the next page.');
export type Next = z.infer<typeof Next>;

/**
 * Output schemas stay shallow: tools/list is read into the model's context on every
 * conversation, so list items are described in one line instead of a nested schema.
 */
export const rows = (what: string) => z.array(z.unknown()).describe(what);
export const Amt = z.object({ value: z.string(), display: z.string() });
export const TX_ROW = 'Each: id, chainID, chain, type, timestamp{unix,iso}, memo, txFee, inputTotals/outputTotals [{assetID, symbol, amount}], from, to, inputCount, outputCount, genesis; with address: direction (sent/received/both), net (signed), senders (of what came in), recipients (of what went out). Amounts are {value (smallest unit), display}.';
export const CTX_ROW = 'Each: hash, block, type, createdAt, from, to, value/gasPrice/fee {value (wei), display}, nonce, gasLimit, gasUsed, status, contractAddress, logCount.';


export const TxSummary = z.object({
  id: z.string(),
  chainID: z.string(),
  chain: z.string().describe('Alias, when the indexer reports one.'),
  type: z.string(),
  timestamp: TimeOut.optional(),
  memo: z.string().describe('Decoded from base64.'),
  txFee: AmountOut,
  inputTotals: z.array(AssetAmount),
  outputTotals: z.array(AssetAmount),
  from: z.array(z.string()).describe('Addresses of spent inputs (first 10).'),
  to: z.array(z.string()).describe('Addresses of created outputs (first 10).'),
  inputCount: z.number(),
  outputCount: z.number(),
  genesis: z.boolean(),
});
export type TxSummary = z.infer<typeof TxSummary>;
/** A history row seen from the queried addresses: what they gained or lost, per asset. */
export type TxRow = TxSummary & { direction?: 'sent' | 'received' | 'both' | 'none'; net?: AssetAmount[]; senders?: string[]; recipients?: string[] };

export const Output = z.object({
  id: z.string(),
  transactionID: z.string(),
  outputIndex: z.number(),
  assetID: z.string(),
  symbol: z.string(),
  outputType: z.number(),
  amount: AmountOut,
  locktime: z.string(),
  threshold: z.number(),
  addresses: z.array(z.string()),
  timestamp: TimeOut.optional(),
  spent: z.boolean(),
  redeemingTransactionID: z.string(),
  exportedTo: z.string().optional().describe('Set when the output left its transaction\'s chain: the chain it was exported to, where it waits for an import.'),
});
export type Output = z.infer<typeof Output>;

export const TxShallow = z.object({
  id: z.string(),
  chainID: z.string(),
  chain: z.string(),
  type: z.string(),
  timestamp: TimeOut.optional(),
  memo: z.string(),
  txFee: Amt,
  genesis: z.boolean(),
  inputTotals: rows('Each: assetID, symbol, amount{value,display}.'),
  outputTotals: rows('Same shape as inputTotals.'),
  inputCount: z.number(),
  outputCount: z.number(),
  from: z.array(z.string()),
  to: z.array(z.string()),
  inputs: rows('Spent outputs (first 200) as in indexer_getOutput, plus signers.'),
  outputs: rows('First 200, as in indexer_getOutput; an exported one carries exportedTo.'),
  destinationChain: z.string().optional().describe('An export: the chain its exported outputs went to.'),
});

export const AddressRecord = z.object({
  address: z.string(),
  publicKey: z.string().nullable(),
  assets: z.array(
    z.object({
      assetID: z.string(),
      symbol: z.string(),
      balance: AmountOut,
      totalReceived: AmountOut,
      totalSent: AmountOut,
      transactionCount: z.string(),
      utxoCount: z.string(),
    }),
  ),
});
export type AddressRecord = z.infer<typeof AddressRecord>;

export const Asset = z.object({
  id: z.string(),
  chainID: z.string(),
  name: z.string(),
  symbol: z.string(),
  alias: z.string(),
  denomination: z.number(),
  currentSupply: AmountOut,
  kind: z.enum(['fixed cap', 'variable cap', 'NFT']),
  variableCap: z.boolean(),
  nft: z.boolean(),
  timestamp: TimeOut.optional(),
  imitation: z.string().optional().describe('Set when the asset imitates the native one: it is NOT the native asset.'),
  native: z.boolean().optional().describe('The network\'s native asset: currentSupply is only what the indexer saw; networkSupply is the network\'s.'),
  networkSupply: AmountOut.optional().describe("The native asset only: the node's figure (platform.getCurrentSupply, an upper bound)."),
  networkSupplyProblem: z.string().optional().describe('Why the node\'s supply could not be read.'),
});
export type Asset = z.infer<typeof Asset>;
export const AssetShallow = Asset.extend({ currentSupply: Amt, networkSupply: Amt.optional() });

export const CTx = z.object({
  hash: z.string(),
  block: z.string(),
  type: z.string(),
  createdAt: TimeOut.optional(),
  from: z.string(),
  to: z.string(),
  value: AmountOut.describe('wei, displayed in the native asset (18 decimals).'),
  nonce: z.string(),
  gasLimit: z.string(),
  gasUsed: z.string(),
  gasPrice: AmountOut,
  fee: AmountOut.describe('gasUsed x effective gas price.'),
  status: z.string().describe('"success", "failed" or "" when no receipt.'),
  contractAddress: z.string(),
  logCount: z.number(),
});
export type CTx = z.infer<typeof CTx>;

export const CBlockHead = z.object({
  ...blockHeadFields,
  baseFeePerGas: Amt,
  transactionCount: z.number(),
});
