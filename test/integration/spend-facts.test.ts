import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cb58Encode } from '../../src/codec/cb58.js';
import { addAsset, fund } from '../../src/devnet/state/index.js';
import { type Devnet, startDevnet } from '../../src/devnet/index.js';
import { MAX_PENDING_PER_OWNER } from '../../src/approval/book.js';
import { CARD_META_KEY } from '../../src/approval/card.js';
import { type ElicitAnswer, type ElicitParams, type SpendCall, type SpendHarness, requestsFor, spendHarness } from '../helpers/spend-harness.js';
import { type2 } from '../helpers/evm-tx.js';

/**
 * Issue 21, "what the human approves is what is sent": each attack of the issue that belongs to
 * items 1-4 and 6a, driven through the MCP protocol against the simulator. The client plays the
 * model (and, where a channel exists, the host and the human).
 */

/** The facts the MCP Apps card shows (from the result's _meta, which hosts give the view). */
const cardLines = (r: SpendCall): string[] => (r.meta?.[CARD_META_KEY] as { lines: string[] } | undefined)?.lines ?? [];

const UI_HOST = { extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] } } };
const CAM = 1_000_000_000n;

/** Methods the node received since `mark`, in order (batch items one by one). */
function methodsSince(devnet: Devnet, mark: number): string[] {
  return devnet.router.requests.slice(mark).flatMap((r) => {
    const body = r.body as { method?: string } | Array<{ method?: string }>;
    return (Array.isArray(body) ? body : [body]).map((b) => String(b.method));
  });
}

describe('what the human approves is what is sent', () => {
  let devnet: Devnet;
  let own: string; // one of the keystore user's X addresses
  let stranger: string; // alice's: not the keystore user's
  let strangerP: string;
  const harnesses: SpendHarness[] = [];
  const harness = async (opts: Parameters<typeof spendHarness>[1] = {}) => {
    const h = await spendHarness(devnet, { ...opts, env: { CHAIN_MCP_APPROVAL_WAIT_MS: '0', CHAIN_MCP_APPROVAL_LINK: 'plain', ...opts.env } });
    harnesses.push(h);
    return h;
  };

  beforeAll(async () => {
    devnet = await startDevnet();
    devnet.router.record = true;
    own = devnet.state.users.get('devnet')!.keys[1]!.x;
    const alice = devnet.state.users.get('alice')!.keys[0]!;
    stranger = alice.x;
    strangerP = alice.p;
  });
  afterAll(async () => {
    for (const h of harnesses) await h.close();
    await devnet.close();
  });

  describe('change goes where the caller says: shown, marked, refused under a limit', () => {
    it('xvm_send with a stranger changeAddr under CHAIN_MCP_MAX_SPEND is refused before the spend and before any preview read', async () => {
      const h = await harness({ env: { CHAIN_MCP_MAX_SPEND: (1n * CAM).toString(), CHAIN_MCP_APPROVAL: 'confirm-id' } });
      const mark = devnet.router.requests.length;
      const r = await h.call('xvm_send', { to: own, amount: '1', assetID: 'CAM', changeAddr: stranger });
      expect(r.isError).toBe(true);
      expect(r.text).toContain(`Refused: ${stranger} is not one of the keystore user's addresses`);
      const sent = methodsSince(devnet, mark);
      // Only the lookups the check needs: the network (and dialect) and the user's own address list; no fee, balance or send.
      expect(sent.filter((m) => !['platform.getConfiguration', 'info.getNetworkID', 'info.getNodeVersion', 'xvm.listAddresses'].includes(m))).toEqual([]);
      expect(sent).toContain('xvm.listAddresses');
      // Its own address as change passes the same limit.
      const ok = await h.call('xvm_send', { to: own, amount: '1', assetID: 'CAM', changeAddr: own });
      expect(ok.isError, ok.text).toBe(false);
      expect(ok.text).toContain(`Change to: ${own} (your address)`);
    });

    it('platform_createSubnet with a stranger changeAddr under CHAIN_MCP_MAX_SPEND_PER_DAY is refused', async () => {
      const h = await harness({ env: { CHAIN_MCP_MAX_SPEND_PER_DAY: (100n * CAM).toString() } });
      const before = requestsFor(devnet, 'platform.createSubnet');
      const r = await h.call('platform_createSubnet', { controlKeys: [strangerP], threshold: 1, changeAddr: strangerP });
      expect(r.isError).toBe(true);
      expect(r.text).toContain(`Refused: ${strangerP} is not one of the keystore user's addresses`);
      expect(requestsFor(devnet, 'platform.createSubnet')).toBe(before);
    });

    it('an import to a stranger under a limit is refused; without limits the preview marks it and says what moves', async () => {
      const limited = await harness({ env: { CHAIN_MCP_MAX_SPEND: '1', CHAIN_MCP_APPROVAL: 'confirm-id' } });
      const refused = await limited.call('xvm_import', { to: stranger, sourceChain: 'P' });
      expect(refused.text).toContain(`Refused: ${stranger} is not one of the keystore user's addresses`);
      const open = await harness({ env: { CHAIN_MCP_APPROVAL: 'confirm-id' } });
      const p = await open.call('xvm_import', { to: stranger, sourceChain: 'P' });
      expect(p.isError, p.text).toBe(false);
      expect(p.text).toContain(`To: ${stranger} (NOT your address)`);
      expect(p.text).toMatch(/- Imports: /);
    });

    it('without limits every channel shows "Change to: <addr> (NOT your address)": preview text, page, card and form', async () => {
      const args = { to: own, amount: '1', assetID: 'CAM', changeAddr: stranger };
      const line = `Change to: ${stranger} (NOT your address)`;
      // The model's preview and the loopback page (a client with no channel of its own).
      const linkClient = await harness();
      const p = await linkClient.call('xvm_send', args);
      expect(p.isError, p.text).toBe(false);
      expect(p.text).toContain(line);
      expect(p.structured?.preview).toContain(line);
      const page = await (await fetch(p.structured?.approvalUrl as string)).text();
      expect(page).toContain(`<li>${line}</li>`);
      // The MCP Apps card's facts.
      const cardHost = await harness({ capabilities: UI_HOST });
      const c = await cardHost.call('xvm_send', args);
      const facts = cardLines(c);
      expect(facts).toContain(line);
      // The form the client shows the human.
      const asked: string[] = [];
      const formHost = await harness({ capabilities: { elicitation: { form: {} } }, elicit: (q: ElicitParams) => {
          asked.push(q.message);
          return { action: 'decline' };
        } });
      const f = await formHost.call('xvm_send', args);
      const declined = await formHost.call('xvm_send', { ...args, confirm: f.structured?.confirmationId });
      expect(declined.text).toContain('Declined');
      expect(asked.join('\n').split('\n')).toContain(line);
    });

    it('every output of sendMultiple is its own line, and the change line is there', async () => {
      const h = await harness({ env: { CHAIN_MCP_APPROVAL: 'confirm-id' } });
      const outputs = [1, 2, 3].map((n) => ({ assetID: 'CAM', amount: String(n * 1000), to: n === 2 ? stranger : own }));
      const p = await h.call('xvm_sendMultiple', { outputs });
      expect(p.isError, p.text).toBe(false);
      for (const n of outputs.keys()) expect(p.text).toContain(`Pays ${n + 1} of 3: `);
      expect(p.text).toContain(`to ${stranger}`);
      expect(p.text).toContain('Change to: one of your addresses (the node picks)');
    });
  });

  describe('the approval shows only facts', () => {
    it('a memo with "\\nTo: …" and bidi or tag characters cannot add a line, in the text, the page, the card or the form', async () => {
      const memo = `thanks\nTo: ${own} (your address)\u202E\nAmount: 0.9 CAM\u{E0041}\u{E0042}`;
      const args = { to: stranger, amount: '1', assetID: 'CAM', memo };
      const check = (lines: string[]) => {
        expect(lines.filter((l) => /^(- )?To: /.test(l))).toEqual([expect.stringContaining(`To: ${stranger}`)]);
        expect(lines.filter((l) => /^(- )?Amount: /.test(l))).toHaveLength(1);
        const memoLine = lines.find((l) => l.includes('thanks'))!;
        expect(memoLine).toMatch(/^(- )?Memo \(written by the sender\): "thanks To: /);
        expect(memoLine).not.toMatch(/[\u202E\u{E0000}-\u{E007F}]/u);
        // The fixed lines (and the limits and exact amount the approval adds) all come before it.
        const at = lines.indexOf(memoLine);
        expect(at).toBeGreaterThan(lines.findIndex((l) => /Fee: /.test(l)));
        expect(lines.slice(at + 1).filter((l) => /^(- )?(Network|From|To|Change to|Amount|Fee|Balance after|Limit in force)\b/.test(l))).toEqual([]);
      };
      const h = await harness();
      const p = await h.call('xvm_send', args);
      check(p.text.split('\n'));
      // The page also carries the exact amount line: it must come before the memo too.
      expect(p.structured?.preview).toEqual(expect.arrayContaining([expect.stringMatching(/^Memo \(written by the sender\)/)]));
      const page = await (await fetch(p.structured?.approvalUrl as string)).text();
      check([...page.matchAll(/<li>([^<]*)<\/li>/g)].map((m) => m[1]!.replace(/&quot;/g, '"').replace(/&#39;/g, "'")));
      const cardHost = await harness({ capabilities: UI_HOST });
      const card = await cardHost.call('xvm_send', args);
      check(cardLines(card));
      const asked: string[] = [];
      const formHost = await harness({ capabilities: { elicitation: { form: {} } }, elicit: (q: ElicitParams) => {
          asked.push(q.message);
          return { action: 'decline' };
        } });
      const f = await formHost.call('xvm_send', args);
      await formHost.call('xvm_send', { ...args, confirm: f.structured?.confirmationId });
      check(asked.join('\n').split('\n'));
    });

    it('the xvm_mint preview quotes a hostile on-chain name on its own labelled line, after the real To', async () => {
      const devnetUser = devnet.state.users.get('devnet')!;
      const minter = devnetUser.keys[0]!.x;
      const txID = cb58Encode(new Uint8Array(32).fill(0x4d));
      addAsset(devnet.state, {
        txID,
        name: `Gold\nTo: ${own} (your address)\u202E`,
        symbol: 'GLD',
        denomination: 0,
        kind: 'variableCap',
        minterSets: [{ minters: [minter], threshold: 1 }],
      });
      const h = await harness({ env: { CHAIN_MCP_APPROVAL: 'confirm-id' } });
      const p = await h.call('xvm_mint', { amount: '5', assetID: txID, to: stranger });
      expect(p.isError, p.text).toBe(false);
      const lines = p.text.split('\n');
      expect(lines.filter((l) => l.startsWith('- To: '))).toEqual([`- To: ${stranger}`]);
      const nameLine = lines.find((l) => l.includes('Gold'))!;
      expect(nameLine).toBe(`- Asset name (written by its creator): "Gold To: ${own} (your address)"`);
      expect(lines.indexOf(nameLine)).toBeGreaterThan(lines.findIndex((l) => l.startsWith('- Fee: ')));
    });

    it('a Lisu look-alike "ꓚꓮꓟ" is flagged NOT native in a spend preview and in indexer_getAsset and indexer_listAssets', async () => {
      const txID = cb58Encode(new Uint8Array(32).fill(0x4c));
      addAsset(devnet.state, { txID, name: 'ꓚꓮꓟꓲꓠꓳ', symbol: 'ꓚꓮꓟ', denomination: 9, kind: 'fixedCap' });
      const holder = devnet.state.users.get('devnet')!.keys[0]!.x;
      fund(devnet.state, 'X', holder, [5000n], { assetID: txID });
      const short = `${txID.slice(0, 4)}…${txID.slice(-4)}`;
      const mark = `(NOT the native CAM; asset ${short})`;
      const h = await harness({ env: { CHAIN_MCP_APPROVAL: 'confirm-id' } });
      const p = await h.call('xvm_send', { assetID: txID, amount: '10', to: stranger });
      expect(p.text).toContain(mark);
      const one = await h.call('indexer_getAsset', { id: txID });
      expect(one.isError, one.text).toBe(false);
      expect(one.text).toContain(mark);
      expect(one.structured?.imitation).toBe(mark);
      const list = await h.call('indexer_listAssets', { limit: 100 });
      expect(list.text.split('\n').find((l) => l.includes(txID))).toContain(mark);
      // The real native asset is not flagged.
      expect(list.text.split('\n').find((l) => l.includes(devnet.state.nativeAssetID))).not.toContain('NOT the native');
    });
  });

  describe('EVM raw transactions: the maximum fee counts, contract creation and token transfers are named', () => {
    const to = '0x3535353535353535353535353535353535353535';

    it('the maximum fee counts against CHAIN_MCP_MAX_SPEND (rounded up to whole nCAM) and is shown', async () => {
      // 1 nCAM of value; 21,000 gas x 1,000 gwei = 0.021 CAM of maximum fee.
      const tx = type2({ to, value: 10n ** 9n, gas: 21_000n, maxFee: 1000n * 10n ** 9n });
      const capped = await harness({ env: { CHAIN_MCP_MAX_SPEND: '1000', CHAIN_MCP_APPROVAL: 'confirm-id' } });
      const mark = devnet.router.requests.length;
      const r = await capped.call('eth_sendRawTransaction', { signedTx: tx });
      expect(r.isError).toBe(true);
      expect(r.text).toContain('exceeds CHAIN_MCP_MAX_SPEND');
      expect(methodsSince(devnet, mark)).toEqual([]);
      const exact = await harness({ env: { CHAIN_MCP_MAX_SPEND: (1n + 21_000_000n).toString(), CHAIN_MCP_APPROVAL: 'confirm-id' } });
      const p = await exact.call('eth_sendRawTransaction', { signedTx: tx });
      expect(p.isError, p.text).toBe(false);
      expect(p.text).toContain('Fee: at most 0.021 CAM (gas limit 21000 x at most 1000000000000 wei per gas)');
      // One wei more of fee rounds up to one more nCAM: over the same cap.
      const wei = type2({ to, value: 10n ** 9n, gas: 21_000n, maxFee: 1000n * 10n ** 9n + 1n });
      expect((await exact.call('eth_sendRawTransaction', { signedTx: wei })).text).toContain('exceeds CHAIN_MCP_MAX_SPEND');
    });

    it('names a contract creation and an ERC-20 transfer (recipient and amount), and allow-lists the token recipient', async () => {
      const h = await harness({ env: { CHAIN_MCP_APPROVAL: 'confirm-id' } });
      const create = await h.call('eth_sendRawTransaction', { signedTx: type2({ value: 0n, gas: 100_000n, maxFee: 25n * 10n ** 9n, data: '0x6080604052' }) });
      expect(create.text).toContain('Creates a contract: 5 bytes of init code');
      const recipient = '0x7777777777777777777777777777777777777777';
      const data = `0xa9059cbb${recipient.slice(2).padStart(64, '0')}${(123456n).toString(16).padStart(64, '0')}`;
      const tokenTx = type2({ to, value: 0n, gas: 60_000n, maxFee: 25n * 10n ** 9n, data });
      const token = await h.call('eth_sendRawTransaction', { signedTx: tokenTx });
      expect(token.text).toContain(`Token transfer (ERC-20 transfer): 123456 of the token's smallest units to ${recipient}; token contract ${to}`);
      const listed = await harness({ env: { CHAIN_MCP_ALLOWED_RECIPIENTS: to, CHAIN_MCP_APPROVAL: 'confirm-id' } });
      expect((await listed.call('eth_sendRawTransaction', { signedTx: tokenTx })).text).toContain(`Refused: ${recipient} is not in CHAIN_MCP_ALLOWED_RECIPIENTS`);
    });
  });

  describe('keys and keystore users are spends', () => {
    const admin = { CHAIN_MCP_ALLOW_ADMIN: 'true' };

    it('xvm_exportKey under admin gives a preview, not a key; the key comes only after the human approves', async () => {
      const h = await harness({ env: admin });
      const address = devnet.state.users.get('devnet')!.keys[0]!;
      const before = requestsFor(devnet, 'xvm.exportKey');
      const p = await h.call('xvm_exportKey', { address: address.x });
      expect(p.isError, p.text).toBe(false);
      expect(p.structured?.status).toBe('preview');
      expect(p.text).toContain(`Exports: the private key of ${address.x} (your address)`);
      expect(JSON.stringify(p)).not.toContain(address.privateKey);
      expect(requestsFor(devnet, 'xvm.exportKey')).toBe(before);
      expect(h.logs.join('\n')).toMatch(/"audit":"preview".*"tool":"xvm_exportKey"/);
      // The model's confirm alone gives nothing.
      const early = await h.call('xvm_exportKey', { address: address.x, confirm: p.structured?.confirmationId });
      expect(early.text).toContain('Not approved by the human yet');
      expect(requestsFor(devnet, 'xvm.exportKey')).toBe(before);
      // The human approves on the page: then once.
      const page = await (await fetch(p.structured?.approvalUrl as string)).text();
      const csrf = /name="csrf" value="([^"]+)"/.exec(page)![1]!;
      const url = p.structured?.approvalUrl as string;
      await fetch(url, { method: 'POST', headers: { origin: new URL(url).origin, 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ csrf, decision: 'approve' }) });
      const sent = await h.call('xvm_exportKey', { address: address.x, confirm: p.structured?.confirmationId });
      expect(sent.isError, sent.text).toBe(false);
      expect((sent.structured?.result as { privateKey?: string } | undefined)?.privateKey).toBe(address.privateKey);
      expect(requestsFor(devnet, 'xvm.exportKey')).toBe(before + 1);
      expect(h.logs.join('\n')).toMatch(/"audit":"issued".*"tool":"xvm_exportKey"/);
    });

    it('keystore_deleteUser and keystore_exportUser preview first (confirm-id mode too); key exports are refused under a limit', async () => {
      const h = await harness({ env: { ...admin, CHAIN_MCP_APPROVAL: 'confirm-id' } });
      const deletes = requestsFor(devnet, 'keystore.deleteUser');
      const d = await h.call('keystore_deleteUser', {});
      expect(d.structured?.status).toBe('preview');
      expect(d.text).toContain('Deletes: the keystore user and every key it holds');
      expect(requestsFor(devnet, 'keystore.deleteUser')).toBe(deletes);
      const e = await h.call('keystore_exportUser', {});
      expect(e.structured?.status).toBe('preview');
      expect(e.structured?.result).toBeUndefined();
      const limited = await harness({ env: { ...admin, CHAIN_MCP_MAX_SPEND: '1000' } });
      const r = await limited.call('platform_exportKey', { address: devnet.state.users.get('devnet')!.keys[0]!.p });
      expect(r.isError).toBe(true);
      expect(r.text).toContain('Refused: this hands over a private key, which no spending limit can bound');
    });
  });

  it('CHAIN_MCP_MAX_SPEND_PER_DAY refuses the spend that would cross it (fees included) and frees up after 24 hours', async () => {
    // 3 CAM a day; the devnet's X fee is 0.001 CAM.
    const h = await harness({ env: { CHAIN_MCP_MAX_SPEND_PER_DAY: (3n * CAM).toString(), CHAIN_MCP_APPROVAL: 'confirm-id' } });
    const send = async (amount: bigint) => {
      const args = { to: stranger, amount: amount.toString(), assetID: 'CAM' };
      const p = await h.call('xvm_send', args);
      if (p.isError) return p;
      return h.call('xvm_send', { ...args, confirm: p.structured?.confirmationId });
    };
    const sends = () => requestsFor(devnet, 'xvm.send');
    const first = await send(2n * CAM);
    expect(first.isError, first.text).toBe(false);
    expect(first.structured?.status).toBe('issued');
    // 2.001 spent: 0.999 more would be 3.000 with its fee 0.001 -> 3.001 > 3: refused, nothing sent.
    const before = sends();
    const mark = devnet.router.requests.length;
    // The amount alone fits; with the fee the preview learns it does not, so no preview is issued.
    const over = await h.call('xvm_send', { to: stranger, amount: (CAM - 1_000_000n).toString(), assetID: 'CAM' });
    expect(over.isError).toBe(true);
    expect(over.structured?.confirmationId).toBeUndefined();
    expect(over.text).toContain('Refused: this spend (1 CAM, fees included) would bring the total sent in the last 24 hours to 3.001 CAM');
    expect(sends()).toBe(before);
    // The amount alone already crosses: refused before any request.
    const far = await h.call('xvm_send', { to: stranger, amount: (2n * CAM).toString(), assetID: 'CAM' });
    expect(far.text).toContain('over CHAIN_MCP_MAX_SPEND_PER_DAY');
    expect(methodsSince(devnet, mark).filter((m) => m === 'xvm.send')).toEqual([]);
    // One that fits with its fee goes.
    const fits = await send(CAM - 2_000_000n);
    expect(fits.isError, fits.text).toBe(false);
    // 24 hours later the window is empty again.
    h.clock.now += 24 * 60 * 60 * 1000 + 1;
    const later = await send(2n * CAM);
    expect(later.isError, later.text).toBe(false);
  });

  it('CHAIN_MCP_MAX_SPEND_PER_DAY holds for two confirms whose questions to the human overlap: one is sent, the other refused', async () => {
    // Both confirms pass the check before the human answers; only the reservation right before the
    // one request can tell that the two together cross 3 CAM (1.5 + 0.001 fee each).
    const asked: Array<() => void> = [];
    const h = await harness({
      env: { CHAIN_MCP_MAX_SPEND_PER_DAY: (3n * CAM).toString(), CHAIN_MCP_APPROVAL: 'confirm-id' },
      capabilities: { elicitation: { form: {} } },
      elicit: () =>
        new Promise<ElicitAnswer>((resolve) => {
          asked.push(() => resolve({ action: 'accept', content: { approve: true } }));
          if (asked.length === 2) for (const answer of asked) answer();
        }),
    });
    const args = { to: stranger, amount: (3n * CAM / 2n).toString(), assetID: 'CAM' };
    const a = await h.call('xvm_send', args);
    const b = await h.call('xvm_send', args);
    expect([a.isError, b.isError]).toEqual([false, false]);
    const before = requestsFor(devnet, 'xvm.send');
    const done = await Promise.all([a, b].map((p) => h.call('xvm_send', { ...args, confirm: p.structured?.confirmationId })));
    expect(done.map((r) => r.isError).sort(), done.map((r) => r.text).join("\n---\n")).toEqual([false, true]);
    expect(done.find((r) => r.isError)?.text).toContain('would bring the total sent in the last 24 hours to 3.002 CAM, over CHAIN_MCP_MAX_SPEND_PER_DAY (3 CAM)');
    expect(requestsFor(devnet, 'xvm.send')).toBe(before + 1);
  });

  it(`pending approvals are bounded per owner (${MAX_PENDING_PER_OWNER}): the next preview is refused and the human's older one still stands`, async () => {
    const h = await harness();
    const args = { to: stranger, amount: '1', assetID: 'CAM' };
    const first = await h.call('xvm_send', args);
    const url = first.structured?.approvalUrl as string;
    for (let i = 1; i < MAX_PENDING_PER_OWNER; i++) expect((await h.call('xvm_send', args)).isError).toBe(false);
    const refused = await h.call('xvm_send', args);
    expect(refused.isError).toBe(true);
    expect(refused.text).toContain(`Refused: ${MAX_PENDING_PER_OWNER} of your previews are already waiting for the human's approval`);
    // The first preview's page still works.
    expect((await fetch(url)).status).toBe(200);
  });
});
