import { needsConfirmation, type ToolDef } from '../core/tool.js';
import { toChainMcpError } from '../errors.js';
import { redactSecrets } from '../redact.js';
import type { Services } from '../services.js';
import { type CallHooks, makeContext } from './context.js';
import { effectiveSchemas } from './listing.js';
import { parseInput, runOperation } from './operation.js';
import { declaredOnly, errorResult, type ToolResult, textResult } from './result.js';
import { callSpend } from './spend-call.js';
import { callLocalSpend, LOCAL_TOOLS, localRoute, refusedUnderLocal } from './local-spend.js';
import { resolveDisplayAmounts } from '../spend/amounts.js';
import { resolveAssetNames } from './asset-names.js';
import { checkInputNetwork } from '../context/network.js';
import { HumanInputNeeded } from '../approval/flow.js';

/** One tools/call: validate, (preview | confirm | run), summarize, keep inside the budget, never throw. */
export async function callTool(services: Services, tool: ToolDef, args: unknown, hooks: CallHooks = {}): Promise<ToolResult> {
  const { config, log } = services;
  try {
    const { input: schema } = effectiveSchemas(tool);
    const ctx = makeContext(services, tool, hooks);
    // An asset named by symbol or name ("GLD") becomes its ID first; ambiguous names are refused.
    args = await resolveAssetNames(tool.input, args, ctx, (a) => parseInput(tool, schema, a));
    if (needsConfirmation(tool)) {
      // "1.5 CAM" becomes its smallest units before parsing (after a check that sends nothing).
      const amounts = await resolveDisplayAmounts(tool.input, args, ctx, (a) => parseInput(tool, schema, a));
      const parsed = parseInput(tool, schema, amounts.args);
      if (services.signer) {
        const route = localRoute(tool, LOCAL_TOOLS);
        if (route === 'refuse') throw refusedUnderLocal(tool);
        if (route === 'local') return await callLocalSpend(services, tool, parsed, ctx, hooks, services.signer);
      }
      return await callSpend(services, tool, parsed, ctx, hooks, amounts.given);
    }
    // A read may take a display amount too (what a deposit of "1000 CAM" would earn).
    const given = await resolveDisplayAmounts(tool.input, args, ctx, (a) => parseInput(tool, schema, a));
    const input = parseInput(tool, schema, given.args);
    if (tool.tier === 'read') checkInputNetwork(input, services.cachedNetwork());
    const output = (await runOperation(tool, input, ctx)) as Record<string, unknown>;
    const text = await tool.summarize(output, input, ctx);
    return textResult(text, declaredOnly(tool, output), config);
  } catch (err) {
    // Not a failure: the protocol layer sends the human's question back (input_required).
    if (err instanceof HumanInputNeeded) throw err;
    const error = toChainMcpError(err);
    if (error.kind === 'internal') log.error({ tool: tool.name, err: redactSecrets(String((err as Error)?.stack ?? err), config.secrets) }, 'tool failed');
    else log.debug({ tool: tool.name, kind: error.kind }, 'tool error');
    return errorResult(error, config);
  }
}
