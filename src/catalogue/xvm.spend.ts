import { z } from 'zod';
import { type ByteEncoding, formatAmount } from '../codec/index.js';
import { InputError } from '../errors.js';
import { nativeAmount } from '../summarize/format.js';
import { amount, ASSET_UNITS, assetIdOrAlias, cb58Id, chainAddress, chainIdOrAlias, chainSelector, compact, inputEncoding, xAddress } from '../core/fields.js';
import { defineTool, type SpendLimits, type SpendPlan, type ToolContext, type ToolDef } from '../core/tool.js';
import { assetName, changeAddrField, denominationField, fromField, memoField, minterSets, symbolField } from '../spend/fields.js';
import { recipientsOf, sumAmounts } from '../spend/guard.js';
import {
  changeLine,
  importPlan,
  feeLine,
  endsWithLine,
  headLines,
  inputBytes,
  nodeHex,
  payloadBytes,
  resolveAsset,
  shownAmount,
  txFees,
  userXAddresses,
  xBalance,
} from '../spend/plan.js';
import { strangerLine } from '../summarize/stranger.js';
import { decodeTx, issuedText, TxOut } from '../spend/result.js';
import { atomicTxID } from '../spend/issued-id.js';

/** Asset chain transactions, endpoint /ext/bc/X (spec document 2). Spend tier: preview, then confirm. */

const AssetOut = z.object({ assetID: z.string().describe('ID of the new asset.'), changeAddr: z.string().optional() });
const from = fromField(['X']);
const changeAddr = changeAddrField(['X']);
const xvm = <I>(method: string, params: (i: I) => Record<string, unknown>) => ({ kind: 'rpc' as const, endpoint: 'xvm' as const, method, credentials: true, params });
const STATUS = 'xvm_getTxStatus';

/** Shared by the plain and wallet sends. */
export const sendInput = z.strictObject({
  amount: amount(ASSET_UNITS, { field: 'assetID' }),
  assetID: assetIdOrAlias(),
  to: xAddress('Recipient X-Chain address (X-...).'),
  memo: memoField,
  from,
  changeAddr,
  chain: chainSelector('X'),
});
type SendInput = z.output<typeof sendInput>;

export function sendParams(i: SendInput): Record<string, unknown> {
  return compact({ amount: i.amount, assetID: i.assetID, to: i.to, memo: i.memo, from: i.from, changeAddr: i.changeAddr });
}

/** Every fungible amount counts against the cap, whatever its asset (docs/choices.md). */
export function sendLimits(i: SendInput): SpendLimits {
  return { amount: i.amount, recipients: recipientsOf(i.to, i.changeAddr), own: recipientsOf(i.changeAddr) };
}

export async function sendPlan(i: SendInput, ctx: ToolContext): Promise<SpendPlan> {
  const network = await ctx.network();
  const asset = await resolveAsset(ctx, i.assetID, network);
  const { txFee } = await txFees(ctx);
  const addresses = await userXAddresses(ctx, i.from);
  const before = await xBalance(ctx, addresses, i.assetID);
  const leaving = i.amount + (asset.native ? txFee : 0n);
  return {
    lines: [
      ...headLines(network, i.from),
      `To: ${i.to}`,
      await changeLine(ctx, i.changeAddr),
      `Amount: ${asset.show(i.amount)}${asset.native ? '' : ` of asset ${asset.info.assetID}`}`,
      feeLine(txFee, network),
      endsWithLine(before, leaving, asset.show),
      ...(i.memo ? [strangerLine('Memo', 'the sender', i.memo)] : []),
    ],
    details: { to: i.to, changeAddr: i.changeAddr ?? null, amount: i.amount.toString(), assetID: asset.info.assetID, fee: txFee.toString() },
    fee: txFee,
  };
}

const holders = z
  .array(z.strictObject({ address: xAddress('Holder X address.'), amount: amount('Units at creation, smallest unit.') }))
  .min(1)
  .max(256)
  .describe('Who holds how much at creation.');

async function creationPlan(
  ctx: ToolContext,
  i: { name: string; symbol: string; from?: string[]; denomination?: number; changeAddr?: string },
  kind: string,
  more: string[],
): Promise<SpendPlan> {
  const network = await ctx.network();
  const { creationTxFee } = await txFees(ctx);
  const fee = `${creationTxFee}`;
  return {
    lines: [
      ...headLines(network, i.from),
      `Creates ${kind}, denomination ${i.denomination ?? 0}`,
      ...more,
      await changeLine(ctx, i.changeAddr),
      `${feeLine(creationTxFee, network)} (asset creation fee)`,
      strangerLine('Name', 'the requester', i.name, 128),
      ...(i.symbol ? [strangerLine('Symbol', 'the requester', i.symbol, 16)] : []),
    ],
    details: { kind, name: i.name, symbol: i.symbol, fee },
    fee: creationTxFee,
  };
}

export const xvmSpendTools: ToolDef[] = [
  defineTool({
    name: 'xvm_createFixedCapAsset',
    title: 'Create a fixed-cap asset',
    description: 'Create an X-Chain asset whose whole supply exists at creation, split among initial holders. Costs the asset creation fee.',
    tier: 'spend',
    toolset: 'xvm',
    input: z.strictObject({ name: assetName, symbol: symbolField, denomination: denominationField, initialHolders: holders, from, changeAddr, chain: chainSelector('X') }),
    output: AssetOut,
    request: xvm('xvm.createFixedCapAsset', (i: { name: string; symbol: string; denomination?: number; initialHolders: Array<{ address: string; amount: bigint }>; from?: string[]; changeAddr?: string }) =>
      compact({
        name: i.name,
        symbol: i.symbol,
        denomination: i.denomination,
        initialHolders: i.initialHolders.map((h) => ({ address: h.address, amount: h.amount })),
        from: i.from,
        changeAddr: i.changeAddr,
      }),
    ),
    decode: (raw) => ({ assetID: String((raw as { assetID?: unknown })?.assetID ?? ''), changeAddr: (raw as { changeAddr?: string })?.changeAddr }),
    plan: (i, ctx) => {
      // The symbol is the requester's free text: amounts here show the number only.
      const show = (v: bigint) => formatAmount(v, { decimals: i.denomination ?? 0 });
      return creationPlan(ctx, i, 'a fixed-cap asset', i.initialHolders.map((h) => `Holder: ${h.address} gets ${show(h.amount)} (${h.amount} units)`));
    },
    // The holders get units of a new asset: nothing the user holds leaves but the fee.
    limits: (i) => ({ recipients: recipientsOf(i.initialHolders.map((h) => h.address), i.changeAddr), own: recipientsOf(i.changeAddr) }),
    summarize: (o, i) => `Created fixed-cap asset ${i.name} (${i.symbol}): assetID ${o.assetID}. Check it with xvm_getAssetDescription.`,
  }),
  defineTool({
    name: 'xvm_createVariableCapAsset',
    title: 'Create a variable-cap asset',
    description: 'Create an X-Chain asset with no initial supply that minter sets mint later with xvm_mint. Costs the asset creation fee.',
    tier: 'spend',
    toolset: 'xvm',
    input: z.strictObject({ name: assetName, symbol: symbolField, denomination: denominationField, minterSets, from, changeAddr, chain: chainSelector('X') }),
    output: AssetOut,
    request: xvm('xvm.createVariableCapAsset', (i: { name: string; symbol: string; denomination?: number; minterSets: unknown; from?: string[]; changeAddr?: string }) =>
      compact({ name: i.name, symbol: i.symbol, denomination: i.denomination, minterSets: i.minterSets, from: i.from, changeAddr: i.changeAddr }),
    ),
    decode: (raw) => ({ assetID: String((raw as { assetID?: unknown })?.assetID ?? ''), changeAddr: (raw as { changeAddr?: string })?.changeAddr }),
    plan: (i, ctx) =>
      creationPlan(
        ctx,
        i,
        'a variable-cap asset',
        i.minterSets.map((s, n) => `Minter set ${n + 1}: ${s.threshold} of ${s.minters.join(', ')}`),
      ),
    limits: (i) => ({ recipients: recipientsOf(i.changeAddr), own: recipientsOf(i.changeAddr) }),
    summarize: (o, i) => `Created variable-cap asset ${i.name} (${i.symbol}): assetID ${o.assetID}. Mint it with xvm_mint.`,
  }),
  defineTool({
    name: 'xvm_createNFTAsset',
    title: 'Create an NFT family',
    description: 'Create an X-Chain non-fungible asset; minter sets mint tokens later with xvm_mintNFT. Costs the asset creation fee.',
    tier: 'spend',
    toolset: 'xvm',
    input: z.strictObject({ name: assetName, symbol: symbolField, minterSets, from, changeAddr, chain: chainSelector('X') }),
    output: AssetOut,
    request: xvm('xvm.createNFTAsset', (i: { name: string; symbol: string; minterSets: unknown; from?: string[]; changeAddr?: string }) =>
      compact({ name: i.name, symbol: i.symbol, minterSets: i.minterSets, from: i.from, changeAddr: i.changeAddr }),
    ),
    decode: (raw) => ({ assetID: String((raw as { assetID?: unknown })?.assetID ?? ''), changeAddr: (raw as { changeAddr?: string })?.changeAddr }),
    plan: (i, ctx) =>
      creationPlan(ctx, i, 'an NFT asset', i.minterSets.map((s, n) => `Minter set ${n + 1}: ${s.threshold} of ${s.minters.join(', ')}`)),
    limits: (i) => ({ recipients: recipientsOf(i.changeAddr), own: recipientsOf(i.changeAddr) }),
    summarize: (o, i) => `Created NFT asset ${i.name} (${i.symbol}): assetID ${o.assetID}. Mint tokens with xvm_mintNFT.`,
  }),
  defineTool({
    name: 'xvm_mint',
    title: 'Mint a variable-cap asset',
    description: 'Create new units of a variable-cap asset for an address; the keystore user must hold a minter set\'s threshold of keys.',
    tier: 'spend',
    toolset: 'xvm',
    input: z.strictObject({
      amount: amount('Units to create: smallest units or e.g. 1.5 GLD.', { field: 'assetID' }),
      assetID: assetIdOrAlias('Asset ID of the variable-cap asset.'),
      to: xAddress('X address that receives the new units.'),
      from,
      changeAddr,
      chain: chainSelector('X'),
    }),
    output: TxOut,
    request: xvm('xvm.mint', (i: { amount: bigint; assetID: string; to: string; from?: string[]; changeAddr?: string }) =>
      compact({ amount: i.amount, assetID: i.assetID, to: i.to, from: i.from, changeAddr: i.changeAddr }),
    ),
    decode: decodeTx,
    plan: async (i, ctx) => {
      const network = await ctx.network();
      const asset = await resolveAsset(ctx, i.assetID, network);
      const { txFee } = await txFees(ctx);
      return {
        lines: [
          ...headLines(network, i.from),
          `To: ${i.to}`,
          await changeLine(ctx, i.changeAddr),
          `Mints: ${asset.show(i.amount)} of asset ${asset.info.assetID}`,
          feeLine(txFee, network),
          ...(asset.info.name ? [strangerLine('Asset name', 'its creator', asset.info.name, 128)] : []),
        ],
        details: { assetID: asset.info.assetID, amount: i.amount.toString(), to: i.to },
        fee: txFee,
      };
    },
    // Minting creates units; only the fee leaves the user.
    limits: (i) => ({ recipients: recipientsOf(i.to, i.changeAddr), own: recipientsOf(i.changeAddr) }),
    summarize: async (o, i, ctx) => issuedText(`Minted ${await shownAmount(ctx, i.assetID, i.amount)} to ${i.to}`, o.txID, STATUS),
  }),
  defineTool({
    name: 'xvm_mintNFT',
    title: 'Mint an NFT',
    description: 'Mint one token of an NFT asset with a payload (at most 1024 bytes) to an address.',
    tier: 'spend',
    toolset: 'xvm',
    input: z.strictObject({
      assetID: assetIdOrAlias('Asset ID of the NFT asset.'),
      payload: z.string().min(1).max(4096).describe('Token data, at most 1024 bytes, in `encoding`.'),
      to: xAddress('X address that receives the token.'),
      encoding: inputEncoding('payload'),
      from,
      changeAddr,
      chain: chainSelector('X'),
    }),
    output: TxOut,
    request: xvm('xvm.mintNFT', (i: { assetID: string; payload: string; to: string; encoding?: ByteEncoding; from?: string[]; changeAddr?: string }) => {
      const payload = nodeHex('payload', i.payload, i.encoding);
      return compact({ assetID: i.assetID, payload: payload.data, to: i.to, encoding: payload.encoding, from: i.from, changeAddr: i.changeAddr });
    }),
    decode: decodeTx,
    plan: async (i, ctx) => {
      const size = nftPayloadBytes(i.payload, i.encoding);
      const network = await ctx.network();
      const { txFee } = await txFees(ctx);
      return {
        lines: [
          ...headLines(network, i.from),
          `To: ${i.to}`,
          await changeLine(ctx, i.changeAddr),
          `Mints: one NFT of asset ${i.assetID} with a ${size}-byte payload`,
          feeLine(txFee, network),
        ],
        details: { assetID: i.assetID, payloadBytes: size, to: i.to },
        fee: txFee,
      };
    },
    validate: (i) => void nftPayloadBytes(i.payload, i.encoding),
    limits: (i) => ({ recipients: recipientsOf(i.to, i.changeAddr), own: recipientsOf(i.changeAddr) }),
    summarize: (o, i) => issuedText(`Minted an NFT of ${i.assetID} to ${i.to}`, o.txID, STATUS),
  }),
  defineTool({
    name: 'xvm_send',
    title: 'Send an asset on X',
    description: 'Send an amount of an asset (native or other) to an X-Chain address. For several recipients use xvm_sendMultiple; to move to P or C use xvm_export.',
    tier: 'spend',
    toolset: 'xvm',
    input: sendInput,
    output: TxOut,
    request: xvm('xvm.send', sendParams),
    decode: decodeTx,
    plan: sendPlan,
    limits: sendLimits,
    summarize: async (o, i, ctx) => issuedText(`Sent ${await shownAmount(ctx, i.assetID, i.amount)} to ${i.to}`, o.txID, STATUS),
  }),
  defineTool({
    name: 'xvm_sendMultiple',
    title: 'Send to several recipients on X',
    description: 'Send several amounts (any assets) to several X-Chain addresses in one transaction.',
    tier: 'spend',
    toolset: 'xvm',
    input: z.strictObject({
      outputs: z
        .array(z.strictObject({ assetID: assetIdOrAlias(), amount: amount(ASSET_UNITS, { field: 'assetID' }), to: xAddress('Recipient X address.') }))
        .min(1)
        .max(256)
        .describe('One item per payment.'),
      memo: memoField,
      from,
      changeAddr,
      chain: chainSelector('X'),
    }),
    output: TxOut,
    request: xvm('xvm.sendMultiple', (i: { outputs: Array<{ assetID: string; amount: bigint; to: string }>; memo?: string; from?: string[]; changeAddr?: string }) =>
      compact({
        outputs: i.outputs.map((o) => ({ assetID: o.assetID, amount: o.amount, to: o.to })),
        memo: i.memo,
        from: i.from,
        changeAddr: i.changeAddr,
      }),
    ),
    decode: decodeTx,
    plan: async (i, ctx) => {
      const network = await ctx.network();
      const { txFee } = await txFees(ctx);
      let native = 0n;
      const lines: string[] = [];
      for (const o of i.outputs) {
        const asset = await resolveAsset(ctx, o.assetID, network);
        if (asset.native) native += o.amount;
        lines.push(`Pays ${lines.length + 1} of ${i.outputs.length}: ${asset.show(o.amount)}${asset.native ? '' : ` of asset ${asset.info.assetID}`} to ${o.to}`);
      }
      const addresses = await userXAddresses(ctx, i.from);
      const before = network.assetID ? await xBalance(ctx, addresses, network.assetID) : undefined;
      const show = (v: bigint) => nativeAmount(v, network).display;
      return {
        lines: [
          ...headLines(network, i.from),
          ...lines,
          await changeLine(ctx, i.changeAddr),
          `Total native: ${show(native)}`,
          feeLine(txFee, network),
          endsWithLine(before, native + txFee, show),
          ...(i.memo ? [strangerLine('Memo', 'the sender', i.memo)] : []),
        ],
        details: { outputs: i.outputs.length, nativeTotal: native.toString(), fee: txFee.toString(), changeAddr: i.changeAddr ?? null },
        fee: txFee,
      };
    },
    limits: (i) => ({
      amount: sumAmounts(i.outputs.map((o) => o.amount)),
      recipients: recipientsOf(i.outputs.map((o) => o.to), i.changeAddr),
      own: recipientsOf(i.changeAddr),
    }),
    summarize: (o, i) => issuedText(`Sent ${i.outputs.length} payments`, o.txID, STATUS),
  }),
  defineTool({
    name: 'xvm_sendNFT',
    title: 'Send an NFT',
    description: 'Send an NFT of a group of an NFT asset to an X-Chain address.',
    tier: 'spend',
    toolset: 'xvm',
    input: z.strictObject({
      assetID: assetIdOrAlias('Asset ID of the NFT asset.'),
      groupID: z.number().int().min(0).max(2 ** 32 - 1).describe('NFT group to send from.'),
      to: xAddress('Recipient X address.'),
      from,
      changeAddr,
      chain: chainSelector('X'),
    }),
    output: TxOut,
    request: xvm('xvm.sendNFT', (i: { assetID: string; groupID: number; to: string; from?: string[]; changeAddr?: string }) =>
      compact({ assetID: i.assetID, groupID: i.groupID, to: i.to, from: i.from, changeAddr: i.changeAddr }),
    ),
    decode: decodeTx,
    plan: async (i, ctx) => {
      const network = await ctx.network();
      const { txFee } = await txFees(ctx);
      return {
        lines: [
          ...headLines(network, i.from),
          `To: ${i.to}`,
          await changeLine(ctx, i.changeAddr),
          `Sends: the NFTs of group ${i.groupID} of asset ${i.assetID} that you hold (what moves: every token of that group in your outputs)`,
          feeLine(txFee, network),
        ],
        details: { assetID: i.assetID, groupID: i.groupID, to: i.to },
        fee: txFee,
      };
    },
    limits: (i) => ({ recipients: recipientsOf(i.to, i.changeAddr), own: recipientsOf(i.changeAddr) }),
    summarize: (o, i) => issuedText(`Sent NFT group ${i.groupID} of ${i.assetID} to ${i.to}`, o.txID, STATUS),
  }),
  defineTool({
    name: 'xvm_export',
    title: 'Export from X to P or C',
    description: 'Step 1 of a cross-chain move: export an asset from X to a P- or C- address. Complete it with the import on the destination (cx_import for C).',
    tier: 'spend',
    toolset: 'xvm',
    input: z.strictObject({
      to: chainAddress(['P', 'C'], 'Destination address on the P or C chain (P-... or C-...).'),
      amount: amount(ASSET_UNITS, { field: 'assetID' }),
      assetID: assetIdOrAlias('Asset to export; the native asset by its ID or alias.'),
      from,
      changeAddr,
      chain: chainSelector('X'),
    }),
    output: TxOut,
    request: xvm('xvm.export', (i: { to: string; amount: bigint; assetID: string; from?: string[]; changeAddr?: string }) =>
      compact({ to: i.to, amount: i.amount, assetID: i.assetID, from: i.from, changeAddr: i.changeAddr }),
    ),
    decode: decodeTx,
    plan: async (i, ctx) => {
      const network = await ctx.network();
      const asset = await resolveAsset(ctx, i.assetID, network);
      const { txFee } = await txFees(ctx);
      const before = await xBalance(ctx, await userXAddresses(ctx, i.from), i.assetID);
      const dest = i.to.slice(0, 1);
      return {
        lines: [
          ...headLines(network, i.from),
          `To: ${i.to} (chain ${dest}; completed by ${importTool(dest)})`,
          await changeLine(ctx, i.changeAddr),
          `Amount: ${asset.show(i.amount)}`,
          feeLine(txFee, network),
          endsWithLine(before, i.amount + (asset.native ? txFee : 0n), asset.show),
        ],
        details: { to: i.to, amount: i.amount.toString(), destinationChain: dest },
        fee: txFee,
      };
    },
    limits: (i) => ({ amount: i.amount, recipients: recipientsOf(i.to, i.changeAddr), own: recipientsOf(i.changeAddr) }),
    summarize: async (o, i, ctx) =>
      issuedText(`Exported ${await shownAmount(ctx, i.assetID, i.amount)} from X to ${i.to}`, o.txID, STATUS, [
        `Not done yet: complete the transfer with ${importTool(i.to.slice(0, 1))} (sourceChain "X", to the same destination) once this is Accepted.`,
      ]),
  }),
  defineTool({
    name: 'xvm_import',
    title: 'Import into X',
    description: 'Step 2 of a cross-chain move: import onto X what was exported from P or C (platform_exportNative, cx_export) to `to`.',
    tier: 'spend',
    toolset: 'xvm',
    input: z.strictObject({
      to: xAddress('X address that the export named; the user must control it.'),
      sourceChain: chainIdOrAlias('Chain the funds come from: P, C or a chain ID.'),
      txID: cb58Id('Local signer: the export whose outputs to import; default everything waiting.').optional(),
      chain: chainSelector('X'),
    }),
    output: TxOut,
    request: xvm('xvm.import', (i: { to: string; sourceChain: string }) => ({ to: i.to, sourceChain: i.sourceChain })),
    decode: decodeTx,
    // What waits is what the user's keys own in shared memory; `to` is where it all goes.
    plan: async (i, ctx) =>
      importPlan(ctx, { to: i.to, sourceChain: i.sourceChain, chain: i.chain, waitingOn: await userXAddresses(ctx) }),
    limits: (i) => ({ recipients: [i.to], own: [i.to] }),
    summarize: (o, i) => issuedText(`Imported funds from ${i.sourceChain} to ${i.to}`, o.txID, STATUS),
  }),
  issueSignedTx({
    name: 'xvm_issueTx',
    title: 'Issue a signed X transaction',
    description: 'Issue an already signed X-Chain transaction. Prefer the tools that build transactions; this one cannot show what the bytes do.',
    toolset: 'xvm',
    endpoint: 'xvm',
    chain: 'X',
    done: 'Signed transaction',
    statusTool: STATUS,
  }),
];

/** An NFT payload's size (at most 1024 bytes), its checksum verified; refused naming `payload`. */
function nftPayloadBytes(payload: string, encoding: ByteEncoding | undefined): number {
  const size = payloadBytes('payload', payload, encoding);
  if (size > 1024) throw new InputError('payload', `must be at most 1024 bytes; it is ${size} bytes`);
  return size;
}

export function importTool(dest: string): string {
  return dest === 'C' ? 'cx_import' : dest === 'P' ? "the platform chain's import" : 'xvm_import';
}

/** Preview of signed bytes: only their size and that they cannot be checked. */
export async function opaquePlan(ctx: ToolContext, tx: string, enc: ByteEncoding | undefined, chain: string): Promise<SpendPlan> {
  const size = payloadBytes('tx', tx, enc);
  const network = await ctx.network();
  return {
    lines: [
      `Network: ${network.networkID} (prefix ${network.hrp}), chain ${chain}`,
      `Issues a signed transaction of ${size} bytes. Its recipients and amounts cannot be shown here: approve only if you built it yourself.`,
    ],
    details: { bytes: size },
  };
}

/**
 * `*.issueTx` of the X, wallet and C APIs: the same operation on three endpoints. The bytes
 * are signed elsewhere, so the preview can only show their size (see opaquePlan).
 */
export function issueSignedTx(opts: {
  name: string;
  title: string;
  description: string;
  toolset: 'xvm' | 'wallet' | 'cx';
  endpoint: 'xvm' | 'wallet' | 'cx';
  chain: 'X' | 'C';
  done: string;
  statusTool: string;
}) {
  return defineTool({
    name: opts.name,
    title: opts.title,
    description: opts.description,
    tier: 'spend',
    toolset: opts.toolset,
    input: z.strictObject({
      tx: z.string().min(1).max(2_000_000).describe('Signed transaction bytes in `encoding`.'),
      encoding: inputEncoding('tx'),
      chain: chainSelector(opts.chain),
    }),
    output: TxOut,
    request: {
      kind: 'rpc',
      endpoint: opts.endpoint,
      method: `${opts.endpoint}.issueTx`,
      params: (i) => {
        const tx = nodeHex('tx', i.tx, i.encoding);
        return { tx: tx.data, encoding: tx.encoding };
      },
    },
    decode: decodeTx,
    plan: (i, ctx) => opaquePlan(ctx, i.tx, i.encoding, opts.chain),
    validate: (i) => void payloadBytes('tx', i.tx, i.encoding),
    // The node answers the bytes' own ID (sha256 of exactly these bytes); any other answer is not taken.
    issuedID: (i) => atomicTxID(inputBytes('tx', i.tx, i.encoding)),
    limits: () => ({ recipients: [], opaque: 'this transaction' }),
    summarize: (o) => issuedText(opts.done, o.txID, opts.statusTool),
  });
}
