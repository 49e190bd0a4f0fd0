import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Devnet, startDevnet } from '../../src/devnet/index.js';
import { addCBlock, hexAddressFor } from '../../src/devnet/state/index.js';
import { inMemoryStack, type Stack } from '../helpers/stack.js';

/** anvil's first two dev accounts (unlocked, 10,000 ETH each on a fresh chain). */
const A0 = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266';
const A1 = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8';
const TOPIC = `0x${'ab'.repeat(32)}`;
/** Init code: emits LOG1(TOPIC) and deploys a 10-byte runtime that returns 42 as a word. */
const INIT = `0x7f${'ab'.repeat(32)}60006000a169602a60005260206000f3600052600a6016f3`;

async function anvilRpc(devnet: Devnet, method: string, params: unknown[] = []): Promise<unknown> {
  const res = await fetch(devnet.state.evmUpstream!.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  const raw = await res.text();
  let body: { result?: unknown; error?: { code?: number; message?: string } };
  try {
    body = JSON.parse(raw) as typeof body;
  } catch {
    throw new Error(`anvil ${method}: HTTP ${res.status}, not JSON: ${raw.slice(0, 200) || '(empty body)'}`);
  }
  if (body.error) throw new Error(`anvil ${method}: error ${body.error.code ?? '?'} ${body.error.message || '(no message)'}`);
  return body.result;
}

interface Receipt {
  status: string;
  blockNumber: string;
  contractAddress: string | null;
}

/**
 * Sends a transaction from an unlocked dev account and waits until it is mined. anvil's automine
 * answers eth_sendTransaction before the block exists, so on a loaded machine an immediate
 * eth_getTransactionReceipt can still be null: poll it (bounded), and say which transaction never
 * arrived instead of failing later on a null receipt.
 */
async function sendAndMine(devnet: Devnet, tx: Record<string, string>, withinMs = 30_000): Promise<{ hash: string; receipt: Receipt }> {
  const hash = (await anvilRpc(devnet, 'eth_sendTransaction', [tx])) as string;
  const deadline = Date.now() + withinMs;
  for (let attempt = 0; ; attempt++) {
    const receipt = (await anvilRpc(devnet, 'eth_getTransactionReceipt', [hash])) as Receipt | null;
    if (receipt) {
      if (receipt.status !== '0x1') throw new Error(`anvil mined ${hash} (${JSON.stringify(tx)}) but it failed: status ${receipt.status}`);
      return { hash, receipt };
    }
    if (Date.now() > deadline) {
      const pending = await anvilRpc(devnet, 'txpool_status').catch((e: unknown) => String(e));
      throw new Error(`anvil did not mine ${hash} (${JSON.stringify(tx)}) within ${withinMs} ms after ${attempt + 1} receipt polls; txpool: ${JSON.stringify(pending)}`);
    }
    // Short, growing pause between polls: this waits for the receipt, not for a fixed time.
    await new Promise((r) => setTimeout(r, Math.min(10 * 2 ** attempt, 200)));
  }
}

/** Calls a tool and runs `whenSubscribed` once the server reports the subscription (first progress). */
async function watchWhile(stack: Stack, args: Record<string, unknown>, whenSubscribed: () => Promise<void>) {
  let triggered: Promise<void> | undefined;
  const progress: string[] = [];
  const result = await stack.client.callTool({ name: 'evm_watch', arguments: args }, {
    onprogress: (p) => {
      progress.push(p.message ?? '');
      if (!triggered) triggered = whenSubscribed();
    },
    timeout: 60_000,
  });
  await triggered;
  return { structured: result.structuredContent as Record<string, unknown>, text: (result.content as Array<{ text: string }>)[0]!.text, progress };
}

describe('EVM tools against a real anvil behind the devnet', () => {
  let devnet: Devnet;
  let stack: Stack;
  let admin: Stack;
  let txHash: string;
  let contract: string;
  beforeAll(async () => {
    devnet = await startDevnet({ anvil: true });
    stack = await inMemoryStack({ devnet, env: { CHAIN_MCP_TOOLSETS: "all" } });
    admin = await inMemoryStack({ devnet, env: { CHAIN_MCP_ALLOW_ADMIN: 'true' } });
    // One block each, in this order (the tests read block 1 = the transfer, block 2 = the deploy).
    const transfer = await sendAndMine(devnet, { from: A0, to: A1, value: '0x14d1120d7b160000' }); // 1.5 ETH
    txHash = transfer.hash;
    const deploy = await sendAndMine(devnet, { from: A0, data: INIT });
    if (!deploy.receipt.contractAddress) throw new Error(`deploy ${deploy.hash} mined without a contractAddress: ${JSON.stringify(deploy.receipt)}`);
    contract = deploy.receipt.contractAddress;
  }, 60_000);
  afterAll(async () => {
    await admin?.close();
    await stack?.close();
    await devnet?.close();
  });

  it('identifies the node and chain', async () => {
    expect((await stack.call('web3_clientVersion')).text).toContain('anvil');
    expect((await stack.call('eth_chainId')).structured).toEqual({ chainId: '43112', hex: '0xa868' });
    expect((await stack.call('net_version')).structured!.networkVersion).toBe('43112');
    expect((await stack.call('net_listening')).structured!.listening).toBe(true);
    // anvil has no net_peerCount: the devnet answers it from its own model.
    expect((await stack.call('net_peerCount')).structured!.peerCount).toBe(String(devnet.state.peers.length));
    expect((await stack.call('eth_syncing')).text).toContain('Not syncing');
    expect((await stack.call('eth_blockNumber')).structured!.blockNumber).toBe('2');
  });

  it('shows balances from wei in display units, nonces and code', async () => {
    const a1 = await stack.call('eth_getBalance', { address: A1 });
    expect(a1.structured!.balance).toEqual({ value: '10001500000000000000000', display: '10,001.5 CAM' });
    expect((await stack.call('eth_getTransactionCount', { address: A0 })).structured!.nonce).toBe('2');
    const early = await stack.call('eth_getBalance', { address: A1, block: 0 });
    expect(early.text).toContain('10,000 CAM');
    const code = await stack.call('eth_getCode', { address: contract });
    expect(code.structured).toMatchObject({ isContract: true, byteLength: 10 });
    expect((await stack.call('eth_getCode', { address: A1 })).text).toContain('plain account');
    const slot = await stack.call('eth_getStorageAt', { address: contract, position: 0 });
    expect(slot.structured!.value).toBe(`0x${'0'.repeat(64)}`);
  });

  it('calls and estimates without sending', async () => {
    const call = await stack.call('eth_call', { transaction: { to: contract, data: '0x' } });
    expect(call.structured!.result).toBe(`0x${'0'.repeat(62)}2a`);
    const gas = await stack.call('eth_estimateGas', { transaction: { from: A0, to: A1, value: '1000' } });
    expect(gas.structured!.gas).toBe('21000');
    expect((await stack.call('eth_getTransactionCount', { address: A0 })).structured!.nonce).toBe('2');
  });

  it('reads fees: gas price, base fee, priority fee, fee history', async () => {
    expect((await stack.call('eth_gasPrice')).text).toMatch(/Suggested gas price: [\d.]+ gwei/);
    const base = await stack.call('eth_baseFee');
    const block = (await anvilRpc(devnet, 'eth_getBlockByNumber', ['latest', false])) as { baseFeePerGas: string };
    expect(base.structured!.baseFee).toBe(BigInt(block.baseFeePerGas).toString());
    expect((await stack.call('eth_maxPriorityFeePerGas')).text).toContain('gwei');
    const history = await stack.call('eth_feeHistory', { blockCount: 2, rewardPercentiles: [50] });
    expect(history.structured!.gasUsedRatio).toHaveLength(2);
    expect(history.structured!.baseFeePerGas).toHaveLength(3);
    expect(history.text).toContain('2 block(s) from 1');
  });

  it('eth_getBlockByNumber without block reads the latest block, as its description says', async () => {
    const listed = (await stack.client.listTools()).tools.find((t) => t.name === 'eth_getBlockByNumber')!;
    expect(listed.inputSchema.required ?? []).not.toContain('block');
    const latest = await stack.call('eth_getBlockByNumber', {});
    expect(latest.isError, latest.text).toBe(false);
    const height = await stack.call('eth_blockNumber', {});
    expect(latest.structured!.number).toBe(height.structured!.blockNumber);
  });

  it('reads blocks, transactions, receipts and logs', async () => {
    const block = await stack.call('eth_getBlockByNumber', { block: '1', fullTransactions: true });
    expect(block.text).toContain('1 transaction(s)');
    expect(block.text).toContain(`${A0} -> ${A1}: 1.5 CAM`);
    const byHash = await stack.call('eth_getBlockByHash', { hash: block.structured!.hash as string });
    expect(byHash.structured!.number).toBe('1');
    const tx = await stack.call('eth_getTransactionByHash', { hash: txHash });
    expect(tx.text).toContain('1.5 CAM, nonce 0, in block 1');
    const receipt = await stack.call('eth_getTransactionReceipt', { hash: txHash });
    expect(receipt.text).toContain('succeeded in block 1: gas used 21000');
    expect((receipt.structured!.fee as { display: string }).display).toMatch(/ CAM$/);
    const missing = await stack.call('eth_getTransactionReceipt', { hash: `0x${'12'.repeat(32)}` });
    expect(missing.structured!.found).toBe(false);
    const logs = await stack.call('eth_getLogs', { fromBlock: 0, toBlock: 'latest', topics: [TOPIC] });
    expect(logs.structured!.count).toBe(1);
    expect((logs.structured!.logs as Array<{ address: string }>)[0]!.address).toBe(contract.toLowerCase());
    expect((await stack.call('eth_getLogs', { fromBlock: 0, address: A1 })).structured!.count).toBe(0);
    expect((await stack.call('txpool_status')).structured).toEqual({ pending: '0', queued: '0' });
  });

  it('answers the chain extra eth_getAssetBalance in the asset\'s units', async () => {
    const gld = [...devnet.state.assets.values()].find((a) => a.symbol === 'GLD')!;
    devnet.state.cAssetBalances.set(A1, new Map([[gld.id, 250n]]));
    const r = await stack.call('eth_getAssetBalance', { address: A1, assetID: gld.id });
    expect(r.structured!.balance).toEqual({ value: '250', display: '2.5 "GLD"' });
  });

  it('evm_rpc calls allow-listed reads and refuses signing or sending', async () => {
    const count = await stack.call('evm_rpc', { method: 'eth_getBlockTransactionCountByNumber', params: ['0x1'] });
    expect(count.text).toBe('eth_getBlockTransactionCountByNumber: "0x1" (= 1)');
    devnet.router.record = true;
    devnet.router.requests.length = 0;
    for (const method of ['eth_sendTransaction', 'eth_sendRawTransaction', 'eth_sign', 'personal_unlockAccount', 'debug_traceTransaction', 'evm_mine']) {
      const r = await stack.call('evm_rpc', { method, params: [] });
      expect(r.isError, method).toBe(true);
      expect(r.text).toContain('not an allowed read method');
    }
    expect(devnet.router.requests).toHaveLength(0);
    devnet.router.record = false;
  });

  it('traces a transaction with the admin tier only', async () => {
    expect((await stack.client.listTools()).tools.map((t) => t.name)).not.toContain('debug_traceTransaction');
    const trace = await admin.call('debug_traceTransaction', { hash: txHash, tracer: 'callTracer' });
    expect(trace.isError, trace.text).toBe(false);
    expect(trace.text).toContain(A1);
    const steps = await admin.call('debug_traceTransaction', { hash: txHash });
    expect(steps.text).toMatch(/\d+ step\(s\), gas 21000, succeeded/);
  });

  it('evm_watch collects new heads over the WebSocket, with progress, and unsubscribes', async () => {
    const before = Number((await stack.call('eth_blockNumber')).structured!.blockNumber);
    const r = await watchWhile(stack, { subscription: 'newHeads', maxEvents: 2, timeoutSeconds: 30 }, async () => {
      await anvilRpc(devnet, 'evm_mine');
      await anvilRpc(devnet, 'evm_mine');
    });
    expect(r.structured.count).toBe(2);
    expect(r.structured.stoppedBy).toBe('maxEvents');
    expect(r.structured.unsubscribed).toBe(true);
    expect((r.structured.events as Array<{ number: string }>).map((e) => e.number)).toEqual([String(before + 1), String(before + 2)]);
    expect(r.progress[0]).toContain('subscribed');
    expect(r.text).toContain('2 new block(s)');
  });

  it('evm_watch filters logs and stops at the timeout', async () => {
    const r = await watchWhile(stack, { subscription: 'logs', topics: [TOPIC], maxEvents: 1, timeoutSeconds: 30 }, async () => {
      await anvilRpc(devnet, 'eth_sendTransaction', [{ from: A1, to: A0, value: '0x1' }]);
      await anvilRpc(devnet, 'eth_sendTransaction', [{ from: A1, data: INIT }]);
    });
    expect(r.structured.count).toBe(1);
    expect((r.structured.events as Array<{ topics: string[] }>)[0]!.topics).toEqual([TOPIC]);
    const quiet = await stack.call('evm_watch', { subscription: 'newHeads', maxEvents: 3, timeoutSeconds: 1 });
    expect(quiet.structured).toMatchObject({ count: 0, stoppedBy: 'timeout', unsubscribed: true });
  });

  it('refuses bad EVM input naming the field, sending nothing', async () => {
    devnet.router.record = true;
    devnet.router.requests.length = 0;
    const cases: Array<[string, Record<string, unknown>, RegExp]> = [
      ['eth_getBalance', { address: '0x1234' }, /address.*40 hex/],
      ['eth_getBalance', { address: A0, block: 'newest' }, /block/],
      ['eth_getBlockByHash', { hash: '0xabc' }, /hash.*64 hex/],
      ['eth_getTransactionReceipt', { hash: txHash.slice(0, 60) }, /hash/],
      ['eth_call', { transaction: { to: A0, data: '0x123' } }, /transaction\.data/],
      ['eth_call', { transaction: { to: A0, surprise: 1 } }, /surprise/],
      ['eth_feeHistory', { blockCount: 0 }, /blockCount/],
      ['eth_getLogs', { topics: ['0x12'] }, /topics\[0\]/],
      ['evm_watch', { subscription: 'pendingTransactions' }, /subscription/],
      ['evm_watch', { subscription: 'newHeads', timeoutSeconds: 3600 }, /timeoutSeconds/],
    ];
    for (const [tool, args, pattern] of cases) {
      const r = await stack.call(tool, args);
      expect(r.isError, `${tool} ${JSON.stringify(args)}`).toBe(true);
      expect(r.text, tool).toMatch(pattern);
    }
    expect(devnet.router.requests).toHaveLength(0);
    devnet.router.record = false;
  });
});

describe('EVM tools against the devnet\'s own answers (no anvil)', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await inMemoryStack();
  });
  afterAll(() => stack.close());

  it('reads the devnet C-chain model: balances, asset balances, blocks, logs', async () => {
    const state = stack.devnet.state;
    const c = state.users.get('devnet')!.keys[0]!.c;
    const balance = await stack.call('eth_getBalance', { address: c });
    expect((balance.structured!.balance as { value: string }).value).toBe(String(state.cBalances.get(c)));
    expect(balance.text).toMatch(new RegExp(`${c} holds 99\\d\\.\\d+ CAM`));
    const gld = [...state.assets.values()].find((a) => a.symbol === 'GLD')!;
    expect((await stack.call('eth_getAssetBalance', { address: c, assetID: gld.id })).structured!.balance).toEqual({ value: '1234', display: '12.34 "GLD"' });
    const last = state.cBlocks[state.cBlocks.length - 1]!;
    expect((await stack.call('eth_blockNumber')).structured!.blockNumber).toBe(String(last.number));
    const logs = await stack.call('eth_getLogs', { fromBlock: 0, address: hexAddressFor('token-contract') });
    expect(logs.structured!.count).toBe(state.cBlocks.reduce((n, b) => n + b.transactions.reduce((m, t) => m + t.logs.length, 0), 0));
    const tx = last.transactions[0]!;
    expect((await stack.call('eth_getTransactionReceipt', { hash: tx.hash })).text).toContain(`succeeded in block ${last.number}`);
  });

  it('evm_watch gets new heads from the devnet\'s own WebSocket endpoint', async () => {
    const state = stack.devnet.state;
    const c = state.users.get('devnet')!.keys[0]!.c;
    const r = await watchWhile(stack, { subscription: 'newHeads', maxEvents: 1, timeoutSeconds: 20 }, async () => {
      addCBlock(state, [{ from: c, to: hexAddressFor('someone'), value: 1n }]);
    });
    expect(r.structured).toMatchObject({ count: 1, stoppedBy: 'maxEvents', unsubscribed: true });
    expect((r.structured.events as Array<{ number: string }>)[0]!.number).toBe(String(state.cBlocks.length - 1));
    expect(state.cBlockListeners.size).toBe(0);
  });
});
