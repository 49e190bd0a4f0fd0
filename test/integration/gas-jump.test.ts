import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Devnet, startDevnet } from '../../src/devnet/index.js';
import { inMemoryStack, type Stack } from '../helpers/stack.js';

/**
 * Issue 34, the untried attacks: the gas price jumps between preview and send. An EVM send is
 * signed by its owner with a maximum fee per gas; the preview shows and the limits count gas limit
 * x that maximum, and the chain can never take more: a base fee that rises above it leaves the
 * transaction unmined (nothing leaves the account), one that rises within it is paid within the
 * previewed maximum. Against a real EVM (anvil) behind the devnet.
 */
// anvil's first development account (its default mnemonic); anvil signs for it (eth_signTransaction).
const FROM = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';
const TO = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';

describe('a gas price that jumps between preview and send', () => {
  let devnet: Devnet;
  let stack: Stack;
  const rpc = async (method: string, params: unknown[] = []) => {
    const res = await fetch(devnet.state.evmUpstream!.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) });
    const body = (await res.json()) as { result?: unknown; error?: { message: string } };
    if (body.error) throw new Error(body.error.message);
    return body.result;
  };
  const big = async (method: string, params: unknown[] = []) => BigInt(String(await rpc(method, params)));
  beforeAll(async () => {
    devnet = await startDevnet({ anvil: true });
    stack = await inMemoryStack({ devnet, env: { CHAIN_MCP_ALLOW_SPEND: 'true', CHAIN_MCP_APPROVAL: 'confirm-id', CHAIN_MCP_KEYSTORE_USER: 'devnet', CHAIN_MCP_KEYSTORE_PASSWORD: 'Devnet-Passw0rd!' } });
  });
  afterAll(async () => {
    await stack.close();
    await devnet.close();
  });

  const hex = (v: bigint | number) => `0x${v.toString(16)}`;
  async function signed(maxFeePerGas: bigint): Promise<string> {
    const nonce = await big('eth_getTransactionCount', [FROM, 'pending']);
    const tx = { from: FROM, to: TO, value: hex(1_000_000_000n), gas: hex(21_000), maxFeePerGas: hex(maxFeePerGas), maxPriorityFeePerGas: hex(1), nonce: hex(nonce), chainId: hex(devnet.state.evmChainId), type: '0x2' };
    return String(await rpc('eth_signTransaction', [tx]));
  }

  it('a base fee that rises within the signed maximum: mined, and paid within the previewed maximum', async () => {
    const base = await big('eth_gasPrice');
    const maxFee = base * 2n;
    const signedTx = await signed(maxFee);
    const preview = await stack.call('eth_sendRawTransaction', { signedTx });
    expect(preview.structured?.details).toMatchObject({ maxFeeWei: (21_000n * maxFee).toString() });
    const balance = await big('eth_getBalance', [FROM, 'latest']);
    await rpc('anvil_setNextBlockBaseFeePerGas', [hex((maxFee * 3n) / 4n)]);
    const done = await stack.call('eth_sendRawTransaction', { signedTx, confirm: preview.structured?.confirmationId });
    expect(done.isError, done.text).toBe(false);
    const txHash = (done.structured!.result as { txHash: string }).txHash;
    // anvil mines on send, but its receipt can trail the returned hash on a busy machine: bounded wait.
    type Receipt = { status: string; gasUsed: string; effectiveGasPrice: string };
    const receiptOf = async (): Promise<Receipt> => {
      for (let i = 0; i < 50; i++) {
        const found = (await rpc('eth_getTransactionReceipt', [txHash])) as Receipt | null;
        if (found) return found;
        await new Promise((r) => setTimeout(r, 100));
      }
      throw new Error(`no receipt for ${txHash} after 5 s`);
    };
    const receipt = await receiptOf();
    expect(receipt.status).toBe('0x1');
    const paid = BigInt(receipt.gasUsed) * BigInt(receipt.effectiveGasPrice);
    expect(paid > 21_000n * base).toBe(true);
    expect(paid <= 21_000n * maxFee).toBe(true);
    expect(balance - (await big('eth_getBalance', [FROM, 'latest']))).toBe(1_000_000_000n + paid);
  });

  it('a base fee above the signed maximum: nothing leaves the account', async () => {
    const base = await big('eth_gasPrice');
    const maxFee = base * 2n;
    const signedTx = await signed(maxFee);
    const preview = await stack.call('eth_sendRawTransaction', { signedTx });
    expect(preview.isError, preview.text).toBe(false);
    expect(preview.text).toContain(`(gas limit 21000 x at most ${maxFee} wei per gas)`);
    expect(preview.structured?.details).toMatchObject({ maxFeeWei: (21_000n * maxFee).toString() });
    const balance = await big('eth_getBalance', [FROM, 'latest']);
    const nonce = await big('eth_getTransactionCount', [FROM, 'latest']);
    await rpc('anvil_setNextBlockBaseFeePerGas', [`0x${(maxFee * 3n).toString(16)}`]);
    await rpc('evm_mine');
    const done = await stack.call('eth_sendRawTransaction', { signedTx, confirm: preview.structured?.confirmationId });
    if (!done.isError) await rpc('evm_mine');
    expect(await big('eth_getTransactionCount', [FROM, 'latest'])).toBe(nonce);
    expect(await big('eth_getBalance', [FROM, 'latest'])).toBe(balance);
  });
});
