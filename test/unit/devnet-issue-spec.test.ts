import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cb58Encode, parseCb58Id, parseChainAddress } from '../../src/codec/index.js';
import { attachCredentials, encodeUnsignedTx, sha256, signedTxHex, sortOutputs, type TransferableOutput, txIdOf, type UnsignedTx } from '../../src/codec/tx/index.js';
import { type Devnet, startDevnet } from '../../src/devnet/index.js';
import type { Utxo } from '../../src/devnet/state/index.js';
import { signerFromPrivateKey } from '../../src/signer/index.js';

/**
 * A spec-API simulator (issue 42 item 1): xvm.issueTx, wallet.issueTx and cx.issueTx verify and apply
 * signed bytes as the camino dialect does, and answer the bytes' own ID; what is no transaction is refused.
 */

let devnet: Devnet;

async function rpc(path: string, method: string, params: unknown): Promise<{ result?: Record<string, unknown> | string; error?: { message: string } }> {
  const res = await fetch(`${devnet.nodeUrl}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) });
  return (await res.json()) as { result?: Record<string, unknown>; error?: { message: string } };
}

function unspentX(owner: string): Utxo {
  const u = [...devnet.state.utxos.values()].find((x) => !x.spentBy && x.chain === 'X' && x.addresses.includes(owner) && x.assetID === devnet.state.nativeAssetID && x.lock === 'unlocked' && x.locktime === 0n && x.threshold === 1);
  if (!u) throw new Error(`no UTXO of ${owner}`);
  return u;
}

const out = (amount: bigint, address: string): TransferableOutput => ({
  assetID: parseCb58Id(devnet.state.nativeAssetID),
  output: { kind: 'secp.transfer', amount, owners: { locktime: 0n, threshold: 1, addresses: [parseChainAddress(address).bytes] } },
});

/** A signed X send of `pay` from the local key's UTXO `u` to `to`, the fee exact. */
function signedSend(u: Utxo, pay: bigint, to: string): Uint8Array {
  const tx: UnsignedTx = {
    chain: 'X',
    kind: 'base',
    networkID: devnet.state.networkID,
    blockchainID: parseCb58Id(devnet.state.chains.X),
    outputs: sortOutputs('X', [out(pay, to), out(u.amount - pay - devnet.state.fees.txFee, devnet.localKey.x)]),
    inputs: [{ txID: parseCb58Id(u.txID), outputIndex: u.outputIndex, assetID: parseCb58Id(u.assetID), input: { kind: 'secp.transfer', amount: u.amount, sigIndices: [0] } }],
    memo: new Uint8Array(),
  };
  const bytes = encodeUnsignedTx(tx);
  return attachCredentials('X', bytes, [{ signatures: [signerFromPrivateKey(devnet.localKey.privateKey).signHash(sha256(bytes))] }]);
}

const receivedBy = (txID: string, to: string) => [...devnet.state.utxos.values()].filter((u) => u.txID === txID && u.addresses.includes(to)).reduce((s, u) => s + u.amount, 0n);

beforeAll(async () => {
  devnet = await startDevnet({ dialect: 'spec' });
});
afterAll(async () => {
  await devnet.close();
});

describe('a spec-dialect simulator issues signed bytes as a node does', () => {
  const to = () => devnet.state.users.get('alice')!.keys[0]!.x;

  it('xvm.issueTx (cb58, the spec default) verifies, applies and answers the bytes own txID', async () => {
    const u = unspentX(devnet.localKey.x);
    const signed = signedSend(u, 1_000_000n, to());
    const answer = await rpc('/ext/bc/X', 'xvm.issueTx', { tx: cb58Encode(signed) });
    expect(answer.error).toBeUndefined();
    expect(answer.result).toEqual({ txID: txIdOf(signed) });
    expect(devnet.state.utxos.get(u.id)?.spentBy).toBe(txIdOf(signed));
    expect(receivedBy(txIdOf(signed), to())).toBe(1_000_000n);
    // The same bytes again: already issued, nothing applied twice.
    expect((await rpc('/ext/bc/X', 'xvm.issueTx', { tx: cb58Encode(signed) })).error?.message).toContain('already issued');
  });

  it('wallet.issueTx takes hex too, and moves exactly what the bytes say', async () => {
    const u = unspentX(devnet.localKey.x);
    const signed = signedSend(u, 2_000_000n, to());
    const answer = await rpc('/ext/bc/X/wallet', 'wallet.issueTx', { tx: signedTxHex(signed), encoding: 'hex' });
    expect(answer.result).toEqual({ txID: txIdOf(signed) });
    expect(receivedBy(txIdOf(signed), to())).toBe(2_000_000n);
  });

  it('bytes that are no transaction, or that are signed by a stranger, are refused and change nothing', async () => {
    const txs = devnet.state.txs.size;
    for (const path of [['/ext/bc/X', 'xvm.issueTx'], ['/ext/bc/X/wallet', 'wallet.issueTx'], ['/ext/bc/C/cx', 'cx.issueTx']] as const) {
      const junk = await rpc(path[0], path[1], { tx: cb58Encode(new TextEncoder().encode('a signed transaction')) });
      expect(junk.error?.message, path[1]).toBeDefined();
      expect(junk.result, path[1]).toBeUndefined();
    }
    const u = unspentX(devnet.localKey.x);
    const signed = signedSend(u, 1n, to());
    // The signature's last byte flipped: not the owner's.
    signed[signed.length - 2] = signed[signed.length - 2]! ^ 1;
    expect((await rpc('/ext/bc/X', 'xvm.issueTx', { tx: cb58Encode(signed) })).error).toBeDefined();
    expect(devnet.state.txs.size).toBe(txs);
  });

  it('eth_sendRawTransaction decodes what it is given: no hash is made up for bytes that are no transaction', async () => {
    const answer = await rpc('/ext/bc/C/rpc', 'eth_sendRawTransaction', ['0xdeadbeef']);
    expect(answer.result).toBeUndefined();
    expect(answer.error).toBeDefined();
  });
});
