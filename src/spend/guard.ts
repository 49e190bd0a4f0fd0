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

/** Whether any limit is in force: then nothing the server cannot check may pass. */
export function anyLimit(config: Config): boolean {
  return config.maxSpend !== undefined || config.allowedRecipients !== undefined || config.maxSpendPerDay !== undefined;
}

/** The refusal when this spend would carry the rolling 24 h total over CHAIN_MCP_MAX_SPEND_PER_DAY. */
export function overDailyTotal(total: bigint, spent: bigint, config: Config, network: NetworkInfo | undefined): ChainMcpError {
  return policy(
    `Refused: this spend (${shown(total, network)}, fees included) would bring the total sent in the last 24 hours to ${shown(spent + total, network)}, over CHAIN_MCP_MAX_SPEND_PER_DAY (${shown(config.maxSpendPerDay ?? 0n, network)}); ${shown(spent, network)} was sent already.`,
    'Wait until earlier spends are more than 24 hours old, or ask the operator to raise the limit.',
  );
}

/** Stage 1: everything that needs no request. `network` is the cached one, if any; `spent` the last 24 hours' total. */
export function checkWithoutRequests(limits: SpendLimits, config: Config, network: NetworkInfo | undefined, spent = 0n): void {
  if (limits.unbounded !== undefined && anyLimit(config)) {
    throw policy(
      `Refused: this hands over ${limits.unbounded}, which no spending limit can bound, and CHAIN_MCP_MAX_SPEND, CHAIN_MCP_MAX_SPEND_PER_DAY or CHAIN_MCP_ALLOWED_RECIPIENTS is set.`,
      'Only the operator can do this, with the limits off.',
    );
  }
  if (limits.opaque !== undefined && anyLimit(config)) {
    throw policy(
      `Refused: ${limits.opaque} is signed bytes whose recipients and amounts this server cannot check, and CHAIN_MCP_MAX_SPEND, CHAIN_MCP_MAX_SPEND_PER_DAY or CHAIN_MCP_ALLOWED_RECIPIENTS is set.`,
      'Use the tool that builds the transaction (for example xvm_send) so the limits can be checked.',
    );
  }
  if (config.maxSpend !== undefined && limits.amount !== undefined && limits.amount > config.maxSpend) {
    throw policy(
      `Refused: the amount ${shown(limits.amount, network)} exceeds CHAIN_MCP_MAX_SPEND (${shown(config.maxSpend, network)}).`,
      'Send a smaller amount, or ask the operator to raise the limit.',
    );
  }
  if (config.maxSpendPerDay !== undefined && spent + (limits.amount ?? 0n) > config.maxSpendPerDay) {
    throw overDailyTotal(limits.amount ?? 0n, spent, config, network);
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

/**
 * Stage 3, after the preview learned the fee: the amount and the most the fee can burn together
 * stay within CHAIN_MCP_MAX_SPEND (a fee is money leaving the user like the amount).
 */
export function checkWithFee(limits: SpendLimits, fee: bigint | undefined, config: Config, network: NetworkInfo | undefined): void {
  if (config.maxSpend === undefined || fee === undefined || fee === 0n) return;
  const total = (limits.amount ?? 0n) + fee;
  if (total > config.maxSpend) {
    throw policy(
      `Refused: the amount ${shown(limits.amount ?? 0n, network)} plus the fee of at most ${shown(fee, network)} is ${shown(total, network)}, over CHAIN_MCP_MAX_SPEND (${shown(config.maxSpend, network)}).`,
      'Send a smaller amount, leave baseFee out (the node\'s current base fee), or ask the operator to raise the limit.',
    );
  }
}

/**
 * Stage 2b, under any limit: every address that must be the user's (change, an import's
 * destination) is, by the user's own address list (one cached lookup). An address the server
 * cannot tell (a C-Chain hex address) passes only when the operator allow-listed it.
 */
export async function checkOwn(limits: SpendLimits, config: Config, isOwn: (address: string) => Promise<boolean | undefined>): Promise<void> {
  if (!anyLimit(config) || !limits.own?.length) return;
  const allowed = new Set((config.allowedRecipients ?? []).map(normalizeRecipient));
  for (const address of limits.own) {
    const own = await isOwn(address);
    if (own === true || (own === undefined && allowed.has(normalizeRecipient(address)))) continue;
    throw policy(
      own === false
        ? `Refused: ${address} is not one of the keystore user's addresses, and change or imported funds may go only to the user's own addresses while a spending limit is set.`
        : `Refused: this server cannot tell whether ${address} is one of the keystore user's addresses, and a spending limit is set.`,
      own === false ? "Leave changeAddr out (the node then picks one of the user's addresses) or give one of the user's addresses." : 'Ask the operator to add it to CHAIN_MCP_ALLOWED_RECIPIENTS if it is yours.',
    );
  }
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
export function checkPrefixes(limits: SpendLimits, network: NetworkInfo): void {
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

/**
 * The limits on what a spend's decoded bytes do (the local signer, at preview and again at
 * confirm): `total` is everything that leaves the key, fees included; `strangers` every address
 * that is not the key's and receives an output or a deposit's rewards; `rewardOwner` a deposit's
 * rewards owner that is not the key alone; `notYours` addresses where the key's own was expected.
 * `spent` is the rolling 24 h total before this spend.
 */
export function checkOutflow(
  out: { total: bigint; strangers: readonly string[]; rewardOwner?: string | undefined; notYours?: readonly string[] },
  config: Config,
  network: NetworkInfo | undefined,
  spent: bigint | undefined,
): void {
  if (config.maxSpend !== undefined && out.total > config.maxSpend) {
    throw policy(
      `Refused: this spend takes ${shown(out.total, network)} out of the key's control (amount and every fee, read from its bytes), over CHAIN_MCP_MAX_SPEND (${shown(config.maxSpend, network)}).`,
      'Send a smaller amount, leave baseFee out (the node\'s current base fee), or ask the operator to raise the limit.',
    );
  }
  const allowed = new Set((config.allowedRecipients ?? []).map(normalizeRecipient));
  if (out.rewardOwner !== undefined && anyLimit(config) && !out.strangers.every((a) => allowed.has(normalizeRecipient(a)))) {
    throw policy(
      `Refused: the deposit's rewards go to ${out.rewardOwner}, NOT your address, and a spending limit is set; rewards may go to another address only when it is in CHAIN_MCP_ALLOWED_RECIPIENTS.`,
      'Leave rewardAddress out (the rewards then go to your key), or ask the operator to allow-list that address.',
    );
  }
  // Where the key's own address was expected (an import's or a claim's outputs), another passes a limit only allow-listed.
  const unexpected = (out.notYours ?? []).find((a) => !allowed.has(normalizeRecipient(a)));
  if (unexpected !== undefined && anyLimit(config)) {
    throw policy(
      `Refused: ${unexpected} receives where your own address was expected (NOT your address), and a spending limit is set.`,
      'Give one of your own addresses, or ask the operator to add it to CHAIN_MCP_ALLOWED_RECIPIENTS if it is yours.',
    );
  }
  if (config.allowedRecipients !== undefined) {
    for (const recipient of out.strangers) {
      if (!allowed.has(normalizeRecipient(recipient))) throw policy(`Refused: ${recipient} is not in CHAIN_MCP_ALLOWED_RECIPIENTS (read from the transaction's bytes).`, 'Only the operator can add recipients to the allow-list.');
    }
  }
  if (config.maxSpendPerDay !== undefined && spent !== undefined && spent + out.total > config.maxSpendPerDay) throw overDailyTotal(out.total, spent, config, network);
}
