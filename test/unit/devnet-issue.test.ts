import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatCb58Id, parseChainAddress, parseCb58Id } from '../../src/codec/index.js';
import {
  atomicFee,
  atomicGas,
  attachCredentials,
  encodeUnsignedTx,
  sha256,
  signedTxHex,
  sortInputs,
  ownerId,
  sortOutputs,
  THIS_TX_ID,
  ZERO_ID,
  type TransferableInput,
  type TransferableOutput,
  txIdOf,
  type UnsignedTx,
} from '../../src/codec/tx/index.js';
import { type Devnet, startDevnet } from '../../src/devnet/index.js';
import { realKey, registeredId, type Utxo } from '../../src/devnet/state/index.js';
import { signerFromPrivateKey } from '../../src/signer/index.js';
import { keccak256 } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';

/** The simulator's issueTx is as strict as a node: these txs are built by hand here, not by the product's builders. */

const CAM = 1_000_000_000n;
let devnet: Devnet;

async function rpc(path: string, method: string, params: unknown): Promise<{ result?: Record<string, unknown>; error?: { message: string } }> {
  const res = await fetch(`${devnet.nodeUrl}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) });
  return (await res.json()) as { result?: Record<string, unknown>; error?: { message: string } };
}

function unspent(chain: 'X' | 'P' | 'C', owner: string, pick: (u: Utxo) => boolean = () => true): Utxo {
  const bare = owner.slice(2);
  const u = [...devnet.state.utxos.values()].find((x) => !x.spentBy && x.chain === chain && x.addresses.some((a) => a.slice(2) === bare) && pick(x));
  if (!u) throw new Error(`no UTXO of ${owner} on ${chain}`);
  return u;
}

const out = (amount: bigint, address: string): TransferableOutput => ({
  assetID: parseCb58Id(devnet.state.nativeAssetID),
  output: { kind: 'secp.transfer', amount, owners: { locktime: 0n, threshold: 1, addresses: [parseChainAddress(address).bytes] } },
});

const input = (u: Utxo) => ({ txID: parseCb58Id(u.txID), outputIndex: u.outputIndex, assetID: parseCb58Id(u.assetID), input: { kind: 'secp.transfer' as const, amount: u.amount, sigIndices: [0] } });

function signed(tx: UnsignedTx, key: Uint8Array, credentials: number): Uint8Array {
  const bytes = encodeUnsignedTx(tx);
  const signer = signerFromPrivateKey(key);
  const sig = signer.signHash(sha256(bytes));
  return attachCredentials(tx.chain, bytes, Array.from({ length: credentials }, () => ({ signatures: [sig] })));
}

function xSend(u: Utxo, pay: bigint, to: string, fee: bigint): UnsignedTx {
  return {
    chain: 'X',
    kind: 'base',
    networkID: devnet.state.networkID,
    blockchainID: parseCb58Id(devnet.state.chains.X),
    outputs: sortOutputs('X', [out(pay, to), out(u.amount - pay - fee, devnet.localKey.x)]),
    inputs: [input(u)],
    memo: new Uint8Array(),
  };
}

beforeAll(async () => {
  devnet = await startDevnet({ dialect: 'camino' });
});
afterAll(async () => {
  await devnet.close();
});

describe('a camino-dialect simulator issues signed bytes as a node does', () => {
  it('has its keystore off by default: /ext/keystore is 404 and keystore-backed methods refuse every user', async () => {
    const ks = await fetch(`${devnet.nodeUrl}/ext/keystore`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"jsonrpc":"2.0","id":1,"method":"keystore.listUsers"}' });
    expect(ks.status).toBe(404);
    const send = await rpc('/ext/bc/X', 'avm.send', { username: 'devnet', password: devnet.keystore.password, to: devnet.localKey.x, amount: 1, assetID: 'CAM' });
    expect(send.error?.message).toBe('problem retrieving user "devnet": incorrect password for user "devnet"');
    const on = await startDevnet({ dialect: 'camino', keystoreApi: true });
    try {
      expect((await fetch(`${on.nodeUrl}/ext/keystore`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"jsonrpc":"2.0","id":1,"method":"keystore.listUsers"}' })).status).toBe(200);
    } finally {
      await on.close();
    }
  });

  it("the local account's addresses come from its real key", () => {
    const k = realKey(devnet.state.hrp, 'local-signer');
    const s = signerFromPrivateKey(devnet.localKey.privateKey);
    expect(devnet.localKey.x).toBe(k.x);
    expect(parseChainAddress(devnet.localKey.x).bytes).toEqual(s.addresses.shortId);
    expect(devnet.localKey.c).toBe(s.addresses.evm.toLowerCase());
  });

  it('an X send: decoded, credential checked, fee checked, applied under txID = sha256(signed bytes); the same bytes again are refused', async () => {
    const alice = devnet.state.users.get('alice')!.keys[0]!.x;
    const u = unspent('X', devnet.localKey.x, (x) => x.amount === 100n * CAM);
    const bytes = signed(xSend(u, 1_500_000_000n, alice, devnet.state.fees.txFee), devnet.localKey.privateKey, 1);
    const r = await rpc('/ext/bc/X', 'avm.issueTx', { tx: signedTxHex(bytes), encoding: 'hex' });
    expect(r.error).toBeUndefined();
    expect(r.result?.txID).toBe(txIdOf(bytes));
    expect(devnet.state.utxos.get(u.id)!.spentBy).toBe(txIdOf(bytes));
    const made = [...devnet.state.utxos.values()].filter((x) => x.txID === txIdOf(bytes));
    expect(made.map((x) => x.amount).sort()).toEqual([1_500_000_000n, u.amount - 1_500_000_000n - devnet.state.fees.txFee].sort());
    expect(devnet.state.txs.get(txIdOf(bytes))!.fee).toBe(devnet.state.fees.txFee);
    const again = await rpc('/ext/bc/X', 'avm.issueTx', { tx: signedTxHex(bytes), encoding: 'hex' });
    expect(again.error?.message).toMatch(/already issued|missing utxo/);
  });

  it('refuses a signature from another key, a fee one unit short, a bad checksum and a missing UTXO', async () => {
    const alice = devnet.state.users.get('alice')!.keys[0]!.x;
    const u = unspent('X', devnet.localKey.x, (x) => x.amount === 3n * CAM);
    const thief = realKey(devnet.state.hrp, 'thief');
    const forged = signed(xSend(u, CAM, alice, devnet.state.fees.txFee), thief.privateKey, 1);
    expect((await rpc('/ext/bc/X', 'avm.issueTx', { tx: signedTxHex(forged), encoding: 'hex' })).error?.message).toMatch(/^wrong signature: expected signature from \S+ but got from \S+$/);
    const short = signed(xSend(u, CAM, alice, devnet.state.fees.txFee - 1n), devnet.localKey.privateKey, 1);
    expect((await rpc('/ext/bc/X', 'avm.issueTx', { tx: signedTxHex(short), encoding: 'hex' })).error?.message).toBe('insufficient funds');
    const good = signedTxHex(signed(xSend(u, CAM, alice, devnet.state.fees.txFee), devnet.localKey.privateKey, 1));
    const badSum = `${good.slice(0, -2)}${good.endsWith('00') ? '01' : '00'}`;
    expect((await rpc('/ext/bc/X', 'avm.issueTx', { tx: badSum, encoding: 'hex' })).error?.message).toMatch(/^problem decoding transaction: .*checksum/);
    const gone = { ...u, txID: devnet.state.nativeAssetID };
    const missing = signed(xSend(gone, CAM, alice, devnet.state.fees.txFee), devnet.localKey.privateKey, 1);
    expect((await rpc('/ext/bc/X', 'avm.issueTx', { tx: signedTxHex(missing), encoding: 'hex' })).error?.message).toBe('missing utxo');
    // Nothing of it changed the UTXO.
    expect(devnet.state.utxos.get(u.id)!.spentBy).toBeUndefined();
  });

  it('P: a deposited (locked.Out) UTXO cannot be spent as unlocked; an unlocked one exports to X with the exact fee', async () => {
    const deposited = unspent('P', devnet.localKey.p, (x) => x.depositTxID !== undefined);
    const base = (u: Utxo, exported: bigint, fee: bigint): UnsignedTx => ({
      chain: 'P',
      kind: 'export',
      networkID: devnet.state.networkID,
      blockchainID: parseCb58Id(devnet.state.chains.P),
      outputs: u.amount - exported - fee > 0n ? [out(u.amount - exported - fee, devnet.localKey.p)] : [],
      inputs: [input(u)],
      memo: new Uint8Array(),
      destinationChain: parseCb58Id(devnet.state.chains.X),
      exportedOutputs: [out(exported, devnet.localKey.x)],
    });
    const locked = signed(base(deposited, CAM, devnet.state.fees.txFee), devnet.localKey.privateKey, 1);
    expect((await rpc('/ext/P', 'platform.issueTx', { tx: signedTxHex(locked), encoding: 'hex' })).error?.message).toBe("couldn't issue tx: can't spend locked utxo");
    const unlocked = unspent('P', devnet.localKey.p, (x) => x.lock === 'unlocked' && x.depositTxID === undefined && x.bondTxID === undefined);
    const short = signed(base(unlocked, CAM, devnet.state.fees.txFee - 1n), devnet.localKey.privateKey, 1);
    expect((await rpc('/ext/P', 'platform.issueTx', { tx: signedTxHex(short), encoding: 'hex' })).error?.message).toMatch(/^couldn't issue tx: asset \S+ burned \d+ unlocked, but needed to burn \d+: burned less tokens, than needed to$/);
    const good = signed(base(unlocked, CAM, devnet.state.fees.txFee), devnet.localKey.privateKey, 1);
    const r = await rpc('/ext/P', 'platform.issueTx', { tx: signedTxHex(good), encoding: 'hex' });
    expect(r.error).toBeUndefined();
    const waiting = [...devnet.state.utxos.values()].filter((x) => x.txID === txIdOf(good) && x.chain === 'X');
    expect(waiting.map((x) => [x.amount, x.sourceChain, x.outputIndex])).toEqual([[CAM, 'P', 1]]);
  });

  it('C: an import takes the waiting UTXO, burns gas x base fee exactly and credits the rest; an export debits at the right nonce', async () => {
    const waiting = unspent('C', devnet.localKey.p.replace(/^P/, 'C'), (x) => x.sourceChain === 'X');
    const evm = Uint8Array.from(Buffer.from(devnet.localKey.c.slice(2), 'hex'));
    const importTx = (credit: bigint): UnsignedTx => ({
      chain: 'C',
      kind: 'import',
      networkID: devnet.state.networkID,
      blockchainID: parseCb58Id(devnet.state.chains.C),
      sourceChain: parseCb58Id(devnet.state.chains.X),
      importedInputs: sortInputs([input(waiting)]),
      outputs: [{ address: evm, amount: credit, assetID: parseCb58Id(devnet.state.nativeAssetID) }],
    });
    const fee = atomicFee(atomicGas(encodeUnsignedTx(importTx(1n)).length, 1), devnet.state.cBaseFee);
    const before = devnet.state.cBalances.get(devnet.localKey.c) ?? 0n;
    const greedy = signed(importTx(waiting.amount - fee + 1n), devnet.localKey.privateKey, 1);
    expect((await rpc('/ext/bc/C/avax', 'avax.issueTx', { tx: signedTxHex(greedy), encoding: 'hex' })).error?.message).toBe('import tx flow check failed due to: insufficient funds');
    const exact = signed(importTx(waiting.amount - fee), devnet.localKey.privateKey, 1);
    expect((await rpc('/ext/bc/C/avax', 'avax.issueTx', { tx: signedTxHex(exact), encoding: 'hex' })).error).toBeUndefined();
    expect(devnet.state.cBalances.get(devnet.localKey.c)).toBe(before + (waiting.amount - fee) * 1_000_000_000n);
    expect(devnet.state.txs.get(txIdOf(exact))!.fee).toBe(fee);

    const nonce = BigInt(devnet.state.cNonces.get(devnet.localKey.c) ?? 0);
    const exportTx = (n: bigint): UnsignedTx => ({
      chain: 'C',
      kind: 'export',
      networkID: devnet.state.networkID,
      blockchainID: parseCb58Id(devnet.state.chains.C),
      destinationChain: parseCb58Id(devnet.state.chains.X),
      inputs: [{ address: evm, amount: 2n * CAM, assetID: parseCb58Id(devnet.state.nativeAssetID), nonce: n }],
      exportedOutputs: [out(CAM, devnet.localKey.x)],
    });
    const stale = signed(exportTx(nonce + 1n), devnet.localKey.privateKey, 1);
    expect((await rpc('/ext/bc/C/avax', 'avax.issueTx', { tx: signedTxHex(stale), encoding: 'hex' })).error?.message).toMatch(/invalid nonce/);
    const thief = realKey(devnet.state.hrp, 'thief');
    const forged = signed(exportTx(nonce), thief.privateKey, 1);
    expect((await rpc('/ext/bc/C/avax', 'avax.issueTx', { tx: signedTxHex(forged), encoding: 'hex' })).error?.message).toMatch(/invalid signature/);
    const ok = signed(exportTx(nonce), devnet.localKey.privateKey, 1);
    expect((await rpc('/ext/bc/C/avax', 'avax.issueTx', { tx: signedTxHex(ok), encoding: 'hex' })).error).toBeUndefined();
    expect(devnet.state.cNonces.get(devnet.localKey.c)).toBe(Number(nonce) + 1);
  });

  it('eth_sendRawTransaction: legacy and EIP-1559 txs signed by viem are decoded, their sender recovered, chain ID and nonce checked', async () => {
    const account = privateKeyToAccount(`0x${Buffer.from(devnet.localKey.privateKey).toString('hex')}`);
    const to = devnet.state.users.get('alice')!.keys[0]!.c as `0x${string}`;
    const before = devnet.state.cBalances.get(to) ?? 0n;
    const nonce = devnet.state.cNonces.get(devnet.localKey.c) ?? 0;
    const send = async (raw: string) => rpc('/ext/bc/C/rpc', 'eth_sendRawTransaction', [raw]);
    const wrongChain = await account.signTransaction({ type: 'eip1559', chainId: devnet.state.evmChainId + 1, nonce, gas: 21_000n, maxFeePerGas: devnet.state.cBaseFee * 2n, maxPriorityFeePerGas: 1n, to, value: 1n });
    expect((await send(wrongChain)).error?.message).toBe('invalid chain id for signer');
    const typed = await account.signTransaction({ type: 'eip1559', chainId: devnet.state.evmChainId, nonce, gas: 21_000n, maxFeePerGas: devnet.state.cBaseFee * 2n, maxPriorityFeePerGas: 1n, to, value: 7n });
    expect((await send(typed)).result).toBe(keccak256(typed));
    expect((await send(typed)).error?.message).toBe('nonce too low');
    const legacy = await account.signTransaction({ type: 'legacy', chainId: devnet.state.evmChainId, nonce: nonce + 1, gas: 21_000n, gasPrice: devnet.state.cBaseFee, to, value: 5n });
    expect((await send(legacy)).result).toBe(keccak256(legacy));
    expect(devnet.state.cBalances.get(to)).toBe(before + 12n);
    expect(devnet.state.cBlocks.at(-1)!.transactions[0]!.from).toBe(devnet.localKey.c);
  });
});

describe("Camino's own P transactions, verified as caminogo's executor does", () => {
  const P = () => ({ networkID: devnet.state.networkID, blockchainID: parseCb58Id(devnet.state.chains.P), memo: new Uint8Array() });
  const key = () => devnet.localKey;
  const issue = async (tx: UnsignedTx, credentials: number, privateKey = key().privateKey) =>
    rpc('/ext/P', 'platform.issueTx', { tx: signedTxHex(signed(tx, privateKey, credentials)), encoding: 'hex' });
  const unlockedP = () =>
    [...devnet.state.utxos.values()]
      .filter((x) => !x.spentBy && x.chain === 'P' && x.addresses.includes(key().p) && x.depositTxID === undefined && x.bondTxID === undefined && x.locktime === 0n)
      .sort((a, b) => (a.amount > b.amount ? -1 : 1))[0]!;
  const ownedBy = (amount: bigint, address: string, locktime = 0n): TransferableOutput => ({
    assetID: parseCb58Id(devnet.state.nativeAssetID),
    output: { kind: 'secp.transfer', amount, owners: { locktime, threshold: 1, addresses: [parseChainAddress(address).bytes] } },
  });
  const depositLocked = (amount: bigint, depositTxID: string): TransferableOutput => ({
    assetID: parseCb58Id(devnet.state.nativeAssetID),
    output: { kind: 'locked', lockIDs: { depositTxID: parseCb58Id(depositTxID), bondTxID: ZERO_ID }, output: { kind: 'secp.transfer', amount, owners: { locktime: 0n, threshold: 1, addresses: [parseChainAddress(key().p).bytes] } } },
  });
  const lockedInput = (u: Utxo): TransferableInput => ({
    txID: parseCb58Id(u.txID),
    outputIndex: u.outputIndex,
    assetID: parseCb58Id(u.assetID),
    input: { kind: 'locked', lockIDs: { depositTxID: parseCb58Id(u.depositTxID!), bondTxID: ZERO_ID }, input: { kind: 'secp.transfer', amount: u.amount, sigIndices: [0] } },
  });

  it('an unlock: no more than its unlock period freed, and no unlocked change of the deposit\'s owner while part stays deposited', async () => {
    const id = registeredId('local-signer:deposit');
    const deposited = unspent('P', key().p, (x) => x.depositTxID === id);
    const fee = unlockedP();
    const txFee = devnet.state.fees.txFee;
    const unlock = (amount: bigint, changeLocktime: bigint): UnsignedTx => ({
      chain: 'P',
      kind: 'unlockDeposit',
      ...P(),
      inputs: sortInputs([lockedInput(deposited), input(fee)]),
      outputs: sortOutputs('P', [ownedBy(amount, key().p), depositLocked(deposited.amount - amount, id), ownedBy(fee.amount - txFee, key().p, changeLocktime)]),
    });
    // Two thirds of 10 CAM are unlockable 20 days into a 30-day period.
    expect((await issue(unlock(7n * CAM, 1n), 2)).error?.message).toBe("couldn't issue tx: unlocked more deposited tokens than was available for unlock");
    // Sorted, the change (unlocked, same owner) comes before the locked remainder and takes what must stay deposited.
    expect((await issue(unlock(CAM, 0n), 2)).error?.message).toMatch(/^couldn't issue tx: flow check failed: address produces \d+ and consumes 0 with unlock 'deposited': produced more tokens, than input had$/);
    const r = await issue(unlock(CAM, 1n), 2);
    expect(r.error).toBeUndefined();
    expect(devnet.state.deposits.get(id)!.unlockedAmount).toBe(CAM);
    expect(deposited.spentBy).toBe(r.result!.txID);
  });

  it('a claim: no more than claimable, and only with the owner\'s signature for the claimable', async () => {
    const owner = { locktime: 0n, threshold: 1, addresses: [parseChainAddress(key().p).bytes] };
    const claimable = devnet.state.claimables.find((c) => c.owner.addresses[0] === key().p)!;
    const fee = unlockedP();
    const claim = (amount: bigint): UnsignedTx => ({
      chain: 'P',
      kind: 'claim',
      ...P(),
      inputs: [input(fee)],
      outputs: sortOutputs('P', [ownedBy(amount, key().p), ownedBy(fee.amount - devnet.state.fees.txFee, key().p)]),
      claimables: [{ id: ownerId(owner), type: 0n, amount, ownerAuth: { sigIndices: [0] } }],
    });
    expect((await issue(claim(claimable.validatorRewards + 1n), 2)).error?.message).toBe("couldn't issue tx: claiming more than was available to claim");
    const other = realKey(devnet.state.hrp, 'not-the-owner');
    expect((await issue(claim(claimable.validatorRewards), 2, other.privateKey)).error?.message).toMatch(/^couldn't issue tx: claimable credential isn't matching: wrong signature/);
    const before = claimable.validatorRewards;
    const r = await issue(claim(before), 2);
    expect(r.error).toBeUndefined();
    expect([...devnet.state.utxos.values()].filter((u) => u.txID === r.result!.txID).map((u) => u.amount)).toContain(before);
    expect(devnet.state.claimables.find((c) => c.owner.addresses[0] === key().p)?.validatorRewards ?? 0n).toBe(0n);
  });

  it('a deposit: an active offer only, from unlocked outputs only; the new deposit starts at the chain time', async () => {
    const fee = unlockedP();
    const txFee = devnet.state.fees.txFee;
    const deposit = (offer: string, from: Utxo, amount: bigint, duration: number): UnsignedTx => ({
      chain: 'P',
      kind: 'deposit',
      upgradeVersion: 0,
      ...P(),
      inputs: [from.depositTxID ? lockedInput(from) : input(from)],
      outputs: sortOutputs('P', [depositLocked(amount, formatCb58Id(THIS_TX_ID)), ownedBy(from.amount - amount - txFee, key().p)]),
      depositOfferID: parseCb58Id(offer),
      depositDuration: duration,
      rewardsOwner: { locktime: 0n, threshold: 1, addresses: [parseChainAddress(key().p).bytes] },
    });
    const [standard, premium] = devnet.state.depositOffers;
    // Locked "by this tx" (THIS_TX_ID), fixed to the deposit's own ID at acceptance.
    const held = unspent('P', key().p, (x) => x.depositTxID === registeredId('local-signer:expired-deposit'));
    expect((await issue(deposit(standard!.id, held, CAM, 90 * 86_400), 1)).error?.message).toBe("couldn't issue tx: flow check failed: utxo consumed for locking are already locked");
    expect((await issue(deposit(premium!.id, fee, CAM, 400 * 86_400), 1)).error?.message).toBe("couldn't issue tx: deposit offer is inactive");
    expect((await issue(deposit(standard!.id, fee, CAM, 86_400), 1)).error?.message).toBe("couldn't issue tx: deposit duration is less than deposit offer minmum duration");
    const before = devnet.state.now();
    const r = await issue(deposit(standard!.id, fee, CAM, 90 * 86_400), 1);
    expect(r.error).toBeUndefined();
    const txID = String(r.result!.txID);
    // The chain time at acceptance: between the clock read before the issue and after it (a second may turn meanwhile).
    const made = devnet.state.deposits.get(txID)!;
    expect(made).toMatchObject({ amount: CAM, duration: 90 * 86_400 });
    expect(made.start).toBeGreaterThanOrEqual(before);
    expect(made.start).toBeLessThanOrEqual(devnet.state.now());
    expect([...devnet.state.utxos.values()].filter((u) => u.txID === txID && u.depositTxID === txID).map((u) => u.amount)).toEqual([CAM]);
  });
});
