/**
 * A P-Chain transaction as the node's `json` encoding shows it (platform.getTx, getBlock*), told in
 * one line: its kind and the facts a person asks about (what moved where, the fee). caminogo's json
 * names no type, so the kind comes from the fields each transaction type carries.
 */
import type { NetworkInfo } from '../core/network.js';
import type { ToolContext } from '../core/tool.js';
import { big, nativeAmount } from './format.js';

type Rec = Record<string, unknown>;
const rec = (v: unknown): Rec => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Rec) : {});
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const str = (v: unknown): string => (v === undefined || v === null ? '' : String(v));

export interface PTxFacts {
  id: string;
  /** export, import, deposit, unlock or transfer, claim, add validator, … */
  kind: string;
  /** The chain an export went to or an import came from, by name when known. */
  otherChain?: string;
  /** One line: kind and facts. */
  text: string;
}

/** The amount of an output or input in the json: plain, or inside a Camino locked wrapper. */
function amountIn(v: unknown, depth = 0): bigint {
  const r = rec(v);
  if (r.amount !== undefined) return big(r.amount);
  if (depth > 3) return 0n;
  for (const key of ['output', 'input', 'transferableOutput', 'transferableInput', 'out', 'in']) if (r[key] !== undefined) return amountIn(r[key], depth + 1);
  return 0n;
}

function addressesIn(v: unknown, depth = 0): string[] {
  const r = rec(v);
  if (Array.isArray(r.addresses)) return r.addresses.map(str);
  if (depth > 3) return [];
  for (const key of ['output', 'transferableOutput', 'out']) if (r[key] !== undefined) return addressesIn(r[key], depth + 1);
  return [];
}

function kindOf(u: Rec): string {
  if (u.destinationChain !== undefined) return 'export';
  if (u.sourceChain !== undefined) return 'import';
  if (u.depositOfferID !== undefined) return 'deposit';
  if (u.claimables !== undefined) return 'claim';
  if (u.multisigAlias !== undefined) return 'multisig alias';
  if (u.newNodeID !== undefined || u.oldNodeID !== undefined) return 'register node';
  if (u.address !== undefined && u.state !== undefined) return 'address state';
  if (u.chainName !== undefined || u.vmID !== undefined) return 'create blockchain';
  if (u.controlKeys !== undefined || (u.owner !== undefined && u.subnetID === undefined)) return 'create subnet';
  if (u.delegationShares !== undefined || u.shares !== undefined || u.nodeOwnerAuth !== undefined) return 'add validator';
  if (u.validator !== undefined || u.nodeID !== undefined) return u.subnetValidator !== undefined ? 'add subnet validator' : 'add validator';
  if (u.txID !== undefined) return 'reward validator';
  if (u.time !== undefined) return 'advance time';
  return 'transfer or unlock';
}

/** Sums of the native asset (assetID match, or every output when the network's asset ID is unknown). */
function nativeSum(items: unknown[], assetID: string): bigint {
  return items.filter((i) => !assetID || str(rec(i).assetID) === assetID).reduce<bigint>((s, i) => s + amountIn(i), 0n);
}

export function describePTx(raw: unknown, network: Pick<NetworkInfo, 'assetSymbol' | 'assetID'>, chainName: (id: string) => string, id = ''): PTxFacts {
  const tx = rec(raw);
  const u = rec(tx.unsignedTx ?? tx.tx ?? tx);
  const txID = str(tx.id ?? id);
  const kind = kindOf(u);
  const show = (v: bigint) => nativeAmount(v, network).display;
  const outputs = arr(u.outputs);
  const inputs = arr(u.inputs);
  const exported = arr(u.exportedOutputs);
  const imported = arr(u.importedInputs);
  const parts: string[] = [];
  let lead = '';
  let otherChain: string | undefined;
  if (kind === 'export') {
    otherChain = chainName(str(u.destinationChain));
    const sent = exported.map((o) => `${show(amountIn(o))} for ${addressesIn(o).join(', ') || '(no address)'}`);
    lead = `to the ${otherChain}`;
    parts.push(`${sent.join('; ') || 'nothing'} left the P-Chain (waits there for an import)`);
  } else if (kind === 'import') {
    otherChain = chainName(str(u.sourceChain));
    lead = `from the ${otherChain}`;
    parts.push(`${show(nativeSum(imported, network.assetID))} brought in`);
  } else if (kind === 'deposit') {
    const duration = big(u.depositDuration);
    parts.push(`into offer ${str(u.depositOfferID)}${duration ? ` for ${duration / 86_400n} days` : ''}`);
  } else if (kind === 'claim') {
    parts.push(`${arr(u.claimables).length} claimable(s)`);
  } else if (kind.startsWith('add')) {
    const v = rec(u.validator ?? u.subnetValidator ?? u);
    const node = str(v.nodeID ?? u.nodeID);
    if (node) parts.push(node);
    if (v.weight !== undefined) parts.push(`stake ${show(big(v.weight))}`);
    if (v.end !== undefined) parts.push(`until ${new Date(Number(big(v.end)) * 1000).toISOString()}`);
  } else if (kind === 'reward validator') {
    parts.push(`for staking tx ${str(u.txID)}`);
  } else if (kind === 'create subnet') {
    const keys = arr(u.controlKeys).length || addressesIn(u.owner).length;
    parts.push(`${keys} control key(s)`);
  }
  if (outputs.length) {
    const kept = outputs.map((o) => `${show(amountIn(o))} to ${addressesIn(o).join(', ') || '(no address)'}`);
    parts.push(`outputs on the P-Chain: ${kept.slice(0, 4).join('; ')}${kept.length > 4 ? `; … (${kept.length} in all)` : ''}`);
  }
  const paid = nativeSum([...inputs, ...imported], network.assetID) - nativeSum([...outputs, ...exported], network.assetID);
  // A claim mints its reward into the outputs, so inputs less outputs is no fee there.
  if ((inputs.length || imported.length) && paid >= 0n && kind !== 'claim') parts.push(`fee ${show(paid)}`);
  const memo = str(u.memo);
  const label = `${txID ? `${txID}: ` : ''}${kind}${lead ? ` ${lead}` : ''}`;
  return { id: txID, kind, ...(otherChain ? { otherChain } : {}), text: `${label}${parts.length ? `: ${parts.join('; ')}` : ''}${memo && memo !== '0x' ? ' (has a memo)' : ''}` };
}

/** Names for the chain IDs a P transaction points at (X, C), asked of the node; the ID when it will not say. */
export async function chainNamer(ctx: ToolContext): Promise<(id: string) => string> {
  const known = await Promise.all(
    ['X', 'C'].map(async (alias) => {
      try {
        return [String((await ctx.call('info_getBlockchainID', { alias })).blockchainID ?? ''), alias] as const;
      } catch {
        return ['', alias] as const;
      }
    }),
  );
  const map = new Map<string, string>(known.filter(([cid]) => cid));
  return (id) => (map.get(id) ? `${map.get(id)}-Chain` : `chain ${id}`);
}
