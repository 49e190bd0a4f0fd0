import { parseHexQuantity } from '../codec/index.js';
import type { ToolContext } from '../core/tool.js';
import { ChainMcpError, InputError } from '../errors.js';

/**
 * The fee a C-Chain atomic transaction (an export from C, an import into C) burns, which a real
 * node takes from any `baseFee` it is given without a bound (caminoethvm plugin/evm/service.go,
 * export_tx.go, import_tx.go; REAL-WIRE.md "Fees"):
 *   gas = unsigned tx bytes + 1,000 per signature + 10,000;  fee = ⌈gas × baseFee / 10^9⌉ nCAM.
 * With the keystore the node builds the transaction, so the server computes the fee for the
 * largest transaction the node can build from what it knows (a bound on the size): the preview
 * says "at most" and the limits count that maximum.
 */

export const ATOMIC_BASE_GAS = 10_000n;
export const GAS_PER_SIGNATURE = 1_000n;
const WEI_PER_UNIT = 1_000_000_000n;
/** coreth's maxUTXOsToFetch: the most outputs one keystore import takes. */
export const MAX_IMPORT_INPUTS = 1024;

/** codec version (2) + type ID (4) + networkID (4) + blockchainID (32) + the other chain's ID (32). */
const HEADER_BYTES = 74;
/** A list's length prefix. */
const LIST = 4;
/** EVMInput: address 20, amount 8, assetID 32, nonce 8. */
const EVM_INPUT_BYTES = 68;
/** EVMOutput: address 20, amount 8, assetID 32. */
const EVM_OUTPUT_BYTES = 60;
/** TransferableInput: txID 32, output index 4, assetID 32, type ID 4, amount 8, sigIndices (4 + 4 each). */
const inputBytes = (signatures: number) => 84 + 4 * signatures;
/** TransferableOutput (secp256k1 transfer): assetID 32, type ID 4, amount 8, locktime 8, threshold 4, addresses (4 + 20 each). */
const outputBytes = (addresses: number) => 60 + 20 * addresses;

/** Gas of an export from C: `evmInputs` inputs (one signature each) and the exported outputs, by address count. */
export function exportGas(evmInputs: number, outputAddresses: readonly number[]): bigint {
  const bytes = HEADER_BYTES + LIST + EVM_INPUT_BYTES * evmInputs + LIST + outputAddresses.reduce((sum, n) => sum + outputBytes(n), 0);
  return BigInt(bytes) + GAS_PER_SIGNATURE * BigInt(evmInputs) + ATOMIC_BASE_GAS;
}

/** Gas of an import into C: the imported inputs, by signature count, and one EVM output per asset. */
export function importGas(inputSignatures: readonly number[], evmOutputs: number): bigint {
  const signatures = inputSignatures.reduce((sum, n) => sum + n, 0);
  const bytes = HEADER_BYTES + LIST + inputSignatures.reduce((sum, n) => sum + inputBytes(n), 0) + LIST + EVM_OUTPUT_BYTES * evmOutputs;
  return BigInt(bytes) + GAS_PER_SIGNATURE * BigInt(signatures) + ATOMIC_BASE_GAS;
}

/** ⌈gas × baseFee / 10^9⌉ in the native smallest unit (nCAM): a limit never counts less than burns. */
export function atomicFee(gas: bigint, baseFeeWei: bigint): bigint {
  return (gas * baseFeeWei + WEI_PER_UNIT - 1n) / WEI_PER_UNIT;
}

/** The C-Chain's current base fee in wei (eth_baseFee; fixed at 200 gwei on Camino). */
export async function currentBaseFee(ctx: ToolContext, chain?: string): Promise<bigint> {
  const raw = await ctx.rpc('evm', 'eth_baseFee', [], { retry: true, chain });
  try {
    return parseHexQuantity(String(raw));
  } catch {
    throw new ChainMcpError('malformed', `The node's eth_baseFee answer is not a hex quantity (${String(raw).slice(0, 40)}); the atomic fee cannot be bounded, so nothing is sent.`);
  }
}

/**
 * The base fee an atomic spend uses: the node's current one, or the one given when it is at most
 * twice that (a node burns whatever it is given). Always sent explicitly, so the node cannot
 * pick a higher one than the preview counted.
 */
export async function boundedBaseFee(ctx: ToolContext, given: bigint | undefined, chain?: string): Promise<{ baseFee: bigint; current: bigint }> {
  const current = await currentBaseFee(ctx, chain);
  if (given === undefined) return { baseFee: current, current };
  if (given > 2n * current) {
    throw new InputError('baseFee', `at most twice the node's current base fee, ${2n * current} wei (now ${current} wei); got ${given} wei. Leave it out to use the node's current base fee.`);
  }
  return { baseFee: given, current };
}
