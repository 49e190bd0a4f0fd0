import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { formatAmount } from '../../src/codec/index.js';
import { type Devnet, startDevnet } from '../../src/devnet/index.js';
import { type DevnetState, LOCAL_ACCOUNT, registeredId, type Utxo } from '../../src/devnet/state/index.js';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { signerFromPrivateKey } from '../../src/signer/index.js';
import { writeKeyFile } from '../../src/signer/keyfile.js';
import type { StateStore } from '../../src/state/store.js';
import { requestsFor, type SpendCall, type SpendHarness, spendHarness } from '../helpers/spend-harness.js';

/**
 * The local signer against a Camino node with its keystore off (the simulator's camino dialect,
 * as a default caminogo): every spend previews from its own decoded bytes, is confirmed and
 * issued once, and the node's state then holds exactly what the preview said.
 */

const CAM = 1_000_000_000n;
const WEI = 1_000_000_000n;
const show = (v: bigint) => formatAmount(v, { decimals: 9, symbol: 'CAM' });

let devnet: Devnet;
let state: DevnetState;
const open: SpendHarness[] = [];
let dir: string;
const PASSPHRASE = 'correct horse battery staple 32';

/** A server whose local key is the devnet account's, in a real key file unlocked from the passphrase file. */
async function harness(env: Record<string, string> = {}, state?: StateStore): Promise<SpendHarness> {
  const h = await spendHarness(devnet, {
    env: { CHAIN_MCP_APPROVAL: 'confirm-id', CHAIN_MCP_SIGNER: 'local', CHAIN_MCP_KEY_FILE: join(dir, 'key.json'), CHAIN_MCP_KEY_PASSPHRASE_FILE: join(dir, 'passphrase'), ...env },
    ...(state ? { state } : {}),
  });
  open.push(h);
  return h;
}

/** Every issue a spend can make, counted on the node. */
const ISSUES = ['avm.issueTx', 'platform.issueTx', 'avax.issueTx', 'eth_sendRawTransaction'];
const issued = () => Object.fromEntries(ISSUES.map((m) => [m, requestsFor(devnet, m)]));

async function previewOf(h: SpendHarness, tool: string, args: Record<string, unknown>): Promise<SpendCall> {
  const p = await h.call(tool, args);
  expect(p.isError, p.text).toBe(false);
  expect(p.structured?.status).toBe('preview');
  return p;
}

async function spend(h: SpendHarness, tool: string, args: Record<string, unknown>) {
  const preview = await previewOf(h, tool, args);
  const before = issued();
  const done = await h.call(tool, { ...args, confirm: preview.structured!.confirmationId });
  expect(done.isError, done.text).toBe(false);
  expect(done.structured?.status).toBe('issued');
  const after = issued();
  const sent = Object.fromEntries(ISSUES.map((m) => [m, after[m]! - before[m]!]).filter(([, n]) => n !== 0));
  return { preview, done, sent, result: done.structured!.result as Record<string, unknown> };
}

/** "Tx output 2: 1.5 CAM to X-local1… (payment; unlocked)" -> [amount text, address]; one label per transaction. */
function outputsIn(lines: readonly string[], label: string): Array<[string, string]> {
  const re = new RegExp(`^${label} output \\d+: ([\\d,.]+ CAM) to (\\S+) \\(`);
  return lines.flatMap((l) => {
    const m = re.exec(l);
    return m ? [[m[1]!, m[2]!] as [string, string]] : [];
  });
}

function inputsIn(lines: readonly string[], label: string): string[] {
  return lines.filter((l) => l.startsWith(`${label} input `));
}

function feeIn(lines: readonly string[], label: string): string {
  const line = lines.find((l) => l.startsWith(`${label} fee: `));
  expect(line, lines.join('\n')).toBeDefined();
  return /fee: ([\d,.]+ CAM)/.exec(line!)![1]!;
}

/** What the node holds for the outputs of `txID`, in the preview's words. */
function stateOutputs(txID: string): Array<[string, string]> {
  return [...state.utxos.values()]
    .filter((u) => u.txID === txID)
    .sort((a, b) => a.outputIndex - b.outputIndex)
    .map((u) => [show(u.amount), u.addresses.join(', ')] as [string, string]);
}

const sorted = (x: Array<[string, string]>) => [...x].sort((a, b) => (a.join() < b.join() ? -1 : 1));

const alice = () => state.users.get('alice')!.keys[0]!;
const waitingOnC = (): Utxo[] => [...state.utxos.values()].filter((u) => !u.spentBy && u.chain === 'C' && u.sourceChain === 'X' && u.addresses.includes(`C-${devnet.localKey.x.slice(2)}`));

beforeAll(async () => {
  devnet = await startDevnet({ dialect: 'camino' });
  devnet.router.record = true;
  state = devnet.state;
  dir = mkdtempSync(join(tmpdir(), 'chain-mcp-local-'));
  // A light scrypt cost keeps the test quick; the format is the real one.
  await writeKeyFile(join(dir, 'key.json'), devnet.localKey.privateKey, PASSPHRASE, { N: 2 ** 12, r: 8, p: 1 });
  writeFileSync(join(dir, 'passphrase'), `${PASSPHRASE}\n`, { mode: 0o600 });
});
afterEach(async () => {
  for (const h of open.splice(0)) await h.close();
});
afterAll(async () => {
  await devnet.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('local signer on a node without a keystore', () => {
  it('the node has no keystore: the keystore path is refused there', async () => {
    const r = await fetch(`${devnet.nodeUrl}/ext/keystore`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"jsonrpc":"2.0","id":1,"method":"keystore.listUsers"}' });
    expect(r.status).toBe(404);
  });

  it('a 1.5 CAM X send: previewed from its bytes, issued once with avm.issueTx, and the node holds exactly the previewed outputs and fee', async () => {
    const h = await harness();
    const { preview, sent, result } = await spend(h, 'xvm_send', { amount: '1.5 CAM', assetID: 'CAM', to: alice().x, memo: 'rent' });
    const lines = preview.structured!.preview as string[];
    expect(sent).toEqual({ 'avm.issueTx': 1 });
    const txID = String(result.txID);
    // Every output the preview named, and no other, with its address and amount.
    expect(sorted(outputsIn(lines, 'Tx'))).toEqual(sorted(stateOutputs(txID)));
    expect(outputsIn(lines, 'Tx')).toContainEqual(['1.5 CAM', alice().x]);
    // Every input listed, each with its amount; the fee is inputs - outputs, and the node burned exactly that.
    const tx = state.txs.get(txID)!;
    expect(inputsIn(lines, 'Tx')).toHaveLength(tx.inputs.length);
    for (const i of tx.inputs) expect(lines.some((l) => l.includes(`UTXO ${i.txID}:${i.outputIndex}`) && l.includes(show(i.amount)))).toBe(true);
    expect(feeIn(lines, 'Tx')).toBe(show(tx.fee));
    expect(tx.fee).toBe(state.fees.txFee);
    expect(lines).toContain('Memo (written by the requester): "rent"');
    expect(lines.some((l) => /^Tx: X-Chain send, network 12345, blockchain \S+$/.test(l))).toBe(true);
  });

  it('an X->C move of 2 CAM with 20 CAM already waiting imports only its own output; Arrives is net of the import fee and is what C receives', async () => {
    const h = await harness();
    const before = waitingOnC();
    expect(before.map((u) => u.amount)).toEqual([LOCAL_ACCOUNT.waitingOnC]);
    const balance = state.cBalances.get(devnet.localKey.c) ?? 0n;
    const { preview, sent, result } = await spend(h, 'transfer', { to: `C-${devnet.localKey.x.slice(2)}`, amount: '2 CAM' });
    const lines = preview.structured!.preview as string[];
    expect(sent).toEqual({ 'avm.issueTx': 1, 'avax.issueTx': 1 });
    // The import lists exactly one input: the export's own 2 CAM, never the 20 CAM waiting.
    const importInputs = inputsIn(lines, 'Tx 2 of 2');
    expect(importInputs).toHaveLength(1);
    expect(importInputs[0]).toContain(show(2n * CAM));
    expect(waitingOnC().map((u) => u.id)).toEqual(before.map((u) => u.id));
    const steps = result.steps as Array<{ txID: string }>;
    const importFee = state.txs.get(steps[1]!.txID)!.fee;
    expect(importFee).toBeGreaterThan(0n);
    expect(feeIn(lines, 'Tx 2 of 2')).toBe(show(importFee));
    const credited = (state.cBalances.get(devnet.localKey.c)! - balance) / WEI;
    expect(credited).toBe(2n * CAM - importFee);
    expect(lines).toContain(`Arrives: ${show(credited)} at ${signerFromPrivateKey(devnet.localKey.privateKey).addresses.evm} (the amount less the import fee)`);
    // The export's outputs are the previewed ones, and its fee the node's.
    expect(sorted(outputsIn(lines, 'Tx 1 of 2'))).toEqual(sorted(stateOutputs(steps[0]!.txID)));
    expect(state.txs.get(steps[0]!.txID)!.fee).toBe(state.fees.txFee);
  });

  it('with all: true the import lists every waiting input and the total arrives', async () => {
    const h = await harness();
    const waiting = waitingOnC();
    const total = waiting.reduce((s, u) => s + u.amount, 0n);
    const balance = state.cBalances.get(devnet.localKey.c) ?? 0n;
    const { preview, result } = await spend(h, 'transfer', { to: `C-${devnet.localKey.x.slice(2)}`, amount: '1 CAM', all: true });
    const lines = preview.structured!.preview as string[];
    const importInputs = inputsIn(lines, 'Tx 2 of 2');
    expect(importInputs).toHaveLength(waiting.length + 1);
    for (const u of waiting) expect(importInputs.some((l) => l.includes(`${u.txID}:${u.outputIndex}`) && l.includes(show(u.amount)))).toBe(true);
    const importFee = state.txs.get((result.steps as Array<{ txID: string }>)[1]!.txID)!.fee;
    expect((state.cBalances.get(devnet.localKey.c)! - balance) / WEI).toBe(total + CAM - importFee);
    expect(waitingOnC()).toEqual([]);
    expect(lines.some((l) => l.startsWith(`Arrives: ${show(total + CAM - importFee)} `))).toBe(true);
  });

  it('a P->X move: exported from unlocked P outputs only, imported on X; the deposited and bonded outputs stay', async () => {
    const h = await harness();
    const locked = [...state.utxos.values()].filter((u) => u.chain === 'P' && (u.depositTxID || u.bondTxID) && u.addresses.includes(devnet.localKey.p));
    // Two deposits (one running, one ended) and a bond.
    expect(locked).toHaveLength(3);
    const { preview, sent, result } = await spend(h, 'transfer', { to: devnet.localKey.x, amount: '1 CAM', sourceChain: 'P' });
    const lines = preview.structured!.preview as string[];
    expect(sent).toEqual({ 'platform.issueTx': 1, 'avm.issueTx': 1 });
    for (const u of locked) {
      expect(u.spentBy).toBeUndefined();
      expect(lines.join('\n')).not.toContain(`${u.txID}:${u.outputIndex}`);
    }
    const steps = result.steps as Array<{ txID: string }>;
    expect(sorted(outputsIn(lines, 'Tx 2 of 2'))).toEqual(sorted(stateOutputs(steps[1]!.txID)));
    const arrived = [...state.utxos.values()].filter((u) => u.txID === steps[1]!.txID).reduce((s, u) => s + u.amount, 0n);
    expect(arrived).toBe(CAM - state.fees.txFee);
    expect(lines.some((l) => l.startsWith(`Arrives: ${show(CAM - state.fees.txFee)} at ${devnet.localKey.x}`))).toBe(true);
  });

  it('a C->X move: the EVM input at the node nonce, the exact atomic fee, then the import on X', async () => {
    const h = await harness();
    const balance = state.cBalances.get(devnet.localKey.c)!;
    const { preview, sent, result } = await spend(h, 'transfer', { to: devnet.localKey.x, amount: '1 CAM', sourceChain: 'C' });
    const lines = preview.structured!.preview as string[];
    expect(sent).toEqual({ 'avax.issueTx': 1, 'avm.issueTx': 1 });
    const steps = result.steps as Array<{ txID: string }>;
    const exportFee = state.txs.get(steps[0]!.txID)!.fee;
    expect(feeIn(lines, 'Tx 1 of 2')).toBe(show(exportFee));
    expect(state.cBalances.get(devnet.localKey.c)).toBe(balance - (CAM + exportFee) * WEI);
    expect(sorted(outputsIn(lines, 'Tx 2 of 2'))).toEqual(sorted(stateOutputs(steps[1]!.txID)));
  });

  it('an EVM send: viem-serialized, the signed maximum fee shown and counted, issued once with eth_sendRawTransaction', async () => {
    const h = await harness();
    const to = alice().c;
    const before = state.cBalances.get(to) ?? 0n;
    const from = state.cBalances.get(devnet.localKey.c)!;
    const { preview, sent, done } = await spend(h, 'transfer', { to, amount: '0.5 CAM', sourceChain: 'C' });
    const lines = preview.structured!.preview as string[];
    expect(sent).toEqual({ eth_sendRawTransaction: 1 });
    expect(lines).toContain(`Tx to: ${to}`);
    expect(lines.some((l) => l.startsWith(`Tx: C-Chain EVM send (EIP-1559), chain ID ${state.evmChainId}`))).toBe(true);
    expect(state.cBalances.get(to)).toBe(before + CAM / 2n * WEI);
    const mined = state.cBlocks.at(-1)!.transactions.at(-1)!;
    expect(done.text).toContain(mined.hash);
    const maxFee = BigInt((preview.structured!.details as { maxFeeWei: string }).maxFeeWei);
    expect(from - state.cBalances.get(devnet.localKey.c)! - CAM / 2n * WEI).toBeLessThanOrEqual(maxFee);
    expect(mined.gasLimit * mined.maxFeePerGas).toBe(maxFee);
  });
});

describe("the user's own addresses come from the key", () => {
  it('account_overview with no address reads the key: X, P and C', async () => {
    const h = await harness();
    const r = await h.call('account_overview', {});
    expect(r.isError, r.text).toBe(false);
    const out = r.structured as { accounts: Array<{ address: string }>; evm: Array<{ address: string }> };
    expect(out.accounts.map((a) => a.address)).toEqual([devnet.localKey.x.slice(2)]);
    expect(out.evm.map((e) => e.address)).toEqual([devnet.localKey.c]);
    // The key's own deposits and rewards, the holder's first questions: when each unlocks, what can be claimed,
    // and the tool for the next step (ended and running deposits apart: the node refuses them mixed).
    expect(r.text).toMatch(new RegExp(`10 CAM deposited until \\d{4}-\\d\\d-\\d\\d \\(in (about )?10 days\\), [\\d.]+ CAM unlockable now, deposit reward [\\d.]+ CAM claimable now \\(deposit ${registeredId('local-signer:deposit')}\\)`));
    expect(r.text).toContain(`to unlock: platform_unlockDeposit {"depositTxIDs": ["${registeredId('local-signer:expired-deposit')}"]}`);
    expect(r.text).toContain(`to unlock: platform_unlockDeposit {"depositTxIDs": ["${registeredId('local-signer:deposit')}"]}`);
    expect(r.text).toMatch(/claimable now: [\d.]+ CAM \(deposit rewards [\d.]+ CAM, validator rewards 1\.5 CAM, expired deposit rewards 0 CAM\); claim with platform_claim/);
  });

  it('transfer to C credits the key by default; another 0x address is marked "cannot be checked as yours" and refused under any limit', async () => {
    const h = await harness();
    const to = `C-${devnet.localKey.x.slice(2)}`;
    const own = await previewOf(h, 'transfer', { to, amount: '1 CAM' });
    expect((own.structured!.preview as string[]).some((l) => l.startsWith(`Credited to: ${signerFromPrivateKey(devnet.localKey.privateKey).addresses.evm} (your address)`))).toBe(true);
    const other = await previewOf(h, 'transfer', { to, amount: '1 CAM', evmAddress: alice().c });
    expect(other.structured!.preview).toContain(`Credited to: ${alice().c} (cannot be checked as yours)`);
    const limited = await harness({ CHAIN_MCP_MAX_SPEND: '100000000000' });
    const before = issued();
    const r = await limited.call('transfer', { to, amount: '1 CAM', evmAddress: alice().c });
    expect(r.isError).toBe(true);
    expect(r.text).toContain(`cannot tell whether ${alice().c}`);
    expect(issued()).toEqual(before);
  });
});

describe('a two-step transfer counts both fees', () => {
  async function fees(): Promise<{ exportFee: bigint; importFee: bigint }> {
    const h = await harness();
    const p = await previewOf(h, 'transfer', { to: `C-${devnet.localKey.x.slice(2)}`, amount: '1 CAM' });
    const [exportFee, importFee] = (p.structured!.details as { fees: string[] }).fees.map(BigInt) as [bigint, bigint];
    return { exportFee, importFee };
  }

  it('in the daily total: a move to the key\'s own C account counts both fees (the amount stays the key\'s); that limit passes, one unit less is refused before anything is sent', async () => {
    const { exportFee, importFee } = await fees();
    // The two fees differ (X's txFee, C's gas x base fee), so counting one of them twice fails one side.
    expect(exportFee).not.toBe(importFee);
    // What the chain records the key sent today already (this file's earlier spends) counts too.
    const probe = await (await harness({ CHAIN_MCP_MAX_SPEND_PER_DAY: '1' })).call('transfer', { to: `C-${devnet.localKey.x.slice(2)}`, amount: '1 CAM' });
    const [whole, frac = ''] = /; ([\d.]+) CAM was sent already/.exec(probe.text)![1]!.split('.');
    const already = BigInt(whole!) * CAM + BigInt(frac.padEnd(9, '0'));
    const total = already + exportFee + importFee;
    const tight = await harness({ CHAIN_MCP_MAX_SPEND_PER_DAY: String(total - 1n) });
    const before = issued();
    const refused = await tight.call('transfer', { to: `C-${devnet.localKey.x.slice(2)}`, amount: '1 CAM' });
    expect(refused.isError).toBe(true);
    expect(refused.text).toContain('CHAIN_MCP_MAX_SPEND_PER_DAY');
    const exact = await harness({ CHAIN_MCP_MAX_SPEND_PER_DAY: String(total) });
    const p = await previewOf(exact, 'transfer', { to: `C-${devnet.localKey.x.slice(2)}`, amount: '1 CAM' });
    expect((p.structured!.preview as string[])[1]).toBe(`Total leaving your key: ${show(exportFee + importFee)} (every fee; nothing else leaves)`);
    expect(issued()).toEqual(before);
    const done = await exact.call('transfer', { to: `C-${devnet.localKey.x.slice(2)}`, amount: '1 CAM', confirm: p.structured!.confirmationId });
    expect(done.isError, done.text).toBe(false);
    // The day's allowance is used up to the unit: nothing more fits.
    expect((await exact.call('transfer', { to: `C-${devnet.localKey.x.slice(2)}`, amount: '1 CAM' })).text).toContain('CHAIN_MCP_MAX_SPEND_PER_DAY');
  });
});

describe('what sends nothing', () => {
  it('a tampered argument, a forged id and a reused id', async () => {
    const h = await harness();
    const args = { amount: '1 CAM', assetID: 'CAM', to: alice().x };
    const p = await previewOf(h, 'xvm_send', args);
    const id = String(p.structured!.confirmationId);
    const before = issued();
    const tampered = await h.call('xvm_send', { ...args, amount: '2 CAM', confirm: id });
    expect(tampered.isError).toBe(true);
    expect(tampered.text).toContain('does not match this tool and these exact arguments');
    const forged = await h.call('xvm_send', { ...args, confirm: `${id.slice(0, -3)}${id.endsWith('AAA') ? 'BBB' : 'AAA'}` });
    expect(forged.isError).toBe(true);
    expect(issued()).toEqual(before);
    const done = await h.call('xvm_send', { ...args, confirm: id });
    expect(done.isError, done.text).toBe(false);
    const again = await h.call('xvm_send', { ...args, confirm: id });
    expect(again.isError).toBe(true);
    expect(issued()['avm.issueTx']).toBe(before['avm.issueTx']! + 1);
  });

  it('kept bytes changed in the state store are refused as altered, signed by no one', async () => {
    const h = await harness();
    const args = { amount: '1 CAM', assetID: 'CAM', to: alice().x };
    const p = await previewOf(h, 'xvm_send', args);
    const id = String(p.structured!.confirmationId);
    // The kept record, changed where it is kept (the state store): one bit of the bytes flipped.
    const nonce = id.split('.')[0]!;
    const sealed = JSON.parse((await h.services.state.getPreview(nonce, Date.now()))!) as { record: string; seal: string };
    const kept = JSON.parse(sealed.record) as { steps: Array<{ bytes: string }> };
    const last = kept.steps[0]!.bytes.slice(-2);
    kept.steps[0]!.bytes = kept.steps[0]!.bytes.slice(0, -2) + (Number.parseInt(last, 16) ^ 1).toString(16).padStart(2, '0');
    expect(await h.services.state.takePreview(nonce)).toBe(true);
    expect(await h.services.state.putPreview(nonce, JSON.stringify({ ...sealed, record: JSON.stringify(kept) }), Date.now() + 60_000, Date.now(), 10)).toBe(true);
    const before = issued();
    const r = await h.call('xvm_send', { ...args, confirm: id });
    expect(r.isError).toBe(true);
    expect(r.text).toContain('Refused: the transaction kept for this preview was altered in the state store, or kept by another process (not this server). Nothing was signed or sent.');
    // What to do: a fresh preview, and the operator told that something else wrote the store.
    expect(r.text.split('\n')[1]).toBe(
      'What to try: Call the tool again without confirm for a fresh preview; tell the operator the state store was written by something other than chain-mcp.',
    );
    expect(h.logs.some((l) => l.includes('"audit":"tampered"'))).toBe(true);
    // Never signed, however often it is tried.
    expect((await h.call('xvm_send', { ...args, confirm: id })).isError).toBe(true);
    expect(issued()).toEqual(before);
  });

  it('kept bytes that differ from the approved hash are refused, signed by no one (even in a record this server sealed)', async () => {
    const h = await harness();
    const args = { amount: '1 CAM', assetID: 'CAM', to: alice().x };
    const p = await previewOf(h, 'xvm_send', args);
    const id = String(p.structured!.confirmationId);
    const nonce = id.split('.')[0]!;
    const record = await h.services.localRecords.get(nonce);
    if (!record || record === 'tampered') throw new Error('no kept record');
    const bytes = Uint8Array.from(record.spend.steps[0]!.bytes);
    bytes[bytes.length - 1]! ^= 1;
    await h.services.localRecords.take(nonce);
    await h.services.localRecords.put(nonce, { ...record, spend: { ...record.spend, steps: [{ ...record.spend.steps[0]!, bytes }] } });
    const before = issued();
    const r = await h.call('xvm_send', { ...args, confirm: id });
    expect(r.isError).toBe(true);
    expect(r.text).toContain('no longer match the hash that was approved');
    expect(issued()).toEqual(before);
  });

  it("a transfer's export, signed again at confirm, must have the ID its import names, or nothing is issued", async () => {
    const h = await harness();
    const args = { to: `C-${devnet.localKey.x.slice(2)}`, amount: '1 CAM' };
    const p = await previewOf(h, 'transfer', args);
    const nonce = String(p.structured!.confirmationId).split('.')[0]!;
    const record = await h.services.localRecords.get(nonce);
    if (!record || record === 'tampered') throw new Error('no kept record');
    expect(record.spend.steps[0]!.expectId).toBe((p.structured!.details as { exportTxID: string }).exportTxID);
    // As if signing were not deterministic: the ID the import names is not the one signing gives now.
    await h.services.localRecords.take(nonce);
    const other = registeredId('some-other-export');
    await h.services.localRecords.put(nonce, { ...record, spend: { ...record.spend, steps: [{ ...record.spend.steps[0]!, expectId: other }, record.spend.steps[1]!] } });
    const before = issued();
    const r = await h.call('transfer', { ...args, confirm: p.structured!.confirmationId });
    expect(r.isError).toBe(true);
    expect(r.text).toContain(`Refused: step 1 signed now does not have the ID its preview computed (${other}), so the step after it would name nothing. Nothing was sent.`);
    expect(issued()).toEqual(before);
    // Its reservation came back: the daily total counts nothing for it.
    expect(await h.services.ledger.spent()).toBe(0n);
  });

  it('a spend the human approved says who approved it in its issued result, as under the keystore signer', async () => {
    const h = await spendHarness(devnet, {
      env: { CHAIN_MCP_APPROVAL: 'human', CHAIN_MCP_SIGNER: 'local', CHAIN_MCP_KEY_FILE: join(dir, 'key.json'), CHAIN_MCP_KEY_PASSPHRASE_FILE: join(dir, 'passphrase') },
      capabilities: { elicitation: { form: {} } },
      elicit: () => ({ action: 'accept', content: { approve: true } }),
    });
    open.push(h);
    const { done } = await spend(h, 'xvm_send', { amount: '1 CAM', assetID: 'CAM', to: alice().x });
    expect(done.structured?.approvedBy).toBe('form-elicitation');
  });

  it('with no channel to the human and no passkey, a locked key is refused for the channel first: no unlock is asked for a spend no one could approve', async () => {
    const h = await spendHarness(devnet, { env: { CHAIN_MCP_SIGNER: 'local', CHAIN_MCP_KEY_FILE: join(dir, 'key.json') } });
    open.push(h);
    expect(h.services.signer!.isUnlocked()).toBe(false);
    const before = issued();
    const r = await h.call('xvm_send', { amount: '1 CAM', assetID: 'CAM', to: alice().x });
    expect(r.isError).toBe(true);
    expect(r.text).toContain('Refused: this client has no channel to the human');
    expect(r.text).not.toContain('The signing key is locked');
    expect(r.text).not.toContain('/unlock/');
    expect(issued()).toEqual(before);
  });

  it('a locked key: the preview says how to unlock and offers nothing to confirm; a key locked after the preview signs nothing', async () => {
    const h = await harness();
    const args = { amount: '1 CAM', assetID: 'CAM', to: alice().x };
    const p = await previewOf(h, 'xvm_send', args);
    h.services.signer!.lock();
    const before = issued();
    const r = await h.call('xvm_send', { ...args, confirm: p.structured!.confirmationId });
    expect(r.isError).toBe(true);
    expect(r.text).toContain('The signing key is locked');
    const again = await h.call('xvm_send', args);
    expect(again.structured?.confirmationId).toBeUndefined();
    expect(again.text).toContain('The signing key is locked');
    expect(again.text).toContain('Key: LOCKED');
    const cross = await h.call('transfer', { to: `C-${devnet.localKey.x.slice(2)}`, amount: '1 CAM' });
    expect(cross.isError).toBe(true);
    expect(cross.text).toContain('The signing key is locked');
    expect(issued()).toEqual(before);
  });

  it('deposited and bonded P outputs are never spent: more than the unlocked P balance cannot be built', async () => {
    const h = await harness();
    const unlocked = [...state.utxos.values()].filter((u) => !u.spentBy && u.chain === 'P' && !u.depositTxID && !u.bondTxID && u.addresses.includes(devnet.localKey.p)).reduce((s, u) => s + u.amount, 0n);
    const before = issued();
    const r = await h.call('platform_exportNative', { to: devnet.localKey.x, amount: String(unlocked) });
    expect(r.isError).toBe(true);
    expect(r.text).toMatch(/Cannot build this transaction/);
    expect(issued()).toEqual(before);
  });

  it('spend tools the local signer does not build are refused in one line naming the keystore signer, before any request', async () => {
    const h = await harness();
    const count = devnet.router.requests.length;
    const r = await h.call('xvm_createFixedCapAsset', { name: 'Gold', symbol: 'GLD', initialHolders: [{ address: alice().x, amount: '1' }] });
    expect(r.isError).toBe(true);
    expect(r.text.split('\n')[0]).toMatch(/needs the keystore signer/);
    expect(devnet.router.requests.length).toBe(count);
  });

  it('the private key appears in no result, log line or request', async () => {
    const h = await harness();
    const texts: string[] = [];
    const p = await previewOf(h, 'xvm_send', { amount: '1 CAM', assetID: 'CAM', to: alice().x });
    texts.push(JSON.stringify(p));
    texts.push(JSON.stringify(await h.call('xvm_send', { amount: '1 CAM', assetID: 'CAM', to: alice().x, confirm: p.structured!.confirmationId })));
    h.services.signer!.lock();
    texts.push(JSON.stringify(await h.call('xvm_send', { amount: '1 CAM', assetID: 'CAM', to: alice().x })));
    const key = Buffer.from(devnet.localKey.privateKey).toString('hex');
    const wire = JSON.stringify(devnet.router.requests.map((r) => r.body));
    for (const text of [...texts, ...h.logs, wire]) {
      expect(text.toLowerCase()).not.toContain(key);
      expect(text).not.toContain(PASSPHRASE);
    }
  });
});

/** caminogo deposit.TotalReward: amount x nominator x rewarded seconds / (1,000,000 x 365 days). */
const totalReward = (amount: bigint, rewardedSeconds: bigint, nominator: bigint) => (amount * rewardedSeconds * nominator) / (1_000_000n * 31_536_000n);
const DAY = 86_400n;
/** A time as the deposit preview names it: "2026-11-29 04:05 UTC". */
const utc = (unix: number) => `${new Date(unix * 1000).toISOString().slice(0, 16).replace('T', ' ')} UTC`;

describe("Camino's own spends under the local signer: deposit, unlock, claim", () => {
  const running = () => registeredId('local-signer:deposit');
  const ended = () => registeredId('local-signer:expired-deposit');
  const pUnlocked = () => [...state.utxos.values()].filter((u) => !u.spentBy && u.chain === 'P' && !u.depositTxID && !u.bondTxID && u.addresses.includes(devnet.localKey.p));
  const keyClaimable = () => state.claimables.find((c) => c.owner.addresses.length === 1 && c.owner.addresses[0] === devnet.localKey.p);

  it('a deposit of 5 CAM into the open offer for 60 days: previewed from its bytes, issued once, and the node holds the deposit and its locked output', async () => {
    const h = await harness();
    const offer = state.depositOffers[0]!;
    const before = pUnlocked().reduce((s, u) => s + u.amount, 0n);
    const { preview, sent, result } = await spend(h, 'platform_deposit', { offerID: offer.id, amount: '5 CAM', duration: 60 * 86_400 });
    const lines = preview.structured!.preview as string[];
    expect(sent).toEqual({ 'platform.issueTx': 1 });
    const txID = String(result.txID);
    const deposit = state.deposits.get(txID)!;
    expect(deposit).toMatchObject({ offerID: offer.id, amount: 5n * CAM, unlockedAmount: 0n, duration: 60 * 86_400, rewardOwner: { threshold: 1, addresses: [devnet.localKey.p] } });
    // The preview named every output the node now holds, the deposited one as such, and the exact fee.
    expect(sorted(outputsIn(lines, 'Tx'))).toEqual(sorted(stateOutputs(txID)));
    const lockedOut = [...state.utxos.values()].filter((u) => u.txID === txID && u.depositTxID === txID);
    expect(lockedOut.map((u) => u.amount)).toEqual([5n * CAM]);
    expect(lines.some((l) => l.startsWith('Tx output') && l.includes(show(5n * CAM)) && l.includes('deposited by this tx, your address'))).toBe(true);
    expect(feeIn(lines, 'Tx')).toBe(show(state.fees.txFee));
    expect(state.txs.get(txID)!.fee).toBe(state.fees.txFee);
    expect(pUnlocked().reduce((s, u) => s + u.amount, 0n)).toBe(before - 5n * CAM - state.fees.txFee);
    expect(lines).toContain(`Tx deposit: offer ${offer.id}, duration 60 days (5184000 s), rewards to ${devnet.localKey.p} (your address)`);
    // Locked from about now for its duration, unlocking over the offer's last 30 days of it.
    const end = Math.floor(h.clock.now / 1000) + 60 * 86_400;
    expect(lines).toContain(`Deposits: ${show(5n * CAM)}, locked from acceptance (about now) until about ${utc(end)}, unlocking gradually from about ${utc(end - offer.unlockPeriodDuration)}`);
    // 8 % a year over 60 days less the offer's 15 days without rewards.
    const reward = totalReward(5n * CAM, 45n * DAY, offer.interestRateNominator);
    expect(lines.some((l) => l.startsWith('Earns: 8 % a year for 45 days') && l.includes(`about ${show(reward)} in total`))).toBe(true);
    // The read tool then answers for it.
    const read = await h.call('platform_getDeposits', { depositTxIDs: [txID] });
    expect(read.isError, read.text).toBe(false);
    expect(read.text).toContain(`${show(5n * CAM)} in 8 % a year`);
  });

  it("an offer with no unlock period, a deposit shorter than its no-rewards period: locked until its end with no gradual unlock, earning for no time", async () => {
    const offer = state.depositOffers[0]!;
    const [period, noRewards] = [offer.unlockPeriodDuration, offer.noRewardsPeriodDuration];
    offer.unlockPeriodDuration = 0;
    offer.noRewardsPeriodDuration = 61 * 86_400;
    try {
      const h = await harness();
      const p = await previewOf(h, 'platform_deposit', { offerID: offer.id, amount: '5 CAM', duration: 60 * 86_400 });
      const lines = p.structured!.preview as string[];
      const end = Math.floor(h.clock.now / 1000) + 60 * 86_400;
      expect(lines).toContain(`Deposits: ${show(5n * CAM)}, locked from acceptance (about now) until about ${utc(end)}`);
      expect(lines).toContain(`Earns: 8 % a year for 0 s (the offer pays nothing in its last 61 days), about ${show(0n)} in total, claimable by you as it accrues with platform_claim`);
    } finally {
      offer.unlockPeriodDuration = period;
      offer.noRewardsPeriodDuration = noRewards;
    }
  });

  it("a deposit outside the offer's terms names the field and issues nothing", async () => {
    const h = await harness();
    const offer = state.depositOffers[0]!;
    const before = issued();
    const short = await h.call('platform_deposit', { offerID: offer.id, amount: '5 CAM', duration: 86_400 });
    expect(short.isError).toBe(true);
    expect(short.text).toContain('duration: this offer takes 5184000 to 31536000 seconds');
    const long = await h.call('platform_deposit', { offerID: offer.id, amount: '5 CAM', duration: offer.maxDuration + 1 });
    expect(long.isError).toBe(true);
    expect(long.text).toContain('duration: this offer takes 5184000 to 31536000 seconds (60 days to 365 days), got 31536001');
    // Its longest duration is within its terms: previewed.
    const longest = await h.call('platform_deposit', { offerID: offer.id, amount: '5 CAM', duration: offer.maxDuration });
    expect(longest.isError, longest.text).toBe(false);
    expect(longest.structured?.status).toBe('preview');
    const small = await h.call('platform_deposit', { offerID: offer.id, amount: '0.5 CAM', duration: 90 * 86_400 });
    expect(small.text).toContain('amount: this offer takes at least 1 CAM');
    const future = await h.call('platform_deposit', { offerID: state.depositOffers[3]!.id, amount: '5 CAM', duration: 90 * 86_400 });
    expect(future.text).toContain('offerID: no open offer');
    expect(issued()).toEqual(before);
  });

  it('ended and running deposits in one unlock are refused, naming the ended ones', async () => {
    const h = await harness();
    const before = issued();
    const r = await h.call('platform_unlockDeposit', { depositTxIDs: [running(), ended()] });
    expect(r.isError).toBe(true);
    expect(r.text).toContain(`depositTxIDs: unlock ended deposits (${ended()}) apart from running ones`);
    expect(issued()).toEqual(before);
  });

  it('on the wire: the reads and the one issue an unlock, a deposit and a claim send, each as a Camino node takes it', async () => {
    const h = await harness();
    const offer = state.depositOffers[0]!;
    const METHODS = /^platform\.(getAllDepositOffers|getDeposits|getClaimables|issueTx)$/;
    const sent = () =>
      devnet.router.requests.flatMap((r) =>
        ((Array.isArray(r.body) ? r.body : [r.body]) as Array<{ method: string; params: Record<string, unknown> }>)
          .filter((b) => METHODS.test(b.method))
          .map((b) => ({ path: r.path, method: b.method, params: b.params })),
      );
    devnet.router.requests.length = 0;
    await previewOf(h, 'platform_unlockDeposit', { depositTxIDs: [running()] });
    // The deposits asked by ID, then the offers active at the deposit's start (a plain number), where its terms are.
    expect(sent()).toEqual([
      { path: '/ext/P', method: 'platform.getDeposits', params: { depositTxIDs: [running()] } },
      { path: '/ext/P', method: 'platform.getAllDepositOffers', params: { timestamp: state.deposits.get(running())!.start } },
    ]);
    devnet.router.requests.length = 0;
    await spend(h, 'platform_deposit', { offerID: offer.id, amount: '2 CAM', duration: 60 * 86_400 });
    const deposit = sent();
    // The offers as of now (Unix seconds, a plain number), then the signed bytes in hex with their checksum.
    expect(deposit.map((b) => [b.path, b.method])).toEqual([
      ['/ext/P', 'platform.getAllDepositOffers'],
      ['/ext/P', 'platform.issueTx'],
    ]);
    expect(Object.keys(deposit[0]!.params)).toEqual(['timestamp']);
    expect(Number.isInteger(deposit[0]!.params.timestamp)).toBe(true);
    expect(deposit[1]!.params).toEqual({ tx: expect.stringMatching(/^0x([0-9a-f]{2})+$/), encoding: 'hex' });
    devnet.router.requests.length = 0;
    await previewOf(h, 'platform_claim', { claims: [{ kind: 'validator', owner: devnet.localKey.p, amount: '1' }], to: devnet.localKey.p });
    // The owner exactly as the node matches it: locktime and threshold quoted, the one P- address.
    expect(sent()).toEqual([{ path: '/ext/P', method: 'platform.getClaimables', params: { owners: [{ locktime: '0', threshold: '1', addresses: [devnet.localKey.p] }] } }]);
  });

  it('an unlock of the running deposit returns what its unlock period has freed, for the fee; the node records exactly that', async () => {
    const h = await harness();
    const { preview, sent, result } = await spend(h, 'platform_unlockDeposit', { depositTxIDs: [running()] });
    const lines = preview.structured!.preview as string[];
    expect(sent).toEqual({ 'platform.issueTx': 1 });
    const line = lines.find((l) => l.startsWith('Unlocks: '))!;
    // 20 of the 30 days of its unlock period have passed at the seed, plus the seconds the test took.
    const atSeed = (LOCAL_ACCOUNT.pDeposited * 20n) / 30n;
    const deposit = state.deposits.get(running())!;
    expect(deposit.unlockedAmount).toBeGreaterThanOrEqual(atSeed);
    expect(deposit.unlockedAmount).toBeLessThan(atSeed + (LOCAL_ACCOUNT.pDeposited * 600n) / (30n * DAY));
    expect(line).toBe(`Unlocks: ${show(deposit.unlockedAmount)} of deposit ${running()}`);
    const txID = String(result.txID);
    expect(sorted(outputsIn(lines, 'Tx'))).toEqual(sorted(stateOutputs(txID)));
    expect(stateOutputs(txID)).toContainEqual([show(deposit.unlockedAmount), devnet.localKey.p]);
    // What stays deposited is still locked with the same deposit.
    const stays = [...state.utxos.values()].filter((u) => u.txID === txID && u.depositTxID === running());
    expect(stays.map((u) => u.amount)).toEqual([LOCAL_ACCOUNT.pDeposited - deposit.unlockedAmount]);
    expect(state.txs.get(txID)!.fee).toBe(state.fees.txFee);
    expect(feeIn(lines, 'Tx')).toBe(show(state.fees.txFee));
    // The fee's change is the key's under locktime 1: the node would count change of the deposit's own
    // owner against what stays deposited and refuse the tx (test/unit/devnet-issue.test.ts).
    const change = [...state.utxos.values()].filter((u) => u.txID === txID && !u.depositTxID && u.locktime === 1n);
    expect(change).toHaveLength(1);
    expect(lines.some((l) => l.includes(show(change[0]!.amount)) && l.includes('locktime 1 (1970), spendable now'))).toBe(true);
  });

  it('an unlock of the ended deposit returns all of it with no fee; its unclaimed reward moves to the claimable of its owner', async () => {
    const h = await harness();
    const offer = state.depositOffers[0]!;
    const claimable = keyClaimable()!.expiredDepositRewards;
    const { preview, result } = await spend(h, 'platform_unlockDeposit', { depositTxIDs: [ended()] });
    const lines = preview.structured!.preview as string[];
    expect(lines).toContain(`Unlocks: ${show(LOCAL_ACCOUNT.pDepositedExpired)} of deposit ${ended()} (ended: unlocked whole, no fee)`);
    expect(feeIn(lines, 'Tx')).toBe(show(0n));
    const txID = String(result.txID);
    expect(state.txs.get(txID)!.fee).toBe(0n);
    expect(stateOutputs(txID)).toEqual([[show(LOCAL_ACCOUNT.pDepositedExpired), devnet.localKey.p]]);
    expect(state.deposits.has(ended())).toBe(false);
    // 100 days less the 15 without rewards, never claimed.
    expect(keyClaimable()!.expiredDepositRewards - claimable).toBe(totalReward(LOCAL_ACCOUNT.pDepositedExpired, 85n * DAY, offer.interestRateNominator));
  });

  it("a claim of the key's validator rewards and its running deposit's reward: the preview's fee counts the claimed rewards, and the node pays exactly them", async () => {
    const h = await harness();
    const deposit = { ...state.deposits.get(running())! };
    const reward = totalReward(deposit.amount, 85n * DAY, state.depositOffers[0]!.interestRateNominator) - deposit.claimedRewardAmount;
    const before = pUnlocked().reduce((s, u) => s + u.amount, 0n);
    const { preview, sent, result } = await spend(h, 'platform_claim', {
      claims: [
        { kind: 'validator', owner: devnet.localKey.p, amount: String(LOCAL_ACCOUNT.validatorRewards) },
        { kind: 'deposit', depositTxID: running(), amount: String(reward) },
      ],
      to: devnet.localKey.p,
    });
    const lines = preview.structured!.preview as string[];
    expect(sent).toEqual({ 'platform.issueTx': 1 });
    expect(lines).toContain(`Claims: ${show(LOCAL_ACCOUNT.validatorRewards + reward)} in rewards to ${devnet.localKey.p}`);
    expect(lines.some((l) => l.startsWith(`Tx claim 1: ${show(LOCAL_ACCOUNT.validatorRewards)}, validator rewards of owner `))).toBe(true);
    expect(lines).toContain(`Tx claim 2: ${show(reward)}, reward of deposit ${running()}`);
    expect(feeIn(lines, 'Tx')).toBe(show(state.fees.txFee));
    const txID = String(result.txID);
    expect(sorted(outputsIn(lines, 'Tx'))).toEqual(sorted(stateOutputs(txID)));
    expect(pUnlocked().reduce((s, u) => s + u.amount, 0n)).toBe(before + LOCAL_ACCOUNT.validatorRewards + reward - state.fees.txFee);
    expect(keyClaimable()?.validatorRewards ?? 0n).toBe(0n);
    expect(state.deposits.get(running())!.claimedRewardAmount).toBe(deposit.claimedRewardAmount + reward);
  });

  it('a claim above what is claimable, or of rewards the key does not own, names the field and issues nothing', async () => {
    const h = await harness();
    const before = issued();
    const over = await h.call('platform_claim', { claims: [{ kind: 'validator', owner: devnet.localKey.p, amount: '1' }], to: devnet.localKey.p });
    expect(over.isError).toBe(true);
    expect(over.text).toContain('claims[0].amount: 0.000000001 CAM is more than the 0 CAM claimable now');
    const other = await h.call('platform_claim', { claims: [{ kind: 'deposit', depositTxID: registeredId('deposit:0'), amount: '1' }], to: devnet.localKey.p });
    expect(other.text).toContain('claims[0].depositTxID: its rewards belong to another owner');
    expect(issued()).toEqual(before);
  });
});

describe("Camino's own spends on a node of the spec's API", () => {
  it('an unlock and a claim say plainly that the node does not offer the reads they need, and issue nothing', async () => {
    const spec = await startDevnet({ dialect: 'spec' });
    const h = await spendHarness(spec, {
      env: { CHAIN_MCP_APPROVAL: 'confirm-id', CHAIN_MCP_SIGNER: 'local', CHAIN_MCP_KEY_FILE: join(dir, 'key.json'), CHAIN_MCP_KEY_PASSPHRASE_FILE: join(dir, 'passphrase') },
    });
    try {
      spec.router.record = true;
      const unlock = await h.call('platform_unlockDeposit', { depositTxIDs: [registeredId('local-signer:deposit')] });
      expect(unlock.isError).toBe(true);
      expect(unlock.text.split('\n')[0]).toContain('This node does not offer platform.getDeposits');
      const claim = await h.call('platform_claim', { claims: [{ kind: 'validator', owner: spec.localKey.p, amount: '1' }], to: spec.localKey.p });
      expect(claim.text.split('\n')[0]).toContain('This node does not offer platform.getClaimables');
      expect(requestsFor(spec, 'platform.issueTx')).toBe(0);
    } finally {
      await h.close();
      await spec.close();
    }
  });
});
