import {
  acceptedContent,
  type CallToolResult,
  type InputRequiredResult,
  inputRequired,
  inputResponse,
  PROTOCOL_VERSION_META_KEY,
  ProtocolError,
  ProtocolErrorCode,
  type ServerContext,
} from '@modelcontextprotocol/server';
import { z } from 'zod';
import { type Answer, type HumanQuestion, HumanInputNeeded } from './approval/flow.js';
import { type ApprovalRound, ApprovalRounds, callDigest } from './approval/request-state.js';
import type { Services } from './services.js';

/**
 * The human's approval for a 2026-07-28 client (Multi Round-Trip Requests): the server cannot ask
 * the client anything mid-call, so a confirm that needs the human answers input_required with the
 * question (form or URL elicitation) and a sealed requestState; the client asks the human and
 * retries the same call with the answer. Any replica sharing the state key and the store can take
 * the retry, once.
 */

/** The key of the one input request an approval round carries. */
const KEY = 'approval';
const APPROVE = z.object({ approve: z.boolean() });

/** A request of the 2026-07-28 protocol: it carries the per-request `_meta` envelope. */
export function isModernRequest(ctx: ServerContext): boolean {
  return (ctx.mcpReq.envelope as Record<string, unknown> | undefined)?.[PROTOCOL_VERSION_META_KEY] !== undefined;
}

const rounds = new WeakMap<Services, ApprovalRounds>();

/**
 * One sealer per process's services: keyed by the replicas' shared key with a shared store, else by
 * a secret of this process (a key in one process's environment is not used; src/services.ts).
 */
export function approvalRounds(services: Services): ApprovalRounds {
  let found = rounds.get(services);
  if (!found) {
    found = new ApprovalRounds(services.state, services.state.shared ? services.config.stateKey : undefined);
    rounds.set(services, found);
  }
  return found;
}

/** The requestState hook (ServerOptions.requestState.verify): unseals, or throws and the SDK answers -32602. */
export function verifyRound(services: Services): (state: string) => ApprovalRound {
  return (state) => approvalRounds(services).unseal(state, services.now());
}

/** The answer a retry brought for its round, if any. */
export interface RoundAnswer {
  mode: ApprovalRound['mode'];
  answer: Answer | undefined;
}

/**
 * The retry's round (already unsealed by the hook), checked against this call and its caller and
 * spent once; throws (-32602) for a round of another call, user or tool, or one used already.
 */
export async function takeRound(services: Services, ctx: ServerContext, call: { tool: string; args: unknown; owner: string }): Promise<RoundAnswer | undefined> {
  const round = ctx.mcpReq.requestState<ApprovalRound>();
  if (round === undefined) return undefined;
  const refuse = (why: string) => {
    services.log.info({ audit: 'refused', tool: call.tool, why }, 'approval answer refused');
    return new ProtocolError(ProtocolErrorCode.InvalidParams, `Invalid requestState: ${why}; nothing was sent.`);
  };
  if (round.owner !== call.owner) throw refuse('it was issued to another user');
  if (round.tool !== call.tool || round.args !== callDigest(call.tool, call.args)) throw refuse('it was issued for another call');
  if (!(await approvalRounds(services).take(round))) throw refuse('it was used already');
  return { mode: round.mode, answer: answerOf(ctx, round.mode) };
}

function answerOf(ctx: ServerContext, mode: ApprovalRound['mode']): Answer | undefined {
  const view = inputResponse(ctx.mcpReq.inputResponses, KEY);
  if (view.kind !== 'elicit') return undefined;
  if (view.action !== 'accept') return view.action;
  if (mode === 'url') return 'accept';
  // A form counts as yes only with approve: true (validated: the client's answer is untrusted).
  return acceptedContent(ctx.mcpReq.inputResponses, KEY, APPROVE)?.approve === true ? 'accept' : 'decline';
}

/**
 * The approval channel a modern request offers in `mode`: the retry's answer when it brought one
 * in that mode, else the question goes back to the client.
 */
export function channel(mode: 'form', answered: RoundAnswer | undefined): (message: string) => Promise<Answer>;
export function channel(mode: 'url', answered: RoundAnswer | undefined): (message: string, url: string) => Promise<Answer>;
export function channel(mode: 'form' | 'url', answered: RoundAnswer | undefined) {
  return async (message: string, url?: string): Promise<Answer> => {
    if (answered?.mode === mode && answered.answer !== undefined) return answered.answer;
    throw new HumanInputNeeded(mode === 'url' ? { mode, message, url: url! } : { mode, message });
  };
}

/** The question as input_required, with a new sealed round bound to this call and its caller. */
export async function askHuman(services: Services, question: HumanQuestion, call: { tool: string; args: unknown; owner: string }): Promise<InputRequiredResult> {
  const { sealed } = await approvalRounds(services).open({ owner: call.owner, tool: call.tool, args: callDigest(call.tool, call.args), mode: question.mode }, services.now());
  services.log.info({ audit: 'asked', tool: call.tool, mode: question.mode }, 'human asked through input_required');
  const request =
    question.mode === 'url'
      ? inputRequired.elicitUrl({ message: question.message, url: question.url })
      : inputRequired.elicit({
          message: question.message,
          requestedSchema: {
            type: 'object',
            properties: { approve: { type: 'boolean', title: 'Approve', description: 'Send this transaction once.' } },
            required: ['approve'],
          },
        });
  return inputRequired({ inputRequests: { [KEY]: request }, requestState: sealed });
}

/** Runs a call whose approval may need the human; a question becomes input_required. */
export async function withHumanRounds(
  services: Services,
  call: { tool: string; args: unknown; owner: string },
  run: () => Promise<CallToolResult>,
): Promise<CallToolResult | InputRequiredResult> {
  try {
    return await run();
  } catch (err) {
    if (err instanceof HumanInputNeeded) return askHuman(services, err.question, call);
    throw err;
  }
}
