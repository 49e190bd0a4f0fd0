/** Addresses, assets and outputs (UTXOs), and which chains an address was seen on. */
import { z } from 'zod';
import { assetIdOrAlias, cb58Id } from '../../core/fields.js';
import { defineTool, type ToolContext, type ToolDef } from '../../core/tool.js';
import { toChainMcpError } from '../../errors.js';
import { listLines } from '../../summarize/format.js';
import { type AssetAmount, chainAlias, indexerAssets, isoShort, nativeIdentity, statusOrEmpty, totalsList } from '../../summarize/indexer.js';
import { STRANGER_NOTE } from '../../summarize/stranger.js';
import { decodeAddress, decodeAsset, decodeOutput } from './decode.js';
import { address, addresses, arr, chainIDs, listParams, rec, str } from './fields.js';
import { addressLines, assetLine, nativeSupplyText, outputLine } from './lines.js';
import { common, indexerRequest, listPairs, nextLine, nextPage, repeated, seg, single } from './request.js';
import { type AddressRecord, Amt, type Asset, AssetShallow, Next, Output, rows } from './shapes.js';

const addressChainsInput = z.strictObject({ address: addresses('Addresses to look up.') });
const addressChainsReq = indexerRequest<z.output<typeof addressChainsInput>>({
  path: () => '/v2/addressChains',
  query: (i) => repeated('address', i.address),
});

const listAddrInput = z.strictObject({ chainID: chainIDs, address: addresses('Only these addresses.').optional(), ...listParams });
const listAddrReq = indexerRequest<z.output<typeof listAddrInput>>({
  path: () => '/v2/addresses',
  query: (i) => [...repeated('chainID', i.chainID), ...repeated('address', i.address), ...listPairs(i)],
});

const getAddrInput = z.strictObject({ address: address('Address, bech32; X-/P- prefix optional.') });
const getAddrReq = indexerRequest<z.output<typeof getAddrInput>>({
  path: (i) => `/v2/addresses/${seg(i.address)}`,
  notFound: (i) => `The indexer has no record of address ${i.address} (it never received anything).`,
});

/** The native asset's row gets the node's supply beside the indexer's (see nativeSupplyText). */
async function withNetworkSupply(asset: Asset, ctx: ToolContext): Promise<Asset> {
  if (!asset.native) return asset;
  try {
    const out = await ctx.call('platform_getCurrentSupply', {});
    return { ...asset, networkSupply: out.supply as Asset['currentSupply'] };
  } catch (err) {
    return { ...asset, networkSupplyProblem: toChainMcpError(err).message };
  }
}

const listAssetsInput = z.strictObject({ ...listParams });
const listAssetsReq = indexerRequest<z.output<typeof listAssetsInput>>({ path: () => '/v2/assets', query: listPairs });

const getAssetInput = z.strictObject({ id: assetIdOrAlias('Asset ID (cb58) or alias.') });
const getAssetReq = indexerRequest<z.output<typeof getAssetInput>>({
  path: (i) => `/v2/assets/${seg(i.id)}`,
  notFound: (i) => `The indexer knows no asset ${i.id}.`,
});

const listOutputsInput = z.strictObject({
  chainID: chainIDs,
  address: addresses('Only these owners.').optional(),
  spent: z.boolean().optional().describe('true: spent only; false: unspent only; omit for both.'),
  ...listParams,
});
const listOutputsReq = indexerRequest<z.output<typeof listOutputsInput>>({
  path: () => '/v2/outputs',
  query: (i) => [...repeated('chainID', i.chainID), ...repeated('address', i.address), ...single('spent', i.spent), ...listPairs(i)],
});

const getOutputInput = z.strictObject({ id: cb58Id('Output ID (cb58).') });
const getOutputReq = indexerRequest<z.output<typeof getOutputInput>>({
  path: (i) => `/v2/outputs/${seg(i.id)}`,
  notFound: (i) => `The indexer knows no output ${i.id}.`,
});

/** The first line names the native asset's two figures, so a model does not take the indexer's for the network's. */
function nativeFirst(assets: Asset[]): string {
  const native = assets.find((a) => a.native);
  return native ? ` ${native.symbol || native.id} is ${nativeSupplyText(native)}.` : '';
}

export const addressChainsTools: ToolDef[] = [
  defineTool({
    ...common,
    name: 'indexer_getAddressChains',
    title: 'Chains an address used',
    description: 'List the chains on which each address has activity.',
    input: addressChainsInput,
    output: z.object({ addressChains: z.array(z.object({ address: z.string(), chains: z.array(z.object({ chainID: z.string(), alias: z.string() })) })) }),
    request: addressChainsReq.request,
    run: async (input, ctx) => {
      const r = rec((await addressChainsReq.fetch(input, ctx)).raw);
      const status = await statusOrEmpty(ctx);
      const map = rec(r.addressChains);
      return {
        addressChains: input.address.map((a) => ({ address: a, chains: arr(map[a]).map((id) => ({ chainID: str(id), alias: chainAlias(status, str(id)) })) })),
      };
    },
    summarize: (o) =>
      o.addressChains
        .map((a) => `${a.address}: ${a.chains.length ? a.chains.map((c) => c.alias || c.chainID).join(', ') : 'no activity known to the indexer'}`)
        .join('\n'),
  }),
];

export const assetTools: ToolDef[] = [
  defineTool({
    ...common,
    name: 'indexer_listAddresses',
    title: 'Address records',
    description: 'List address records (balance, received, sent, counts per asset) by chain or address.',
    input: listAddrInput,
    output: z.object({ count: z.number(), addresses: rows('Each: address, publicKey, assets (as in indexer_getAddress).'), next: Next }),
    request: listAddrReq.request,
    run: async (input, ctx) => {
      const r = rec((await listAddrReq.fetch(input, ctx)).raw);
      const raws = arr(r.addresses);
      const assets = await indexerAssets(ctx, raws.flatMap((a) => Object.keys(rec(rec(a).assets))));
      const list = raws.map((a) => decodeAddress(a, assets));
      return { count: list.length, addresses: list, next: nextPage(r, input, []) };
    },
    summarize: (o) =>
      [
        `${o.count} address record(s).`,
        ...listLines(o.addresses as AddressRecord[], 20, (a) => `${a.address}: ${a.assets.map((x) => x.balance.display).join(', ') || 'no assets'}`),
        ...nextLine('indexer_listAddresses', o.next),
      ].join('\n'),
  }),
  defineTool({
    ...common,
    name: 'indexer_getAddress',
    title: 'Address record',
    description: "Get an address's balance, received, sent, transaction and UTXO counts per asset.",
    input: getAddrInput,
    output: z.object({
      address: z.string(),
      publicKey: z.string().nullable(),
      assets: rows('Each: assetID, symbol, balance, totalReceived, totalSent (each {value, display}), transactionCount, utxoCount.'),
    }),
    request: getAddrReq.request,
    run: async (input, ctx) => {
      const raw = (await getAddrReq.fetch(input, ctx)).raw;
      const assets = await indexerAssets(ctx, Object.keys(rec(rec(raw).assets)));
      const decoded = decodeAddress(raw, assets);
      return { ...decoded, address: decoded.address || input.address };
    },
    summarize: (o) => addressLines(o as AddressRecord).join('\n'),
  }),
  defineTool({
    ...common,
    name: 'indexer_listAssets',
    title: 'Assets',
    description: 'List the assets created on the network: name, symbol, supply, kind.',
    input: listAssetsInput,
    output: z.object({ count: z.number(), assets: rows('Each: as in indexer_getAsset.'), next: Next }),
    request: listAssetsReq.request,
    run: async (input, ctx) => {
      const r = rec((await listAssetsReq.fetch(input, ctx)).raw);
      const native = await nativeIdentity(ctx);
      const assets = await Promise.all(arr(r.assets).map((raw) => withNetworkSupply(decodeAsset(raw, native), ctx)));
      return { count: assets.length, assets, next: nextPage(r, input, assets) };
    },
    summarize: (o) => [`${o.count} asset(s).${nativeFirst(o.assets as Asset[])}`, ...listLines(o.assets as Asset[], 30, (a) => assetLine(a, true)), STRANGER_NOTE, ...nextLine('indexer_listAssets', o.next)].join('\n'),
  }),
  defineTool({
    ...common,
    name: 'indexer_getAsset',
    title: 'Asset details',
    description: "Get an asset's name, symbol, denomination, supply and kind (fixed/variable cap, NFT).",
    input: getAssetInput,
    output: AssetShallow,
    request: getAssetReq.request,
    run: async (input, ctx) => withNetworkSupply(decodeAsset((await getAssetReq.fetch(input, ctx)).raw, await nativeIdentity(ctx)), ctx),
    summarize: (o) => `${assetLine(o)}; on chain ${o.chainID}${o.timestamp ? `, created ${isoShort(o.timestamp)}` : ''}.\n${STRANGER_NOTE}`,
  }),
  defineTool({
    ...common,
    name: 'indexer_listOutputs',
    title: 'Outputs (UTXOs)',
    description: 'List outputs (UTXOs) by chain and owner address, spent or unspent.',
    input: listOutputsInput,
    output: z.object({ count: z.number(), totals: rows('Sum per asset: assetID, symbol, amount.'), outputs: rows('As in indexer_getOutput.'), next: Next }),
    request: listOutputsReq.request,
    run: async (input, ctx) => {
      const r = rec((await listOutputsReq.fetch(input, ctx)).raw);
      const raws = arr(r.outputs);
      const assets = await indexerAssets(ctx, raws.map((o) => str(rec(o).assetID)));
      const outputs = raws.map((o) => decodeOutput(o, assets));
      const sums: Record<string, string> = {};
      for (const o of outputs) sums[o.assetID] = (BigInt(sums[o.assetID] ?? '0') + BigInt(o.amount.value)).toString();
      return { count: outputs.length, totals: totalsList(sums, assets), outputs, next: nextPage(r, input, outputs) };
    },
    summarize: (o, i) =>
      [
        `${o.count} ${i.spent === true ? 'spent ' : i.spent === false ? 'unspent ' : ''}output(s) totalling ${(o.totals as AssetAmount[]).map((t) => t.amount.display).join(', ') || 'nothing'}.`,
        ...listLines(o.outputs as Output[], 30, outputLine),
        ...nextLine('indexer_listOutputs', o.next),
      ].join('\n'),
  }),
  defineTool({
    ...common,
    name: 'indexer_getOutput',
    title: 'Output details',
    description: 'Get an output (UTXO) by ID: owners, amount, lock time, threshold, where it was spent.',
    input: getOutputInput,
    output: Output.extend({ amount: Amt }),
    request: getOutputReq.request,
    run: async (input, ctx) => {
      const raw = (await getOutputReq.fetch(input, ctx)).raw;
      return decodeOutput(raw, await indexerAssets(ctx, [str(rec(raw).assetID)]));
    },
    summarize: (o) =>
      `Output ${o.id} (#${o.outputIndex} of tx ${o.transactionID}): ${o.amount.display} to ${o.addresses.join(', ') || '(no address)'}, threshold ${o.threshold}${o.locktime !== '0' ? `, locked until ${o.locktime}` : ''}; ${o.spent ? `spent in ${o.redeemingTransactionID}` : 'unspent'}.`,
  }),
];
