import type { EvmInput, EvmOutput, TransferableInput, TransferableOutput, TxChain } from './types.js';
import { encodeTransferableOut } from './encode.js';

/** bytes.Compare: lexicographic, shorter first on a common prefix. */
export function compareBytes(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const d = (a[i] as number) - (b[i] as number);
    if (d !== 0) return d < 0 ? -1 : 1;
  }
  return a.length === b.length ? 0 : a.length < b.length ? -1 : 1;
}

/** Short IDs in ascending byte order (secp256k1fx.OutputOwners.Sort), duplicates removed. */
export function sortAddresses(addresses: readonly Uint8Array[]): Uint8Array[] {
  const out = [...addresses].sort(compareBytes);
  return out.filter((a, i) => i === 0 || compareBytes(a, out[i - 1] as Uint8Array) !== 0);
}

/** avax.UTXOID.Less: by txID, then output index. */
export function compareInputs(a: TransferableInput, b: TransferableInput): number {
  return compareBytes(a.txID, b.txID) || (a.outputIndex === b.outputIndex ? 0 : a.outputIndex < b.outputIndex ? -1 : 1);
}

/** Inputs as the node requires them (sorted and unique by UTXO ID); returns a new array. */
export function sortInputs(inputs: readonly TransferableInput[]): TransferableInput[] {
  return [...inputs].sort(compareInputs);
}

/** avax.SortTransferableOutputs: by asset ID, then by the output's codec bytes (type ID + body). */
export function compareOutputs(chain: TxChain, a: TransferableOutput, b: TransferableOutput): number {
  return compareBytes(a.assetID, b.assetID) || compareBytes(encodeTransferableOut(chain, a.output), encodeTransferableOut(chain, b.output));
}

/** Outputs as the node requires them; returns a new array. */
export function sortOutputs(chain: TxChain, outputs: readonly TransferableOutput[]): TransferableOutput[] {
  return [...outputs].sort((a, b) => compareOutputs(chain, a, b));
}

/** caminoethvm SortEVMInputsAndSigners: by address, then asset ID. */
export function compareEvm(a: EvmInput | EvmOutput, b: EvmInput | EvmOutput): number {
  return compareBytes(a.address, b.address) || compareBytes(a.assetID, b.assetID);
}

export function sortEvmInputs(inputs: readonly EvmInput[]): EvmInput[] {
  return [...inputs].sort(compareEvm);
}

export function sortEvmOutputs(outputs: readonly EvmOutput[]): EvmOutput[] {
  return [...outputs].sort(compareEvm);
}
