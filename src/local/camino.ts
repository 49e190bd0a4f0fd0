/**
 * Camino's own spends under the local signer: a deposit into an open offer, an unlock of deposits,
 * a claim of rewards (caminogo camino_tx_executor.go DepositTx, UnlockDepositTx, ClaimTx). Each is
 * checked against what the node says now (the offer, the deposits, the claimables), built from the
 * key's P UTXOs, and previewed from its decoded bytes like every local spend.
 */
import { buildClaimTx, buildDepositTx, buildUnlockDepositTx } from '../tx-builders/index.js';
import { humanDuration, parseCb58Id, parseChainAddress } from '../codec/index.js';
import { ownerId, THIS_TX } from '../codec/tx/index.js';
import { caminoRpc } from '../context/camino.js';
import type { ToolContext } from '../core/tool.js';
import { InputError } from '../errors.js';
import { nativeAmount } from '../summarize/format.js';
import { depositTotalReward, type OfferTerms, offerTerms, ratePercent } from '../summarize/platform.js';
import type { LocalEnv } from './env.js';
import { decodedView } from './render.js';
import { type Args, addressBytes, built, type LocalBuilder, type LocalSpend, onlyOwn, single } from './spends.js';
import { fetchUtxos } from './utxos.js';

/** An offer owner's short ID when it has none (ids.ShortEmpty in cb58). */
const NO_OWNER = new Set(['', '111111111111111111116DBWJs']);

/** A node's object as given; null, undefined or a primitive has none of the fields read here (Object(null) is {}). */
const obj = (raw: unknown): Record<string, unknown> => Object(raw);
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const big = (v: unknown): bigint => {
  try {
    return BigInt(String(v ?? '0'));
  } catch {
    return 0n;
  }
};
const iso = (unix: bigint) => new Date(Number(unix) * 1000).toISOString().slice(0, 16).replace('T', ' ') + ' UTC';

/** A Camino P-Chain read; a node without it (the spec's API) is named as not offering it. */
async function platform(ctx: ToolContext, method: string, params: Record<string, unknown>): Promise<Record<string, unknown>> {
  return obj(await caminoRpc(ctx, method, params));
}

/** The offers open at `at` (platform.getAllDepositOffers answers those active then), by ID, read as the read tools read them. */
async function offersAt(ctx: ToolContext, at: bigint): Promise<Map<string, OfferTerms>> {
  const raw = await platform(ctx, 'platform.getAllDepositOffers', { timestamp: Number(at) });
  return new Map(arr(raw.depositOffers).map(offerTerms).map((o) => [o.id, o]));
}

/** The key alone, as the node's owner (threshold 1, locktime 0): whose rewards the key may sign for. */
function isKeyAlone(env: LocalEnv, owner: Record<string, unknown>): boolean {
  const addresses = arr(owner.addresses).map(String);
  return big(owner.threshold) === 1n && big(owner.locktime) === 0n && addresses.length === 1 && addresses[0] === env.own.p;
}

const show = (env: LocalEnv, v: bigint) => nativeAmount(v, env.network).display;

async function deposit(args: Args, ctx: ToolContext, env: LocalEnv): Promise<LocalSpend> {
  onlyOwn(env, args, 'P');
  const offerID = String(args.offerID);
  const amount = args.amount as bigint;
  const duration = Number(args.duration);
  const now = env.build.now;
  const offer = (await offersAt(ctx, now)).get(offerID);
  // caminogo DepositTx: the offer active now, the duration within its bounds, at least its minimum, within its cap.
  if (!offer) throw new InputError('offerID', `no open offer ${offerID} takes deposits now; platform_getAllDepositOffers lists the open ones`);
  if ((offer.flags & 1n) === 1n) throw new InputError('offerID', `offer ${offerID} is locked and takes no deposits`);
  if (!NO_OWNER.has(offer.ownerAddress)) throw new InputError('offerID', `offer ${offerID} takes deposits only with its owner's signed permission, which this server does not build`);
  const [minD, maxD] = [Number(offer.minDuration), Number(offer.maxDuration)];
  if (duration < minD || duration > maxD) throw new InputError('duration', `this offer takes ${minD} to ${maxD} seconds (${humanDuration(BigInt(minD))} to ${humanDuration(BigInt(maxD))}), got ${duration}`);
  if (amount < offer.minAmount) throw new InputError('amount', `this offer takes at least ${show(env, offer.minAmount)}`);
  const cap = offer.totalMax;
  if (cap > 0n && amount > cap - offer.deposited) throw new InputError('amount', `this offer has room for ${show(env, cap - offer.deposited)} more`);
  // The reward this deposit would earn must fit in what the offer has left to pay (RemainingReward).
  // A capped offer never pays out more than its cap, so this is never below 0 (if a node says it
  // is, every deposit is refused).
  const potential = depositTotalReward(amount, offer.nominator, BigInt(duration), offer.noRewards);
  const rewardRoom = offer.totalMaxReward - offer.rewarded;
  if (offer.totalMaxReward > 0n && potential > rewardRoom) {
    throw new InputError('amount', `this deposit would earn ${show(env, potential)}, more than the ${show(env, rewardRoom)} of rewards this offer has left to pay; deposit less or for less time`);
  }
  const utxos = await fetchUtxos(ctx, 'P', [env.own.p]);
  const reward = args.rewardAddress ? { addresses: [addressBytes('rewardAddress', String(args.rewardAddress))] } : undefined;
  // No memo: the Camino spends' inputs take none.
  const tx = built(() => buildDepositTx(env.build, { utxos, depositOfferID: parseCb58Id(offerID), duration, amount, ...(reward ? { rewardsOwner: reward } : {}) }));
  // What the bytes lock, read back from them; the offer's terms from the node.
  const view = decodedView(tx, env);
  // Whose rewards they are, from the bytes: only the key alone claims them with platform_claim here.
  // The input takes one reward address (none: the key), which the builder writes as a threshold-1
  // owner of that address alone; the "Tx deposit" line shows the owner in full (render.ts).
  const ownerText = String(view.deposit!.rewardsOwner.addresses);
  const keyAlone = ownerText === env.own.p;
  const locked = view.outputs.filter((o) => o.lock?.depositTxID === THIS_TX).reduce((s, o) => s + o.amount, 0n);
  const end = now + BigInt(view.deposit!.depositDuration);
  const { unlockPeriod, noRewards, nominator } = offer;
  const rewarded = BigInt(view.deposit!.depositDuration) - noRewards;
  const total = depositTotalReward(locked, offer.nominator, BigInt(view.deposit!.depositDuration), offer.noRewards);
  const lines = [
    `Deposits: ${show(env, locked)}, locked from acceptance (about now) until about ${iso(end)}${unlockPeriod > 0n ? `, unlocking gradually from about ${iso(end - unlockPeriod)}` : ''}`,
    `Earns: ${ratePercent(nominator)} % a year for ${humanDuration(rewarded > 0n ? rewarded : 0n)} (the offer pays nothing in its last ${humanDuration(noRewards)}), about ${show(env, total)} in total, ${
      keyAlone ? 'claimable by you as it accrues with platform_claim' : `paid to ${ownerText} (NOT your address): that owner claims them, you cannot`
    }`,
  ];
  return single(ctx, env, { chain: 'P', built: tx, bytes: tx.bytes }, lines, [], (ids) =>
    `Deposited: issued once, txID ${ids[0]} (also the deposit's ID). Follow it with platform_getTxStatus {"txID": "${ids[0]}"}; once Committed, platform_getDeposits {"depositTxIDs": ["${ids[0]}"]} shows it.`,
  );
}

async function unlock(args: Args, ctx: ToolContext, env: LocalEnv): Promise<LocalSpend> {
  onlyOwn(env, args, 'P');
  const ids = (args.depositTxIDs as string[]).map(String);
  const raw = await platform(ctx, 'platform.getDeposits', { depositTxIDs: ids });
  const now = big(raw.timestamp) || env.build.now;
  const deposits = arr(raw.deposits).map(obj);
  const starts = [...new Set(deposits.map((d) => big(d.start)))];
  const offers = new Map<string, OfferTerms>();
  for (const at of starts) for (const [id, o] of await offersAt(ctx, at)) offers.set(id, o);
  const plan = deposits.map((d, n) => {
    const id = String(d.depositTxID ?? ids[n]);
    const amount = big(d.amount);
    const unlocked = big(d.unlockedAmount);
    const end = big(d.start) + big(d.duration);
    if (end <= now) return { id, expired: true, amount: amount - unlocked, end };
    const offer = offers.get(String(d.depositOfferID));
    if (!offer) throw new InputError('depositTxIDs', `deposit ${id}'s offer is not known to the node, so what is unlockable cannot be told`);
    const period = offer.unlockPeriod;
    const periodStart = end - period;
    // The share of its unlock period passed (it has not ended, so less than all); none before the
    // period starts (a deposit with no unlock period unlocks only once ended, above).
    const passed = now - periodStart;
    const total = passed > 0n ? (amount * passed) / period : 0n;
    // The node holds a new total unlocked to its UnlockableAmount, which is already net of what was
    // unlocked (camino_tx_executor.go UnlockDepositTx): after a partial unlock, less is accepted.
    const accepted = total - unlocked - unlocked;
    return { id, expired: false, amount: accepted > 0n ? accepted : 0n, end, periodStart };
  });
  const ended = plan.filter((p) => p.expired);
  if (ended.length > 0 && ended.length < plan.length) {
    throw new InputError('depositTxIDs', `unlock ended deposits (${ended.map((p) => p.id).join(', ')}) apart from running ones: the node refuses them in one transaction`);
  }
  const none = plan.filter((p) => p.amount === 0n);
  if (none.length === plan.length) {
    const next = plan.map((p) => `${p.id}: ${'periodStart' in p && p.periodStart! > now ? `unlocking starts about ${iso(p.periodStart!)}` : 'nothing more until more of its unlock period passes'}`);
    throw new InputError('depositTxIDs', `nothing is unlockable now (${next.join('; ')})`);
  }
  const utxos = await fetchUtxos(ctx, 'P', [env.own.p]);
  const tx = built(() => buildUnlockDepositTx(env.build, { utxos, deposits: plan.map((p) => ({ depositTxID: parseCb58Id(p.id), amount: p.amount, expired: p.expired })) }));
  // Per deposit, what the bytes return: its locked inputs less what stays locked with it.
  const view = decodedView(tx, env);
  const lines = plan.map((p) => {
    const spent = view.inputs.filter((i) => i.lock?.depositTxID === p.id).reduce((s, i) => s + i.amount, 0n);
    const stays = view.outputs.filter((o) => o.lock?.depositTxID === p.id).reduce((s, o) => s + o.amount, 0n);
    return `Unlocks: ${show(env, spent - stays)} of deposit ${p.id}${p.expired ? ' (ended: unlocked whole, no fee)' : ''}`;
  });
  return single(ctx, env, { chain: 'P', built: tx, bytes: tx.bytes }, lines, [], (txIDs) =>
    `Unlocked: issued once, txID ${txIDs[0]}. Follow it with platform_getTxStatus {"txID": "${txIDs[0]}"}; the unlocked CAM is then spendable on P.`,
  );
}

const CLAIM_TYPE = { validator: 0n, expiredDeposit: 1n, deposit: 3n } as const;
/** ClaimTypeAllTreasury: an owner's validator rewards first, then its expired-deposit rewards, in one claimable. */
const ALL_TREASURY = 2n;
type Claim = { kind: keyof typeof CLAIM_TYPE; depositTxID?: string; owner?: string; amount: bigint };

async function claim(args: Args, ctx: ToolContext, env: LocalEnv): Promise<LocalSpend> {
  onlyOwn(env, args, 'P');
  const claims = args.claims as Claim[];
  const deposits = claims.filter((c) => c.kind === 'deposit').map((c) => c.depositTxID!);
  const owners = claims.some((c) => c.kind !== 'deposit');
  const [dep, own] = await Promise.all([
    deposits.length ? platform(ctx, 'platform.getDeposits', { depositTxIDs: deposits }) : undefined,
    owners ? platform(ctx, 'platform.getClaimables', { owners: [{ locktime: '0', threshold: '1', addresses: [env.own.p] }] }) : undefined,
  ]);
  const keyOwner = ownerId({ locktime: 0n, threshold: 1, addresses: [env.build.key.shortID] });
  const mine = arr(own?.claimables).map(obj).find((c) => isKeyAlone(env, obj(c.rewardOwner)));
  const held = arr(dep?.deposits).map(obj);
  const available = arr(dep?.availableRewards);
  const intents: Array<{ id: Uint8Array; type: bigint; amount: bigint; can: bigint }> = [];
  // The key's own validator and expired-deposit rewards: one claimable per owner (the node refuses
  // a second claimable with the same owner ID), checked against each kind's own claimable amount.
  const treasury = { validator: { amount: 0n, can: 0n }, expiredDeposit: { amount: 0n, can: 0n } };
  // Where the owner's one claimable goes among the deposits' ones: where it was first named.
  let treasuryAt: number | undefined;
  claims.forEach((c, n) => {
    if (c.kind === 'deposit') {
      const at = held.findIndex((d) => d.depositTxID === c.depositTxID);
      if (at < 0) throw new InputError(`claims[${n}].depositTxID`, `the node has no deposit ${c.depositTxID}`);
      if (!isKeyAlone(env, obj(held[at]!.rewardOwner))) throw new InputError(`claims[${n}].depositTxID`, `its rewards belong to another owner than the key alone (${env.own.p}); the local signer signs only for its key`);
      const can = big(available[at]);
      if (c.amount > can) throw new InputError(`claims[${n}].amount`, `${show(env, c.amount)} is more than the ${show(env, can)} claimable now`);
      intents.push({ id: parseCb58Id(c.depositTxID!), type: CLAIM_TYPE.deposit, amount: c.amount, can });
      return;
    }
    if (c.owner !== env.own.p) throw new InputError(`claims[${n}].owner`, `the local signer claims only its key's own rewards (${env.own.p})`);
    treasuryAt ??= intents.length;
    const kind = treasury[c.kind];
    kind.can = big(c.kind === 'validator' ? mine?.validatorRewards : mine?.expiredDepositRewards);
    kind.amount += c.amount;
    if (kind.amount > kind.can) throw new InputError(`claims[${n}].amount`, `${show(env, kind.amount)} is more than the ${show(env, kind.can)} claimable now`);
  });
  const { validator: v, expiredDeposit: e } = treasury;
  const owned =
    v.amount > 0n && e.amount > 0n
      ? { id: keyOwner, type: ALL_TREASURY, amount: v.amount + e.amount, can: v.can + e.can }
      : v.amount > 0n
        ? { id: keyOwner, type: CLAIM_TYPE.validator, amount: v.amount, can: v.can }
        : e.amount > 0n
          ? { id: keyOwner, type: CLAIM_TYPE.expiredDeposit, amount: e.amount, can: e.can }
          : undefined;
  if (owned) intents.splice(treasuryAt ?? intents.length, 0, owned);
  // A P- address: the input takes no other.
  const to = parseChainAddress(String(args.to));
  const utxos = await fetchUtxos(ctx, 'P', [env.own.p]);
  const tx = built(() => buildClaimTx(env.build, { utxos, claims: intents.map(({ id, type, amount }) => ({ id, type, amount })), to: { addresses: [to.bytes] } }));
  const view = decodedView(tx, env);
  // A ClaimTx always has claimables (the codec refuses one without).
  const total = view.claimables!.reduce((s, c) => s + c.amount, 0n);
  const lines = [`Claims: ${show(env, total)} in rewards to ${String(args.to)}`, ...intents.map((c, n) => `Claimable now, claim ${n + 1}: ${show(env, c.can)}`)];
  if (view.inputs.length === 0) {
    const paid = view.outputs.reduce((s, o) => s + o.amount, 0n);
    lines.push(`Fee: paid from the claimed rewards (no unlocked CAM of the key is spent); ${show(env, paid)} arrives at ${String(args.to)}`);
  }
  return single(ctx, env, { chain: 'P', built: tx, bytes: tx.bytes }, lines, [], (ids) =>
    `Claimed: issued once, txID ${ids[0]}. Follow it with platform_getTxStatus {"txID": "${ids[0]}"}, then platform_getBalance {"addresses": ["${String(args.to)}"]}.`,
  );
}

/** Camino's own spends the local signer builds, by tool name. */
export const CAMINO_BUILDERS: Record<string, LocalBuilder> = {
  platform_deposit: deposit,
  platform_unlockDeposit: unlock,
  platform_claim: claim,
};
