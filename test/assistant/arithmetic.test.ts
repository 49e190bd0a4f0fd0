import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDevnet } from '../../src/devnet/index.js';
import { addTx, bareAddress, type DevnetState, registeredId, utxosOf } from '../../src/devnet/state/index.js';
import { nativeAmountOf } from '../../src/summarize/indexer.js';
import { inMemoryStack, type Stack } from '../helpers/stack.js';

// biome-ignore lint/suspicious/noExplicitAny: structured results are checked field by field
type Rec = Record<string, any>;

/**
 * The composite answers' arithmetic and the indexer's history, each pinned by a case that fails
 * with one named bug put back (issue 33 item 6): another asset's waiting imports counted as native,
 * one key counted twice (X- and P- address, 0x in two letter cases), every pending delegator of the
 * network counted as one validator's, a UTXO seen on two overlapping pages counted twice, NFT
 * outputs read as fungible, NFT owners read from inside the payload, native amounts at 0 decimals.
 */

const native = (state: DevnetState, utxos: Array<{ assetID: string; amount: bigint }>) => utxos.filter((u) => u.assetID === state.nativeAssetID).reduce((s, u) => s + u.amount, 0n);

describe('composite arithmetic and indexer history (camino node)', () => {
  let stack: Stack;
  let state: DevnetState;
  beforeAll(async () => {
    stack = await inMemoryStack({ devnet: await startDevnet({ dialect: 'camino' }) });
    state = stack.devnet.state;
  });
  afterAll(async () => {
    await stack.close();
    await stack.devnet.close();
  });

  it("account_overview counts only the native asset's waiting imports in the native total", async () => {
    const d0 = state.users.get(state.devnetUser)!.keys[0]!;
    const gld = [...state.assets.values()].find((a) => a.symbol === 'GLD')!;
    const gldUtxo = utxosOf(state, 'X', [d0.x]).find((u) => u.assetID === gld.id)!;
    // GLD exported from X to C waits beside the native export already seeded.
    addTx(state, {
      chain: 'X',
      type: 'export',
      inputs: [gldUtxo.id],
      outputs: [{ assetID: gld.id, amount: gldUtxo.amount, addresses: [`C-${d0.bech32}`], chain: 'C' }],
      destinationChain: 'C',
      fee: 0n,
    });
    expect(utxosOf(state, 'C', [d0.bech32], { sourceChain: 'X' }).some((u) => u.assetID === gld.id)).toBe(true);
    const r = await stack.call('account_overview', { addresses: [d0.x] });
    const o = r.structured as Rec;
    const toC = (o.accounts[0].waiting as Rec[]).find((w) => w.on === 'C')!;
    expect(toC.amount.value).toBe(String(native(state, utxosOf(state, 'C', [d0.bech32], { sourceChain: 'X' }))));
    const held =
      native(state, utxosOf(state, 'X', [d0.x])) +
      native(state, utxosOf(state, 'P', [d0.p])) +
      native(state, utxosOf(state, 'X', [d0.x], { sourceChain: 'P' })) +
      native(state, utxosOf(state, 'X', [d0.x], { sourceChain: 'C' })) +
      native(state, utxosOf(state, 'C', [d0.bech32], { sourceChain: 'X' }));
    expect(o.nativeTotal.value).toBe(String(held));
    // The waiting line names the next step and the tool that does it.
    expect(toC.nextStep).toContain('cx_import');
    expect(r.text).toMatch(/waiting for import on C .*not spendable until imported: import it with cx_import/);
  });

  it('account_overview counts one key once, given its X- and P- addresses', async () => {
    const d1 = state.users.get(state.devnetUser)!.keys[1]!;
    const one = (await stack.call('account_overview', { addresses: [d1.x] })).structured as Rec;
    const both = (await stack.call('account_overview', { addresses: [d1.x, d1.p] })).structured as Rec;
    expect(both.accounts).toHaveLength(1);
    expect(both.nativeTotal).toEqual(one.nativeTotal);
  });

  it('account_overview counts one 0x address once, given in two letter cases', async () => {
    const d1 = state.users.get(state.devnetUser)!.keys[1]!;
    const upper = `0x${d1.c.slice(2).toUpperCase()}`;
    const one = (await stack.call('account_overview', { addresses: [d1.c] })).structured as Rec;
    const both = (await stack.call('account_overview', { addresses: [d1.c, upper] })).structured as Rec;
    expect(both.evm).toHaveLength(1);
    expect(both.nativeTotalWei).toEqual(one.nativeTotalWei);
    expect(both.nativeTotalWei.value).toBe(String(state.cBalances.get(d1.c)));
  });

  it("validator_lookup counts only this validator's pending delegators, not the network's", async () => {
    const mine = state.validators[3]!;
    const other = state.validators[4]!;
    state.pendingDelegators.push({
      txID: registeredId('pending-delegator:other'),
      nodeID: other.nodeID,
      startTime: state.now() + 86_400,
      endTime: state.now() + 20 * 86_400,
      stakeAmount: 70_000_000_000n,
      rewardOwner: { locktime: 0n, threshold: 1, addresses: [other.rewardOwner.addresses[0]!] },
      potentialReward: 0n,
    });
    const own = state.pendingDelegators.filter((d) => d.nodeID === mine.nodeID);
    expect(own.length).toBeGreaterThan(0);
    const r = await stack.call('validator_lookup', { nodeID: mine.nodeID });
    expect(r.isError, r.text).toBe(false);
    expect((r.structured as Rec).pendingDelegators).toEqual({
      count: own.length,
      stake: expect.objectContaining({ value: String(own.reduce((s, d) => s + d.stakeAmount, 0n)) }),
    });
  });

  it('xvm_getUTXOs with fetchAll counts a UTXO seen on two overlapping pages once', async () => {
    const [a0, a1] = state.users.get('alice')!.keys;
    const source = utxosOf(state, 'X', [a0!.x]).find((u) => u.assetID === state.nativeAssetID && u.addresses.length === 1)!;
    // One output owned by both of alice's addresses: the node lists it under each.
    addTx(state, {
      chain: 'X',
      type: 'base',
      inputs: [source.id],
      outputs: [{ assetID: state.nativeAssetID, amount: source.amount - state.fees.txFee, addresses: [a0!.x, a1!.x], chain: 'X' }],
      fee: state.fees.txFee,
    });
    const distinct = [...new Map([...utxosOf(state, 'X', [a0!.x]), ...utxosOf(state, 'X', [a1!.x])].map((u) => [u.id, u])).values()];
    const r = await stack.call('xvm_getUTXOs', { addresses: [a0!.x, a1!.x], fetchAll: true, limit: 1 });
    expect(r.isError, r.text).toBe(false);
    const o = r.structured as Rec;
    expect(o.duplicates).toBe(1);
    expect(o.totals.find((t: Rec) => t.assetID === state.nativeAssetID).amount.value).toBe(String(native(state, distinct)));
  });

  it("xvm_getUTXOs reads an NFT output's owners after its payload", async () => {
    const a0 = state.users.get('alice')!.keys[0]!;
    const nft = utxosOf(state, 'X', [a0.x]).find((u) => u.groupID !== undefined)!;
    expect((nft.payload ?? '0x').length).toBeGreaterThan(2);
    const r = await stack.call('xvm_getUTXOs', { addresses: [a0.x], items: 50 });
    expect(r.isError, r.text).toBe(false);
    const decoded = ((r.structured as Rec).utxos as Rec[]).find((u) => u.utxoID === `${nft.txID}:${nft.outputIndex}`);
    expect(decoded, r.text).toMatchObject({ groupID: nft.groupID, threshold: nft.threshold, locktime: String(nft.locktime), addresses: nft.addresses.map(bareAddress) });
  });

  it('indexer outputs show an NFT as an NFT, never as a fungible amount', async () => {
    const d0 = state.users.get(state.devnetUser)!.keys[0]!;
    const nft = utxosOf(state, 'X', [d0.x]).find((u) => u.groupID !== undefined)!;
    const r = await stack.call('indexer_getOutput', { id: nft.id });
    expect(r.isError, r.text).toBe(false);
    expect((r.structured as Rec).amount.display).toMatch(/^NFT \("ART"\)$/);
    expect(r.text).toContain('NFT ("ART") to');
  });

  it('native amounts keep 9 decimals when the indexer has no record of the native asset', () => {
    expect(nativeAmountOf('1000000', undefined).display).toBe('0.001');
    expect(nativeAmountOf('1000000', { assetID: 'x', symbol: '', name: '', denomination: 0, known: false }).display).toBe('0.001');
  });
});
