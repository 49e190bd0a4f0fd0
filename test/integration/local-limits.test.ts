import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CATALOGUE } from '../../src/catalogue/index.js';
import { formatChainAddress, parseChainAddress } from '../../src/codec/index.js';
import { type Devnet, startDevnet } from '../../src/devnet/index.js';
import type { DevnetState } from '../../src/devnet/state/index.js';
import { writeKeyFile } from '../../src/signer/keyfile.js';
import { MemoryStore } from '../../src/state/memory.js';
import type { LocalRecord } from '../../src/local/records.js';
import type { StateStore } from '../../src/state/store.js';
import { requestsFor, type SpendHarness, spendHarness } from '../helpers/spend-harness.js';

/**
 * Under the local signer the limits apply to what the decoded bytes do, at preview and again at
 * confirm: every fee the node makes the bytes burn counts, and kept bytes rewritten in the store
 * (under a forged confirmation id) cannot pay a stranger more than the limits allow.
 */

const CAM = 1_000_000_000n;
let devnet: Devnet;
let state: DevnetState;
let dir: string;
const open: SpendHarness[] = [];
const PASSPHRASE = 'correct horse battery staple 32';
const ISSUES = ['avm.issueTx', 'platform.issueTx', 'avax.issueTx', 'eth_sendRawTransaction'];
const issued = () => ISSUES.reduce((n, m) => n + requestsFor(devnet, m), 0);

async function harness(env: Record<string, string> = {}, store?: StateStore): Promise<SpendHarness> {
  const h = await spendHarness(devnet, {
    env: { CHAIN_MCP_APPROVAL: 'confirm-id', CHAIN_MCP_SIGNER: 'local', CHAIN_MCP_KEY_FILE: join(dir, 'key.json'), CHAIN_MCP_KEY_PASSPHRASE_FILE: join(dir, 'passphrase'), ...env },
    ...(store ? { state: store } : {}),
  });
  open.push(h);
  return h;
}

const alice = () => state.users.get('alice')!.keys[0]!;
const CAP = { CHAIN_MCP_MAX_SPEND: String(CAM) };

beforeAll(async () => {
  devnet = await startDevnet({ dialect: 'camino' });
  devnet.router.record = true;
  state = devnet.state;
  dir = mkdtempSync(join(tmpdir(), 'chain-mcp-limits-'));
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

describe("a recipient on another network's prefix", () => {
  // Without an indexer no asset name is resolved, and an amount in nCAM is no display amount: nothing
  // before the spend guards reads the network.
  it('is refused on the first spend call of a process with no indexer, before the network was ever read, nothing built or sent', async () => {
    const h = await spendHarness({ ...devnet, indexerUrl: undefined } as Devnet, {
      env: { CHAIN_MCP_APPROVAL: 'confirm-id', CHAIN_MCP_SIGNER: 'local', CHAIN_MCP_KEY_FILE: join(dir, 'key.json'), CHAIN_MCP_KEY_PASSPHRASE_FILE: join(dir, 'passphrase') },
    });
    open.push(h);
    expect(h.services.config.indexerUrl).toBeUndefined();
    const { hrp, bytes } = parseChainAddress(alice().x);
    const foreignHrp = hrp === 'columbus' ? 'kopernikus' : 'columbus';
    const foreign = formatChainAddress('X', foreignHrp, bytes);
    const reads = () => requestsFor(devnet, 'xvm.getUTXOs') + requestsFor(devnet, 'avm.getUTXOs');
    const [before, read] = [issued(), reads()];
    expect(h.services.cachedNetwork()).toBeUndefined();
    const r = await h.call('xvm_send', { amount: String(CAM / 10n), assetID: 'CAM', to: foreign });
    expect(r.isError, r.text).toBe(true);
    expect(r.text.split('\n')[0]).toBe(`Refused: ${foreign} belongs to network prefix "${foreignHrp}", but the node is on "${hrp}".`);
    expect(reads()).toBe(read);
    expect(issued()).toBe(before);
  });
});

describe('the per-spend cap counts every fee the bytes burn', () => {
  it('a node-stated txFee of 3 CAM: a 0.1 CAM send is refused under a 1 CAM cap, nothing sent', async () => {
    const fee = state.fees.txFee;
    state.fees.txFee = 3n * CAM;
    try {
      const h = await harness(CAP);
      const before = issued();
      const r = await h.call('xvm_send', { amount: '0.1 CAM', assetID: 'CAM', to: alice().x });
      expect(r.isError).toBe(true);
      expect(r.text).toContain('Refused: this spend takes 3.1 CAM out of the key');
      expect(r.text).toContain('CHAIN_MCP_MAX_SPEND');
      expect(issued()).toBe(before);
    } finally {
      state.fees.txFee = fee;
    }
  });

  it('a base fee at twice the node\'s: the C export that fits at the node\'s base fee is refused with the doubled one', async () => {
    const base = state.cBaseFee;
    // A base fee at which the export's fee is a sizeable part of the 1 CAM cap.
    state.cBaseFee = 30_000_000_000_000n;
    try {
      const free = await harness();
      const probe = await free.call('cx_export', { to: alice().x, amount: '0.1 CAM', assetID: 'CAM' });
      expect(probe.isError, probe.text).toBe(false);
      const fee = BigInt((probe.structured!.details as { fee: string }).fee);
      // amount + fee fits the cap; amount + twice the fee does not.
      const amount = CAM - fee - fee / 2n;
      expect(amount + fee <= CAM && amount + 2n * fee > CAM, `fee ${fee}`).toBe(true);
      const h = await harness(CAP);
      const before = issued();
      const fits = await h.call('cx_export', { to: alice().x, amount: String(amount), assetID: 'CAM' });
      expect(fits.isError, fits.text).toBe(false);
      const doubled = await h.call('cx_export', { to: alice().x, amount: String(amount), assetID: 'CAM', baseFee: String(state.cBaseFee * 2n) });
      expect(doubled.isError, doubled.text).toBe(true);
      expect(doubled.text).toContain('CHAIN_MCP_MAX_SPEND');
      expect(issued()).toBe(before);
    } finally {
      state.cBaseFee = base;
    }
  });

  it('a 10,000,000-gas estimate: a 0.6 CAM EVM send is refused under a 1 CAM cap (gas limit x maximum fee counted)', async () => {
    const paths = ['/ext/bc/C/rpc', `/ext/bc/${state.chains.C}/rpc`];
    const hex = (n: bigint) => `0x${n.toString(16)}`;
    let gas = 10_000_000n;
    for (const path of paths) devnet.router.on(path, 'eth_estimateGas', () => hex(gas));
    try {
      const h = await harness(CAP);
      const before = issued();
      const r = await h.call('transfer', { to: alice().c, amount: '0.6 CAM', sourceChain: 'C' });
      expect(r.isError).toBe(true);
      expect(r.text).toContain('CHAIN_MCP_MAX_SPEND');
      expect(issued()).toBe(before);
      // The same send with a plain transfer's gas fits.
      gas = 21_000n;
      const ok = await h.call('transfer', { to: alice().c, amount: '0.6 CAM', sourceChain: 'C' });
      expect(ok.isError, ok.text).toBe(false);
    } finally {
      gas = 21_000n;
    }
  });
});

describe('at confirm the limits are applied to the kept bytes, decoded again', () => {
  it('kept bytes paying a stranger 5 CAM under a forged, valid confirmation id are refused under a 1 CAM cap; nothing is signed', async () => {
    const store = new MemoryStore();
    // Another process on the same store with no limit leaves bytes paying alice 5 CAM.
    const free = await harness({}, store);
    const big = await free.call('xvm_send', { amount: '5 CAM', assetID: 'CAM', to: alice().x });
    expect(big.isError, big.text).toBe(false);
    const bigNonce = String(big.structured!.confirmationId).split('.')[0]!;
    const kept = (await free.services.localRecords.get(bigNonce)) as LocalRecord;
    expect(kept.tool).toBe('xvm_send');
    const h = await harness(CAP, store);
    const args = { amount: String(CAM / 2n), assetID: state.nativeAssetID, to: alice().x };
    // Whoever holds this process's secrets mints a valid id for the small arguments bound to the big bytes' hashes,
    // and keeps the big bytes under it as this process would.
    const parsed = CATALOGUE.find((t) => t.name === 'xvm_send')!.input.parse(args) as Record<string, unknown>;
    const { id, expiresAt } = await h.services.confirmations.issue('xvm_send', { args: parsed, unsignedSha256: kept.hashes }, h.clock.now);
    await h.services.localRecords.put(id.split('.')[0]!, { ...kept, expiresAt });
    const before = issued();
    const r = await h.call('xvm_send', { ...args, confirm: id });
    expect(r.isError).toBe(true);
    expect(r.text).toContain('Refused: this spend takes 5.001 CAM out of the key');
    expect(issued()).toBe(before);
  });
});

describe('a deposit whose rewards go to a stranger', () => {
  it('is marked NOT your address, never "claimable by you", and refused under a limit unless allow-listed', async () => {
    const offer = state.depositOffers[0]!;
    const args = { offerID: offer.id, amount: '1 CAM', duration: 60 * 86_400, rewardAddress: alice().p };
    const free = await harness();
    const p = await free.call('platform_deposit', args);
    expect(p.isError, p.text).toBe(false);
    const lines = p.structured!.preview as string[];
    expect(lines.some((l) => l.includes(`rewards to ${alice().p} (NOT your address)`))).toBe(true);
    expect(lines.some((l) => l.includes(`paid to ${alice().p} (NOT your address): that owner claims them`))).toBe(true);
    // Warned among the first lines, before any detail.
    const warning = `NOT your address: the deposit's rewards go to ${alice().p}; that owner claims them, not you`;
    expect(lines.indexOf(warning)).toBeGreaterThan(-1);
    expect(lines.indexOf(warning)).toBeLessThan(lines.findIndex((l) => l.startsWith('Tx ')));
    expect(lines.join('\n')).not.toContain('claimable by you');
    expect(lines.join('\n')).not.toContain('platform_claim');
    const before = issued();
    const limited = await harness({ CHAIN_MCP_MAX_SPEND: String(100n * CAM) });
    const r = await limited.call('platform_deposit', args);
    expect(r.isError).toBe(true);
    expect(r.text).toContain(`the deposit's rewards go to ${alice().p}, NOT your address`);
    const listed = await harness({ CHAIN_MCP_MAX_SPEND: String(100n * CAM), CHAIN_MCP_ALLOWED_RECIPIENTS: alice().p });
    const ok = await listed.call('platform_deposit', args);
    expect(ok.isError, ok.text).toBe(false);
    // The key's own rewards under the same limit: no mark, claimable by the key.
    const mine = await limited.call('platform_deposit', { offerID: offer.id, amount: '1 CAM', duration: 60 * 86_400 });
    expect(mine.isError, mine.text).toBe(false);
    expect((mine.structured!.preview as string[]).join('\n')).toContain('claimable by you as it accrues with platform_claim');
    expect(issued()).toBe(before);
  });
});

describe('a claim whose rewards are paid to a stranger', () => {
  it('says so in its intent and warns before any detail', async () => {
    const h = await harness();
    const p = await h.call('platform_claim', { claims: [{ kind: 'validator', owner: devnet.localKey.p, amount: '1 CAM' }], to: alice().p });
    expect(p.isError, p.text).toBe(false);
    const lines = p.structured!.preview as string[];
    expect(lines[0]).toBe(`Claim 1 CAM of rewards to ${alice().p.slice(0, 12)}…${alice().p.slice(-4)} (NOT your address)`);
    expect(lines).toContain(`NOT your address: 1 CAM goes to ${alice().p}`);
    expect(lines.indexOf(`NOT your address: 1 CAM goes to ${alice().p}`)).toBeLessThan(lines.findIndex((l) => l.startsWith('Tx ')));
  });
});

describe('the preview opens with what a person checks first, read from the bytes', () => {
  const head = (r: { structured?: Record<string, unknown> }) => (r.structured!.preview as string[]).slice(0, 3);
  const short = (a: string) => `${a.slice(0, 12)}…${a.slice(-4)}`;

  it('a send, a cross-chain move, a deposit and a claim: intent, total leaving the key, then warnings; limits in CAM last on the approval', async () => {
    const h = await harness({ CHAIN_MCP_MAX_SPEND: '10 CAM' });
    const fee = state.fees.txFee;
    const send = await h.call('xvm_send', { amount: '2 CAM', assetID: 'CAM', to: alice().x });
    expect(send.isError, send.text).toBe(false);
    expect(head(send).slice(0, 2)).toEqual([`Send 2 CAM to ${short(alice().x)}`, 'Total leaving your key: 2.001 CAM (amount + every fee)']);
    expect(head(send)[2]).toMatch(/^Network: /);
    expect(send.text).not.toContain('smallest units');
    // The lines the human approves end with the limits, in CAM.
    const kept = (await h.services.localRecords.get(String(send.structured!.confirmationId).split('.')[0]!)) as LocalRecord;
    expect(kept.lines.slice(0, 2)).toEqual(head(send).slice(0, 2));
    expect(kept.lines.at(-1)).toBe('Limit in force: at most 10 CAM per spend (CHAIN_MCP_MAX_SPEND)');

    const move = await h.call('transfer', { to: `C-${devnet.localKey.x.slice(2)}`, amount: '2 CAM' });
    expect(move.isError, move.text).toBe(false);
    const details = move.structured!.details as { fees: string[]; arrives: string };
    const fees = details.fees.map(BigInt).reduce((a, b) => a + b, 0n);
    const [intent, total] = head(move);
    expect(intent).toMatch(/^Move 2 CAM from your X account to your C account \(0x[0-9a-f]{4}…[0-9a-f]{4}\); ([\d.]+) CAM arrives$/);
    // What arrives is the import's credited output, the amount less the import fee.
    expect(intent).toContain(`; ${Number(details.arrives) / 1e9} CAM arrives`);
    expect(total).toBe(`Total leaving your key: ${Number(fees) / 1e9} CAM (every fee; nothing else leaves)`);

    const offer = state.depositOffers[0]!;
    const deposit = await h.call('platform_deposit', { offerID: offer.id, amount: '1 CAM', duration: 60 * 86_400 });
    expect(deposit.isError, deposit.text).toBe(false);
    expect(head(deposit).slice(0, 2)).toEqual([`Deposit 1 CAM for 60 days into offer ${short(offer.id)}`, `Total leaving your key: ${Number(CAM + fee) / 1e9} CAM (amount + every fee)`]);

    const claim = await h.call('platform_claim', { claims: [{ kind: 'validator', owner: devnet.localKey.p, amount: '1 CAM' }], to: devnet.localKey.p });
    expect(claim.isError, claim.text).toBe(false);
    expect(head(claim).slice(0, 2)).toEqual([`Claim 1 CAM of rewards to your P account (${short(devnet.localKey.p)})`, `Total leaving your key: ${Number(fee) / 1e9} CAM (every fee; nothing else leaves)`]);
  });

  it('an import to another 0x address: the intent and a warning say NOT your address before any detail', async () => {
    const h = await harness();
    const r = await h.call('cx_import', { sourceChain: 'X', to: alice().c });
    expect(r.isError, r.text).toBe(false);
    const lines = r.structured!.preview as string[];
    expect(lines[0]).toMatch(new RegExp(`^Import [\\d.]+ CAM from the X-Chain into 0x${alice().c.slice(2, 6)}…${alice().c.slice(-4)} \\(NOT your address\\)$`));
    expect(lines[1]).toMatch(/^Total leaving your key: [\d.]+ CAM \(amount \+ every fee\)$/);
    expect(lines[2]).toMatch(new RegExp(`^NOT your address: [\\d.]+ CAM goes to ${alice().c.toLowerCase()}$`));
  });
});
