import { describe, expect, it } from 'vitest';
import { indexerTools } from '../../src/catalogue/indexer/index.js';
import type { ToolContext, ToolDef } from '../../src/core/tool.js';
import { ChainMcpError, HttpStatusError } from '../../src/errors.js';
import { amountOf, indexerAsset, memoText, parseStatus, timeOf } from '../../src/summarize/indexer.js';
import type { QueryPairs } from '../../src/transport/rest.js';

/** Indexer logic without the protocol: a fake context that records every GET. */

type Answer = (path: string, query: QueryPairs) => unknown;

function fakeCtx(answer: Answer, nowMs = Date.UTC(2026, 5, 1)) {
  const calls: Array<{ path: string; query: QueryPairs }> = [];
  const ctx = {
    config: {},
    now: () => nowMs,
    indexer: async (path: string, query: QueryPairs = []) => {
      calls.push({ path, query });
      return answer(path, query);
    },
  } as unknown as ToolContext;
  return { ctx, calls };
}

const tool = (name: string): ToolDef => indexerTools.find((t) => t.name === name)!;

async function run(name: string, args: Record<string, unknown>, ctx: ToolContext) {
  const def = tool(name);
  const input = def.input.parse(args);
  const out = await def.run!(input, ctx);
  return def.output.parse(out) as Record<string, unknown>;
}

const X = '2eNy1mUFdmaxXNj1eQHUe7Np4gju9sJsEtWQ4MX3ToiNKuADed';
const ASSET = '25eNMcwqR3Fp7TBCp6whUefNYKr6is5UKATxo7ohmTUCMDKp3d';
const STATUS = { network_id: 1000, chains: { [X]: { chainID: X, chainAlias: 'X', vm: 'avm', nativeAssetID: ASSET } } };
const ASSET_RECORD = { id: ASSET, symbol: 'CAM', name: 'Camino', denomination: 9 };

function tx(id: string, timestamp: string) {
  return { id, chainID: X, type: 'base', timestamp, txFee: 1_000_000, memo: '', inputs: [], outputs: [], inputTotals: {}, outputTotals: { [ASSET]: '2500000000' } };
}

describe('indexer asset records', () => {
  it('looks each asset up once per process and shows amounts in its units', async () => {
    const { ctx, calls } = fakeCtx((path) => (path === `/v2/assets/${ASSET}` ? ASSET_RECORD : path === '/v2' ? STATUS : null));
    const first = await indexerAsset(ctx, ASSET);
    const second = await indexerAsset(ctx, ASSET);
    expect(second).toEqual(first);
    // One lookup of the asset (and one of the status, which says it is the native asset).
    expect(calls.filter((c) => c.path.startsWith('/v2/assets/'))).toHaveLength(1);
    expect(amountOf('2500000000', first).display).toBe('2.5 CAM');
  });

  it('does not cache a failed lookup and falls back to the smallest unit', async () => {
    let fail = true;
    const { ctx, calls } = fakeCtx(() => {
      if (fail) throw new ChainMcpError('connection', 'down');
      return ASSET_RECORD;
    });
    const fallback = await indexerAsset(ctx, ASSET);
    expect(fallback.known).toBe(false);
    expect(amountOf('1200', fallback).display).toBe('1,200 (asset 25eNMcwq…Kp3d, smallest unit)');
    fail = false;
    expect((await indexerAsset(ctx, ASSET)).symbol).toBe('CAM');
    expect(calls.filter((c) => c.path.startsWith('/v2/assets/'))).toHaveLength(2);
  });
});

describe('indexer decoding helpers', () => {
  it('reads the status with either spelling of the network ID', () => {
    expect(parseStatus(STATUS).networkID).toBe('1000');
    expect(parseStatus({ networkID: '1001', chains: {} }).networkID).toBe('1001');
    expect(parseStatus(STATUS).chains[0]).toEqual({ chainID: X, alias: 'X', vm: 'avm', nativeAssetID: ASSET });
  });

  it('decodes text memos and leaves binary ones as sent', () => {
    expect(memoText(Buffer.from('rent for May').toString('base64'))).toBe('rent for May');
    const binary = Buffer.from([0, 1, 2, 255]).toString('base64');
    expect(memoText(binary)).toBe(binary);
    expect(memoText(null)).toBe('');
  });

  it('reads RFC 3339 timestamps with offsets and fractions', () => {
    expect(timeOf('2026-01-01T01:00:00.123+01:00')?.unix).toBe('1767225600');
    expect(timeOf('not a time')).toBeUndefined();
  });
});

describe('indexer paging', () => {
  const page = (ids: string[]) => (path: string) => {
    if (path === '/v2') return STATUS;
    if (path.startsWith('/v2/assets/')) return ASSET_RECORD;
    return { transactions: ids.map((id, i) => tx(id, `2026-01-0${i + 1}T00:00:00Z`)) };
  };

  it('offers a time window when a full page came without a next cursor', async () => {
    const { ctx } = fakeCtx(page(['a', 'b']));
    const asc = await run('indexer_listTransactions', { limit: 2, chainID: [X] }, ctx);
    expect(asc.next).toEqual({ limit: 2, chainID: [X], startTime: '1767312000' });
    const desc = await run('indexer_listTransactions', { limit: 2, sort: 'timestamp-desc' }, ctx);
    expect(desc.next).toEqual({ limit: 2, sort: 'timestamp-desc', endTime: '1767312000' });
    const short = await run('indexer_listTransactions', { limit: 3 }, ctx);
    expect(short.next).toBeUndefined();
  });

  it("passes the indexer's next cursor through untouched", async () => {
    const { ctx, calls } = fakeCtx((path) => (path === '/v2/outputs' ? { outputs: [], next: '/v2/outputs?limit=2&offset=4&address=local1x' } : STATUS));
    const first = await run('indexer_listOutputs', { limit: 2 }, ctx);
    expect(first.next).toEqual({ next: 'limit=2&offset=4&address=local1x' });
    await run('indexer_listOutputs', first.next as Record<string, unknown>, ctx);
    expect(calls.at(-1)).toEqual({
      path: '/v2/outputs',
      query: [
        ['limit', '2'],
        ['offset', '4'],
        ['address', 'local1x'],
      ],
    });
  });

  it('judges "the future" by the context clock, before sending', async () => {
    const { ctx, calls } = fakeCtx(page([]), Date.UTC(2026, 0, 1));
    await expect(run('indexer_listTransactions', { startTime: '2026-01-02T00:00:00Z' }, ctx)).rejects.toThrow(/startTime: must not be in the future/);
    await expect(run('indexer_getAggregates', { endTime: '2026-01-02T00:00:00Z' }, ctx)).rejects.toThrow(/endTime: must not be in the future/);
    expect(calls).toHaveLength(0);
    await run('indexer_listTransactions', { startTime: '2025-12-31T00:00:00Z' }, ctx);
    expect(calls[0]?.query).toContainEqual(['startTime', '1767139200']);
  });

  it('refuses an unknown chain alias after reading the status, naming the item', async () => {
    const { ctx, calls } = fakeCtx(page([]));
    await expect(run('indexer_listOutputs', { chainID: [X, 'Q'] }, ctx)).rejects.toThrow(/chainID\[1\]: unknown chain alias "Q"; the indexer knows X/);
    expect(calls.map((c) => c.path)).toEqual(['/v2']);
  });
});

describe('indexer not-found answers', () => {
  const ID = '2fWBQuSyshAbCCsxViz8MkqaX95iGvokmXRBMw2aWNvWGBzHA4';
  const answers: Array<[string, () => unknown]> = [
    ['null with HTTP 200', () => null],
    [
      'HTTP 404',
      () => {
        throw new HttpStatusError(404, 'The indexer at http://x/v2/assets answered HTTP 404 (not found).');
      },
    ],
    [
      'a {code: 404} body with HTTP 200',
      () => {
        throw new ChainMcpError('not_found', 'The indexer refused /v2/assets: not found');
      },
    ],
  ];
  for (const [how, answer] of answers) {
    it(`maps ${how} to a clear not-found for a by-ID tool`, async () => {
      const { ctx } = fakeCtx(answer);
      const err = await run('indexer_getAsset', { id: ID }, ctx).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ChainMcpError);
      expect((err as ChainMcpError).kind).toBe('not_found');
      expect((err as ChainMcpError).message).toBe(`The indexer knows no asset ${ID}.`);
    });
  }

  it('keeps other failures as they are', async () => {
    const { ctx } = fakeCtx(() => {
      throw new HttpStatusError(500, 'The indexer answered HTTP 500 (server error).');
    });
    const err = (await run('indexer_getAsset', { id: ID }, ctx).catch((e: unknown) => e)) as ChainMcpError;
    expect(err.kind).toBe('http_status');
  });
});
