/** validator_lookup: one node's validation, stake, delegators and uptime. */
import { z } from 'zod';
import { roughDuration } from '../../codec/index.js';
import { cb58Id, nodeId } from '../../core/fields.js';
import { defineTool } from '../../core/tool.js';
import { ChainMcpError } from '../../errors.js';
import { DurationOut, durationOut, networkOrBlank } from '../../summarize/chain.js';
import { AmountOut, big, nativeAmount, TimeOut } from '../../summarize/format.js';
import { arr, nowUnix, PRIMARY_NETWORK_ID, type Problem, problemLines, problemsField, rec, step, str, units } from './shared.js';

export const validatorLookup = defineTool({
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
    // A node asked for one nodeID lists pending delegators only beside a pending validator (caminogo
    // service.go GetPendingValidators), so a current validator's pending delegators come from the
    // whole pending set, which holds every node's: only this node's count.
    const [current, pending, everyPending] = await Promise.all([
      step(ctx, problems, 'current validators', 'platform_getCurrentValidators', args),
      step(ctx, problems, 'pending validators', 'platform_getPendingValidators', args),
      ctx.rpc('platform', 'platform.getPendingValidators', input.subnetID ? { subnetID: input.subnetID } : {}, { retry: true }).catch((err: Error) => {
        problems.push({ step: 'pending delegators', error: err.message.split('\n')[0]! });
        return undefined;
      }),
    ]);
    if (!current && !pending) throw new ChainMcpError('connection', `Could not look up ${input.nodeID}: ${problems.map((p) => p.error).join('; ')}`);
    const now = nowUnix(ctx);
    const pendingDelegators = arr(rec(everyPending).delegators).map(rec).filter((d) => d.nodeID === input.nodeID);
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
        (o.timeLeft ? `, ${roughDuration(BigInt(o.timeLeft.seconds))} left.` : o.startsIn ? `, starts in ${roughDuration(BigInt(o.startsIn.seconds))}.` : '.'),
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
