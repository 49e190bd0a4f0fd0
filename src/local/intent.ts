/**
 * The head of a local spend's preview, what a person checks first (DESIGN section 9, "The
 * approval a person reads"): one sentence per intent, the total that leaves the key with every
 * fee, then the warnings (an address that is not the key's where the key's was expected, an
 * output locked or shared, a deposit's rewards to another owner). Every word is read from the
 * decoded bytes (the views and EVM fields), never from the tool's arguments.
 */
import { humanDuration, isHexAddress } from '../codec/index.js';
import { THIS_TX, type TxView } from '../codec/tx/index.js';
import type { ToolContext } from '../core/tool.js';
import type { TxChain } from '../codec/tx/index.js';
import type { LocalEnv } from './env.js';
import { decodeSteps, type EvmFields, type Outflow, outflowOf, ownSet } from './outflow.js';
import { type Shower, showerFor } from './render.js';

const WEI_PER_UNIT = 1_000_000_000n;

/** `X-local1nzae…ltwd`, `0x63b7…e9bd`: enough to recognise; the full address is in the outputs below. */
export function shortAddress(a: string): string {
  // As a plain boolean: the type guard would leave `a` typed `never` past it.
  const evm: boolean = isHexAddress(a);
  if (evm) return `${a.slice(0, 6)}…${a.slice(-4)}`;
  return a.length > 18 ? `${a.slice(0, 12)}…${a.slice(-4)}` : a;
}

/** An output with no owner (threshold 0): the node lets anyone spend it. */
const NOBODY = 'no address (anyone may spend it)';

const ACCOUNT: Record<string, string> = { X: 'X account', P: 'P account', C: 'C account' };

function chainLetter(env: LocalEnv, id: string | undefined): string {
  return (Object.entries(env.chainIDs).find(([, known]) => known === id)?.[0] ?? '?') as string;
}

function sumNative(outputs: TxView['outputs'], native: string): bigint {
  return outputs.filter((o) => o.assetID === native).reduce((s, o) => s + o.amount, 0n);
}

/**
 * Whom an import or a claim credits: its native output's owner, else its first output's (`''` for
 * an output no one owns); none when the fee takes all.
 */
function creditedTo(outputs: TxView['outputs'], native: string): string | undefined {
  const o = outputs.find((x) => x.assetID === native) ?? outputs[0];
  return o === undefined ? undefined : (o.addresses[0] ?? '');
}

/** Owned by the key alone, as every one of its addresses (an output no one owns is not). */
const keyAlone = (o: TxView['outputs'][number], isOwn: (a: string) => boolean) => o.addresses.length > 0 && o.addresses.every(isOwn);

export interface Head {
  intents: string[];
  total: string;
  warnings: string[];
}

/** The intent sentences, total line and warnings of a spend's decoded transactions. */
export function headOf(views: readonly TxView[], evm: readonly EvmFields[], out: Outflow, env: LocalEnv, show: Shower): Head {
  const native = env.network.assetID;
  const cam = (v: bigint) => show(native, v);
  const isOwn = ownSet(env.own);
  const now = env.build.now;
  const intents: string[] = [];
  const warnings: string[] = [];
  const yours = (a: string) => (a === '' ? NOBODY : isOwn(a) ? `${shortAddress(a)}` : `${shortAddress(a)} (NOT your address)`);

  // A second step is only ever a transfer's import, after its export (local/spends.ts).
  if (views[1]?.kind === 'import') {
    const [first, second] = views as [TxView, TxView];
    // A transfer across chains: what the export takes across, and what the import credits.
    const moved = sumNative(first.outputs.filter((o) => o.exported), native);
    const arrives = sumNative(second.outputs, native);
    // Where the export sends it when the import's fee takes all of it.
    const to = creditedTo(second.outputs, native) ?? creditedTo(first.outputs.filter((o) => o.exported), native) ?? '';
    const from = ACCOUNT[first.chain] ?? first.chain;
    const dest = ACCOUNT[second.chain] ?? second.chain;
    intents.push(`Move ${cam(moved)} from your ${from} to your ${dest} (${yours(to)}); ${cam(arrives)} arrives`);
  } else {
    for (const v of views) intents.push(...intentOf(v, env, show, yours));
  }
  for (const tx of evm) {
    const to = tx.to ?? '(contract creation)';
    intents.push(`Send ${cam(tx.value / WEI_PER_UNIT)} to ${isOwn(to) ? `yourself (${shortAddress(to)})` : shortAddress(to)} on the C-Chain`);
  }

  const others = [...out.assets.entries()].map(([asset, v]) => show(asset, v));
  const what = out.native === out.fees ? 'every fee; nothing else leaves' : 'amount + every fee';
  const total = `Total leaving your key: ${cam(out.native)}${others.length ? ` and ${others.join(', ')}` : ''} (${what})`;

  for (const v of views) {
    for (const o of v.outputs) {
      // An output that stays with the key alone (one owner, threshold 1, no time lock) meets none of these.
      if (o.addresses.length === 0) {
        warnings.push(`NOT your address: ${show(o.assetID, o.amount)} goes to no address; anyone may spend it`);
        continue;
      }
      const mine = o.addresses.some(isOwn);
      if (o.locktime > now) warnings.push(`Lock: ${show(o.assetID, o.amount)} to ${o.addresses.join(', ')} is spendable only from ${new Date(Number(o.locktime) * 1000).toISOString()}`);
      // One owner means threshold 1 (the codec refuses a threshold above the owners, or 0 with owners).
      if (o.addresses.length !== 1) warnings.push(`Shared: ${show(o.assetID, o.amount)} needs ${o.threshold} of ${o.addresses.join(', ')} to sign`);
      // Where the key's own address was expected (an import, a claim, an export's change or funds moved), another is a warning.
      const expectedOwn = v.kind === 'import' || v.kind === 'claim' || v.kind === 'export';
      if (expectedOwn && !mine) warnings.push(`NOT your address: ${show(o.assetID, o.amount)} goes to ${o.addresses.join(', ')}`);
    }
  }
  // Set only for a deposit (one view) whose rewards owner is not the key alone.
  if (out.strangeRewardOwner !== undefined) warnings.push(`NOT your address: the deposit's rewards go to ${out.strangeRewardOwner}; that owner claims them, not you`);
  for (const tx of evm) if (tx.data.length > 0) warnings.push(`Contract call: ${tx.data.length} bytes of data to ${tx.to ?? '(creation)'}`);
  return { intents, total, warnings };
}

function intentOf(v: TxView, env: LocalEnv, show: Shower, yours: (a: string) => string): string[] {
  const native = env.network.assetID;
  const cam = (x: bigint) => show(native, x);
  const isOwn = ownSet(env.own);
  const into = (to: string | undefined) =>
    to === undefined ? 'no address: the fee takes all of it' : isOwn(to) ? `your ${ACCOUNT[v.chain] ?? v.chain} (${shortAddress(to)})` : yours(to);
  switch (v.kind) {
    case 'export': {
      const dest = chainLetter(env, v.destinationChain);
      const exported = v.outputs.filter((o) => o.exported);
      const to = exported[0]?.addresses[0] ?? '';
      const amount = sumNative(exported, native);
      return exported.every((o) => keyAlone(o, isOwn))
        ? [`Move ${cam(amount)} from your ${ACCOUNT[v.chain] ?? v.chain} to your ${ACCOUNT[dest] ?? dest} (${shortAddress(to)}); it waits there to be imported`]
        : [`Export ${cam(amount)} from the ${v.chain}-Chain to ${yours(to)} on the ${dest}-Chain`];
    }
    case 'import': {
      const source = chainLetter(env, v.sourceChain);
      // What arrives of each asset, the native one first (named even at 0: all of it may go to the fee).
      const arrives = new Map<string, bigint>([[native, 0n]]);
      for (const o of v.outputs) arrives.set(o.assetID, (arrives.get(o.assetID) ?? 0n) + o.amount);
      const what = [...arrives].map(([a, x]) => show(a, x)).join(' and ');
      return [`Import ${what} from the ${source}-Chain into ${into(creditedTo(v.outputs, native))}`];
    }
    case 'deposit': {
      const locked = sumNative(
        v.outputs.filter((o) => o.lock?.depositTxID === THIS_TX),
        native,
      );
      const d = v.deposit!;
      return [`Deposit ${cam(locked)} for ${humanDuration(BigInt(d.depositDuration))} into offer ${shortAddress(d.depositOfferID)}`];
    }
    case 'unlockDeposit': {
      const freed = sumNative(
        v.outputs.filter((o) => !o.lock && keyAlone(o, isOwn)),
        native,
      );
      return [`Unlock deposits: ${cam(freed)} becomes spendable on your P account (after the fee)`];
    }
    case 'claim': {
      // A ClaimTx always has claimables (the codec refuses one without).
      const claimed = v.claimables!.reduce((s, c) => s + c.amount, 0n);
      return [`Claim ${cam(claimed)} of rewards to ${into(creditedTo(v.outputs, native))}`];
    }
    default: {
      const paid = new Map<string, Map<string, bigint>>();
      for (const o of v.outputs) {
        if (o.addresses.length === 1 && isOwn(o.addresses[0]!)) continue;
        const who = o.addresses.join(', ');
        const per = paid.get(who) ?? new Map<string, bigint>();
        per.set(o.assetID, (per.get(o.assetID) ?? 0n) + o.amount);
        paid.set(who, per);
      }
      if (paid.size === 0) return [`Send to yourself on the ${v.chain}-Chain (${shortAddress(v.chain === 'P' ? env.own.p : env.own.x)}): only the fee leaves`];
      const named = (who: string) => (who === '' ? NOBODY : who.includes(', ') ? who : shortAddress(who));
      return [...paid.entries()].map(([who, per]) => `Send ${[...per.entries()].map(([a, x]) => show(a, x)).join(' and ')} to ${named(who)}`);
    }
  }
}

/** A spend's steps decoded from their bytes: what leaves the key (the limits') and the preview's head. */
export async function spendHead(ctx: ToolContext, env: LocalEnv, steps: ReadonlyArray<{ chain: TxChain | 'EVM'; bytes: Uint8Array }>): Promise<{ outflow: Outflow; head: Head }> {
  const { views, evm } = await decodeSteps(steps, env);
  const outflow = outflowOf(views, evm, env.own, env.network.assetID, env.build.now);
  const show = await showerFor(ctx, env, views);
  return { outflow, head: headOf(views, evm, outflow, env, show) };
}
