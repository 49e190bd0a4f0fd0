import type { Logger } from '../log.js';
import type { Approval, ApprovalBook, ApprovalState } from './book.js';
import { splitHead } from './head.js';
import type { ApprovalPages } from './page.js';

export type Answer = 'accept' | 'decline' | 'cancel';

/** The question a 2026-07-28 client is sent back with: a yes/no form, or our approval page to open. */
export type HumanQuestion = { mode: 'form'; message: string } | { mode: 'url'; message: string; url: string };

/**
 * Thrown by a channel that cannot wait for the human within this request (the 2026-07-28
 * protocol has no server-to-client requests): the protocol layer answers input_required with the
 * question, and the client's retry carries the answer. Nothing was decided or consumed before it.
 */
export class HumanInputNeeded extends Error {
  constructor(readonly question: HumanQuestion) {
    super('the human is asked through input_required');
  }
}

/** How this call's client can reach its human, best first (MCP client capabilities). */
export interface HumanChannels {
  /** URL-mode elicitation (protocol 2025-11-25): the client opens our approval page for the human. */
  elicitUrl?: (message: string, url: string, elicitationId: string) => Promise<Answer>;
  /** Form elicitation: the client asks the human yes or no. */
  elicit?: (message: string) => Promise<Answer>;
  /** The host shows the MCP Apps approval card with the preview (src/approval/card.ts). */
  appCard?: boolean;
  progress?: (done: number, total?: number, message?: string) => Promise<void>;
  signal?: AbortSignal;
}

export interface ApprovalDeps {
  book: ApprovalBook;
  pages: ApprovalPages;
  log: Logger;
  /** How long a confirm call waits for the page when the client can ask the human nothing itself. */
  waitMs: number;
}

/** The link goes to the model only when the client has no channel of its own to the human. */
export function needsLink(channels: HumanChannels): boolean {
  return !channels.elicitUrl && !channels.elicit && !channels.appCard;
}

/**
 * Gets the human's decision on one preview through the best channel the client offers:
 * URL elicitation to the approval page, then form elicitation, else the page link the human
 * was given with the preview (waited for, with progress). The model's call itself never decides.
 */
export async function humanDecision(deps: ApprovalDeps, approval: Approval, channels: HumanChannels): Promise<ApprovalState | 'tampered'> {
  // Read again: the page or card of any replica may have decided since the caller's snapshot.
  const current = await stateNow(deps, approval);
  if (current !== 'pending') return current;
  const audit = { tool: approval.tool };
  if (channels.elicitUrl) {
    const url = await deps.pages.url(approval);
    const answer = await channels.elicitUrl(`Approve ${approval.title}? The approval page shows every fact of this transaction.`, url, approval.nonce);
    if (answer !== 'accept') {
      // A decision made meanwhile on the page (any replica) stands; otherwise this declines.
      await deps.book.decide(approval, 'declined', 'url-elicitation');
      deps.log.info({ audit: 'declined', channel: 'url-elicitation', answer, ...audit }, 'spend declined');
      return stateNow(deps, approval);
    }
    return waitForPage(deps, approval, channels, Math.max(deps.waitMs, 60_000));
  }
  if (channels.elicit) {
    // What a person checks first leads (head.ts); every other line follows, after a blank line.
    const { head, details } = splitHead(approval.lines);
    const answer = await channels.elicit([`Approve ${approval.title}?`, ...head, ...(details.length ? ['', 'Details:', ...details] : [])].join('\n'));
    const state = answer === 'accept' ? 'approved' : 'declined';
    await deps.book.decide(approval, state, 'form-elicitation');
    deps.log.info({ audit: state, channel: 'form-elicitation', answer, ...audit }, `spend ${state}`);
    return stateNow(deps, approval);
  }
  return waitForPage(deps, approval, channels, deps.waitMs);
}

/** Waits for the page's decision, reporting progress every few seconds; bounded by `ms` and the approval's expiry. */
async function waitForPage(deps: ApprovalDeps, approval: Approval, channels: HumanChannels, ms: number): Promise<ApprovalState | 'tampered'> {
  const slice = 5_000;
  let state: ApprovalState | 'tampered' = approval.state;
  for (let waited = 0; waited < ms && state === 'pending' && !channels.signal?.aborted; waited += slice) {
    await channels.progress?.(waited, ms, 'waiting for the human to approve on the approval page');
    state = await deps.book.wait(approval, Math.min(slice, ms - waited), channels.signal);
  }
  return state;
}

/** The approval's state as stored now (another channel or replica may have decided first), checked: `tampered` is never approval. */
function stateNow(deps: ApprovalDeps, approval: Approval): Promise<ApprovalState | 'tampered'> {
  return deps.book.stateOf(approval);
}
