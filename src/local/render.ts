import type { BuiltTx } from '../tx-builders/index.js';
import { bytesToHex, humanDuration } from '../codec/index.js';
import { THIS_TX, type TxView, viewTx } from '../codec/tx/index.js';
import type { ToolContext } from '../core/tool.js';
import { resolveAsset } from '../spend/plan.js';
import { nativeAmount } from '../summarize/format.js';
import { strangerLine } from '../summarize/stranger.js';
import type { LocalEnv } from './env.js';

/** How the preview names an amount of an asset: CAM for the native one, the asset's own units otherwise. */
export type Shower = (assetID: string, amount: bigint) => string;

/** Display for every asset a view names, looked up once each. */
export async function showerFor(ctx: ToolContext, env: LocalEnv, views: readonly TxView[]): Promise<Shower> {
  // The native asset always (an EVM step's value and every fee are in it, with no view naming it).
  const ids = new Set<string>([env.network.assetID]);
  for (const v of views) {
    for (const i of v.inputs) ids.add(i.assetID);
    for (const o of v.outputs) ids.add(o.assetID);
  }
  const shows = new Map<string, (v: bigint) => string>();
  const plain = (id: string) => (v: bigint) => `${v} units of asset ${id}`;
  for (const id of ids) {
    if (id === env.network.assetID) shows.set(id, (v) => nativeAmount(v, env.network).display);
    else {
      const resolved = await resolveAsset(ctx, id, env.network).catch(() => undefined);
      shows.set(id, resolved ? (v) => `${resolved.show(v)} of asset ${id}` : plain(id));
    }
  }
  return (assetID, amount) => (shows.get(assetID) ?? plain(assetID))(amount);
}

/** The decoded view of built bytes: what the preview is rendered from (never from the arguments). */
export function decodedView(built: BuiltTx, env: LocalEnv): TxView {
  return viewTx(built.unsigned, { hrp: env.network.hrp, chainIDs: env.chainIDs });
}

const KIND: Record<string, string> = { base: 'send', import: 'import', export: 'export', deposit: 'deposit', unlockDeposit: 'unlock of deposits', claim: 'claim of rewards' };

/** ClaimTx claim types (caminogo txs/camino_claim_tx.go). */
const CLAIM_KIND: Record<string, string> = { '0': 'validator rewards of owner', '1': 'expired-deposit rewards of owner', '2': 'all treasury rewards of owner', '3': 'reward of deposit' };

/** Why an output of the key's exists, by the kind of tx. */
function ownTag(kind: TxView['kind'], o: TxView['outputs'][number]): string {
  // Only a DepositTx's bytes can lock an output by their own deposit.
  if (o.lock?.depositTxID === THIS_TX) return 'deposited by this tx, your address';
  if (kind === 'unlockDeposit') {
    if (o.lock) return 'stays locked, your address';
    // build/camino.ts feeInputs: the node would count change of the deposit's own owner against what stays deposited.
    if (o.locktime === 1n) return 'change, your address; locktime 1 (1970), spendable now, kept apart from the deposit as the node requires';
    return 'unlocked, your address';
  }
  if (kind === 'claim') return 'to your address';
  return 'change, your address';
}

function chainName(env: LocalEnv, id: string | undefined): string {
  const letter = (Object.entries(env.chainIDs).find(([, known]) => known === id)?.[0] ?? '?') as string;
  return `${letter} (${id ?? 'unknown'})`;
}

function lockText(o: TxView['outputs'][number], nowSeconds: bigint): string {
  const parts: string[] = [];
  if (o.lock) {
    const ids = [o.lock.depositTxID ? `deposit ${o.lock.depositTxID}` : '', o.lock.bondTxID ? `bond ${o.lock.bondTxID}` : ''];
    parts.push(`locked: ${ids.filter((id) => id !== '').join(' ')}`);
  }
  if (o.locktime > nowSeconds) parts.push(`spendable from ${new Date(Number(o.locktime) * 1000).toISOString()}`);
  // One owner means threshold 1: the codec refuses a threshold above the owners, or 0 with owners.
  if (o.addresses.length !== 1) parts.push(`${o.threshold} of ${o.addresses.length} owners sign`);
  return parts.length === 0 ? 'unlocked' : parts.join(', ');
}

export interface RenderedTx {
  lines: string[];
  /** inputs − outputs of the native asset, from the decoded bytes. */
  fee: bigint;
}

/**
 * Every fact of one built transaction, from its decoded bytes: chain, network and blockchain IDs,
 * every input with its amount, every output with address, amount and lock (the key's own marked
 * as change or "yours"), the fee as inputs − outputs, the memo as one quoted stranger line, and
 * the hash the approval is bound to.
 */
export function renderTx(built: BuiltTx, view: TxView, env: LocalEnv, show: Shower, label: string): RenderedTx {
  const own = new Set([env.own.x, env.own.p, env.own.cAtomic, env.own.evm.toLowerCase()]);
  const isOwn = (a: string) => own.has(a) || own.has(a.toLowerCase());
  const native = env.network.assetID;
  const lines: string[] = [];
  const where = view.chain === 'C' ? 'C-Chain atomic' : `${view.chain}-Chain`;
  lines.push(
    `${label}: ${where} ${KIND[view.kind] ?? view.kind}, network ${view.networkID}, blockchain ${view.blockchainID}` +
      (view.sourceChain ? `, from chain ${chainName(env, view.sourceChain)}` : '') +
      (view.destinationChain ? `, to chain ${chainName(env, view.destinationChain)}` : ''),
  );
  view.inputs.forEach((i, n) => {
    const what = i.evm ? `from ${i.evm.address} (nonce ${i.evm.nonce})` : `UTXO ${i.utxo}${i.imported ? ' (waiting in shared memory)' : ''}`;
    lines.push(`${label} input ${n + 1}: ${show(i.assetID, i.amount)}, ${what}`);
  });
  const nowSeconds = env.build.now;
  view.outputs.forEach((o, n) => {
    const mine = o.addresses.length > 0 && o.addresses.every(isOwn);
    const tag = o.exported
      ? mine
        ? 'exported to your address'
        : 'exported'
      : view.kind === 'import'
        ? mine
          ? 'imported to your address'
          : 'imported'
        : mine
          ? ownTag(view.kind, o)
          : view.kind === 'claim'
            ? 'rewards paid to another address'
            : 'payment';
    // No owner at threshold 0 is what the node allows of an ownerless output: anyone may take it.
    const to = o.addresses.length > 0 ? o.addresses.join(', ') : 'no address (anyone may spend it)';
    lines.push(`${label} output ${n + 1}: ${show(o.assetID, o.amount)} to ${to} (${tag}; ${lockText(o, nowSeconds)})`);
  });
  const inNative = view.inputs.filter((i) => i.assetID === native).reduce((s, i) => s + i.amount, 0n);
  const outNative = view.outputs.filter((o) => o.assetID === native).reduce((s, o) => s + o.amount, 0n);
  // A claim mints its claimed rewards into the outputs: the fee is what the inputs and the claims bring less the outputs.
  const minted = (view.claimables ?? []).reduce((s, c) => s + c.amount, 0n);
  // Every tx with a native input or output has the native asset in `burned`; one with neither burns none.
  const fee = (view.burned[native] ?? 0n) + minted;
  if (view.deposit) {
    const d = view.deposit;
    const owner = d.rewardsOwner;
    const ownerText = owner.threshold === 1 && owner.addresses.length === 1 ? owner.addresses[0]! : `${owner.threshold} of ${owner.addresses.join(', ')}`;
    lines.push(
      `${label} deposit: offer ${d.depositOfferID}, duration ${humanDuration(BigInt(d.depositDuration))} (${d.depositDuration} s), rewards to ${ownerText}${owner.threshold === 1 && owner.addresses.length === 1 && isOwn(owner.addresses[0]!) ? ' (your address)' : ' (NOT your address)'}`,
    );
  }
  for (const [n, c] of (view.claimables ?? []).entries()) {
    lines.push(`${label} claim ${n + 1}: ${show(native, c.amount)}, ${CLAIM_KIND[c.type.toString()] ?? `type ${c.type}`} ${c.id}`);
  }
  lines.push(
    `${label} fee: ${show(native, fee)} (inputs ${show(native, inNative)}${minted > 0n ? ` + claimed ${show(native, minted)}` : ''} - outputs ${show(native, outNative)})`,
  );
  for (const [asset, burnt] of Object.entries(view.burned)) {
    if (asset !== native && burnt !== 0n) lines.push(`${label} also burns: ${show(asset, burnt)}`);
  }
  lines.push(`${label} approves exactly: sha256 ${bytesToHex(built.hash)} of ${built.bytes.length} unsigned bytes`);
  // The view's memo is hex, `0x` for none (a C-Chain atomic tx has no memo field: `0x` too).
  if (view.memo !== '0x') {
    const text = Buffer.from(view.memo.slice(2), 'hex').toString('utf8');
    lines.push(strangerLine('Memo', 'the requester', text));
  }
  return { lines, fee };
}
