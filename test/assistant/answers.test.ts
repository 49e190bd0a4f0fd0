import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatAmount } from '../../src/codec/index.js';
import { startDevnet } from '../../src/devnet/index.js';
import type { DevnetDialect } from '../../src/devnet/rpc.js';
import { type RawApi, rawApi } from '../../tools/eval/raw.js';
import { inMemoryStack, type Stack } from '../helpers/stack.js';

// biome-ignore lint/suspicious/noExplicitAny: raw answers and structured results are checked field by field
type Rec = Record<string, any>;

const cam = (v: bigint | string, symbol = 'CAM') => formatAmount(BigInt(v), { decimals: 9, symbol });

/**
 * Answers a person can repeat (issue 42): each text is checked against what the raw node and indexer
 * say, through the MCP protocol, on a Camino node and on a spec-API node.
 */
describe.each(['spec', 'camino'] as DevnetDialect[])('answers a person can repeat (%s node)', (dialect) => {
  let stack: Stack;
  let raw: RawApi;
  beforeAll(async () => {
    stack = await inMemoryStack({ devnet: await startDevnet({ dialect, keystoreApi: true }) });
    raw = rawApi(stack.devnet);
  });
  afterAll(async () => {
    await stack.close();
    await stack.devnet.close();
  });

  it("indexer_listAssets and indexer_getAsset give the node's supply of the native asset as the network's, in the first line", async () => {
    const supply = (await raw.rpc('P', 'platform.getCurrentSupply')) as Rec;
    const nodeSupply = cam(supply.supply);
    const status = (await raw.rest('/v2')) as Rec;
    const chains = Object.values(status.chains ?? {}) as Rec[];
    const nativeID = String(chains[0]?.avaxAssetID ?? chains[0]?.nativeAssetID);
    const indexed = (await raw.rest(`/v2/assets/${nativeID}`)) as Rec;
    expect(BigInt(indexed.currentSupply)).not.toBe(BigInt(supply.supply)); // the two figures differ: which is which matters
    const list = await stack.call('indexer_listAssets');
    const first = list.text.split('\n')[0]!;
    expect(first).toContain(`network supply at most ${nodeSupply} (the node, platform.getCurrentSupply)`);
    expect(first).toMatch(/the indexer's "currentSupply" [\d,.]+ "CAM" is only what it indexed on this chain, not the network's supply/);
    const one = await stack.call('indexer_getAsset', { id: nativeID });
    expect(one.text.split('\n')[0]).toContain(`network supply at most ${nodeSupply}`);
    expect(one.structured).toMatchObject({ native: true, networkSupply: { value: String(supply.supply) } });
    // Another asset keeps its own supply, with no network figure.
    const gld = (await stack.call('indexer_getAsset', { id: 'GLD' })).structured as Rec;
    expect(gld.native).toBeUndefined();
    expect(gld.networkSupply).toBeUndefined();
  });

  it("network_overview's offer lines carry the no-rewards period and what 100,000 CAM earns by the node's formula", async () => {
    const offers = ((await raw.rpc('P', 'platform.getAllDepositOffers', { timestamp: String(Math.floor(Date.now() / 1000)) })) as Rec).depositOffers as Rec[];
    const text = (await stack.call('network_overview')).text;
    for (const o of offers) {
      const f = (name: string) => o[name] ?? o[name[0]!.toUpperCase() + name.slice(1)];
      const noRewards = BigInt(f('noRewardsPeriodDuration'));
      const max = BigInt(f('maxDuration'));
      // caminogo deposit.TotalReward over the longest duration.
      const reward = (100_000_000_000_000n * BigInt(f('interestRateNominator')) * (max - noRewards)) / (1_000_000n * 31_536_000n);
      expect(text).toContain(`100,000 CAM for ${max / 86_400n} days earns ${cam(reward)}`);
      if (noRewards > 0n) expect(text).toContain(`no rewards in the last ${noRewards / 86_400n} days`);
    }
    expect(text).toContain('earns 7,671.232876712 CAM'); // the seeded 8 % offer, 365 days, 15 without rewards
  });

  it('platform_getTx (json) tells the transaction in its text: kind, destination, amounts, fee', async () => {
    const exp = [...stack.devnet.state.txs.values()].find((t) => t.chain === 'P' && t.type === 'export')!;
    const tx = ((await raw.rpc('P', 'platform.getTx', { txID: exp.id, encoding: 'json' })) as Rec).tx.unsignedTx as Rec;
    const xID = ((await raw.rpc('info', 'info.getBlockchainID', { alias: 'X' })) as Rec).blockchainID;
    expect(tx.destinationChain).toBe(xID);
    const r = await stack.call('platform_getTx', { txID: exp.id, encoding: 'json' });
    expect(r.text).toContain(`${exp.id}: export to the X-Chain`);
    for (const o of tx.exportedOutputs as Rec[]) expect(r.text).toContain(`${cam(o.output.amount)} for ${o.output.addresses[0]} left the P-Chain`);
    const ins = (tx.inputs as Rec[]).reduce((s, i) => s + BigInt(i.input.amount), 0n);
    const outs = [...(tx.outputs as Rec[]), ...(tx.exportedOutputs as Rec[])].reduce((s, o) => s + BigInt(o.output.amount), 0n);
    expect(r.text).toContain(`fee ${cam(ins - outs)}`);
    expect(r.text).not.toContain('decoded in structuredContent');
  });

  it('indexer_getTransaction names an export\'s destination chain and shows its exported output as having left P', async () => {
    const exp = [...stack.devnet.state.txs.values()].find((t) => t.chain === 'P' && t.type === 'export')!;
    const rec = (await raw.rest(`/v2/transactions/${exp.id}`)) as Rec;
    const xID = ((await raw.rpc('info', 'info.getBlockchainID', { alias: 'X' })) as Rec).blockchainID;
    const left = (rec.outputs as Rec[]).filter((o) => o.chainID !== rec.chainID);
    expect(left.length).toBeGreaterThan(0);
    expect(left.every((o) => o.chainID === xID)).toBe(true);
    const r = await stack.call('indexer_getTransaction', { id: exp.id });
    expect(r.text.split('\n')[0]).toContain('on the P-Chain, exported to the X-Chain');
    for (const o of left) expect(r.text).toContain(`${cam(o.amount)} exported to the X-Chain for ${o.addresses[0]} (left this chain`);
    const stays = (rec.outputs as Rec[]).filter((o) => o.chainID === rec.chainID);
    for (const o of stays) expect(r.text).toMatch(new RegExp(`- ${cam(o.amount).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} to ${o.addresses[0]} \\(unspent\\)`));
  });

  it('platform_getBlockAtHeight lists each transaction with its kind and facts, or says in its first line that this node lacks the method', async () => {
    const height = stack.devnet.state.pBlocks.find((b) => b.txIDs.some((id) => stack.devnet.state.txs.get(id)?.type === 'export'))!.height;
    const r = await stack.call('platform_getBlockAtHeight', { height });
    if (dialect === 'spec') {
      expect(r.isError).toBe(true);
      expect(r.text.split('\n')[0]).toMatch(/^This node does not offer platform\.getBlockAtHeight: it is one of Camino's own P-Chain methods/);
      return;
    }
    const block = ((await raw.rpc('P', 'platform.getBlockAtHeight', { height, encoding: 'json' })) as Rec).block as Rec;
    for (const t of block.txs as Rec[]) expect(r.text).toContain(`- ${t.id}: export to the X-Chain: `);
    expect(r.text).toMatch(/fee 0\.001 CAM/);
  });

  it("list_toolsets' platform line names deposits, claimables, multisig aliases, registered nodes, blocks and upgrades", async () => {
    const dynamic = await inMemoryStack({ devnet: stack.devnet, env: { CHAIN_MCP_DYNAMIC: 'true' } });
    try {
      const line = (await dynamic.call('list_toolsets')).text.split('\n').find((l) => l.startsWith('- platform'))!;
      for (const word of ['deposits', 'claimable', 'multisig aliases', 'registered nodes', 'blocks', 'upgrades']) expect(line).toContain(word);
      const enabled = await dynamic.call('enable_toolset', { toolset: 'platform' });
      expect(enabled.text).toContain('- platform_getBlockAtHeight: ');
      expect(JSON.stringify(enabled.structured)).not.toContain('inputSchema');
    } finally {
      await dynamic.close();
    }
  });
});
