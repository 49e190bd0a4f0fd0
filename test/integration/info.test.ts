import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inMemoryStack, type Stack } from '../helpers/stack.js';

describe('info toolset against the devnet', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await inMemoryStack();
  });
  afterAll(() => stack.close());

  it('answers each info tool with a readable summary', async () => {
    expect((await stack.call('info_getNodeID')).text).toContain('NodeID-7Xhw2mDxuDS44j42TCB6U5579esbSt3Lg');
    expect((await stack.call('info_getNetworkID')).structured).toEqual({ networkID: '12345', network: 'local' });
    expect((await stack.call('info_getNetworkName')).text).toContain('local');
    expect((await stack.call('info_getNodeIP')).text).toContain('127.0.0.1:9651');
    expect((await stack.call('info_getNodeVersion')).text).toContain('camino/1.1.18');
    expect((await stack.call('info_getVMs')).text).toContain('3 VMs');
    expect((await stack.call('info_getBlockchainID', { alias: 'X' })).structured?.blockchainID).toBe(stack.devnet.state.chains.X);
    expect((await stack.call('info_isBootstrapped', { chain: 'P' })).text).toBe('Chain P is bootstrapped.');
    const fee = await stack.call('info_getTxFee');
    expect(fee.text).toContain('0.001');
    expect(fee.structured?.txFee).toEqual({ value: '1000000', display: expect.stringContaining('0.001') });
    expect((await stack.call('info_uptime')).text).toContain('99.5');
  });

  it('summarizes peers with versions and benched count, and pages', async () => {
    const peers = await stack.call('info_peers', { limit: 2 });
    expect(peers.text).toContain('4 peers connected; 1 benched');
    expect(peers.text).toContain('camino/1.1.18 (3)');
    expect(peers.structured?.peers).toHaveLength(2);
    expect(peers.text).toContain('offset 2');
  });

  it('names the chains a peer is benched on (the node reports IDs)', async () => {
    const peers = await stack.call('info_peers', {});
    const cChain = stack.devnet.state.chains.C;
    expect(peers.text).toMatch(/^4 peers connected; 1 benched on C-Chain\./);
    expect(peers.text).toMatch(/, benched on C-Chain$/m);
    expect(peers.text).not.toContain(cChain);
    expect(peers.structured?.benchedChains).toEqual(['C-Chain']);
  });

  it('refuses bad input naming the field, sending nothing', async () => {
    stack.devnet.router.record = true;
    stack.devnet.router.requests.length = 0;
    const bad = await stack.call('info_peers', { nodeIDs: ['NodeID-notreal'] });
    expect(bad.isError).toBe(true);
    expect(bad.text).toMatch(/nodeIDs\[0\]/);
    const extra = await stack.call('info_getNodeID', { surprise: 1 });
    expect(extra.isError).toBe(true);
    expect(extra.text).toContain('surprise');
    expect(stack.devnet.router.requests).toHaveLength(0);
    stack.devnet.router.record = false;
  });
});
