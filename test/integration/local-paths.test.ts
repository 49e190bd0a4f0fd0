import { rmSync } from 'node:fs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { formatAmount } from '../../src/codec/index.js';
import { type Devnet, startDevnet } from '../../src/devnet/index.js';
import { RpcFault } from '../../src/devnet/rpc.js';
import { addManyUtxos, fund } from '../../src/devnet/state/ledger.js';
import { registeredId } from '../../src/devnet/state/index.js';
import { MemoryStore } from '../../src/state/memory.js';
import type { StateStore } from '../../src/state/store.js';
import { type ElicitAnswer, type ElicitParams, requestsFor, type SpendCall, type SpendHarness, spendHarness } from '../helpers/spend-harness.js';
import { ISSUE_METHODS, localKeyFolder, localSignerEnv } from '../helpers/local-key.js';
import { nodeAnswer } from '../helpers/node-answer.js';

/**
 * The local signer's paths no other in-process suite drives (issue 44, Stryker's NoCoverage list
 * of the `local` group): X payments of several outputs and assets, exports from X and P with their
 * imports, the key-only `from`/`changeAddr` rule, paging of the key's UTXOs, Camino deposits into
 * offers that take none, unlocks with nothing unlockable yet, claims of expired-deposit rewards,
 * reward owners that are not the key alone, and a state store that fails while a spend goes out.
 */

const CAM = 1_000_000_000n;
const DAY = 86_400;
const PASSPHRASE = 'correct horse battery staple 32';
const show = (v: bigint) => formatAmount(v, { decimals: 9, symbol: 'CAM' });

let dir: string;
const open: Array<{ close(): Promise<void> }> = [];

beforeAll(async () => {
  dir = await localKeyFolder('chain-mcp-local-paths-', PASSPHRASE);
});
afterEach(async () => {
  for (const o of open.splice(0).reverse()) await o.close();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function camino(): Promise<Devnet> {
  const devnet = await startDevnet({ dialect: 'camino' });
  devnet.router.record = true;
  open.push(devnet);
  return devnet;
}

async function harness(devnet: Devnet, env: Record<string, string> = {}, opts: { state?: StateStore; elicit?: (p: ElicitParams) => ElicitAnswer | Promise<ElicitAnswer> } = {}): Promise<SpendHarness> {
  const h = await spendHarness(devnet, {
    env: { ...localSignerEnv(dir), ...env },
    ...(opts.state ? { state: opts.state } : {}),
    ...(opts.elicit ? { elicit: opts.elicit, capabilities: { elicitation: { form: {} } } } : {}),
  });
  open.push(h);
  return h;
}

const issued = (devnet: Devnet) => ISSUE_METHODS.reduce((s, m) => s + requestsFor(devnet, m), 0);

async function previewOf(h: SpendHarness, tool: string, args: Record<string, unknown>): Promise<SpendCall> {
  const p = await h.call(tool, args);
  expect(p.isError, p.text).toBe(false);
  expect(p.structured?.status).toBe('preview');
  return p;
}

async function confirmed(h: SpendHarness, tool: string, args: Record<string, unknown>): Promise<{ preview: string[]; done: SpendCall; txID: string }> {
  const p = await previewOf(h, tool, args);
  const done = await h.call(tool, { ...args, confirm: p.structured!.confirmationId });
  expect(done.isError, done.text).toBe(false);
  expect(done.structured?.status).toBe('issued');
  return { preview: p.structured!.preview as string[], done, txID: String((done.structured!.result as { txID: string }).txID) };
}

const alice = (devnet: Devnet) => devnet.state.users.get('alice')!.keys[0]!;
const unspentOf = (devnet: Devnet, txID: string) => [...devnet.state.utxos.values()].filter((u) => u.txID === txID && !u.spentBy);

describe('X payments and cross-chain exports the local key builds itself', () => {
  it('xvm_sendMultiple pays CAM and another asset in one tx, each output named in that asset\'s units; the node holds exactly them', async () => {
    const devnet = await camino();
    const gld = [...devnet.state.assets.values()].find((a) => a.symbol === 'GLD')!;
    fund(devnet.state, 'X', devnet.localKey.x, [1_000n], { assetID: gld.id });
    const h = await harness(devnet);
    const a = alice(devnet);
    const { preview, done, txID } = await confirmed(h, 'xvm_sendMultiple', {
      outputs: [
        { assetID: 'CAM', amount: String(2n * CAM), to: a.x },
        { assetID: gld.id, amount: '250', to: a.x },
      ],
    });
    expect(preview).toContain(`Tx output 1: ${show(2n * CAM)} to ${a.x} (payment; unlocked)`);
    // 250 units of a 2-decimal asset: 2.5 GLD, shown with the asset's ID.
    expect(preview.some((l) => /^Tx output \d+: 2\.5 "GLD" of asset /.test(l) && l.includes(gld.id) && l.includes(`to ${a.x} (payment; unlocked)`)), preview.join('\n')).toBe(true);
    // GLD in = GLD out: nothing of it is burnt, so no "also burns" line; nothing follows the hash line (no memo given).
    expect(preview.filter((l) => l.includes('also burns'))).toEqual([]);
    expect(preview.at(-1)).toMatch(/^Tx approves exactly: sha256 0x[0-9a-f]{64} of \d+ unsigned bytes$/);
    expect(done.text.split('\n')[0]).toBe(`Sent 2 payments on X: issued once, txID ${txID}. Follow it with xvm_getTxStatus {"txID": "${txID}"}.`);
    const paid = unspentOf(devnet, txID).filter((u) => u.addresses.includes(a.x));
    expect(paid.map((u) => [u.assetID, u.amount]).sort()).toEqual([[devnet.state.nativeAssetID, 2n * CAM], [gld.id, 250n]].sort());
    expect(requestsFor(devnet, 'avm.issueTx')).toBe(1);
  });

  it('xvm_export to the key\'s own P address: "Move … from your X … to your P"; issued once, it says the P-Chain import completes it; to C it names cx_import', async () => {
    const devnet = await camino();
    const h = await harness(devnet);
    const key = devnet.localKey;
    const { preview, done, txID } = await confirmed(h, 'xvm_export', { to: key.p, amount: String(3n * CAM), assetID: 'CAM' });
    expect(preview[0]).toBe(`Move ${show(3n * CAM)} from your X account to your P account (${key.p.slice(0, 12)}…${key.p.slice(-4)}); it waits there to be imported`);
    expect(preview).toContain('Not done yet: the P-Chain import completes it (with txID of this export, to import only its outputs).');
    expect(done.text.split('\n')[0]).toBe(`Exported from X: issued once, txID ${txID}. Complete it with the P-Chain import {"sourceChain": "X", "txID": "${txID}"} once Accepted.`);
    const waiting = unspentOf(devnet, txID).filter((u) => u.chain === 'P' && u.sourceChain === 'X');
    expect(waiting.map((u) => u.amount)).toEqual([3n * CAM]);
    const toC = await previewOf(h, 'xvm_export', { to: `C-${key.x.slice(2)}`, amount: String(CAM), assetID: 'CAM' });
    expect(toC.structured!.preview).toContain('Not done yet: cx_import completes it (with txID of this export, to import only its outputs).');
  });

  it('platform_exportNative to the key\'s X address, then xvm_import of only that export (another waits too): both issued once, the import named "into your X account"', async () => {
    const devnet = await camino();
    const h = await harness(devnet);
    const key = devnet.localKey;
    const exp = await confirmed(h, 'platform_exportNative', { to: key.x, amount: String(4n * CAM) });
    expect(exp.preview).toContain('Not done yet: xvm_import completes it (with txID of this export).');
    expect(exp.done.text.split('\n')[0]).toBe(
      `Exported from P: issued once, txID ${exp.txID}. Complete it with xvm_import {"to": "${key.x}", "sourceChain": "P", "txID": "${exp.txID}"} once Accepted.`,
    );
    const other = await confirmed(h, 'platform_exportNative', { to: key.x, amount: String(CAM) });
    expect(requestsFor(devnet, 'platform.issueTx')).toBe(2);
    const imp = await confirmed(h, 'xvm_import', { to: key.x, sourceChain: 'P', txID: exp.txID });
    expect(imp.preview).toContain(`Imports: only the outputs of export ${exp.txID}`);
    expect(imp.preview.filter((l) => l.includes('(waiting in shared memory)'))).toHaveLength(1);
    expect(imp.preview[0]).toMatch(/^Import [\d.]+ CAM from the P-Chain into your X account \(/);
    expect(imp.done.text.split('\n')[0]).toBe(`Imported into X: issued once, txID ${imp.txID}. Follow it with xvm_getTxStatus {"txID": "${imp.txID}"}.`);
    const arrived = unspentOf(devnet, imp.txID).filter((u) => u.chain === 'X' && u.addresses.includes(key.x));
    expect(arrived.reduce((s, u) => s + u.amount, 0n)).toBe(4n * CAM - devnet.state.fees.txFee);
    // The other export still waits.
    expect(unspentOf(devnet, other.txID).filter((u) => u.chain === 'X').map((u) => u.amount)).toEqual([CAM]);
    expect(requestsFor(devnet, 'avm.issueTx')).toBe(1);
  });

  it('cx_import of one export from X while 20 CAM from an earlier one waits too: only that export is imported', async () => {
    const devnet = await camino();
    const h = await harness(devnet);
    const key = devnet.localKey;
    const exp = await confirmed(h, 'xvm_export', { to: `C-${key.x.slice(2)}`, amount: String(2n * CAM), assetID: 'CAM' });
    const p = await previewOf(h, 'cx_import', { to: key.c, sourceChain: 'X', txID: exp.txID });
    const lines = p.structured!.preview as string[];
    expect(lines).toContain(`Imports: only the outputs of export ${exp.txID}`);
    const inputs = lines.filter((l) => /^Tx input \d+: /.test(l));
    expect(inputs, lines.join('\n')).toHaveLength(1);
    expect(inputs[0]).toContain(show(2n * CAM));
  });

  it("a node whose eth_baseFee is not a hex quantity: the import is refused naming that answer, nothing sent", async () => {
    const devnet = await camino();
    for (const path of ['/ext/bc/C/rpc', `/ext/bc/${devnet.state.chains.C}/rpc`]) devnet.router.on(path, 'eth_baseFee', () => 'twenty-five gwei');
    const h = await harness(devnet);
    const r = await h.call('cx_import', { to: devnet.localKey.c, sourceChain: 'X' });
    expect(r.isError).toBe(true);
    expect(r.text.split('\n')[0]).toBe("The node's eth_baseFee answer is not a hex quantity.");
    expect(issued(devnet)).toBe(0);
  });

  it("under a spending limit the key's own addresses pass the own-address rule: several payments, exports to its own P and X", async () => {
    const devnet = await camino();
    const key = devnet.localKey;
    const a = alice(devnet);
    const h = await harness(devnet, { CHAIN_MCP_MAX_SPEND: String(50n * CAM), CHAIN_MCP_ALLOWED_RECIPIENTS: a.x });
    await previewOf(h, 'xvm_sendMultiple', { outputs: [{ assetID: 'CAM', amount: String(CAM), to: a.x }] });
    await previewOf(h, 'xvm_export', { to: key.p, amount: String(CAM), assetID: 'CAM' });
    await previewOf(h, 'platform_exportNative', { to: key.x, amount: String(CAM) });
    expect(issued(devnet)).toBe(0);
  });

  it('a transfer P->X with all: true sweeps what already waits for the key on X from P into its import, and the node consumes both', async () => {
    const devnet = await camino();
    const h = await harness(devnet);
    const key = devnet.localKey;
    const earlier = await confirmed(h, 'platform_exportNative', { to: key.x, amount: String(2n * CAM) });
    const { preview, done } = await confirmed(h, 'transfer', { to: key.x, amount: String(CAM), sourceChain: 'P', all: true });
    const importInputs = preview.filter((l) => /^Tx 2 of 2 input \d+: .*\(waiting in shared memory\)$/.test(l));
    expect(importInputs, preview.join('\n')).toHaveLength(2);
    expect(preview.some((l) => l.startsWith('Arrives: ') && l.includes('plus everything else waiting'))).toBe(true);
    const importID = String((done.structured!.result as { txID: string }).txID);
    expect(unspentOf(devnet, earlier.txID).filter((u) => u.chain === 'X')).toEqual([]);
    const arrived = unspentOf(devnet, importID).filter((u) => u.chain === 'X').reduce((s, u) => s + u.amount, 0n);
    expect(arrived).toBe(3n * CAM - devnet.state.fees.txFee);
  });

  it('an import of everything waiting from C that holds an asset the node cannot describe shows it in plain units of that asset', async () => {
    const devnet = await camino();
    const key = devnet.localKey;
    const stranger = registeredId('stranger-asset');
    // An export from C left by someone else: an asset this node has no description of.
    const tx = fund(devnet.state, 'X', key.x, [777n], { assetID: stranger });
    for (const u of devnet.state.utxos.values()) if (u.txID === tx.id) u.sourceChain = 'C';
    fund(devnet.state, 'X', key.x, [5n * CAM]);
    for (const u of devnet.state.utxos.values()) if (u.txID === [...devnet.state.txs.keys()].at(-1)) u.sourceChain = 'C';
    const h = await harness(devnet);
    const p = await previewOf(h, 'xvm_import', { to: key.x, sourceChain: 'C' });
    const lines = p.structured!.preview as string[];
    expect(lines.some((l) => /^Tx input \d+: 777 units of asset /.test(l) && l.includes(stranger)), lines.join('\n')).toBe(true);
  });
});

describe("the local signer spends only the key's own outputs", () => {
  it('from or changeAddr naming another address is refused naming that field, before anything is read or sent; the key\'s own is taken', async () => {
    const devnet = await camino();
    const h = await harness(devnet);
    const key = devnet.localKey;
    const a = alice(devnet);
    const args = { to: a.x, amount: String(CAM), assetID: 'CAM' };
    const from = await h.call('xvm_send', { ...args, from: [key.x, a.x] });
    expect(from.isError).toBe(true);
    expect(from.text.split('\n')[0]).toContain(`from: the local signer spends only its key's address ${key.x}; leave from out or give that address`);
    const change = await h.call('xvm_send', { ...args, changeAddr: a.x });
    expect(change.isError).toBe(true);
    expect(change.text.split('\n')[0]).toContain(`changeAddr: the local signer returns change to its key's address ${key.x}; leave changeAddr out or give that address`);
    expect(requestsFor(devnet, 'avm.getUTXOs')).toBe(0);
    const pFrom = await h.call('platform_exportNative', { to: key.x, amount: String(CAM), from: [a.p] });
    expect(pFrom.text.split('\n')[0]).toContain(`from: the local signer spends only its key's address ${key.p}`);
    await previewOf(h, 'xvm_send', { ...args, from: [key.x], changeAddr: key.x });
    expect(issued(devnet)).toBe(0);
  });
});

describe("the key's UTXOs, page by page", () => {
  it('more than one page (1,024) of X UTXOs: every page is read, the next asked from the last endIndex', async () => {
    const devnet = await camino();
    addManyUtxos(devnet.state, 'X', devnet.localKey.x, 1_100);
    const h = await harness(devnet);
    await previewOf(h, 'xvm_send', { to: alice(devnet).x, amount: String(CAM), assetID: 'CAM' });
    const pages = devnet.router.requests.flatMap((r) => {
      const body = r.body as { method?: string; params?: Record<string, unknown> };
      return body.method === 'avm.getUTXOs' ? [body.params!] : [];
    });
    expect(pages).toHaveLength(2);
    expect(pages[0]!.startIndex).toBeUndefined();
    expect(pages[1]!.startIndex).toBeDefined();
  });

  it('a node answering getUTXOs with null is read as no UTXOs: the send cannot be built, said in one line; nothing sent', async () => {
    const devnet = await camino();
    devnet.router.on('/ext/bc/X', 'xvm.getUTXOs', () => null);
    const h = await harness(devnet);
    const r = await h.call('xvm_send', { to: alice(devnet).x, amount: String(CAM), assetID: 'CAM' });
    expect(r.isError).toBe(true);
    expect(r.text.split('\n')[0]).toMatch(/^Cannot build this transaction: .* Nothing was sent\.$/);
    expect(issued(devnet)).toBe(0);
  });

  it('more than 8,192: refused naming the bound and how to consolidate, after 8 pages; nothing sent', async () => {
    const devnet = await camino();
    addManyUtxos(devnet.state, 'X', devnet.localKey.x, 8_200);
    const h = await harness(devnet);
    const r = await h.call('xvm_send', { to: alice(devnet).x, amount: String(CAM), assetID: 'CAM' });
    expect(r.isError).toBe(true);
    expect(r.text.split('\n')[0]).toBe('The key holds more than 8192 UTXOs on X; the local signer reads at most that many. Nothing was sent.');
    expect(r.text).toContain('Consolidate them first with a send to your own address in several smaller steps.');
    expect(requestsFor(devnet, 'avm.getUTXOs')).toBe(8);
    expect(issued(devnet)).toBe(0);
  });

  it('a getUTXOs answer without a utxos list is read as no UTXOs: nothing to spend, said as such, nothing sent', async () => {
    const devnet = await camino();
    devnet.router.on('/ext/bc/X', 'xvm.getUTXOs', () => ({ numFetched: '0', endIndex: { address: '', utxo: '' }, encoding: 'hex' }));
    const h = await harness(devnet);
    const r = await h.call('xvm_send', { to: alice(devnet).x, amount: String(CAM), assetID: 'CAM' });
    expect(r.isError).toBe(true);
    expect(r.text.split('\n')[0]).toMatch(/^Cannot build this transaction: .* Nothing was sent\.$/);
    expect(issued(devnet)).toBe(0);
  });
});

describe("Camino's deposits, unlocks and claims: what the node would refuse is refused first", () => {
  it('a deposit into a locked offer, or into one that takes deposits only with its owner\'s permission, names offerID; nothing sent', async () => {
    const devnet = await camino();
    const h = await harness(devnet);
    const locked = devnet.state.depositOffers.find((o) => o.flags === 1n && o.start <= devnet.state.now() && devnet.state.now() < o.end)!;
    const r = await h.call('platform_deposit', { offerID: locked.id, amount: String(200n * CAM), duration: 400 * DAY });
    expect(r.isError).toBe(true);
    expect(r.text.split('\n')[0]).toContain(`offerID: offer ${locked.id} is locked and takes no deposits`);
    const standard = devnet.state.depositOffers[0]!;
    standard.ownerAddress = registeredId('offer-owner');
    const owned = await h.call('platform_deposit', { offerID: standard.id, amount: String(5n * CAM), duration: 60 * DAY });
    expect(owned.isError).toBe(true);
    expect(owned.text.split('\n')[0]).toContain(`offerID: offer ${standard.id} takes deposits only with its owner's signed permission, which this server does not build`);
    expect(issued(devnet)).toBe(0);
  });

  it('an unlock before the deposit\'s unlock period starts says when it starts (that date, in UTC); one fully unlocked so far says to wait', async () => {
    const devnet = await camino();
    const s = devnet.state;
    const offer = s.depositOffers[0]!;
    const owner = { locktime: 0n, threshold: 1, addresses: [devnet.localKey.p] };
    const early = registeredId('paths:early-deposit');
    const start = s.now() - 10 * DAY;
    s.deposits.set(early, { txID: early, offerID: offer.id, amount: 5n * CAM, unlockedAmount: 0n, claimedRewardAmount: 0n, start, duration: 100 * DAY, rewardOwner: owner });
    const h = await harness(devnet);
    const r = await h.call('platform_unlockDeposit', { depositTxIDs: [early] });
    expect(r.isError).toBe(true);
    const starts = new Date((start + 100 * DAY - offer.unlockPeriodDuration) * 1000).toISOString().slice(0, 16).replace('T', ' ');
    expect(r.text.split('\n')[0]).toContain(`depositTxIDs: nothing is unlockable now (${early}: unlocking starts about ${starts} UTC)`);
    // In its unlock period with everything unlockable so far already unlocked.
    const drained = registeredId('paths:drained-deposit');
    s.deposits.set(drained, { txID: drained, offerID: offer.id, amount: 3n * CAM, unlockedAmount: 3n * CAM, claimedRewardAmount: 0n, start: s.now() - 80 * DAY, duration: 100 * DAY, rewardOwner: owner });
    const w = await h.call('platform_unlockDeposit', { depositTxIDs: [drained] });
    expect(w.text.split('\n')[0]).toContain(`depositTxIDs: nothing is unlockable now (${drained}: nothing more until more of its unlock period passes)`);
    expect(issued(devnet)).toBe(0);
  });

  it('an unlock whose unlock period starts exactly now: nothing unlockable yet, and nothing more to wait for than the period passing', async () => {
    const devnet = await camino();
    const offer = devnet.state.depositOffers[0]!;
    const id = registeredId('paths:at-period-start');
    const now = devnet.state.now();
    const start = now - 100 * DAY + offer.unlockPeriodDuration;
    devnet.router.on('/ext/P', 'platform.getDeposits', () => ({
      deposits: [{ depositTxID: id, depositOfferID: offer.id, amount: String(5n * CAM), unlockedAmount: '0', claimedRewardAmount: '0', start: String(start), duration: 100 * DAY, rewardOwner: { locktime: '0', threshold: '1', addresses: [devnet.localKey.p] } }],
      availableRewards: ['0'],
      timestamp: String(now),
    }));
    const h = await harness(devnet);
    const r = await h.call('platform_unlockDeposit', { depositTxIDs: [id] });
    expect(r.isError).toBe(true);
    expect(r.text.split('\n')[0]).toContain(`depositTxIDs: nothing is unlockable now (${id}: nothing more until more of its unlock period passes)`);
    expect(issued(devnet)).toBe(0);
  });

  it("a claim of one deposit's reward alone is one claim: no claim of the key's treasury rewards is added", async () => {
    const devnet = await camino();
    const key = devnet.localKey;
    const id = registeredId('local-signer:deposit');
    const h = await harness(devnet);
    const { preview } = await confirmed(h, 'platform_claim', { claims: [{ kind: 'deposit', depositTxID: id, amount: '1000' }], to: key.p });
    expect(preview.filter((l) => /^Tx claim \d+: /.test(l))).toEqual([`Tx claim 1: ${show(1_000n)}, reward of deposit ${id}`]);
    expect(preview.filter((l) => l.startsWith('Claimable now, claim '))).toHaveLength(1);
    expect(devnet.state.deposits.get(id)!.claimedRewardAmount).toBe(1_000n);
    // Only the deposit is read: no owner's claimables are asked for.
    expect(requestsFor(devnet, 'platform.getClaimables')).toBe(0);
  });

  it('a claim of two deposits\' rewards: each checked against, and shown with, its own claimable amount as the node states it', async () => {
    const devnet = await camino();
    const ids = [registeredId('local-signer:deposit'), registeredId('local-signer:expired-deposit')];
    const { availableRewards } = await nodeAnswer<{ availableRewards: string[] }>(devnet.nodeUrl, '/ext/P', 'platform.getDeposits', { depositTxIDs: ids });
    const [first, second] = availableRewards.map(BigInt) as [bigint, bigint];
    expect(first).not.toBe(second);
    const h = await harness(devnet);
    const p = await previewOf(h, 'platform_claim', { claims: ids.map((depositTxID) => ({ kind: 'deposit', depositTxID, amount: '1' })), to: devnet.localKey.p });
    expect((p.structured!.preview as string[]).filter((l) => l.startsWith('Claimable now, claim '))).toEqual([`Claimable now, claim 1: ${show(first)}`, `Claimable now, claim 2: ${show(second)}`]);
    const over = await h.call('platform_claim', { claims: [{ kind: 'deposit', depositTxID: ids[0], amount: '1' }, { kind: 'deposit', depositTxID: ids[1], amount: String(second + 1n) }], to: devnet.localKey.p });
    expect(over.isError).toBe(true);
    expect(over.text.split('\n')[0]).toContain(`claims[1].amount: ${show(second + 1n)} is more than the ${show(second)} claimable now`);
    expect(issued(devnet)).toBe(0);
  });

  it("the key's own rewards, named between two deposits' rewards, are one claim at the place they were first named", async () => {
    const devnet = await camino();
    const mine = devnet.state.claimables.find((c) => c.owner.threshold === 1 && c.owner.addresses.length === 1 && c.owner.addresses[0] === devnet.localKey.p)!;
    mine.expiredDepositRewards = 700_000_000n;
    const [a, b] = [registeredId('local-signer:deposit'), registeredId('local-signer:expired-deposit')];
    const h = await harness(devnet);
    const owner = devnet.localKey.p;
    const p = await previewOf(h, 'platform_claim', {
      claims: [
        { kind: 'deposit', depositTxID: a, amount: '1' },
        { kind: 'validator', owner, amount: '2' },
        { kind: 'deposit', depositTxID: b, amount: '3' },
        { kind: 'expiredDeposit', owner, amount: '4' },
      ],
      to: owner,
    });
    const claims = (p.structured!.preview as string[]).filter((l) => /^Tx claim \d+: /.test(l));
    expect(claims).toHaveLength(3);
    expect(claims[0]).toBe(`Tx claim 1: ${show(1n)}, reward of deposit ${a}`);
    expect(claims[1]).toMatch(new RegExp(`^Tx claim 2: ${show(6n).replace(/\./g, '\\.')}, all treasury rewards of owner `));
    expect(claims[2]).toBe(`Tx claim 3: ${show(3n)}, reward of deposit ${b}`);
  });

  it('a claim the node cannot back is refused naming the claim: a deposit it leaves out, another owner\'s rewards, an owner it lists nothing for; nothing sent', async () => {
    const devnet = await camino();
    const h = await harness(devnet);
    const id = registeredId('local-signer:deposit');
    const other = await h.call('platform_claim', { claims: [{ kind: 'validator', owner: alice(devnet).p, amount: '1' }], to: devnet.localKey.p });
    expect(other.isError).toBe(true);
    expect(other.text.split('\n')[0]).toContain(`claims[0].owner: the local signer claims only its key's own rewards (${devnet.localKey.p})`);
    devnet.router.on('/ext/P', 'platform.getDeposits', () => ({ deposits: [], availableRewards: [], timestamp: String(devnet.state.now()) }));
    const left = await h.call('platform_claim', { claims: [{ kind: 'deposit', depositTxID: id, amount: '1' }], to: devnet.localKey.p });
    expect(left.isError).toBe(true);
    expect(left.text.split('\n')[0]).toContain(`claims[0].depositTxID: the node has no deposit ${id}`);
    devnet.router.on('/ext/P', 'platform.getClaimables', () => ({ claimables: [] }));
    const none = await h.call('platform_claim', { claims: [{ kind: 'expiredDeposit', owner: devnet.localKey.p, amount: '1' }], to: devnet.localKey.p });
    expect(none.isError).toBe(true);
    expect(none.text.split('\n')[0]).toContain(`claims[0].amount: ${show(1n)} is more than the ${show(0n)} claimable now`);
    expect(issued(devnet)).toBe(0);
  });

  it("a claim of the key's expired-deposit rewards alone: one claimable of that kind, the amount asked; the node pays it", async () => {
    const devnet = await camino();
    const key = devnet.localKey;
    const mine = devnet.state.claimables.find((c) => c.owner.threshold === 1 && c.owner.addresses.length === 1 && c.owner.addresses[0] === key.p)!;
    mine.expiredDepositRewards = 700_000_000n;
    const h = await harness(devnet);
    const { preview } = await confirmed(h, 'platform_claim', { claims: [{ kind: 'expiredDeposit', owner: key.p, amount: '600000000' }], to: key.p });
    expect(preview).toContain(`Claims: ${show(600_000_000n)} in rewards to ${key.p}`);
    expect(preview).toContain(`Claimable now, claim 1: ${show(700_000_000n)}`);
    expect(preview.some((l) => l.startsWith(`Tx claim 1: ${show(600_000_000n)}, expired-deposit rewards of owner `))).toBe(true);
    expect(mine.expiredDepositRewards).toBe(100_000_000n);
    expect(mine.validatorRewards).toBe(1_500_000_000n);
  });

  describe("a deposit's rewards the key may claim only as their one owner (threshold 1, no locktime, the key alone)", () => {
    const cases: Array<[string, (p: string, other: string) => { locktime: bigint; threshold: number; addresses: string[] }]> = [
      ['the key with a locktime', (p) => ({ locktime: 4_000_000_000n, threshold: 1, addresses: [p] })],
      ['the key first of two owners, either signing', (p, other) => ({ locktime: 0n, threshold: 1, addresses: [p, other] })],
      ['the key and another, both signing', (p, other) => ({ locktime: 0n, threshold: 2, addresses: [p, other] })],
      // No signature needed: not the key's alone (a node refuses such an owner; one that states it is not believed).
      ['the key alone at threshold 0', (p) => ({ locktime: 0n, threshold: 0, addresses: [p] })],
    ];
    for (const [name, ownerOf] of cases) {
      it(`${name}: refused naming the deposit; nothing sent`, async () => {
        const devnet = await camino();
        const id = registeredId('local-signer:deposit');
        const d = devnet.state.deposits.get(id)!;
        d.rewardOwner = ownerOf(devnet.localKey.p, alice(devnet).p);
        const h = await harness(devnet);
        const r = await h.call('platform_claim', { claims: [{ kind: 'deposit', depositTxID: id, amount: '1' }], to: devnet.localKey.p });
        expect(r.isError).toBe(true);
        expect(r.text.split('\n')[0]).toContain(`claims[0].depositTxID: its rewards belong to another owner than the key alone (${devnet.localKey.p})`);
        expect(issued(devnet)).toBe(0);
      });
    }
  });

  it("an unlock is the share of the unlock period passed at the node's time, not this server's: a node 5 days behind accepts it and holds exactly it", async () => {
    const devnet = await camino();
    const behind = devnet.state.now() - 5 * DAY;
    devnet.state.now = () => behind;
    const h = await harness(devnet);
    const id = registeredId('local-signer:deposit');
    const d = devnet.state.deposits.get(id)!;
    const offer = devnet.state.depositOffers.find((o) => o.id === d.offerID)!;
    // 15 of its 30 days of unlock period have passed at the node's time.
    const share = (d.amount * BigInt(behind - (d.start + d.duration - offer.unlockPeriodDuration))) / BigInt(offer.unlockPeriodDuration);
    const { preview } = await confirmed(h, 'platform_unlockDeposit', { depositTxIDs: [id] });
    expect(preview).toContain(`Unlocks: ${show(share)} of deposit ${id}`);
    expect(d.unlockedAmount).toBe(share);
  });

  it('a running deposit in an offer with no unlock period: nothing unlockable until it ends, and the answer says when; nothing sent', async () => {
    const devnet = await camino();
    const id = registeredId('local-signer:deposit');
    const d = devnet.state.deposits.get(id)!;
    devnet.state.depositOffers.find((o) => o.id === d.offerID)!.unlockPeriodDuration = 0;
    const h = await harness(devnet);
    const r = await h.call('platform_unlockDeposit', { depositTxIDs: [id] });
    expect(r.isError).toBe(true);
    const ends = new Date((d.start + d.duration) * 1000).toISOString().slice(0, 16).replace('T', ' ');
    expect(r.text.split('\n')[0]).toContain(`depositTxIDs: nothing is unlockable now (${id}: unlocking starts about ${ends} UTC)`);
    expect(issued(devnet)).toBe(0);
  });

  it('a deposit ending exactly at the node\'s time has ended: unlocked whole, with no fee', async () => {
    const devnet = await camino();
    const id = registeredId('local-signer:expired-deposit');
    const d = devnet.state.deposits.get(id)!;
    const at = d.start + d.duration;
    devnet.router.on('/ext/P', 'platform.getDeposits', () => ({
      deposits: [{ depositTxID: id, depositOfferID: d.offerID, amount: String(d.amount), unlockedAmount: '0', claimedRewardAmount: '0', start: String(d.start), duration: d.duration, rewardOwner: { locktime: '0', threshold: '1', addresses: [devnet.localKey.p] } }],
      availableRewards: ['0'],
      timestamp: String(at),
    }));
    const h = await harness(devnet);
    const p = await previewOf(h, 'platform_unlockDeposit', { depositTxIDs: [id] });
    expect(p.structured!.preview).toContain(`Unlocks: ${show(d.amount)} of deposit ${id} (ended: unlocked whole, no fee)`);
  });

  it("a running deposit whose offer the node does not list at the deposit's start: refused naming it, since what is unlockable cannot be told; nothing sent", async () => {
    const devnet = await camino();
    devnet.router.on('/ext/P', 'platform.getAllDepositOffers', () => ({ depositOffers: [] }));
    const h = await harness(devnet);
    const id = registeredId('local-signer:deposit');
    const r = await h.call('platform_unlockDeposit', { depositTxIDs: [id] });
    expect(r.isError).toBe(true);
    expect(r.text.split('\n')[0]).toContain(`depositTxIDs: deposit ${id}'s offer is not known to the node, so what is unlockable cannot be told`);
    expect(issued(devnet)).toBe(0);
  });

  it('an unlock under a spending limit: nothing leaves the key but the fee, so it is previewed', async () => {
    const devnet = await camino();
    const h = await harness(devnet, { CHAIN_MCP_MAX_SPEND: '1 CAM', CHAIN_MCP_MAX_SPEND_PER_DAY: '2 CAM' });
    await previewOf(h, 'platform_unlockDeposit', { depositTxIDs: [registeredId('local-signer:deposit')] });
  });

  it('a node answering platform.getDeposits with null is read as no deposits: nothing is unlockable, said in one line; nothing sent', async () => {
    const devnet = await camino();
    devnet.router.on('/ext/P', 'platform.getDeposits', () => null);
    const h = await harness(devnet);
    const r = await h.call('platform_unlockDeposit', { depositTxIDs: [registeredId('local-signer:deposit')] });
    expect(r.isError).toBe(true);
    expect(r.text.split('\n')[0]).toContain('depositTxIDs: nothing is unlockable now');
    expect(issued(devnet)).toBe(0);
  });

  it('a deposit amount the node states as garbage is read as 0, one it names by no ID by the ID asked: nothing unlockable, nothing sent', async () => {
    const devnet = await camino();
    const id = registeredId('local-signer:expired-deposit');
    devnet.router.on('/ext/P', 'platform.getDeposits', () => ({
      deposits: [{ depositOfferID: devnet.state.depositOffers[0]!.id, amount: 'lots', unlockedAmount: '0', start: '1', duration: 1 }],
      availableRewards: ['0'],
      timestamp: String(devnet.state.now()),
    }));
    const h = await harness(devnet);
    const r = await h.call('platform_unlockDeposit', { depositTxIDs: [id] });
    expect(r.isError).toBe(true);
    expect(r.text.split('\n')[0]).toContain(`depositTxIDs: nothing is unlockable now (${id}: nothing more until more of its unlock period passes)`);
    expect(issued(devnet)).toBe(0);
  });
});

describe('the protocol around a local spend', () => {
  it('under human approval a preview past its expiry is swept with an audit line naming its tool', async () => {
    const devnet = await camino();
    const h = await harness(devnet, { CHAIN_MCP_APPROVAL: 'human' }, { elicit: () => ({ action: 'decline' }) });
    const args = { to: alice(devnet).x, amount: String(CAM), assetID: 'CAM' };
    await previewOf(h, 'xvm_send', args);
    h.clock.now += 6 * 60_000;
    await previewOf(h, 'xvm_send', args);
    const swept = h.logs.map((l) => JSON.parse(l) as Record<string, unknown>).filter((l) => l.audit === 'expired');
    expect(swept).toHaveLength(1);
    expect(swept[0]).toMatchObject({ audit: 'expired', tool: 'xvm_send', msg: 'spend approval expired' });
  });

  it('a human who approves in the client after the kept preview is gone (swept on expiry meanwhile) sends nothing', async () => {
    const devnet = await camino();
    const args = { to: alice(devnet).x, amount: String(CAM), assetID: 'CAM' };
    let h: SpendHarness | undefined;
    h = await harness(devnet, {}, {
      elicit: async () => {
        // The human answers after the preview expired, and another preview swept it from the store.
        h!.clock.now += 6 * 60_000;
        await previewOf(h!, 'xvm_send', args);
        return { action: 'accept', content: { approve: true } };
      },
    });
    const p = await previewOf(h, 'xvm_send', args);
    const r = await h.call('xvm_send', { ...args, confirm: p.structured!.confirmationId });
    expect(r.isError, r.text).toBe(true);
    expect(r.text.split('\n')[0]).toBe('Confirmation refused: this preview was already used. Nothing was sent.');
    expect(r.text).toContain('Call the tool again without confirm to get a fresh preview.');
    expect(h.logs.some((l) => l.includes('"audit":"refused"') && l.includes('"why":"preview already used"'))).toBe(true);
    expect(issued(devnet)).toBe(0);
  });

  it('a state store already keeping as many previews as it may refuses a new one in one line the model can act on; nothing is offered to confirm', async () => {
    const devnet = await camino();
    const state = new MemoryStore();
    // The store already holds as many open previews as it keeps (other processes' or a flood's).
    for (let n = 0; n < 1_000; n++) await state.putPreview(`other-${n}`, '{}', Date.now() + 3_600_000, Date.now(), 1_000);
    const h = await harness(devnet, {}, { state });
    const r = await h.call('xvm_send', { to: alice(devnet).x, amount: String(CAM), assetID: 'CAM' });
    expect(r.isError).toBe(true);
    expect(r.structured?.confirmationId).toBeUndefined();
    // An answer the model can act on, not an internal error (the old one said "Internal error: 1000 local previews are open").
    expect(r.text.split('\n')[0]).toBe('Refused: 1000 local previews are kept already; no new preview until some are confirmed or expire (5 minutes). Nothing was sent.');
    expect(issued(devnet)).toBe(0);
  });

  it('under a daily limit, a spend of this server\'s the indexer has not listed yet still counts: the store\'s sent rows are the total, and one over it is refused', async () => {
    const devnet = await camino();
    const h = await harness(devnet, { CHAIN_MCP_MAX_SPEND_PER_DAY: String((3n * CAM) / 2n) });
    // 1 CAM this server sent a moment ago (kept as sent in its store), not yet in the indexer's record.
    const earlier = await h.services.ledger.reserve(CAM, undefined);
    await h.services.ledger.commit(earlier!);
    const a = alice(devnet);
    const over = await h.call('xvm_send', { to: a.x, amount: String((6n * CAM) / 10n), assetID: 'CAM' });
    expect(over.isError).toBe(true);
    expect(over.text.split('\n')[0]).toContain('over CHAIN_MCP_MAX_SPEND_PER_DAY (1.5 CAM); 1 CAM was sent already.');
    // What fits beside it is sent.
    const fits = { to: a.x, amount: String((4n * CAM) / 10n), assetID: 'CAM' };
    await confirmed(h, 'xvm_send', fits);
    expect(requestsFor(devnet, 'avm.issueTx')).toBe(1);
  });

  describe('a state store that fails while the spend goes out: the spend is reported as it went, and the log says why the daily total may be off', () => {
    class FailingLedger extends MemoryStore {
      override async commit(): Promise<void> {
        throw new Error('disk I/O error (commit)');
      }
      override async release(): Promise<void> {
        throw new Error('disk I/O error (release)');
      }
    }
    const warned = (h: SpendHarness, msg: string) =>
      h.logs.map((l) => JSON.parse(l) as Record<string, unknown>).filter((l) => l.msg === msg).map((l) => l.err);

    it('issued: the reservation not marked sent, with the store\'s error', async () => {
      const devnet = await camino();
      const h = await harness(devnet, {}, { state: new FailingLedger() });
      await confirmed(h, 'xvm_send', { to: alice(devnet).x, amount: String(CAM), assetID: 'CAM' });
      expect(warned(h, 'daily total: reservation not marked sent')).toEqual(['disk I/O error (commit)']);
    });

    it('refused by the node: the reservation not released, with the store\'s error; the refusal itself is the answer', async () => {
      const devnet = await camino();
      devnet.router.on('/ext/bc/X', 'xvm.issueTx', () => {
        throw new RpcFault('insufficient funds');
      });
      const h = await harness(devnet, {}, { state: new FailingLedger() });
      const args = { to: alice(devnet).x, amount: String(CAM), assetID: 'CAM' };
      const p = await previewOf(h, 'xvm_send', args);
      const r = await h.call('xvm_send', { ...args, confirm: p.structured!.confirmationId });
      expect(r.isError).toBe(true);
      expect(r.text.split('\n')[0]).toContain('insufficient funds');
      expect(warned(h, 'daily total: reservation not released')).toEqual(['disk I/O error (release)']);
    });

    it("a transfer whose export signs to another ID than its preview named: refused, and the reservation not released, with the store's error", async () => {
      const devnet = await camino();
      const h = await harness(devnet, {}, { state: new FailingLedger() });
      const args = { to: `C-${devnet.localKey.x.slice(2)}`, amount: String(CAM) };
      const p = await previewOf(h, 'transfer', args);
      const nonce = String(p.structured!.confirmationId).split('.')[0]!;
      const record = await h.services.localRecords.get(nonce);
      if (!record || record === 'tampered') throw new Error('no kept record');
      // As if signing were not deterministic (kept as this server keeps it, sealed): the import names another export.
      await h.services.localRecords.take(nonce);
      await h.services.localRecords.put(nonce, { ...record, spend: { ...record.spend, steps: [{ ...record.spend.steps[0]!, expectId: registeredId('some-other-export') }, record.spend.steps[1]!] } });
      const r = await h.call('transfer', { ...args, confirm: p.structured!.confirmationId });
      expect(r.isError).toBe(true);
      expect(r.text.split('\n')[0]).toContain('Refused: step 1 signed now does not have the ID its preview computed');
      expect(warned(h, 'daily total: reservation not released')).toEqual(['disk I/O error (release)']);
      expect(issued(devnet)).toBe(0);
    });

    it('a node naming another txID: the bytes went out, the reservation not marked sent, with the store\'s error', async () => {
      const devnet = await camino();
      devnet.router.on('/ext/bc/X', 'xvm.issueTx', () => ({ txID: registeredId('another-tx') }));
      const h = await harness(devnet, {}, { state: new FailingLedger() });
      const args = { to: alice(devnet).x, amount: String(CAM), assetID: 'CAM' };
      const p = await previewOf(h, 'xvm_send', args);
      const r = await h.call('xvm_send', { ...args, confirm: p.structured!.confirmationId });
      expect(r.isError).toBe(true);
      expect(warned(h, 'daily total: reservation not marked sent')).toEqual(['disk I/O error (commit)']);
    });
  });
});
