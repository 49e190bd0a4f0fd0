/** One-line texts of transactions, outputs, addresses, assets and C-chain transactions. */
import { listLines, type TimeOut } from '../../summarize/format.js';
import { isoShort, shortId } from '../../summarize/indexer.js';
import { quote } from '../../summarize/stranger.js';
import type { AddressRecord, Asset, CTx, Output, TxRow } from './shapes.js';

/** Addresses in full (a person copies them); more than `max` are counted, not cut. */
const addressList = (list: readonly string[], max = 2): string => `${list.slice(0, max).join(', ')}${list.length > max ? ` and ${list.length - max} more` : ''}`;

export function txLine(t: TxRow): string {
  const out = t.outputTotals.map((a) => a.amount.display).join(', ') || 'nothing';
  const memo = t.memo ? `, memo ${quote(t.memo, 60)}` : '';
  const to = t.to.length ? ` to ${addressList(t.to)}` : '';
  return `${isoShort(t.timestamp)} ${t.chain || shortId(t.chainID)} ${t.type || 'tx'} ${t.id}: ${t.net ? `${netText(t)}; ` : ''}out ${out}${t.net ? '' : to}; fee ${t.txFee.display}${memo}`;
}

/** "received 50 CAM from local1…", "sent 51.001 CAM to local1…" (a sender's net includes the fee), or both. */
function netText(t: TxRow): string {
  const part = (sign: boolean, word: string, who: string[] | undefined, preposition: string) => {
    const list = (t.net ?? []).filter((a) => a.amount.value.startsWith('-') === sign).map((a) => a.amount.display.replace(/^-/, ''));
    return list.length ? `${word} ${list.join(', ')}${who?.length ? ` ${preposition} ${addressList(who)}` : ''}` : '';
  };
  return [part(true, 'sent', t.recipients, 'to'), part(false, 'received', t.senders, 'from')].filter(Boolean).join(', ') || 'no net change';
}

export function outputLine(o: Output): string {
  return `${o.amount.display} to ${o.addresses.join(', ') || '(no address)'} (${o.spent ? `spent in ${shortId(o.redeemingTransactionID)}` : 'unspent'}) ${o.id}`;
}

export function addressLines(a: AddressRecord): string[] {
  return [
    `Address ${a.address}${a.publicKey ? ' (public key known)' : ''}: ${a.assets.length} asset(s).`,
    ...listLines(a.assets, 20, (x) => `${x.balance.display} balance; received ${x.totalReceived.display}, sent ${x.totalSent.display}; ${x.transactionCount} txs, ${x.utxoCount} UTXOs`),
  ];
}

export function assetLine(a: Asset, inList = false): string {
  const compact = a.networkSupply ? `native asset, network supply at most ${a.networkSupply.display} (node); the indexer saw ${a.currentSupply.display}` : '';
  const supply = a.native ? (inList && compact ? compact : nativeSupplyText(a)) : `supply ${a.currentSupply.display}`;
  return `${a.name ? quote(a.name) : '(no name)'} (${a.symbol ? quote(a.symbol, 16) : 'no symbol'})${a.imitation ? ` ${a.imitation}` : ''} ${a.id}: ${a.kind}, ${supply}, ${a.denomination} decimals`;
}

/**
 * The native asset's supply is the network's, which only the node knows; Magellan's currentSupply
 * of it counts the outputs it indexed on one chain (a few thousand where the network holds millions).
 */
export function nativeSupplyText(a: Pick<Asset, 'currentSupply' | 'networkSupply' | 'networkSupplyProblem'>): string {
  const node = a.networkSupply
    ? `network supply at most ${a.networkSupply.display} (the node, platform.getCurrentSupply)`
    : `network supply unknown: the node did not say (${a.networkSupplyProblem ?? 'platform.getCurrentSupply failed'})`;
  return `the network's native asset: ${node}; the indexer's "currentSupply" ${a.currentSupply.display} is only what it indexed on this chain, not the network's supply`;
}

export function cTxLine(t: CTx): string {
  return `block ${t.block} ${t.hash}: ${t.from} -> ${t.to || '(contract creation)'} ${t.value.display}, fee ${t.fee.display}${t.status ? `, ${t.status}` : ''}`;
}

export const windowText = (s?: TimeOut, e?: TimeOut) => (s || e ? ` between ${isoShort(s)} and ${isoShort(e)}` : '');
