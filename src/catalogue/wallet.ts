import { z } from 'zod';
import { chainSelector } from '../core/fields.js';
import { defineTool, type ToolDef } from '../core/tool.js';
import { listLines } from '../summarize/format.js';
import { decodeTx, issuedText, TxOut } from '../spend/result.js';
import { issueSignedTx, sendInput, sendLimits, sendParams, sendPlan } from './xvm.spend.js';
import { onChain, shownAmount, userXAddresses } from '../spend/plan.js';

/**
 * Wallet API (/ext/bc/X/wallet, spec document 2) and the keystore user's addresses.
 * The address tools are the wallet tier: they need the credentials but move nothing.
 */

const str = (v: unknown): string => (typeof v === 'string' ? v : '');

export const walletTools: ToolDef[] = [
  defineTool({
    name: 'wallet_send',
    title: 'Send via the wallet API',
    description: 'Send like xvm_send, but the node assumes acceptance at once so the next calls can spend the change. For independent sends prefer xvm_send.',
    tier: 'spend',
    toolset: 'wallet',
    input: sendInput,
    output: TxOut,
    request: { kind: 'rpc', endpoint: 'wallet', method: 'wallet.send', credentials: true, params: sendParams },
    decode: decodeTx,
    plan: sendPlan,
    limits: sendLimits,
    summarize: async (o, i, ctx) => issuedText(`Sent ${await shownAmount(ctx, i.assetID, i.amount)} to ${i.to} (wallet API)`, o.txID, 'xvm_getTxStatus'),
  }),
  issueSignedTx({
    name: 'wallet_issueTx',
    title: 'Issue a signed tx via the wallet API',
    description: 'Issue a signed X-Chain transaction through the wallet API, which assumes it will be accepted. Cannot show what the bytes do.',
    toolset: 'wallet',
    endpoint: 'wallet',
    chain: 'X',
    done: 'Signed transaction (wallet API)',
    statusTool: 'xvm_getTxStatus',
  }),
  defineTool({
    name: 'xvm_createAddress',
    title: 'New X address for the keystore user',
    description: 'Create a new key in the configured keystore user and return its X-Chain address.',
    tier: 'wallet',
    toolset: 'xvm',
    input: z.strictObject({ chain: chainSelector('X') }),
    output: z.object({ address: z.string() }),
    request: { kind: 'rpc', endpoint: 'xvm', method: 'xvm.createAddress', credentials: true, params: () => ({}) },
    decode: (raw) => ({ address: str((raw as { address?: unknown })?.address) }),
    summarize: (o) => `New address of the keystore user: ${o.address}`,
    annotations: { readOnlyHint: false, idempotentHint: false },
  }),
  defineTool({
    name: 'xvm_listAddresses',
    title: 'Your X addresses',
    description: "List your X-Chain addresses: the local key's when it signs here, else the keystore user's.",
    tier: 'wallet',
    toolset: 'xvm',
    // Wallet tier for the credentials, but it only reads the keystore.
    annotations: { readOnlyHint: true, idempotentHint: true },
    input: z.strictObject({
      chain: chainSelector('X'),
      offset: z.number().int().min(0).default(0).describe('Skip this many addresses.'),
      limit: z.number().int().min(1).max(1000).default(100).describe('Addresses to return (1-1000, default 100).'),
    }),
    output: z.object({
      signer: z.enum(['local key', 'keystore user']).describe('Whose addresses: the key this server signs with, or the node keystore user.'),
      total: z.number(),
      addresses: z.array(z.string()),
      pAddress: z.string().optional().describe('The local key: its P-Chain address.'),
      evmAddress: z.string().optional().describe('The local key: its C-Chain EVM address.'),
      offset: z.number(),
      hasMore: z.boolean(),
    }),
    request: { kind: 'rpc', endpoint: 'xvm', method: 'xvm.listAddresses', credentials: true, params: () => ({}) },
    // Under the local signer "my addresses" are the key's: the keystore user's sign nothing here.
    run: async (i, ctx) => {
      const key = await ctx.keyAddresses?.();
      if (key) return { signer: 'local key' as const, total: 1, addresses: [key.x], pAddress: onChain(key.x, 'P'), evmAddress: key.evm, offset: 0, hasMore: false };
      const all = await userXAddresses(ctx);
      return { signer: 'keystore user' as const, total: all.length, addresses: all.slice(i.offset, i.offset + i.limit), offset: i.offset, hasMore: i.offset + i.limit < all.length };
    },
    summarize: (o) =>
      o.signer === 'local key'
        ? `Your addresses (the local key this server signs with): X ${o.addresses[0]}, P ${o.pAddress}, C-Chain EVM ${o.evmAddress}. The node's keystore user, if any, signs nothing here.`
        : [
            `The keystore user controls ${o.total} X addresses.`,
            ...listLines(o.addresses, 20, (a) => a),
            ...(o.hasMore ? [`More: call again with offset ${o.offset + o.addresses.length}.`] : []),
          ].join('\n'),
  }),
  defineTool({
    name: 'platform_createAddress',
    title: 'New P address for the keystore user',
    description: 'Create a new key in the configured keystore user and return its P-Chain address.',
    tier: 'wallet',
    toolset: 'platform',
    input: z.strictObject({}),
    output: z.object({ address: z.string() }),
    request: { kind: 'rpc', endpoint: 'platform', method: 'platform.createAddress', credentials: true, params: () => ({}) },
    decode: (raw) => ({ address: str((raw as { address?: unknown })?.address) }),
    summarize: (o) => `New address of the keystore user: ${o.address}`,
    annotations: { readOnlyHint: false, idempotentHint: false },
  }),
];
