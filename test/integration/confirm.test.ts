import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { formatChainAddress } from '../../src/codec/index.js';
import { type Devnet, startDevnet } from '../../src/devnet/index.js';
import { balanceOf } from '../../src/devnet/state/index.js';
import { type ElicitAnswer, type SpendHarness, spendHarness, requestsFor } from '../helpers/spend-harness.js';

/** The confirmation protocol (DESIGN "Confirmation of spends") over a real MCP client. */

type Answer = ElicitAnswer;
type Harness = SpendHarness;

/** The protocol these tests cover is confirm-id (CHAIN_MCP_APPROVAL=human is covered in approval.test.ts). */
const harness = (devnet: Devnet, opts: { env?: Record<string, string>; elicit?: () => Answer } = {}) =>
  spendHarness(devnet, { env: { CHAIN_MCP_APPROVAL: 'confirm-id', ...opts.env }, ...(opts.elicit ? { capabilities: { elicitation: {} }, elicit: opts.elicit } : {}) });

describe('confirmation protocol', () => {
  let devnet: Devnet;
  let h: Harness;
  let to: string;
  const sends = () => requestsFor(devnet, 'xvm.send');
  const args = () => ({ amount: '1000000000', assetID: 'CAM', to });

  beforeAll(async () => {
    devnet = await startDevnet();
    to = devnet.state.users.get('alice')!.keys[1]!.x;
    h = await harness(devnet);
  });
  afterAll(async () => {
    await h.close();
    await devnet.close();
  });
  beforeEach(() => {
    devnet.router.record = true;
    devnet.router.requests.length = 0;
    h.clock.now = Date.now();
  });

  async function preview(harn = h, a: Record<string, unknown> = args()): Promise<string> {
    const r = await harn.call('xvm_send', a);
    expect(r.isError, r.text).toBe(false);
    expect(r.text).toContain('PREVIEW, nothing sent');
    return r.structured?.confirmationId as string;
  }

  it('sends nothing that changes the chain without confirm, then exactly once with the id', async () => {
    const before = balanceOf(devnet.state, 'X', to, devnet.state.nativeAssetID);
    const id = await preview();
    expect(sends()).toBe(0);
    const done = await h.call('xvm_send', { ...args(), confirm: id });
    expect(done.structured?.status).toBe('issued');
    expect(sends()).toBe(1);
    expect(balanceOf(devnet.state, 'X', to, devnet.state.nativeAssetID)).toBe(before + 1_000_000_000n);
  });

  it('refuses a reused id', async () => {
    const id = await preview();
    expect((await h.call('xvm_send', { ...args(), confirm: id })).isError).toBe(false);
    const again = await h.call('xvm_send', { ...args(), confirm: id });
    expect(again.isError).toBe(true);
    expect(again.text).toContain('already used');
    expect(sends()).toBe(1);
  });

  it('refuses an expired id (5 minutes on the server clock)', async () => {
    const id = await preview();
    h.clock.now += 5 * 60 * 1000 + 1;
    const late = await h.call('xvm_send', { ...args(), confirm: id });
    expect(late.isError).toBe(true);
    expect(late.text).toContain('expired');
    expect(sends()).toBe(0);
  });

  it('accepts an id just inside its 5 minutes', async () => {
    const id = await preview();
    h.clock.now += 5 * 60 * 1000 - 1;
    expect((await h.call('xvm_send', { ...args(), confirm: id })).isError).toBe(false);
    expect(sends()).toBe(1);
  });

  it('refuses forged ids', async () => {
    const id = await preview();
    const [nonce, expiry, mac] = id.split('.') as [string, string, string];
    const forged = [
      `${nonce}.${expiry}.${mac.slice(0, -2)}${mac.endsWith('AA') ? 'BB' : 'AA'}`,
      // A prefix of the real MAC: a comparison over the given length only would accept these.
      `${nonce}.${expiry}.${mac.slice(0, -1)}`,
      `${nonce}.${expiry}.${mac.slice(0, 1)}`,
      // The real MAC with more after it.
      `${nonce}.${expiry}.${mac}A`,
      `${nonce}.${Number(expiry) + 60_000}.${mac}`,
      'not-an-id',
      `${nonce}.${expiry}.`,
    ];
    for (const bad of forged) {
      const r = await h.call('xvm_send', { ...args(), confirm: bad });
      expect(r.isError, bad).toBe(true);
      expect(r.text).toMatch(/Confirmation refused/);
    }
    expect(sends()).toBe(0);
    // The real id still works once: the forgeries did not consume it.
    expect((await h.call('xvm_send', { ...args(), confirm: id })).isError).toBe(false);
  });

  it('refuses the id with other arguments or on another tool', async () => {
    const id = await preview();
    const other = await h.call('xvm_send', { ...args(), amount: '1000000001', confirm: id });
    expect(other.isError).toBe(true);
    expect(other.text).toContain('does not match');
    const otherTool = await h.call('wallet_send', { ...args(), confirm: id });
    expect(otherTool.isError).toBe(true);
    // Refused by the confirmation check itself (bound to xvm_send), not by input validation or the node.
    expect(otherTool.text).toContain('Confirmation refused: the confirmationId does not match this tool and these exact arguments');
    expect(otherTool.text).toContain('Nothing was sent');
    expect(sends()).toBe(0);
    expect(devnet.router.requests.filter((r) => JSON.stringify(r.body).includes('wallet.send'))).toHaveLength(0);
  });

  it('lets only one of two concurrent calls with one id issue', async () => {
    const id = await preview();
    const [a, b] = await Promise.all([h.call('xvm_send', { ...args(), confirm: id }), h.call('xvm_send', { ...args(), confirm: id })]);
    expect([a.isError, b.isError].sort()).toEqual([false, true]);
    expect(sends()).toBe(1);
  });

  it('refuses spends over the hard limits at preview, issuing no id', async () => {
    const foreign = formatChainAddress('X', 'camino', new Uint8Array(20).fill(7));
    const cases: Array<[Record<string, string>, Record<string, unknown>, RegExp]> = [
      [{ CHAIN_MCP_MAX_SPEND: '999999999' }, args(), /exceeds CHAIN_MCP_MAX_SPEND/],
      [{ CHAIN_MCP_ALLOWED_RECIPIENTS: devnet.state.users.get('alice')!.keys[0]!.x }, args(), /not in CHAIN_MCP_ALLOWED_RECIPIENTS/],
      [{ CHAIN_MCP_EXPECT_NETWORK_ID: '1000' }, args(), /not CHAIN_MCP_EXPECT_NETWORK_ID=1000/],
      [{}, { ...args(), to: foreign }, /network prefix "camino"/],
    ];
    for (const [env, a, message] of cases) {
      const limited = await harness(devnet, { env });
      try {
        const r = await limited.call('xvm_send', a);
        expect(r.isError, r.text).toBe(true);
        expect(r.text).toMatch(message);
        expect(r.structured?.confirmationId).toBeUndefined();
      } finally {
        await limited.close();
      }
    }
    expect(sends()).toBe(0);
  });

  it('asks the human when the client can elicit: accept issues once, decline and cancel issue nothing', async () => {
    const asked: string[] = [];
    let answer: Answer = { action: 'accept', content: { approve: true } };
    const elicit = await harness(devnet, {
      elicit: () => {
        asked.push('asked');
        return answer;
      },
    });
    try {
      const id1 = await preview(elicit);
      expect((await elicit.call('xvm_send', { ...args(), confirm: id1 })).structured?.status).toBe('issued');
      expect(sends()).toBe(1);
      for (const a of [{ action: 'decline' }, { action: 'cancel' }, { action: 'accept', content: { approve: false } }] as Answer[]) {
        answer = a;
        const id = await preview(elicit);
        const r = await elicit.call('xvm_send', { ...args(), confirm: id });
        expect(r.structured?.status).toBe('declined');
        expect(r.text).toContain('nothing was sent');
        // A declined id is spent: the model cannot retry past the human.
        const retried = await elicit.call('xvm_send', { ...args(), confirm: id });
        expect(retried.isError).toBe(true);
        expect(retried.text).toContain('the confirmationId was already used');
      }
      expect(sends()).toBe(1);
      expect(asked).toHaveLength(4);
    } finally {
      await elicit.close();
    }
  });

  it('reports an unknown outcome after one request when the node times out, and never retries', async () => {
    const slow = await startDevnet();
    const original = slow.router;
    let hits = 0;
    original.on('/ext/bc/X', 'xvm.send', async () => {
      hits += 1;
      await sleep(1500);
      return { txID: 'late', changeAddr: '' };
    });
    const timed = await harness(slow, { env: { CHAIN_MCP_TIMEOUT_MS: '400' } });
    try {
      const r0 = await timed.call('xvm_send', args());
      const r = await timed.call('xvm_send', { ...args(), confirm: r0.structured?.confirmationId });
      expect(r.isError).toBe(true);
      expect(r.text).toContain('is unknown');
      expect(r.text).toContain('will not be retried');
      expect(r.text).toContain('xvm_getAddressTxs');
      await sleep(1600);
      expect(hits).toBe(1);
    } finally {
      await timed.close();
      await slow.close();
    }
  });
});

/** An EIP-1559 transaction (chain 502) moving `valueWei` to `toHex`; the signature fields are dummies (never sent). */
function typedTx(valueWei: bigint, toHex: string): string {
  const rlp = (item: Uint8Array | Uint8Array[]): Uint8Array => {
    const wrap = (body: Uint8Array, short: number) => {
      if (body.length < 56) return Uint8Array.from([short + body.length, ...body]);
      const len = Buffer.from(body.length.toString(16).padStart(2 * Math.ceil(body.length.toString(16).length / 2), '0'), 'hex');
      return Uint8Array.from([short + 55 + len.length, ...len, ...body]);
    };
    if (Array.isArray(item)) return wrap(Buffer.concat(item.map((i) => rlp(i))), 0xc0);
    return item.length === 1 && item[0]! < 0x80 ? item : wrap(item, 0x80);
  };
  const n = (v: bigint) => (v === 0n ? new Uint8Array() : Buffer.from(v.toString(16).padStart(2 * Math.ceil(v.toString(16).length / 2), '0'), 'hex'));
  const fields = [n(502n), n(1n), n(10n ** 9n), n(30n * 10n ** 9n), n(21_000n), Buffer.from(toHex, 'hex'), n(valueWei), new Uint8Array(), [], n(1n), n(7n), n(9n)];
  return `0x02${Buffer.from(rlp(fields as Uint8Array[])).toString('hex')}`;
}

describe('spends the server cannot read are held to the limits', () => {
  let devnet: Devnet;
  beforeAll(async () => {
    devnet = await startDevnet();
  });
  afterAll(() => devnet.close());

  /** EIP-155 example: to 0x3535...35, value 1 ether (= 1 native unit at 10^18 wei), chain 1. */
  const RAW =
    '0xf86c098504a817c800825208943535353535353535353535353535353535353535880de0b6b3a76400008025a028ef61340bd939bc2195fe537567866003e1a15d3c71ff63e1590620aa636276a067cbe9d8997f761aecb703304b3800ccf555c9f3dc64214b297fb1966a3b6d83';

  it('decodes a raw EVM transaction for the preview and applies max spend and the allow-list to it', async () => {
    const open = await harness(devnet);
    const capped = await harness(devnet, { env: { CHAIN_MCP_MAX_SPEND: '999999999' } });
    const allowed = await harness(devnet, { env: { CHAIN_MCP_ALLOWED_RECIPIENTS: '0x3535353535353535353535353535353535353535'.toUpperCase().replace('0X', '0x') } });
    const other = await harness(devnet, { env: { CHAIN_MCP_ALLOWED_RECIPIENTS: '0x1111111111111111111111111111111111111111' } });
    try {
      const preview = await open.call('eth_sendRawTransaction', { signedTx: RAW });
      expect(preview.text).toContain('To: 0x3535353535353535353535353535353535353535');
      expect(preview.text).toContain('Value: 1 CAM');
      expect(preview.text).toContain('EVM chain ID in the tx: 1');
      expect((await capped.call('eth_sendRawTransaction', { signedTx: RAW })).text).toContain('exceeds CHAIN_MCP_MAX_SPEND');
      expect((await allowed.call('eth_sendRawTransaction', { signedTx: RAW })).structured?.status).toBe('preview');
      expect((await other.call('eth_sendRawTransaction', { signedTx: RAW })).text).toContain('not in CHAIN_MCP_ALLOWED_RECIPIENTS');
    } finally {
      await Promise.all([open.close(), capped.close(), allowed.close(), other.close()]);
    }
  });

  it('decodes a typed (EIP-1559) transaction too', async () => {
    const raw = typedTx(25n * 10n ** 17n, '42'.repeat(20));
    const h = await harness(devnet, { env: { CHAIN_MCP_MAX_SPEND: '2000000000' } });
    try {
      const r = await h.call('eth_sendRawTransaction', { signedTx: raw });
      expect(r.text).toContain('exceeds CHAIN_MCP_MAX_SPEND');
      const open = await harness(devnet);
      try {
        const preview = await open.call('eth_sendRawTransaction', { signedTx: raw });
        expect(preview.text).toContain(`To: 0x${'42'.repeat(20)}`);
        expect(preview.text).toContain('Value: 2.5 CAM');
        expect(preview.text).toContain('EVM chain ID in the tx: 502');
      } finally {
        await open.close();
      }
    } finally {
      await h.close();
    }
  });

  it('rounds wei up to the native unit against the cap: one wei over the cap is over', async () => {
    const cap = 2_000_000_000n; // 2 CAM in native smallest units = 2 * 10^18 wei
    // typedTx's maximum fee counts too: 21,000 gas x 30 gwei max fee per gas, in wei.
    const maxFeeWei = 21_000n * 30n * 10n ** 9n;
    const h = await harness(devnet, { env: { CHAIN_MCP_MAX_SPEND: String(cap) } });
    try {
      const at = await h.call('eth_sendRawTransaction', { signedTx: typedTx(cap * 10n ** 9n - maxFeeWei, '42'.repeat(20)) });
      expect(at.structured?.status, at.text).toBe('preview');
      const over = await h.call('eth_sendRawTransaction', { signedTx: typedTx(cap * 10n ** 9n - maxFeeWei + 1n, '42'.repeat(20)) });
      expect(over.isError, over.text).toBe(true);
      expect(over.text).toContain('exceeds CHAIN_MCP_MAX_SPEND');
    } finally {
      await h.close();
    }
  });

  it('refuses signed X, wallet and C transactions while a spend limit is set, and previews them otherwise', async () => {
    const open = await harness(devnet);
    const capped = await harness(devnet, { env: { CHAIN_MCP_MAX_SPEND: '1000' } });
    try {
      for (const tool of ['xvm_issueTx', 'wallet_issueTx', 'cx_issueTx']) {
        // 0x + deadbeef + the last 4 bytes of its sha256: a valid `hex` payload.
        const args = { tx: '0xdeadbeefaa813953', encoding: 'hex' };
        const preview = await open.call(tool, args);
        expect(preview.text, tool).toContain('cannot be shown here');
        const refused = await capped.call(tool, args);
        expect(refused.isError, tool).toBe(true);
        expect(refused.text).toContain('cannot check');
      }
    } finally {
      await Promise.all([open.close(), capped.close()]);
    }
  });
});
