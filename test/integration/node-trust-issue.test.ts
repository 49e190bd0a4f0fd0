import { createHash } from 'node:crypto';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { privateKeyToAccount } from 'viem/accounts';
import { afterEach, describe, expect, it } from 'vitest';
import { cb58Encode, parseCb58Id, parseChainAddress } from '../../src/codec/index.js';
import { attachCredentials, encodeUnsignedTx, sha256, sortOutputs, type TransferableOutput, type UnsignedTx } from '../../src/codec/tx/index.js';
import { type Devnet, startDevnet } from '../../src/devnet/index.js';
import { issueTx } from '../../src/devnet/node/issue.js';
import type { Params } from '../../src/devnet/rpc.js';
import type { Utxo } from '../../src/devnet/state/index.js';
import { signerFromPrivateKey } from '../../src/signer/index.js';
import { type SpendHarness, spendHarness } from '../helpers/spend-harness.js';
import { type2 } from '../helpers/evm-tx.js';

/**
 * The tools that issue bytes the caller signed (xvm_issueTx, wallet_issueTx, cx_issueTx,
 * eth_sendRawTransaction) take the node's txID only when it is the bytes' own (issue 40 item 4):
 * X and C atomic: cb58 of sha256 of the bytes; EVM: keccak256 of the raw transaction. Computed
 * here independently of the server's code (node:crypto, @noble/hashes).
 */

const open: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  for (const o of open.splice(0).reverse()) await o.close();
});

async function camino(): Promise<Devnet> {
  const devnet = await startDevnet({ dialect: 'camino' });
  devnet.router.record = true;
  open.push(devnet);
  return devnet;
}

async function harness(devnet: Devnet): Promise<SpendHarness> {
  const h = await spendHarness(devnet, { env: { CHAIN_MCP_APPROVAL: 'confirm-id' } });
  open.push(h);
  return h;
}

/** Preview, then confirm once: the confirmed call's result. */
async function issue(h: SpendHarness, tool: string, args: Record<string, unknown>) {
  const preview = await h.call(tool, args);
  expect(preview.isError, preview.text).toBe(false);
  return h.call(tool, { ...args, confirm: preview.structured!.confirmationId });
}

const idOf = (bytes: Uint8Array) => cb58Encode(new Uint8Array(createHash('sha256').update(bytes).digest()));
const hashOf = (hex: string) => `0x${Buffer.from(keccak_256(Buffer.from(hex.slice(2), 'hex'))).toString('hex')}`;
const count = (devnet: Devnet, method: string) => devnet.router.requests.filter((r) => (r.body as { method?: string })?.method === method).length;

/** A signed X send of 1 mCAM from the local key's first unlocked UTXO to alice, the fee exact: bytes a node accepts. */
function signedXSend(devnet: Devnet): Uint8Array {
  const { state } = devnet;
  const u = [...state.utxos.values()].find(
    (x: Utxo) => !x.spentBy && x.chain === 'X' && x.addresses.includes(devnet.localKey.x) && x.assetID === state.nativeAssetID && x.lock === 'unlocked' && x.locktime === 0n && x.threshold === 1,
  )!;
  const out = (amount: bigint, address: string): TransferableOutput => ({
    assetID: parseCb58Id(state.nativeAssetID),
    output: { kind: 'secp.transfer', amount, owners: { locktime: 0n, threshold: 1, addresses: [parseChainAddress(address).bytes] } },
  });
  const pay = 1_000_000n;
  const tx: UnsignedTx = {
    chain: 'X',
    kind: 'base',
    networkID: state.networkID,
    blockchainID: parseCb58Id(state.chains.X),
    outputs: sortOutputs('X', [out(pay, state.users.get('alice')!.keys[0]!.x), out(u.amount - pay - state.fees.txFee, devnet.localKey.x)]),
    inputs: [{ txID: parseCb58Id(u.txID), outputIndex: u.outputIndex, assetID: parseCb58Id(u.assetID), input: { kind: 'secp.transfer', amount: u.amount, sigIndices: [0] } }],
    memo: new Uint8Array(),
  };
  const bytes = encodeUnsignedTx(tx);
  return attachCredentials('X', bytes, [{ signatures: [signerFromPrivateKey(devnet.localKey.privateKey).signHash(sha256(bytes))] }]);
}

describe('xvm_issueTx: the node applies the bytes but names another ID', () => {
  const lies: Array<[string, (real: string) => string]> = [
    ["another transaction's ID", () => 'not-used'],
    ['the ID in quotes', (real) => `"${real}"`],
    ['the ID padded with spaces', (real) => ` ${real} `],
    ['an empty txID', () => ''],
  ];
  for (const [what, named] of lies) {
    it(`${what}: isError, "the node disagreed", both IDs shown, never the success text`, async () => {
      const devnet = await camino();
      const other = [...devnet.state.txs.keys()][0]!;
      devnet.router.on('/ext/bc/X', 'xvm.issueTx', (p: Params) => ({ txID: named(issueTx(devnet.state, p, 'X').txID).replace('not-used', other) }));
      const h = await harness(devnet);
      const bytes = signedXSend(devnet);
      const real = idOf(bytes);
      const done = await issue(h, 'xvm_issueTx', { tx: cb58Encode(bytes) });
      expect(done.isError, done.text).toBe(true);
      // It went out once, and the node holds it under the bytes' own ID.
      expect(count(devnet, 'avm.issueTx')).toBe(1);
      expect(devnet.state.txs.has(real)).toBe(true);
      const shown = JSON.stringify(named(real).replace('not-used', other));
      expect(done.text.split('\n')[0]).toBe(`The node disagreed about xvm_issueTx: the signed bytes sent once have txID ${real}, but the node answered ${shown}. It is not known whether it was accepted; it will not be sent again.`);
      expect(done.text).toContain(`Do not send it again. Check tx_status {"txID": "${real}"}`);
      expect(done.text).not.toMatch(/Signed transaction|Internal error/);
      expect(done.structured?.status).not.toBe('issued');
      expect(h.logs.some((l) => l.includes('"audit":"txid_mismatch"'))).toBe(true);
    });
  }

  it("the bytes' own ID: issued, the node's answer shown (the real simulator, unchanged)", async () => {
    const devnet = await camino();
    const h = await harness(devnet);
    const bytes = signedXSend(devnet);
    const done = await issue(h, 'xvm_issueTx', { tx: cb58Encode(bytes) });
    expect(done.isError, done.text).toBe(false);
    expect(done.text).toContain(idOf(bytes));
    expect((done.structured!.result as { txID: string }).txID).toBe(idOf(bytes));
  });
});

describe('wallet_issueTx and cx_issueTx: the same rule on their endpoints', () => {
  /** Bytes that only need to decode as input: the routes below stand in for the node's issue. */
  const bytes = new TextEncoder().encode('signed atomic bytes the node is said to take');

  it('wallet.issueTx answering another ID: the node disagreed', async () => {
    const devnet = await camino();
    devnet.router.on('/ext/bc/X/wallet', 'wallet.issueTx', () => ({ txID: idOf(new Uint8Array([1, 2, 3])) }));
    const h = await harness(devnet);
    const done = await issue(h, 'wallet_issueTx', { tx: cb58Encode(bytes) });
    expect(done.isError, done.text).toBe(true);
    expect(done.text).toContain(`The node disagreed about wallet_issueTx: the signed bytes sent once have txID ${idOf(bytes)}, but the node answered "${idOf(new Uint8Array([1, 2, 3]))}"`);
  });

  it("avax.issueTx answering another ID: the node disagreed; answering the bytes' own: issued", async () => {
    const devnet = await camino();
    let answer = 'Rt6bTiWWKz2DxCqeHDVvjfKMEHRFmn7CQ6QJBT9c5ZSBRk2B';
    devnet.router.on('/ext/bc/C/cx', 'cx.issueTx', () => ({ txID: answer }));
    const h = await harness(devnet);
    const lied = await issue(h, 'cx_issueTx', { tx: cb58Encode(bytes) });
    expect(lied.isError, lied.text).toBe(true);
    expect(lied.text).toContain(`The node disagreed about cx_issueTx: the signed bytes sent once have txID ${idOf(bytes)}, but the node answered "${answer}"`);
    answer = idOf(bytes);
    const told = await issue(h, 'cx_issueTx', { tx: cb58Encode(bytes) });
    expect(told.isError, told.text).toBe(false);
    expect((told.structured!.result as { txID: string }).txID).toBe(idOf(bytes));
  });
});

describe('eth_sendRawTransaction: the hash must be keccak256 of the raw bytes', () => {
  const raw = type2({ to: `0x${'42'.repeat(20)}`, value: 1n, gas: 21_000n, maxFee: 30n * 10n ** 9n });

  it('another hash, or the right one padded: the node disagreed, both shown', async () => {
    const devnet = await camino();
    const answers = [`0x${'ab'.repeat(32)}`, ` ${hashOf(raw)}`];
    devnet.router.on('/ext/bc/C/rpc', 'eth_sendRawTransaction', () => answers.shift());
    const h = await harness(devnet);
    for (const named of [`0x${'ab'.repeat(32)}`, ` ${hashOf(raw)}`]) {
      const done = await issue(h, 'eth_sendRawTransaction', { signedTx: raw });
      expect(done.isError, done.text).toBe(true);
      expect(done.text.split('\n')[0]).toContain(`The node disagreed about eth_sendRawTransaction: the signed bytes sent once have txID ${hashOf(raw)}, but the node answered ${JSON.stringify(named)}`);
      expect(done.text).toContain(`Check eth_getTransactionReceipt {"txHash": "${hashOf(raw)}"}`);
    }
  });

  it('the same hash in capitals is the same ID: issued', async () => {
    const devnet = await camino();
    devnet.router.on('/ext/bc/C/rpc', 'eth_sendRawTransaction', () => `0x${hashOf(raw).slice(2).toUpperCase()}`);
    const h = await harness(devnet);
    const done = await issue(h, 'eth_sendRawTransaction', { signedTx: raw });
    expect(done.isError, done.text).toBe(false);
  });

  it('a transaction the simulator mines (signed with viem): issued under its own hash', async () => {
    const devnet = await camino();
    const account = privateKeyToAccount(`0x${Buffer.from(devnet.localKey.privateKey).toString('hex')}`);
    const signed = await account.signTransaction({
      type: 'eip1559',
      chainId: devnet.state.evmChainId,
      nonce: 0,
      to: `0x${'42'.repeat(20)}`,
      value: 1n,
      gas: 21_000n,
      maxFeePerGas: devnet.state.cBaseFee * 2n,
      maxPriorityFeePerGas: 0n,
    });
    const h = await harness(devnet);
    const done = await issue(h, 'eth_sendRawTransaction', { signedTx: signed });
    expect(done.isError, done.text).toBe(false);
    expect((done.structured!.result as { txHash: string }).txHash).toBe(hashOf(signed));
    expect(count(devnet, 'eth_sendRawTransaction')).toBe(1);
  });
});
