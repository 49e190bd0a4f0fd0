import type { Logger } from '../log.js';
import type { ApprovalBook } from './book.js';
import type { CardSecrets } from './card.js';

export interface CardToolResult {
  [key: string]: unknown;
  content: Array<{ type: 'text'; text: string }>;
  isError?: boolean;
}

const refused = (text: string): CardToolResult => ({ content: [{ type: 'text', text }], isError: true });

/**
 * The approval card's Approve/Decline: decides one pending approval, found only by the card's
 * one-time secret (the model never sees it). Never sends anything itself; the model's confirm does.
 */
export async function decideFromCard(
  deps: { book: ApprovalBook; secrets: CardSecrets; log: Logger; /** Under OAuth, the caller's owner: only the spend's own user decides it. */ owner?: string },
  args: Record<string, unknown>,
): Promise<CardToolResult> {
  const { secret, decision } = args;
  if (typeof secret !== 'string' || (decision !== 'approve' && decision !== 'decline')) {
    return refused('Expected { secret, decision: "approve" | "decline" }; nothing was decided.');
  }
  const nonce = await deps.secrets.take(secret);
  const read = nonce === undefined ? undefined : await deps.book.read(nonce);
  // An approval altered in the store is never decided on: what the card showed is not what it holds.
  const approval = read === 'tampered' ? undefined : read;
  if (!approval) {
    deps.log.info({ audit: 'refused', channel: 'app' }, 'approval card secret unknown or used');
    return refused('This approval card is no longer valid (used, or the server restarted); nothing was decided.');
  }
  if (deps.owner !== undefined && approval.owner !== deps.owner) {
    await deps.secrets.giveBack(secret, approval);
    deps.log.warn({ audit: 'refused', channel: 'app', tool: approval.tool, why: 'other user' }, 'approval card refused another user');
    return refused('This approval belongs to another user; nothing was decided.');
  }
  const state = decision === 'approve' ? 'approved' : 'declined';
  if (!(await deps.book.decide(approval, state, 'app'))) {
    const expired = (await deps.book.store.getApproval(approval.nonce))?.state === 'pending';
    deps.log.info({ audit: expired ? 'expired' : 'refused', channel: 'app', tool: approval.tool }, 'approval card too late');
    return refused(expired ? 'This approval expired; nothing was decided.' : 'This preview was already decided; nothing changed.');
  }
  deps.log.info({ audit: state, channel: 'app', tool: approval.tool }, `spend ${state} on the approval card`);
  return { content: [{ type: 'text', text: state === 'approved' ? 'Approved. The assistant may now send this exact transaction once.' : 'Declined; nothing will be sent.' }] };
}
