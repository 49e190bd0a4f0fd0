/** Paging (the `next` cursor), query pairs and the one request builder of every indexer tool. */
import { z } from 'zod';
import type { ToolContext } from '../../core/tool.js';
import { ChainMcpError, InputError } from '../../errors.js';
import type { TimeOut } from '../../summarize/format.js';
import { isNotFound, resolveChainIds } from '../../summarize/indexer.js';
import type { QueryPairs } from '../../transport/rest.js';
import type { Next } from './shapes.js';

// ---------------------------------------------------------------- paging

/** The indexer's `next` as the query string to send, or undefined. */
function cursorOf(next: unknown): string | undefined {
  if (typeof next !== 'string' || next.trim() === '') return undefined;
  return next.includes('?') ? next.slice(next.indexOf('?') + 1) : next;
}

/** A `next` cursor given back by the caller, sent as is (the indexer wrote it). */
function cursorPairs(next: string): QueryPairs {
  return [...new URLSearchParams(cursorOf(next) ?? '')];
}

/** Plain echo of the caller's arguments, times as Unix seconds. */
export function echoArgs(input: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(input)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => [k, typeof v === 'bigint' ? v.toString() : v]),
  );
}

/**
 * Next page: `{next}` when the indexer sent a `next` cursor; otherwise, when the page is
 * full, a time window starting (or, newest first, ending) at the last item's second, where
 * items of that same second may appear again.
 */
export function nextPage(raw: Record<string, unknown>, input: Record<string, unknown>, items: Array<{ timestamp?: TimeOut; createdAt?: TimeOut }>): Next {
  const cursor = cursorOf(raw.next);
  if (cursor) return { next: cursor };
  if (typeof input.next === 'string') return undefined;
  const limitValue = typeof input.limit === 'number' ? input.limit : 0;
  const last = items.at(-1);
  const t = last?.timestamp ?? last?.createdAt;
  if (!limitValue || items.length < limitValue || !t) return undefined;
  const desc = input.sort === 'timestamp-desc';
  return { ...echoArgs(input), [desc ? 'endTime' : 'startTime']: t.unix };
}

export function nextLine(name: string, next: Next): string[] {
  return next ? [`More: call ${name} with ${JSON.stringify(next)}.`] : [];
}

// ---------------------------------------------------------------- requests

export function timePairs(i: { startTime?: bigint; endTime?: bigint }): Array<[string, string]> {
  const pairs: Array<[string, string]> = [];
  if (i.startTime !== undefined) pairs.push(['startTime', i.startTime.toString()]);
  if (i.endTime !== undefined) pairs.push(['endTime', i.endTime.toString()]);
  return pairs;
}

export function listPairs(i: { limit?: number; query?: string; startTime?: bigint; endTime?: bigint }): Array<[string, string]> {
  const pairs: Array<[string, string]> = [];
  if (i.limit !== undefined) pairs.push(['limit', String(i.limit)]);
  if (i.query !== undefined) pairs.push(['query', i.query]);
  return [...pairs, ...timePairs(i)];
}

export const repeated = (key: string, values: readonly string[] | undefined): Array<[string, string]> => (values ?? []).map((v) => [key, v]);
export const single = (key: string, value: string | bigint | number | boolean | undefined): Array<[string, string]> =>
  value === undefined ? [] : [[key, String(value)]];

/** The spec caps times at "now"; refuse a future time or an empty window before sending. */
export function checkWindow(input: { startTime?: bigint; endTime?: bigint }, ctx: ToolContext): void {
  const now = BigInt(Math.floor(ctx.now() / 1000)) + 60n;
  if (input.startTime !== undefined && input.startTime > now) throw new InputError('startTime', 'must not be in the future (the indexer only knows the past).');
  if (input.endTime !== undefined && input.endTime > now) throw new InputError('endTime', 'must not be in the future; omit it to mean now.');
  if (input.startTime !== undefined && input.endTime !== undefined && input.startTime > input.endTime) {
    throw new InputError('startTime', 'must not be after endTime.');
  }
}

interface IndexerSpec<I> {
  path(input: I): string;
  query?(input: I): QueryPairs;
  /** By-ID requests: what a 404 or a `null` answer means. */
  notFound?(input: I): string;
}

/**
 * Wraps an entry's path and query into `request` (data, read by docs and tests) and a `run`
 * that resolves chain aliases, checks the time window, sends one GET and maps "not found".
 */
export function indexerRequest<I extends Record<string, unknown>>(spec: IndexerSpec<I>) {
  return {
    request: { kind: 'rest' as const, path: spec.path, query: spec.query },
    fetch: async (input: I, ctx: ToolContext): Promise<{ raw: unknown; input: I }> => {
      checkWindow(input as { startTime?: bigint; endTime?: bigint }, ctx);
      const resolved = Array.isArray(input.chainID) ? ({ ...input, chainID: await resolveChainIds(ctx, input.chainID as string[]) } as I) : input;
      let raw: unknown;
      try {
        const cursor = typeof input.next === 'string' ? input.next : undefined;
        raw = await ctx.indexer(spec.path(resolved), cursor ? cursorPairs(cursor) : spec.query ? spec.query(resolved) : []);
      } catch (err) {
        if (spec.notFound && isNotFound(err)) throw new ChainMcpError('not_found', spec.notFound(resolved), { hint: 'Check the ID; indexer_search finds IDs by prefix.' });
        throw err;
      }
      if (raw === null && spec.notFound) throw new ChainMcpError('not_found', spec.notFound(resolved), { hint: 'Check the ID; indexer_search finds IDs by prefix.' });
      return { raw, input: resolved };
    },
  };
}

export const seg = (v: string) => encodeURIComponent(v);

export const none = z.strictObject({});
export const common = { tier: 'read' as const, toolset: 'indexer' as const };
