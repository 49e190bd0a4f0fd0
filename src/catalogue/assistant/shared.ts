/** What the assistant tools share: the problem list of partial answers, loose readers of catalogue outputs, one read step. */
import { z } from 'zod';
import type { ToolContext } from '../../core/tool.js';
import { ChainMcpError, toChainMcpError } from '../../errors.js';
import { big } from '../../summarize/format.js';

export const PRIMARY_NETWORK_ID = '11111111111111111111111111111111LpoYY';
export const WEI_PER_UNIT = 10n ** 9n;
export const FINAL = new Set(['Accepted', 'Rejected', 'Dropped', 'Committed', 'Aborted']);

export const Problem = z.object({ step: z.string(), error: z.string() });
export type Problem = z.infer<typeof Problem>;
export const problemsField = Problem.array().describe('Steps that failed; the rest of the answer still holds.');

export type Out = Record<string, unknown>;
export const rec = (v: unknown): Out => (v && typeof v === 'object' ? (v as Out) : {});
export const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
export const str = (v: unknown): string => (v === undefined || v === null ? '' : String(v));
/** An amount field of a catalogue output: AmountOut {value} or a decimal string. */
export const units = (v: unknown): bigint => (v && typeof v === 'object' ? big((v as Out).value) : big(v));
export const nowUnix = (ctx: ToolContext) => BigInt(Math.floor(ctx.now() / 1000));

/** One read step; a failure is recorded, not thrown, so the other parts still answer. */
export async function step(ctx: ToolContext, problems: Problem[], label: string, tool: string, args: Out = {}): Promise<Out | undefined> {
  try {
    return await ctx.call(tool, args);
  } catch (err) {
    const e = toChainMcpError(err);
    problems.push({ step: label, error: e.kind === 'internal' ? `${tool} is not available in this build` : e.message });
    return undefined;
  }
}

export const problemLines = (problems: Problem[]) => (problems.length ? [`Could not read: ${problems.map((p) => `${p.step} (${p.error})`).join('; ')}`] : []);

export function bareOf(address: string): string {
  return address.slice(address.indexOf('-') + 1);
}

export function sleep(ms: number, signal: AbortSignal): Promise<void> {
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
