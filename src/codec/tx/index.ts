// Camino transaction codec: encode and decode X (avm), P (Camino platformvm) and C (caminoethvm atomic)
// transactions and UTXOs byte for byte as the node's linear codec does; pure, no I/O. The simulator
// shares this decoder, so a node-strict refusal here is a node-strict refusal there.
export * from './types.js';
export { TxCodecError } from './wire.js';
export { encodeUnsignedTx, encodeSignedTx, encodeUtxo, encodeCredentials, encodeOutputOwners } from './encode.js';
export {
  decodeUnsignedTx,
  decodeSignedTx,
  decodeUtxo,
  decodeUtxoHex,
  decodeUtxoHexList,
  type DecodedUtxoList,
  type DecodeOptions,
} from './decode.js';
export { compareBytes, sortAddresses, sortInputs, sortOutputs, sortEvmInputs, sortEvmOutputs } from './sort.js';
export { attachCredentials, sha256, txIdOf, signedTxHex, ownerId, utxoKey, ZERO_ID, THIS_TX_ID } from './hash.js';
export { atomicGas, atomicFee, ATOMIC_TX_BASE_GAS, ATOMIC_GAS_PER_SIGNATURE, CAMINO_BASE_FEE_WEI } from './fee.js';
export { viewTx, burnedByAsset, THIS_TX, type ViewOptions } from './view.js';
export { consumedUtxos, producedUtxos, type Consumed, type Produced } from './produce.js';
