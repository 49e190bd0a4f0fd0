import { KNOWN_NETWORKS } from '../core/network.js';
import { ChainMcpError } from '../errors.js';

/** Ethereum mainnet's chain ID: a key that signs for it can be replayed there. */
const ETHEREUM_MAINNET = 1n;

/**
 * The EVM chain ID the key may sign for on `networkID` (the pinned CHAIN_MCP_EXPECT_NETWORK_ID, or
 * the node's): a known network's own (caminoethvm params/camino_config.go, caminogo
 * genesis/genesis_local.json); on another network, anything but a public chain's ID. The node's
 * eth_chainId is only a claim: a key signing for another chain's ID moves funds on that chain.
 */
export function checkEvmChainId(networkID: string, chainId: bigint): void {
  const known = KNOWN_NETWORKS[networkID];
  if (known) {
    if (chainId === BigInt(known.evmChainId)) return;
    throw refused(chainId, `network ${networkID} (${known.name}) signs EVM transactions for chain ID ${known.evmChainId}`);
  }
  const owner = Object.entries(KNOWN_NETWORKS).find(([, n]) => BigInt(n.evmChainId) === chainId);
  if (owner) throw refused(chainId, `that is the chain ID of network ${owner[0]} (${owner[1].name}), not of network ${networkID}`);
  if (chainId === ETHEREUM_MAINNET) throw refused(chainId, `that is Ethereum mainnet's, not network ${networkID}'s`);
}

function refused(chainId: bigint, why: string): ChainMcpError {
  return new ChainMcpError('policy', `Refused: the node's C-Chain answers eth_chainId ${chainId}, but ${why}; the key signs for no other chain. Nothing was signed or sent.`, {
    hint: 'Check CHAIN_MCP_NODE_URL: this node is not the network it says it is (or CHAIN_MCP_EXPECT_NETWORK_ID names another network).',
  });
}
