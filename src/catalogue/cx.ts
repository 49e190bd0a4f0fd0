import { z } from 'zod';
import { withShallowOutputs } from '../summarize/schema.js';
import { meaningOf, TX_STATUS_MEANING } from '../summarize/chain.js';
import { answeredEncoding, big } from '../summarize/format.js';
import { cb58Id, chainSelector, encoding, NODE_ENCODINGS } from '../core/fields.js';
import { defineTool, type ToolDef } from '../core/tool.js';
import { fetchUtxos, summarizeUtxos, UtxoPageOut, utxoInput } from './xvm.js';

/** Contract chain specific methods, endpoint /ext/bc/C/cx (spec document 2). */

const str = (v: unknown): string => (v === undefined || v === null ? '' : String(v));
const obj = (raw: unknown): Record<string, unknown> => (raw && typeof raw === 'object' ? (raw as Record<string, unknown>) : {});

export const cxTools: ToolDef[] = withShallowOutputs([
  defineTool({
    name: 'cx_getAtomicTx',
    title: 'C-Chain atomic transaction',
    description: 'Get a C-Chain atomic (import/export) transaction by ID, with its block height.',
    tier: 'read',
    toolset: 'cx',
    input: z.strictObject({ txID: cb58Id('Transaction ID (cb58).'), encoding: encoding(NODE_ENCODINGS), chain: chainSelector('C') }),
    output: z.object({ txID: z.string(), tx: z.string(), encoding: z.string(), blockHeight: z.string().optional() }),
    request: { kind: 'rpc', endpoint: 'cx', method: 'cx.getAtomicTx' },
    decode: (raw, input) => {
      const r = obj(raw);
      const out: { txID: string; tx: string; encoding: string; blockHeight?: string } = { txID: input.txID, tx: str(r.tx), encoding: answeredEncoding(r.encoding, input.encoding, r.tx) };
      if (r.blockHeight !== undefined) out.blockHeight = big(r.blockHeight).toString();
      return out;
    },
    summarize: (o) =>
      `Atomic transaction ${o.txID}${o.blockHeight !== undefined ? ` is in C-Chain block ${o.blockHeight}` : ''} (${o.tx.length} characters of ${o.encoding}). Use cx_getAtomicTxStatus for its status.`,
  }),
  defineTool({
    name: 'cx_getAtomicTxStatus',
    title: 'C-Chain atomic transaction status',
    description: 'Get the status of a C-Chain atomic transaction.',
    tier: 'read',
    toolset: 'cx',
    input: z.strictObject({ txID: cb58Id('Transaction ID (cb58).'), chain: chainSelector('C') }),
    output: z.object({ txID: z.string(), status: z.string(), meaning: z.string(), blockHeight: z.string().optional() }),
    request: { kind: 'rpc', endpoint: 'cx', method: 'cx.getAtomicTxStatus' },
    decode: (raw, input) => {
      const r = obj(raw);
      const status = str(typeof raw === 'string' ? raw : r.status) || 'Unknown';
      const out: { txID: string; status: string; meaning: string; blockHeight?: string } = { txID: input.txID, status, meaning: meaningOf(TX_STATUS_MEANING, status) };
      if (r.blockHeight !== undefined) out.blockHeight = big(r.blockHeight).toString();
      return out;
    },
    summarize: (o) => `Atomic transaction ${o.txID} is ${o.status}${o.blockHeight !== undefined ? ` in block ${o.blockHeight}` : ''}: ${o.meaning}.`,
  }),
  defineTool({
    name: 'cx_getUTXOs',
    title: 'Atomic UTXOs (C-Chain)',
    description: 'List and total atomic UTXOs exported to C-Chain (C-...) addresses, not yet imported.',
    tier: 'read',
    toolset: 'cx',
    input: z.strictObject({ ...utxoInput(['C'], true), chain: chainSelector('C') }),
    output: UtxoPageOut,
    run: (input, ctx) => fetchUtxos(ctx, 'cx', 'cx.getUTXOs', input),
    summarize: (o, input) => summarizeUtxos(o, input),
  }),
]);
