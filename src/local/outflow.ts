/**
 * What a local spend's bytes take out of the key's control, read from the decoded bytes alone
 * (never from the tool's arguments): what CHAIN_MCP_MAX_SPEND, CHAIN_MCP_MAX_SPEND_PER_DAY and
 * CHAIN_MCP_ALLOWED_RECIPIENTS are applied to, at preview and again at confirm.
 *
 * An output stays the key's only when the key alone can spend it: one owner address, the key's,
 * threshold 1, no locktime beyond now, and no lock this transaction creates. Everything else
 * leaves: a payment to another address, an output the key shares with others, one time-locked
 * into the future, and the amount a deposit locks (out of reach for the deposit's term, however
 * the offer ends). A lock carried over from the inputs (what an unlock leaves deposited) was locked
 * before, so it does not leave again. Every fee leaves: X/P/C inputs − outputs (a claim's minted
 * rewards added to the inputs), and for an EVM transaction the most it can burn (gas limit × the
 * signed maximum fee per gas), plus its value unless it goes to the key's own 0x address.
 */
import { decodeUnsignedTx, THIS_TX, type TxChain, type TxView, viewTx } from '../codec/tx/index.js';
import type { LocalEnv, OwnKeyAddresses } from './env.js';

const WEI_PER_UNIT = 1_000_000_000n;

export interface Outflow {
  /** Native smallest units leaving the key: outputs that do not stay the key's alone, and every fee. */
  native: bigint;
  /** Of which fees (native). */
  fees: bigint;
  /** Other assets leaving, per asset ID, in that asset's smallest unit. */
  assets: Map<string, bigint>;
  /** Addresses that are not the key's and receive an output or a deposit's rewards. */
  strangers: string[];
  /** A deposit's rewards owner that is not the key alone, as written in the bytes. */
  strangeRewardOwner?: string;
  /** Addresses other than the key's where the key's was expected: an import's or a claim's outputs, a deposit's rewards owner. */
  notYours: string[];
}

/** The EVM fields the outflow reads (src/codec/evm-tx.ts parseEvmTx). */
export interface EvmFields {
  to?: string | undefined;
  value: bigint;
  gas: bigint;
  maxFeePerGas: bigint;
  data: Uint8Array;
}

/** How the limits name the recipient of an output no one owns. */
export const NO_OWNER = '(no owner: anyone may spend it)';

export function ownSet(own: OwnKeyAddresses): (address: string) => boolean {
  const set = new Set([own.x, own.p, own.cAtomic, own.evm.toLowerCase()]);
  return (a) => set.has(a) || set.has(a.toLowerCase());
}

/** Whether this output stays spendable by the key alone (see above). */
export function staysWithKey(o: TxView['outputs'][number], view: TxView, isOwn: (a: string) => boolean, now: bigint): boolean {
  if (o.addresses.length !== 1 || !isOwn(o.addresses[0]!) || o.threshold !== 1 || o.locktime > now) return false;
  if (!o.lock) return true;
  const ids = [o.lock.depositTxID, o.lock.bondTxID].filter((id): id is string => id !== null);
  if (ids.includes(THIS_TX)) return false;
  // Carried over only when an input held by the key carries the same lock.
  return ids.every((id) => view.inputs.some((i) => i.lock !== undefined && (i.lock.depositTxID === id || i.lock.bondTxID === id)));
}

function addTo(map: Map<string, bigint>, key: string, v: bigint): void {
  if (v !== 0n) map.set(key, (map.get(key) ?? 0n) + v);
}

/** The outflow of X/P/C-atomic transactions (their decoded views) and EVM transactions (their parsed fields). */
export function outflowOf(views: readonly TxView[], evm: readonly EvmFields[], own: OwnKeyAddresses, nativeAssetID: string, now: bigint): Outflow {
  const isOwn = ownSet(own);
  const out: Outflow = { native: 0n, fees: 0n, assets: new Map(), strangers: [], notYours: [] };
  const stranger = (a: string) => {
    if (!isOwn(a) && !out.strangers.includes(a)) out.strangers.push(a);
  };
  const notYours = (addresses: readonly string[]) => {
    for (const a of addresses) if (!isOwn(a) && !out.notYours.includes(a)) out.notYours.push(a);
  };
  for (const view of views) {
    const minted = (view.claimables ?? []).reduce((s, c) => s + c.amount, 0n);
    for (const [asset, burnt] of Object.entries(view.burned)) {
      const fee = asset === nativeAssetID ? burnt + minted : burnt;
      if (asset === nativeAssetID) out.fees += fee;
      else addTo(out.assets, asset, fee);
    }
    if (view.burned[nativeAssetID] === undefined) out.fees += minted;
    for (const o of view.outputs) {
      if (staysWithKey(o, view, isOwn, now)) continue;
      if (o.assetID === nativeAssetID) out.native += o.amount;
      else addTo(out.assets, o.assetID, o.amount);
      // An output with no owner (threshold 0) is anyone's: a stranger the allow-list must name, as a contract creation is.
      const owners = o.addresses.length > 0 ? o.addresses : [NO_OWNER];
      for (const a of owners) stranger(a);
      if (view.kind === 'import' || view.kind === 'claim') notYours(owners);
    }
    const owner = view.deposit?.rewardsOwner;
    if (owner && !(owner.threshold === 1 && owner.addresses.length === 1 && isOwn(owner.addresses[0]!))) {
      for (const a of owner.addresses) stranger(a);
      notYours(owner.addresses);
      out.strangeRewardOwner = owner.threshold === 1 && owner.addresses.length === 1 ? owner.addresses[0]! : `${owner.threshold} of ${owner.addresses.join(', ')}`;
    }
  }
  for (const tx of evm) {
    // Rounded up to the smallest native unit: never less than it can burn.
    const fee = (tx.gas * tx.maxFeePerGas + WEI_PER_UNIT - 1n) / WEI_PER_UNIT;
    out.fees += fee;
    const mine = tx.to !== undefined && tx.data.length === 0 && isOwn(tx.to);
    if (!mine) {
      out.native += (tx.value + WEI_PER_UNIT - 1n) / WEI_PER_UNIT;
      stranger(tx.to ?? '(contract creation)');
    }
  }
  out.native += out.fees;
  return out;
}

/** The number every limit compares: native leaving plus other assets unit for unit (as the argument checks did). */
export function countedTotal(o: Outflow): bigint {
  let total = o.native;
  for (const v of o.assets.values()) total += v;
  return total;
}

/** Steps decoded from their bytes: X/P/C views and EVM fields, in step order per kind. */
export async function decodeSteps(steps: ReadonlyArray<{ chain: TxChain | 'EVM'; bytes: Uint8Array }>, env: LocalEnv): Promise<{ views: TxView[]; evm: EvmFields[] }> {
  const views: TxView[] = [];
  const evm: EvmFields[] = [];
  for (const s of steps) {
    if (s.chain === 'EVM') {
      const { parseEvmTx } = await import('../codec/evm-tx.js');
      evm.push(parseEvmTx(s.bytes).fields);
    } else views.push(viewTx(decodeUnsignedTx(s.chain, s.bytes), { hrp: env.network.hrp, chainIDs: env.chainIDs }));
  }
  return { views, evm };
}

/** The outflow of kept steps, decoded from their bytes again (what is signed is exactly these bytes). */
export async function keptOutflow(steps: ReadonlyArray<{ chain: TxChain | 'EVM'; bytes: Uint8Array }>, env: LocalEnv): Promise<Outflow> {
  const { views, evm } = await decodeSteps(steps, env);
  return outflowOf(views, evm, env.own, env.network.assetID, env.build.now);
}
