import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDevnet } from '../../src/devnet/index.js';
import { fund } from '../../src/devnet/state/index.js';
import { inMemoryStack, type Stack } from '../helpers/stack.js';

// biome-ignore lint/suspicious/noExplicitAny: structured results are checked field by field
type Rec = Record<string, any>;

/** Every JSON-RPC item the node received, batch items included, with the path it came on. */
function items(stack: Stack): Array<{ path: string; batch: boolean; method: string }> {
  return stack.devnet.router.requests.flatMap((r) =>
    (Array.isArray(r.body) ? r.body : [r.body]).map((b) => ({ path: r.path, batch: Array.isArray(r.body), method: String((b as Rec)?.method) })),
  );
}

describe('composites against a node that takes no JSON-RPC batch (camino dialect)', () => {
  let stack: Stack;
  beforeAll(async () => {
    const devnet = await startDevnet({ dialect: 'camino', keystoreApi: true });
    devnet.router.record = true;
    stack = await inMemoryStack({ devnet });
  });
  afterAll(async () => {
    await stack.close();
    await stack.devnet.close();
  });

  it('account_overview answers every part: X, P, waiting imports and the EVM balance', async () => {
    const [d0, d1] = stack.devnet.state.users.get(stack.devnet.state.devnetUser)!.keys;
    const r = await stack.call('account_overview', { addresses: [d0!.x, d1!.p, d0!.c] });
    expect(r.isError, r.text).toBe(false);
    const o = r.structured as Rec;
    expect(o.problems, r.text).toEqual([]);
    expect(o.accounts).toHaveLength(2);
    for (const account of o.accounts as Rec[]) {
      expect(account.x.length, r.text).toBeGreaterThan(0);
      expect(account.p, r.text).toBeDefined();
    }
    expect((o.accounts[0].waiting as Rec[]).map((w) => `${w.from}->${w.on}`).sort()).toEqual(['P->X', 'X->C']);
    expect(o.evm).toHaveLength(1);
    expect(r.text).not.toMatch(/Could not read/);
  });

  it('validator_lookup answers from current and pending validators', async () => {
    const nodeID = stack.devnet.state.validators[0]!.nodeID;
    const r = await stack.call('validator_lookup', { nodeID });
    expect(r.isError, r.text).toBe(false);
    expect((r.structured as Rec).problems, r.text).toEqual([]);
    expect((r.structured as Rec).status).toBe('current');
  });

  it('network_overview answers every part', async () => {
    const r = await stack.call('network_overview', {});
    expect(r.isError, r.text).toBe(false);
    expect((r.structured as Rec).problems, r.text).toEqual([]);
    expect(r.text).not.toMatch(/Could not read/);
  });

  it('sent no batch but on the EVM endpoint', () => {
    const batched = items(stack).filter((i) => i.batch && !/\/rpc$/.test(i.path));
    expect(batched).toEqual([]);
    expect(items(stack).length).toBeGreaterThan(10);
  });
});

describe("the wire table renames methods: the P-chain's export on a Camino node", () => {
  let stack: Stack;
  beforeAll(async () => {
    const devnet = await startDevnet({ dialect: 'camino', keystoreApi: true });
    devnet.router.record = true;
    stack = await inMemoryStack({
      devnet,
      env: {
        CHAIN_MCP_ALLOW_SPEND: 'true',
        CHAIN_MCP_APPROVAL: 'confirm-id',
        CHAIN_MCP_KEYSTORE_USER: devnet.keystore.username,
        CHAIN_MCP_KEYSTORE_PASSWORD: devnet.keystore.password,
      },
    });
  });
  afterAll(async () => {
    await stack.close();
    await stack.devnet.close();
  });

  it('platform_exportNative keeps its name and sends platform.exportAVAX', async () => {
    const [d0] = stack.devnet.state.users.get(stack.devnet.state.devnetUser)!.keys;
    const args = { amount: '1000000000', to: d0!.x };
    const preview = await stack.call('platform_exportNative', args);
    expect(preview.isError, preview.text).toBe(false);
    const sent = await stack.call('platform_exportNative', { ...args, confirm: preview.structured?.confirmationId });
    expect(sent.isError, sent.text).toBe(false);
    expect(sent.text).toMatch(/[1-9A-HJ-NP-Za-km-z]{40,}/);
    const methods = items(stack).map((i) => i.method);
    expect(methods).toContain('platform.exportAVAX');
    expect(methods).not.toContain('platform.exportNative');
  });
});

describe('detection that heals: the node changes its names while the server runs', () => {
  let stack: Stack;
  beforeAll(async () => {
    const devnet = await startDevnet({ dialect: 'camino', keystoreApi: true });
    devnet.router.record = true;
    stack = await inMemoryStack({ devnet });
  });
  afterAll(async () => {
    await stack.close();
    await stack.devnet.close();
  });

  it('a read answered "can\'t find service" learns the names again, once, and is sent again', async () => {
    const [d0] = stack.devnet.state.users.get(stack.devnet.state.devnetUser)!.keys;
    const first = await stack.call('xvm_getBalance', { address: d0!.x, assetID: 'CAM' });
    expect(first.isError, first.text).toBe(false);
    stack.devnet.setDialect('spec');
    stack.devnet.router.requests.length = 0;
    const again = await stack.call('xvm_getBalance', { address: d0!.x, assetID: 'CAM' });
    expect(again.isError, again.text).toBe(false);
    expect(again.text).toBe(first.text);
    const balanceCalls = items(stack)
      .map((i) => i.method)
      .filter((m) => m.endsWith('.getBalance'));
    expect(balanceCalls).toEqual(['avm.getBalance', 'xvm.getBalance']);
    // Learned for good: the next call goes straight to the new names.
    stack.devnet.router.requests.length = 0;
    expect((await stack.call('xvm_getBalance', { address: d0!.x, assetID: 'CAM' })).isError).toBe(false);
    expect(items(stack).map((i) => i.method)).toEqual(['xvm.getBalance']);
  });

  it('composites heal too (their reads share one re-detection)', async () => {
    const [d0] = stack.devnet.state.users.get(stack.devnet.state.devnetUser)!.keys;
    // Whatever the server learned so far, the node now speaks the other names.
    const learned = await stack.call('xvm_getAssetDescription', {});
    expect(learned.isError, learned.text).toBe(false);
    stack.devnet.setDialect(stack.devnet.dialect === 'camino' ? 'spec' : 'camino');
    stack.devnet.router.requests.length = 0;
    const r = await stack.call('account_overview', { addresses: [d0!.x] });
    expect(r.isError, r.text).toBe(false);
    expect((r.structured as Rec).problems, r.text).toEqual([]);
    // One re-detection for all the reads that failed together.
    expect(items(stack).filter((i) => i.method === 'info.getNodeVersion')).toHaveLength(1);
  });
});

describe('uint64 written as plain JSON numbers keeps every digit (camino dialect)', () => {
  let stack: Stack;
  beforeAll(async () => {
    const devnet = await startDevnet({ dialect: 'camino', keystoreApi: true });
    stack = await inMemoryStack({ devnet });
  });
  afterAll(async () => {
    await stack.close();
    await stack.devnet.close();
  });

  it('xvm_getTx with encoding json reads an output amount and locktime above 2^53 exactly', async () => {
    const state = stack.devnet.state;
    const holder = state.users.get(state.devnetUser)!.keys[0]!.x;
    const amount = 2n ** 60n + 7n; // 1152921504606846983: a JS number would say ...976
    const tx = fund(state, 'X', holder, [amount]);
    const locktime = 2n ** 63n + 1n;
    state.utxos.get(tx.outputs[0]!)!.locktime = locktime;
    // The node writes them bare, as Go writes a plain uint64.
    const raw = await fetch(`${stack.devnet.nodeUrl}/ext/bc/X`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'avm.getTx', params: { txID: tx.id, encoding: 'json' } }),
    }).then((r) => r.text());
    expect(raw).toContain(`"amount":${amount}`);
    expect(raw).toContain(`"locktime":${locktime}`);
    const r = await stack.call('xvm_getTx', { txID: tx.id, encoding: 'json' });
    expect(r.isError, r.text).toBe(false);
    const [out] = (r.structured as Rec).outputs as Rec[];
    expect(out!.amount.value).toBe(amount.toString());
    expect(out!.locktime).toBe(locktime.toString());
    expect(r.text).toContain('1,152,921,504.606846983');
  });
});

describe('encodings a Camino node takes', () => {
  let stack: Stack;
  beforeAll(async () => {
    const devnet = await startDevnet({ dialect: 'camino', keystoreApi: true });
    devnet.router.record = true;
    stack = await inMemoryStack({ devnet });
  });
  afterAll(async () => {
    await stack.close();
    await stack.devnet.close();
  });

  it('every tool that offers an answer encoding works without one and with each one it offers', async () => {
    const state = stack.devnet.state;
    const key = state.users.get(state.devnetUser)!.keys[0]!;
    const xTx = [...state.txs.values()].find((t) => t.chain === 'X')!.id;
    const calls: Array<[string, Record<string, unknown>, string[]]> = [
      ['xvm_getTx', { txID: xTx }, ['hex', 'hexc', 'hexnc', 'json']],
      ['xvm_getUTXOs', { addresses: [key.x] }, ['hex', 'hexc', 'hexnc']],
      ['cx_getUTXOs', { addresses: [`C-${key.bech32}`], sourceChain: 'X' }, ['hex', 'hexc', 'hexnc']],
    ];
    for (const [tool, args, offered] of calls) {
      for (const encoding of [undefined, ...offered]) {
        const r = await stack.call(tool, encoding === undefined ? args : { ...args, encoding });
        expect(r.isError, `${tool} ${encoding}: ${r.text}`).toBe(false);
      }
    }
  });

  it('hexnc answers (no checksum) decode to the same UTXOs and totals as hex; each answer is labelled as asked', async () => {
    const state = stack.devnet.state;
    const key = state.users.get(state.devnetUser)!.keys[0]!;
    const raw = async (encoding: string) =>
      (
        (await (
          await fetch(`${stack.devnet.nodeUrl}/ext/bc/X`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'avm.getUTXOs', params: { addresses: [key.x], encoding } }),
          })
        ).json()) as { result: { utxos: string[]; encoding: string } }
      ).result;
    const [hex, hexnc] = [await raw('hex'), await raw('hexnc')];
    expect(hexnc.encoding).toBe('hexnc');
    expect(hexnc.utxos).toEqual(hex.utxos.map((u) => u.slice(0, -8)));
    const results = [];
    for (const encoding of ['hex', 'hexc', 'hexnc']) {
      const r = await stack.call('xvm_getUTXOs', { addresses: [key.x], encoding });
      expect(r.isError, r.text).toBe(false);
      expect(r.structured!.encoding).toBe(encoding);
      results.push({ utxos: (r.structured!.utxos as Rec[]).map((u) => u.utxoID), totals: r.structured!.totals });
    }
    expect(results[0]!.utxos.length).toBeGreaterThan(0);
    expect(results[2]).toEqual(results[0]);
    expect(results[1]).toEqual(results[0]);
  });

  it('cb58 is refused at the tool, naming the field, before any request', async () => {
    const key = stack.devnet.state.users.get(stack.devnet.state.devnetUser)!.keys[0]!;
    stack.devnet.router.requests.length = 0;
    const r = await stack.call('xvm_getUTXOs', { addresses: [key.x], encoding: 'cb58' });
    expect(r.isError).toBe(true);
    expect(r.text).toMatch(/encoding/);
    expect(stack.devnet.router.requests).toEqual([]);
  });
});
