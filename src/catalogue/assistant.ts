import { z } from 'zod';
import { isHexAddress, parseChainAddress } from '../codec/index.js';
import { ChainMcpError, InputError, toChainMcpError } from '../errors.js';
import { credentials, txFees, userXAddresses, xBalance, pUnlocked } from '../spend/plan.js';
import { checkAddressNetworks } from '../context/network.js';
import { DurationOut, durationOut, meaningOf, networkOrBlank, TX_STATUS_MEANING } from '../summarize/chain.js';
import { AmountOut, big, listLines, nativeAmount, TimeOut } from '../summarize/format.js';
import { offerStatus } from '../summarize/platform.js';
import { withShallowOutputs } from '../summarize/schema.js';
import { quote } from '../summarize/stranger.js';
import { amount, cb58Id, hexAddress, nodeId } from '../core/fields.js';
import { defineTool, type SpendPlan, type ToolContext, type ToolDef } from '../core/tool.js';

/**
 * The assistant toolset (DESIGN section 4): one call answers a common question. Built only
 * from catalogue operations: reads through ctx.call(<tool>, args), so they share every
 * tolerant decoder; the transfer's spend steps through ctx.rpc, after one confirmation.
 */

const PRIMARY_NETWORK_ID = '11111111111111111111111111111111LpoYY';
const WEI_PER_UNIT = 10n ** 9n;
const FINAL = new Set(['Accepted', 'Rejected', 'Dropped', 'Committed', 'Aborted']);

const Problem = z.object({ step: z.string(), error: z.string() });
type Problem = z.infer<typeof Problem>;
const problemsField = Problem.array().describe('Steps that failed; the rest of the answer still holds.');

type Out = Record<string, unknown>;
const rec = (v: unknown): Out => (v && typeof v === 'object' ? (v as Out) : {});
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const str = (v: unknown): string => (v === undefined || v === null ? '' : String(v));
/** An amount field of a catalogue output: AmountOut {value} or a decimal string. */
const units = (v: unknown): bigint => (v && typeof v === 'object' ? big((v as Out).value) : big(v));
const nowUnix = (ctx: ToolContext) => BigInt(Math.floor(ctx.now() / 1000));

/** One read step; a failure is recorded, not thrown, so the other parts still answer. */
async function step(ctx: ToolContext, problems: Problem[], label: string, tool: string, args: Out = {}): Promise<Out | undefined> {
  try {
    return await ctx.call(tool, args);
  } catch (err) {
    const e = toChainMcpError(err);
    problems.push({ step: label, error: e.kind === 'internal' ? `${tool} is not available in this build` : e.message });
    return undefined;
  }
}

const problemLines = (problems: Problem[]) => (problems.length ? [`Could not read: ${problems.map((p) => `${p.step} (${p.error})`).join('; ')}`] : []);

// ---------------------------------------------------------------------------------------
// account_overview

const anyAddress = z
  .string()
  .max(200)
  .superRefine((v, c) => {
    if (isHexAddress(v)) return;
    try {
      parseChainAddress(v);
    } catch (err) {
      c.addIssue({ code: 'custom', message: `${(err as Error).message}; expected X-..., P-..., C-... or 0x...` });
    }
  });

const AssetLine = z.object({ assetID: z.string(), native: z.boolean(), amount: AmountOut });
const Waiting = z.object({ on: z.enum(['X', 'C']), from: z.enum(['X', 'P', 'C']), amount: AmountOut, utxos: z.number() });
const Account = z.object({
  address: z.string().describe('Bech32 address without chain prefix; one key, seen on X, P and C.'),
  x: z.array(AssetLine).describe('X-Chain balances, every asset.'),
  p: z.object({ total: AmountOut, unlocked: AmountOut, bonded: AmountOut, deposited: AmountOut, bondedDeposited: AmountOut }).optional().describe('P-Chain, native asset.'),
  waiting: z.array(Waiting).describe('Native funds exported to X or C and not imported yet.'),
});
const EvmBalance = z.object({ address: z.string(), balance: AmountOut });

function bareOf(address: string): string {
  return address.slice(address.indexOf('-') + 1);
}

/** Native part of a UTXO page (xvm_getUTXOs / cx_getUTXOs output: totals per asset). */
function nativeUtxoTotal(out: Out | undefined, nativeID: string): { total: bigint; count: number } {
  let total = 0n;
  let count = 0;
  for (const t of arr(out?.totals)) {
    const r = rec(t);
    if (nativeID && str(r.assetID) !== nativeID) continue;
    total += units(r.amount);
    count += Number(r.count ?? 0);
  }
  return { total, count };
}

/** Every page (bounded by the UTXO tools' own page cap), totals only. */
const ALL_UTXOS = { fetchAll: true, items: 0 };

const accountOverview = defineTool({
  name: 'account_overview',
  title: 'Account overview',
  description:
    'Get everything addresses hold in one call: X (all assets), P (unlocked, bonded, deposited), C EVM (0x addresses), exports awaiting import, native total.',
  tier: 'read',
  toolset: 'assistant',
  input: z.strictObject({
    addresses: z
      .array(anyAddress)
      .min(1)
      .max(16)
      .describe('1-16 addresses: X-/P-/C-... (one covers its key on X, P and C) or 0x... (C-Chain EVM balance).'),
  }),
  output: z.object({
    accounts: z.array(Account),
    evm: z.array(EvmBalance),
    nativeTotal: AmountOut.describe('Sum of the native parts shown (C wei cut to 9 decimals).'),
    notRead: z.array(z.string()).describe('Parts not read, so not in the total.'),
    problems: problemsField,
  }),
  run: async (input, ctx) => {
    const network = await networkOrBlank(ctx);
    // Another network's address is a mistake to name, not a zero balance (only the network lookup went out).
    checkAddressNetworks(input.addresses.filter((a) => !isHexAddress(a)), network, 'addresses');
    const nativeID = network.assetID;
    const problems: Problem[] = [];
    const bares = [...new Set(input.addresses.filter((a) => !isHexAddress(a)).map(bareOf))];
    const hexes = [...new Set(input.addresses.filter((a) => isHexAddress(a)).map((a) => a.toLowerCase()))];
    const show = (v: bigint) => nativeAmount(v, network);
    // Every step starts in the same turn, so the node reads go out side by side.
    const evmPending = Promise.all(
      hexes.map(async (address) => {
        const out = await step(ctx, problems, `C balance of ${address}`, 'eth_getBalance', { address });
        return out ? { address, balance: out.balance as AmountOut } : undefined;
      }),
    );
    const accounts = await Promise.all(
      bares.map(async (bare) => {
        const [x, p, fromP, fromC, toC] = await Promise.all([
          step(ctx, problems, `X balances of ${bare}`, 'xvm_getAllBalances', { address: `X-${bare}` }),
          step(ctx, problems, `P balance of ${bare}`, 'platform_getBalance', { addresses: [`P-${bare}`] }),
          step(ctx, problems, `P->X imports of ${bare}`, 'xvm_getUTXOs', { addresses: [`X-${bare}`], sourceChain: 'P', ...ALL_UTXOS }),
          step(ctx, problems, `C->X imports of ${bare}`, 'xvm_getUTXOs', { addresses: [`X-${bare}`], sourceChain: 'C', ...ALL_UTXOS }),
          step(ctx, problems, `X->C imports of ${bare}`, 'cx_getUTXOs', { addresses: [`C-${bare}`], sourceChain: 'X', ...ALL_UTXOS }),
        ]);
        const xLines = arr(x?.balances).map((b) => {
          const r = rec(b);
          const a = rec(r.balance ?? r.amount);
          const assetID = str(r.assetID ?? r.asset);
          // xvm_getAllBalances resolves the node's alias ("CAM") to the ID and says which line is native.
          const native = r.native === true || (nativeID !== '' && assetID === nativeID);
          return { assetID, native, amount: { value: str(a.value ?? r.balance), display: str(a.display ?? r.balance) } };
        });
        const pAssets = arr(p?.assets).map(rec);
        const pNative = pAssets.find((a) => str(a.assetID) === nativeID) ?? (pAssets.length === 1 ? pAssets[0] : undefined);
        const zero = show(0n);
        const pPart = p
          ? {
              total: (pNative?.total as AmountOut) ?? zero,
              unlocked: (pNative?.unlocked as AmountOut) ?? zero,
              bonded: (pNative?.bonded as AmountOut) ?? zero,
              deposited: (pNative?.deposited as AmountOut) ?? zero,
              bondedDeposited: (pNative?.bondedDeposited as AmountOut) ?? zero,
            }
          : undefined;
        const waiting: z.infer<typeof Waiting>[] = [];
        for (const [out, on, from] of [
          [fromP, 'X', 'P'],
          [fromC, 'X', 'C'],
          [toC, 'C', 'X'],
        ] as const) {
          const { total, count } = nativeUtxoTotal(out, nativeID);
          if (count > 0) waiting.push({ on, from, amount: show(total), utxos: count });
        }
        return { address: bare, x: xLines, ...(pPart ? { p: pPart } : {}), waiting };
      }),
    );
    const evm = (await evmPending).filter((e): e is z.infer<typeof EvmBalance> => e !== undefined);
    let total = 0n;
    for (const a of accounts) {
      for (const line of a.x) if (line.native) total += big(line.amount.value);
      if (a.p) total += big(a.p.total.value);
      for (const w of a.waiting) total += big(w.amount.value);
    }
    for (const e of evm) total += big(e.balance.value) / WEI_PER_UNIT;
    // The EVM balance lives at a 0x address that cannot be derived from a bech32 one.
    const notRead = bares.length > 0 && hexes.length === 0 ? ['C-Chain EVM balance: not read (give the 0x address to include it)'] : [];
    return { accounts, evm, nativeTotal: show(total), notRead, problems };
  },
  summarize: (o) => {
    const lines: string[] = [];
    for (const a of o.accounts) {
      lines.push(`${a.address}:`);
      lines.push(`- X: ${a.x.length ? a.x.map((l) => l.amount.display + (l.native ? ' (native)' : '')).join(', ') : 'nothing'}`);
      if (a.p) {
        lines.push(`- P: ${a.p.total.display} (unlocked ${a.p.unlocked.display}, bonded ${a.p.bonded.display}, deposited ${a.p.deposited.display}, bonded+deposited ${a.p.bondedDeposited.display})`);
      }
      for (const w of a.waiting) lines.push(`- waiting for import on ${w.on} (exported from ${w.from}): ${w.amount.display} in ${w.utxos} UTXO(s)`);
    }
    for (const e of o.evm) lines.push(`${e.address} on C: ${e.balance.display}`);
    lines.push(`Native total: ${o.nativeTotal.display} (X native + P total + waiting imports${o.evm.length ? ' + C EVM' : ''}).`, ...o.notRead, ...problemLines(o.problems));
    return lines.join('\n');
  },
});

// ---------------------------------------------------------------------------------------
// validator_lookup

const validatorLookup = defineTool({
  name: 'validator_lookup',
  title: 'Validator lookup',
  description: 'One validator by node ID: current or pending, period, time left, stake, uptime, connection, fee, delegators, reward owner.',
  tier: 'read',
  toolset: 'assistant',
  input: z.strictObject({ nodeID: nodeId(), subnetID: cb58Id('Subnet ID; default primary network.').optional() }),
  output: z.object({
    nodeID: z.string(),
    subnetID: z.string(),
    status: z.enum(['current', 'pending', 'not_found']),
    txID: z.string().optional(),
    startTime: TimeOut.optional(),
    endTime: TimeOut.optional(),
    period: DurationOut.optional(),
    timeLeft: DurationOut.optional(),
    startsIn: DurationOut.optional(),
    stakeAmount: AmountOut.optional(),
    weight: z.string().optional(),
    potentialReward: AmountOut.optional(),
    delegationFee: z.string().optional().describe('Percent.'),
    uptime: z.string().optional().describe('Percent.'),
    connected: z.boolean().optional(),
    rewardOwner: z.array(z.string()).optional(),
    delegators: z.object({ count: z.number(), stake: AmountOut }).optional().describe('Absent when the node did not report them.'),
    pendingDelegators: z.object({ count: z.number(), stake: AmountOut }),
    problems: problemsField,
  }),
  run: async (input, ctx) => {
    const problems: Problem[] = [];
    const network = await networkOrBlank(ctx);
    const args = { nodeIDs: [input.nodeID], ...(input.subnetID ? { subnetID: input.subnetID } : {}), delegatorLimit: 0, limit: 1 };
    const [current, pending] = await Promise.all([
      step(ctx, problems, 'current validators', 'platform_getCurrentValidators', args),
      step(ctx, problems, 'pending validators', 'platform_getPendingValidators', args),
    ]);
    if (!current && !pending) throw new ChainMcpError('connection', `Could not look up ${input.nodeID}: ${problems.map((p) => p.error).join('; ')}`);
    const now = nowUnix(ctx);
    const pendingDelegators = arr(pending?.delegators).map(rec).filter((d) => d.nodeID === input.nodeID);
    const delegatedPending = pendingDelegators.reduce((s, d) => s + units(d.stakeAmount), 0n);
    const zero = nativeAmount(0n, network);
    const base = {
      nodeID: input.nodeID,
      subnetID: input.subnetID ?? PRIMARY_NETWORK_ID,
      pendingDelegators: { count: pendingDelegators.length, stake: nativeAmount(delegatedPending, network) },
      problems,
    };
    const cur = arr(current?.validators).map(rec).find((v) => v.nodeID === input.nodeID);
    const pen = arr(pending?.validators).map(rec).find((v) => v.nodeID === input.nodeID);
    const v = cur ?? pen;
    if (!v) return { ...base, status: 'not_found' as const };
    const start = big(rec(v.startTime).unix);
    const end = big(rec(v.endTime).unix);
    const optional = (key: string) => (v[key] === undefined ? {} : { [key]: v[key] });
    return {
      ...base,
      status: cur ? ('current' as const) : ('pending' as const),
      txID: str(v.txID),
      startTime: v.startTime as TimeOut,
      endTime: v.endTime as TimeOut,
      period: durationOut(end > start ? end - start : 0n),
      ...(cur ? { timeLeft: durationOut(end > now ? end - now : 0n) } : { startsIn: durationOut(start > now ? start - now : 0n) }),
      ...optional('stakeAmount'),
      ...optional('weight'),
      ...optional('potentialReward'),
      ...optional('delegationFee'),
      ...optional('uptime'),
      ...optional('connected'),
      ...(v.rewardOwner ? { rewardOwner: arr(rec(v.rewardOwner).addresses).map(str) } : {}),
      ...(v.delegatorCount !== undefined ? { delegators: { count: Number(v.delegatorCount), stake: (v.delegatedStake as AmountOut) ?? zero } } : {}),
    };
  },
  summarize: (o) => {
    if (o.status === 'not_found') {
      return [`${o.nodeID} is neither a current nor a pending validator${o.subnetID === PRIMARY_NETWORK_ID ? '' : ` of subnet ${o.subnetID}`}.`, ...problemLines(o.problems)].join('\n');
    }
    const stake = o.stakeAmount ? `stake ${o.stakeAmount.display}` : `weight ${o.weight ?? '?'}`;
    return [
      `${o.nodeID} is a ${o.status} validator: ${stake}, from ${o.startTime?.iso} to ${o.endTime?.iso} (${o.period?.human ?? '?'})` +
        (o.timeLeft ? `, ${o.timeLeft.human} left.` : o.startsIn ? `, starts in ${o.startsIn.human}.` : '.'),
      [
        o.uptime !== undefined ? `uptime ${o.uptime} %` : '',
        o.connected !== undefined ? (o.connected ? 'connected' : 'NOT connected') : '',
        o.delegationFee !== undefined ? `delegation fee ${o.delegationFee} %` : '',
        o.potentialReward ? `potential reward ${o.potentialReward.display}` : '',
      ]
        .filter(Boolean)
        .join(', ') || 'No uptime or fee reported.',
      `${o.delegators ? `${o.delegators.count} delegator(s) with ${o.delegators.stake.display}` : o.status === 'current' ? 'Current delegators: not reported by the node' : 'No current delegators yet'}${o.pendingDelegators.count ? `; ${o.pendingDelegators.count} pending with ${o.pendingDelegators.stake.display}` : ''}.`,
      ...(o.rewardOwner ? [`Reward owner: ${o.rewardOwner.join(', ') || '?'}.`] : []),
      ...problemLines(o.problems),
    ].join('\n');
  },
});

// ---------------------------------------------------------------------------------------
// network_overview

const Offer = z.object({
  id: z.string(),
  interestRatePercent: z.string(),
  minAmount: AmountOut,
  minDuration: DurationOut,
  maxDuration: DurationOut,
  end: TimeOut,
  open: z.boolean(),
  notOpen: z.array(z.string()),
});

const networkOverview = defineTool({
  name: 'network_overview',
  title: 'Network overview',
  description: 'Get the network at a glance: name, ID, node version, bootstrap, heights, supply, fees, staking (totals, minimums), deposit offers (open or why not).',
  tier: 'read',
  toolset: 'assistant',
  input: z.strictObject({}),
  output: z.object({
    networkID: z.string(),
    networkName: z.string(),
    hrp: z.string(),
    assetSymbol: z.string(),
    assetID: z.string(),
    nodeVersion: z.string(),
    bootstrapped: z.record(z.string(), z.boolean()),
    pHeight: z.string().optional(),
    cHeight: z.string().optional().describe('Latest C-Chain block.'),
    supply: AmountOut.optional(),
    supplyCap: AmountOut.optional(),
    txFee: AmountOut.optional(),
    creationTxFee: AmountOut.optional(),
    staking: z
      .object({
        minValidatorStake: AmountOut,
        maxValidatorStake: AmountOut,
        minDelegatorStake: AmountOut,
        minDelegationFee: z.string().describe('Percent.'),
        minStakeDuration: DurationOut,
        maxStakeDuration: DurationOut,
      })
      .optional(),
    stake: z.object({ validators: z.number(), validatorStake: AmountOut, delegators: z.number(), delegatedStake: AmountOut, totalStake: AmountOut }).optional(),
    depositOffers: z.object({ count: z.number(), open: z.number(), offers: z.array(Offer).describe('Up to 10, highest interest first.') }).optional(),
    problems: problemsField,
  }),
  run: async (_input, ctx) => {
    const problems: Problem[] = [];
    const s = (label: string, tool: string, args: Out = {}) => step(ctx, problems, label, tool, args);
    const [id, name, version, fees, height, cBlock, supply, conf, offers, validators, ...boot] = await Promise.all([
      s('network ID', 'info_getNetworkID'),
      s('network name', 'info_getNetworkName'),
      s('node version', 'info_getNodeVersion'),
      s('fees', 'info_getTxFee'),
      s('P height', 'platform_getHeight'),
      s('C height', 'eth_blockNumber'),
      s('supply', 'platform_getCurrentSupply'),
      s('configuration', 'platform_getConfiguration'),
      s('deposit offers', 'platform_getAllDepositOffers'),
      // Counts and totals cover every validator whatever the page size.
      s('validators', 'platform_getCurrentValidators', { limit: 1, delegatorLimit: 0 }),
      ...(['X', 'P', 'C'] as const).map((chain) => s(`bootstrap of ${chain}`, 'info_isBootstrapped', { chain })),
    ]);
    const bootstrapped: Record<string, boolean> = {};
    (['X', 'P', 'C'] as const).forEach((chain, i) => {
      const b = boot[i];
      if (b) bootstrapped[chain] = b.isBootstrapped === true;
    });
    const offerList = arr(offers?.depositOffers)
      .map(rec)
      .sort((a, b) => Number(big(b.interestRateNominator) - big(a.interestRateNominator)))
      .slice(0, 10)
      .map((o) => ({
        id: str(o.id),
        interestRatePercent: str(o.interestRatePercent),
        minAmount: o.minAmount as AmountOut,
        minDuration: o.minDuration as DurationOut,
        maxDuration: o.maxDuration as DurationOut,
        end: o.end as TimeOut,
        open: o.open === true,
        notOpen: arr(o.notOpen).map(str),
      }));
    const stats = rec(validators?.stats);
    const network = await networkOrBlank(ctx);
    const own = units(stats.totalStake);
    const delegated = units(stats.totalDelegated);
    return {
      networkID: str(id?.networkID ?? conf?.networkID),
      networkName: str(name?.networkName ?? id?.network),
      hrp: str(conf?.hrp),
      assetSymbol: str(conf?.assetSymbol),
      assetID: str(conf?.assetID),
      nodeVersion: str(version?.version),
      bootstrapped,
      ...(height ? { pHeight: str(height.height) } : {}),
      ...(cBlock ? { cHeight: str(cBlock.blockNumber) } : {}),
      ...(supply ? { supply: supply.supply as AmountOut } : {}),
      ...(conf ? { supplyCap: conf.supplyCap as AmountOut } : {}),
      ...(fees ? { txFee: fees.txFee as AmountOut, creationTxFee: fees.creationTxFee as AmountOut } : {}),
      ...(conf
        ? {
            staking: {
              minValidatorStake: conf.minValidatorStake as AmountOut,
              maxValidatorStake: conf.maxValidatorStake as AmountOut,
              minDelegatorStake: conf.minDelegatorStake as AmountOut,
              minDelegationFee: str(conf.minDelegationFee),
              minStakeDuration: conf.minStakeDuration as DurationOut,
              maxStakeDuration: conf.maxStakeDuration as DurationOut,
            },
          }
        : {}),
      ...(validators
        ? {
            stake: {
              validators: Number(stats.count ?? 0),
              validatorStake: nativeAmount(own, network),
              delegators: Number(stats.delegatorCount ?? 0),
              delegatedStake: nativeAmount(delegated, network),
              totalStake: nativeAmount(own + delegated, network),
            },
          }
        : {}),
      ...(offers ? { depositOffers: { count: Number(offers.count ?? offerList.length), open: Number(offers.open ?? 0), offers: offerList } } : {}),
      problems,
    };
  },
  summarize: (o) => {
    const boot = Object.entries(o.bootstrapped);
    return [
      `Network ${o.networkName || '?'} (ID ${o.networkID || '?'}, address prefix "${o.hrp || '?'}", native asset ${o.assetSymbol || '?'}); node ${o.nodeVersion || 'version unknown'}.`,
      boot.length ? `Bootstrapped: ${boot.map(([c, b]) => `${c} ${b ? 'yes' : 'NO'}`).join(', ')}.` : '',
      [o.pHeight ? `P height ${o.pHeight}` : '', o.cHeight ? `C height ${o.cHeight}` : '', o.supply ? `supply at most ${o.supply.display}` : '', o.supplyCap ? `cap ${o.supplyCap.display}` : ''].filter(Boolean).join('; '),
      o.txFee ? `Fees: ${o.txFee.display} per transaction, ${o.creationTxFee?.display} to create an asset.` : '',
      o.stake
        ? `Staked: ${o.stake.totalStake.display} in total, ${o.stake.validatorStake.display} by ${o.stake.validators} validator(s) and ${o.stake.delegatedStake.display} delegated by ${o.stake.delegators} delegator(s).`
        : '',
      o.staking
        ? `Staking minimums: validators ${o.staking.minValidatorStake.display} to ${o.staking.maxValidatorStake.display}, delegators from ${o.staking.minDelegatorStake.display}, fee at least ${o.staking.minDelegationFee} %, ${o.staking.minStakeDuration.human} to ${o.staking.maxStakeDuration.human}.`
        : '',
      ...(o.depositOffers
        ? [
            `Deposit offers: ${o.depositOffers.count}, ${o.depositOffers.open} open for new deposits${o.depositOffers.count ? ':' : '.'}`,
            ...listLines(
              o.depositOffers.offers,
              10,
              (d) => `${d.interestRatePercent} % a year [${offerStatus(d)}], from ${d.minAmount.display}, ${d.minDuration.human} to ${d.maxDuration.human}, until ${d.end.iso}`,
            ),
          ]
        : []),
      ...problemLines(o.problems),
    ]
      .filter(Boolean)
      .join('\n');
  },
});

// ---------------------------------------------------------------------------------------
// tx_status and wait_for_tx

const Check = z.object({ source: z.string(), answer: z.string() });
const TxStatusOut = z.object({
  txID: z.string(),
  found: z.boolean(),
  chain: z.enum(['X', 'P', 'C', 'unknown']),
  status: z.string().describe('Accepted, Committed, Aborted, Processing, Rejected, Dropped or Unknown.'),
  meaning: z.string(),
  reason: z.string().optional().describe('Why the P-Chain dropped it.'),
  blockHeight: z.string().optional(),
  checks: z.array(Check).describe('What each source said.'),
});
type TxStatusOut = z.infer<typeof TxStatusOut>;

async function lookupTx(ctx: ToolContext, txID: string): Promise<TxStatusOut> {
  const problems: Problem[] = [];
  const useIndexer = ctx.config.indexerUrl !== undefined;
  const [x, c, p, idx, block] = await Promise.all([
    step(ctx, problems, 'X', 'xvm_getTxStatus', { txID }),
    step(ctx, problems, 'C atomic', 'cx_getAtomicTxStatus', { txID }),
    step(ctx, problems, 'P', 'platform_getTxStatus', { txID }),
    useIndexer ? step(ctx, problems, 'indexer', 'indexer_getTransaction', { id: txID }) : Promise.resolve(undefined),
    step(ctx, problems, 'P block', 'platform_getBlock', { blockID: txID, encoding: 'json' }),
  ]);
  const checks = [
    ...(x ? [{ source: 'xvm_getTxStatus', answer: str(x.status) }] : []),
    ...(c ? [{ source: 'cx_getAtomicTxStatus', answer: str(c.status) + (c.blockHeight ? ` at height ${str(c.blockHeight)}` : '') }] : []),
    ...(p ? [{ source: 'platform_getTxStatus', answer: str(p.status) }] : []),
    ...(idx ? [{ source: 'indexer_getTransaction', answer: `${str(idx.type)} on chain ${str(idx.chain) || str(idx.chainID)}` }] : []),
    ...(block ? [{ source: 'platform_getBlock', answer: `P block at height ${str(block.height) || '?'}` }] : []),
    ...problems.filter((p) => p.step !== 'P block').map((p) => ({ source: p.step, answer: `failed: ${p.error}` })),
  ];
  const result = (chain: TxStatusOut['chain'], status: string, extra: Partial<TxStatusOut> = {}): TxStatusOut => ({
    txID,
    found: chain !== 'unknown',
    chain,
    status,
    meaning: meaningOf(TX_STATUS_MEANING, status),
    checks,
    ...extra,
  });
  const xs = str(x?.status);
  if (xs && xs !== 'Unknown') return result('X', xs);
  const cs = str(c?.status);
  if (cs && cs !== 'Unknown') return result('C', cs, c?.blockHeight ? { blockHeight: str(c.blockHeight) } : {});
  const ps = str(p?.status);
  if (ps && ps !== 'Unknown') return result('P', ps, p?.reason ? { reason: str(p.reason) } : {});
  if (idx) {
    const alias = str(idx.chain).toUpperCase();
    const chain = alias === 'X' || alias === 'P' || alias === 'C' ? alias : str(idx.chainID) === PRIMARY_NETWORK_ID ? 'P' : 'unknown';
    // The indexer records accepted transactions only.
    return { ...result(chain, 'Accepted'), found: true, meaning: `${meaningOf(TX_STATUS_MEANING, 'Accepted')} (known to the indexer, chain ${str(idx.chainID)})` };
  }
  if (block) return { ...result('P', 'Accepted', { blockHeight: str(block.height) }), meaning: 'this ID is an accepted P-Chain block, not a transaction' };
  return result('unknown', 'Unknown');
}

const txIdField = cb58Id('cb58 ID on X, P or C; for 0x hashes use eth_*.');

const txStatus = defineTool({
  name: 'tx_status',
  title: 'Transaction status',
  description: 'Find a transaction on X, C (atomic) or P: its chain, status and meaning. wait_for_tx waits for final.',
  tier: 'read',
  toolset: 'assistant',
  input: z.strictObject({ txID: txIdField }),
  output: TxStatusOut,
  run: (input, ctx) => lookupTx(ctx, input.txID),
  summarize: (o) =>
    [
      o.found
        ? `${o.txID} is on ${o.chain === 'unknown' ? 'another chain' : `the ${o.chain}-Chain`}: ${o.status}, ${o.meaning}${o.reason ? ` (reason: ${quote(o.reason, 200)})` : ''}${o.blockHeight ? ` (block ${o.blockHeight})` : ''}.`
        : `${o.txID} was not found: ${o.meaning}.`,
      `Checked: ${o.checks.map((c) => `${c.source}: ${c.answer}`).join('; ')}.`,
    ].join('\n'),
});

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(new ChainMcpError('cancelled', 'Cancelled by the client.'));
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(new ChainMcpError('cancelled', 'Cancelled by the client.'));
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

async function pollOnce(ctx: ToolContext, txID: string, chain: 'X' | 'P' | 'C' | 'any'): Promise<{ status: string; chain: string; blockHeight?: string; reason?: string }> {
  if (chain === 'X') return { status: str((await ctx.call('xvm_getTxStatus', { txID })).status) || 'Unknown', chain };
  if (chain === 'P') {
    const p = await ctx.call('platform_getTxStatus', { txID });
    return { status: str(p.status) || 'Unknown', chain, ...(p.reason ? { reason: str(p.reason) } : {}) };
  }
  if (chain === 'C') {
    const c = await ctx.call('cx_getAtomicTxStatus', { txID });
    return { status: str(c.status) || 'Unknown', chain, ...(c.blockHeight ? { blockHeight: str(c.blockHeight) } : {}) };
  }
  const t = await lookupTx(ctx, txID);
  return { status: t.status, chain: t.chain, ...(t.blockHeight ? { blockHeight: t.blockHeight } : {}), ...(t.reason ? { reason: t.reason } : {}) };
}

const waitForTx = defineTool({
  name: 'wait_for_tx',
  title: 'Wait for a transaction',
  description: 'Poll a transaction until final or timeout, with progress; tx_status looks once.',
  tier: 'read',
  toolset: 'assistant',
  input: z.strictObject({
    txID: txIdField,
    chain: z.enum(['X', 'P', 'C', 'any']).default('any'),
    timeoutSeconds: z.number().int().min(1).max(300).default(60),
    intervalSeconds: z.number().min(0.2).max(30).default(2).describe('Seconds between polls.'),
  }),
  output: z.object({
    txID: z.string(),
    chain: z.string(),
    status: z.string(),
    meaning: z.string(),
    final: z.boolean(),
    blockHeight: z.string().optional(),
    reason: z.string().optional(),
    polls: z.number(),
    waitedSeconds: z.number(),
  }),
  run: async (input, ctx) => {
    const started = ctx.now();
    const deadline = started + input.timeoutSeconds * 1000;
    let polls = 0;
    for (;;) {
      const answer = await pollOnce(ctx, input.txID, input.chain);
      polls++;
      const waited = Math.round((ctx.now() - started) / 100) / 10;
      const final = FINAL.has(answer.status);
      await ctx.progress(Math.min(waited, input.timeoutSeconds), input.timeoutSeconds, `${answer.status} after ${polls} poll(s)`);
      const remaining = deadline - ctx.now();
      if (final || remaining <= 0) {
        return { txID: input.txID, ...answer, meaning: meaningOf(TX_STATUS_MEANING, answer.status), final, polls, waitedSeconds: waited };
      }
      await sleep(Math.min(input.intervalSeconds * 1000, remaining), ctx.signal);
    }
  },
  summarize: (o) =>
    o.final
      ? `${o.txID} is ${o.status} on ${o.chain === 'any' ? 'its chain' : `the ${o.chain}-Chain`} (${o.meaning}) after ${o.waitedSeconds} s and ${o.polls} poll(s).`
      : `${o.txID} is still ${o.status} (${o.meaning}) after ${o.waitedSeconds} s; call wait_for_tx again to keep waiting.`,
});

// ---------------------------------------------------------------------------------------
// transfer

type Chain = 'X' | 'P' | 'C';
interface Route {
  from: Chain;
  to: Chain;
  steps: Array<{ action: 'send' | 'export' | 'import'; chain: Chain }>;
}

const transferInput = z.strictObject({
  to: z
    .string()
    .max(200)
    .superRefine((v, c) => {
      try {
        parseChainAddress(v, { chains: ['X', 'P', 'C'] });
      } catch (err) {
        c.addIssue({ code: 'custom', message: (err as Error).message });
      }
    })
    .describe('Recipient: X-... (any owner from X; your own from P or C) or C-... of your own key (with evmAddress).'),
  amount: amount(undefined, 'native'),
  sourceChain: z.enum(['X', 'P', 'C']).default('X').describe('Chain the funds leave: X (default), P (unlocked funds) or C.'),
  evmAddress: hexAddress('To C only: the 0x address of the same key that the import credits.').optional(),
});
type TransferInput = z.output<typeof transferInput>;

const StepOut = z.object({
  step: z.number(),
  action: z.enum(['send', 'export', 'import']),
  chain: z.enum(['X', 'P', 'C']),
  status: z.enum(['issued', 'failed', 'unknown', 'not_run']),
  txID: z.string().optional(),
  error: z.string().optional(),
});
type StepOut = z.infer<typeof StepOut>;

function routeOf(i: TransferInput): Route {
  const dest = parseChainAddress(i.to).chain;
  if (dest === 'P') {
    throw new InputError('to', 'a transfer cannot end on the P-Chain: the spec has no P-Chain import; send to an X address');
  }
  if (i.evmAddress !== undefined && dest !== 'C') throw new InputError('evmAddress', 'only for a transfer to C; remove it');
  if (dest === 'X') {
    if (i.sourceChain === 'X') return { from: 'X', to: 'X', steps: [{ action: 'send', chain: 'X' }] };
    return { from: i.sourceChain, to: 'X', steps: [{ action: 'export', chain: i.sourceChain }, { action: 'import', chain: 'X' }] };
  }
  if (i.sourceChain !== 'X') {
    throw new InputError('sourceChain', `a transfer to C must start on X (got ${i.sourceChain}); for C to C use the EVM tools`);
  }
  if (i.evmAddress === undefined) throw new InputError('evmAddress', 'required for a transfer to C: the 0x address the import credits');
  return { from: 'X', to: 'C', steps: [{ action: 'export', chain: 'X' }, { action: 'import', chain: 'C' }] };
}

/** The native asset's ID: from the network configuration, else xvm.getAssetDescription with no assetID (spec: returns the native asset). */
async function nativeAlias(ctx: ToolContext): Promise<string> {
  const network = await ctx.network();
  if (network.assetID) return network.assetID;
  const described = await ctx.call('xvm_getAssetDescription', {}).catch(() => undefined);
  const id = str(described?.assetID);
  if (id) return id;
  if (network.assetSymbol) return network.assetSymbol;
  throw new ChainMcpError('not_configured', 'The node did not say which asset is native.', { hint: 'Use xvm_send or xvm_export with an explicit assetID.' });
}

/** A cross-chain import must be signed by the destination key: it must be one of the keystore user's. */
async function requireOwnDestination(ctx: ToolContext, i: TransferInput): Promise<void> {
  const own = new Set((await userXAddresses(ctx)).map(bareOf));
  if (!own.has(bareOf(i.to))) {
    throw new InputError(
      'to',
      `a cross-chain transfer ends with an import that the destination key signs, and ${i.to} is not an address of the keystore user; move to your own address first, then send on that chain`,
    );
  }
}

function stepLine(route: Route, n: number, i: TransferInput, fee: string, atomicFee: string, amountText: string): string {
  const s = route.steps[n]!;
  if (s.action === 'send') return `Step 1: xvm.send ${amountText} to ${i.to} on X (fee ${fee})`;
  if (s.action === 'export') {
    const method = s.chain === 'X' ? 'xvm.export' : s.chain === 'P' ? 'platform.exportNative' : 'cx.export';
    return `Step 1: ${method} ${amountText} from ${s.chain} to ${i.to} (fee ${s.chain === 'C' ? atomicFee : fee})`;
  }
  const method = s.chain === 'X' ? 'xvm.import' : 'cx.import';
  return `Step 2: ${method} on ${s.chain} from ${route.from} to ${s.chain === 'C' ? i.evmAddress : i.to} (fee ${s.chain === 'C' ? atomicFee : fee}, taken from the imported funds)`;
}

const transferPlan = async (i: TransferInput, ctx: ToolContext): Promise<SpendPlan> => {
  const route = routeOf(i);
  const network = await ctx.network();
  const show = (v: bigint) => nativeAmount(v, network).display;
  const { txFee } = await txFees(ctx);
  if (route.steps.length > 1) await requireOwnDestination(ctx, i);
  const atomicFee = 'the atomic base fee the node suggests';
  let before: bigint | undefined;
  if (route.from === 'X') before = await xBalance(ctx, await userXAddresses(ctx), await nativeAlias(ctx));
  else if (route.from === 'P') before = await pUnlocked(ctx, (await userXAddresses(ctx)).map((a) => `P-${bareOf(a)}`), network.assetID);
  const leaving = i.amount + (route.from === 'C' ? 0n : txFee);
  const arrives = route.steps.length > 1 && route.to === 'X' ? i.amount - txFee : undefined;
  const lines = [
    `Network: ${network.networkID} (prefix ${network.hrp})`,
    `Route: ${route.from} -> ${route.to}, ${route.steps.length === 1 ? 'one transaction' : 'two transactions (export, then import), run in order after one confirmation'}`,
    `Amount: ${show(i.amount)} to ${i.to}${route.to === 'C' ? ` (credited to ${i.evmAddress})` : ''}`,
    ...route.steps.map((_, n) => stepLine(route, n, i, show(txFee), atomicFee, show(i.amount))),
    "Change to: one of your addresses (the node picks)",
    ...(arrives !== undefined ? [`Arrives: about ${show(arrives > 0n ? arrives : 0n)} after the import fee`] : []),
    route.from === 'C' ? 'Balance after on C: check eth_getBalance' : before === undefined ? 'Balance after: unknown' : before < leaving ? `Balance: NOT ENOUGH, you hold ${show(before)} unlocked on ${route.from} and this needs ${show(leaving)}` : `Balance after on ${route.from}: ${show(before - leaving)} (now ${show(before)})`,
    ...(route.steps.length > 1 ? ['If the import fails, the exported funds wait on the destination chain and can be imported later; nothing is retried automatically.'] : []),
  ];
  return {
    lines,
    details: {
      route: `${route.from}->${route.to}`,
      steps: route.steps.map((s, n) => ({ step: n + 1, action: s.action, chain: s.chain })),
      txFee: txFee.toString(),
    },
    // X and P steps pay txFee each; a C export's atomic fee is not known here.
    fee: txFee * BigInt(route.steps.filter((st) => st.chain !== 'C').length),
  };
};

/** Issues one step through the node; the caller decides what a failure means. */
async function issueStep(ctx: ToolContext, route: Route, n: number, i: TransferInput): Promise<string> {
  const s = route.steps[n]!;
  const cred = credentials(ctx);
  const asset = await nativeAlias(ctx);
  const amountWire = i.amount;
  let raw: unknown;
  if (s.action === 'send') raw = await ctx.rpc('xvm', 'xvm.send', { amount: amountWire, assetID: asset, to: i.to, ...cred }, { retry: false });
  else if (s.action === 'export' && s.chain === 'X') raw = await ctx.rpc('xvm', 'xvm.export', { to: i.to, amount: amountWire, assetID: asset, ...cred }, { retry: false });
  else if (s.action === 'export' && s.chain === 'P') raw = await ctx.rpc('platform', 'platform.exportNative', { amount: amountWire, to: i.to, ...cred }, { retry: false });
  else if (s.action === 'export') raw = await ctx.rpc('cx', 'cx.export', { to: i.to, amount: amountWire, assetID: asset, ...cred }, { retry: false });
  else if (s.chain === 'X') raw = await ctx.rpc('xvm', 'xvm.import', { to: i.to, sourceChain: route.from, ...cred }, { retry: false });
  else raw = await ctx.rpc('cx', 'cx.import', { to: i.evmAddress, sourceChain: route.from, ...cred }, { retry: false });
  const txID = str(rec(raw).txID);
  if (!txID) throw new ChainMcpError('malformed', `The node answered ${s.action} on ${s.chain} without a txID.`);
  return txID;
}

const EXPORT_WAIT_MS = 60_000;

/** Waits (bounded) until the export is accepted, so the import finds the funds. */
async function awaitExport(ctx: ToolContext, route: Route, txID: string, i: TransferInput): Promise<'Accepted' | string> {
  const deadline = ctx.now() + EXPORT_WAIT_MS;
  for (let polls = 1; ; polls++) {
    let status = 'Unknown';
    if (route.from === 'X') status = str((await ctx.call('xvm_getTxStatus', { txID })).status);
    else if (route.from === 'C') status = str((await ctx.call('cx_getAtomicTxStatus', { txID })).status);
    else {
      // The P-Chain has no status method in the spec: the export is visible once its UTXOs wait on X.
      const utxos = await ctx.call('xvm_getUTXOs', { addresses: [i.to], sourceChain: 'P' });
      status = Number(utxos.numFetched ?? 0) > 0 || arr(utxos.utxos).length > 0 ? 'Accepted' : 'Processing';
    }
    await ctx.progress(polls, undefined, `export ${txID}: ${status}`);
    if (FINAL.has(status) || ctx.now() >= deadline) return status;
    await sleep(500, ctx.signal);
  }
}

const transfer = defineTool({
  name: 'transfer',
  title: 'Transfer the native asset',
  description:
    'Move the native asset from the keystore user to an X or C address, same chain (one send) or cross-chain (export then import, one confirmation). Returns a preview first; run again with confirm.',
  tier: 'spend',
  toolset: 'assistant',
  input: transferInput,
  output: z.object({
    route: z.string(),
    complete: z.boolean(),
    txID: z.string().describe('The last transaction issued.'),
    steps: z.array(StepOut),
    next: z.string().optional().describe('What to do when the transfer stopped part way.'),
  }),
  validate: (i) => void routeOf(i),
  plan: transferPlan,
  // The C import credits evmAddress: it is a recipient too.
  limits: (i) => ({ amount: i.amount, recipients: i.evmAddress === undefined ? [i.to] : [i.to, i.evmAddress] }),
  run: async (i, ctx) => {
    const route = routeOf(i);
    const steps: StepOut[] = route.steps.map((s, n) => ({ step: n + 1, action: s.action, chain: s.chain, status: 'not_run' }));
    // Step 1: a failure here propagates; nothing moved (or the outcome is unknown, reported by the spend layer).
    const first = await issueStep(ctx, route, 0, i);
    steps[0] = { ...steps[0]!, status: 'issued', txID: first };
    const done = (complete: boolean, next?: string) => ({ route: `${route.from}->${route.to}`, complete, txID: steps.filter((s) => s.txID).at(-1)!.txID!, steps, ...(next ? { next } : {}) });
    if (route.steps.length === 1) return done(true);
    const importTool = route.to === 'C' ? 'cx_import' : 'xvm_import';
    const importArgs = JSON.stringify({ to: route.to === 'C' ? i.evmAddress : i.to, sourceChain: route.from });
    const later = `The exported funds wait on ${route.to}; import them with ${importTool} ${importArgs} once the export is Accepted (tx_status ${first}).`;
    let exportStatus: string;
    try {
      exportStatus = await awaitExport(ctx, route, first, i);
    } catch (err) {
      steps[1] = { ...steps[1]!, error: `not run: could not confirm the export (${toChainMcpError(err).message})` };
      return done(false, later);
    }
    if (exportStatus !== 'Accepted') {
      steps[1] = { ...steps[1]!, error: `not run: the export is ${exportStatus}` };
      return done(false, exportStatus === 'Rejected' || exportStatus === 'Dropped' ? 'The export did not go through; nothing left the source chain.' : later);
    }
    try {
      steps[1] = { ...steps[1]!, status: 'issued', txID: await issueStep(ctx, route, 1, i) };
    } catch (err) {
      const e = toChainMcpError(err);
      const unknown = e.kind === 'timeout' || e.kind === 'connection' || e.kind === 'malformed' || e.kind === 'cancelled';
      steps[1] = { ...steps[1]!, status: unknown ? 'unknown' : 'failed', error: e.message };
      return done(false, unknown ? `The import's outcome is unknown; do not repeat it blindly: check account_overview for ${i.to} first. ${later}` : later);
    }
    return done(true);
  },
  summarize: (o) =>
    [
      `${o.complete ? 'Transfer complete' : 'Transfer stopped part way'} (${o.route}):`,
      ...o.steps.map((s) => `- step ${s.step} ${s.action} on ${s.chain}: ${s.status}${s.txID ? `, txID ${s.txID}` : ''}${s.error ? ` (${s.error})` : ''}`),
      ...(o.next ? [o.next] : []),
      'Follow it with wait_for_tx or tx_status.',
    ].join('\n'),
});

/** Output schemas listed shallow like the other families (src/summarize/schema.ts); the types and the data stay deep. */
export const assistantTools: ToolDef[] = withShallowOutputs([accountOverview, validatorLookup, networkOverview, txStatus, waitForTx, transfer]);
