/**
 * C-chain atomic tx fee (caminoethvm plugin/evm/tx.go calculateDynamicFee, import_tx.go and
 * export_tx.go GasUsed): gas = unsigned byte length + 1,000 per signature + 10,000 base, and
 * fee = ⌈gas × baseFee(wei) / 10^9⌉ nCAM.
 */
export const ATOMIC_TX_BASE_GAS = 10_000n;
export const ATOMIC_GAS_PER_SIGNATURE = 1_000n;
/** Camino's fixed base fee (params/camino_config.go SunrisePhase0BaseFee): 200 gwei. */
export const CAMINO_BASE_FEE_WEI = 200_000_000_000n;
const X2C_RATE = 1_000_000_000n;

export function atomicGas(unsignedByteLength: number, signatures: number): bigint {
  return BigInt(unsignedByteLength) + ATOMIC_GAS_PER_SIGNATURE * BigInt(signatures) + ATOMIC_TX_BASE_GAS;
}

export function atomicFee(gas: bigint, baseFeeWei: bigint): bigint {
  if (gas < 0n || baseFeeWei < 0n) throw new RangeError('gas and base fee must be non-negative');
  return (gas * baseFeeWei + X2C_RATE - 1n) / X2C_RATE;
}
