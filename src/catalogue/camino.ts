import { z } from 'zod';
import { parseChainAddress, parseNodeId, relativeTime } from '../codec/index.js';
import { caminoRpc } from '../context/camino.js';
import { cb58Id, pAddress } from '../core/fields.js';
import { defineTool, type ToolContext, type ToolDef } from '../core/tool.js';
import { ChainMcpError, RpcError } from '../errors.js';
import { userXAddresses } from '../spend/plan.js';
import { DurationOut, durationOut, memoText, networkOrBlank } from '../summarize/chain.js';
import { AmountOut, big, listLines, nativeAmount, TimeOut, timeOut } from '../summarize/format.js';
import { chainNamer, describePTx } from '../summarize/p-tx.js';
import { decodeDepositOffer, ratePercent } from '../summarize/platform.js';
import { withShallowOutputs } from '../summarize/schema.js';
import { decodeUtxo, type DecodedUtxo } from '../summarize/utxo.js';
import { quote, STRANGER_NOTE } from '../summarize/stranger.js';

/**
 * Camino's own P-Chain methods (caminogo vms/platformvm/camino_service.go): deposits, claimable
 * rewards, multisig aliases, registered nodes, blocks by height, upgrade phases. A node that does
 * not serve one (the spec's API) answers `rpc: can't find method`; the tool says so plainly.
 */

const obj = (raw: unknown): Record<string, unknown> => (raw && typeof raw === 'object' ? (raw as Record<string, unknown>) : {});
const str = (v: unknown): string => (v === undefined || v === null ? '' : String(v));
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const nowUnix = (ctx: ToolContext) => BigInt(Math.floor(ctx.now() / 1000));
const YEAR = 31_536_000n;
const RATE_DENOMINATOR = 1_000_000n * YEAR;

/** A node's "not found" for a lookup: the answer "none", not a failure. */
function notFound(err: unknown): boolean {
  return err instanceof RpcError && /: not found$/i.test(err.message.trim());
}

export const OwnerOut = z.object({ addresses: z.array(z.string()), threshold: z.string(), locktime: z.string() });
const ownerOut = (raw: unknown) => {
  const r = obj(raw);
  return { addresses: arr(r.addresses).map(str), threshold: big(r.threshold).toString(), locktime: big(r.locktime).toString() };
};
export const ownerText = (o: z.infer<typeof OwnerOut>) =>
  o.addresses.length === 1 && o.threshold === '1' ? o.addresses[0]! : `${o.threshold} of ${o.addresses.join(', ')}`;

export const DepositOut = z.object({
  depositTxID: z.string(),
  depositOfferID: z.string(),
  amount: AmountOut,
  unlockedAmount: AmountOut.describe('Already unlocked and returned.'),
  start: TimeOut,
  duration: DurationOut,
  unlockTime: TimeOut.describe('start + duration: everything is unlocked by then.'),
  unlockPeriodStart: TimeOut.optional().describe('From here the amount unlocks linearly until unlockTime (end - offer unlockPeriodDuration).'),
  unlockableNow: AmountOut.optional().describe('What an unlock would return now.'),
  interestRatePercent: z.string().optional().describe('Yearly, from the offer.'),
  offerMemo: z.string().optional(),
  rewardsEnd: TimeOut.optional().describe('Rewards accrue until end - offer noRewardsPeriodDuration.'),
  totalReward: AmountOut.optional().describe('Reward of the whole deposit: amount x rate x rewarded seconds / year.'),
  rewardEarned: AmountOut.optional().describe('Accrued until now (claimed + claimable).'),
  claimedRewardAmount: AmountOut,
  claimableReward: AmountOut.describe("The node's availableRewards: claimable now."),
  rewardOwner: OwnerOut,
});
export type DepositOut = z.infer<typeof DepositOut>;

/**
 * Deposits by ID with what a holder asks (REAL-WIRE.md, caminogo deposit/camino_deposit.go): unlock
 * time = start + duration, unlock period from end - unlockPeriodDuration, rewards until end -
 * noRewardsPeriodDuration at amount x nominator x seconds / (1,000,000 x 31,536,000).
 * The offers come from getAllDepositOffers at each deposit's start (when the offer was active).
 */
export async function readDeposits(ctx: ToolContext, ids: readonly string[]): Promise<{ timestamp: bigint; deposits: DepositOut[] }> {
  const network = await networkOrBlank(ctx);
  const show = (v: bigint) => nativeAmount(v, network);
  const raw = obj(await caminoRpc(ctx, 'platform.getDeposits', { depositTxIDs: [...ids] }));
  const timestamp = big(raw.timestamp) || nowUnix(ctx);
  const list = arr(raw.deposits).map(obj);
  const rewards = arr(raw.availableRewards);
  const starts = [...new Set(list.map((d) => big(d.start).toString()))];
  const offers = new Map<string, Record<string, unknown>>();
  await Promise.all(
    starts.map(async (at) => {
      const answer = obj(await caminoRpc(ctx, 'platform.getAllDepositOffers', { timestamp: Number(at) }).catch(() => ({})));
      for (const o of arr(answer.depositOffers).map(obj)) offers.set(str(o.id ?? o.ID), o);
    }),
  );
  const deposits = list.map((d, i): DepositOut => {
    const amount = big(d.amount);
    const unlocked = big(d.unlockedAmount);
    const claimed = big(d.claimedRewardAmount);
    const start = big(d.start);
    const duration = big(d.duration);
    const end = start + duration;
    const out: DepositOut = {
      depositTxID: str(d.depositTxID),
      depositOfferID: str(d.depositOfferID),
      amount: show(amount),
      unlockedAmount: show(unlocked),
      start: timeOut(start)!,
      duration: durationOut(duration),
      unlockTime: timeOut(end)!,
      claimedRewardAmount: show(claimed),
      claimableReward: show(big(rewards[i])),
      rewardOwner: ownerOut(d.rewardOwner),
    };
    const offer = offers.get(out.depositOfferID);
    if (d.unlockableAmount !== undefined) out.unlockableNow = show(big(d.unlockableAmount));
    if (offer) {
      const nominator = big(offer.interestRateNominator ?? offer.InterestRateNominator);
      const unlockPeriod = big(offer.unlockPeriodDuration ?? offer.UnlockPeriodDuration);
      const noRewards = big(offer.noRewardsPeriodDuration ?? offer.NoRewardsPeriodDuration);
      const periodStart = end - unlockPeriod;
      const rewardsEnd = end - noRewards;
      const accrue = (until: bigint) => (amount * (until > start ? until - start : 0n) * nominator) / RATE_DENOMINATOR;
      out.interestRatePercent = ratePercent(nominator);
      const memo = decodeDepositOffer(offer, network, timestamp).memo;
      if (memo) out.offerMemo = memo;
      out.unlockPeriodStart = timeOut(periodStart)!;
      out.rewardsEnd = timeOut(rewardsEnd)!;
      out.totalReward = show(accrue(rewardsEnd));
      // biome-ignore lint/complexity/useMathMinMax: bigint, which Math.min and Math.max do not take
      out.rewardEarned = show(accrue(timestamp < rewardsEnd ? timestamp : rewardsEnd));
      if (out.unlockableNow === undefined) {
        // caminogo deposit.UnlockableAmount: linear over the unlock period, all of it when the period is 0.
        let unlockable = 0n;
        if (timestamp >= periodStart) {
          // biome-ignore lint/complexity/useMathMinMax: bigint, which Math.min and Math.max do not take
          const passed = timestamp - periodStart < unlockPeriod ? timestamp - periodStart : unlockPeriod;
          unlockable = unlockPeriod === 0n ? amount - unlocked : (amount * passed) / unlockPeriod - unlocked;
        }
        out.unlockableNow = show(unlockable);
      }
    }
    return out;
  });
  return { timestamp, deposits };
}

/** Pages of platform.getUTXOs, bounded. */
const MAX_PAGES = 20;
const PAGE = 1024;

/**
 * Every P UTXO of one address, each once: the node's pages may overlap (a UTXO at the page
 * boundary comes again), so UTXOs are keyed by their ID.
 */
export async function pUtxos(ctx: ToolContext, address: string, hrp: string): Promise<DecodedUtxo[]> {
  const seen = new Map<string, DecodedUtxo>();
  let startIndex: unknown;
  for (let page = 0; page < MAX_PAGES; page++) {
    const r = obj(await caminoRpc(ctx, 'platform.getUTXOs', { addresses: [address], limit: PAGE, encoding: 'hex', ...(startIndex ? { startIndex } : {}) }));
    const utxos = arr(r.utxos).map(str);
    for (const text of utxos) {
      const u = decodeUtxo(text, hrp, str(r.encoding) || 'hex');
      if (u) seen.set(u.utxoID, u);
    }
    if (utxos.length < PAGE) break;
    startIndex = r.endIndex;
  }
  return [...seen.values()];
}

/** One holder's line: amount, offer, unlock date, rewards. */
export function depositLine(d: DepositOut, now: bigint): string {
  const offer = d.interestRatePercent ? `${d.interestRatePercent} % a year${d.offerMemo ? ` ${quote(d.offerMemo, 40)}` : ''}` : `offer ${d.depositOfferID}`;
  const end = BigInt(d.unlockTime.unix);
  const unlock =
    end <= now
      ? `fully unlockable since ${d.unlockTime.iso.slice(0, 10)}`
      : `unlocks ${d.unlockPeriodStart && BigInt(d.unlockPeriodStart.unix) < end ? `gradually from ${d.unlockPeriodStart.iso.slice(0, 10)} ` : ''}until ${d.unlockTime.iso.slice(0, 16).replace('T', ' ')} UTC (${relativeTime(end, now)})`;
  const rewards = d.totalReward
    ? `reward ${d.rewardEarned!.display} earned of ${d.totalReward.display} in total, ${d.claimableReward.display} claimable now`
    : `${d.claimableReward.display} claimable now`;
  const unlockable = d.unlockableNow && d.unlockableNow.value !== '0' ? `; ${d.unlockableNow.display} can be unlocked now` : '';
  return `${d.amount.display} in ${offer} since ${d.start.iso.slice(0, 10)}: ${unlock}; ${rewards}${unlockable} (deposit ${d.depositTxID})`;
}

const BlockOut = z.object({
  height: z.string(),
  parentID: z.string(),
  time: TimeOut.optional(),
  txCount: z.number(),
  txIDs: z.array(z.string()),
  txs: z.array(z.object({ id: z.string(), kind: z.string(), text: z.string() })).describe('Each transaction: its kind and facts, in one line.'),
  encoding: z.string(),
  block: z.unknown().describe('The block as the node sent it (json).'),
});
async function blockOut(raw: unknown, ctx: ToolContext) {
  const r = obj(raw);
  const b = obj(r.block);
  const txs = arr(b.txs ?? b.transactions);
  const network = await networkOrBlank(ctx);
  const named = txs.some((t) => obj(obj(t).unsignedTx).destinationChain !== undefined || obj(obj(t).unsignedTx).sourceChain !== undefined) ? await chainNamer(ctx) : (id: string) => `chain ${id}`;
  const out: z.input<typeof BlockOut> = {
    height: big(b.height).toString(),
    parentID: str(b.parentID),
    txCount: txs.length,
    txIDs: txs.map((t) => str(obj(t).id ?? obj(t).txID)).filter(Boolean),
    txs: txs.map((t) => {
      const f = describePTx(t, network, named, str(obj(t).id ?? obj(t).txID));
      return { id: f.id, kind: f.kind, text: f.text };
    }),
    encoding: str(r.encoding || 'json'),
    block: r.block ?? null,
  };
  const time = timeOut(b.time ?? b.timestamp);
  if (b.time !== undefined || b.timestamp !== undefined) out.time = time;
  return out;
}
const blockText = (o: z.infer<typeof BlockOut>, what: string) =>
  [
    `${what}: height ${o.height}${o.time ? `, ${o.time.iso}` : ''}, parent ${o.parentID}, ${o.txCount} transaction(s)${o.txCount ? ':' : '.'}`,
    ...listLines(o.txs, 20, (t) => t.text),
  ].join('\n');

/** Owners the node matches exactly (sorted hash of locktime, threshold, addresses). */
function ownersOf(addresses: readonly string[], threshold: number | undefined, locktime: bigint) {
  if (threshold !== undefined) return [{ locktime: locktime.toString(), threshold: String(threshold), addresses: [...addresses] }];
  return addresses.map((a) => ({ locktime: locktime.toString(), threshold: '1', addresses: [a] }));
}
const sameOwner = (a: z.infer<typeof OwnerOut>, b: z.infer<typeof OwnerOut>) =>
  a.threshold === b.threshold && a.locktime === b.locktime && [...new Set(a.addresses)].sort().join() === [...new Set(b.addresses)].sort().join();

/** The user's own P addresses: the local signer's key, else the keystore user's; otherwise none. */
export async function ownPAddresses(ctx: ToolContext): Promise<string[]> {
  const key = await ctx.keyAddresses?.();
  const own = key ? [key.x] : ctx.config.keystore ? await userXAddresses(ctx) : [];
  return own.map((a) => `P-${a.slice(a.indexOf('-') + 1)}`);
}

const DepositClaim = z.object({ depositTxID: z.string(), claimable: AmountOut });
const ClaimableOut = z.object({
  owner: OwnerOut,
  found: z.boolean().describe('false: nothing claimable for this exact owner (the node has no entry, no deposit reward).'),
  validatorRewards: AmountOut,
  expiredDepositRewards: AmountOut.describe('Unclaimed rewards of deposits that were unlocked after they ended.'),
  depositRewards: AmountOut.describe("Rewards of deposits this owner is the reward owner of, held by the owner's addresses: claimable now, per deposit."),
  deposits: z.array(DepositClaim).describe('Those deposits with something claimable: platform_claim {kind: "deposit", depositTxID}.'),
  total: AmountOut,
});

/**
 * The deposits held by these P addresses (the lock IDs of their UTXOs, native asset only), read with
 * platform.getDeposits: a node has no method that lists deposits by reward owner.
 */
async function depositsHeldBy(ctx: ToolContext, addresses: readonly string[], network: { hrp: string; assetID: string }): Promise<DepositOut[]> {
  const ids = new Set<string>();
  for (const address of new Set(addresses)) {
    for (const u of await pUtxos(ctx, address, network.hrp)) {
      if (u.depositTxID && (!network.assetID || u.assetID === network.assetID)) ids.add(u.depositTxID);
    }
  }
  return ids.size ? (await readDeposits(ctx, [...ids])).deposits : [];
}

export const caminoTools: ToolDef[] = withShallowOutputs([
  defineTool({
    name: 'platform_getDeposits',
    title: 'Deposits',
    description: 'Deposits by ID (Camino): amount, offer, unlock date, unlockable now, rewards earned and claimable now.',
    tier: 'read',
    toolset: 'platform',
    input: z.strictObject({ depositTxIDs: z.array(cb58Id('Deposit transaction ID.')).min(1).max(64).describe('Deposit tx IDs (account_overview lists them).') }),
    output: z.object({ timestamp: TimeOut.describe("The node's clock used for the rewards."), deposits: z.array(DepositOut) }),
    run: async (input, ctx) => {
      const { timestamp, deposits } = await readDeposits(ctx, input.depositTxIDs);
      return { timestamp: timeOut(timestamp)!, deposits };
    },
    summarize: (o) =>
      [
        `${o.deposits.length} deposit(s) at ${o.timestamp.iso}:`,
        ...listLines(o.deposits, 20, (d) => depositLine(d, BigInt(o.timestamp.unix))),
        ...(o.deposits.some((d) => !d.totalReward) ? ['(Offer not found for some deposits: unlock period and total reward not computed.)'] : []),
        ...(o.deposits.some((d) => d.offerMemo) ? [STRANGER_NOTE] : []),
      ].join('\n'),
  }),
  defineTool({
    name: 'platform_getClaimables',
    title: 'Claimable rewards',
    description: "Rewards claimable now per owner (Camino): validator rewards, expired deposits, and the held deposits' rewards by deposit ID. Default: own addresses.",
    tier: 'read',
    toolset: 'platform',
    input: z.strictObject({
      addresses: z.array(pAddress()).min(1).max(64).optional().describe('P- addresses; default your own. Each is its own owner unless threshold is given.'),
      threshold: z.number().int().min(1).max(64).optional().describe('One joint owner of all addresses with this threshold.'),
      locktime: z.number().int().min(0).optional().describe('Owner locktime; default 0.'),
    }),
    output: z.object({ claimables: z.array(ClaimableOut), total: AmountOut, depositsNotRead: z.string().optional().describe('Why the deposits held could not be read (their rewards are then not counted).') }),
    run: async (input, ctx) => {
      const network = await networkOrBlank(ctx);
      const show = (v: bigint) => nativeAmount(v, network);
      const addresses = input.addresses ?? (await ownPAddresses(ctx));
      if (addresses.length === 0) throw new ChainMcpError('input', 'Invalid input: addresses: required (no local key or keystore user is configured to default to).');
      if (input.threshold !== undefined && input.threshold > addresses.length) throw new ChainMcpError('input', `Invalid input: threshold: ${input.threshold} is more than the ${addresses.length} address(es) given.`);
      const owners = ownersOf(addresses, input.threshold, BigInt(input.locktime ?? 0));
      // The deposits are a second read: when it fails, the node's own figures still answer, with a word on what is missing.
      let depositsNotRead: string | undefined;
      const [raw, deposits] = await Promise.all([
        caminoRpc(ctx, 'platform.getClaimables', { owners }).then(obj),
        depositsHeldBy(ctx, addresses, network).catch((err: unknown) => {
          depositsNotRead = (err as Error).message.split('\n')[0]!;
          return [] as DepositOut[];
        }),
      ]);
      const replies = arr(raw.claimables).map(obj);
      let total = 0n;
      const claimables = owners.map((o) => {
        const owner = ownerOut(o);
        // The node leaves out owners with nothing claimable, so replies are matched by their owner.
        const reply = replies.find((r) => sameOwner(ownerOut(r.rewardOwner), owner));
        // A deposit's reward is its reward owner's, claimed per deposit (claimType 3), whoever holds the deposit.
        const own = deposits.filter((d) => sameOwner(d.rewardOwner, owner) && d.claimableReward.value !== '0');
        const v = big(reply?.validatorRewards);
        const e = big(reply?.expiredDepositRewards);
        const d = own.reduce((sum, x) => sum + big(x.claimableReward.value), 0n);
        total += v + e + d;
        return {
          owner,
          found: reply !== undefined || own.length > 0,
          validatorRewards: show(v),
          expiredDepositRewards: show(e),
          depositRewards: show(d),
          deposits: own.map((x) => ({ depositTxID: x.depositTxID, claimable: x.claimableReward })),
          total: show(v + e + d),
        };
      });
      return { claimables, total: show(total), ...(depositsNotRead ? { depositsNotRead } : {}) };
    },
    summarize: (o) =>
      [
        `Claimable now: ${o.total.display} in total (validator rewards, rewards of ended deposits, and rewards of the deposits these addresses hold).`,
        ...(o.depositsNotRead ? [`Deposit rewards not read, so not in the total: ${o.depositsNotRead}`] : []),
        ...listLines(o.claimables, 20, (c) =>
          c.found
            ? `${ownerText(c.owner)}: ${c.total.display} (validator rewards ${c.validatorRewards.display}, expired deposit rewards ${c.expiredDepositRewards.display}, deposit rewards ${c.depositRewards.display}${c.deposits.length ? `: ${c.deposits.map((d) => `${d.claimable.display} of deposit ${d.depositTxID}`).join(', ')}` : ''})`
            : `${ownerText(c.owner)}: nothing claimable`,
        ),
        'Claim with platform_claim (a deposit reward by its deposit ID above). A deposit held by other addresses is not listed: account_overview of its holder names its ID.',
      ].join('\n'),
  }),
  defineTool({
    name: 'platform_getMultisigAlias',
    title: 'Multisig alias',
    description: 'Owners and signature threshold behind a multisig alias address (Camino).',
    tier: 'read',
    toolset: 'platform',
    input: z.strictObject({ address: pAddress('The alias, P-...') }),
    output: z.object({ address: z.string(), isAlias: z.boolean(), owners: z.array(z.string()), threshold: z.string(), locktime: z.string(), memo: z.string() }),
    run: async (input, ctx) => {
      try {
        const r = obj(await caminoRpc(ctx, 'platform.getMultisigAlias', { address: input.address }));
        const o = ownerOut(r);
        return { address: input.address, isAlias: true, owners: o.addresses, threshold: o.threshold, locktime: o.locktime, memo: memoText(r.memo) };
      } catch (err) {
        if (!notFound(err)) throw err;
        return { address: input.address, isAlias: false, owners: [], threshold: '0', locktime: '0', memo: '' };
      }
    },
    summarize: (o) =>
      o.isAlias
        ? [
            `${o.address} is a multisig alias: ${o.threshold} of ${o.owners.length} owner(s) must sign${o.locktime !== '0' ? ` (locked until ${timeOut(o.locktime)?.iso ?? o.locktime})` : ''}.`,
            ...listLines(o.owners, 50, (a) => a),
            ...(o.memo ? [`Memo: ${quote(o.memo, 80)}`, STRANGER_NOTE] : []),
          ].join('\n')
        : `${o.address} is not a multisig alias (the node answers "not found"); it is an ordinary address or unused.`,
  }),
  defineTool({
    name: 'platform_getRegisteredShortIDLink',
    title: 'Registered node link',
    description: "The consortium member's address a node ID is registered to, or the node an address registered (Camino).",
    tier: 'read',
    toolset: 'platform',
    input: z.strictObject({
      address: z
        .string()
        .max(100)
        .superRefine((v, c) => {
          try {
            if (v.startsWith('NodeID-')) parseNodeId(v);
            else parseChainAddress(v, { chains: ['P'] });
          } catch (err) {
            c.addIssue({ code: 'custom', message: `${(err as Error).message}; expected NodeID-... or P-...` });
          }
        })
        .describe('NodeID-... or P-...'),
    }),
    output: z.object({ address: z.string(), linked: z.string().describe('The other side; empty when nothing is registered.'), registered: z.boolean() }),
    run: async (input, ctx) => {
      try {
        const r = obj(await caminoRpc(ctx, 'platform.getRegisteredShortIDLink', { address: input.address }));
        return { address: input.address, linked: str(r.address), registered: true };
      } catch (err) {
        if (!notFound(err)) throw err;
        return { address: input.address, linked: '', registered: false };
      }
    },
    summarize: (o) =>
      !o.registered
        ? `Nothing is registered for ${o.address} (the node answers "not found").`
        : o.address.startsWith('NodeID-')
          ? `Node ${o.address} is registered by ${o.linked}.`
          : `${o.address} registered node ${o.linked}.`,
  }),
  defineTool({
    name: 'platform_getLastAcceptedBlock',
    title: 'Last P-Chain block',
    description: 'The last accepted P-Chain block, decoded (Camino).',
    tier: 'read',
    toolset: 'platform',
    input: z.strictObject({}),
    output: BlockOut,
    run: async (_i, ctx) => blockOut(await caminoRpc(ctx, 'platform.getLastAcceptedBlock'), ctx),
    summarize: (o) => blockText(o, 'Last accepted P-Chain block'),
  }),
  defineTool({
    name: 'platform_getBlockAtHeight',
    title: 'P-Chain block at height',
    description: 'The P-Chain block at a height, decoded (Camino).',
    tier: 'read',
    toolset: 'platform',
    input: z.strictObject({ height: z.number().int().min(0).max(0xffffffff).describe('Block height.') }),
    output: BlockOut,
    // caminogo reads height as a plain uint32: a JSON number (a quoted one does not unmarshal).
    run: async (input, ctx) => blockOut(await caminoRpc(ctx, 'platform.getBlockAtHeight', { height: input.height }), ctx),
    summarize: (o) => blockText(o, 'P-Chain block'),
  }),
  defineTool({
    name: 'platform_getUpgradePhases',
    title: 'Upgrade phases',
    description: 'Which Camino network upgrades (Athens) are active.',
    tier: 'read',
    toolset: 'platform',
    input: z.strictObject({}),
    output: z.object({ athensPhase: z.string(), athensActive: z.boolean() }),
    run: async (_i, ctx) => {
      const r = obj(await caminoRpc(ctx, 'platform.getUpgradePhases'));
      const athens = big(r.athensPhase);
      return { athensPhase: athens.toString(), athensActive: athens > 0n };
    },
    summarize: (o) => `Athens phase: ${o.athensActive ? 'active' : 'not active yet'} (athensPhase ${o.athensPhase}).`,
  }),
]);
