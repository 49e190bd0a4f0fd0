import { WebSocket } from 'ws';
import { withShallowOutputs } from '../summarize/schema.js';
import { z } from 'zod';
import { formatAmount, tolerantBigInt } from '../codec/index.js';
import { ChainMcpError } from '../errors.js';
import { amountOf, networkOrBlank } from '../summarize/chain.js';
import { AmountOut, listLines, TimeOut, timeOut, weiAmount } from '../summarize/format.js';
import { endpointPath, PRESETS } from '../wire.js';
import { assetIdOrAlias, chainSelector, hexAddress } from '../core/fields.js';
import { type AnyObject, defineTool, type ToolContext, type ToolDef } from '../core/tool.js';

/**
 * Contract chain EVM JSON-RPC, /ext/bc/C/rpc with positional params (spec document 2):
 * typed tools for the common reads, evm_rpc for any other read method, evm_watch over
 * the WebSocket endpoint. Quantities arrive as 0x hex and leave as decimal strings.
 */

const obj = (raw: unknown): Record<string, unknown> => (raw && typeof raw === 'object' ? (raw as Record<string, unknown>) : {});
const str = (v: unknown): string => (v === undefined || v === null ? '' : String(v));
/** 0x quantity (or decimal) -> decimal string; '' when absent. */
const dec = (v: unknown): string => {
  const n = tolerantBigInt(v);
  return n === undefined ? '' : n.toString();
};
const num = (v: unknown): bigint => tolerantBigInt(v) ?? 0n;
const gwei = (wei: bigint) => formatAmount(wei, { decimals: 9, symbol: 'gwei' });

const BLOCK_TAGS = ['latest', 'earliest', 'pending', 'safe', 'finalized'] as const;

/** A block number (decimal or 0x hex) or tag; sent as the node expects it: a tag or a 0x quantity. */
export const blockTag = (description = 'Number (decimal/0x) or tag; default latest.') =>
  z
    // Whole-number check in the transform, not .int().min(0): the listed schema then reads as a plain type list.
    .union([z.string().max(20), z.number()])
    .transform((v, ctx) => {
      if (typeof v === 'number') {
        if (Number.isSafeInteger(v) && v >= 0) return `0x${v.toString(16)}`;
        ctx.addIssue({ code: 'custom', message: 'expected a whole block number, 0 or more' });
        return z.NEVER;
      }
      if ((BLOCK_TAGS as readonly string[]).includes(v)) return v;
      if (/^0x[0-9a-fA-F]{1,16}$/.test(v)) return `0x${BigInt(v).toString(16)}`;
      if (/^\d{1,20}$/.test(v)) return `0x${BigInt(v).toString(16)}`;
      ctx.addIssue({ code: 'custom', message: `expected a block number or one of ${BLOCK_TAGS.join(', ')}` });
      return z.NEVER;
    })
    .describe(description);

const hash32 = (description: string) =>
  z
    .string()
    .regex(/^0x[0-9a-fA-F]{64}$/, 'expected 0x followed by 64 hex characters')
    .describe(description);
/** A log topic in a filter: the regex is checked in a refine so it is not repeated in every listed topic slot. */
const topic = z.string().refine((v) => /^0x[0-9a-fA-F]{64}$/.test(v), 'expected 0x followed by 64 hex characters');
const hexData = (description: string) =>
  z
    .string()
    .max(262_144)
    .regex(/^0x(?:[0-9a-fA-F]{2})*$/, 'expected 0x-prefixed hex bytes')
    .describe(description);
const quantity = (description: string) =>
  z
    .union([z.string().max(80), z.number()])
    .transform((v, ctx) => {
      if (typeof v === 'number') {
        if (Number.isSafeInteger(v) && v >= 0) return `0x${v.toString(16)}`;
        ctx.addIssue({ code: 'custom', message: 'expected a whole number, 0 or more' });
        return z.NEVER;
      }
      if (/^0x[0-9a-fA-F]{1,64}$/.test(v) || /^\d{1,78}$/.test(v)) return `0x${BigInt(v).toString(16)}`;
      ctx.addIssue({ code: 'custom', message: 'expected a whole number (decimal or 0x hex)' });
      return z.NEVER;
    })
    .describe(description);

const CallObject = z
  .strictObject({
    from: hexAddress('').optional(),
    to: hexAddress('').optional(),
    gas: quantity('').optional(),
    gasPrice: quantity('Wei.').optional(),
    value: quantity('Wei.').optional(),
    data: hexData('').optional(),
  })
  .describe('Call fields; numbers decimal or 0x.');

const chain = chainSelector('C');
const balanceSymbol = async (ctx: ToolContext) => (await networkOrBlank(ctx)).assetSymbol;

interface EvmSpec<I extends AnyObject, O extends AnyObject> {
  name: string;
  title: string;
  description: string;
  input: I;
  output: O;
  params(input: z.output<I>): unknown[];
  decode(raw: unknown, input: z.output<I>, ctx: ToolContext): z.input<O> | Promise<z.input<O>>;
  summarize(output: z.output<O>, input: z.output<I>): string;
  tier?: 'read' | 'admin';
}

function evmTool<I extends AnyObject, O extends AnyObject>(spec: EvmSpec<I, O>): ToolDef<I, O> {
  return defineTool({
    name: spec.name,
    title: spec.title,
    description: spec.description,
    tier: spec.tier ?? 'read',
    toolset: 'evm',
    input: spec.input,
    output: spec.output,
    request: { kind: 'rpc', endpoint: 'evm', method: spec.name, params: (i) => spec.params(i) },
    decode: spec.decode,
    summarize: spec.summarize,
  });
}

const Log = z.object({
  address: z.string(),
  topics: z.array(z.string()),
  data: z.string().describe('Cut at 2,000 hex characters.'),
  blockNumber: z.string(),
  transactionHash: z.string(),
  logIndex: z.string(),
});
function logOut(raw: unknown): z.infer<typeof Log> {
  const r = obj(raw);
  return {
    address: str(r.address),
    topics: (Array.isArray(r.topics) ? r.topics : []).map(str),
    data: str(r.data).slice(0, 2000),
    blockNumber: dec(r.blockNumber),
    transactionHash: str(r.transactionHash),
    logIndex: dec(r.logIndex),
  };
}

const TxOut = z.object({
  hash: z.string(),
  blockNumber: z.string().describe('Empty while pending.'),
  from: z.string(),
  to: z.string().nullable(),
  value: AmountOut,
  nonce: z.string(),
  gas: z.string(),
  gasPrice: z.string().optional(),
  maxFeePerGas: z.string().optional(),
  maxPriorityFeePerGas: z.string().optional(),
  input: z.string().describe('Cut at 2,000 hex characters.'),
  type: z.string(),
});
function txOut(raw: unknown, symbol: string): z.infer<typeof TxOut> {
  const r = obj(raw);
  const out: z.infer<typeof TxOut> = {
    hash: str(r.hash),
    blockNumber: dec(r.blockNumber),
    from: str(r.from),
    to: r.to ? str(r.to) : null,
    value: weiAmount(num(r.value), symbol),
    nonce: dec(r.nonce),
    gas: dec(r.gas),
    input: str(r.input ?? r.data).slice(0, 2000),
    type: dec(r.type),
  };
  if (r.gasPrice !== undefined) out.gasPrice = dec(r.gasPrice);
  if (r.maxFeePerGas !== undefined) out.maxFeePerGas = dec(r.maxFeePerGas);
  if (r.maxPriorityFeePerGas !== undefined) out.maxPriorityFeePerGas = dec(r.maxPriorityFeePerGas);
  return out;
}

const BlockOut = z.object({
  found: z.boolean(),
  number: z.string(),
  hash: z.string(),
  parentHash: z.string(),
  timestamp: TimeOut.optional(),
  miner: z.string(),
  gasUsed: z.string(),
  gasLimit: z.string(),
  baseFeePerGas: z.string().optional(),
  transactionCount: z.number(),
  transactionHashes: z.array(z.string()).describe('First 100.'),
  transactions: z.array(TxOut).optional().describe('With fullTransactions: the first 25.'),
});
async function blockOut(raw: unknown, ctx: ToolContext): Promise<z.input<typeof BlockOut>> {
  if (!raw || typeof raw !== 'object') {
    return { found: false, number: '', hash: '', parentHash: '', miner: '', gasUsed: '', gasLimit: '', transactionCount: 0, transactionHashes: [] };
  }
  const r = obj(raw);
  const txs = Array.isArray(r.transactions) ? r.transactions : [];
  const full = txs.length > 0 && typeof txs[0] === 'object';
  const out: z.input<typeof BlockOut> = {
    found: true,
    number: dec(r.number),
    hash: str(r.hash),
    parentHash: str(r.parentHash),
    miner: str(r.miner),
    gasUsed: dec(r.gasUsed),
    gasLimit: dec(r.gasLimit),
    transactionCount: txs.length,
    transactionHashes: txs.slice(0, 100).map((t) => (full ? str(obj(t).hash) : str(t))),
  };
  const ts = timeOut(num(r.timestamp));
  if (ts) out.timestamp = ts;
  if (r.baseFeePerGas !== undefined) out.baseFeePerGas = dec(r.baseFeePerGas);
  if (full) {
    const symbol = await balanceSymbol(ctx);
    out.transactions = txs.slice(0, 25).map((t) => txOut(t, symbol));
  }
  return out;
}
function blockSummary(o: z.output<typeof BlockOut>): string {
  if (!o.found) return 'No such block (yet).';
  return [
    `Block ${o.number} (${o.hash}) at ${o.timestamp?.iso ?? '?'}: ${o.transactionCount} transaction(s), gas used ${o.gasUsed} of ${o.gasLimit}` +
      (o.baseFeePerGas ? `, base fee ${gwei(BigInt(o.baseFeePerGas))}.` : '.'),
    ...(o.transactions
      ? listLines(o.transactions, 10, (t) => `${t.hash.slice(0, 18)}… ${t.from} -> ${t.to ?? '(contract creation)'}: ${t.value.display}`)
      : listLines(o.transactionHashes, 10, (h) => h)),
  ].join('\n');
}

/** Read methods of the EVM namespaces that evm_rpc may call; anything that signs or sends is refused. */
export const EVM_READ_METHODS = [
  'web3_clientVersion',
  'web3_sha3',
  'net_version',
  'net_listening',
  'net_peerCount',
  'eth_protocolVersion',
  'eth_chainId',
  'eth_syncing',
  'eth_blockNumber',
  'eth_gasPrice',
  'eth_maxPriorityFeePerGas',
  'eth_baseFee',
  'eth_feeHistory',
  'eth_getBalance',
  'eth_getAssetBalance',
  'eth_getTransactionCount',
  'eth_getCode',
  'eth_getStorageAt',
  'eth_getProof',
  'eth_call',
  'eth_estimateGas',
  'eth_createAccessList',
  'eth_getBlockByNumber',
  'eth_getBlockByHash',
  'eth_getBlockReceipts',
  'eth_getBlockTransactionCountByNumber',
  'eth_getBlockTransactionCountByHash',
  'eth_getTransactionByHash',
  'eth_getTransactionByBlockHashAndIndex',
  'eth_getTransactionByBlockNumberAndIndex',
  'eth_getTransactionReceipt',
  'eth_getUncleByBlockHashAndIndex',
  'eth_getUncleByBlockNumberAndIndex',
  'eth_getUncleCountByBlockHash',
  'eth_getUncleCountByBlockNumber',
  'eth_getLogs',
  'eth_accounts',
  'eth_coinbase',
  'eth_mining',
  'eth_hashrate',
  'txpool_status',
  'txpool_inspect',
  'txpool_content',
  'txpool_contentFrom',
] as const;

const RESULT_TEXT_MAX = 3000;

export const evmTools: ToolDef[] = withShallowOutputs([
  evmTool({
    name: 'web3_clientVersion',
    title: 'EVM client version',
    description: "Get the C-Chain EVM client's version.",
    input: z.strictObject({ chain }),
    output: z.object({ clientVersion: z.string() }),
    params: () => [],
    decode: (raw) => ({ clientVersion: str(raw) }),
    summarize: (o) => `EVM client: ${o.clientVersion}`,
  }),
  evmTool({
    name: 'net_version',
    title: 'EVM network ID',
    description: 'Get the C-Chain EVM network ID (not the platform network ID).',
    input: z.strictObject({ chain }),
    output: z.object({ networkVersion: z.string() }),
    params: () => [],
    decode: (raw) => ({ networkVersion: str(raw) }),
    summarize: (o) => `EVM network ID: ${o.networkVersion}`,
  }),
  evmTool({
    name: 'net_listening',
    title: 'EVM listening?',
    description: 'Check whether the C-Chain EVM client listens for peers.',
    input: z.strictObject({ chain }),
    output: z.object({ listening: z.boolean() }),
    params: () => [],
    decode: (raw) => ({ listening: raw === true }),
    summarize: (o) => (o.listening ? 'The EVM client is listening for peers.' : 'The EVM client is not listening for peers.'),
  }),
  evmTool({
    name: 'net_peerCount',
    title: 'EVM peer count',
    description: 'Count the C-Chain EVM client\'s peers.',
    input: z.strictObject({ chain }),
    output: z.object({ peerCount: z.string() }),
    params: () => [],
    decode: (raw) => ({ peerCount: dec(raw) }),
    summarize: (o) => `${o.peerCount} EVM peer(s).`,
  }),
  evmTool({
    name: 'eth_chainId',
    title: 'EVM chain ID',
    description: 'Get the EVM chain ID C-Chain transactions are signed with (500 main, 501 test).',
    input: z.strictObject({ chain }),
    output: z.object({ chainId: z.string(), hex: z.string() }),
    params: () => [],
    decode: (raw) => ({ chainId: dec(raw), hex: str(raw) }),
    summarize: (o) => `EVM chain ID ${o.chainId} (${o.hex}).`,
  }),
  evmTool({
    name: 'eth_blockNumber',
    title: 'Latest C-Chain block',
    description: 'Get the number of the latest C-Chain block.',
    input: z.strictObject({ chain }),
    output: z.object({ blockNumber: z.string() }),
    params: () => [],
    decode: (raw) => ({ blockNumber: dec(raw) }),
    summarize: (o) => `Latest C-Chain block: ${o.blockNumber}.`,
  }),
  evmTool({
    name: 'eth_syncing',
    title: 'EVM sync status',
    description: 'Check whether the C-Chain EVM client is syncing, with progress.',
    input: z.strictObject({ chain }),
    output: z.object({ syncing: z.boolean(), currentBlock: z.string().optional(), highestBlock: z.string().optional() }),
    params: () => [],
    decode: (raw) => {
      if (!raw || typeof raw !== 'object') return { syncing: false };
      const r = obj(raw);
      return { syncing: true, currentBlock: dec(r.currentBlock), highestBlock: dec(r.highestBlock) };
    },
    summarize: (o) => (o.syncing ? `Syncing: block ${o.currentBlock} of ${o.highestBlock}.` : 'Not syncing: the EVM is up to date.'),
  }),
  evmTool({
    name: 'eth_getBalance',
    title: 'C-Chain balance',
    description: 'Get the native balance of a C-Chain 0x address (in wei and display units).',
    input: z.strictObject({ address: hexAddress(), block: blockTag().default('latest'), chain }),
    output: z.object({ address: z.string(), block: z.string(), balance: AmountOut }),
    params: (i) => [i.address, i.block],
    decode: async (raw, i, ctx) => ({ address: i.address, block: i.block, balance: weiAmount(num(raw), await balanceSymbol(ctx)) }),
    summarize: (o) => `${o.address} holds ${o.balance.display} on the C-Chain (block ${o.block}).`,
  }),
  evmTool({
    name: 'eth_getTransactionCount',
    title: 'C-Chain nonce',
    description: 'Count transactions sent from a 0x address (its next nonce).',
    input: z.strictObject({ address: hexAddress(), block: blockTag().default('latest'), chain }),
    output: z.object({ address: z.string(), block: z.string(), nonce: z.string() }),
    params: (i) => [i.address, i.block],
    decode: (raw, i) => ({ address: i.address, block: i.block, nonce: dec(raw) }),
    summarize: (o) => `${o.address} has sent ${o.nonce} transaction(s); its next nonce is ${o.nonce}.`,
  }),
  evmTool({
    name: 'eth_getCode',
    title: 'Contract code',
    description: 'Get the bytecode at a 0x address; empty for a plain account.',
    input: z.strictObject({ address: hexAddress(), block: blockTag().default('latest'), chain }),
    output: z.object({ address: z.string(), isContract: z.boolean(), byteLength: z.number(), code: z.string() }),
    params: (i) => [i.address, i.block],
    decode: (raw, i) => {
      const code = str(raw);
      const bytes = Math.max(0, (code.length - 2) / 2);
      return { address: i.address, isContract: bytes > 0, byteLength: bytes, code };
    },
    summarize: (o) => (o.isContract ? `${o.address} is a contract with ${o.byteLength} bytes of code.` : `${o.address} has no code: it is a plain account.`),
  }),
  evmTool({
    name: 'eth_getStorageAt',
    title: 'Contract storage slot',
    description: 'Read one 32-byte storage slot of a contract.',
    input: z.strictObject({ address: hexAddress(), position: quantity('Slot (decimal or 0x hex).'), block: blockTag().default('latest'), chain }),
    output: z.object({ address: z.string(), position: z.string(), value: z.string() }),
    params: (i) => [i.address, i.position, i.block],
    decode: (raw, i) => ({ address: i.address, position: i.position, value: str(raw) }),
    summarize: (o) => `Slot ${o.position} of ${o.address}: ${o.value}`,
  }),
  evmTool({
    name: 'eth_call',
    title: 'Call a contract (read-only)',
    description: 'Run a contract call read-only and return its raw result; nothing is signed or sent.',
    input: z.strictObject({ transaction: CallObject, block: blockTag('Block to run against; default latest.').optional(), chain }),
    output: z.object({ result: z.string() }),
    params: (i) => (i.block === undefined ? [i.transaction] : [i.transaction, i.block]),
    decode: (raw) => ({ result: str(raw) }),
    summarize: (o) => (o.result === '0x' ? 'The call returned no data (0x).' : `The call returned ${(o.result.length - 2) / 2} bytes: ${o.result.slice(0, RESULT_TEXT_MAX)}`),
  }),
  evmTool({
    name: 'eth_estimateGas',
    title: 'Estimate gas',
    description: 'Estimate the gas a transaction would use; nothing is sent.',
    input: z.strictObject({ transaction: CallObject, block: blockTag('Block to estimate against; default latest.').optional(), chain }),
    output: z.object({ gas: z.string() }),
    params: (i) => (i.block === undefined ? [i.transaction] : [i.transaction, i.block]),
    decode: (raw) => ({ gas: dec(raw) }),
    summarize: (o) => `Estimated gas: ${o.gas}.`,
  }),
  evmTool({
    name: 'eth_gasPrice',
    title: 'Gas price',
    description: 'Get the suggested gas price on the C-Chain, in wei and gwei.',
    input: z.strictObject({ chain }),
    output: z.object({ gasPrice: z.string().describe('Wei.'), display: z.string() }),
    params: () => [],
    decode: (raw) => ({ gasPrice: dec(raw), display: gwei(num(raw)) }),
    summarize: (o) => `Suggested gas price: ${o.display} (${o.gasPrice} wei).`,
  }),
  evmTool({
    name: 'eth_feeHistory',
    title: 'Fee history',
    description: 'Get base fees, fullness and priority-fee percentiles of recent C-Chain blocks.',
    input: z.strictObject({
      blockCount: z.number().int().min(1).max(1024).describe('Blocks to report.'),
      newestBlock: blockTag('Newest block of the range.').default('latest'),
      rewardPercentiles: z.array(z.number().min(0).max(100)).max(20).default([]).describe('Increasing priority-fee percentiles, e.g. [25, 75].'),
      chain,
    }),
    output: z.object({
      oldestBlock: z.string(),
      baseFeePerGas: z.array(z.string()).describe('Wei, one per block plus the next block.'),
      gasUsedRatio: z.array(z.number()),
      reward: z.array(z.array(z.string())).optional(),
    }),
    params: (i) => [`0x${i.blockCount.toString(16)}`, i.newestBlock, i.rewardPercentiles],
    decode: (raw) => {
      const r = obj(raw);
      const out: { oldestBlock: string; baseFeePerGas: string[]; gasUsedRatio: number[]; reward?: string[][] } = {
        oldestBlock: dec(r.oldestBlock),
        baseFeePerGas: (Array.isArray(r.baseFeePerGas) ? r.baseFeePerGas : []).map(dec),
        gasUsedRatio: (Array.isArray(r.gasUsedRatio) ? r.gasUsedRatio : []).map(Number),
      };
      if (Array.isArray(r.reward)) out.reward = r.reward.map((row) => (Array.isArray(row) ? row.map(dec) : []));
      return out;
    },
    summarize: (o) => {
      const fees = o.baseFeePerGas.map((f) => BigInt(f || '0'));
      const next = fees[fees.length - 1] ?? 0n;
      const sorted = [...fees].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
      const avg = o.gasUsedRatio.length ? o.gasUsedRatio.reduce((s, x) => s + x, 0) / o.gasUsedRatio.length : 0;
      return `${o.gasUsedRatio.length} block(s) from ${o.oldestBlock}: base fee ${gwei(sorted[0] ?? 0n)} to ${gwei(sorted[sorted.length - 1] ?? 0n)}, next block ${gwei(next)}; blocks ${(avg * 100).toFixed(1)} % full on average.`;
    },
  }),
  evmTool({
    name: 'eth_getBlockByNumber',
    title: 'C-Chain block by number',
    description: 'Get a C-Chain block by number or tag: time, gas, base fee, transactions.',
    input: z.strictObject({ block: blockTag().default('latest'), fullTransactions: z.boolean().default(false).describe('Full transactions (first 25), not hashes.'), chain }),
    output: BlockOut,
    params: (i) => [i.block, i.fullTransactions],
    decode: (raw, _i, ctx) => blockOut(raw, ctx),
    summarize: blockSummary,
  }),
  evmTool({
    name: 'eth_getBlockByHash',
    title: 'C-Chain block by hash',
    description: 'Get a C-Chain block by hash: time, gas, base fee, transactions.',
    input: z.strictObject({ hash: hash32('Block hash.'), fullTransactions: z.boolean().default(false).describe('Full transactions (first 25), not hashes.'), chain }),
    output: BlockOut,
    params: (i) => [i.hash, i.fullTransactions],
    decode: (raw, _i, ctx) => blockOut(raw, ctx),
    summarize: blockSummary,
  }),
  evmTool({
    name: 'eth_getTransactionByHash',
    title: 'C-Chain transaction',
    description: 'Get a C-Chain transaction by hash: from, to, value, gas, block; outcome: eth_getTransactionReceipt.',
    input: z.strictObject({ hash: hash32('Transaction hash.'), chain }),
    output: z.object({ found: z.boolean(), transaction: TxOut.nullable() }),
    params: (i) => [i.hash],
    decode: async (raw, _i, ctx) => (raw && typeof raw === 'object' ? { found: true, transaction: txOut(raw, await balanceSymbol(ctx)) } : { found: false, transaction: null }),
    summarize: (o, i) =>
      o.transaction
        ? `Transaction ${o.transaction.hash}: ${o.transaction.from} -> ${o.transaction.to ?? '(contract creation)'}, ${o.transaction.value.display}, nonce ${o.transaction.nonce}, ${o.transaction.blockNumber ? `in block ${o.transaction.blockNumber}` : 'pending'}.`
        : `No transaction ${i.hash} is known to this node.`,
  }),
  evmTool({
    name: 'eth_getTransactionReceipt',
    title: 'C-Chain transaction receipt',
    description: 'Get a mined C-Chain transaction\'s outcome: success or revert, gas, fee, new contract, logs.',
    input: z.strictObject({ hash: hash32('Transaction hash.'), chain }),
    output: z.object({
      found: z.boolean(),
      status: z.enum(['success', 'reverted', 'unknown', 'not found']),
      blockNumber: z.string(),
      from: z.string(),
      to: z.string().nullable(),
      contractAddress: z.string().nullable(),
      gasUsed: z.string(),
      effectiveGasPrice: z.string(),
      fee: AmountOut.optional(),
      logCount: z.number(),
      logs: z.array(Log).describe('First 50.'),
    }),
    params: (i) => [i.hash],
    decode: async (raw, _i, ctx) => {
      if (!raw || typeof raw !== 'object') {
        return { found: false, status: 'not found' as const, blockNumber: '', from: '', to: null, contractAddress: null, gasUsed: '', effectiveGasPrice: '', logCount: 0, logs: [] };
      }
      const r = obj(raw);
      const logs = Array.isArray(r.logs) ? r.logs : [];
      const status = r.status === undefined ? 'unknown' : num(r.status) === 1n ? 'success' : 'reverted';
      const gasUsed = num(r.gasUsed);
      const price = num(r.effectiveGasPrice);
      return {
        found: true,
        status: status as 'success' | 'reverted' | 'unknown',
        blockNumber: dec(r.blockNumber),
        from: str(r.from),
        to: r.to ? str(r.to) : null,
        contractAddress: r.contractAddress ? str(r.contractAddress) : null,
        gasUsed: gasUsed.toString(),
        effectiveGasPrice: price.toString(),
        fee: weiAmount(gasUsed * price, await balanceSymbol(ctx)),
        logCount: logs.length,
        logs: logs.slice(0, 50).map(logOut),
      };
    },
    summarize: (o, i) =>
      !o.found
        ? `No receipt for ${i.hash}: the transaction is pending or unknown.`
        : `Transaction ${i.hash} ${o.status === 'success' ? 'succeeded' : o.status === 'reverted' ? 'REVERTED' : 'has an unknown status'} in block ${o.blockNumber}: gas used ${o.gasUsed}, fee ${o.fee?.display ?? '?'}, ${o.logCount} log(s)${o.contractAddress ? `, created contract ${o.contractAddress}` : ''}.`,
  }),
  evmTool({
    name: 'eth_getLogs',
    title: 'Event logs',
    description: 'Find contract event logs by block range or hash, address and topics, with a total count.',
    input: z.strictObject({
      fromBlock: blockTag('First block; default latest.').optional(),
      toBlock: blockTag('Last block; default latest.').optional(),
      blockHash: hash32('Only this block, not a range.').optional(),
      address: z.union([hexAddress(''), z.array(hexAddress('')).min(1).max(100)]).optional().describe('Contract address(es).'),
      topics: z
        .array(z.union([topic, z.null(), z.array(topic).max(20)]))
        .max(4)
        .optional()
        .describe('Per position: a 0x 32-byte topic, null (any) or a list (any of).'),
      limit: z.number().int().min(1).max(500).default(50).describe('Logs to return; the count covers all.'),
      chain,
    }),
    output: z.object({ count: z.number(), logs: z.array(Log) }),
    params: (i) => {
      const filter: Record<string, unknown> = {};
      if (i.fromBlock !== undefined) filter.fromBlock = i.fromBlock;
      if (i.toBlock !== undefined) filter.toBlock = i.toBlock;
      if (i.blockHash !== undefined) filter.blockHash = i.blockHash;
      if (i.address !== undefined) filter.address = i.address;
      if (i.topics !== undefined) filter.topics = i.topics;
      return [filter];
    },
    decode: (raw, i) => {
      const list = Array.isArray(raw) ? raw : [];
      return { count: list.length, logs: list.slice(0, i.limit).map(logOut) };
    },
    summarize: (o) =>
      [
        `${o.count} log(s)${o.count > o.logs.length ? `, first ${o.logs.length} returned` : ''}.`,
        ...listLines(o.logs, 15, (l) => `block ${l.blockNumber} ${l.address} topic0 ${l.topics[0]?.slice(0, 18) ?? '-'}… tx ${l.transactionHash.slice(0, 18)}…`),
      ].join('\n'),
  }),
  evmTool({
    name: 'txpool_status',
    title: 'Transaction pool status',
    description: 'Count the node\'s pending (executable) and queued (future nonce) C-Chain transactions.',
    input: z.strictObject({ chain }),
    output: z.object({ pending: z.string(), queued: z.string() }),
    params: () => [],
    decode: (raw) => ({ pending: dec(obj(raw).pending) || '0', queued: dec(obj(raw).queued) || '0' }),
    summarize: (o) => `Transaction pool: ${o.pending} pending, ${o.queued} queued.`,
  }),
  evmTool({
    name: 'eth_getAssetBalance',
    title: 'C-Chain asset balance',
    description: 'Get a 0x address\'s balance of an X-Chain asset moved to the C-Chain.',
    input: z.strictObject({ address: hexAddress(), block: blockTag().default('latest'), assetID: assetIdOrAlias('Asset ID (cb58).'), chain }),
    output: z.object({ address: z.string(), assetID: z.string(), balance: AmountOut }),
    params: (i) => [i.address, i.block, i.assetID],
    decode: async (raw, i, ctx) => {
      const { value, display } = await amountOf(ctx, await networkOrBlank(ctx), i.assetID, num(raw));
      return { address: i.address, assetID: i.assetID, balance: { value, display } };
    },
    summarize: (o) => `${o.address} holds ${o.balance.display} of asset ${o.assetID} on the C-Chain.`,
  }),
  evmTool({
    name: 'eth_baseFee',
    title: 'Next base fee',
    description: 'Get the base fee of the next C-Chain block, in wei and gwei.',
    input: z.strictObject({ chain }),
    output: z.object({ baseFee: z.string().describe('Wei.'), display: z.string() }),
    params: () => [],
    decode: (raw) => ({ baseFee: dec(raw), display: gwei(num(raw)) }),
    summarize: (o) => `Base fee of the next block: ${o.display}.`,
  }),
  evmTool({
    name: 'eth_maxPriorityFeePerGas',
    title: 'Priority fee',
    description: 'Get the priority fee (tip) per gas for inclusion on the C-Chain, in wei and gwei.',
    input: z.strictObject({ chain }),
    output: z.object({ maxPriorityFeePerGas: z.string().describe('Wei.'), display: z.string() }),
    params: () => [],
    decode: (raw) => ({ maxPriorityFeePerGas: dec(raw), display: gwei(num(raw)) }),
    summarize: (o) => `Priority fee needed: ${o.display}.`,
  }),
  defineTool({
    name: 'evm_rpc',
    title: 'Any EVM read method',
    description: 'Call any other C-Chain EVM read method (web3_, net_, eth_, txpool_); signing or sending is refused.',
    tier: 'read',
    toolset: 'evm',
    input: z.strictObject({
      method: z
        .string()
        .max(64)
        .refine((m) => (EVM_READ_METHODS as readonly string[]).includes(m), {
          message: 'not an allowed read method (signing, sending, personal_ and debug_ methods are refused here)',
        })
        .describe('Method, e.g. eth_getBlockReceipts.'),
      params: z.array(z.unknown()).max(20).default([]).describe('Positional params.'),
      chain,
    }),
    output: z.object({ method: z.string(), result: z.unknown() }),
    run: async (i, ctx) => ({ method: i.method, result: await ctx.rpc('evm', i.method, i.params, { chain: i.chain }) }),
    summarize: (o) => {
      const text = JSON.stringify(o.result) ?? 'null';
      const n = tolerantBigInt(o.result);
      const decimal = typeof o.result === 'string' && o.result.startsWith('0x') && o.result.length <= 66 && n !== undefined ? ` (= ${n})` : '';
      return `${o.method}: ${text.length > RESULT_TEXT_MAX ? `${text.slice(0, RESULT_TEXT_MAX)}… (${text.length} characters; the full result is structured)` : text}${decimal}`;
    },
  }),
  defineTool({
    name: 'debug_traceTransaction',
    title: 'Trace a C-Chain transaction',
    description: 'Replay a mined C-Chain transaction with a tracer (callTracer: call tree); needs the node\'s debug API.',
    tier: 'admin',
    toolset: 'evm',
    input: z.strictObject({
      hash: hash32('Transaction hash.'),
      tracer: z.enum(['callTracer', 'prestateTracer', '4byteTracer']).optional().describe('Omit for the step logger (large).'),
      chain,
    }),
    output: z.object({ hash: z.string(), result: z.unknown().describe('Cut to the first 200 steps for the step logger.'), structLogCount: z.number().optional() }),
    request: { kind: 'rpc', endpoint: 'evm', method: 'debug_traceTransaction', params: (i) => (i.tracer ? [i.hash, { tracer: i.tracer }] : [i.hash]) },
    decode: (raw, i) => {
      const r = obj(raw);
      if (Array.isArray(r.structLogs)) {
        return { hash: i.hash, result: { ...r, structLogs: r.structLogs.slice(0, 200) }, structLogCount: r.structLogs.length };
      }
      return { hash: i.hash, result: raw ?? null };
    },
    summarize: (o) => {
      const r = obj(o.result);
      if (o.structLogCount !== undefined) return `Trace of ${o.hash}: ${o.structLogCount} step(s), gas ${str(r.gas)}, ${r.failed ? 'FAILED' : 'succeeded'}.`;
      const text = JSON.stringify(o.result) ?? 'null';
      return `Trace of ${o.hash}: ${text.slice(0, RESULT_TEXT_MAX)}${text.length > RESULT_TEXT_MAX ? '…' : ''}`;
    },
  }),
  defineTool({
    name: 'evm_watch',
    title: 'Watch new blocks or logs',
    description: 'Collect new C-Chain block headers or matching logs over WebSocket.',
    tier: 'read',
    toolset: 'evm',
    input: z.strictObject({
      subscription: z.enum(['newHeads', 'logs']).describe('newHeads: block headers; logs: logs matching the filter.'),
      address: z.union([hexAddress(''), z.array(hexAddress('')).min(1).max(100)]).optional().describe('logs: contract address(es).'),
      topics: z
        .array(z.union([topic, z.null(), z.array(topic).max(20)]))
        .max(4)
        .optional()
        .describe('logs: topic filters, as in eth_getLogs.'),
      maxEvents: z.number().int().min(1).max(100).default(5).describe('Stop after this many events.'),
      timeoutSeconds: z.number().int().min(1).max(300).default(30).describe('Stop after this many seconds.'),
      chain,
    }),
    output: z.object({
      subscription: z.string(),
      events: z.array(z.record(z.string(), z.unknown())),
      count: z.number(),
      stoppedBy: z.enum(['maxEvents', 'timeout', 'cancelled', 'closed']),
      unsubscribed: z.boolean(),
      seconds: z.number(),
    }),
    run: (i, ctx) => watch(i, ctx),
    summarize: (o) => {
      const lines = [`${o.count} ${o.subscription === 'newHeads' ? 'new block(s)' : 'log(s)'} in ${o.seconds} s (stopped by ${o.stoppedBy}${o.unsubscribed ? ', unsubscribed' : ''}).`];
      if (o.subscription === 'newHeads') {
        lines.push(...listLines(o.events, 20, (e) => `block ${str(e.number)} ${str(e.hash).slice(0, 18)}… at ${str(obj(e.timestamp).iso)}, gas used ${str(e.gasUsed)}`));
      } else {
        lines.push(...listLines(o.events, 20, (e) => `block ${str(e.blockNumber)} ${str(e.address)} topic0 ${str((e.topics as string[] | undefined)?.[0]).slice(0, 18)}…`));
      }
      return lines.join('\n');
    },
  }),
]);

/** ws:// for loopback and plain http, wss:// otherwise (the spec: encryption on a remote host). */
export function wsUrlFor(nodeUrl: string, path: string): string {
  const u = new URL(nodeUrl);
  u.protocol = u.protocol === 'https:' ? 'wss:' : 'ws:';
  u.pathname = `${u.pathname.replace(/\/+$/, '')}${path}`;
  return u.toString();
}

interface WatchInput {
  subscription: 'newHeads' | 'logs';
  address?: string | string[];
  topics?: Array<string | null | string[]>;
  maxEvents: number;
  timeoutSeconds: number;
  chain?: string;
}

function headEvent(raw: unknown): Record<string, unknown> {
  const r = obj(raw);
  return {
    number: dec(r.number),
    hash: str(r.hash),
    parentHash: str(r.parentHash),
    timestamp: timeOut(num(r.timestamp)) ?? null,
    gasUsed: dec(r.gasUsed),
    baseFeePerGas: dec(r.baseFeePerGas),
  };
}

/** At most this many evm_watch subscriptions at once per process: each holds a socket for up to 300 s. */
export const MAX_WATCHES = 4;
/** One WebSocket frame from the node: a block header or a log is a few KB. */
const MAX_WS_FRAME = 1024 * 1024;
let activeWatches = 0;

async function watch(input: WatchInput, ctx: ToolContext) {
  if (activeWatches >= MAX_WATCHES) {
    throw new ChainMcpError('policy', `Too many evm_watch subscriptions at once (at most ${MAX_WATCHES}); nothing was subscribed.`, {
      hint: 'Wait for a running watch to finish, or use shorter timeoutSeconds.',
    });
  }
  activeWatches++;
  try {
    return await watchOnce(input, ctx);
  } finally {
    activeWatches--;
  }
}

async function watchOnce(input: WatchInput, ctx: ToolContext) {
  const rpcPath = endpointPath('evm', PRESETS.spec, input.chain);
  const url = wsUrlFor(ctx.config.nodeUrl, rpcPath.replace(/\/rpc$/, '/ws'));
  const headers: Record<string, string> = {};
  if (ctx.config.authToken) headers.authorization = `Bearer ${ctx.config.authToken}`;
  const started = Date.now();
  const events: Array<Record<string, unknown>> = [];
  const ws = new WebSocket(url, { headers, handshakeTimeout: ctx.config.timeoutMs, maxPayload: MAX_WS_FRAME });
  let subscriptionId: string | undefined;
  let nextId = 1;
  const waiting = new Map<number, (msg: { result?: unknown; error?: { message?: string } }) => void>();
  const request = (method: string, params: unknown[]) =>
    new Promise<{ result?: unknown; error?: { message?: string } }>((resolve, reject) => {
      const id = nextId++;
      const timer = setTimeout(() => {
        waiting.delete(id);
        reject(new ChainMcpError('timeout', `No answer to ${method} over the WebSocket within ${ctx.config.timeoutMs} ms.`));
      }, ctx.config.timeoutMs);
      waiting.set(id, (msg) => {
        clearTimeout(timer);
        resolve(msg);
      });
      ws.send(JSON.stringify({ jsonrpc: '2.0', id, method, params }));
    });

  let finish: (reason: 'maxEvents' | 'timeout' | 'cancelled' | 'closed') => void = () => undefined;
  const done = new Promise<'maxEvents' | 'timeout' | 'cancelled' | 'closed'>((resolve) => {
    finish = resolve;
  });
  ws.on('message', (data: Buffer) => {
    let msg: { id?: unknown; method?: unknown; params?: { subscription?: unknown; result?: unknown }; result?: unknown; error?: { message?: string } };
    try {
      msg = JSON.parse(data.toString('utf8'));
    } catch {
      return;
    }
    if (typeof msg.id === 'number' && waiting.has(msg.id)) {
      waiting.get(msg.id)!(msg);
      waiting.delete(msg.id);
      return;
    }
    if (msg.method === 'eth_subscription' && msg.params?.subscription === subscriptionId && events.length < input.maxEvents) {
      events.push(input.subscription === 'newHeads' ? headEvent(msg.params?.result) : logOut(msg.params?.result));
      void ctx.progress(events.length, input.maxEvents, `${events.length} of ${input.maxEvents} event(s)`);
      if (events.length >= input.maxEvents) finish('maxEvents');
    }
  });
  ws.on('close', () => finish('closed'));
  // After the handshake, a socket error ends the watch like a close (never an unhandled event).
  ws.on('error', () => finish('closed'));

  try {
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', (err) => reject(new ChainMcpError('connection', `Could not open the WebSocket ${url.replace(/\/\/[^@/]*@/, '//')}: ${err.message}`, { hint: 'Check that the node serves /ext/bc/C/ws and that CHAIN_MCP_NODE_URL is right.' })));
      ws.once('unexpected-response', (_req, res) =>
        reject(new ChainMcpError('http_status', `The WebSocket upgrade was refused with HTTP ${res.statusCode}.`, { hint: res.statusCode === 401 ? 'Set CHAIN_MCP_AUTH_TOKEN.' : 'Check the node URL and that the chain has a WebSocket endpoint.' })),
      );
    });
    const params: unknown[] = [input.subscription];
    if (input.subscription === 'logs') {
      const filter: Record<string, unknown> = {};
      if (input.address !== undefined) filter.address = input.address;
      if (input.topics !== undefined) filter.topics = input.topics;
      params.push(filter);
    }
    const answer = await request('eth_subscribe', params);
    if (answer.error || typeof answer.result !== 'string') {
      throw new ChainMcpError('rpc', `eth_subscribe failed: ${answer.error?.message ?? 'no subscription ID'}`);
    }
    subscriptionId = answer.result;
    await ctx.progress(0, input.maxEvents, `subscribed (${input.subscription}), waiting up to ${input.timeoutSeconds} s`);
    const timer = setTimeout(() => finish('timeout'), input.timeoutSeconds * 1000);
    const heartbeat = setInterval(() => {
      void ctx.progress(events.length, input.maxEvents, `waiting: ${Math.round((Date.now() - started) / 1000)} s, ${events.length} event(s)`);
    }, 5000);
    const onAbort = () => finish('cancelled');
    ctx.signal.addEventListener('abort', onAbort);
    const stoppedBy = await done;
    clearTimeout(timer);
    clearInterval(heartbeat);
    ctx.signal.removeEventListener('abort', onAbort);
    let unsubscribed = false;
    if (ws.readyState === WebSocket.OPEN) {
      const bye = await request('eth_unsubscribe', [subscriptionId]).catch(() => undefined);
      unsubscribed = bye?.result === true;
    }
    return {
      subscription: input.subscription,
      events,
      count: events.length,
      stoppedBy,
      unsubscribed,
      seconds: Math.round((Date.now() - started) / 100) / 10,
    };
  } finally {
    await new Promise<void>((resolve) => {
      if (ws.readyState === WebSocket.CLOSED) return resolve();
      ws.once('close', () => resolve());
      if (ws.readyState === WebSocket.CONNECTING) ws.terminate();
      else ws.close(1000);
      setTimeout(() => {
        ws.terminate();
        resolve();
      }, 2000).unref();
    });
  }
}
