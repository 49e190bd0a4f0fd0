import { parseChainAddress } from '../codec/index.js';
import type { Config } from '../config.js';
import type { NetworkInfo } from '../context/network.js';
import { ChainMcpError } from '../errors.js';
import type { SpendLimits, ToolDef } from '../core/tool.js';
import { nativeAmount } from '../summarize/format.js';

/**
 * The hard limits of a spend (DESIGN "Confirmation of spends" 5 and section 6, guard order):
 * first the checks that need no request (cap, allow-list, recipient prefix when the network
 * is already cached), then the network pin on the one cached network lookup, which also
 * runs the prefix check if it had to wait. The previews' reads come only after both.
 */

/** The tool's limits for this input; a spend tool without them is refused, never run unchecked. */
export function spendLimits(tool: ToolDef, input: Record<string, unknown>): SpendLimits {
  if (!tool.limits) throw new ChainMcpError('internal', `Spend tool ${tool.name} declares no limits; refusing to run it.`);
  return tool.limits(input);
}

/** EVM addresses compare case-insensitively (EIP-55 mixed case); bech32 ones are lowercase already. */
function normalizeRecipient(address: string): string {
  return /^0x[0-9a-fA-F]{40}$/.test(address) ? address.toLowerCase() : address;
}

function policy(message: string, hint: string): ChainMcpError {
  return new ChainMcpError('policy', message, { hint });
}

/** Display of an amount: in the native unit when the network is known, else in the smallest unit. */
function shown(value: bigint, network: NetworkInfo | undefined): string {
  return network ? nativeAmount(value, network).display : `${value} (smallest unit)`;
}

/** Stage 1: everything that needs no request. `network` is the cached one, if any. */
export function checkWithoutRequests(limits: SpendLimits, config: Config, network: NetworkInfo | undefined): void {
  if (limits.opaque !== undefined && (config.maxSpend !== undefined || config.allowedRecipients !== undefined)) {
    throw policy(
      `Refused: ${limits.opaque} is signed bytes whose recipients and amounts this server cannot check, and CHAIN_MCP_MAX_SPEND or CHAIN_MCP_ALLOWED_RECIPIENTS is set.`,
      'Use the tool that builds the transaction (for example xvm_send) so the limits can be checked.',
    );
  }
  if (config.maxSpend !== undefined && limits.amount !== undefined && limits.amount > config.maxSpend) {
    throw policy(
      `Refused: the amount ${shown(limits.amount, network)} exceeds CHAIN_MCP_MAX_SPEND (${shown(config.maxSpend, network)}).`,
      'Send a smaller amount, or ask the operator to raise the limit.',
    );
  }
  if (config.allowedRecipients !== undefined) {
    const allowed = new Set(config.allowedRecipients.map(normalizeRecipient));
    for (const recipient of limits.recipients) {
      if (!allowed.has(normalizeRecipient(recipient))) {
        throw policy(`Refused: ${recipient} is not in CHAIN_MCP_ALLOWED_RECIPIENTS.`, 'Only the operator can add recipients to the allow-list.');
      }
    }
  }
  if (network) checkPrefixes(limits, network);
}

/** Stage 2: the network pin and, if stage 1 had no network yet, the prefix check. One cached lookup. */
export async function pinNetwork(limits: SpendLimits, config: Config, network: () => Promise<NetworkInfo>, hadNetwork: boolean): Promise<void> {
  if (config.expectNetworkId === undefined && hadNetwork) return;
  const info = await network();
  if (config.expectNetworkId !== undefined && info.networkID !== config.expectNetworkId) {
    throw policy(
      `Refused: the node is on network ${info.networkID || 'unknown'}, not CHAIN_MCP_EXPECT_NETWORK_ID=${config.expectNetworkId}.`,
      'Point CHAIN_MCP_NODE_URL at the expected network.',
    );
  }
  if (!hadNetwork) checkPrefixes(limits, info);
}

/** A bech32 recipient must carry the node's prefix; unknown networks (prefix "custom") cannot be checked. */
function checkPrefixes(limits: SpendLimits, network: NetworkInfo): void {
  if (network.source !== 'configuration' && network.hrp === 'custom') return;
  for (const recipient of limits.recipients) {
    if (!/^[XPC]-/.test(recipient)) continue;
    const { hrp } = parseChainAddress(recipient);
    if (hrp !== network.hrp) {
      throw policy(`Refused: ${recipient} belongs to network prefix "${hrp}", but the node is on "${network.hrp}".`, 'Check that the address is for this network.');
    }
  }
}

/** Amount helpers for the catalogue's `limits` functions. */
export const sumAmounts = (amounts: readonly bigint[]): bigint => amounts.reduce((a, b) => a + b, 0n);

/** Recipient list without the optional fields the caller left out. */
export function recipientsOf(...addresses: Array<string | readonly string[] | undefined>): string[] {
  return addresses.flatMap((a) => (a === undefined ? [] : typeof a === 'string' ? [a] : [...a]));
}
