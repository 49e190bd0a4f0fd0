import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatAmount } from '../../src/codec/index.js';
import { writeKeyFile } from '../../src/signer/keyfile.js';
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

  it('tx_status and wait_for_tx given a 0x hash name the tools that take one, and send nothing', async () => {
    stack.devnet.router.record = true;
    const before = stack.devnet.router.requests.length;
    for (const tool of ['tx_status', 'wait_for_tx']) {
      const r = await stack.call(tool, { txID: `0x${'ab'.repeat(32)}` });
      expect(r.isError).toBe(true);
      expect(r.text).toMatch(/^Invalid input: txID: is a 0x hash, a C-Chain EVM transaction: ask eth_getTransactionReceipt/);
      expect(r.text).not.toMatch(/expected cb58/);
    }
    expect(stack.devnet.router.requests.length).toBe(before);
    stack.devnet.router.record = false;
  });

  it('indexer_listTransactions names who sent what came in, in full', async () => {
    const memo = `0x${Buffer.from('rent for November').toString('hex')}`;
    const rent = [...stack.devnet.state.txs.values()].find((t) => t.memo === memo)!;
    const alice = stack.devnet.state.users.get('alice')!.keys[0]!;
    const record = (await raw.rest(`/v2/transactions/${rent.id}`)) as Rec;
    const aliceBare = alice.x.slice(2);
    const senders = [...new Set((record.inputs as Rec[]).flatMap((i) => i.output.addresses as string[]))].filter((a) => a !== aliceBare);
    expect(senders.length).toBeGreaterThan(0);
    const r = await stack.call('indexer_listTransactions', { chainID: [stack.devnet.state.chains.X], address: [alice.x], sort: 'timestamp-desc' });
    const line = r.text.split('\n').find((l) => l.includes(rent.id))!;
    expect(line).toContain(`received 50 CAM from ${senders[0]}`);
    expect(line).not.toContain('…');
  });

  it('account_overview on this node says in its first line whether it can tell when locked amounts unlock', async () => {
    const key = stack.devnet.state.users.get(stack.devnet.state.devnetUser)!.keys[0]!;
    const r = await stack.call('account_overview', { addresses: [key.p] });
    const first = r.text.split('\n')[0]!;
    if (dialect === 'spec') {
      expect(first).toMatch(/^This node cannot say when the deposited or bonded amounts unlock/);
      const balance = (await raw.rpc('P', 'platform.getBalance', { addresses: [key.p] })) as Rec;
      expect(balance).toBeDefined();
    } else {
      expect(first).toBe(`${key.bech32}:`);
      expect(r.text).toMatch(/deposited until \d{4}-\d{2}-\d{2}/);
    }
  });

  it('eth_gasPrice says what a plain 21,000-gas transfer costs at the price', async () => {
    const price = BigInt((await raw.rpc('C', 'eth_gasPrice', [])) as string);
    const r = await stack.call('eth_gasPrice');
    expect(r.text).toContain(`a plain transfer (21,000 gas) costs ${formatAmount(price * 21_000n, { decimals: 18, symbol: 'CAM' })}`);
  });

  it("a keystore transfer X -> C previews that the node's import takes everything waiting, and what arrives", async () => {
    const spend = await inMemoryStack({
      devnet: stack.devnet,
      env: { CHAIN_MCP_ALLOW_SPEND: 'true', CHAIN_MCP_APPROVAL: 'confirm-id', CHAIN_MCP_KEYSTORE_USER: stack.devnet.keystore.username, CHAIN_MCP_KEYSTORE_PASSWORD: stack.devnet.keystore.password },
    });
    try {
      const state = stack.devnet.state;
      const keys = state.users.get(state.devnetUser)!.keys;
      const own = new Set(keys.map((k) => `C-${k.bech32}`));
      const waiting = [...state.utxos.values()]
        .filter((u) => !u.spentBy && u.chain === 'C' && u.sourceChain === 'X' && u.assetID === state.nativeAssetID && u.addresses.some((a) => own.has(a)))
        .reduce((sum, u) => sum + u.amount, 0n);
      expect(waiting).toBeGreaterThan(0n);
      const r = await spend.call('transfer', { to: `C-${keys[0]!.bech32}`, evmAddress: keys[0]!.c, amount: '2 CAM' });
      expect(r.isError, r.text).toBe(false);
      expect(r.text).toContain(`The node's import takes everything waiting for your key from X on C: ${cam(waiting)} already waits there besides this 2 CAM, so more than the amount arrives.`);
      const [whole, frac = ''] = /cx\.import on C .*fee at most ([\d,.]+) CAM/.exec(r.text)![1]!.replace(/,/g, '').split('.');
      const fee = BigInt(whole!) * 1_000_000_000n + BigInt(frac.padEnd(9, '0'));
      expect(r.text).toContain(`Arrives: at least ${cam(2_000_000_000n + waiting - fee)} after the import fee`);
    } finally {
      await spend.close();
    }
  });

  it("with a key file beside the keystore user (--devnet), \"my addresses\" are the key's, and transfer's description fits both signers", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'chain-mcp-answers-'));
    const passphrase = 'correct horse battery staple 42';
    await writeKeyFile(join(dir, 'key.json'), stack.devnet.localKey.privateKey, passphrase, { N: 2 ** 12, r: 8, p: 1 });
    writeFileSync(join(dir, 'passphrase'), `${passphrase}\n`, { mode: 0o600 });
    const local = await inMemoryStack({
      devnet: stack.devnet,
      env: {
        CHAIN_MCP_ALLOW_SPEND: 'true',
        CHAIN_MCP_KEYSTORE_USER: stack.devnet.keystore.username,
        CHAIN_MCP_KEYSTORE_PASSWORD: stack.devnet.keystore.password,
        CHAIN_MCP_KEY_FILE: join(dir, 'key.json'),
        CHAIN_MCP_KEY_PASSPHRASE_FILE: join(dir, 'passphrase'),
      },
    });
    try {
      const key = stack.devnet.localKey;
      const r = await local.call('xvm_listAddresses');
      expect(r.isError, r.text).toBe(false);
      expect(r.text.split('\n')[0]).toBe(`Your addresses (the local key this server signs with): X ${key.x}, P ${key.p}, C-Chain EVM ${r.structured!.evmAddress}. The node's keystore user, if any, signs nothing here.`);
      expect(String(r.structured!.evmAddress).toLowerCase()).toBe(key.c.toLowerCase());
      const userKeys = stack.devnet.state.users.get(stack.devnet.keystore.username)!.keys.map((k) => k.x);
      for (const a of userKeys.filter((a) => a !== key.x)) expect(r.text).not.toContain(a);
      const { tools } = await local.client.listTools();
      const transfer = tools.find((t) => t.name === 'transfer')!;
      expect(transfer.description).not.toMatch(/from the keystore user/);
      expect(transfer.description).toMatch(/the local key or the keystore user/);
    } finally {
      await local.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
