/** network_overview: the network, its validators, supply, fees and deposit offers in one answer. */
import { z } from 'zod';
import { defineTool } from '../../core/tool.js';
import { DurationOut, networkOrBlank } from '../../summarize/chain.js';
import { AmountOut, big, listLines, nativeAmount, TimeOut } from '../../summarize/format.js';
import { depositTotalReward, offerStatus } from '../../summarize/platform.js';
import { arr, type Out, type Problem, problemLines, problemsField, rec, step, str, units } from './shared.js';

const Offer = z.object({
  id: z.string(),
  interestRatePercent: z.string(),
  minAmount: AmountOut,
  minDuration: DurationOut,
  maxDuration: DurationOut,
  noRewardsPeriodDuration: DurationOut.describe('The last part of a deposit that earns nothing.'),
  example: z
    .object({ amount: AmountOut, duration: DurationOut, reward: AmountOut })
    .describe("What a deposit of `amount` (100,000 or the offer's minimum) earns over the longest duration, by the node's formula."),
  end: TimeOut,
  open: z.boolean(),
  notOpen: z.array(z.string()),
});

/** The example deposit of an offer line: 100,000 of the native asset, or the offer's minimum when that is more. */
const EXAMPLE_DEPOSIT = 100_000n * 10n ** 9n;

export const networkOverview = defineTool({
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
    const network = await networkOrBlank(ctx);
    const offerList = arr(offers?.depositOffers)
      .map(rec)
      .sort((a, b) => Number(big(b.interestRateNominator) - big(a.interestRateNominator)))
      .slice(0, 10)
      .map((o) => {
        const noRewards = (o.noRewardsPeriodDuration ?? { seconds: '0', human: '0 s' }) as DurationOut;
        const maxDuration = o.maxDuration as DurationOut;
        const amount = units(o.minAmount) > EXAMPLE_DEPOSIT ? units(o.minAmount) : EXAMPLE_DEPOSIT;
        const reward = depositTotalReward(amount, big(o.interestRateNominator), big(maxDuration.seconds), big(noRewards.seconds));
        return {
          id: str(o.id),
          interestRatePercent: str(o.interestRatePercent),
          minAmount: o.minAmount as AmountOut,
          minDuration: o.minDuration as DurationOut,
          maxDuration,
          noRewardsPeriodDuration: noRewards,
          example: { amount: nativeAmount(amount, network), duration: maxDuration, reward: nativeAmount(reward, network) },
          end: o.end as TimeOut,
          open: o.open === true,
          notOpen: arr(o.notOpen).map(str),
        };
      });
    const stats = rec(validators?.stats);
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
              (d) =>
                `${d.interestRatePercent} % a year [${offerStatus(d)}], from ${d.minAmount.display}, ${d.minDuration.human} to ${d.maxDuration.human}` +
                `${d.noRewardsPeriodDuration.seconds !== '0' ? `, no rewards in the last ${d.noRewardsPeriodDuration.human}` : ''}` +
                `: ${d.example.amount.display} for ${d.example.duration.human} earns ${d.example.reward.display}, until ${d.end.iso}`,
            ),
          ]
        : []),
      ...problemLines(o.problems),
    ]
      .filter(Boolean)
      .join('\n');
  },
});
