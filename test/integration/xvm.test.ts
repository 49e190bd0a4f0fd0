import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addManyUtxos, type DevnetState, utxosOf } from '../../src/devnet/state/index.js';
import { inMemoryStack, type Stack } from '../helpers/stack.js';

const asset = (state: DevnetState, symbol: string) => [...state.assets.values()].find((a) => a.symbol === symbol)!;

describe('xvm and keystore toolsets against the devnet', () => {
  let stack: Stack;
  let state: DevnetState;
  let xAddr: string;
  beforeAll(async () => {
    stack = await inMemoryStack();
    state = stack.devnet.state;
    xAddr = state.users.get('devnet')!.keys[0]!.x;
  });
  afterAll(() => stack.close());

  it('shows an asset whose description gives no denomination in whole units (denomination 0), not 10^9 off', async () => {
    // A node build that omits the field: the amount must not be divided by the native asset's 10^9.
    const own = await inMemoryStack();
    try {
      const gld = asset(own.devnet.state, 'GLD');
      own.devnet.router.on('/ext/bc/X', 'xvm.getAssetDescription', () => ({ assetID: gld.id, name: gld.name, symbol: gld.symbol }));
      const x = own.devnet.state.users.get('devnet')!.keys[0]!.x;
      const r = await own.call('xvm_getBalance', { address: x, assetID: gld.id });
      expect(r.structured!.balance).toEqual({ value: '100000', display: '100,000 "GLD"' });
      expect(r.text).toContain('holds 100,000 "GLD"');
    } finally {
      await own.close();
    }
  });

  it('sends the chain field as the endpoint, never as a parameter the node would see', async () => {
    stack.devnet.router.record = true;
    stack.devnet.router.requests.length = 0;
    try {
      // By ID: a symbol such as "CAM" is resolved to its ID first (registry/asset-names.ts).
      const assetID = stack.devnet.state.nativeAssetID;
      const r = await stack.call('xvm_getBalance', { address: xAddr, assetID, chain: 'X' });
      expect(r.isError, r.text).toBe(false);
      const sent = stack.devnet.router.requests.filter((q) => (q.body as { method?: string }).method === 'xvm.getBalance');
      expect(sent.map((q) => [q.path, (q.body as { params?: unknown }).params])).toEqual([['/ext/bc/X', { address: xAddr, assetID }]]);
    } finally {
      stack.devnet.router.record = false;
    }
  });

  it('shows balances in each asset\'s own display units', async () => {
    const native = utxosOf(state, 'X', [xAddr]).filter((u) => u.assetID === state.nativeAssetID);
    const total = native.reduce((s, u) => s + u.amount, 0n);
    const r = await stack.call('xvm_getBalance', { address: xAddr, assetID: 'CAM' });
    expect(r.structured!.balance).toEqual({ value: String(total), display: expect.stringMatching(/ CAM$/) });
    expect(r.text).toContain(`in ${native.length} UTXO(s)`);
    // The fixed-cap asset has denomination 2: 100000 units are 1,000 GLD.
    const gld = await stack.call('xvm_getBalance', { address: xAddr, assetID: asset(state, 'GLD').id });
    expect(gld.text).toContain('holds 1,000 "GLD"');
    const all = await stack.call('xvm_getAllBalances', { address: xAddr });
    expect(all.structured!.count).toBe(4);
    expect(all.text).toContain('7,500 "SLV"');
    expect(all.text).toContain('1,000 "GLD"');
  });

  it('describes assets, by ID, alias or default native', async () => {
    const gld = await stack.call('xvm_getAssetDescription', { assetID: 'gold' });
    expect(gld.structured).toEqual({ assetID: asset(state, 'GLD').id, name: 'Gold Bar', symbol: 'GLD', denomination: 2 });
    expect(gld.text).toContain('100 units display as 1.00');
    const native = await stack.call('xvm_getAssetDescription', {});
    expect(native.structured!.assetID).toBe(state.nativeAssetID);
    expect(native.structured!.denomination).toBe(9);
  });

  it('pages address transactions with the cursor', async () => {
    const first = await stack.call('xvm_getAddressTxs', { address: xAddr, assetID: 'CAM', pageSize: 2 });
    expect(first.structured!.txIDs).toHaveLength(2);
    expect(first.structured!.lastPage).toBe(false);
    expect(first.text).toContain('cursor "2"');
    const second = await stack.call('xvm_getAddressTxs', { address: xAddr, assetID: 'CAM', pageSize: 1024, cursor: '2' });
    expect(second.structured!.lastPage).toBe(true);
    const seen = new Set([...(first.structured!.txIDs as string[]), ...(second.structured!.txIDs as string[])]);
    expect(seen.size).toBe((first.structured!.txIDs as string[]).length + (second.structured!.txIDs as string[]).length);
  });

  it('decodes a transaction: outputs in display units, memo, exports; status explained', async () => {
    const send = [...state.txs.values()].find((t) => t.chain === 'X' && t.memo !== '0x')!;
    const r = await stack.call('xvm_getTx', { txID: send.id, encoding: 'json' });
    expect(r.text).toContain('1 input(s), 2 output(s)');
    expect(r.text).toContain('- 50 CAM to X-');
    expect(r.text).toContain('Memo: "rent for November"');
    const exp = [...state.txs.values()].find((t) => t.chain === 'X' && t.type === 'export')!;
    expect((await stack.call('xvm_getTx', { txID: exp.id, encoding: 'json' })).text).toContain(`20 CAM to C-`);
    const hex = await stack.call('xvm_getTx', { txID: send.id, encoding: 'hex' });
    expect(hex.structured!.tx).toMatch(/^0x[0-9a-f]+$/);
    expect((await stack.call('xvm_getTxStatus', { txID: send.id })).text).toContain('is Accepted: final: the network accepted it');
    const processing = [...state.txs.values()].find((t) => t.status === 'Processing')!;
    expect((await stack.call('xvm_getTxStatus', { txID: processing.id })).text).toContain('Processing: not decided yet');
    const unknown = await stack.call('xvm_getTxStatus', { txID: state.chains.C });
    expect(unknown.structured!.status).toBe('Unknown');
    const missing = await stack.call('xvm_getTx', { txID: state.chains.C });
    expect(missing.isError).toBe(true);
    expect(missing.text).toContain('not found');
  });

  it('pages UTXOs across several pages with endIndex -> startIndex, and fetchAll agrees', async () => {
    const expected = utxosOf(state, 'X', [xAddr]);
    const ids = new Set<string>();
    let startIndex: unknown;
    let pages = 0;
    for (;;) {
      const r = await stack.call('xvm_getUTXOs', { addresses: [xAddr], limit: 100, items: 100, ...(startIndex ? { startIndex } : {}) });
      expect(r.isError, r.text).toBe(false);
      pages += 1;
      for (const u of r.structured!.utxos as Array<{ utxoID: string }>) ids.add(u.utxoID);
      if (r.structured!.lastPage) {
        expect(r.text).toContain('That was the last page');
        break;
      }
      expect(r.text).toContain('call again with startIndex');
      expect(r.text).toContain('Pages may overlap');
      startIndex = r.structured!.endIndex;
      expect(pages).toBeLessThan(10);
    }
    expect(pages).toBe(Math.floor(expected.length / 100) + 1);
    expect(ids).toEqual(new Set(expected.map((u) => `${u.txID}:${u.outputIndex}`)));

    const progress: number[] = [];
    const totals: Array<number | undefined> = [];
    const all = await stack.client.callTool({ name: 'xvm_getUTXOs', arguments: { addresses: [xAddr], limit: 100, fetchAll: true } }, {
      onprogress: (p) => {
        progress.push(p.progress);
        totals.push(p.total);
      },
    });
    const out = all.structuredContent as { pages: number; numFetched: number; totals: Array<{ assetID: string; amount: { value: string } }> };
    expect(out.pages).toBe(pages);
    expect(out.numFetched).toBe(expected.length);
    expect(progress).toEqual(Array.from({ length: pages }, (_, i) => i + 1));
    // The page cap is no total: a host's bar (MCP Inspector's "1/20") reaches its end with the last page.
    expect(totals).toEqual(Array.from({ length: pages }, (_, i) => (i === pages - 1 ? pages : undefined)));
    // Asked without a progress token, the same call sends no progress notification at all.
    const errors: Error[] = [];
    const before = stack.client.onerror;
    stack.client.onerror = (e) => errors.push(e);
    try {
      await stack.client.callTool({ name: 'xvm_getUTXOs', arguments: { addresses: [xAddr], limit: 100, fetchAll: true } });
    } finally {
      stack.client.onerror = before;
    }
    expect(errors.map((e) => e.message)).toEqual([]);
    const nativeTotal = expected.filter((u) => u.assetID === state.nativeAssetID).reduce((s, u) => s + u.amount, 0n);
    expect(out.totals.find((t) => t.assetID === state.nativeAssetID)!.amount.value).toBe(String(nativeTotal));
  });

  it('lists atomic UTXOs waiting for import on X (from P) and on C (from X)', async () => {
    const fromP = await stack.call('xvm_getUTXOs', { addresses: [xAddr], sourceChain: 'P' });
    expect(fromP.text).toContain('exported from P');
    expect(fromP.text).toContain('Totals: 30 CAM in 1');
    const cAddr = `C-${state.users.get('devnet')!.keys[0]!.bech32}`;
    const onC = await stack.call('cx_getUTXOs', { addresses: [cAddr], sourceChain: 'X' });
    expect(onC.text).toContain('Totals: 20 CAM in 1');
    const refused = await stack.call('cx_getUTXOs', { addresses: [cAddr] });
    expect(refused.isError).toBe(true);
    expect(refused.text).toContain('sourceChain');
  });

  it('answers atomic transaction status and bytes on C, including Dropped', async () => {
    const exp = [...state.txs.values()].find((t) => t.chain === 'C' && t.status === 'Accepted')!;
    const status = await stack.call('cx_getAtomicTxStatus', { txID: exp.id });
    expect(status.structured).toMatchObject({ status: 'Accepted', blockHeight: String(exp.blockHeight) });
    const tx = await stack.call('cx_getAtomicTx', { txID: exp.id, encoding: 'hex' });
    expect(tx.structured!.tx).toMatch(/^0x/);
    const dropped = [...state.txs.values()].find((t) => t.status === 'Dropped')!;
    expect((await stack.call('cx_getAtomicTxStatus', { txID: dropped.id })).text).toContain('Dropped: this node dropped it as invalid');
  });

  it('lists keystore users and builds genesis bytes', async () => {
    const users = await stack.call('keystore_listUsers');
    expect(users.structured!.users).toEqual([...state.users.keys()]);
    expect(users.text).not.toContain('Passw0rd');
    const bare = state.users.get('devnet')!.keys[0]!.bech32;
    const g = await stack.call('xvm_buildGenesis', {
      networkID: 12345,
      genesisData: { gold: { name: 'Gold', symbol: 'GLD', initialState: { fixedCap: [{ amount: '1000', address: bare }] } } },
      encoding: 'hex',
    });
    expect(g.isError, g.text).toBe(false);
    expect(g.structured!.bytes).toMatch(/^0x/);
  });

  it('refuses bad input naming the field, sending nothing', async () => {
    const router = stack.devnet.router;
    router.record = true;
    router.requests.length = 0;
    const pAddr = state.users.get('devnet')!.keys[0]!.p;
    const bare = state.users.get('devnet')!.keys[0]!.bech32;
    const cases: Array<[string, Record<string, unknown>, RegExp]> = [
      ['xvm_getBalance', { address: pAddr, assetID: 'CAM' }, /address.*X chain/],
      ['xvm_getBalance', { address: `${xAddr.slice(0, -1)}x`, assetID: 'CAM' }, /address.*checksum/],
      ['xvm_getBalance', { address: xAddr, assetID: 'not an id!' }, /assetID/],
      ['xvm_getUTXOs', { addresses: [xAddr], limit: 1025 }, /limit.*at most 1024/],
      ['xvm_getUTXOs', { addresses: [xAddr], limit: 0 }, /limit/],
      ['xvm_getUTXOs', { addresses: [] }, /addresses.*at least 1/],
      ['xvm_getUTXOs', { addresses: [xAddr], encoding: 'json' }, /encoding/],
      ['xvm_getUTXOs', { addresses: [xAddr], maxPages: 50 }, /maxPages/],
      ['xvm_getUTXOs', { addresses: [xAddr], startIndex: { address: xAddr, utxo: 'zzz' } }, /startIndex\.utxo/],
      ['xvm_getAddressTxs', { address: xAddr, assetID: 'CAM', pageSize: 2000 }, /pageSize/],
      ['xvm_getAddressTxs', { address: xAddr, assetID: 'CAM', cursor: '-1' }, /cursor/],
      ['xvm_getTx', { txID: 'abc', encoding: 'json' }, /txID/],
      ['xvm_getTx', { txID: state.nativeAssetID, encoding: 'base64' }, /encoding/],
      ['cx_getUTXOs', { addresses: [xAddr], sourceChain: 'X' }, /addresses\[0\].*C chain/],
      ['xvm_getBalance', { address: xAddr, assetID: 'CAM', chain: '../P' }, /chain/],
      ['xvm_buildGenesis', { networkID: 1, genesisData: { g: { name: 'G', symbol: 'TOOLONG', initialState: {} } } }, /symbol/],
      ['xvm_buildGenesis', { networkID: 1, genesisData: { g: { name: 'G', symbol: 'G', initialState: { fixedCap: [{ amount: 1, address: xAddr }] } } } }, /fixedCap\[0\]\.address/],
      ['xvm_buildGenesis', { networkID: 1, genesisData: { g: { name: 'G', symbol: 'G', initialState: { fixedCap: [{ amount: 1.5, address: bare }] } } } }, /amount/],
    ];
    for (const [tool, args, pattern] of cases) {
      const r = await stack.call(tool, args);
      expect(r.isError, `${tool} ${JSON.stringify(args)}`).toBe(true);
      expect(r.text, `${tool} ${JSON.stringify(args)}`).toMatch(pattern);
    }
    expect(router.requests).toHaveLength(0);
    router.record = false;
  });
});

describe('output budget with 5,000 UTXOs', () => {
  it('keeps the fetchAll summary under 8 KB and totals every page', async () => {
    const stack = await inMemoryStack();
    try {
      const state = stack.devnet.state;
      const xAddr = state.users.get('alice')!.keys[1]!.x;
      addManyUtxos(state, 'X', xAddr, 5000, 1_000_000_000n);
      const r = await stack.call('xvm_getUTXOs', { addresses: [xAddr], fetchAll: true, items: 1024 });
      expect(r.isError, r.text).toBe(false);
      expect(Buffer.byteLength(r.text, 'utf8')).toBeLessThan(8 * 1024);
      expect(r.text).not.toContain('cut to fit');
      const distinct = utxosOf(state, 'X', [xAddr]).length;
      expect(r.text).toContain(`${distinct} UTXO(s)`);
      expect(r.structured!.pages).toBe(Math.floor(distinct / 1024) + 1);
      // 1,024 decoded UTXOs do not fit the 64 KB structured budget: whole items are kept, and it says how many of how many.
      const kept = (r.structured!.utxos as unknown[]).length;
      const lists = (r.structured!.truncated as { lists: Array<{ path: string; shown: number; total: number }> }).lists;
      expect(lists).toContainEqual({ path: 'utxos', shown: kept, total: 1024 });
      expect(Buffer.byteLength(JSON.stringify(r.structured), 'utf8')).toBeLessThanOrEqual(65_536);
    } finally {
      await stack.close();
    }
  });
});

describe("the keystore user's addresses, a page at a time", () => {
  it('pages with offset and limit, says there is more and where to go on', async () => {
    const stack = await inMemoryStack({ env: { CHAIN_MCP_KEYSTORE_USER: 'devnet', CHAIN_MCP_KEYSTORE_PASSWORD: 'Devnet-Passw0rd!' } });
    try {
      const all = stack.devnet.state.users.get('devnet')!.keys.map((k) => k.x);
      expect(all.length).toBeGreaterThanOrEqual(2);
      const first = await stack.call('xvm_listAddresses', { limit: 1 });
      expect(first.structured).toEqual({ signer: 'keystore user', total: all.length, addresses: [all[0]], offset: 0, hasMore: true });
      expect(first.text).toContain('More: call again with offset 1.');
      const second = await stack.call('xvm_listAddresses', { offset: 1, limit: 1 });
      expect(second.structured).toMatchObject({ addresses: [all[1]], offset: 1 });
      const rest = await stack.call('xvm_listAddresses', { offset: 1 });
      expect(rest.structured).toEqual({ signer: 'keystore user', total: all.length, addresses: all.slice(1), offset: 1, hasMore: false });
      expect(rest.text).not.toContain('More:');
    } finally {
      await stack.close();
    }
  });
});
