import { z } from 'zod';
import { withShallowOutputs } from '../summarize/schema.js';
import { type ChainLetter, parseBareBech32 } from '../codec/index.js';
import { InputError } from '../errors.js';
import { amountOf, memoText, meaningOf, networkOrBlank, TX_STATUS_MEANING } from '../summarize/chain.js';
import { AmountOut, answeredEncoding, big, listLines } from '../summarize/format.js';
import { imitatesNative, imitationWarning, quote, STRANGER_NOTE } from '../summarize/stranger.js';
import { DecodedUtxo, decodeUtxo, totalsByAsset } from '../summarize/utxo.js';
import type { Endpoint } from '../wire.js';
import { addressList, assetIdOrAlias, cb58Id, chainAddress, chainIdOrAlias, chainSelector, encoding, NODE_ENCODINGS, uint64, xAddress } from '../core/fields.js';
import { defineTool, type ToolContext, type ToolDef } from '../core/tool.js';

/** Asset chain API, endpoint /ext/bc/X or /ext/bc/<chain> (spec document 2), and its static API. */

const str = (v: unknown): string => (v === undefined || v === null ? '' : String(v));
const obj = (raw: unknown): Record<string, unknown> => (raw && typeof raw === 'object' ? (raw as Record<string, unknown>) : {});
const rpc = (method: string) => ({ kind: 'rpc' as const, endpoint: 'xvm' as const, method });
const plain = async (p: Promise<AmountOut & { symbol: string }>): Promise<AmountOut> => {
  const { value, display } = await p;
  return { value, display };
};

/** The spec caps UTXO pages at 1024. */
export const UTXO_PAGE_MAX = 1024;
/** fetchAll never asks for more than this many pages. */
export const UTXO_MAX_PAGES = 20;

const IndexOut = z.object({ address: z.string(), utxo: z.string() });

export const UtxoPageOut = z.object({
  numFetched: z.number().describe('UTXOs received over all pages (duplicates included).'),
  pages: z.number(),
  lastPage: z.boolean().describe('True when the last page had fewer than limit UTXOs: nothing more to fetch.'),
  endIndex: IndexOut.nullable().describe('Pass as startIndex to get the next page.'),
  sourceChain: z.string().optional(),
  encoding: z.string(),
  duplicates: z.number().describe('UTXOs seen twice across pages (pages may overlap), counted once in totals.'),
  totals: z.array(z.object({ assetID: z.string(), amount: AmountOut, count: z.number() })),
  utxos: z.array(DecodedUtxo).describe('The first `items` UTXOs, decoded.'),
  raw: z.array(z.string()).describe('The same UTXOs in the node\'s encoding.'),
});
export type UtxoPageOut = z.infer<typeof UtxoPageOut>;

export function utxoInput(chains: readonly ChainLetter[], sourceChainRequired: boolean) {
  const who = chains.map((c) => `${c}-...`).join(' or ');
  const source = chainIdOrAlias(
    sourceChainRequired ? 'Chain they were exported from (alias/ID).' : 'Only atomic UTXOs exported from this chain (alias/ID).',
  );
  return {
    addresses: addressList(chains, `Addresses (${who}).`, 1024),
    limit: z.number().int().min(1).max(UTXO_PAGE_MAX).optional().describe('UTXOs per page; node default 1024.'),
    startIndex: z
      // Copied from endIndex as a whole: the inner fields need no listed descriptions.
      .strictObject({ address: chainAddress(chains, ''), utxo: cb58Id('') })
      .optional()
      .describe('endIndex of the previous page.'),
    sourceChain: sourceChainRequired ? source : source.optional(),
    encoding: encoding(NODE_ENCODINGS),
    fetchAll: z.boolean().default(false).describe('Fetch up to maxPages pages and total all.'),
    maxPages: z.number().int().min(1).max(UTXO_MAX_PAGES).default(UTXO_MAX_PAGES).describe('Page cap for fetchAll.'),
    items: z.number().int().min(0).max(UTXO_PAGE_MAX).default(25).describe('Decoded UTXOs to list; totals cover all.'),
  };
}

interface UtxoArgs {
  addresses: string[];
  limit?: number;
  startIndex?: { address: string; utxo: string };
  sourceChain?: string;
  encoding?: string;
  fetchAll: boolean;
  maxPages: number;
  items: number;
  chain?: string;
}

/** The exact params of one getUTXOs call: optional ones only when given. */
export function utxoParams(input: UtxoArgs, startIndex = input.startIndex): Record<string, unknown> {
  const params: Record<string, unknown> = { addresses: input.addresses };
  if (input.limit !== undefined) params.limit = input.limit;
  if (startIndex !== undefined) params.startIndex = startIndex;
  if (input.sourceChain !== undefined) params.sourceChain = input.sourceChain;
  if (input.encoding !== undefined) params.encoding = input.encoding;
  return params;
}

/** getUTXOs once, or page by page with progress notifications (bounded by maxPages). */
export async function fetchUtxos(ctx: ToolContext, endpoint: Endpoint, method: string, input: UtxoArgs): Promise<UtxoPageOut> {
  const network = await networkOrBlank(ctx);
  const pageSize = input.limit ?? UTXO_PAGE_MAX;
  const seen = new Set<string>();
  const decoded: DecodedUtxo[] = [];
  const raw: string[] = [];
  let numFetched = 0;
  let pages = 0;
  let duplicates = 0;
  let lastPage = false;
  let startIndex = input.startIndex;
  let endIndex: { address: string; utxo: string } | null = null;
  let enc = '';
  let sourceChain: string | undefined;
  const maxPages = input.fetchAll ? input.maxPages : 1;
  while (pages < maxPages) {
    const answer = obj(await ctx.rpc(endpoint, method, utxoParams(input, startIndex), { chain: input.chain }));
    pages += 1;
    const utxos = (Array.isArray(answer.utxos) ? answer.utxos : []).map(str);
    const fetched = answer.numFetched === undefined ? utxos.length : Number(big(answer.numFetched));
    numFetched += fetched;
    enc = answeredEncoding(answer.encoding, enc || input.encoding, utxos[0]);
    if (typeof answer.sourceChain === 'string') sourceChain = answer.sourceChain;
    const end = obj(answer.endIndex);
    endIndex = end.address !== undefined || end.utxo !== undefined ? { address: str(end.address), utxo: str(end.utxo) } : null;
    for (const text of utxos) {
      const u = decodeUtxo(text, network.hrp || 'unknown', enc);
      const key = u?.utxoID ?? text;
      if (seen.has(key)) {
        duplicates += 1;
        continue;
      }
      seen.add(key);
      if (u) decoded.push(u);
      if (raw.length < input.items) raw.push(text);
    }
    lastPage = fetched < pageSize;
    const done = lastPage || !endIndex || pages >= maxPages;
    // maxPages is a cap, not the count: the total is known (and given) only with the last page.
    if (input.fetchAll) await ctx.progress(pages, done ? pages : undefined, `page ${pages}: ${fetched} UTXOs, ${seen.size} distinct so far`);
    if (done || !endIndex) break;
    startIndex = endIndex;
  }
  const totals: UtxoPageOut['totals'] = [];
  for (const [assetID, t] of totalsByAsset(decoded)) {
    if (totals.length >= 50) break;
    totals.push({ assetID, amount: await plain(amountOf(ctx, network, assetID, t.amount)), count: t.count });
  }
  const items = decoded.slice(0, input.items);
  for (const u of items) {
    if (u.amount !== undefined && totals.some((t) => t.assetID === u.assetID)) u.display = (await amountOf(ctx, network, u.assetID, BigInt(u.amount))).display;
  }
  const out: UtxoPageOut = { numFetched, pages, lastPage, endIndex, encoding: enc, duplicates, totals, utxos: items, raw };
  if (sourceChain !== undefined) out.sourceChain = sourceChain;
  else if (input.sourceChain !== undefined) out.sourceChain = input.sourceChain;
  return out;
}

export function summarizeUtxos(o: UtxoPageOut, input: { addresses: string[]; fetchAll: boolean; limit?: number }): string {
  const who = input.addresses.length === 1 ? input.addresses[0] : `${input.addresses.length} addresses`;
  const from = o.sourceChain ? ` (atomic, exported from ${o.sourceChain}, waiting to be imported)` : '';
  const distinct = o.numFetched - o.duplicates;
  const lines = [`${distinct} UTXO(s) of ${who}${from} in ${o.pages} page(s).`];
  const total = (t: UtxoPageOut['totals'][number]) =>
    t.amount.value === '0' ? `${t.count} NFT/other output(s) of ${t.amount.display.replace(/^0 /, '')}` : `${t.amount.display} in ${t.count}`;
  if (o.totals.length > 0) lines.push(`Totals: ${o.totals.map(total).join('; ')}.`);
  if (o.duplicates > 0) lines.push(`${o.duplicates} duplicate(s) across pages were counted once (pages may overlap).`);
  lines.push(...listLines(o.utxos, 10, (u) => `${u.utxoID}: ${u.display ?? (u.amount !== undefined ? `${u.amount} of ${u.assetID}` : u.groupID !== undefined ? `NFT group ${u.groupID} of ${u.assetID}` : `output type ${u.outputType} of ${u.assetID}`)}${u.locktime && u.locktime !== '0' ? `, locked until ${u.locktime}` : ''}`));
  if (o.lastPage) lines.push(`That was the last page (fewer than ${input.limit ?? UTXO_PAGE_MAX} on it): nothing more to fetch.`);
  else if (o.endIndex) {
    lines.push(
      `More may exist: call again with startIndex ${JSON.stringify(o.endIndex)}${input.fetchAll ? ' (the page cap was reached)' : ', or with fetchAll: true'}. Pages may overlap and the set may change between calls.`,
    );
  }
  return lines.join('\n');
}

const statusOut = z.object({ txID: z.string(), status: z.string(), meaning: z.string() });

/** Amounts of a JSON transaction's outputs, per asset and recipient (for the summary). */
const TxOutputOut = z.object({ assetID: z.string(), amount: AmountOut.optional(), addresses: z.array(z.string()), locktime: z.string().optional(), chain: z.string() });

async function describeOutputs(ctx: ToolContext, list: unknown, chainLabel: string) {
  const network = await networkOrBlank(ctx);
  const outs = [];
  for (const o of (Array.isArray(list) ? list : []).slice(0, 100)) {
    const r = obj(o);
    const inner = obj(r.output);
    const item: z.infer<typeof TxOutputOut> = {
      assetID: str(r.assetID),
      addresses: (Array.isArray(inner.addresses) ? inner.addresses : []).map(str),
      chain: chainLabel,
    };
    if (inner.amount !== undefined) item.amount = await plain(amountOf(ctx, network, item.assetID, big(inner.amount)));
    if (inner.locktime !== undefined && big(inner.locktime) > 0n) item.locktime = big(inner.locktime).toString();
    outs.push(item);
  }
  return outs;
}

const GenesisAsset = z.strictObject({
  name: z.string().min(1).max(128).describe('Need not be unique.'),
  symbol: z.string().max(4).describe('Up to 4 characters.'),
  denomination: z.number().int().min(0).max(32).optional().describe('Display decimals.'),
  initialState: z
    .strictObject({
      fixedCap: z
        .array(z.strictObject({ amount: uint64('Units at genesis.'), address: z.string().max(100).describe('Address without chain prefix.') }))
        .max(1000)
        .optional(),
      variableCap: z
        .array(
          z.strictObject({
            minters: z.array(z.string().max(100)).min(1).max(100).describe('Addresses without chain prefix.'),
            threshold: z.number().int().min(1).describe('Signatures needed to mint.'),
          }),
        )
        .max(100)
        .optional(),
    })
    .describe('Set one: fixedCap or variableCap.'),
});

export const xvmTools: ToolDef[] = withShallowOutputs([
  defineTool({
    name: 'xvm_getBalance',
    title: 'Balance of one asset (X-Chain)',
    description: "Get an X-Chain address's balance of one asset; xvm_getAllBalances gives every asset.",
    tier: 'read',
    toolset: 'xvm',
    input: z.strictObject({ address: xAddress(), assetID: assetIdOrAlias(), chain: chainSelector('X') }),
    output: z.object({ address: z.string(), assetID: z.string(), balance: AmountOut, utxoCount: z.number().optional() }),
    request: rpc('xvm.getBalance'),
    decode: async (raw, input, ctx) => {
      const r = obj(raw);
      const network = await networkOrBlank(ctx);
      const out: { address: string; assetID: string; balance: AmountOut; utxoCount?: number } = {
        address: input.address,
        assetID: input.assetID,
        balance: await plain(amountOf(ctx, network, input.assetID, big(r.balance))),
      };
      if (Array.isArray(r.utxoIDs)) out.utxoCount = r.utxoIDs.length;
      return out;
    },
    summarize: (o) => `${o.address} holds ${o.balance.display}${o.utxoCount !== undefined ? ` in ${o.utxoCount} UTXO(s)` : ''}.`,
  }),
  defineTool({
    name: 'xvm_getAllBalances',
    title: 'All balances (X-Chain)',
    description: 'Get every asset balance of an X-Chain address.',
    tier: 'read',
    toolset: 'xvm',
    input: z.strictObject({ address: xAddress(), chain: chainSelector('X') }),
    output: z.object({
      address: z.string(),
      count: z.number(),
      // `asset` as the node named it (a real node: "CAM" for the native asset), `assetID` always the ID.
      balances: z.array(z.object({ asset: z.string(), assetID: z.string(), native: z.boolean(), balance: AmountOut, symbol: z.string() })),
    }),
    request: rpc('xvm.getAllBalances'),
    decode: async (raw, input, ctx) => {
      const network = await networkOrBlank(ctx);
      const list = Array.isArray(obj(raw).balances) ? (obj(raw).balances as unknown[]) : [];
      const balances = [];
      for (const b of list.slice(0, 200)) {
        const r = obj(b);
        const asset = str(r.asset ?? r.assetID);
        const { value, display, symbol, assetID, native } = await amountOf(ctx, network, asset, big(r.balance));
        balances.push({ asset, assetID, native, balance: { value, display }, symbol });
      }
      return { address: input.address, count: list.length, balances };
    },
    summarize: (o) => {
      if (o.count === 0) return `${o.address} holds nothing on this chain.`;
      const foreign = o.balances.some((b) => !b.native);
      const lines = listLines(o.balances, 30, (b) => `${b.balance.display}${b.native ? ' (native)' : b.symbol ? '' : ` of ${b.asset}`}`);
      return [`${o.address} holds ${o.count} asset(s):`, ...lines, ...(foreign ? [STRANGER_NOTE] : [])].join('\n');
    },
  }),
  defineTool({
    name: 'xvm_getAssetDescription',
    title: 'Asset description',
    description: 'Get an asset\'s name, symbol and denomination (display decimals).',
    tier: 'read',
    toolset: 'xvm',
    input: z.strictObject({ assetID: assetIdOrAlias('Default the native asset.').optional(), chain: chainSelector('X') }),
    output: z.object({ assetID: z.string(), name: z.string(), symbol: z.string(), denomination: z.number() }),
    request: rpc('xvm.getAssetDescription'),
    decode: (raw, input) => {
      const r = obj(raw);
      return { assetID: str(r.assetID ?? r.assetId ?? input.assetID), name: str(r.name), symbol: str(r.symbol), denomination: Number(big(r.denomination)) };
    },
    summarize: async (o, _i, ctx) => {
      const network = await networkOrBlank(ctx);
      const warning = imitatesNative(o, network) ? ` ${imitationWarning(o.assetID, network)}` : '';
      const names = `name ${o.name ? quote(o.name) : '(none)'}, symbol ${o.symbol ? quote(o.symbol, 16) : '(none)'}${warning}`;
      const units = o.denomination === 0 ? '100' : (100 / 10 ** o.denomination).toFixed(o.denomination);
      return `Asset ${o.assetID}: ${names}; denomination ${o.denomination}, so 100 units display as ${units}.\n${STRANGER_NOTE}`;
    },
  }),
  defineTool({
    name: 'xvm_getAddressTxs',
    title: 'Transactions of an address',
    description: "List IDs of transactions that changed an X-Chain address's balance of one asset, paged.",
    tier: 'read',
    toolset: 'xvm',
    input: z.strictObject({
      address: xAddress(),
      assetID: assetIdOrAlias(),
      cursor: uint64('Cursor from the previous page.').optional(),
      pageSize: z.number().int().min(1).max(1024).optional().describe('Transactions per page; node default 1024.'),
      chain: chainSelector('X'),
    }),
    output: z.object({ address: z.string(), assetID: z.string(), txIDs: z.array(z.string()), cursor: z.string(), lastPage: z.boolean() }),
    request: rpc('xvm.getAddressTxs'),
    decode: (raw, input) => {
      const r = obj(raw);
      const txIDs = (Array.isArray(r.txIDs) ? r.txIDs : []).map(str);
      return { address: input.address, assetID: input.assetID, txIDs, cursor: big(r.cursor).toString(), lastPage: txIDs.length < (input.pageSize ?? 1024) };
    },
    summarize: (o) =>
      [
        `${o.txIDs.length} transaction(s) changed ${o.address}'s balance of ${o.assetID}.`,
        ...listLines(o.txIDs, 20, (id) => id),
        o.lastPage ? 'That was the last page.' : `Next page: call again with cursor "${o.cursor}".`,
      ].join('\n'),
  }),
  defineTool({
    name: 'xvm_getTx',
    title: 'X-Chain transaction',
    description: 'Get an X-Chain transaction by ID; json encoding decodes inputs, outputs, memo, exports.',
    tier: 'read',
    toolset: 'xvm',
    input: z.strictObject({ txID: cb58Id('Transaction ID (cb58).'), encoding: encoding([...NODE_ENCODINGS, 'json'], 'json decodes.'), chain: chainSelector('X') }),
    output: z.object({
      txID: z.string(),
      encoding: z.string(),
      tx: z.unknown().describe('Encoded string, or an object for json.'),
      inputCount: z.number().optional(),
      outputs: z.array(TxOutputOut).optional(),
      memo: z.string().optional(),
      sourceChain: z.string().optional(),
      destinationChain: z.string().optional(),
    }),
    request: rpc('xvm.getTx'),
    decode: async (raw, input, ctx) => {
      const r = obj(raw);
      const out: Record<string, unknown> = { txID: input.txID, encoding: answeredEncoding(r.encoding, input.encoding, r.tx), tx: r.tx ?? null };
      if (r.tx && typeof r.tx === 'object') {
        const u = obj(obj(r.tx).unsignedTx);
        out.inputCount = (Array.isArray(u.inputs) ? u.inputs.length : 0) + (Array.isArray(u.importedInputs) ? u.importedInputs.length : 0);
        out.outputs = [...(await describeOutputs(ctx, u.outputs, 'this chain')), ...(await describeOutputs(ctx, u.exportedOutputs, str(u.destinationChain)))];
        out.memo = memoText(u.memo);
        if (u.sourceChain !== undefined) out.sourceChain = str(u.sourceChain);
        if (u.destinationChain !== undefined) out.destinationChain = str(u.destinationChain);
      }
      return out as { txID: string; encoding: string; tx: unknown };
    },
    summarize: (o) => {
      if (!o.outputs) return `Transaction ${o.txID} (${o.encoding}, ${typeof o.tx === 'string' ? `${o.tx.length} characters` : 'no data'}). Ask with encoding json to see its inputs and outputs.`;
      const lines = [`Transaction ${o.txID}: ${o.inputCount ?? 0} input(s), ${o.outputs.length} output(s).`];
      if (o.sourceChain) lines.push(`Imports from chain ${o.sourceChain}.`);
      lines.push(...listLines(o.outputs, 15, (x) => `${x.amount?.display ?? 'NFT/other'} to ${x.addresses.join(', ') || '?'}${x.chain !== 'this chain' ? ` (exported to ${x.chain})` : ''}${x.locktime ? `, locked until ${x.locktime}` : ''}`));
      if (o.memo) lines.push(`Memo: ${quote(o.memo, 256)}`, STRANGER_NOTE);
      return lines.join('\n');
    },
  }),
  defineTool({
    name: 'xvm_getTxStatus',
    title: 'X-Chain transaction status',
    description: 'Get the status of an X-Chain transaction.',
    tier: 'read',
    toolset: 'xvm',
    input: z.strictObject({ txID: cb58Id('Transaction ID (cb58).'), chain: chainSelector('X') }),
    output: statusOut,
    request: rpc('xvm.getTxStatus'),
    decode: (raw, input) => {
      const status = str(typeof raw === 'string' ? raw : obj(raw).status) || 'Unknown';
      return { txID: input.txID, status, meaning: meaningOf(TX_STATUS_MEANING, status) };
    },
    summarize: (o) => `Transaction ${o.txID} is ${o.status}: ${o.meaning}.`,
  }),
  defineTool({
    name: 'xvm_getUTXOs',
    title: 'UTXOs (X-Chain)',
    description: 'List and total UTXOs of X-Chain addresses, or with sourceChain the atomic ones awaiting import.',
    tier: 'read',
    toolset: 'xvm',
    input: z.strictObject({ ...utxoInput(['X'], false), chain: chainSelector('X') }),
    output: UtxoPageOut,
    run: (input, ctx) => fetchUtxos(ctx, 'xvm', 'xvm.getUTXOs', input),
    summarize: (o, input) => summarizeUtxos(o, input),
  }),
  defineTool({
    name: 'xvm_buildGenesis',
    title: 'Build asset-chain genesis',
    description: 'Encode genesis bytes of a new asset chain for platform_createBlockchain; changes nothing.',
    tier: 'read',
    toolset: 'xvm',
    input: z.strictObject({
      networkID: z.number().int().min(0).max(4294967295).describe('Network the chain will run on.'),
      genesisData: z.record(z.string().min(1).max(64), GenesisAsset).describe('Assets by alias.'),
      encoding: encoding(NODE_ENCODINGS),
    }),
    output: z.object({ bytes: z.string(), encoding: z.string(), assetCount: z.number() }),
    request: {
      kind: 'rpc',
      endpoint: 'xvmStatic',
      method: 'xvm.buildGenesis',
      params: (i) => {
        // Addresses here carry no chain prefix; check them before anything is sent.
        for (const [alias, asset] of Object.entries(i.genesisData)) {
          const state = asset.initialState;
          if (!state.fixedCap && !state.variableCap) throw new InputError(`genesisData.${alias}.initialState`, 'expected fixedCap or variableCap');
          for (const [n, h] of (state.fixedCap ?? []).entries()) bare(`genesisData.${alias}.initialState.fixedCap[${n}].address`, h.address);
          for (const [n, m] of (state.variableCap ?? []).entries()) {
            for (const [k, a] of m.minters.entries()) bare(`genesisData.${alias}.initialState.variableCap[${n}].minters[${k}]`, a);
          }
        }
        return { networkID: i.networkID, genesisData: i.genesisData, ...(i.encoding ? { encoding: i.encoding } : {}) };
      },
    },
    decode: (raw, input) => {
      const r = obj(raw);
      return { bytes: str(r.bytes), encoding: answeredEncoding(r.encoding, input.encoding, r.bytes), assetCount: Object.keys(input.genesisData).length };
    },
    summarize: (o) => `Genesis for ${o.assetCount} asset(s): ${o.bytes.length} characters of ${o.encoding}. Pass bytes as genesisData (with this encoding) to create the blockchain.`,
  }),
]);

function bare(field: string, address: string): void {
  try {
    parseBareBech32(address);
  } catch (err) {
    throw new InputError(field, `${(err as Error).message} (addresses in genesis carry no chain prefix)`);
  }
}
