import { rmSync, } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type Devnet, startDevnet } from '../../src/devnet/index.js';
import { formatAmount, parseCb58Id, parseChainAddress } from '../../src/codec/index.js';
import { hexChecksumEncode } from '../../src/codec/encoded.js';
import { encodeUtxo, ZERO_ID } from '../../src/codec/tx/index.js';
import { issueTx } from '../../src/devnet/node/issue.js';
import { pageUtxos } from '../../src/devnet/node/xvm.js';
import type { Params } from '../../src/devnet/rpc.js';
import { depositTotalReward } from '../../src/summarize/platform.js';
import { recordingNode } from '../helpers/recording-node.js';
import { requestsFor, type SpendHarness, spendHarness } from '../helpers/spend-harness.js';
import { localKeyFolder } from '../helpers/local-key.js';
import { nodeAnswer } from '../helpers/node-answer.js';

/**
 * The node is not trusted for what the key signs (issue 40 item 4): the EVM chain ID is the
 * network's own, and a txID the node answers is taken only when it is the signed bytes' own ID.
 */

const PASSPHRASE = 'correct horse battery staple 32';
let dir: string;
const open: Array<{ close(): Promise<void> }> = [];

async function localHarness(devnet: Devnet, env: Record<string, string> = {}): Promise<SpendHarness> {
  const h = await spendHarness(devnet, {
    env: { CHAIN_MCP_APPROVAL: 'confirm-id', CHAIN_MCP_SIGNER: 'local', CHAIN_MCP_KEY_FILE: join(dir, 'key.json'), CHAIN_MCP_KEY_PASSPHRASE_FILE: join(dir, 'passphrase'), ...env },
  });
  open.push(h);
  return h;
}

async function camino(): Promise<Devnet> {
  const devnet = await startDevnet({ dialect: 'camino' });
  devnet.router.record = true;
  open.push(devnet);
  return devnet;
}

beforeAll(async () => {
  dir = await localKeyFolder('chain-mcp-trust-', PASSPHRASE);
});
afterEach(async () => {
  for (const o of open.splice(0).reverse()) await o.close();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the EVM chain ID the key signs for', () => {
  it('a node on network 12345 answering eth_chainId 1 is refused in one line, with CHAIN_MCP_EXPECT_NETWORK_ID set; nothing is signed or sent', async () => {
    const devnet = await camino();
    devnet.state.evmChainId = 1;
    const h = await localHarness(devnet, { CHAIN_MCP_EXPECT_NETWORK_ID: '12345' });
    const r = await h.call('transfer', { to: devnet.state.users.get('alice')!.keys[0]!.c, amount: '0.5 CAM', sourceChain: 'C' });
    expect(r.isError, r.text).toBe(true);
    expect(r.text.split('\n')[0]).toMatch(/^Refused: the node's C-Chain answers eth_chainId 1, but network 12345 \(local\) signs EVM transactions for chain ID 43112; .*Nothing was signed or sent\.$/);
    expect(r.structured?.confirmationId).toBeUndefined();
    expect(requestsFor(devnet, 'eth_sendRawTransaction')).toBe(0);
  });

  it("a Camino network's ID of another network (500 on a local node) is refused too", async () => {
    const devnet = await camino();
    devnet.state.evmChainId = 500;
    const h = await localHarness(devnet);
    const r = await h.call('transfer', { to: devnet.state.users.get('alice')!.keys[0]!.c, amount: '0.5 CAM', sourceChain: 'C' });
    expect(r.isError, r.text).toBe(true);
    expect(r.text.split('\n')[0]).toContain('eth_chainId 500, but network 12345 (local) signs EVM transactions for chain ID 43112');
  });

  it("the network's own chain ID is previewed: the preview's network line names the chain ID the key signs for", async () => {
    const devnet = await camino();
    const h = await localHarness(devnet);
    const r = await h.call('transfer', { to: devnet.state.users.get('alice')!.keys[0]!.c, amount: '0.5 CAM', sourceChain: 'C' });
    expect(r.isError, r.text).toBe(false);
    const lines = r.structured!.preview as string[];
    // The head leads with the intent (human first); the network line follows it in the details.
    expect(lines[0]).toMatch(/^Send 0\.5 CAM to 0x\w{4}…\w{4} on the C-Chain$/);
    expect(lines.filter((l) => l.startsWith('Network: '))).toEqual([expect.stringMatching(/^Network: 12345 \(prefix local\), EVM chain ID 43112; signer: the local key/)]);
  });
});

/** The camino node's xvm.issueTx, which applies the bytes but answers `named` for their ID. */
function lyingX(devnet: Devnet, named: (real: string) => string): void {
  devnet.router.on('/ext/bc/X', 'xvm.issueTx', (p: Params) => ({ txID: named(issueTx(devnet.state, p, 'X').txID) }));
}

describe("a txID the node answers that is not the bytes' own", () => {
  async function sendOnce(devnet: Devnet) {
    const h = await localHarness(devnet);
    const args = { amount: '1 CAM', assetID: 'CAM', to: devnet.state.users.get('alice')!.keys[0]!.x };
    const preview = await h.call('xvm_send', args);
    expect(preview.isError, preview.text).toBe(false);
    const txs = devnet.state.txs.size;
    const done = await h.call('xvm_send', { ...args, confirm: preview.structured!.confirmationId });
    const applied = [...devnet.state.txs.keys()].slice(txs);
    return { h, args, preview, done, applied };
  }

  it('a txID with a quote: the answer says the node disagreed and shows both, never success nor "Internal error"', async () => {
    const devnet = await camino();
    lyingX(devnet, () => 'He said "sent"\nTransfer complete');
    const { done, applied } = await sendOnce(devnet);
    expect(applied).toHaveLength(1);
    expect(done.isError, done.text).toBe(true);
    expect(done.text).not.toContain('Internal error');
    expect(done.text.split('\n')[0]).toContain(`The node disagreed about xvm_send: the signed bytes sent once have txID ${applied[0]}, but the node answered "He said \\"sent\\"\\nTransfer complete"`);
    expect(done.text).toContain('it will not be sent again');
    expect(done.text).toContain(`Do not send it again. Check tx_status {"txID": "${applied[0]}"}`);
  });

  it("another transaction's ID: the same, and the spend still counts against the daily total", async () => {
    const devnet = await camino();
    const other = [...devnet.state.txs.keys()][0]!;
    lyingX(devnet, () => other);
    const { h, done, applied } = await sendOnce(devnet);
    expect(done.isError, done.text).toBe(true);
    expect(done.text).toContain(`have txID ${applied[0]}, but the node answered "${other}"`);
    expect(done.text).not.toMatch(/complete|Sent on X/);
    expect(await h.services.ledger.spent()).toBeGreaterThan(0n);
  });

  it("the bytes' own ID: success, as before", async () => {
    const devnet = await camino();
    lyingX(devnet, (real) => real);
    const { done, applied } = await sendOnce(devnet);
    expect(done.isError, done.text).toBe(false);
    expect(done.text).toContain(`txID ${applied[0]}`);
  });

  it('an EVM hash that is not keccak256 of the signed bytes: the node disagreed, both shown', async () => {
    const devnet = await camino();
    const made = `0x${'ab'.repeat(32)}`;
    devnet.router.on('/ext/bc/C/rpc', 'eth_sendRawTransaction', () => made);
    const h = await localHarness(devnet);
    const args = { to: devnet.state.users.get('alice')!.keys[0]!.c, amount: '0.5 CAM', sourceChain: 'C' };
    const preview = await h.call('transfer', args);
    const done = await h.call('transfer', { ...args, confirm: preview.structured!.confirmationId });
    expect(done.isError, done.text).toBe(true);
    expect(done.text).toMatch(new RegExp(`the signed bytes sent once have txID 0x[0-9a-f]{64}, but the node answered "${made}"`));
    expect(done.text).toContain('eth_getTransactionReceipt');
  });
});

describe('a transfer on a spec-API node (issue 42 item 1)', () => {
  it('moves what it says: the X balance changes by the amount and the fee, and the txID is the one the node holds', async () => {
    const devnet = await startDevnet({ dialect: 'spec' });
    devnet.router.record = true;
    open.push(devnet);
    const h = await localHarness(devnet);
    const to = devnet.state.users.get('alice')!.keys[0]!.x;
    const held = () => [...devnet.state.utxos.values()].filter((u) => !u.spentBy && u.chain === 'X' && u.addresses.includes(to) && u.assetID === devnet.state.nativeAssetID).reduce((s, u) => s + u.amount, 0n);
    const before = held();
    const preview = await h.call('transfer', { to, amount: '2 CAM' });
    expect(preview.isError, preview.text).toBe(false);
    const done = await h.call('transfer', { to, amount: '2 CAM', confirm: preview.structured!.confirmationId });
    expect(done.isError, done.text).toBe(false);
    expect(held() - before).toBe(2_000_000_000n);
    const txID = String((done.structured!.result as { txID: string }).txID);
    expect(devnet.state.txs.has(txID)).toBe(true);
    const status = await h.call('tx_status', { txID });
    expect(status.text).toMatch(/Accepted/);
  });
});

describe('what the node must say before the key builds anything', () => {
  it('a node that names no native asset: the local signer refuses to build, saying so; nothing sent', async () => {
    const devnet = await camino();
    const config = await nodeAnswer(devnet.nodeUrl, '/ext/P', 'platform.getConfiguration');
    devnet.router.on('/ext/P', 'platform.getConfiguration', () => ({ ...config, assetID: undefined }));
    const h = await localHarness(devnet);
    const r = await h.call('xvm_send', { amount: '1 CAM', assetID: devnet.state.nativeAssetID, to: devnet.state.users.get('alice')!.keys[0]!.x });
    expect(r.isError).toBe(true);
    expect(r.text.split('\n')[0]).toBe('The node did not say which asset is native; the local signer cannot build a transaction.');
    expect(requestsFor(devnet, 'avm.issueTx')).toBe(0);
  });

  it("a node that answers no ID for a chain (null, or not a string): refused naming that chain; nothing sent", async () => {
    for (const answer of [null, { blockchainID: 7 }]) {
      const devnet = await camino();
      devnet.router.on('/ext/info', 'info.getBlockchainID', (p: Params) => (p.alias === 'P' ? answer : { blockchainID: devnet.state.chains[p.alias as 'X' | 'C'] }));
      const h = await localHarness(devnet);
      const r = await h.call('xvm_send', { amount: '1 CAM', assetID: 'CAM', to: devnet.state.users.get('alice')!.keys[0]!.x });
      expect(r.isError).toBe(true);
      expect(r.text.split('\n')[0]).toBe("The node did not give the P-Chain's ID (info.getBlockchainID).");
      expect(requestsFor(devnet, 'avm.issueTx')).toBe(0);
    }
  });
});

describe("stranger UTXOs at the key's P address", () => {
  /**
   * The node's platform.getUTXOs, with a CrossTransferOutput (type 8206) and a locked.Out with no lock IDs added at the key's
   * address, and `extra` (hex) before them.
   */
  function withStrangers(devnet: Devnet, extra: (bytes: (n: number) => Uint8Array) => Uint8Array[] = () => []): void {
    const key = parseChainAddress(devnet.localKey.p).bytes;
    const owners = { locktime: 0n, threshold: 1, addresses: [key] };
    const asset = parseCb58Id(devnet.state.nativeAssetID);
    const txID = new Uint8Array(32).fill(7);
    const strangers = [
      encodeUtxo('P', { txID, outputIndex: 0, assetID: asset, output: { kind: 'cross.transfer', amount: 3_000_000_000n, owners, recipient: new Uint8Array(20).fill(9) } }),
      encodeUtxo('P', { txID, outputIndex: 1, assetID: asset, output: { kind: 'locked', lockIDs: { depositTxID: ZERO_ID, bondTxID: ZERO_ID }, output: { kind: 'secp.transfer', amount: 4_000_000_000n, owners } } }),
    ];
    const plain = (n: number) => encodeUtxo('P', { txID, outputIndex: 2 + n, assetID: asset, output: { kind: 'secp.transfer', amount: 5_000_000_000n, owners } });
    strangers.unshift(...extra(plain));
    const hex = strangers.map(hexChecksumEncode);
    devnet.router.on('/ext/P', 'platform.getUTXOs', (p: Params) => {
      const page = pageUtxos(devnet.state, 'P', p, ['P'], false) as { utxos: string[]; numFetched: string | number };
      if (p.sourceChain !== undefined || p.startIndex !== undefined) return page;
      return { ...page, utxos: [...hex, ...page.utxos], numFetched: String(page.utxos.length + hex.length) };
    });
  }

  it('are skipped, not fatal: a P->X transfer is built from the unlocked UTXOs, issued, and the node accepts it', async () => {
    const devnet = await camino();
    withStrangers(devnet);
    const h = await localHarness(devnet);
    const args = { to: devnet.localKey.x, amount: '1 CAM', sourceChain: 'P' };
    const preview = await h.call('transfer', args);
    expect(preview.isError, preview.text).toBe(false);
    expect(preview.text).not.toContain('does not decode');
    expect(preview.text).not.toContain('0707070707');
    const done = await h.call('transfer', { ...args, confirm: preview.structured!.confirmationId });
    expect(done.isError, done.text).toBe(false);
    expect(requestsFor(devnet, 'platform.issueTx')).toBe(1);
  });

  it('one of an output type no Camino codec has (type ID 65535) is skipped too; one cut short stops the build, naming the method; nothing sent', async () => {
    const devnet = await camino();
    // Codec version, tx ID, output index, asset ID: the output's type ID follows at byte 70.
    const unknownType = (plain: (n: number) => Uint8Array) => {
      const bytes = plain(0);
      bytes.set([0, 0, 0xff, 0xff], 70);
      return [bytes];
    };
    withStrangers(devnet, unknownType);
    const h = await localHarness(devnet);
    const args = { to: devnet.localKey.x, amount: '1 CAM', sourceChain: 'P' };
    const ok = await h.call('transfer', args);
    expect(ok.isError, ok.text).toBe(false);
    withStrangers(devnet, (plain) => [...unknownType(plain), plain(1).slice(0, 80)]);
    const cut = await h.call('transfer', args);
    expect(cut.isError).toBe(true);
    expect(cut.text.split('\n')[0]).toMatch(/^A UTXO from platform\.getUTXOs does not decode \(.+\); nothing was built\.$/);
    expect(requestsFor(devnet, 'platform.issueTx')).toBe(0);
  });

  it('are skipped by a deposit and a claim too', async () => {
    const devnet = await camino();
    withStrangers(devnet);
    const h = await localHarness(devnet);
    const offer = devnet.state.depositOffers[0]!;
    const deposit = await h.call('platform_deposit', { offerID: offer.id, amount: '5 CAM', duration: 60 * 86_400 });
    expect(deposit.isError, deposit.text).toBe(false);
    const claim = await h.call('platform_claim', { claims: [{ kind: 'validator', owner: devnet.localKey.p, amount: '0.1 CAM' }], to: devnet.localKey.p });
    expect(claim.isError, claim.text).toBe(false);
  });
});

describe("a deposit's reward against the offer's reward room", () => {
  const DAY = 86_400;
  it('a deposit earning more than totalMaxRewardAmount − rewardedAmount is refused before building, naming the amount; one that fits is accepted by the node', async () => {
    const devnet = await camino();
    const offer = devnet.state.depositOffers[0]!;
    const args = { offerID: offer.id, amount: '5 CAM', duration: 60 * DAY };
    const reward = depositTotalReward(5_000_000_000n, offer.interestRateNominator, BigInt(60 * DAY), BigInt(offer.noRewardsPeriodDuration));
    expect(reward).toBeGreaterThan(0n);
    offer.totalMaxAmount = 0n;
    offer.totalMaxRewardAmount = 100_000_000_000n;
    offer.rewardedAmount = offer.totalMaxRewardAmount - reward + 1n;
    const h = await localHarness(devnet);
    const refused = await h.call('platform_deposit', args);
    expect(refused.isError, refused.text).toBe(true);
    expect(refused.text.split('\n')[0]).toMatch(/amount.*this deposit would earn .* more than the .* of rewards this offer has left to pay/);
    expect(requestsFor(devnet, 'platform.getUTXOs')).toBe(0);
    // Exactly the room left: built, and the node takes it.
    offer.rewardedAmount = offer.totalMaxRewardAmount - reward;
    const preview = await h.call('platform_deposit', args);
    expect(preview.isError, preview.text).toBe(false);
    const done = await h.call('platform_deposit', { ...args, confirm: preview.structured!.confirmationId });
    expect(done.isError, done.text).toBe(false);
    expect(offer.rewardedAmount).toBe(offer.totalMaxRewardAmount);
  });
});

describe("platform_deposit on a node of the spec's API (issue 42 item 2)", () => {
  it("reads the node's capitalized offers and names the real obstacle in its first line: the node has no platform.getUTXOs", async () => {
    const devnet = await startDevnet({ dialect: 'spec' });
    devnet.router.record = true;
    open.push(devnet);
    const h = await localHarness(devnet);
    const offer = devnet.state.depositOffers[0]!;
    const r = await h.call('platform_deposit', { offerID: offer.id, amount: '5 CAM', duration: 60 * 86_400 });
    expect(r.isError).toBe(true);
    expect(r.text.split('\n')[0]).toContain('This node does not offer platform.getUTXOs');
    expect(r.text).not.toContain('no open offer');
    expect(requestsFor(devnet, 'platform.getAllDepositOffers')).toBe(1);
    expect(requestsFor(devnet, 'platform.issueTx')).toBe(0);
  });

  it('an offer outside its terms is still refused by the same reader (the spec spelling read, not ignored)', async () => {
    const devnet = await startDevnet({ dialect: 'spec' });
    open.push(devnet);
    const h = await localHarness(devnet);
    const offer = devnet.state.depositOffers[0]!;
    const r = await h.call('platform_deposit', { offerID: offer.id, amount: '5 CAM', duration: offer.minDuration - 1 });
    expect(r.isError).toBe(true);
    expect(r.text).toContain(`this offer takes ${offer.minDuration} to ${offer.maxDuration} seconds`);
  });
});

describe('a claim as the node takes it (caminogo ClaimTx)', () => {
  const keyClaimable = (devnet: Devnet) => devnet.state.claimables.find((c) => c.owner.threshold === 1 && c.owner.addresses.length === 1 && c.owner.addresses[0] === devnet.localKey.p)!;
  const CAM = 1_000_000_000n;

  it("the key's validator and expired-deposit rewards go in ONE claimable (all treasury), which the node accepts", async () => {
    const devnet = await camino();
    const claimable = keyClaimable(devnet);
    claimable.validatorRewards = CAM;
    claimable.expiredDepositRewards = CAM / 2n;
    const h = await localHarness(devnet);
    const args = {
      claims: [
        { kind: 'validator', owner: devnet.localKey.p, amount: '0.5 CAM' },
        { kind: 'expiredDeposit', owner: devnet.localKey.p, amount: '0.25 CAM' },
      ],
      to: devnet.localKey.p,
    };
    const preview = await h.call('platform_claim', args);
    expect(preview.isError, preview.text).toBe(false);
    const lines = preview.structured!.preview as string[];
    const claimLines = lines.filter((l) => /^Tx claim \d+:/.test(l));
    expect(claimLines).toHaveLength(1);
    expect(claimLines[0]).toContain('0.75 CAM, all treasury rewards of owner');
    // Checked against both kinds' claimable amounts together; its fee from the key's unlocked CAM.
    expect(lines).toContain('Claimable now, claim 1: 1.5 CAM');
    expect(lines.some((l) => l.startsWith('Fee: paid from the claimed rewards'))).toBe(false);
    const done = await h.call('platform_claim', { ...args, confirm: preview.structured!.confirmationId });
    expect(done.isError, done.text).toBe(false);
    // The node draws an all-treasury claim from the validator rewards first, then the expired-deposit
    // ones: of the owner's 1.5 CAM, 0.75 CAM is left, 0.25 of it validator rewards.
    expect(claimable.validatorRewards).toBe(CAM / 4n);
    expect(claimable.expiredDepositRewards).toBe(CAM / 2n);
  });

  it('with no unlocked CAM on P the fee is paid from the claimed reward; the node accepts it and pays the rest', async () => {
    const devnet = await camino();
    const { state } = devnet;
    for (const u of state.utxos.values()) if (!u.spentBy && u.chain === 'P' && !u.depositTxID && !u.bondTxID && u.addresses.includes(devnet.localKey.p)) u.spentBy = 'elsewhere';
    const claimable = keyClaimable(devnet);
    claimable.validatorRewards = CAM;
    const h = await localHarness(devnet);
    const args = { claims: [{ kind: 'validator', owner: devnet.localKey.p, amount: '0.5 CAM' }], to: devnet.localKey.p };
    const preview = await h.call('platform_claim', args);
    expect(preview.isError, preview.text).toBe(false);
    const lines = preview.structured!.preview as string[];
    expect(lines).toContain(`Fee: paid from the claimed rewards (no unlocked CAM of the key is spent); ${formatAmount(CAM / 2n - state.fees.txFee, { decimals: 9, symbol: 'CAM' })} arrives at ${devnet.localKey.p}`);
    expect(lines.filter((l) => /^Tx input /.test(l))).toEqual([]);
    const done = await h.call('platform_claim', { ...args, confirm: preview.structured!.confirmationId });
    expect(done.isError, done.text).toBe(false);
    const txID = String((done.structured!.result as { txID: string }).txID);
    const paid = [...state.utxos.values()].filter((u) => u.txID === txID).reduce((s, u) => s + u.amount, 0n);
    expect(paid).toBe(CAM / 2n - state.fees.txFee);
    expect(state.txs.get(txID)!.fee).toBe(state.fees.txFee);
    expect(claimable.validatorRewards).toBe(CAM / 2n);
  });

  it('a reward that does not cover the fee, with no unlocked CAM, is refused before anything is sent', async () => {
    const devnet = await camino();
    const { state } = devnet;
    for (const u of state.utxos.values()) if (!u.spentBy && u.chain === 'P' && !u.depositTxID && !u.bondTxID && u.addresses.includes(devnet.localKey.p)) u.spentBy = 'elsewhere';
    keyClaimable(devnet).validatorRewards = CAM;
    const h = await localHarness(devnet);
    const r = await h.call('platform_claim', { claims: [{ kind: 'validator', owner: devnet.localKey.p, amount: String(state.fees.txFee) }], to: devnet.localKey.p });
    expect(r.isError).toBe(true);
    expect(r.text).toContain('Cannot build this transaction');
    expect(requestsFor(devnet, 'platform.issueTx')).toBe(0);
  });
});

describe('an indexer outage and the native asset (issue 40 item 6)', () => {
  it('assetID "CAM" is the node\'s native asset: a 503 from the indexer does not stop the send', async () => {
    const devnet = await camino();
    const indexer = recordingNode((_req, res) => res.writeHead(503, { 'content-type': 'text/plain' }).end('unavailable'));
    const url = await indexer.listen();
    open.push(indexer);
    const h = await localHarness(devnet, { CHAIN_MCP_INDEXER_URL: url });
    const args = { amount: '1 CAM', assetID: 'CAM', to: devnet.state.users.get('alice')!.keys[0]!.x };
    const preview = await h.call('xvm_send', args);
    expect(preview.isError, preview.text).toBe(false);
    const done = await h.call('xvm_send', { ...args, confirm: preview.structured!.confirmationId });
    expect(done.isError, done.text).toBe(false);
    expect(indexer.seen.filter((r) => r.url.startsWith('/v2/assets'))).toHaveLength(0);
  });
});
