import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startDevnet, type Devnet } from '../../src/devnet/index.js';
import { RpcFault } from '../../src/devnet/rpc.js';
import type { Tx } from '../../src/devnet/state/index.js';
import { PRIMARY_NETWORK_ID } from '../../src/catalogue/assistant/shared.js';
import { inMemoryStack, type Stack } from '../helpers/stack.js';

/**
 * tx_status and wait_for_tx when a source fails or only one knows the transaction, and wait_for_tx
 * on one named chain (issue 44, group `camino`), through MCP against the simulator.
 */

// biome-ignore lint/suspicious/noExplicitAny: structured results are checked field by field
type Rec = Record<string, any>;

describe('tx_status and wait_for_tx: each source, failing or alone', () => {
  let devnet: Devnet;
  let stack: Stack;
  const tx = (pred: (t: Tx) => boolean) => [...devnet.state.txs.values()].find(pred)!;
  /** The status reads the node was asked, in order. */
  const methods = () =>
    devnet.router.requests
      .flatMap((r) => (Array.isArray(r.body) ? r.body : [r.body]))
      .map((b) => String((b as Rec).method))
      .filter((m) => /Status$/.test(m));
  const fail = (path: string, method: string) =>
    devnet.router.on(path, method, () => {
      throw new RpcFault('database closed');
    });

  beforeEach(async () => {
    devnet = await startDevnet();
    stack = await inMemoryStack({ devnet });
    devnet.router.record = true;
  });
  afterEach(async () => {
    await stack.close();
    await devnet.close();
  });

  const sources = async (txID: string) => {
    const r = await stack.call('tx_status', { txID });
    expect(r.isError, r.text).toBe(false);
    return r.structured as Rec;
  };
  /** The sources that answered, in order, then the failed ones (in the order they failed: any). */
  const named = (checks: Rec[]) => {
    const failed = checks.filter((c) => c.answer.startsWith('failed: '));
    expect(checks.slice(checks.length - failed.length)).toEqual(failed);
    return { answered: checks.slice(0, checks.length - failed.length).map((c) => c.source), failed: failed.map((c) => c.source).sort() };
  };

  it('a source that fails is named as failed and its answer left out; the others still find the transaction', async () => {
    const p = tx((t) => t.chain === 'P' && t.status === 'Accepted');
    fail('/ext/bc/X', 'xvm.getTxStatus');
    const noX = await sources(p.id);
    expect(noX).toMatchObject({ found: true, chain: 'P', status: 'Committed' });
    expect(named(noX.checks)).toEqual({ answered: ['cx_getAtomicTxStatus', 'platform_getTxStatus', 'indexer_getTransaction'], failed: ['X'] });
    expect(noX.checks.at(-1).answer).toMatch(/^failed: .*database closed/);

    fail('/ext/bc/C/cx', 'cx.getAtomicTxStatus');
    expect(named((await sources(p.id)).checks)).toEqual({ answered: ['platform_getTxStatus', 'indexer_getTransaction'], failed: ['C atomic', 'X'] });

    const x = tx((t) => t.chain === 'X' && t.status === 'Accepted');
    devnet.router.on('/ext/bc/X', 'xvm.getTxStatus', () => ({ status: 'Accepted' }));
    fail('/ext/P', 'platform.getTxStatus');
    const noP = await sources(x.id);
    expect(noP).toMatchObject({ chain: 'X', status: 'Accepted' });
    expect(named(noP.checks)).toEqual({ answered: ['xvm_getTxStatus', 'indexer_getTransaction'], failed: ['C atomic', 'P'] });
  });

  it('known only to the indexer: found on the chain the indexer names, accepted', async () => {
    const x = tx((t) => t.chain === 'X' && t.status === 'Accepted');
    const c = tx((t) => t.chain === 'C' && t.status === 'Accepted');
    const p = tx((t) => t.chain === 'P' && t.status === 'Accepted');
    // A node that no longer knows them (pruned): every status method says Unknown.
    devnet.router.on('/ext/bc/X', 'xvm.getTxStatus', () => ({ status: 'Unknown' }));
    devnet.router.on('/ext/bc/C/cx', 'cx.getAtomicTxStatus', () => ({ status: 'Unknown' }));
    devnet.router.on('/ext/P', 'platform.getTxStatus', () => ({ status: 'Unknown' }));
    for (const [t, chain, chainID] of [
      [x, 'X', devnet.state.chains.X],
      [c, 'C', devnet.state.chains.C],
      [p, 'P', PRIMARY_NETWORK_ID],
    ] as const) {
      const r = await stack.call('tx_status', { txID: t.id });
      expect(r.structured).toMatchObject({ found: true, chain, status: 'Accepted', meaning: `final: the network accepted it (known to the indexer, chain ${chainID})` });
      expect(r.text).toContain(`is on the ${chain}-Chain: Accepted`);
      // The indexer's check names the chain by its alias.
      expect((r.structured as Rec).checks.find((k: Rec) => k.source === 'indexer_getTransaction').answer).toMatch(new RegExp(`^\\w+ on chain ${chain}$`));
    }
    // The P read failing too: the indexer still places it.
    fail('/ext/P', 'platform.getTxStatus');
    expect((await sources(p.id)).chain).toBe('P');
  });

  it('refuses an ID that is not cb58, saying why; only an exact 0x hash is sent to the EVM tools', async () => {
    const r = await stack.call('tx_status', { txID: 'bad!' });
    expect(r.isError).toBe(true);
    expect(r.text).toContain('txID: expected cb58 text, found a character outside the base58 alphabet');
    const hash = `0x${'ab'.repeat(32)}`;
    expect((await stack.call('tx_status', { txID: hash })).text).toContain('is a 0x hash, a C-Chain EVM transaction');
    for (const near of [`${hash}ff`, `z${hash}`]) {
      const n = await stack.call('tx_status', { txID: near });
      expect(n.isError).toBe(true);
      expect(n.text).not.toContain('is a 0x hash');
    }
  });

  it('says what each source answered, a P block by its height, and asks no indexer when none is set', async () => {
    const block = devnet.state.pBlocks.at(-1)!;
    const b = await stack.call('tx_status', { txID: block.id });
    expect((b.structured as Rec).checks).toContainEqual({ source: 'platform_getBlock', answer: `P block at height ${block.height}` });
    const x = tx((t) => t.chain === 'X' && t.status === 'Accepted');
    const r = await stack.call('tx_status', { txID: x.id });
    const checks = (r.structured as Rec).checks as Rec[];
    expect(r.text).toContain(`Checked: ${checks.map((c) => `${c.source}: ${c.answer}`).join('; ')}.`);
    expect(checks[0]).toEqual({ source: 'xvm_getTxStatus', answer: 'Accepted' });
    const own = await inMemoryStack({ devnet, env: { CHAIN_MCP_INDEXER_URL: '' } });
    try {
      const bare = (await own.call('tx_status', { txID: x.id })).structured as Rec;
      expect(bare.checks.map((c: Rec) => c.source)).toEqual(['xvm_getTxStatus', 'cx_getAtomicTxStatus', 'platform_getTxStatus']);
    } finally {
      await own.close();
    }
  });

  it('wait_for_tx on P asks only the P-Chain, and gives the reason it was dropped', async () => {
    const p = tx((t) => t.chain === 'P' && t.status === 'Accepted');
    devnet.router.on('/ext/P', 'platform.getTxStatus', () => ({ status: 'Dropped', reason: 'failed verification: insufficient funds' }));
    const from = methods().length;
    const r = await stack.call('wait_for_tx', { txID: p.id, chain: 'P', timeoutSeconds: 5 });
    expect(r.structured).toMatchObject({ chain: 'P', status: 'Dropped', final: true, reason: 'failed verification: insufficient funds', polls: 1 });
    expect(methods().slice(from)).toEqual(['platform.getTxStatus']);
    expect(r.text).toContain('is Dropped on the P-Chain');
  });

  it('wait_for_tx on C asks only for the atomic status, and gives the block height', async () => {
    const c = tx((t) => t.chain === 'C' && t.status === 'Accepted');
    devnet.router.on('/ext/bc/C/cx', 'cx.getAtomicTxStatus', () => ({ status: 'Accepted', blockHeight: '42' }));
    const from = methods().length;
    const r = await stack.call('wait_for_tx', { txID: c.id, chain: 'C', timeoutSeconds: 5 });
    expect(r.structured).toMatchObject({ chain: 'C', status: 'Accepted', final: true, blockHeight: '42', polls: 1 });
    expect((r.structured as Rec).reason).toBeUndefined();
    expect(methods().slice(from)).toEqual(['cx.getAtomicTxStatus']);
  });

  it('wait_for_tx on C with a status the node leaves empty: Unknown, not final', async () => {
    const c = tx((t) => t.chain === 'C' && t.status === 'Accepted');
    devnet.router.on('/ext/bc/C/cx', 'cx.getAtomicTxStatus', () => ({}));
    const r = await stack.call('wait_for_tx', { txID: c.id, chain: 'C', timeoutSeconds: 1, intervalSeconds: 0.5 });
    expect(r.structured).toMatchObject({ chain: 'C', status: 'Unknown', final: false });
    expect((r.structured as Rec).blockHeight).toBeUndefined();
  });

  it('wait_for_tx on any chain carries the block height of a C transaction and the reason of a dropped P one', async () => {
    const c = tx((t) => t.chain === 'C' && t.status === 'Accepted');
    devnet.router.on('/ext/bc/C/cx', 'cx.getAtomicTxStatus', (q) => (q.txID === c.id ? { status: 'Accepted', blockHeight: '42' } : { status: 'Unknown' }));
    const rc = await stack.call('wait_for_tx', { txID: c.id, timeoutSeconds: 5 });
    expect(rc.structured).toMatchObject({ chain: 'C', status: 'Accepted', blockHeight: '42' });
    expect((rc.structured as Rec).reason).toBeUndefined();
    const p = tx((t) => t.chain === 'P' && t.status === 'Accepted');
    devnet.router.on('/ext/P', 'platform.getTxStatus', () => ({ status: 'Dropped', reason: 'failed verification' }));
    const rp = await stack.call('wait_for_tx', { txID: p.id, timeoutSeconds: 5 });
    expect(rp.structured).toMatchObject({ chain: 'P', status: 'Dropped', reason: 'failed verification' });
    expect((rp.structured as Rec).blockHeight).toBeUndefined();
  });
});
