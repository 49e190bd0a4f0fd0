import { z } from 'zod';
import { cb58Encode, decodeEncoded, hexChecksumEncode, impliedEncoding, parsePrivateKey } from '../codec/index.js';
import { ChainMcpError } from '../errors.js';
import { credentials, nodeHex, payloadBytes } from '../spend/plan.js';
import { decodeSuccess, SuccessOut } from '../spend/result.js';
import { chainSelector, hexAddress, inputEncoding, pAddress, xAddress } from '../core/fields.js';
import { defineTool, type SpendLimits, type SpendPlan, type ToolContext, type ToolDef } from '../core/tool.js';
import { KNOWN_NETWORKS } from '../context/network.js';
import { ownMark } from '../spend/plan.js';

/**
 * Keystore administration (/ext/keystore, spec document 1) and key export/import on X, P
 * and C (document 2 and 3). Every tool acts on the configured keystore user, so no
 * keystore password passes through the chat. Only the exportKey tools show a secret.
 */

const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const success = SuccessOut;
const ok = decodeSuccess;

/** Exported user data (asked in hex; read in whatever the node answered) in the encoding the caller wants. */
function reencode(user: string, wanted: 'hex' | 'cb58'): { user: string; encoding: string } {
  if (user === '') return { user, encoding: wanted };
  let bytes: Uint8Array;
  try {
    bytes = decodeEncoded(user, impliedEncoding(user, undefined));
  } catch (err) {
    throw new ChainMcpError('malformed', `the node's exported user data does not decode: ${(err as Error).message}`);
  }
  return { user: wanted === 'hex' ? hexChecksumEncode(bytes) : cb58Encode(bytes), encoding: wanted };
}

/**
 * The spec rejects weak keystore passwords and recommends at least 8 characters with upper
 * and lower case letters, numbers and symbols; this server refuses anything weaker.
 */
export function passwordProblem(password: string): string | undefined {
  if (password.length > 1024) return 'is longer than 1024 characters';
  if (password.length < 8) return 'is shorter than 8 characters';
  const missing = [
    [/[a-z]/, 'a lower-case letter'],
    [/[A-Z]/, 'an upper-case letter'],
    [/[0-9]/, 'a number'],
    [/[^A-Za-z0-9]/, 'a symbol'],
  ]
    .filter(([re]) => !(re as RegExp).test(password))
    .map(([, what]) => what);
  return missing.length ? `lacks ${missing.join(', ')}` : undefined;
}

const keystore = credentials;

const privateKey = z
  .string()
  .max(200)
  .refine((v) => {
    try {
      parsePrivateKey(v);
      return true;
    } catch {
      return false;
    }
  }, 'expected PrivateKey-<cb58>')
  .describe('Private key, PrivateKey-<cb58>. It is not shown back.');

const keyOut = z.object({ privateKey: z.string().describe('Secret: whoever has it controls the address.') });

/**
 * Keys and keystore users hand over (or take away) control of funds, so they go through the spend
 * confirmation pipeline (preview, confirm id, the human's approval, audit lines) though they stay in
 * the admin tier. Under any spending limit the ones that hand over control are refused outright.
 */
async function keyPlan(ctx: ToolContext, lines: string[], details: Record<string, unknown> = {}): Promise<SpendPlan> {
  const network = await ctx.network();
  const user = ctx.config.keystore?.username ?? '(not configured)';
  return {
    lines: [`Network: ${KNOWN_NETWORKS[network.networkID]?.name ?? 'network'} ${network.networkID} (prefix ${network.hrp})`, `Keystore user: ${user} (configured)`, ...lines],
    details,
  };
}

const handsOver = (what: string) => (): SpendLimits => ({ recipients: [], unbounded: what });

export const keystoreAdminTools: ToolDef[] = [
  defineTool({
    name: 'keystore_createUser',
    title: 'Create the configured keystore user',
    description: 'Create the keystore user named by CHAIN_MCP_KEYSTORE_USER with the configured password on this node; the password must be strong.',
    tier: 'admin',
    toolset: 'keystore',
    input: z.strictObject({}),
    output: success.extend({ username: z.string() }),
    run: async (_i, ctx) => {
      const { username, password } = keystore(ctx);
      const problem = passwordProblem(password);
      if (problem) {
        throw new ChainMcpError('input', `Invalid configuration: CHAIN_MCP_KEYSTORE_PASSWORD ${problem}; the node rejects weak passwords.`, {
          hint: 'Use at least 8 characters with upper and lower case letters, numbers and symbols (at most 1024), then restart.',
        });
      }
      return { ...ok(await ctx.rpc('keystore', 'keystore.createUser', { username, password })), username };
    },
    summarize: (o) => (o.success ? `Keystore user ${o.username} created on this node.` : 'The node did not confirm the creation.'),
  }),
  defineTool({
    name: 'keystore_deleteUser',
    title: 'Delete the configured keystore user',
    description: 'Delete the configured keystore user and its keys from this node. Export it first (keystore_exportUser) if the keys hold funds.',
    tier: 'admin',
    toolset: 'keystore',
    input: z.strictObject({}),
    output: success.extend({ username: z.string() }),
    confirmation: true,
    plan: (_i, ctx) =>
      keyPlan(ctx, [
        'Deletes: the keystore user and every key it holds, from this node. Funds stay on chain, but only an exported copy of the keys can spend them again.',
      ]),
    limits: () => ({ recipients: [] }),
    run: async (_i, ctx) => ({ ...ok(await ctx.rpc('keystore', 'keystore.deleteUser', { ...keystore(ctx) })), username: keystore(ctx).username }),
    summarize: (o) => (o.success ? `Keystore user ${o.username} deleted from this node.` : 'The node did not confirm the deletion.'),
  }),
  defineTool({
    name: 'keystore_exportUser',
    title: 'Export the configured keystore user',
    description: 'Export the configured keystore user as encrypted data (still protected by its password) to import on another node.',
    tier: 'admin',
    toolset: 'keystore',
    input: z.strictObject({ encoding: z.enum(['hex', 'cb58']).optional().describe('Encoding of the user data; default hex.') }),
    output: z.object({ user: z.string(), encoding: z.string() }),
    confirmation: true,
    plan: (_i, ctx) =>
      keyPlan(ctx, [
        "Exports: the keystore user's keys, encrypted with its password, into the result (where the assistant sees them). With the password, they control every fund of the user.",
      ]),
    limits: handsOver("the keystore user's keys"),
    run: async (i, ctx) => {
      // Asked in hex, which every node takes (a Camino node refuses cb58); cb58 is made here.
      const raw = (await ctx.rpc('keystore', 'keystore.exportUser', { ...keystore(ctx), encoding: 'hex' })) as Record<string, unknown>;
      return reencode(str(raw?.user), i.encoding ?? 'hex');
    },
    summarize: (o) => `Exported the keystore user (${o.user.length} characters of ${o.encoding}, encrypted with its password); the data is in structuredContent.user.`,
  }),
  defineTool({
    name: 'keystore_importUser',
    title: 'Import a keystore user',
    description: 'Import exported user data as the configured keystore user; the configured password must match the exported user\'s.',
    tier: 'admin',
    toolset: 'keystore',
    input: z.strictObject({ user: z.string().min(1).max(10_000_000).describe('Data from keystore_exportUser.'), encoding: inputEncoding('user') }),
    output: success.extend({ username: z.string() }),
    confirmation: true,
    plan: (i, ctx) =>
      keyPlan(ctx, [
        `Imports: ${i.user.length} characters of exported user data as the configured keystore user; whoever exported it may hold the same keys.`,
      ]),
    validate: (i) => void payloadBytes('user', i.user, i.encoding),
    limits: handsOver('keys someone else may also hold'),
    run: async (i, ctx) => {
      const { username, password } = keystore(ctx);
      const user = nodeHex('user', i.user, i.encoding);
      const raw = await ctx.rpc('keystore', 'keystore.importUser', { username, password, user: user.data, encoding: user.encoding });
      return { ...ok(raw), username };
    },
    summarize: (o) => (o.success ? `Imported as keystore user ${o.username}.` : 'The node did not confirm the import.'),
  }),
  defineTool({
    name: 'xvm_exportKey',
    title: 'Export an X address private key',
    description: "Return the private key of one of the keystore user's X addresses. The result is a secret.",
    tier: 'admin',
    toolset: 'xvm',
    input: z.strictObject({ address: xAddress('X address the keystore user controls.'), chain: chainSelector('X') }),
    output: keyOut,
    confirmation: true,
    plan: async (i, ctx) => keyPlan(ctx, [`Exports: the private key of ${await ownMark(ctx, i.address)} into the result (where the assistant sees it). Whoever holds it controls every fund of that address, on every chain.`], { address: i.address }),
    limits: handsOver('a private key'),
    request: { kind: 'rpc', endpoint: 'xvm', method: 'xvm.exportKey', params: (i, ctx) => ({ ...keystore(ctx), address: i.address }) },
    decode: (raw) => ({ privateKey: str((raw as { privateKey?: unknown })?.privateKey) }),
    summarize: (_o, i) => `Private key of ${i.address} is in structuredContent.privateKey. Keep it secret.`,
  }),
  defineTool({
    name: 'xvm_importKey',
    title: 'Import a private key on X',
    description: 'Add a private key to the keystore user and return its X address.',
    tier: 'admin',
    toolset: 'xvm',
    input: z.strictObject({ privateKey, chain: chainSelector('X') }),
    output: z.object({ address: z.string() }),
    confirmation: true,
    plan: (_i, ctx) => keyPlan(ctx, ['Imports: a private key into the keystore user (X chain); whoever gave it may also hold it. The key is not shown here.']),
    limits: handsOver('a key someone else may also hold'),
    request: { kind: 'rpc', endpoint: 'xvm', method: 'xvm.importKey', params: (i, ctx) => ({ ...keystore(ctx), privateKey: i.privateKey }) },
    decode: (raw) => ({ address: str((raw as { address?: unknown })?.address) }),
    summarize: (o) => `The keystore user now controls ${o.address}.`,
  }),
  defineTool({
    name: 'cx_exportKey',
    title: 'Export a C address private key',
    description: "Return the private key (cb58 and hex) of one of the keystore user's C-Chain hex addresses. The result is a secret.",
    tier: 'admin',
    toolset: 'cx',
    input: z.strictObject({ address: hexAddress('C-Chain address (0x...) the keystore user controls.'), chain: chainSelector('C') }),
    output: keyOut.extend({ privateKeyHex: z.string() }),
    confirmation: true,
    plan: (i, ctx) => keyPlan(ctx, [`Exports: the private key of C-Chain address ${i.address} into the result (where the assistant sees it). Whoever holds it controls every fund of that key, on every chain.`], { address: i.address }),
    limits: handsOver('a private key'),
    request: { kind: 'rpc', endpoint: 'cx', method: 'cx.exportKey', params: (i, ctx) => ({ ...keystore(ctx), address: i.address }) },
    decode: (raw) => ({ privateKey: str((raw as { privateKey?: unknown })?.privateKey), privateKeyHex: str((raw as { privateKeyHex?: unknown })?.privateKeyHex) }),
    summarize: (_o, i) => `Private key of ${i.address} is in structuredContent.privateKey (and privateKeyHex). Keep it secret.`,
  }),
  defineTool({
    name: 'cx_importKey',
    title: 'Import a private key on C',
    description: 'Add a private key to the keystore user and return its C-Chain hex address.',
    tier: 'admin',
    toolset: 'cx',
    input: z.strictObject({ privateKey, chain: chainSelector('C') }),
    output: z.object({ address: z.string() }),
    confirmation: true,
    plan: (_i, ctx) => keyPlan(ctx, ['Imports: a private key into the keystore user (C chain); whoever gave it may also hold it. The key is not shown here.']),
    limits: handsOver('a key someone else may also hold'),
    request: { kind: 'rpc', endpoint: 'cx', method: 'cx.importKey', params: (i, ctx) => ({ ...keystore(ctx), privateKey: i.privateKey }) },
    decode: (raw) => ({ address: str((raw as { address?: unknown })?.address) }),
    summarize: (o) => `The keystore user now controls ${o.address}.`,
  }),
  defineTool({
    name: 'platform_exportKey',
    title: 'Export a P address private key',
    description: "Return the private key of one of the keystore user's P addresses. The result is a secret.",
    tier: 'admin',
    toolset: 'platform',
    input: z.strictObject({ address: pAddress('P address the keystore user controls.') }),
    output: keyOut,
    confirmation: true,
    plan: async (i, ctx) => keyPlan(ctx, [`Exports: the private key of ${await ownMark(ctx, i.address)} into the result (where the assistant sees it). Whoever holds it controls every fund of that address, on every chain.`], { address: i.address }),
    limits: handsOver('a private key'),
    request: { kind: 'rpc', endpoint: 'platform', method: 'platform.exportKey', params: (i, ctx) => ({ ...keystore(ctx), address: i.address }) },
    decode: (raw) => ({ privateKey: str((raw as { privateKey?: unknown })?.privateKey) }),
    summarize: (_o, i) => `Private key of ${i.address} is in structuredContent.privateKey. Keep it secret.`,
  }),
];
