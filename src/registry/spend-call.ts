import type { Config } from '../config.js';
import type { NetworkInfo } from '../context/network.js';
import type { SpendPlan, ToolContext, ToolDef } from '../core/tool.js';
import { ChainMcpError, HttpStatusError, toChainMcpError } from '../errors.js';
import { humanDecision, needsLink } from '../approval/flow.js';
import { cardMeta } from '../approval/card.js';
import type { Services } from '../services.js';
import { TOTAL_PREFIX } from '../approval/head.js';
import { formatAmount } from '../codec/index.js';
import { type AmountFact, amountFacts, amountLines } from '../spend/amounts.js';
import { disagreed, sameID, shownID } from '../spend/issued-id.js';
import { checkOwn, checkWithFee, checkWithoutRequests, overDailyTotal, pinNetwork, spendLimits } from '../spend/guard.js';
import { txFees } from '../spend/plan.js';
import type { Reservation } from '../state/store.js';
import { nativeAmount } from '../summarize/format.js';
import { isStrangerLine, oneLine } from '../summarize/stranger.js';
import { type CallHooks, ownerOf } from './context.js';
import { runOperation } from './operation.js';
import { declaredOnly, jsonSafe, type ToolResult, textResult } from './result.js';

export async function redeemOrRefuse(services: Services, tool: ToolDef, args: Record<string, unknown>, confirm: string, audit: Record<string, unknown>, owner: string): Promise<void> {
  try {
    await services.confirmations.redeem(confirm, tool.name, args, services.now(), owner);
  } catch (err) {
    services.log.info({ audit: 'refused', ...audit, why: (err as Error).message }, 'spend confirmation refused');
    throw err;
  }
}

/** The limits in force, for the human to see beside the preview. */
export function limitsInForce(config: Config, spentToday: bigint, network?: Pick<NetworkInfo, 'assetSymbol'>): string[] {
  const lines: string[] = [];
  // In the native unit when the network is known (the local signer's preview), else in the smallest unit.
  const amount = (v: bigint) => (network ? nativeAmount(v, network).display : `${v} smallest units`);
  if (config.maxSpend !== undefined) lines.push(`Limit in force: at most ${amount(config.maxSpend)} per spend (CHAIN_MCP_MAX_SPEND)`);
  if (config.maxSpendPerDay !== undefined) {
    lines.push(`Limit in force: at most ${amount(config.maxSpendPerDay)} in any 24 hours, fees included (CHAIN_MCP_MAX_SPEND_PER_DAY); ${network ? amount(spentToday) : spentToday} sent in the last 24 hours`);
  }
  if (config.allowedRecipients) lines.push(`Limit in force: recipients only from CHAIN_MCP_ALLOWED_RECIPIENTS (${config.allowedRecipients.length})`);
  if (config.expectNetworkId) lines.push(`Limit in force: network ${config.expectNetworkId} only (CHAIN_MCP_EXPECT_NETWORK_ID)`);
  return lines;
}

/**
 * Under CHAIN_MCP_APPROVAL=human: the id must be valid, and the human must have approved this
 * exact preview through a channel the model cannot drive. Returns a declined result, throws when
 * not (yet) approved, and returns who approved (the channel, and the passkey on the page) once the
 * id is consumed and the spend may go.
 */
export async function humanApproval(
  services: Services,
  tool: ToolDef,
  args: Record<string, unknown>,
  confirm: string,
  plan: SpendPlan,
  hooks: CallHooks,
): Promise<ToolResult | string> {
  const { config, log } = services;
  const audit = { tool: tool.name };
  let nonce: string;
  try {
    nonce = await services.confirmations.verify(confirm, tool.name, args, services.now(), ownerOf(hooks));
  } catch (err) {
    log.info({ audit: 'refused', ...audit, why: (err as Error).message }, 'spend confirmation refused');
    throw err;
  }
  const stored = await services.approvals.read(nonce);
  if (stored === 'tampered') return refuseTampered(services, tool, args, confirm, hooks, nonce);
  const approval = stored && services.now() <= stored.expiresAt ? stored : undefined;
  if (!approval) {
    throw new ChainMcpError('confirmation', 'Confirmation refused: this preview has no approval waiting (expired, or the server restarted). Nothing was sent.', {
      hint: 'Call the tool again without confirm to get a fresh preview.',
    });
  }
  const state = await humanDecision({ book: services.approvals, pages: services.approvalPages, log, waitMs: config.approvalWaitMs }, approval, hooks);
  if (state === 'tampered') return refuseTampered(services, tool, args, confirm, hooks, nonce);
  if (state === 'pending') {
    log.info({ audit: 'not_approved', ...audit }, 'spend not approved yet');
    const where = needsLink(hooks) ? ` The human approves at ${await services.approvalPages.url(approval)} .` : '';
    throw new ChainMcpError('confirmation', `Not approved by the human yet; nothing was sent.${where}`, {
      hint: 'Ask the human to approve (or decline) this exact preview, then call again with the same confirm. The model cannot approve it.',
    });
  }
  // Which channel decided, as stored (the page or card of any replica may have), checked again.
  const decided = await services.approvals.read(nonce);
  if (decided === 'tampered' || decided?.state !== state) return refuseTampered(services, tool, args, confirm, hooks, nonce);
  const channel = decided.decidedBy;
  await services.confirmations.redeem(confirm, tool.name, args, services.now(), ownerOf(hooks));
  await services.approvals.forget(approval);
  if (state === 'declined') {
    log.info({ audit: 'declined', ...audit, channel }, 'spend declined');
    return textResult('Declined by the human; nothing was sent.', { status: 'declined', preview: plan.lines }, config);
  }
  const decidedBy = channel ?? 'human';
  // The page stores which passkey approved in its channel name (page.ts): the audit line keeps both apart.
  const passkey = /^page with passkey (.+)$/.exec(decidedBy)?.[1];
  log.info({ audit: 'approved', ...audit, channel: passkey ? 'page' : decidedBy, ...(passkey ? { passkey } : {}) }, 'spend approved by the human');
  return decidedBy;
}

/**
 * The approval kept for this preview was written by someone other than this server (its facts or
 * its decision do not carry this server's MAC): it is not the human's decision. The id is used up
 * and the approval removed, so the preview is dead; nothing is sent.
 */
async function refuseTampered(services: Services, tool: ToolDef, args: Record<string, unknown>, confirm: string, hooks: CallHooks, nonce: string): Promise<never> {
  services.log.warn({ audit: 'tampered', tool: tool.name }, 'spend refused: its approval was altered in the state store');
  await services.confirmations.redeem(confirm, tool.name, args, services.now(), ownerOf(hooks)).catch(() => undefined);
  await services.state.deleteApproval(nonce);
  throw new ChainMcpError('confirmation', "Refused: the approval kept for this preview was altered in the state store (not by this server); it is not the human's approval. Nothing was sent.", {
    hint: 'Call the tool again without confirm for a fresh preview for the human to approve; tell the operator the state store was written by something other than chain-mcp.',
  });
}

/**
 * The link channel is strong or absent: `passkey` when a registered passkey guards the page,
 * `plain` when the operator chose it knowingly, `none` otherwise.
 */
export function linkMode(services: Services): 'passkey' | 'plain' | 'login' | 'none' {
  // Under OAuth the page signs the spend's own user in at the identity provider (src/auth/approval-login.ts).
  if (services.approvalPages.served) return 'login';
  if (services.config.approvalLink === 'plain') return 'plain';
  return services.approvalPages.passkeys?.registered() ? 'passkey' : 'none';
}

export function noChannel(): ChainMcpError {
  return new ChainMcpError(
    'confirmation',
    'Refused: this client has no channel to the human (neither form nor URL elicitation, nor MCP Apps) and no passkey guards the approval link, so no one but the model could approve. Nothing was sent.',
    {
      hint:
        'Ways to approve: use a host with form elicitation or URL elicitation, or an MCP Apps host (approval card); or the operator registers a passkey once with `chain-mcp passkey add`; ' +
        'or the operator sets CHAIN_MCP_APPROVAL_LINK=plain, knowing that a model with an HTTP client can then approve on its own.',
    },
  );
}

/** Every amount in both forms, and a likely unit mistake flagged, under the tool's own lines (src/spend/amounts.ts). */
async function withAmountLines(plan: SpendPlan, tool: ToolDef, args: Record<string, unknown>, ctx: ToolContext, given: ReadonlyMap<string, string>, recipients: readonly string[]): Promise<SpendPlan> {
  const facts = await amountFacts(tool.input, args, ctx, given);
  if (facts.length === 0) return plan;
  const fee = facts.some((f) => f.native) ? await txFees(ctx).then((f) => f.txFee, () => undefined) : undefined;
  return { ...plan, lines: [...keystoreHead(tool, facts, plan.fee, recipients), ...plan.lines, ...amountLines(facts, fee)] };
}

/**
 * The head of a preview the node's keystore builds (DESIGN section 9, "The approval a person
 * reads"): what is sent to whom, then the total with the most the fee can be, when every amount is
 * the native asset. Read from the arguments and the plan's fee: the node builds the bytes here.
 */
function keystoreHead(tool: ToolDef, facts: readonly AmountFact[], fee: bigint | undefined, recipients: readonly string[]): string[] {
  const show = (f: Pick<AmountFact, 'units' | 'decimals' | 'symbol'>) => formatAmount(f.units, { decimals: f.decimals, ...(f.symbol ? { symbol: f.symbol } : {}) });
  const to = recipients.length > 0 ? ` to ${recipients.join(', ')}` : '';
  const head = [`${tool.title}: ${facts.map(show).join(' + ')}${to}`];
  const native = facts.every((f) => f.native) ? facts[0] : undefined;
  if (native && fee !== undefined) {
    const sum = facts.reduce((a, f) => a + f.units, 0n) + fee;
    head.push(`${TOTAL_PREFIX}${show({ ...native, units: sum })} (amount + the most the fee can be; the node's keystore user signs)`);
  }
  return head;
}

/** Marks a reservation sent; a store failure here cannot turn a sent spend into an error (the share is counted either way). */
async function settle(services: Services, reserved: Reservation): Promise<void> {
  await services.ledger.commit(reserved).catch((e: unknown) => services.log.warn({ err: (e as Error).message }, 'daily total: reservation not marked sent'));
}

/** Where to look when a spend's outcome is unknown, by toolset. */
export const OUTCOME_CHECK: Record<string, string> = {
  xvm: "xvm_getAddressTxs or xvm_getBalance for the user's addresses (and xvm_getTxStatus with a txID if you have one)",
  wallet: "xvm_getAddressTxs or xvm_getBalance for the user's addresses (and xvm_getTxStatus with a txID if you have one)",
  platform: 'platform_getPendingValidators, platform_getSubnets or platform_getBalance, whichever the spend changes',
  cx: 'cx_getUTXOs on the destination and cx_getAtomicTxStatus with a txID if you have one',
  evm: 'eth_getTransactionCount of the sender (a higher nonce means it was accepted) and eth_getTransactionReceipt',
};

/**
 * The confirmation protocol (DESIGN "Confirmation of spends"): without `confirm` a preview and
 * a bound id; with it, the same checks again, the id consumed, the human asked when the client
 * can be asked, then exactly one request. Never retried; a lost answer is an unknown outcome.
 */
export async function callSpend(
  services: Services,
  tool: ToolDef,
  input: Record<string, unknown>,
  ctx: ToolContext,
  hooks: CallHooks,
  givenAmounts: ReadonlyMap<string, string> = new Map(),
): Promise<ToolResult> {
  const { config, log } = services;
  const { confirm, ...args } = input;
  if (tool.localOnly) {
    throw new ChainMcpError('policy', `The node's keystore cannot sign ${tool.localOnly}: caminogo has no keystore method for it; it needs the local signer (CHAIN_MCP_SIGNER=local with a key from \`chain-mcp key new\`). Nothing was sent.`);
  }
  if (!tool.plan) throw new ChainMcpError('internal', `Spend tool ${tool.name} has no preview; refusing to run it.`);
  // Guard order (DESIGN section 6): limits needing no request, the network pin, then the preview's reads.
  tool.validate?.(args, services.now());
  const limits = spendLimits(tool, args);
  const cached = services.cachedNetwork();
  checkWithoutRequests(limits, config, cached, await services.ledger.spent());
  await pinNetwork(limits, config, () => ctx.network(), cached !== undefined);
  await checkOwn(limits, config, (address) => services.ownAddresses.has(address));
  const planned: SpendPlan = await withAmountLines(await tool.plan(args, ctx), tool, args, ctx, givenAmounts, limits.recipients);
  // Defence in depth: whatever a plan interpolated, each fact stays one line with nothing hidden in
  // it, and stranger-written lines ("… (written by …)") come after every fixed fact.
  const clean = planned.lines.map(oneLine);
  const plan: SpendPlan = { ...planned, lines: [...clean.filter((l) => !isStrangerLine(l)), ...clean.filter(isStrangerLine)] };
  // What the rolling 24 h total counts: the amount and the fee the preview learned.
  const total = (limits.amount ?? 0n) + (plan.fee ?? 0n);
  checkWithFee(limits, plan.fee, config, services.cachedNetwork());
  // Read once more after the preview's reads (another process may have spent meanwhile); the reservation at the confirm decides.
  const spentToday = await services.ledger.spent();
  if (config.maxSpendPerDay !== undefined && spentToday + total > config.maxSpendPerDay) throw overDailyTotal(total, spentToday, config, services.cachedNetwork());
  const audit = { tool: tool.name, amount: limits.amount?.toString(), fee: plan.fee?.toString(), recipients: limits.recipients, own: limits.own };
  // The id binds the arguments, the most the fee can be and what the server chose to send: a fee
  // that rose between preview and confirm (a base fee that jumped) no longer matches the id.
  const bound = plan.fee === undefined && plan.send === undefined ? args : { args, fee: plan.fee, send: plan.send };
  if (typeof confirm !== 'string') {
    if (config.approval === 'human' && needsLink(hooks) && linkMode(services) === 'none') {
      log.info({ audit: 'refused', ...audit, why: 'no approval channel' }, 'spend refused: no channel to the human');
      throw noChannel();
    }
    for (const gone of await services.approvals.sweep()) log.info({ audit: 'expired', tool: gone.tool, state: gone.state }, 'spend approval expired');
    // A full book refuses the new preview; it never drops an older one a human may be reading.
    if (config.approval === 'human') await services.approvals.ensureRoom(ownerOf(hooks));
    const { id, expiresAt } = await services.confirmations.issue(tool.name, bound, services.now(), ownerOf(hooks));
    log.info({ audit: 'preview', ...audit }, 'spend preview');
    const preview = [...plan.lines];
    let how = `To execute once, ask the human to approve, then call ${tool.name} again with the same arguments and confirm: "${id}" (valid 5 minutes).`;
    let approvalUrl: string | undefined;
    let meta: Record<string, unknown> | undefined;
    if (config.approval === 'human') {
      const exact = limits.amount !== undefined ? [`Amount in smallest units: ${limits.amount}`] : [];
      // Fixed facts first, stranger-written lines (labelled "… (written by …)") always last.
      const written = preview.filter(isStrangerLine);
      const lines = [...preview.filter((l) => !isStrangerLine(l)), ...exact, ...limitsInForce(config, spentToday), ...written];
      // The page link under a passkey: the passkey is required from the start, sealed with the facts.
      const passkey = needsLink(hooks) && linkMode(services) === 'passkey';
      const approval = await services.approvals.open(id.split('.')[0]!, { tool: tool.name, title: tool.title, lines }, expiresAt, ownerOf(hooks), { passkey });
      if (hooks.appCard) meta = await cardMeta(services.cardSecrets, approval);
      if (needsLink(hooks)) {
        approvalUrl = await services.approvalPages.url(approval);
        const where = linkMode(services) === 'login' ? 'to open in their browser; they sign in and approve there' : 'to open in their browser on this computer';
        how = `Only the human can approve this: give them this link ${where}: ${approvalUrl} . After they approve there, call ${tool.name} again with the same arguments and confirm: "${id}" (valid 5 minutes). Your confirm alone sends nothing.`;
      } else if (hooks.appCard) {
        how = `The human approves or declines on the approval card shown with this preview. After they approve, call ${tool.name} again with the same arguments and confirm: "${id}" (valid 5 minutes). Your confirm alone sends nothing.`;
      } else {
        how = `To execute once, call ${tool.name} again with the same arguments and confirm: "${id}" (valid 5 minutes); the human is then asked to approve in their client. Your confirm alone sends nothing.`;
      }
    }
    const text = [`PREVIEW, nothing sent: ${tool.title}`, ...preview.map((l) => `- ${l}`), how].join('\n');
    const result = textResult(
      text,
      {
        status: 'preview',
        preview,
        confirmationId: id,
        expiresAt: new Date(expiresAt).toISOString(),
        ...(approvalUrl ? { approvalUrl } : {}),
        details: jsonSafe(plan.details),
      },
      config,
    );
    // The card's secret travels in _meta, which hosts give the view and not the model.
    return meta ? { ...result, _meta: meta } : result;
  }
  /** Who approved (the channel, and the passkey on the page): in the result and the audit line. */
  let approvedBy: string | undefined;
  if (config.approval === 'human') {
    const decision = await humanApproval(services, tool, bound, confirm, plan, hooks);
    if (typeof decision !== 'string') return decision;
    approvedBy = decision;
  } else {
    await redeemOrRefuse(services, tool, bound, confirm, audit, ownerOf(hooks));
  }
  if (config.approval === 'confirm-id' && hooks.elicit) {
    const answer = await hooks.elicit([`Approve ${tool.title}?`, ...plan.lines].join('\n'));
    if (answer !== 'accept') {
      log.info({ audit: 'declined', ...audit, answer }, 'spend declined');
      return textResult(`Declined by the human (${answer}); nothing was sent.`, { status: 'declined', preview: plan.lines }, config);
    }
  }
  // Bytes the caller signed: their own ID, computed before they go, is the only answer taken.
  const expected = tool.issuedID ? await tool.issuedID(args) : undefined;
  // Reserved atomically (in the state store, across processes) right before the one request: concurrent confirms cannot overrun the total.
  const reserved = await services.ledger.reserve(total, config.maxSpendPerDay);
  if (!reserved) throw overDailyTotal(total, await services.ledger.spent(), config, services.cachedNetwork());
  log.info({ audit: 'confirmed', ...audit }, 'spend confirmed');
  let output: Record<string, unknown>;
  try {
    output = (await runOperation(tool, plan.send ? { ...args, ...plan.send } : args, ctx)) as Record<string, unknown>;
  } catch (err) {
    const error = toChainMcpError(err);
    const lost =
      error.kind === 'timeout' ||
      error.kind === 'connection' ||
      error.kind === 'malformed' ||
      error.kind === 'cancelled' ||
      // An answer cut off at the size cap was an answer: the spend may have gone through.
      error.kind === 'too_large' ||
      (error instanceof HttpStatusError && error.status >= 500);
    // An unknown outcome stays counted as sent (the safe side); a certain failure gives its share back.
    // The store failing here keeps the share counted: the safe side.
    if (!lost) await services.ledger.release(reserved).catch((e: unknown) => log.warn({ err: (e as Error).message }, 'daily total: reservation not released'));
    else await settle(services, reserved);
    if (lost) {
      log.warn({ audit: 'unknown_outcome', ...audit, kind: error.kind }, 'spend outcome unknown');
      throw new ChainMcpError('unknown_outcome', `The outcome of ${tool.name} is unknown: ${error.message} It was sent once and will not be retried.`, {
        hint: `Do not send it again blindly. First check ${OUTCOME_CHECK[tool.toolset] ?? 'the balances (account_overview)'}; only then decide with the human whether to preview it again.`,
      });
    }
    log.info({ audit: 'failed', ...audit, kind: error.kind }, 'spend failed');
    throw error;
  }
  await settle(services, reserved);
  // The decodes give the node's answer as a string (`txID` of X/P/C atomic, `txHash` of the EVM).
  const named = String(output.txID ?? output.txHash ?? '');
  if (expected !== undefined && !sameID(named, expected)) {
    // The bytes went out (counted above); the node's word for their ID is not taken, nor a success claimed.
    log.warn({ audit: 'txid_mismatch', ...audit, expected, named: shownID(named) }, 'the node named another txID than the signed bytes');
    throw disagreed(tool.name, 1, 1, [], expected, named);
  }
  log.info({ audit: 'issued', ...audit, txID: output.txID ?? output.txHash }, 'spend issued');
  const text = await tool.summarize(output, args, ctx);
  return textResult(text, { status: 'issued', preview: plan.lines, result: declaredOnly(tool, output), ...(approvedBy ? { approvedBy } : {}) }, config);
}
