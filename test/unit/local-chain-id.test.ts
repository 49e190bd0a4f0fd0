import { describe, expect, it } from 'vitest';
import { ChainMcpError } from '../../src/errors.js';
import { checkEvmChainId } from '../../src/local/chain-id.js';

/**
 * The EVM chain ID the local key may sign for (issue 40 item 4), on a network this server does not
 * know (a private Camino network): any ID but a known network's own or Ethereum mainnet's. On a
 * known network only its own ID passes (test/integration/node-trust.test.ts drives that end to end).
 */

function refusal(networkID: string, chainId: bigint): string {
  try {
    checkEvmChainId(networkID, chainId);
  } catch (err) {
    expect(err).toBeInstanceOf(ChainMcpError);
    expect((err as ChainMcpError).kind).toBe('policy');
    // What to check: the node this server was pointed at, or the network it was told to expect.
    expect((err as ChainMcpError).hint).toBe('Check CHAIN_MCP_NODE_URL: this node is not the network it says it is (or CHAIN_MCP_EXPECT_NETWORK_ID names another network).');
    return (err as Error).message;
  }
  return 'signed';
}

describe('checkEvmChainId on a network of its own (ID 7777)', () => {
  it("another known network's EVM chain ID is refused naming that network", () => {
    expect(refusal('7777', 500n)).toBe(
      "Refused: the node's C-Chain answers eth_chainId 500, but that is the chain ID of network 1000 (main), not of network 7777; the key signs for no other chain. Nothing was signed or sent.",
    );
    expect(refusal('7777', 501n)).toContain('that is the chain ID of network 1001 (test), not of network 7777');
    expect(refusal('7777', 43112n)).toContain('that is the chain ID of network 12345 (local), not of network 7777');
  });

  it("Ethereum mainnet's chain ID is refused as such", () => {
    expect(refusal('7777', 1n)).toBe(
      "Refused: the node's C-Chain answers eth_chainId 1, but that is Ethereum mainnet's, not network 7777's; the key signs for no other chain. Nothing was signed or sent.",
    );
  });

  it('any other chain ID is the network\'s own: signed', () => {
    expect(refusal('7777', 7777n)).toBe('signed');
    expect(refusal('7777', 2n)).toBe('signed');
    expect(refusal('7777', 499n)).toBe('signed');
  });

  it("on a known network only its own: main's 500 passes, the local network's 43112 is refused there", () => {
    expect(refusal('1000', 500n)).toBe('signed');
    expect(refusal('1000', 43112n)).toContain('network 1000 (main) signs EVM transactions for chain ID 500');
  });
});
