import { z } from 'zod';
import { withShallowOutputs } from '../summarize/schema.js';
import { nanosToSeconds, parseDateTime, tolerantBigInt } from '../codec/index.js';
import { amountOf, BLOCKCHAIN_STATUS_MEANING, DurationOut, durationOut, meaningOf, networkOrBlank, TX_STATUS_MEANING } from '../summarize/chain.js';
import { AmountOut, answeredEncoding, big, listLines, nativeAmount, TimeOut, timeOut } from '../summarize/format.js';
import { quote, STRANGER_NOTE } from '../summarize/stranger.js';
import { chainNamer, describePTx } from '../summarize/p-tx.js';
import { ADDRESS_STATE_MEANING, ADDRESS_STATES, decodeAddressStates, decodeDepositOffer, DepositOfferOut, depositTotalReward, offerCount, offerLine } from '../summarize/platform.js';
import { DecodedUtxo, decodeUtxo, totalsByAsset } from '../summarize/utxo.js';
import {
  decodeDelegator,
  decodeValidator,
  DelegatorOut,
  sortValidators,
  type ValidatorOut as ValidatorOutT,
  ValidatorOut,
  validatorLine,
  ValidatorHighlights,
  validatorHighlights,
  ValidatorSetStats,
  validatorSetLines,
  validatorStats,
} from '../summarize/validators.js';
import { addressList, amount, cb58Id, encoding, NODE_ENCODINGS, nodeId, pAddress } from '../core/fields.js';
import { defineTool, type ToolContext, type ToolDef } from '../core/tool.js';

/** Platform chain API, endpoint /ext/P (spec document 3). */

/** The primary network's subnet ID (all ones in cb58). */
export const PRIMARY_NETWORK_ID = '11111111111111111111111111111111LpoYY';

const none = z.strictObject({});
const str = (v: unknown): string => (v === undefined || v === null ? '' : String(v));
const rpc = (method: string) => ({ kind: 'rpc' as const, endpoint: 'platform' as const, method });
const obj = (raw: unknown): Record<string, unknown> => (raw && typeof raw === 'object' ? (raw as Record<string, unknown>) : {});
const nowUnix = (ctx: ToolContext) => BigInt(Math.floor(ctx.now() / 1000));

/** Unix seconds or an RFC 3339 time, as a bigint of Unix seconds. */
const unixTime = (description: string) =>
  z
    .union([z.string().max(40), z.number()])
    .transform((v, ctx) => {
      try {
        return parseDateTime(v);
      } catch (err) {
        ctx.addIssue({ code: 'custom', message: (err as Error).message });
        return z.NEVER;
      }
    })
    .describe(description);

const subnetIdField = cb58Id('Subnet ID; default primary network.').optional();
const nodeIdsField = z.array(nodeId()).min(1).max(1000).optional().describe('Only these node IDs.');
const pageFields = {
  offset: z.number().int().min(0).default(0).describe('Validators to skip (after filter and sort).'),
  limit: z.number().int().min(1).max(100).default(20).describe('Validators to list; counts and totals cover all.'),
  delegatorLimit: z.number().int().min(0).max(100).default(5).describe('Delegators to list per validator; listed for one nodeID only.'),
};

const ValidatorListOut = z.object({
  subnetID: z.string(),
  stats: ValidatorSetStats,
  highlights: ValidatorHighlights,
  validators: z.array(ValidatorOut),
  offset: z.number(),
  matched: z.number().describe('Validators after the connected filter, before paging.'),
  hasMore: z.boolean(),
});

function nodeFilterParams(i: { subnetID?: string; nodeIDs?: string[] }) {
  const params: Record<string, unknown> = {};
  if (i.subnetID !== undefined) params.subnetID = i.subnetID;
  if (i.nodeIDs !== undefined) params.nodeIDs = i.nodeIDs;
  return params;
}

function pageOf(all: ValidatorOutT[], input: { offset: number; limit: number; sortBy?: 'endTime' | 'startTime' | 'stake' | 'uptime'; connected?: boolean }) {
  const filtered = input.connected === undefined ? all : all.filter((v) => v.connected === input.connected);
  const sorted = sortValidators(filtered, input.sortBy);
  return { page: sorted.slice(input.offset, input.offset + input.limit), matched: filtered.length, hasMore: input.offset + input.limit < filtered.length };
}

const BALANCE_KINDS = [
  ['unlocked', 'unlockedOutputs'],
  ['bonded', 'bondedOutputs'],
  ['deposited', 'depositedOutputs'],
  ['bondedDeposited', 'bondedDepositedOutputs'],
] as const;

const AssetBalance = z.object({
  assetID: z.string(),
  total: AmountOut,
  unlocked: AmountOut.describe('Spendable, can pay fees.'),
  bonded: AmountOut.optional().describe('Staked (validating or delegating); returns at the end of the period.'),
  deposited: AmountOut.optional().describe('In a deposit offer; returns when the deposit unlocks.'),
  bondedDeposited: AmountOut.optional().describe('Both deposited and staked.'),
  lockedStakeable: AmountOut.optional().describe('Locked, can be staked (nodes without bond/deposit lock mode).'),
  lockedNotStakeable: AmountOut.optional().describe('Locked, cannot be staked (nodes without bond/deposit lock mode).'),
});

/** The Avalanche shape (lockModeBondDeposit off): totals per asset, or one native total in older answers. */
const AVALANCHE_KINDS = [
  ['unlocked', 'unlockeds', 'unlocked'],
  ['lockedStakeable', 'lockedStakeables', 'lockedStakeable'],
  ['lockedNotStakeable', 'lockedNotStakeables', 'lockedNotStakeable'],
] as const;

type BalanceParts = Record<string, bigint>;

/**
 * Both shapes of platform.getBalance, as amounts per asset: `lockModeBondDeposit` on
 * (maps unlockedOutputs, bondedOutputs, depositedOutputs, bondedDepositedOutputs) or off
 * (balance/unlocked/lockedStakeable/lockedNotStakeable plus the per-asset `…s` maps).
 */
export function balanceParts(raw: unknown, nativeAssetID: string): Map<string, { total: bigint; parts: BalanceParts }> {
  const r = obj(raw);
  const out = new Map<string, { total: bigint; parts: BalanceParts }>();
  const totals = obj(r.balances);
  const camino = BALANCE_KINDS.some(([, key]) => r[key] !== undefined);
  const kinds: ReadonlyArray<readonly [string, string]> = camino ? BALANCE_KINDS : AVALANCHE_KINDS.map(([kind, key]) => [kind, key] as const);
  const maps = kinds.map(([kind, key]) => [kind, obj(r[key])] as const);
  const ids = new Set<string>([...Object.keys(totals), ...maps.flatMap(([, m]) => Object.keys(m))]);
  if (!camino && ids.size === 0 && r.balance !== undefined) {
    // Older answers carry only the native asset's sums.
    const parts = Object.fromEntries(AVALANCHE_KINDS.map(([kind, , single]) => [kind, big(r[single])]));
    out.set(nativeAssetID || 'native', { total: big(r.balance), parts });
    return out;
  }
  for (const id of ids) {
    const parts = Object.fromEntries(maps.map(([kind, m]) => [kind, big(m[id])]));
    // Without `balances` the total is every lock kind added up (bondedDeposited included).
    const sum = Object.values(parts).reduce((a, b) => a + b, 0n);
    out.set(id, { total: totals[id] !== undefined ? big(totals[id]) : sum, parts });
  }
  return out;
}

export const platformTools: ToolDef[] = withShallowOutputs([
  defineTool({
    name: 'platform_getAddressStates',
    title: 'Address state flags',
    description: 'Role and KYC flags of a P-Chain address (admin, KYC, offers, consortium, node deferred), every bit named.',
    tier: 'read',
    toolset: 'platform',
    input: z.strictObject({ address: pAddress() }),
    output: z.object({ address: z.string(), bitmask: z.string(), states: z.array(z.string()), unknownBits: z.array(z.number()) }),
    request: rpc('platform.getAddressStates'),
    decode: (raw, input) => {
      const value = typeof raw === 'object' && raw !== null ? (obj(raw).states ?? obj(raw).addressStates ?? obj(raw).state) : raw;
      const mask = tolerantBigInt(value) ?? 0n;
      return { address: input.address, bitmask: mask.toString(), ...decodeAddressStates(mask) };
    },
    summarize: (o) =>
      o.states.length === 0 && o.unknownBits.length === 0
        ? `${o.address} has no state flags set (bitmask 0).`
        : [
            `${o.address} has ${o.states.length + o.unknownBits.length} flag(s) set (bitmask ${o.bitmask}):`,
            ...o.states.map((s) => `- ${s} (bit ${ADDRESS_STATES.find(([n]) => n === s)?.[1]}): ${ADDRESS_STATE_MEANING[s] ?? ''}`),
            ...o.unknownBits.map((b) => `- unknown bit ${b} (no real node defines it)`),
          ].join('\n'),
  }),
  defineTool({
    name: 'platform_getAllDepositOffers',
    title: 'Deposit offers',
    description: 'Deposit offers at a time (default now): interest, durations, minimum, which take deposits now; with amount, what it would earn.',
    tier: 'read',
    toolset: 'platform',
    input: z.strictObject({
      timestamp: unixTime('Unix seconds or RFC 3339; default now.').optional(),
      amount: amount('Optional: what this deposit would earn in each offer (nCAM or e.g. 1000 CAM).', 'native').optional(),
    }),
    output: z.object({
      timestamp: TimeOut,
      count: z.number(),
      open: z.number().describe('Offers that take new deposits now.'),
      depositOffers: z.array(
        DepositOfferOut.extend({
          earns: z
            .object({ atMinDuration: AmountOut, atMaxDuration: AmountOut, belowMinimum: z.boolean() })
            .optional()
            .describe('For `amount`: reward over the shortest and longest duration (rewards stop noRewardsPeriodDuration before the end).'),
        }),
      ),
    }),
    request: {
      kind: 'rpc',
      endpoint: 'platform',
      method: 'platform.getAllDepositOffers',
      params: (i, ctx) => ({ timestamp: i.timestamp ?? nowUnix(ctx) }),
    },
    decode: async (raw, input, ctx) => {
      const network = await networkOrBlank(ctx);
      const r = obj(raw);
      const list = (Array.isArray(r.depositOffers) ? r.depositOffers : Array.isArray(r.DepositOffers) ? r.DepositOffers : []) as unknown[];
      const offers = list.map((o) => {
        const offer = decodeDepositOffer(o, network, nowUnix(ctx));
        if (input.amount === undefined) return offer;
        const earn = (duration: string) =>
          nativeAmount(depositTotalReward(input.amount!, BigInt(offer.interestRateNominator), BigInt(duration), BigInt(offer.noRewardsPeriodDuration.seconds)), network);
        return { ...offer, earns: { atMinDuration: earn(offer.minDuration.seconds), atMaxDuration: earn(offer.maxDuration.seconds), belowMinimum: input.amount < BigInt(offer.minAmount.value) } };
      });
      const ts = input.timestamp ?? nowUnix(ctx);
      return { timestamp: timeOut(ts)!, count: offers.length, open: offers.filter((o) => o.open).length, depositOffers: offers };
    },
    summarize: (o) =>
      o.count === 0
        ? `No deposit offers are in their period at ${o.timestamp.iso}.`
        : [
            `${offerCount(o.depositOffers)} now; in their period at ${o.timestamp.iso}:`,
            ...listLines(
              [...o.depositOffers].sort((a, b) => Number(BigInt(b.interestRateNominator) - BigInt(a.interestRateNominator))),
              25,
              (d) =>
                offerLine(d) +
                (d.earns
                  ? `; ${d.earns.belowMinimum ? 'the amount is BELOW its minimum' : `the amount earns ${d.earns.atMinDuration.display} over ${d.minDuration.human}, ${d.earns.atMaxDuration.display} over ${d.maxDuration.human}`}`
                  : ''),
            ),
            ...(o.depositOffers.some((d) => d.memo) ? [STRANGER_NOTE] : []),
          ].join('\n'),
  }),
  defineTool({
    name: 'platform_getBalance',
    title: 'P-Chain balance',
    description: 'Get P-Chain balances per asset: total, unlocked (spendable), bonded (staked), deposited, both.',
    tier: 'read',
    toolset: 'platform',
    input: z.strictObject({ addresses: addressList(['P'], 'P-Chain addresses (P-...).') }),
    output: z.object({ addresses: z.array(z.string()), assets: z.array(AssetBalance), utxoCount: z.number() }),
    request: rpc('platform.getBalance'),
    decode: async (raw, input, ctx) => {
      const network = await networkOrBlank(ctx);
      const assets = [];
      for (const [id, { total, parts }] of balanceParts(raw, network.assetID)) {
        const show = (v: bigint) => amountOf(ctx, network, id, v).then(({ value, display }) => ({ value, display }));
        const asset: Record<string, unknown> = { assetID: id, total: await show(total) };
        for (const [kind, value] of Object.entries(parts)) asset[kind] = await show(value);
        assets.push(asset as z.infer<typeof AssetBalance>);
      }
      const r = obj(raw);
      return { addresses: input.addresses, assets, utxoCount: Array.isArray(r.utxoIDs) ? r.utxoIDs.length : 0 };
    },
    summarize: (o) => {
      const who = o.addresses.length === 1 ? o.addresses[0] : `${o.addresses.length} addresses`;
      if (o.assets.length === 0) return `${who} holds nothing on the P-Chain.`;
      const lines = [`P-Chain balance of ${who} (${o.utxoCount} UTXOs):`];
      for (const a of o.assets) {
        const parts = [
          `${a.unlocked.display} unlocked`,
          ...(a.bonded ? [`${a.bonded.display} bonded`] : []),
          ...(a.deposited ? [`${a.deposited.display} deposited`] : []),
          ...(a.bondedDeposited ? [`${a.bondedDeposited.display} bonded and deposited`] : []),
          ...(a.lockedStakeable ? [`${a.lockedStakeable.display} locked (stakeable)`] : []),
          ...(a.lockedNotStakeable ? [`${a.lockedNotStakeable.display} locked (not stakeable)`] : []),
        ];
        lines.push(`- total ${a.total.display}: ${parts.join(', ')}`);
      }
      const locked = o.assets.some((a) => a.total.value !== a.unlocked.value);
      if (locked) {
        const bondMode = o.assets.some((a) => a.bonded !== undefined);
        lines.push(
          bondMode
            ? 'Only unlocked funds can be spent or pay fees: bonded funds return when their staking period ends, deposited funds when the deposit unlocks.'
            : 'Only unlocked funds can be spent or pay fees; locked funds return when their lock time passes.',
        );
      }
      return lines.join('\n');
    },
  }),
  defineTool({
    name: 'platform_getBlock',
    title: 'P-Chain block',
    description: 'Get a P-Chain block by ID; json encoding decodes height, parent, transactions.',
    tier: 'read',
    toolset: 'platform',
    input: z.strictObject({ blockID: cb58Id('Block ID (cb58).'), encoding: encoding([...NODE_ENCODINGS, 'json'], 'json decodes.') }),
    output: z.object({
      blockID: z.string(),
      encoding: z.string(),
      block: z.unknown().describe('Encoded string, or an object for json.'),
      height: z.string().optional(),
      parentID: z.string().optional(),
      txCount: z.number().optional(),
    }),
    request: rpc('platform.getBlock'),
    decode: (raw, input) => {
      const r = obj(raw);
      const out: Record<string, unknown> = { blockID: input.blockID, encoding: answeredEncoding(r.encoding, input.encoding, r.block), block: r.block ?? null };
      if (r.block && typeof r.block === 'object') {
        const b = r.block as Record<string, unknown>;
        if (b.height !== undefined) out.height = big(b.height).toString();
        if (b.parentID !== undefined) out.parentID = str(b.parentID);
        const txs = Array.isArray(b.txs) ? b.txs : Array.isArray(b.transactions) ? b.transactions : b.tx ? [b.tx] : [];
        out.txCount = txs.length;
      }
      return out as { blockID: string; encoding: string; block: unknown };
    },
    summarize: (o) =>
      o.height !== undefined
        ? `Block ${o.blockID} at height ${o.height}, parent ${o.parentID ?? '?'}, ${o.txCount ?? 0} transaction(s).`
        : `Block ${o.blockID} (${o.encoding}, ${typeof o.block === 'string' ? `${o.block.length} characters` : 'no data'}). Ask with encoding json to see its height and transactions.`,
  }),
  defineTool({
    name: 'platform_getTx',
    title: 'P-Chain transaction',
    description: 'Get a P-Chain transaction; encoding json decodes it.',
    tier: 'read',
    toolset: 'platform',
    // A real node takes hex (default), hexnc, hexc and json; it refuses cb58.
    input: z.strictObject({ txID: cb58Id('Transaction ID (cb58).'), encoding: encoding(['hex', 'hexnc', 'hexc', 'json']) }),
    output: z.object({
      txID: z.string(),
      encoding: z.string(),
      kind: z.string().optional().describe('json: export, import, deposit, claim, add validator, …'),
      facts: z.string().optional().describe('json: the transaction in one line (what moved where, the fee).'),
      tx: z.unknown(),
    }),
    request: rpc('platform.getTx'),
    decode: async (raw, input, ctx) => {
      const r = obj(raw);
      const out = { txID: input.txID, encoding: str(r.encoding ?? input.encoding ?? 'hex'), tx: r.tx ?? null };
      if (!r.tx || typeof r.tx !== 'object') return out;
      const u = obj(obj(r.tx).unsignedTx);
      const named = u.destinationChain !== undefined || u.sourceChain !== undefined ? await chainNamer(ctx) : (id: string) => `chain ${id}`;
      const f = describePTx(r.tx, await networkOrBlank(ctx), named, input.txID);
      return { ...out, kind: f.kind, facts: f.text };
    },
    summarize: (o) =>
      typeof o.tx === 'string'
        ? `P-Chain transaction ${o.txID}: ${o.tx.length} characters of ${o.encoding}. Ask with encoding json to decode it.`
        : `P-Chain transaction ${o.facts ?? o.txID} (every field in structuredContent.tx).`,
  }),
  defineTool({
    name: 'platform_getTxStatus',
    title: 'P-Chain transaction status',
    description: 'P-Chain transaction status: Committed, Aborted, Processing, Dropped or Unknown.',
    tier: 'read',
    toolset: 'platform',
    input: z.strictObject({ txID: cb58Id('Transaction ID (cb58).') }),
    output: z.object({ txID: z.string(), status: z.string(), meaning: z.string(), reason: z.string().optional() }),
    request: rpc('platform.getTxStatus'),
    decode: (raw, input) => {
      const r = obj(raw);
      const status = str(typeof raw === 'string' ? raw : r.status) || 'Unknown';
      return { txID: input.txID, status, meaning: meaningOf(TX_STATUS_MEANING, status), ...(r.reason ? { reason: str(r.reason) } : {}) };
    },
    summarize: (o) => `Transaction ${o.txID} is ${o.status}: ${o.meaning}${o.reason ? ` (reason: ${quote(o.reason, 200)})` : ''}.`,
  }),
  defineTool({
    name: 'platform_getBlockchains',
    title: 'Blockchains',
    description: 'List all blockchains except the P-Chain, with name, subnet and VM.',
    tier: 'read',
    toolset: 'platform',
    input: none,
    output: z.object({ count: z.number(), blockchains: z.array(z.object({ id: z.string(), name: z.string(), subnetID: z.string(), vmID: z.string() })) }),
    request: rpc('platform.getBlockchains'),
    decode: (raw) => {
      const list = Array.isArray(obj(raw).blockchains) ? (obj(raw).blockchains as unknown[]) : [];
      const blockchains = list.map((b) => {
        const r = obj(b);
        return { id: str(r.id ?? r.ID), name: str(r.name), subnetID: str(r.subnetID), vmID: str(r.vmID ?? r.vmId) };
      });
      return { count: blockchains.length, blockchains };
    },
    summarize: (o) =>
      [
        `${o.count} blockchain(s) besides the P-Chain:`,
        ...listLines(o.blockchains, 50, (b) => `${b.name ? quote(b.name) : '(unnamed)'} ${b.id} on subnet ${b.subnetID === PRIMARY_NETWORK_ID ? 'primary network' : b.subnetID}, VM ${b.vmID}`),
        ...(o.blockchains.some((b) => b.name) ? [STRANGER_NOTE] : []),
      ].join('\n'),
  }),
  defineTool({
    name: 'platform_getBlockchainStatus',
    title: 'Blockchain status',
    description: 'Get whether this node validates, syncs or only knows a blockchain.',
    tier: 'read',
    toolset: 'platform',
    input: z.strictObject({ blockchainID: cb58Id('Blockchain ID (cb58).') }),
    output: z.object({ blockchainID: z.string(), status: z.string(), meaning: z.string() }),
    request: rpc('platform.getBlockchainStatus'),
    decode: (raw, input) => {
      const status = str(obj(raw).status) || 'Unknown';
      return { blockchainID: input.blockchainID, status, meaning: meaningOf(BLOCKCHAIN_STATUS_MEANING, status) };
    },
    summarize: (o) => `Blockchain ${o.blockchainID}: ${o.status}, ${o.meaning}.`,
  }),
  defineTool({
    name: 'platform_getConfiguration',
    title: 'Network configuration',
    description: "Get the network configuration: IDs, native asset, address prefix, staking limits, supply cap.",
    tier: 'read',
    toolset: 'platform',
    input: none,
    output: z.object({
      networkID: z.string(),
      assetID: z.string(),
      assetSymbol: z.string(),
      hrp: z.string(),
      blockchains: z.array(z.object({ id: z.string(), name: z.string(), subnetID: z.string(), vmID: z.string() })),
      minStakeDuration: DurationOut,
      maxStakeDuration: DurationOut,
      minValidatorStake: AmountOut,
      maxValidatorStake: AmountOut,
      minDelegatorStake: AmountOut,
      minDelegationFee: z.string().describe('Percent.'),
      minConsumptionRate: z.string(),
      maxConsumptionRate: z.string(),
      supplyCap: AmountOut,
      codecVersion: z.string(),
      verifyNodeSignature: z.boolean().optional(),
      lockModeBondDeposit: z.boolean().optional(),
    }),
    request: rpc('platform.getConfiguration'),
    decode: (raw) => {
      const r = obj(raw);
      const network = { assetSymbol: str(r.assetSymbol) };
      const list = Array.isArray(r.blockchains) ? r.blockchains : [];
      const out = {
        networkID: big(r.networkID).toString(),
        assetID: str(r.assetID),
        assetSymbol: str(r.assetSymbol),
        hrp: str(r.hrp),
        blockchains: list.map((b) => {
          const x = obj(b);
          return { id: str(x.id), name: str(x.name), subnetID: str(x.subnetID), vmID: str(x.vmID) };
        }),
        minStakeDuration: durationOut(nanosToSeconds(big(r.minStakeDuration))),
        maxStakeDuration: durationOut(nanosToSeconds(big(r.maxStakeDuration))),
        minValidatorStake: nativeAmount(big(r.minValidatorStake), network),
        maxValidatorStake: nativeAmount(big(r.maxValidatorStake), network),
        minDelegatorStake: nativeAmount(big(r.minDelegatorStake), network),
        // The fee is in units of 1/10,000 percent (20000 = 2 %).
        minDelegationFee: feePercent(r.minDelegationFee),
        minConsumptionRate: big(r.minConsumptionRate).toString(),
        maxConsumptionRate: big(r.maxConsumptionRate).toString(),
        supplyCap: nativeAmount(big(r.supplyCap), network),
        codecVersion: big(r.codecVersion).toString(),
      } as Record<string, unknown>;
      if (typeof r.verifyNodeSignature === 'boolean') out.verifyNodeSignature = r.verifyNodeSignature;
      if (typeof r.lockModeBondDeposit === 'boolean') out.lockModeBondDeposit = r.lockModeBondDeposit;
      return out as never;
    },
    summarize: (o) =>
      [
        `Network ${o.networkID}, address prefix "${o.hrp}", native asset ${o.assetSymbol} (${o.assetID}).`,
        `Validator stake ${o.minValidatorStake.display} to ${o.maxValidatorStake.display}; delegator stake at least ${o.minDelegatorStake.display}; minimum delegation fee ${o.minDelegationFee} %.`,
        `Stake duration ${o.minStakeDuration.human} to ${o.maxStakeDuration.human}. Supply cap ${o.supplyCap.display}.`,
        `Consumption rate ${o.minConsumptionRate} to ${o.maxConsumptionRate}; codec version ${o.codecVersion}` +
          (o.lockModeBondDeposit !== undefined ? `; bond/deposit lock mode ${o.lockModeBondDeposit ? 'on' : 'off'}` : '') +
          (o.verifyNodeSignature !== undefined ? `; node signatures ${o.verifyNodeSignature ? 'verified' : 'not verified'}` : '') +
          '.',
        `${o.blockchains.length} blockchain(s) in genesis.`,
      ].join('\n'),
  }),
  defineTool({
    name: 'platform_getCurrentSupply',
    title: 'Current supply',
    description: 'Get an upper bound on the native supply (burns and fees not subtracted).',
    tier: 'read',
    toolset: 'platform',
    input: none,
    output: z.object({ supply: AmountOut }),
    request: rpc('platform.getCurrentSupply'),
    decode: async (raw, _i, ctx) => ({ supply: nativeAmount(big(obj(raw).supply), await networkOrBlank(ctx)) }),
    summarize: (o) => `Current supply: at most ${o.supply.display} (an upper bound: burnt tokens, including fees, are not subtracted).`,
  }),
  defineTool({
    name: 'platform_getCurrentValidators',
    title: 'Current validators',
    description: 'Summarize current validators of the primary network or a subnet: stake, uptime, delegators.',
    tier: 'read',
    toolset: 'platform',
    input: z.strictObject({
      subnetID: subnetIdField,
      nodeIDs: nodeIdsField,
      connected: z.boolean().optional().describe('Only connected (true) or disconnected (false) ones.'),
      sortBy: z.enum(['endTime', 'startTime', 'stake', 'uptime']).optional().describe('stake: largest first; uptime: lowest first; default node order.'),
      ...pageFields,
    }),
    output: ValidatorListOut,
    request: { kind: 'rpc', endpoint: 'platform', method: 'platform.getCurrentValidators', params: nodeFilterParams },
    decode: async (raw, input, ctx) => validatorList(raw, input, await networkOrBlank(ctx)),
    summarize: (o, input, ctx) => {
      const now = nowUnix(ctx);
      const where = o.subnetID === PRIMARY_NETWORK_ID ? 'on the primary network' : `on subnet ${o.subnetID}`;
      return [
        ...validatorSetLines(o.stats, o.highlights, now, `current validator(s) ${where}`),
        `Listed ${o.validators.length} of ${o.matched}${input.connected !== undefined ? ` ${input.connected ? 'connected' : 'disconnected'}` : ''} from offset ${o.offset}${input.sortBy ? `, by ${input.sortBy}` : ''}:`,
        ...listLines(o.validators, 25, (v) => validatorLine(v, now)),
        ...(o.validators.length > 25 ? ['(All listed validators are in the structured result.)'] : []),
        ...(input.delegatorLimit > 0 && o.validators.some((v) => v.delegatorCount && !v.delegatorsListed)
          ? ['Delegators not listed: the node lists them only when asked for exactly one nodeID.']
          : []),
        ...(o.hasMore ? [`More: call again with offset ${o.offset + o.validators.length}; sortBy endTime shows the ones ending soonest first.`] : []),
      ].join('\n');
    },
  }),
  defineTool({
    name: 'platform_getHeight',
    title: 'P-Chain height',
    description: 'Get the height of the last accepted P-Chain block.',
    tier: 'read',
    toolset: 'platform',
    input: none,
    output: z.object({ height: z.string() }),
    request: rpc('platform.getHeight'),
    decode: (raw) => ({ height: big(obj(raw).height).toString() }),
    summarize: (o) => `The last accepted P-Chain block is at height ${o.height}.`,
  }),
  defineTool({
    name: 'platform_getMaxStakeAmount',
    title: 'Peak stake on a node',
    description: "Get a validator's peak stake (own + delegated) in a period; before delegating compare with min(5× own, max validator stake).",
    tier: 'read',
    toolset: 'platform',
    input: z.strictObject({
      subnetID: cb58Id('Subnet ID; default primary network.').optional(),
      nodeID: nodeId(),
      startTime: unixTime('Unix seconds or RFC 3339.'),
      endTime: unixTime('Unix seconds or RFC 3339.'),
    }),
    output: z.object({ nodeID: z.string(), subnetID: z.string(), startTime: TimeOut, endTime: TimeOut, amount: AmountOut }),
    request: {
      kind: 'rpc',
      endpoint: 'platform',
      method: 'platform.getMaxStakeAmount',
      params: (i) => ({ subnetID: i.subnetID ?? PRIMARY_NETWORK_ID, nodeID: i.nodeID, startTime: i.startTime, endTime: i.endTime }),
    },
    decode: async (raw, input, ctx) => ({
      nodeID: input.nodeID,
      subnetID: input.subnetID ?? PRIMARY_NETWORK_ID,
      startTime: timeOut(input.startTime)!,
      endTime: timeOut(input.endTime)!,
      amount: nativeAmount(big(obj(raw).amount), await networkOrBlank(ctx)),
    }),
    summarize: (o) => `At most ${o.amount.display} is staked on ${o.nodeID} between ${o.startTime.iso} and ${o.endTime.iso}.`,
  }),
  defineTool({
    name: 'platform_getMinStake',
    title: 'Minimum stakes',
    description: 'Get the minimum stake to validate and delegate on the primary network.',
    tier: 'read',
    toolset: 'platform',
    input: none,
    output: z.object({ minValidatorStake: AmountOut, minDelegatorStake: AmountOut }),
    request: rpc('platform.getMinStake'),
    decode: async (raw, _i, ctx) => {
      const network = await networkOrBlank(ctx);
      return { minValidatorStake: nativeAmount(big(obj(raw).minValidatorStake), network), minDelegatorStake: nativeAmount(big(obj(raw).minDelegatorStake), network) };
    },
    summarize: (o) => `Minimum stake: ${o.minValidatorStake.display} to validate, ${o.minDelegatorStake.display} to delegate.`,
  }),
  defineTool({
    name: 'platform_getPendingValidators',
    title: 'Pending validators',
    description: 'Summarize validators and delegators not yet staking: counts, stake, start times.',
    tier: 'read',
    toolset: 'platform',
    input: z.strictObject({ subnetID: subnetIdField, nodeIDs: nodeIdsField, sortBy: z.enum(['startTime', 'endTime', 'stake']).optional().describe('Default node order.'), ...pageFields }),
    output: ValidatorListOut.extend({ delegatorCount: z.number(), delegatedStake: AmountOut, delegators: z.array(DelegatorOut).describe('The first `limit` pending delegators.') }),
    request: { kind: 'rpc', endpoint: 'platform', method: 'platform.getPendingValidators', params: nodeFilterParams },
    decode: async (raw, input, ctx) => {
      const network = await networkOrBlank(ctx);
      const r = obj(raw);
      const delegators = (Array.isArray(r.delegators) ? r.delegators : []).map((d) => decodeDelegator(d, network));
      const delegated = delegators.reduce((s, d) => s + BigInt(d.stakeAmount?.value ?? '0'), 0n);
      return {
        ...validatorList(raw, input, network),
        delegatorCount: delegators.length,
        delegatedStake: nativeAmount(delegated, network),
        delegators: delegators.slice(0, input.limit),
      };
    },
    summarize: (o, _input, ctx) => {
      const now = nowUnix(ctx);
      const starts = sortValidators(o.validators, 'startTime')[0];
      return [
        `${o.stats.count} pending validator(s) (${o.stats.connectedCount} connected, own stake ${o.stats.totalStake.display}) and ${o.delegatorCount} pending delegator(s) with ${o.delegatedStake.display}.`,
        ...(starts ? [`First to start among those listed: ${starts.nodeID} at ${starts.startTime.iso}.`] : []),
        ...listLines(o.validators, 25, (v) => validatorLine(v, now, true)),
        ...listLines(o.delegators, 10, (d) => `delegator ${d.txID.slice(0, 12)}… to ${d.nodeID}: ${d.stakeAmount?.display ?? '?'} from ${d.startTime.iso} to ${d.endTime.iso}`),
        ...(o.hasMore ? [`More validators: call again with offset ${o.offset + o.validators.length}.`] : []),
      ].join('\n');
    },
  }),
  defineTool({
    name: 'platform_getRewardUTXOs',
    title: 'Staking reward UTXOs',
    description: 'Get the reward UTXOs and their total of a finished staking or delegation transaction.',
    tier: 'read',
    toolset: 'platform',
    input: z.strictObject({ txID: cb58Id('Staking or delegation transaction ID.'), encoding: encoding(NODE_ENCODINGS) }),
    output: z.object({ txID: z.string(), numFetched: z.number(), encoding: z.string(), utxos: z.array(z.string()), decoded: z.array(DecodedUtxo), totals: z.array(z.object({ assetID: z.string(), amount: AmountOut })) }),
    request: rpc('platform.getRewardUTXOs'),
    decode: async (raw, input, ctx) => {
      const network = await networkOrBlank(ctx);
      const r = obj(raw);
      const utxos = (Array.isArray(r.utxos) ? r.utxos : []).map(str);
      const enc = answeredEncoding(r.encoding, input.encoding, utxos[0]);
      const decoded = utxos.map((u) => decodeUtxo(u, network.hrp || 'unknown', enc)).filter((u): u is DecodedUtxo => u !== undefined);
      const totals = [];
      for (const [assetID, t] of totalsByAsset(decoded)) totals.push({ assetID, amount: await amountOf(ctx, network, assetID, t.amount).then(({ value, display }) => ({ value, display })) });
      return { txID: input.txID, numFetched: Number(big(r.numFetched ?? utxos.length)), encoding: enc, utxos, decoded, totals };
    },
    summarize: (o) =>
      o.numFetched === 0
        ? `No reward UTXOs for ${o.txID} (the staking period may not have ended, or it earned no reward).`
        : [`${o.numFetched} reward UTXO(s) for ${o.txID}; total ${o.totals.map((t) => t.amount.display).join(' + ') || 'not decodable'}.`, ...listLines(o.decoded, 10, (u) => `${u.utxoID}: ${u.amount ?? '?'} to ${(u.addresses ?? []).join(', ')}`)].join('\n'),
  }),
  defineTool({
    name: 'platform_getStakingAssetID',
    title: 'Staking asset',
    description: 'Get the ID of the asset staked on the primary network or a subnet.',
    tier: 'read',
    toolset: 'platform',
    input: z.strictObject({ subnetID: subnetIdField }),
    output: z.object({ assetID: z.string() }),
    request: rpc('platform.getStakingAssetID'),
    decode: (raw) => ({ assetID: str(obj(raw).assetID) }),
    summarize: (o) => `The staking asset is ${o.assetID}.`,
  }),
  defineTool({
    name: 'platform_getSubnets',
    title: 'Subnets',
    description: 'List subnets (all or given IDs) with control keys and signature threshold.',
    tier: 'read',
    toolset: 'platform',
    input: z.strictObject({ ids: z.array(cb58Id('Subnet ID.')).min(1).max(1000).optional().describe('Default all.') }),
    output: z.object({ count: z.number(), subnets: z.array(z.object({ id: z.string(), controlKeys: z.array(z.string()), threshold: z.string() })) }),
    request: rpc('platform.getSubnets'),
    decode: (raw) => {
      const list = Array.isArray(obj(raw).subnets) ? (obj(raw).subnets as unknown[]) : [];
      const subnets = list.map((s) => {
        const r = obj(s);
        return { id: str(r.id), controlKeys: Array.isArray(r.controlKeys) ? r.controlKeys.map(str) : [], threshold: big(r.threshold).toString() };
      });
      return { count: subnets.length, subnets };
    },
    summarize: (o) =>
      [
        `${o.count} subnet(s):`,
        ...listLines(o.subnets, 50, (s) =>
          s.id === PRIMARY_NETWORK_ID ? `${s.id} (primary network)` : `${s.id}: ${s.threshold} of ${s.controlKeys.length} control key(s) must sign (${s.controlKeys.slice(0, 3).join(', ')}${s.controlKeys.length > 3 ? ', …' : ''})`,
        ),
      ].join('\n'),
  }),
  defineTool({
    name: 'platform_validatedBy',
    title: 'Subnet of a blockchain',
    description: 'Get the ID of the subnet that validates a blockchain.',
    tier: 'read',
    toolset: 'platform',
    input: z.strictObject({ blockchainID: cb58Id('Blockchain ID (cb58).') }),
    output: z.object({ blockchainID: z.string(), subnetID: z.string() }),
    request: rpc('platform.validatedBy'),
    decode: (raw, input) => ({ blockchainID: input.blockchainID, subnetID: str(obj(raw).subnetID) }),
    summarize: (o) => `Blockchain ${o.blockchainID} is validated by ${o.subnetID === PRIMARY_NETWORK_ID ? 'the primary network' : `subnet ${o.subnetID}`}.`,
  }),
  defineTool({
    name: 'platform_validates',
    title: 'Blockchains of a subnet',
    description: 'List the blockchains a subnet validates.',
    tier: 'read',
    toolset: 'platform',
    input: z.strictObject({ subnetID: cb58Id('Subnet ID (cb58).') }),
    output: z.object({ subnetID: z.string(), blockchainIDs: z.array(z.string()) }),
    request: rpc('platform.validates'),
    decode: (raw, input) => ({ subnetID: input.subnetID, blockchainIDs: (Array.isArray(obj(raw).blockchainIDs) ? (obj(raw).blockchainIDs as unknown[]) : []).map(str) }),
    summarize: (o) => [`Subnet ${o.subnetID} validates ${o.blockchainIDs.length} blockchain(s).`, ...listLines(o.blockchainIDs, 50, (id) => id)].join('\n'),
  }),
]);

/** minDelegationFee arrives in units of 1/10,000 percent (20000 = 2 %); decimals are kept as sent. */
function feePercent(value: unknown): string {
  const n = tolerantBigInt(value);
  if (n === undefined) return str(value);
  const whole = n / 10_000n;
  const frac = (n % 10_000n).toString().padStart(4, '0').replace(/0+$/, '');
  return frac ? `${whole}.${frac}` : whole.toString();
}


/** The part current and pending validator lists share: decoded validators, stats, highlights, one page. */
function validatorList(
  raw: unknown,
  input: Parameters<typeof pageOf>[1] & { subnetID?: string; delegatorLimit: number },
  network: Parameters<typeof validatorStats>[1],
) {
  const list = obj(raw).validators;
  const primary = (input.subnetID ?? PRIMARY_NETWORK_ID) === PRIMARY_NETWORK_ID;
  const all = (Array.isArray(list) ? list : []).map((v) => decodeValidator(v, network, input.delegatorLimit, primary));
  const { page, matched, hasMore } = pageOf(all, input);
  return {
    subnetID: input.subnetID ?? PRIMARY_NETWORK_ID,
    stats: validatorStats(all, network),
    highlights: validatorHighlights(all),
    validators: page,
    offset: input.offset,
    matched,
    hasMore,
  };
}
