import { createHash } from 'node:crypto';
import { cardMeta } from '../approval/card.js';
import { needsLink } from '../approval/flow.js';
import { isHexAddress, parseChainAddress } from '../codec/index.js';
import type { SpendLimits, ToolContext, ToolDef } from '../core/tool.js';
import { ChainMcpError, HttpStatusError, toChainMcpError } from '../errors.js';
import type { LocalEnv } from '../local/env.js';
import type { LocalRecord } from '../local/records.js';
import type { Services } from '../services.js';
import type { LocalSigner } from '../signer/types.js';
import { disagreed, NodeDisagreed, sameID, shownID } from '../spend/issued-id.js';
import { checkOutflow, checkOwn, checkPrefixes, overDailyTotal, pinNetwork, spendLimits } from '../spend/guard.js';
import { isStrangerLine, oneLine } from '../summarize/stranger.js';
import { type CallHooks, ownerOf } from './context.js';
import { jsonSafe, type ToolResult, textResult } from './result.js';
import { humanApproval, limitsInForce, linkMode, noChannel, OUTCOME_CHECK, redeemOrRefuse } from './spend-call.js';

/**
 * Spends under the local signer (DESIGN section 8, "Local signing"): the server fetches the UTXOs,
 * builds the unsigned bytes, renders the preview from those bytes decoded, binds the confirmation
 * id (and so the human's approval and the daily reservation) to sha256 of the bytes, keeps the
 * bytes server-side, and at confirm signs exactly them and issues each once, never retried.
 */

/** The spends src/local builds (src/local/builders.ts LOCAL_BUILDERS' keys), named here so routing loads no builder code. */
export const LOCAL_TOOLS: ReadonlySet<string> = new Set([
  'xvm_send',
  'xvm_sendMultiple',
  'xvm_export',
  'xvm_import',
  'platform_exportNative',
  'cx_export',
  'cx_import',
  'transfer',
  'platform_deposit',
  'platform_unlockDeposit',
  'platform_claim',
]);

/** Tools whose bytes come signed from elsewhere: the signer plays no part, the usual path serves them. */
const SIGNER_FREE = new Set(['xvm_issueTx', 'wallet_issueTx', 'cx_issueTx', 'eth_sendRawTransaction']);

/** Whether this spend takes the local path, the usual one, or is refused under the local signer. */
export function localRoute(tool: ToolDef, builders: ReadonlySet<string>): 'local' | 'usual' | 'refuse' {
  if (tool.tier !== 'spend' || SIGNER_FREE.has(tool.name)) return 'usual';
  return builders.has(tool.name) ? 'local' : 'refuse';
}

export function refusedUnderLocal(tool: ToolDef): ChainMcpError {
  return new ChainMcpError('policy', `Refused: ${tool.name} needs the keystore signer (CHAIN_MCP_SIGNER=keystore on a node with its keystore API); the local signer does not build it. Nothing was sent.`, {
    hint: 'Use xvm_send, transfer, or the X/P/C exports and imports, which the local signer builds.',
  });
}

const sha256Hex = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** What the confirmation id binds: the exact arguments and the hashes of the bytes they were built into. */
function bound(args: Record<string, unknown>, hashes: readonly string[]): Record<string, unknown> {
  return { args, unsignedSha256: [...hashes] };
}

/**
 * The key's own addresses decide "own" here: the same payload on X/P/C, or the key's 0x address.
 * Every address asked about passed its field's schema (a 0x address or a checked X/P/C one), so it parses.
 */
function keyOwns(signer: LocalSigner): (address: string) => Promise<boolean | undefined> {
  const payload = Buffer.from(signer.addresses.shortId).toString('hex');
  const evm = signer.addresses.evm.toLowerCase();
  return async (address) => {
    if (isHexAddress(address)) return address.toLowerCase() === evm ? true : undefined;
    return Buffer.from(parseChainAddress(address).bytes).toString('hex') === payload;
  };
}

/** Issues one signed step; the node's txID is taken only when it is the ID of the bytes sent (`expected`). */
async function issueStep(ctx: ToolContext, chain: 'X' | 'P' | 'C' | 'EVM', hex: string, expected: string): Promise<string> {
  if (chain === 'EVM') {
    const raw = await ctx.rpc('evm', 'eth_sendRawTransaction', [hex], { retry: false });
    if (typeof raw !== 'string' || raw === '') throw new ChainMcpError('malformed', 'The node answered eth_sendRawTransaction without a transaction hash.');
    if (!sameID(raw, expected)) throw new NodeDisagreed(raw);
    return expected;
  }
  const where = chain === 'X' ? (['xvm', 'xvm.issueTx'] as const) : chain === 'P' ? (['platform', 'platform.issueTx'] as const) : (['cx', 'cx.issueTx'] as const);
  const raw = (await ctx.rpc(where[0], where[1], { tx: hex, encoding: 'hex' }, { retry: false })) as { txID?: unknown };
  if (typeof raw?.txID !== 'string' || raw.txID === '') throw new ChainMcpError('malformed', `The node answered ${where[1]} without a txID.`);
  if (!sameID(raw.txID, expected)) throw new NodeDisagreed(raw.txID);
  return expected;
}

const EXPORT_WAIT_MS = 60_000;

/** Bounded wait until an export is Accepted, so its import finds the outputs in shared memory. */
async function awaitAccepted(ctx: ToolContext, chain: 'X' | 'P' | 'C' | 'EVM', txID: string): Promise<string> {
  const deadline = ctx.now() + EXPORT_WAIT_MS;
  for (let polls = 1; ; polls++) {
    const [endpoint, method] = chain === 'X' ? (['xvm', 'xvm.getTxStatus'] as const) : chain === 'P' ? (['platform', 'platform.getTxStatus'] as const) : (['cx', 'cx.getAtomicTxStatus'] as const);
    const raw = (await ctx.rpc(endpoint, method, { txID }, { retry: true }).catch(() => ({}))) as { status?: unknown };
    const status = typeof raw.status === 'string' ? raw.status : 'Unknown';
    await ctx.progress(polls, undefined, `export ${txID}: ${status}`);
    if (['Accepted', 'Committed', 'Rejected', 'Dropped', 'Aborted'].includes(status) || ctx.now() >= deadline) return status;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

/**
 * The rolling 24 h total under the local signer: the larger of what the chain records the key
 * sent (the indexer, src/local/sent.ts) and the store's sent rows (what the record cannot show,
 * or has not indexed yet), plus the store's reservations still in flight, which the chain cannot
 * show yet: two confirms racing while the key also sent from elsewhere cannot both fit. The store
 * only adds, so deleting its rows or a restart with a fresh memory store lowers nothing.
 * `onChainOnly`: what the chain knows beyond the store's sent rows. Under a daily limit a total
 * nobody can tell refuses the spend.
 */
async function dailySpent(services: Services, ctx: ToolContext, env: LocalEnv): Promise<{ spent: bigint; onChainOnly: bigint }> {
  const stored = await services.ledger.spent();
  if (services.config.maxSpendPerDay === undefined) return { spent: stored, onChainOnly: 0n };
  const { chainSent } = await import('../local/sent.js');
  const chain = await chainSent(ctx, env, services.now());
  if (chain === undefined) {
    throw new ChainMcpError(
      'policy',
      'Refused: CHAIN_MCP_MAX_SPEND_PER_DAY is set, and the indexer (CHAIN_MCP_INDEXER_URL) could not say what the key sent in the last 24 hours, so the daily total cannot be checked. Nothing was sent.',
      { hint: 'Try again when the indexer answers, or ask the operator to set CHAIN_MCP_INDEXER_URL.' },
    );
  }
  const inFlight = await services.ledger.inFlight();
  const sent = stored - inFlight;
  return chain > sent ? { spent: chain + inFlight, onChainOnly: chain - sent } : { spent: stored, onChainOnly: 0n };
}

/**
 * The local signer's spend protocol. `limits` carry the input's amount and recipients; the fee
 * comes from the decoded bytes. Every refusal before the issue sends nothing.
 */
export async function callLocalSpend(services: Services, tool: ToolDef, input: Record<string, unknown>, ctx: ToolContext, hooks: CallHooks, signer: LocalSigner): Promise<ToolResult> {
  const { config, log } = services;
  const { confirm, ...args } = input;
  // Loaded only when a spend is built: the codec, the builders and the curve stay out of the start.
  const { LockedForBuild, signStep, stoppedResult } = await import('../local/spends.js');
  const { countedTotal, keptOutflow } = await import('../local/outflow.js');
  const { spendHead } = await import('../local/intent.js');
  const { LOCAL_BUILDERS } = await import('../local/builders.js');
  const { localEnv } = await import('../local/env.js');
  const builder = LOCAL_BUILDERS[tool.name];
  if (!builder) throw refusedUnderLocal(tool);
  tool.validate?.(args, services.now());
  const limits: SpendLimits = spendLimits(tool, args);
  const cached = services.cachedNetwork();
  // The amount, recipients and daily total are checked on the decoded bytes below, not on these arguments.
  if (cached) checkPrefixes(limits, cached);
  await pinNetwork(limits, config, () => ctx.network(), cached !== undefined);
  const isOwn = keyOwns(signer);
  await checkOwn(limits, config, isOwn);
  const audit = { tool: tool.name, signer: 'local', amount: limits.amount?.toString(), recipients: limits.recipients };
  // The channel the approval will take is known now: with none, the human is never asked to unlock
  // a key for a spend that would then be refused.
  if (config.approval === 'human' && needsLink(hooks) && linkMode(services) === 'none') {
    log.info({ audit: 'refused', ...audit, why: 'no approval channel' }, 'spend refused: no channel to the human');
    throw noChannel();
  }

  if (typeof confirm !== 'string') {
    const env = await localEnv(ctx, signer);
    let spend: Awaited<ReturnType<typeof builder>>;
    try {
      spend = await builder(args, ctx, env);
    } catch (err) {
      if (!(err instanceof LockedForBuild)) throw err;
      log.info({ audit: 'refused', ...audit, why: 'key locked' }, 'spend refused: key locked');
      throw new ChainMcpError('confirmation', `${await services.lockedKeyMessage(hooks.elicitUrl)} (${err.message}.) Nothing was sent.`, { hint: 'After the human unlocks it, call the tool again for a preview to approve.' });
    }
    await checkOwn({ ...limits, own: spend.own }, config, isOwn);
    const hashes = spend.steps.map((s) => sha256Hex(s.bytes));
    // The limits apply to what the bytes do, decoded from them: everything leaving the key, every fee included.
    const { outflow, head } = await spendHead(ctx, env, spend.steps);
    const total = countedTotal(outflow);
    // Read after the preview's reads (another process may have spent meanwhile); the reservation at the confirm decides.
    const { spent: spentToday } = await dailySpent(services, ctx, env);
    checkOutflow({ total, strangers: outflow.strangers, rewardOwner: outflow.strangeRewardOwner, notYours: outflow.notYours }, config, env.network, spentToday);
    // Human first (DESIGN section 9): the intents, the total leaving the key, the warnings; then every detail.
    const clean = [...head.intents, head.total, ...head.warnings, ...spend.lines].map(oneLine);
    const preview = [...clean.filter((l) => !isStrangerLine(l)), ...clean.filter(isStrangerLine)];
    if (!signer.isUnlocked()) {
      // Nothing is approved or signed with a locked key: the preview says how to unlock.
      log.info({ audit: 'preview', ...audit, locked: true }, 'spend preview (key locked)');
      const text = [`PREVIEW, nothing sent: ${tool.title}`, ...preview.map((l) => `- ${l}`), `${await services.lockedKeyMessage(hooks.elicitUrl)} Call this tool again once it is unlocked, for a preview to approve.`].join('\n');
      // keyLocked tells the approval card to say so; the unlock page's address never goes into a result the model reads.
      return textResult(text, { status: 'preview', keyLocked: true, preview, details: jsonSafe(spend.details) }, config);
    }
    if (config.approval === 'human') {
      for (const gone of await services.approvals.sweep()) log.info({ audit: 'expired', tool: gone.tool, state: gone.state }, 'spend approval expired');
      await services.approvals.ensureRoom(ownerOf(hooks));
    }
    const { id, expiresAt } = await services.confirmations.issue(tool.name, bound(args, hashes), services.now(), ownerOf(hooks));
    const nonce = id.split('.')[0]!;
    const lines = [...preview.filter((l) => !isStrangerLine(l)), ...limitsInForce(config, spentToday, env.network), ...preview.filter(isStrangerLine)];
    const record: LocalRecord = { tool: tool.name, spend, hashes, total, lines, expiresAt };
    await services.localRecords.put(nonce, record);
    log.info({ audit: 'preview', ...audit, fee: spend.fee.toString(), unsignedSha256: hashes }, 'spend preview');
    let how = `To execute once, call ${tool.name} again with the same arguments and confirm: "${id}" (valid 5 minutes).`;
    let approvalUrl: string | undefined;
    let meta: Record<string, unknown> | undefined;
    if (config.approval === 'human') {
      // The page link under a passkey: the passkey is required from the start, sealed with the facts.
      const passkey = needsLink(hooks) && linkMode(services) === 'passkey';
      const approval = await services.approvals.open(nonce, { tool: tool.name, title: tool.title, lines }, expiresAt, ownerOf(hooks), { passkey });
      if (hooks.appCard) meta = await cardMeta(services.cardSecrets, approval);
      if (needsLink(hooks)) {
        approvalUrl = await services.approvalPages.url(approval);
        how = `Only the human can approve this: give them this link to open in their browser on this computer: ${approvalUrl} . After they approve there, call ${tool.name} again with the same arguments and confirm: "${id}" (valid 5 minutes). Your confirm alone sends nothing.`;
      } else if (hooks.appCard) {
        how = `The human approves or declines on the approval card shown with this preview. After they approve, call ${tool.name} again with the same arguments and confirm: "${id}" (valid 5 minutes). Your confirm alone sends nothing.`;
      } else {
        how = `To execute once, call ${tool.name} again with the same arguments and confirm: "${id}" (valid 5 minutes); the human is then asked to approve in their client. Your confirm alone sends nothing.`;
      }
    }
    const text = [`PREVIEW, nothing sent: ${tool.title}`, ...preview.map((l) => `- ${l}`), how].join('\n');
    const result = textResult(
      text,
      { status: 'preview', preview, confirmationId: id, expiresAt: new Date(expiresAt).toISOString(), ...(approvalUrl ? { approvalUrl } : {}), details: jsonSafe({ ...spend.details, leaving: total }) },
      config,
    );
    return meta ? { ...result, _meta: meta } : result;
  }

  // Confirm: the record the id names, the id checked against these arguments AND the bytes' hashes.
  const nonce = confirm.split('.')[0] ?? '';
  const kept = await services.localRecords.get(nonce);
  if (kept === 'tampered') {
    // Not what this server kept (altered, or another process's on a store it does not share): never signed.
    // Left in place: another process on the same SQLite file may own it; it expires in minutes.
    log.warn({ audit: 'tampered', ...audit, why: 'kept preview not sealed by this server' }, 'spend refused: its kept preview was altered in the state store');
    throw new ChainMcpError('confirmation', 'Refused: the transaction kept for this preview was altered in the state store, or kept by another process (not this server). Nothing was signed or sent.', {
      hint: 'Call the tool again without confirm for a fresh preview; tell the operator the state store was written by something other than chain-mcp.',
    });
  }
  const record = kept;
  if (!record || record.tool !== tool.name) {
    log.info({ audit: 'refused', ...audit, why: 'no local preview for this id' }, 'spend confirmation refused');
    throw new ChainMcpError('confirmation', 'Confirmation refused: no preview is kept for that confirmationId (expired, already used, or kept by another server whose state this one does not share). Nothing was sent.', {
      hint: 'Call the tool again without confirm to get a fresh preview.',
    });
  }
  const boundArgs = bound(args, record.hashes);
  await services.confirmations.verify(confirm, tool.name, boundArgs, services.now(), ownerOf(hooks));
  // What is signed must be exactly what was approved: the kept bytes still hash to the bound values.
  const drift = record.spend.steps.findIndex((s, n) => sha256Hex(s.bytes) !== record.hashes[n]);
  if (drift >= 0) {
    await services.localRecords.take(nonce);
    log.warn({ audit: 'refused', ...audit, why: 'bytes differ from the approved hash' }, 'spend refused');
    throw new ChainMcpError('confirmation', 'Refused: the transaction bytes kept for this preview no longer match the hash that was approved. Nothing was signed or sent.', {
      hint: 'Call the tool again without confirm for a fresh preview.',
    });
  }
  // The limits again, on the kept bytes decoded afresh: a record rewritten in the store (its bytes
  // and a forged id together) still cannot take more than the limits allow, nor pay a stranger.
  const keptEnv = await localEnv(ctx, signer);
  const outflow = await keptOutflow(record.spend.steps, keptEnv);
  const total = countedTotal(outflow);
  let onChainOnly = 0n;
  try {
    const today = await dailySpent(services, ctx, keptEnv);
    onChainOnly = today.onChainOnly;
    checkOutflow({ total, strangers: outflow.strangers, rewardOwner: outflow.strangeRewardOwner, notYours: outflow.notYours }, config, keptEnv.network, today.spent);
  } catch (err) {
    await services.localRecords.take(nonce);
    log.warn({ audit: 'refused', ...audit, why: 'kept bytes over a limit' }, 'spend refused');
    throw err;
  }
  if (!signer.isUnlocked()) {
    log.info({ audit: 'refused', ...audit, why: 'key locked' }, 'spend refused: key locked');
    throw new ChainMcpError('confirmation', `${await services.lockedKeyMessage(hooks.elicitUrl)} Nothing was sent; the confirmationId stays valid until it expires.`, {
      hint: 'Ask the human to unlock the key on the approval page (they type the passphrase there), then call again with the same confirm.',
    });
  }
  const plan = { lines: record.lines };
  let approvedBy: string | undefined;
  if (config.approval === 'human') {
    const decision = await humanApproval(services, tool, boundArgs, confirm, plan, hooks);
    if (typeof decision !== 'string') {
      await services.localRecords.take(nonce);
      return decision;
    }
    approvedBy = decision;
  } else {
    await redeemOrRefuse(services, tool, boundArgs, confirm, audit, ownerOf(hooks));
    if (hooks.elicit) {
      const answer = await hooks.elicit([`Approve ${tool.title}?`, ...record.lines].join('\n'));
      if (answer !== 'accept') {
        await services.localRecords.take(nonce);
        log.info({ audit: 'declined', ...audit, answer }, 'spend declined');
        return textResult(`Declined by the human (${answer}); nothing was sent.`, { status: 'declined', preview: record.lines }, config);
      }
    }
  }
  // Used once: of two processes confirming the same preview, only the one that takes the record signs.
  if (!(await services.localRecords.take(nonce))) {
    log.warn({ audit: 'refused', ...audit, why: 'preview already used' }, 'spend refused');
    throw new ChainMcpError('confirmation', 'Confirmation refused: this preview was already used. Nothing was sent.', { hint: 'Call the tool again without confirm to get a fresh preview.' });
  }
  // What the chain records beyond the store's rows shrinks the room the store's atomic reservation checks.
  const reserved = await services.ledger.reserve(total, config.maxSpendPerDay === undefined ? undefined : config.maxSpendPerDay - onChainOnly);
  if (!reserved) throw overDailyTotal(total, await services.ledger.spent(), config, services.cachedNetwork());
  log.info({ audit: 'confirmed', ...audit, ...(approvedBy ? { approvedBy } : {}), unsignedSha256: record.hashes }, 'spend confirmed');
  // A confirmed spend, and only that, keeps an idle key unlocked (previews never do).
  signer.confirmedUse();
  const txIDs: string[] = [];
  const steps = record.spend.steps;
  for (let n = 0; n < steps.length; n++) {
    const step = steps[n]!;
    const { hex, id: expected } = await signStep(step, signer);
    if (step.expectId !== undefined && expected !== step.expectId) {
      // Signed again at confirm, the step must have the ID its next step names (deterministic signatures).
      if (n === 0) await services.ledger.release(reserved).catch((e: unknown) => log.warn({ err: (e as Error).message }, 'daily total: reservation not released'));
      log.warn({ audit: 'refused', ...audit, step: n + 1, why: 'signed step ID differs from the preview' }, 'spend refused');
      throw new ChainMcpError('confirmation', `Refused: step ${n + 1} signed now does not have the ID its preview computed (${step.expectId}), so the step after it would name nothing. ${n === 0 ? 'Nothing was sent.' : `Step 1 was issued once (txID ${txIDs[0]}); nothing more was sent.`}`, {
        hint: 'Call the tool again without confirm for a fresh preview.',
      });
    }
    try {
      if (n > 0) {
        const status = await awaitAccepted(ctx, steps[n - 1]!.chain, txIDs[n - 1]!);
        if (status !== 'Accepted' && status !== 'Committed') {
          log.warn({ audit: 'partial', ...audit, step: n + 1, status }, 'spend stopped part way');
          const next = status === 'Rejected' || status === 'Dropped' ? 'Nothing left the source chain.' : `Import its outputs later with txID ${txIDs[n - 1]}.`;
          const stop = { step: n + 1, status: 'not_run' as const, error: `not sent: step ${n} is ${status}`, next };
          return textResult(
            `Step ${n} was issued once (txID ${txIDs[n - 1]}) but is ${status}; step ${n + 1} was not sent. ${next}`,
            { status: 'issued', preview: record.lines, result: stoppedResult(record.spend.result(txIDs, false), stop), ...(approvedBy ? { approvedBy } : {}) },
            config,
          );
        }
      }
      const txID = await issueStep(ctx, step.chain, hex, expected);
      txIDs.push(txID);
      // Sent: the reservation stays counted whatever happens to a later step.
      if (n === 0) await services.ledger.commit(reserved).catch((e: unknown) => log.warn({ err: (e as Error).message }, 'daily total: reservation not marked sent'));
      log.info({ audit: 'issued', ...audit, step: n + 1, txID }, 'spend issued');
    } catch (err) {
      if (err instanceof NodeDisagreed) {
        // The bytes went out: what they spend stays counted.
        if (n === 0) await services.ledger.commit(reserved).catch((e: unknown) => log.warn({ err: (e as Error).message }, 'daily total: reservation not marked sent'));
        log.warn({ audit: 'txid_mismatch', ...audit, step: n + 1, expected, named: shownID(err.named) }, 'the node named another txID than the signed bytes');
        throw disagreed(tool.name, n + 1, steps.length, txIDs, expected, err.named);
      }
      const error = toChainMcpError(err);
      const lost = ['timeout', 'connection', 'malformed', 'cancelled', 'too_large'].includes(error.kind) || (error instanceof HttpStatusError && error.status >= 500);
      if (n === 0 && !lost) await services.ledger.release(reserved).catch((e: unknown) => log.warn({ err: (e as Error).message }, 'daily total: reservation not released'));
      if (n > 0) {
        log.warn({ audit: lost ? 'unknown_outcome' : 'failed', ...audit, step: n + 1, kind: error.kind }, 'spend stopped part way');
        // Sent with an unknown outcome, the import may have taken the exported funds already.
        const why = error.message.replace(/\.$/, '');
        const later = `wait on the destination chain: import them with their export's txID ${txIDs[0]}.`;
        const stop = lost
          ? { step: n + 1, status: 'unknown' as const, txID: expected, error: why, next: `Check step ${n + 1} first (tx_status ${expected}); if it did not go through, the exported funds ${later}` }
          : { step: n + 1, status: 'failed' as const, error: why, next: `The exported funds ${later}` };
        return textResult(
          `Step 1 was issued once (txID ${txIDs[0]}); step ${n + 1} ${lost ? `(txID ${expected}) has an unknown outcome` : 'failed'}: ${why}. It is not retried. ${stop.next}`,
          { status: 'issued', preview: record.lines, result: stoppedResult(record.spend.result(txIDs, false), stop), ...(approvedBy ? { approvedBy } : {}) },
          config,
        );
      }
      if (lost) {
        log.warn({ audit: 'unknown_outcome', ...audit, kind: error.kind }, 'spend outcome unknown');
        throw new ChainMcpError('unknown_outcome', `The outcome of ${tool.name} is unknown: ${error.message} It was sent once and will not be retried (its txID would be ${expected}).`, {
          hint: `Do not send it again blindly. First check ${OUTCOME_CHECK[tool.toolset] ?? 'the balances (account_overview)'}; only then decide with the human whether to preview it again.`,
        });
      }
      log.info({ audit: 'failed', ...audit, kind: error.kind }, 'spend failed');
      throw error;
    }
  }
  const text = record.spend.done(txIDs);
  return textResult(text, { status: 'issued', preview: record.lines, result: record.spend.result(txIDs, true), ...(approvedBy ? { approvedBy } : {}) }, config);
}
