import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addTx, bareAddress, fund, utxosOf } from '../../src/devnet/state/index.js';
import { inMemoryStack, MAIN, type Stack } from '../helpers/stack.js';

/** The indexer toolset through a real MCP client against the devnet's node and indexer. */

type Rec = Record<string, unknown>;

/** A field of a tool's structured output ([] when absent, so list reads fail on content, not on a TypeError). */
const items = (r: { structured?: Rec }, key: string): unknown => r.structured?.[key] ?? [];

describe('indexer toolset against the devnet', () => {
  let stack: Stack;
  const requests = () => stack.devnet.indexer!.requests;
  /** The last request the tool itself sent (asset and status lookups may follow it). */
  const lastRequest = () => requests().filter((r) => !r.path.startsWith('/v2/assets/') && r.path !== '/v2').at(-1)!;
  const state = () => stack.devnet.state;
  const devnetKey = (i = 0) => state().users.get('devnet')!.keys[i]!;
  const aliceKey = () => state().users.get('alice')!.keys[0]!;

  beforeAll(async () => {
    stack = await inMemoryStack();
  });
  afterAll(() => stack.close());

  async function rpc(path: string, method: string, params: Rec): Promise<Rec> {
    const res = await fetch(stack.devnet.nodeUrl + path, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
    });
    const body = (await res.json()) as { result?: Rec; error?: unknown };
    if (!body.result) throw new Error(`node refused ${method}: ${JSON.stringify(body.error)}`);
    return body.result;
  }

  it('reports status and the legacy X endpoint from the same network', async () => {
    const s = await stack.call('indexer_getStatus');
    expect(s.isError).toBe(false);
    expect(s.structured?.networkID).toBe(String(state().networkID));
    const chains = s.structured?.chains as Rec[];
    expect(chains.map((c) => c.alias).sort()).toEqual(['C', 'P', 'X']);
    expect(chains.find((c) => c.alias === 'X')?.chainID).toBe(state().chains.X);
    expect(s.text).toContain(state().chains.P);
    const legacy = await stack.call('indexer_getLegacyX');
    expect(legacy.structured).toMatchObject({ chainID: state().chains.X, chainAlias: 'X', nativeAssetID: state().nativeAssetID });
    expect(lastRequest().path).toBe('/x');
  });

  it('shows a transfer recorded in the shared network, with amounts in display units and the memo decoded', async () => {
    // The same state change the node's xvm.send makes: spend a UTXO, pay 1.5 CAM, change back, fee.
    const to = aliceKey().x;
    const from = devnetKey(1);
    const input = utxosOf(state(), 'X', [from.x]).find((u) => u.assetID === state().nativeAssetID && u.amount > 2_000_000_000n)!;
    const { id: txID } = addTx(state(), {
      chain: 'X',
      type: 'base',
      inputs: [input.id],
      outputs: [
        { assetID: state().nativeAssetID, amount: 1_500_000_000n, addresses: [to], chain: 'X' },
        { assetID: state().nativeAssetID, amount: input.amount - 1_500_000_000n - state().fees.txFee, addresses: [from.x], chain: 'X' },
      ],
      memo: `0x${Buffer.from('thanks for lunch').toString('hex')}`,
      fee: state().fees.txFee,
    });
    const tx = await stack.call('indexer_getTransaction', { id: txID });
    expect(tx.isError).toBe(false);
    expect(tx.text).toContain('thanks for lunch');
    expect(tx.text).toContain('Fee 0.001 CAM');
    expect(tx.structured?.memo).toBe('thanks for lunch');
    expect(tx.structured?.chain).toBe('X');
    const outputs = tx.structured?.outputs as Array<{ addresses: string[]; amount: { display: string } }>;
    expect(outputs.find((o) => o.addresses.includes(bareAddress(to)))?.amount.display).toBe('1.5 CAM');

    // Newest first, the recipient's history starts with it; the address is given with its prefix.
    const history = await stack.call('indexer_listTransactions', { address: [to], sort: 'timestamp-desc', limit: 5 });
    // Seed transactions may share its second, so it is among the newest rather than strictly first.
    const newest = items(history, 'transactions') as Array<{ id: string; timestamp: { unix: string } }>;
    expect(newest.map((t) => t.id)).toContain(txID);
    expect(newest[0]?.timestamp.unix).toBe(String(state().txs.get(txID)!.timestamp));
    expect(history.text).toContain('memo "thanks for lunch"');
    // The sender is named in full (a person copies it), never cut.
    const senders = state().txs.get(txID)!.inputs.flatMap((i) => i.addresses.map(bareAddress));
    expect(history.text).toMatch(new RegExp(`${txID}: received [\\d,.]+ CAM from ${senders[0]}; out [\\d,.]+ CAM;`));
    expect(history.text).not.toContain('…');
    expect(lastRequest().query).toContainEqual(['address', bareAddress(to)]);

    const out = await stack.call('indexer_getOutput', { id: state().txs.get(txID)!.outputs[0] });
    expect(out.structured).toMatchObject({ transactionID: txID, spent: false });
    expect(out.text).toContain('unspent');
  });

  it("a C-Chain export as Magellan records it: its EVM input named by the 0x address that paid, its output by the X owner", async () => {
    const d1 = devnetKey(1);
    const exported = [...state().txs.values()].find((t) => t.chain === 'C' && t.type === 'export' && t.status === 'Accepted')!;
    const tx = await stack.call('indexer_getTransaction', { id: exported.id });
    expect(tx.isError, tx.text).toBe(false);
    expect(tx.structured?.type).toBe('atomic_export_tx');
    const inputs = items(tx, 'inputs') as Array<{ addresses: string[] }>;
    expect(inputs.map((i) => i.addresses.map((a) => a.toLowerCase()))).toEqual([[d1.c.toLowerCase()]]);
    expect((items(tx, 'from') as string[]).map((a) => a.toLowerCase())).toEqual([d1.c.toLowerCase()]);
    expect(tx.structured?.to).toEqual([bareAddress(d1.x)]);
    expect(tx.text).toMatch(new RegExp(`5\\.00028 CAM from ${d1.c}`, 'i'));
    expect(tx.text).not.toContain('(no address)');
  });

  it("says sent or received and the net amount for the queried address, the page size and the order", async () => {
    const rent = [...state().txs.values()].find((t) => t.memo === `0x${Buffer.from('rent for November').toString('hex')}`)!;
    const alice = await stack.call('indexer_listTransactions', { address: [aliceKey().x], limit: 3 });
    expect(alice.isError).toBe(false);
    expect(alice.text).toMatch(/^\d+ transaction\(s\) on this page \(page size 3\), oldest first/);
    expect(alice.text).toMatch(new RegExp(`${rent.id}: received 50 CAM from ${bareAddress(devnetKey(1).x)};`));
    const row = (items(alice, 'transactions') as Array<{ id: string; direction: string; net: Array<{ amount: { value: string } }> }>).find((t) => t.id === rent.id);
    expect(row).toMatchObject({ direction: 'received', net: [{ amount: { value: '50000000000' } }] });

    // The payer's net is what left its addresses: the 50 CAM plus the fee.
    const payer = devnetKey(1);
    const sent = await stack.call('indexer_listTransactions', { address: [payer.x], sort: 'timestamp-desc', limit: 1000 });
    const paid = (50_000_000_000n + rent.fee).toString();
    expect(sent.text).toMatch(/newest first/);
    expect((items(sent, 'transactions') as Array<{ id: string; direction: string; net: Array<{ amount: { value: string } }> }>).find((t) => t.id === rent.id)).toMatchObject({
      direction: 'sent',
      net: [{ amount: { value: `-${paid}` } }],
    });
    expect(sent.text).toMatch(new RegExp(`${rent.id}: sent 50\\.\\d+ CAM to ${bareAddress(aliceKey().x)}[;,]`));
  });

  it("agrees with the node's balances", async () => {
    const key = devnetKey();
    const node = (await rpc('/ext/P', 'platform.getBalance', { addresses: [key.p] })) as { balances: Record<string, string> };
    const record = await stack.call('indexer_listAddresses', { chainID: ['P'], address: [key.p] });
    const assets = ((items(record, 'addresses') as Rec[])[0]?.assets ?? []) as Array<{ assetID: string; balance: { value: string } }>;
    expect(assets.find((a) => a.assetID === state().nativeAssetID)?.balance.value).toBe(node.balances[state().nativeAssetID]);
    expect(lastRequest().query).toContainEqual(['chainID', state().chains.P]);

    const addr = await stack.call('indexer_getAddress', { address: key.x });
    expect(addr.isError).toBe(false);
    expect(addr.text).toMatch(/CAM balance; received [\d,.]+ CAM, sent [\d,.]+ CAM/);
    expect(addr.text).toContain('GLD');
  });

  it('reflects a change in the shared state at once (no second data set)', async () => {
    const key = devnetKey(2);
    const ids = (r: { structured?: Rec }) => (items(r, 'transactions') as Array<{ id: string }>).map((t) => t.id);
    const before = await stack.call('indexer_listTransactions', { address: [key.x], limit: 1000 });
    const tx = fund(state(), 'X', key.x, [7_000_000_000n]);
    const after = await stack.call('indexer_listTransactions', { address: [key.x], limit: 1000 });
    expect(ids(before)).not.toContain(tx.id);
    expect(ids(after)).toEqual(expect.arrayContaining([...ids(before), tx.id]));
    expect(ids(after)).toHaveLength(ids(before).length + 1);
    expect(after.text).toContain(`${tx.id}: received 7 CAM; out 7 CAM`);
  });

  it('accepts addresses with or without a chain prefix and sends them bare', async () => {
    const key = devnetKey();
    const results = [];
    for (const address of [key.x, key.p, key.bech32]) {
      const r = await stack.call('indexer_getAddress', { address });
      expect(r.isError).toBe(false);
      expect(lastRequest().path).toBe(`/v2/addresses/${key.bech32}`);
      results.push(r.structured);
    }
    expect(results[1]).toEqual(results[0]);
    expect(results[2]).toEqual(results[0]);
    const chains = await stack.call('indexer_getAddressChains', { address: [key.p, aliceKey().bech32] });
    expect(lastRequest().query).toEqual([
      ['address', key.bech32],
      ['address', aliceKey().bech32],
    ]);
    expect(chains.text).toContain(`${key.bech32}: X, P`);
  });

  it('parses Unix seconds and RFC 3339 times and sends Unix seconds', async () => {
    const r = await stack.call('indexer_listTransactions', { startTime: '2026-01-01T01:00:00+01:00', endTime: 1767312000, limit: 10 });
    expect(r.isError).toBe(false);
    expect(lastRequest().query).toEqual([
      ['limit', '10'],
      ['startTime', '1767225600'],
      ['endTime', '1767312000'],
    ]);
    const fees = await stack.call('indexer_getTxfeeAggregates', { startTime: '2020-01-01' });
    expect(lastRequest().query).toEqual([['startTime', '1577836800']]);
    expect(fees.text).toMatch(/^Fees paid by the whole network \(all addresses; give address for one address's fees\) between 2020-01-01T00:00:00Z and .*: [\d.]+ CAM\.$/);
    // Independent check of the total: every accepted transaction's fee since 2020.
    const expected = [...state().txs.values()].filter((t) => t.status === 'Accepted' && t.timestamp >= 1577836800).reduce((s, t) => s + t.fee, 0n);
    expect((items(fees, 'txfee') as { value: string }).value).toBe(expected.toString());
  });

  it('resolves chain aliases through the status and filters by chain', async () => {
    const r = await stack.call('indexer_listTransactions', { chainID: ['P'], limit: 50 });
    expect(r.isError).toBe(false);
    expect(lastRequest().query).toContainEqual(['chainID', state().chains.P]);
    const txs = r.structured?.transactions as Array<{ chain: string }>;
    expect(txs.length).toBeGreaterThan(0);
    expect(new Set(txs.map((t) => t.chain))).toEqual(new Set(['P']));
  });

  it('pages through every output of an address with the next cursor', async () => {
    const key = devnetKey();
    const expected = [...state().utxos.values()].filter((u) => u.addresses.some((a) => bareAddress(a) === key.bech32)).map((u) => u.id);
    expect(expected.length).toBeGreaterThan(250);
    const seen: string[] = [];
    let args: Rec = { address: [key.x], limit: 100 };
    for (let pages = 0; pages < 10; pages++) {
      const r = await stack.call('indexer_listOutputs', args);
      expect(r.isError).toBe(false);
      seen.push(...(items(r, 'outputs') as Array<{ id: string }>).map((o) => o.id));
      const next = r.structured?.next as Rec | undefined;
      if (!next) break;
      expect(r.text).toContain('More: call indexer_listOutputs with {"next":');
      args = next;
    }
    expect(seen).toHaveLength(expected.length);
    expect(new Set(seen)).toEqual(new Set(expected));
  });

  it('keeps the summary of a 5000-item answer inside the output budget', async () => {
    const r = await stack.call('indexer_listOutputs', { limit: 5000 });
    expect(r.isError).toBe(false);
    // structuredContent keeps whole items within its 64 KB budget and says how many of how many.
    const kept = (items(r, 'outputs') as unknown[]).length;
    expect(kept).toBeGreaterThan(100);
    const lists = (r.structured!.truncated as { lists: Array<{ path: string; shown: number; total: number }> }).lists;
    expect(lists).toEqual([{ path: 'outputs', shown: kept, total: expect.any(Number) }]);
    expect(lists[0]!.total).toBeGreaterThan(kept);
    expect(Buffer.byteLength(r.text)).toBeLessThan(8192);
    expect(r.text).toMatch(/… and \d+ more/);
  });

  it('lists and describes assets with supply in display units and their kind', async () => {
    const list = await stack.call('indexer_listAssets', {});
    const assets = list.structured?.assets as Array<{ symbol: string; kind: string; currentSupply: { display: string } }>;
    expect(assets.map((a) => a.symbol).sort()).toEqual([...state().assets.values()].map((a) => a.symbol).sort());
    expect(assets.find((a) => a.symbol === 'SLV')?.kind).toBe('variable cap');
    expect(assets.find((a) => a.symbol === 'ART')?.kind).toBe('NFT');
    const gld = [...state().assets.values()].find((a) => a.symbol === 'GLD')!;
    const one = await stack.call('indexer_getAsset', { id: gld.id });
    expect(one.text).toContain('"Gold Bar" ("GLD")');
    expect(one.text).toContain(`supply ${(Number(gld.supply) / 100).toLocaleString('en-US')} "GLD"`);
    expect(one.text).toContain('fixed cap');

    // NFT outputs have no amount: they read as an NFT of the asset.
    const art = [...state().assets.values()].find((a) => a.kind === 'nft')!;
    const nftUtxo = [...state().utxos.values()].find((u) => u.assetID === art.id && u.groupID !== undefined)!;
    const nft = await stack.call('indexer_getOutput', { id: nftUtxo.id });
    expect(nft.text).toContain(`NFT ("${art.symbol}") to ${bareAddress(nftUtxo.addresses[0]!)}`);
  });

  it('searches by ID prefix and C-Chain hash', async () => {
    const gld = [...state().assets.values()].find((a) => a.symbol === 'GLD')!;
    const r = await stack.call('indexer_search', { query: gld.id.slice(0, 10) });
    expect(r.structured?.results).toContainEqual(expect.objectContaining({ type: 'asset', id: gld.id }));
    const block = state().cBlocks.at(-1)!;
    const tx = block.transactions[0]!;
    const c = await stack.call('indexer_search', { query: tx.hash });
    expect(c.structured?.results).toContainEqual(expect.objectContaining({ type: 'cTransaction', id: tx.hash }));
  });

  it('aggregates activity, per asset in its display units and per interval', async () => {
    const r = await stack.call('indexer_getAggregates', { chainID: ['X'], assetID: state().nativeAssetID, intervalSize: 'day', startTime: state().genesisTime - 5 * 86_400 });
    expect(r.isError).toBe(false);
    expect(lastRequest().query.map(([k]) => k)).toEqual(['chainID', 'assetID', 'intervalSize', 'startTime']);
    expect((items(r, 'transactionVolume') as { display: string }).display).toMatch(/ CAM$/);
    expect((items(r, 'intervals') as unknown[]).length).toBeGreaterThanOrEqual(5);
    expect(r.text).toMatch(/^Activity between .*: \d+ transactions, volume [\d,.]+ CAM/);
  });

  it('reads C-Chain blocks and transactions with values from wei', async () => {
    const latest = state().cBlocks.at(-1)!;
    const block = await stack.call('indexer_getCBlock', {});
    expect(lastRequest().path).toBe('/v2/ctxdata/latest');
    expect(block.structured).toMatchObject({ number: String(latest.number), hash: latest.hash, transactionCount: latest.transactions.length });
    const first = latest.transactions[0]!;
    const wei = first.value;
    const display = `${(Number(wei) / 1e18).toString()} CAM`;
    const firstRow = (items(block, 'transactions') as Array<{ value: { display: string } }>)[0];
    expect(firstRow?.value.display).toBe(display);

    const byNumber = await stack.call('indexer_getCBlock', { number: latest.number - 1 });
    expect(byNumber.structured?.number).toBe(String(latest.number - 1));

    const list = await stack.call('indexer_listCBlocks', { limit: 2, transactionLimit: 3 });
    expect(lastRequest().query.filter(([k]) => k === 'limit')).toEqual([
      ['limit', '2'],
      ['limit', '3'],
    ]);
    const blocks = list.structured?.blocks as Array<{ number: string }>;
    expect(blocks.map((b) => b.number)).toEqual([String(latest.number), String(latest.number - 1)]);
    expect(list.structured?.next).toEqual({ limit: 2, transactionLimit: 3, blockStart: String(latest.number - 1) });
    const older = await stack.call('indexer_listCBlocks', list.structured?.next as Rec);
    expect((items(older, 'blocks') as Array<{ number: string }>)[0]?.number).toBe(String(latest.number - 2));

    const from = first.from;
    const ctx = await stack.call('indexer_listCTransactions', { fromAddress: from });
    const txs = ctx.structured?.transactions as Array<{ from: string; hash: string }>;
    expect(txs.length).toBeGreaterThan(0);
    expect(txs.every((t) => t.from === from)).toBe(true);
    expect(txs.map((t) => t.hash)).toContain(first.hash);
    const ranged = await stack.call('indexer_listCTransactions', { blockStart: latest.number, blockEnd: latest.number + 1 });
    expect((items(ranged, 'transactions') as Array<{ block: string }>).every((t) => t.block === String(latest.number))).toBe(true);
  });

  it('answers unknown IDs with a clear not-found, whether the indexer sends null or 404', async () => {
    const unknownId = '2fWBQuSyshAbCCsxViz8MkqaX95iGvokmXRBMw2aWNvWGBzHA4';
    const unknownTx = await stack.call('indexer_getTransaction', { id: unknownId });
    expect(unknownTx.isError).toBe(true);
    expect(unknownTx.text).toContain(`The indexer knows no transaction ${unknownId}.`);
    const unknownAsset = await stack.call('indexer_getAsset', { id: unknownId });
    expect(unknownAsset.text).toContain(`knows no asset ${unknownId}`);
    const unknownOutput = await stack.call('indexer_getOutput', { id: unknownId });
    expect(unknownOutput.text).toContain(`knows no output ${unknownId}`);
    // 404s: an address that never received anything, a block that does not exist.
    const stranger = 'local1qurswpc8qurswpc8qurswpc8qurswpc8lzh465';
    const addr = await stack.call('indexer_getAddress', { address: `X-${stranger}` });
    expect(addr.isError).toBe(true);
    expect(addr.text).toContain(`no record of address ${stranger}`);
    const block = await stack.call('indexer_getCBlock', { number: 99_999 });
    expect(block.isError).toBe(true);
    expect(block.text).toContain('knows no C-Chain block 99999');
  });

  it("turns the indexer's {code, message} errors into isError results", async () => {
    const notAChain = state().nativeAssetID;
    const r = await stack.call('indexer_listTransactions', { chainID: [notAChain] });
    expect(r.isError).toBe(true);
    expect(r.text).toContain('HTTP 400');
    expect(r.text).toContain(`unknown chainID ${notAChain}`);
  });

  it('refuses out-of-range and malformed input before any request, naming the field', async () => {
    const cases: Array<[string, Rec, string]> = [
      ['indexer_listTransactions', { limit: 5001 }, 'limit'],
      ['indexer_listTransactions', { limit: 0 }, 'limit'],
      ['indexer_listTransactions', { startTime: '2999-01-01T00:00:00Z' }, 'startTime'],
      ['indexer_listTransactions', { startTime: 1767312000, endTime: 1767225600 }, 'startTime'],
      ['indexer_listTransactions', { endTime: 'yesterday' }, 'endTime'],
      ['indexer_listTransactions', { sort: 'newest' }, 'sort'],
      ['indexer_listTransactions', { address: ['X-local1qurswpc8qurswpc8qurswpc8qurswpc8lzh466'] }, 'address[0]'],
      ['indexer_listTransactions', { chainID: ['not a chain!'] }, 'chainID[0]'],
      ['indexer_listOutputs', { spent: 'yes' }, 'spent'],
      ['indexer_listCBlocks', { limit: 10_001 }, 'limit'],
      ['indexer_listCBlocks', { transactionLimit: 10_001 }, 'transactionLimit'],
      ['indexer_listCBlocks', { address: ['0x123'] }, 'address[0]'],
      ['indexer_listCTransactions', { hash: '0xabc' }, 'hash'],
      ['indexer_listCTransactions', { blockStart: 20, blockEnd: 20 }, 'blockStart'],
      ['indexer_getCBlock', { number: -1 }, 'number'],
      ['indexer_getAggregates', { intervalSize: 'fortnight' }, 'intervalSize'],
      ['indexer_search', { query: '' }, 'query'],
      ['indexer_getStatus', { surprise: true }, 'surprise'],
    ];
    const before = requests().length;
    for (const [tool, args, field] of cases) {
      const r = await stack.call(tool, args);
      expect(r.isError, `${tool} ${JSON.stringify(args)}`).toBe(true);
      expect(r.text, `${tool} ${JSON.stringify(args)}`).toContain(`Invalid input: ${field}`);
    }
    expect(requests().length).toBe(before);
  });
});

describe('indexer toolset without a reachable indexer', () => {
  it('hides the indexer tools when CHAIN_MCP_INDEXER_URL is unset, and a direct call explains how to configure it', async () => {
    const { startDevnet } = await import('../../src/devnet/index.js');
    const devnet = await startDevnet();
    const stack = await inMemoryStack({ devnet: { ...devnet, indexerUrl: undefined } });
    try {
      const { tools } = await stack.client.listTools();
      expect(tools.filter((t) => t.name.startsWith('indexer_'))).toHaveLength(0);
      expect(tools.some((t) => t.name === 'account_overview')).toBe(true);
      const before = devnet.indexer!.requests.length;
      const hidden = await stack.call('indexer_getStatus', {});
      expect(hidden.isError).toBe(true);
      expect(hidden.text).toMatch(/not enabled on this server: CHAIN_MCP_INDEXER_URL is not set/);
      // A composite that can use the indexer still answers from the node alone.
      const status = await stack.call('tx_status', { txID: devnet.state.txs.values().next().value!.id });
      expect(status.isError).toBe(false);
      expect(devnet.indexer!.requests.length).toBe(before);
    } finally {
      await stack.close();
      await devnet.close();
    }
  });

  it('reports a connection failure as an isError result', async () => {
    const { startDevnet } = await import('../../src/devnet/index.js');
    const devnet = await startDevnet();
    const stack = await inMemoryStack({ devnet: { ...devnet, indexerUrl: 'http://127.0.0.1:9' }, env: { CHAIN_MCP_TIMEOUT_MS: '3000' } });
    try {
      const r = await stack.call('indexer_getTransaction', { id: devnet.state.nativeAssetID });
      expect(r.isError).toBe(true);
      expect(r.text).toMatch(/indexer at http:\/\/127\.0\.0\.1:9.*(connection refused|failed)/);
    } finally {
      await stack.close();
      await devnet.close();
    }
  });
});

describe('chain-mcp --devnet', () => {
  it('configures the indexer too: the built server answers indexer tools over stdio', async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [MAIN, '--devnet'],
      env: { PATH: process.env.PATH ?? '', CHAIN_MCP_LOG_LEVEL: 'silent' },
      stderr: 'pipe',
    });
    const client = new Client({ name: 'test', version: '0' });
    await client.connect(transport);
    try {
      const result = await client.callTool({ name: 'indexer_getStatus', arguments: {} });
      expect(result.isError).not.toBe(true);
      expect((result.structuredContent as Rec).networkID).toBe('12345');
    } finally {
      await client.close();
    }
  });
});
