import type { Progress } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { idFor, type Tx } from '../../src/devnet/state/index.js';
import { inMemoryStack, type Stack } from '../helpers/stack.js';

// biome-ignore lint/suspicious/noExplicitAny: structured results are checked field by field
type Rec = Record<string, any>;

const UNKNOWN_ID = idFor('tx_status test: no such transaction');

describe('tx_status and wait_for_tx against the devnet', () => {
  let stack: Stack;
  const txs = (pred: (t: Tx) => boolean) => [...stack.devnet.state.txs.values()].filter(pred);
  beforeAll(async () => {
    stack = await inMemoryStack();
  });
  afterAll(() => stack.close());

  it('finds an X transaction and agrees with xvm_getTxStatus', async () => {
    for (const status of ['Accepted', 'Processing', 'Rejected'] as const) {
      const tx = txs((t) => t.chain === 'X' && t.status === status)[0]!;
      const single = (await stack.call('xvm_getTxStatus', { txID: tx.id })).structured as Rec;
      const r = await stack.call('tx_status', { txID: tx.id });
      expect(r.structured).toMatchObject({ txID: tx.id, found: true, chain: 'X', status: single.status });
      expect(r.text).toContain(`on the X-Chain: ${status}`);
    }
  });

  it('explains Accepted in words a model can repeat (final, not a stutter)', async () => {
    const tx = txs((t) => t.chain === 'X' && t.status === 'Accepted')[0]!;
    const r = await stack.call('tx_status', { txID: tx.id });
    expect(r.text).toContain('final: the network accepted it');
    expect(r.text).not.toMatch(/accepted, or will be accepted/i);
  });

  it('finds a C atomic transaction with its block height, and a dropped one', async () => {
    const exp = txs((t) => t.chain === 'C' && t.status === 'Accepted')[0]!;
    const single = (await stack.call('cx_getAtomicTxStatus', { txID: exp.id })).structured as Rec;
    const r = (await stack.call('tx_status', { txID: exp.id })).structured as Rec;
    expect(r).toMatchObject({ chain: 'C', status: 'Accepted', blockHeight: single.blockHeight });
    const dropped = txs((t) => t.chain === 'C' && t.status === 'Dropped')[0]!;
    const d = await stack.call('tx_status', { txID: dropped.id });
    expect(d.structured).toMatchObject({ chain: 'C', status: 'Dropped' });
    expect(d.text).toMatch(/dropped it as invalid/);
  });

  it('finds a P transaction (platform.getTxStatus: Committed), and says when an ID is unknown', async () => {
    const p = txs((t) => t.chain === 'P' && t.status === 'Accepted' && t.type === 'export')[0]!;
    const r = await stack.call('tx_status', { txID: p.id });
    expect(r.structured).toMatchObject({ found: true, chain: 'P', status: 'Committed' });
    const u = await stack.call('tx_status', { txID: UNKNOWN_ID });
    expect(u.structured).toMatchObject({ found: false, chain: 'unknown', status: 'Unknown' });
    expect(u.text).toMatch(/was not found/);
    const block = stack.devnet.state.pBlocks.at(-1)!;
    const b = await stack.call('tx_status', { txID: block.id });
    expect(b.structured).toMatchObject({ found: true, chain: 'P', blockHeight: String(block.height) });
    expect(b.text).toMatch(/P-Chain block, not a transaction/);
  });

  it('without an indexer, finds P transactions on the node and no longer asks for one', async () => {
    const own = await inMemoryStack({ devnet: stack.devnet, env: { CHAIN_MCP_INDEXER_URL: '' } });
    try {
      const u = await own.call('tx_status', { txID: UNKNOWN_ID });
      expect(u.structured?.found).toBe(false);
      expect(u.text).not.toMatch(/CHAIN_MCP_INDEXER_URL/);
      const p = txs((t) => t.chain === 'P' && t.status === 'Accepted')[0]!;
      expect((await own.call('tx_status', { txID: p.id })).structured).toMatchObject({ found: true, chain: 'P', status: 'Committed' });
    } finally {
      await own.close();
    }
  });

  it('wait_for_tx polls with progress notifications until the transaction is accepted', async () => {
    const tx = txs((t) => t.chain === 'X' && t.status === 'Processing')[0]!;
    const progress: Progress[] = [];
    const flip = setTimeout(() => {
      tx.status = 'Accepted';
    }, 700);
    try {
      const result = await stack.client.callTool(
        { name: 'wait_for_tx', arguments: { txID: tx.id, chain: 'X', timeoutSeconds: 20, intervalSeconds: 0.2 } },
        { onprogress: (p) => progress.push(p), resetTimeoutOnProgress: true },
      );
      const s = result.structuredContent as Rec;
      expect(result.isError).not.toBe(true);
      expect(s).toMatchObject({ txID: tx.id, status: 'Accepted', final: true, chain: 'X' });
      expect(s.polls).toBeGreaterThanOrEqual(2);
      expect(progress.length).toBe(s.polls);
      expect(progress[0]!.total).toBe(20);
      expect(progress[0]!.message).toMatch(/Processing/);
      expect(progress.at(-1)!.message).toMatch(/Accepted/);
      for (let i = 1; i < progress.length; i++) expect(progress[i]!.progress).toBeGreaterThanOrEqual(progress[i - 1]!.progress);
    } finally {
      clearTimeout(flip);
    }
  });

  it('wait_for_tx gives up after its timeout and says so', async () => {
    const tx = txs((t) => t.chain === 'X' && t.status === 'Processing')[0] ?? txs((t) => t.chain === 'X')[0]!;
    tx.status = 'Processing';
    const started = Date.now();
    const r = await stack.call('wait_for_tx', { txID: tx.id, timeoutSeconds: 1, intervalSeconds: 0.3 });
    expect(Date.now() - started).toBeLessThan(5000);
    expect(r.structured).toMatchObject({ status: 'Processing', final: false });
    expect((r.structured as Rec).polls).toBeGreaterThanOrEqual(2);
    expect(r.text).toMatch(/still Processing/);
    const bad = await stack.call('wait_for_tx', { txID: tx.id, timeoutSeconds: 301 });
    expect(bad.isError).toBe(true);
    expect(bad.text).toMatch(/timeoutSeconds/);
  });
});
