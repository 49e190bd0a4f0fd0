/** Decoding indexer answers into the output shapes (amounts by asset, native look-alikes marked). */
import { tolerantBigInt } from '../../codec/index.js';
import type { ToolContext } from '../../core/tool.js';
import { timeOut } from '../../summarize/format.js';
import { amountOf, chainAlias, type IndexerAsset, indexerAsset, indexerAssets, type IndexerStatus, memoText, nativeAmountOf, parseAssetRecord, shortId, statusOrEmpty, timeOf, totalsList, weiOf } from '../../summarize/indexer.js';
import { imitatesNative, imitationWarning, type NativeIdentity, quote } from '../../summarize/stranger.js';
import { arr, count, rec, str } from './fields.js';
import type { AddressRecord, Asset, CTx, Output, TxRow, TxSummary } from './shapes.js';

export async function nativeAsset(ctx: ToolContext, status: IndexerStatus, chainID?: string): Promise<IndexerAsset | undefined> {
  const chain = status.chains.find((c) => c.chainID === chainID) ?? status.chains.find((c) => c.alias === 'X') ?? status.chains[0];
  return chain?.nativeAssetID ? indexerAsset(ctx, chain.nativeAssetID) : undefined;
}

export async function evmSymbol(ctx: ToolContext): Promise<string> {
  const status = await statusOrEmpty(ctx);
  const chain = status.chains.find((c) => c.alias === 'C') ?? status.chains.find((c) => c.vm.toLowerCase().includes('evm'));
  const native = chain?.nativeAssetID ? await indexerAsset(ctx, chain.nativeAssetID) : await nativeAsset(ctx, status);
  return native?.symbol ?? '';
}

/** NFT transfer outputs (type 11) carry no amount, only a group and a payload. */
const NFT_TRANSFER_OUTPUT = 11;
const nftOutput = (o: Record<string, unknown>): boolean => Number(tolerantBigInt(o.outputType) ?? 0n) === NFT_TRANSFER_OUTPUT;

export function decodeOutput(raw: unknown, assets: Map<string, IndexerAsset>): Output {
  const o = rec(raw);
  const assetID = str(o.assetID);
  const asset = assets.get(assetID);
  return {
    id: str(o.id),
    transactionID: str(o.transactionID),
    outputIndex: Number(tolerantBigInt(o.outputIndex) ?? 0n),
    assetID,
    symbol: asset?.symbol ?? '',
    outputType: Number(tolerantBigInt(o.outputType) ?? 0n),
    amount: nftOutput(o)
      ? { value: count(o.amount), display: `NFT (${asset?.symbol ? quote(asset.symbol, 16) : shortId(assetID)})` }
      : amountOf(o.amount, asset ?? { assetID, symbol: '', name: '', denomination: 0, known: false }),
    locktime: count(o.locktime),
    threshold: Number(tolerantBigInt(o.threshold) ?? 0n),
    // A C-Chain atomic transaction's EVM input or 0x credit names its 0x address in `caddresses`.
    addresses: [...arr(o.addresses), ...arr(o.caddresses)].map(str),
    timestamp: timeOf(o.timestamp),
    spent: str(o.redeemingTransactionID) !== '',
    redeemingTransactionID: str(o.redeemingTransactionID),
  };
}

function assetIdsOfTx(raw: unknown): string[] {
  const t = rec(raw);
  const ids = [...Object.keys(rec(t.inputTotals)), ...Object.keys(rec(t.outputTotals))];
  for (const o of arr(t.outputs)) ids.push(str(rec(o).assetID));
  for (const i of arr(t.inputs)) ids.push(str(rec(rec(i).output).assetID));
  return ids;
}

function uniq(values: string[], max: number): string[] {
  return [...new Set(values.filter(Boolean))].slice(0, max);
}

export function decodeTxSummary(raw: unknown, assets: Map<string, IndexerAsset>, status: IndexerStatus, natives: Map<string, IndexerAsset | undefined>): TxSummary {
  const t = rec(raw);
  const chainID = str(t.chainID);
  const inputs = arr(t.inputs).map((i) => rec(rec(i).output));
  const outputs = arr(t.outputs).map(rec);
  return {
    id: str(t.id),
    chainID,
    chain: chainAlias(status, chainID),
    type: str(t.type),
    timestamp: timeOf(t.timestamp),
    memo: memoText(t.memo),
    txFee: nativeAmountOf(t.txFee, natives.get(chainID)),
    inputTotals: totalsList(t.inputTotals, assets),
    outputTotals: totalsList(t.outputTotals, assets),
    // A C-Chain atomic transaction's EVM side carries its 0x address in `caddresses` (magellan models/avax.go).
    from: uniq(inputs.flatMap((o) => [...arr(o.addresses), ...arr(o.caddresses)].map(str)), 10),
    to: uniq(outputs.flatMap((o) => [...arr(o.addresses), ...arr(o.caddresses)].map(str)), 10),
    inputCount: inputs.length,
    outputCount: outputs.length,
    genesis: t.genesis === true,
  };
}

/**
 * Net change per asset for the queried addresses (outputs to them minus the inputs they spent,
 * so a sender's net includes the fee): the history then answers "sent or received, how much".
 */
export function relativeTo(raw: unknown, row: TxSummary, owners: ReadonlySet<string>, assets: Map<string, IndexerAsset>): TxRow {
  const t = rec(raw);
  const nets = new Map<string, bigint>();
  const add = (o: Record<string, unknown>, sign: bigint) => {
    if (nftOutput(o) || !arr(o.addresses).some((a) => owners.has(str(a)))) return;
    const id = str(o.assetID);
    nets.set(id, (nets.get(id) ?? 0n) + sign * (tolerantBigInt(o.amount) ?? 0n));
  };
  for (const o of arr(t.outputs)) add(rec(o), 1n);
  for (const i of arr(t.inputs)) add(rec(rec(i).output), -1n);
  const net = [...nets].filter(([, v]) => v !== 0n).map(([assetID, v]) => {
    const asset = assets.get(assetID) ?? { assetID, symbol: '', name: '', denomination: 0, known: false };
    const shown = amountOf(v < 0n ? -v : v, asset);
    return { assetID, symbol: asset.symbol, amount: { value: v.toString(), display: v < 0n ? `-${shown.display}` : shown.display } };
  });
  const gained = net.some((a) => !a.amount.value.startsWith('-'));
  const lost = net.some((a) => a.amount.value.startsWith('-'));
  // Who was on the other side: the senders of what came in, the recipients of what went out.
  const others = (list: unknown[]) => uniq(list.flatMap((o) => arr(rec(o).addresses).map(str)).filter((a) => !owners.has(a)), 5);
  const senders = others(arr(t.inputs).map((i) => rec(i).output));
  const recipients = others(arr(t.outputs));
  return {
    ...row,
    direction: gained && lost ? 'both' : gained ? 'received' : lost ? 'sent' : 'none',
    net,
    ...(gained && senders.length ? { senders } : {}),
    ...(lost && recipients.length ? { recipients } : {}),
  };
}

export async function txContext(ctx: ToolContext, txs: unknown[]) {
  const status = await statusOrEmpty(ctx);
  const assets = await indexerAssets(ctx, txs.flatMap(assetIdsOfTx));
  const chainIds = [...new Set(txs.map((t) => str(rec(t).chainID)))];
  const natives = new Map(await Promise.all(chainIds.map(async (id) => [id, await nativeAsset(ctx, status, id)] as const)));
  return { status, assets, natives };
}

export function decodeAddress(raw: unknown, assets: Map<string, IndexerAsset>): AddressRecord {
  const a = rec(raw);
  return {
    address: str(a.address),
    publicKey: a.publicKey === null || a.publicKey === undefined || a.publicKey === '' ? null : str(a.publicKey),
    assets: Object.entries(rec(a.assets)).map(([assetID, v]) => {
      const entry = rec(v);
      const asset = assets.get(assetID);
      return {
        assetID,
        symbol: asset?.symbol ?? '',
        balance: amountOf(entry.balance, asset),
        totalReceived: amountOf(entry.totalReceived, asset),
        totalSent: amountOf(entry.totalSent, asset),
        transactionCount: count(entry.transactionCount),
        utxoCount: count(entry.utxoCount),
      };
    }),
  };
}

export function decodeAsset(raw: unknown, native: NativeIdentity | undefined): Asset {
  const a = rec(raw);
  const info = parseAssetRecord(raw, str(a.id));
  const imitation = native && imitatesNative(info, native) ? imitationWarning(info.assetID, native) : undefined;
  const nft = Number(tolerantBigInt(a.nft) ?? 0n) !== 0 || a.nft === true;
  const variableCap = Number(tolerantBigInt(a.variableCap) ?? 0n) !== 0 || a.variableCap === true;
  return {
    id: str(a.id),
    chainID: str(a.chainID),
    name: str(a.name),
    symbol: str(a.symbol),
    alias: str(a.alias),
    denomination: info.denomination,
    currentSupply: amountOf(a.currentSupply, { ...info, known: true }),
    kind: nft ? 'NFT' : variableCap ? 'variable cap' : 'fixed cap',
    variableCap,
    nft,
    timestamp: timeOf(a.timestamp),
    ...(imitation ? { imitation } : {}),
    ...(native && native.assetID === str(a.id) ? { native: true } : {}),
  };
}

/**
 * A C-Chain transaction record in either of Magellan's shapes: /v2/ctxdata rows (createdAt,
 * fromAddr, toAddr, gasLimit, receipt{...}) or /v2/cblocks rows (timestamp as hex Unix
 * seconds, from, to, gas, and status, gasUsed, effectiveGasPrice as hex at the top level).
 */
export function decodeCTx(raw: unknown, symbol: string): CTx {
  const t = rec(raw);
  const receipt = rec(t.receipt);
  const gasUsed = tolerantBigInt(receipt.gasUsed ?? t.gasUsed) ?? 0n;
  const price = tolerantBigInt(receipt.effectiveGasPrice ?? t.effectiveGasPrice) ?? tolerantBigInt(t.gasPrice) ?? 0n;
  const statusCode = tolerantBigInt(receipt.status ?? t.status);
  const stamp = t.createdAt ?? t.timestamp;
  return {
    hash: str(t.hash),
    block: count(t.block ?? receipt.blockNumber),
    type: str(t.type),
    createdAt: typeof stamp === 'string' && stamp.startsWith('0x') ? timeOut(tolerantBigInt(stamp)) : timeOf(stamp),
    from: str(t.fromAddr ?? t.from),
    to: str(t.toAddr ?? t.to),
    value: weiOf(t.value, symbol),
    nonce: count(t.nonce),
    gasLimit: count(t.gasLimit ?? t.gas),
    gasUsed: gasUsed.toString(),
    gasPrice: weiOf(price, symbol),
    fee: weiOf(gasUsed * price, symbol),
    status: statusCode === undefined ? '' : statusCode === 1n ? 'success' : 'failed',
    contractAddress: str(receipt.contractAddress),
    logCount: arr(receipt.logs).length,
  };
}
