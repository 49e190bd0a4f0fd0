import { rmSync } from 'node:fs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type Devnet, startDevnet } from '../../src/devnet/index.js';
import { HttpFault } from '../../src/devnet/rpc.js';
import { registeredId } from '../../src/devnet/state/index.js';
import { fund } from '../../src/devnet/state/ledger.js';
import { formatAmount } from '../../src/codec/index.js';
import { ISSUE_METHODS, localKeyFolder, localSignerEnv } from '../helpers/local-key.js';
import { requestsFor, type SpendCall, type SpendHarness, spendHarness } from '../helpers/spend-harness.js';

/**
 * What src/local/spends.ts promises a caller of the local signer's builders (issue 44, Stryker's
 * survivors of that file): a build the key cannot make says why and what to check, the node's
 * C-Chain reads a spend is built from are asked as the spec has them and retried when the node is
 * busy, as reads are. Each test drives the MCP protocol against the simulator.
 */

const CAM = 1_000_000_000n;
const PASSPHRASE = 'correct horse battery staple 45';

let dir: string;
const open: Array<{ close(): Promise<void> }> = [];

beforeAll(async () => {
  dir = await localKeyFolder('chain-mcp-local-spends-', PASSPHRASE);
});
afterEach(async () => {
  for (const o of open.splice(0).reverse()) await o.close();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function previewOf(h: SpendHarness, tool: string, args: Record<string, unknown>): Promise<SpendCall> {
  const p = await h.call(tool, args);
  expect(p.isError, p.text).toBe(false);
  expect(p.structured?.status).toBe('preview');
  return p;
}

async function camino(): Promise<Devnet> {
  const devnet = await startDevnet({ dialect: 'camino' });
  devnet.router.record = true;
  open.push(devnet);
  return devnet;
}

async function harness(devnet: Devnet, env: Record<string, string> = {}): Promise<SpendHarness> {
  const h = await spendHarness(devnet, {
    env: { ...localSignerEnv(dir), ...env },
  });
  open.push(h);
  return h;
}

const show = (v: bigint) => formatAmount(v, { decimals: 9, symbol: 'CAM' });
const issued = (devnet: Devnet) => ISSUE_METHODS.reduce((s, m) => s + requestsFor(devnet, m), 0);
const C_PATHS = (devnet: Devnet) => ['/ext/bc/C/rpc', `/ext/bc/${devnet.state.chains.C}/rpc`];

/** The C-Chain EVM requests the node received, method and params, in order. */
function evmRequests(devnet: Devnet): Array<{ method: string; params: unknown }> {
  return devnet.router.requests
    .filter((r) => C_PATHS(devnet).includes(r.path))
    .flatMap((r) => (Array.isArray(r.body) ? r.body : [r.body]) as Array<{ method: string; params: unknown }>)
    .map((b) => ({ method: b.method, params: b.params }));
}

describe('a transaction the key cannot build', () => {
  it('more than the key holds: why, and that deposited and bonded funds cannot be spent; nothing sent', async () => {
    const devnet = await camino();
    const h = await harness(devnet);
    const r: SpendCall = await h.call('xvm_send', { to: devnet.state.users.get('alice')!.keys[0]!.x, amount: String(1_000_000_000n * CAM), assetID: 'CAM' });
    expect(r.isError).toBe(true);
    const [first, ...rest] = r.text.split('\n');
    expect(first).toMatch(/^Cannot build this transaction: insufficient funds on X: .+\. Nothing was sent\.$/);
    expect(rest).toContain('What to try: Check the unlocked balance with account_overview; deposited and bonded funds cannot be spent.');
    expect(issued(devnet)).toBe(0);
  });

  it('nothing to import: why, and to check the account and the arguments; nothing sent', async () => {
    const devnet = await camino();
    const h = await harness(devnet);
    const r = await h.call('xvm_import', { to: devnet.localKey.x, sourceChain: 'P' });
    expect(r.isError).toBe(true);
    const [first, ...rest] = r.text.split('\n');
    expect(first).toMatch(/^Cannot build this transaction: .+\. Nothing was sent\.$/);
    expect(first).not.toContain('insufficient funds');
    expect(rest).toContain('What to try: Check account_overview and the arguments.');
    expect(issued(devnet)).toBe(0);
  });
});

describe("the node's C-Chain reads a spend is built from", () => {
  it('an export from C asks each as the spec has it, and a busy node (503 once) is asked again: the preview is built', async () => {
    const devnet = await camino();
    let busy = 1;
    devnet.router.authorize = () => {
      if ((devnet.router.requests.at(-1)?.body as { method?: string } | undefined)?.method === 'eth_baseFee' && busy-- > 0) throw new HttpFault(503, 'busy');
    };
    const h = await harness(devnet);
    const evm = (await h.call('cx_export', { to: devnet.localKey.x, amount: String(CAM), assetID: 'CAM' })) as SpendCall;
    expect(evm.isError, evm.text).toBe(false);
    expect(evm.structured?.status).toBe('preview');
    const seen = evmRequests(devnet).map((r) => ({ method: r.method, params: JSON.parse(JSON.stringify(r.params ?? null).toLowerCase()) }));
    const key = devnet.localKey.c.toLowerCase();
    // eth_baseFee takes no parameters; the key's nonce and balance are read at the latest block.
    expect(seen.filter((r) => r.method === 'eth_baseFee')).toEqual([
      { method: 'eth_baseFee', params: [] },
      { method: 'eth_baseFee', params: [] },
    ]);
    expect(seen).toContainEqual({ method: 'eth_getTransactionCount', params: [key, 'latest'] });
    expect(seen).toContainEqual({ method: 'eth_getBalance', params: [key, 'latest'] });
    expect(issued(devnet)).toBe(0);
  });
});

describe('a one-transaction preview', () => {
  it('heads with the network and the key (no EVM chain ID off the EVM), and its details name the hash the approval line names', async () => {
    const devnet = await camino();
    const h = await harness(devnet);
    const p = await h.call('xvm_send', { to: devnet.state.users.get('alice')!.keys[0]!.x, amount: String(CAM), assetID: 'CAM' });
    expect(p.isError, p.text).toBe(false);
    const lines = p.structured!.preview as string[];
    const head = lines.find((l) => l.startsWith('Network: '));
    expect(head).toMatch(new RegExp(`^Network: \\d+ \\(prefix [a-z]+\\); signer: the local key \\(${devnet.localKey.x}, 0x[0-9a-fA-F]{40}\\)$`));
    const approves = lines.find((l) => l.startsWith('Tx approves exactly: sha256 '));
    const sha = /sha256 (?:0x)?([0-9a-f]{64}) /.exec(approves ?? '')?.[1];
    expect(sha).toBeDefined();
    expect((p.structured!.details as { unsignedSha256: string[] }).unsignedSha256).toEqual([sha]);
    expect(issued(devnet)).toBe(0);
  });
});

describe('an import into C, issued', () => {
  it('says where to follow it: cx_getAtomicTxStatus with its txID, which the node knows as Accepted', async () => {
    const devnet = await camino();
    const h = await harness(devnet);
    const args = { to: `C-${devnet.localKey.x.slice(2)}`, amount: String(2n * CAM), assetID: 'CAM' };
    const exp = await h.call('xvm_export', args);
    const sent = await h.call('xvm_export', { ...args, confirm: exp.structured!.confirmationId });
    expect(sent.isError, sent.text).toBe(false);
    const exportID = String((sent.structured!.result as { txID: string }).txID);
    const imp = { to: devnet.localKey.c, sourceChain: 'X', txID: exportID };
    const p = await h.call('cx_import', imp);
    expect(p.isError, p.text).toBe(false);
    const done = await h.call('cx_import', { ...imp, confirm: p.structured!.confirmationId });
    expect(done.isError, done.text).toBe(false);
    const txID = String((done.structured!.result as { txID: string }).txID);
    expect(done.text.split('\n')[0]).toBe(`Imported into C: issued once, txID ${txID}. Follow it with cx_getAtomicTxStatus {"txID": "${txID}"}.`);
    expect(devnet.state.txs.get(txID)?.status).toBe('Accepted');
  });
});

describe('a send to the key\'s own X address', () => {
  it('previews the decoded tx and nothing after its approval line (no memo, no stranger)', async () => {
    const devnet = await camino();
    const h = await harness(devnet);
    const lines = (await previewOf(h, 'xvm_send', { to: devnet.localKey.x, amount: String(CAM), assetID: 'CAM' })).structured!.preview as string[];
    expect(lines.at(-1)).toMatch(/^Tx approves exactly: sha256 /);
  });
});

describe('an import into C credits a 0x address', () => {
  it("marks the key's own (given in any case) as yours, and another as one that cannot be checked", async () => {
    const devnet = await camino();
    const h = await harness(devnet);
    const key = devnet.localKey;
    const exp = await h.call('xvm_export', { to: `C-${key.x.slice(2)}`, amount: String(2n * CAM), assetID: 'CAM' });
    expect((await h.call('xvm_export', { to: `C-${key.x.slice(2)}`, amount: String(2n * CAM), assetID: 'CAM', confirm: exp.structured!.confirmationId })).isError).toBe(false);
    const credited = async (to: string) => ((await previewOf(h, 'cx_import', { to, sourceChain: 'X' })).structured!.preview as string[]).filter((l) => l.startsWith('Credited to: '));
    expect(await credited(key.c.toLowerCase())).toEqual([`Credited to: ${key.c.toLowerCase()} (your address)`]);
    const upper = `0x${key.c.slice(2).toUpperCase()}`;
    expect(await credited(upper)).toEqual([`Credited to: ${upper} (your address)`]);
    const other = '0x00000000000000000000000000000000000000a1';
    expect(await credited(other)).toEqual([`Credited to: ${other} (cannot be checked as yours)`]);
  });
});

describe('an export from C', () => {
  it('of another asset than the native one: refused naming assetID, nothing sent', async () => {
    const devnet = await camino();
    const h = await harness(devnet);
    const r = await h.call('cx_export', { to: devnet.localKey.x, amount: '1', assetID: 'GLD' });
    expect(r.isError).toBe(true);
    expect(r.text.split('\n')[0]).toContain('assetID: the local signer exports only the native asset from C');
    expect(issued(devnet)).toBe(0);
  });

  it("under a daily limit, to the key's own X address: previewed, issued, and says xvm_import completes it", async () => {
    const devnet = await camino();
    const h = await harness(devnet, { CHAIN_MCP_MAX_SPEND_PER_DAY: String(5n * CAM) });
    const args = { to: devnet.localKey.x, amount: String(CAM), assetID: 'CAM' };
    const p = await previewOf(h, 'cx_export', args);
    expect(p.structured!.preview as string[]).toContain('Not done yet: xvm_import completes it (with txID of this export).');
    const done = await h.call('cx_export', { ...args, confirm: p.structured!.confirmationId });
    expect(done.isError, done.text).toBe(false);
    const txID = String((done.structured!.result as { txID: string }).txID);
    expect(done.text.split('\n')[0]).toBe(`Exported from C: issued once, txID ${txID}. Complete it with xvm_import {"to": "${args.to}", "sourceChain": "C", "txID": "${txID}"} once Accepted.`);
    expect(requestsFor(devnet, 'avax.issueTx')).toBe(1);
  });
});

describe('the chain an import comes from', () => {
  it("may be named by its chain ID; a chain the import cannot come from is refused naming sourceChain, nothing sent", async () => {
    const devnet = await camino();
    const h = await harness(devnet);
    const key = devnet.localKey;
    const exp = await h.call('xvm_export', { to: `C-${key.x.slice(2)}`, amount: String(2n * CAM), assetID: 'CAM' });
    expect((await h.call('xvm_export', { to: `C-${key.x.slice(2)}`, amount: String(2n * CAM), assetID: 'CAM', confirm: exp.structured!.confirmationId })).isError).toBe(false);
    const byID = await previewOf(h, 'cx_import', { to: key.c, sourceChain: devnet.state.chains.X });
    expect(byID.structured!.preview as string[]).toContain('Imports: everything waiting for the key from that chain (every input listed below)');
    const before = issued(devnet);
    const fromX = await h.call('xvm_import', { to: key.x, sourceChain: 'X' });
    expect(fromX.isError).toBe(true);
    expect(fromX.text.split('\n')[0]).toContain('sourceChain: expected P or C (or its chain ID), got X');
    expect(issued(devnet)).toBe(before);
  });
});

describe('an export from C larger than what the key holds there', () => {
  it('is refused as insufficient funds on C, the balance read in whole nCAM; nothing sent', async () => {
    const devnet = await camino();
    const h = await harness(devnet);
    const held = (devnet.state.cBalances.get(devnet.localKey.c) ?? 0n) / CAM; // wei to nCAM
    const r = await h.call('cx_export', { to: devnet.localKey.x, amount: String(held + 1n), assetID: 'CAM' });
    expect(r.isError).toBe(true);
    expect(r.text.split('\n')[0]).toMatch(/^Cannot build this transaction: insufficient funds on C: /);
    expect(r.text.split('\n')[0]).toContain(`the address holds ${held}.`);
    expect(issued(devnet)).toBe(0);
  });
});

describe('a transfer on X', () => {
  it("under a per-spend cap: says what arrives where, and once issued its result is one send step, complete", async () => {
    const devnet = await camino();
    const h = await harness(devnet, { CHAIN_MCP_MAX_SPEND: String(5n * CAM) });
    const to = devnet.state.users.get('alice')!.keys[0]!.x;
    const p = await previewOf(h, 'transfer', { to, amount: String(CAM) });
    expect(p.structured!.preview as string[]).toContain(`Arrives: 1 CAM at ${to}`);
    const done = await h.call('transfer', { to, amount: String(CAM), confirm: p.structured!.confirmationId });
    expect(done.isError, done.text).toBe(false);
    const txID = String((done.structured!.result as { txID: string }).txID);
    expect(done.structured!.result).toEqual({ route: 'X->X', complete: true, txID, steps: [{ step: 1, action: 'send', chain: 'X', status: 'issued', txID }] });
  });

  it("across chains to another's address: refused naming to, since the import is the key's to sign; nothing sent", async () => {
    const devnet = await camino();
    const h = await harness(devnet);
    const other = `C-${devnet.state.users.get('alice')!.keys[0]!.x.slice(2)}`;
    const r = await h.call('transfer', { to: other, amount: String(CAM) });
    expect(r.isError).toBe(true);
    expect(r.text.split('\n')[0]).toContain(`to: a cross-chain transfer ends with an import the key signs, so it goes to the key's own C-${devnet.localKey.x.slice(2)}`);
    expect(issued(devnet)).toBe(0);
  });
});

describe('a transfer across chains, previewed', () => {
  /** The n-th "approves exactly" hash and every fee of a two-step preview. */
  const hashes = (lines: string[]) => lines.flatMap((l) => /^Tx \d of 2 approves exactly: sha256 (?:0x)?([0-9a-f]{64}) /.exec(l)?.[1] ?? []);

  it("X->C under a cap: heads with the network and the route, credits the key's 0x address, sums both fees, and its details name both hashes", async () => {
    const devnet = await camino();
    const h = await harness(devnet, { CHAIN_MCP_MAX_SPEND: String(5n * CAM) });
    const to = `C-${devnet.localKey.x.slice(2)}`;
    const p = await previewOf(h, 'transfer', { to, amount: String(CAM) });
    const lines = p.structured!.preview as string[];
    const details = p.structured!.details as { exportTxID: string; fees: string[]; unsignedSha256: string[] };
    expect(lines.some((l) => l.startsWith('Network: '))).toBe(true);
    expect(lines).toContain(`Route: X -> C, two transactions (export ${details.exportTxID}, then its import), both built now and approved together`);
    expect(lines.filter((l) => l.startsWith('Credited to: ')).map((l) => l.replace(/0x[0-9a-fA-F]{40}/, '0x…'))).toEqual(['Credited to: 0x… (your address)']);
    const [exportFee, importFee] = details.fees.map(BigInt) as [bigint, bigint];
    expect(exportFee).toBeGreaterThan(0n);
    expect(importFee).toBeGreaterThan(0n);
    expect(lines).toContain(`Fees: ${show(exportFee)} (export) + ${show(importFee)} (import) = ${show(exportFee + importFee)}`);
    expect(details.unsignedSha256).toEqual(hashes(lines));
    expect(details.unsignedSha256).toHaveLength(2);
    // The audit line counts both fees too.
    expect(h.logs.some((l) => l.includes('"audit":"preview"') && l.includes(`"fee":"${exportFee + importFee}"`))).toBe(true);
    // Issued: both steps, complete, the last txID the import's.
    const done = await h.call('transfer', { to, amount: String(CAM), confirm: p.structured!.confirmationId });
    expect(done.isError, done.text).toBe(false);
    const importID = String((done.structured!.result as { txID: string }).txID);
    expect(done.structured!.result).toEqual({
      route: 'X->C',
      complete: true,
      txID: importID,
      steps: [
        { step: 1, action: 'export', chain: 'X', status: 'issued', txID: details.exportTxID },
        { step: 2, action: 'import', chain: 'C', status: 'issued', txID: importID },
      ],
    });
    expect(done.text.split('\n')[0]).toBe(`Transfer complete (X->C): export ${details.exportTxID}, import ${importID}, each issued once. Follow them with wait_for_tx or tx_status.`);
  });

  it("P->X with all while another asset waits too: no credited line, and what arrives counts the native asset only", async () => {
    const devnet = await camino();
    const key = devnet.localKey;
    const stranger = registeredId('stranger-asset');
    // Another asset already waiting for the key on X, exported from P.
    const tx = fund(devnet.state, 'X', key.x, [777n], { assetID: stranger });
    for (const u of devnet.state.utxos.values()) if (u.txID === tx.id) u.sourceChain = 'P';
    const h = await harness(devnet);
    const p = await previewOf(h, 'transfer', { to: key.x, amount: String(CAM), sourceChain: 'P', all: true });
    const lines = p.structured!.preview as string[];
    expect(lines.some((l) => l.includes('777 units of asset'))).toBe(true);
    expect(lines.filter((l) => l.startsWith('Credited to: '))).toEqual([]);
    const fees = lines.findIndex((l) => l.startsWith('Fees: '));
    expect(lines[fees - 1]).toMatch(/^Tx 2 of 2 approves exactly: /);
    const importFee = BigInt((p.structured!.details as { fees: string[] }).fees[1]!);
    expect(lines).toContain(`Arrives: ${show(CAM - importFee)} at ${key.x} (the amount less the import fee, plus everything else waiting)`);
  });
});

describe('an EVM send on C (transfer to a 0x address)', () => {
  it('reads the node as the spec has it, shows value, fee, and balance after from the bytes, marks only the key\'s own address, and once issued is one complete send step', async () => {
    const devnet = await camino();
    const h = await harness(devnet);
    const key = devnet.localKey.c.toLowerCase();
    const other = '0x00000000000000000000000000000000000000b2';
    const WEI = CAM; // wei per nCAM
    const baseFee = devnet.state.cBaseFee;
    const tip = devnet.state.cPriorityFee;
    const balance = devnet.state.cBalances.get(devnet.localKey.c) ?? 0n;
    const maxFee = 2n * baseFee + tip;
    const maxFeeWei = 21_000n * maxFee;

    const args = { to: other, amount: String(CAM), sourceChain: 'C' };
    const p = await previewOf(h, 'transfer', args);
    const lines = p.structured!.preview as string[];
    expect(lines).toContain(`Tx to: ${other}`);
    expect(lines).toContain(`Tx value: 1 CAM (${CAM * WEI} wei)`);
    expect(lines).toContain(`Tx fee: at most ${show(maxFeeWei / WEI)} (gas limit 21000 x at most ${maxFee} wei per gas, tip ${tip} wei); the unused part is not charged`);
    expect(lines).toContain(`Balance after: at least ${show((balance - CAM * WEI - maxFeeWei) / WEI)} (now ${show(balance / WEI)})`);
    // The fee counted against the limits: the most it can cost, in whole nCAM rounded up.
    expect((p.structured!.details as { fee: string }).fee).toBe(String((maxFeeWei + WEI - 1n) / WEI));
    const seen = evmRequests(devnet).map((r) => ({ method: r.method, params: JSON.parse(JSON.stringify(r.params ?? null).toLowerCase()) }));
    for (const method of ['eth_chainId', 'eth_baseFee', 'eth_maxPriorityFeePerGas']) expect(seen).toContainEqual({ method, params: [] });
    expect(seen).toContainEqual({ method: 'eth_estimateGas', params: [{ from: key, to: other, value: `0x${(CAM * WEI).toString(16)}` }] });

    const mine = await previewOf(h, 'transfer', { ...args, to: key });
    expect(mine.structured!.preview as string[]).toContain(`Tx to: ${key} (your address)`);

    const done = await h.call('transfer', { ...args, confirm: p.structured!.confirmationId });
    expect(done.isError, done.text).toBe(false);
    const txID = String((done.structured!.result as { txID: string }).txID);
    expect(txID).toMatch(/^0x[0-9a-f]{64}$/);
    expect(done.structured!.result).toEqual({ route: 'C->C', complete: true, txID, steps: [{ step: 1, action: 'send', chain: 'C', status: 'issued', txID }] });
  });
});
