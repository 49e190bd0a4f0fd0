/** evm_rpc (any read method by name) and debug_traceTransaction. */
import { z } from 'zod';
import { tolerantBigInt } from '../../codec/index.js';
import { defineTool, type ToolDef } from '../../core/tool.js';
import { chain, hash32, obj, str, RESULT_TEXT_MAX } from './shared.js';

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


export const rawTools: ToolDef[] = [
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
];
