/** Wire encodings of UTXOs and transactions (the simulator's own, stable and decodable). */
import { cb58Decode, cb58Encode } from '../../codec/index.js';
import { ADDRESS_BYTES, bareAddress, ID_BYTES, sha256 } from './ids.js';
import type { DevnetState, PBlock, Tx, TxInput, Utxo } from './types.js';

// ---------------------------------------------------------------------------
// Wire encodings of UTXOs and transactions (the simulator's own, stable and decodable)

const SECP_TRANSFER_OUTPUT = 7;
const NFT_TRANSFER_OUTPUT = 11;
/** caminogo locked.Out (vms/platformvm/locked/camino_lock.go): lockIDs, then the inner transfer output. */
const LOCKED_OUTPUT = 8193;
const EMPTY_ID = Buffer.alloc(32);

export function u16(n: number): Buffer {
  const b = Buffer.alloc(2);
  b.writeUInt16BE(n);
  return b;
}
function u32(n: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n);
  return b;
}
function u64(n: bigint): Buffer {
  const b = Buffer.alloc(8);
  b.writeBigUInt64BE(n);
  return b;
}

function idBytes(id: string): Buffer {
  // IDs are made by idFor/formatCb58Id; decode by re-deriving would be impossible, so keep
  // a reverse table filled as IDs are produced by the state functions.
  const bytes = ID_BYTES.get(id);
  if (bytes) return Buffer.from(bytes);
  // An ID made elsewhere (a test's own asset) decodes as a node would decode it.
  try {
    const decoded = cb58Decode(id);
    if (decoded.length === 32) return Buffer.from(decoded);
  } catch {
    // not cb58: fall through
  }
  return Buffer.from(sha256(`unknown:${id}`));
}

function addressBytes(address: string): Buffer {
  const bare = bareAddress(address);
  const bytes = ADDRESS_BYTES.get(bare);
  return Buffer.from(bytes ?? sha256(`unknown:${bare}`).slice(0, 20));
}

/**
 * The codec form of a UTXO as xvm.getUTXOs returns it: codec version (u16), txID (32),
 * output index (u32), asset ID (32), output type ID (u32: 7 secp256k1 transfer, 11 NFT
 * transfer), then for type 7 amount (u64), locktime (u64), threshold (u32), address
 * count (u32), 20-byte addresses; for type 11 group ID (u32), payload length (u32),
 * payload, locktime, threshold, addresses. A P-Chain UTXO held by a deposit or a bond is a
 * locked.Out (type 8193): deposit tx ID (32, zeros for none), bond tx ID (32), then the type-7 output.
 */
export function encodeUtxo(u: Utxo): Uint8Array {
  const addrs = [...u.addresses].map(addressBytes).sort(Buffer.compare);
  const owners = Buffer.concat([u64(u.locktime), u32(u.threshold), u32(addrs.length), ...addrs]);
  const head = Buffer.concat([u16(0), idBytes(u.txID), u32(u.outputIndex), idBytes(u.assetID)]);
  if (u.groupID !== undefined) {
    const payload = Buffer.from((u.payload ?? '0x').slice(2), 'hex');
    return new Uint8Array(Buffer.concat([head, u32(NFT_TRANSFER_OUTPUT), u32(u.groupID), u32(payload.length), payload, owners]));
  }
  const transfer = Buffer.concat([u32(SECP_TRANSFER_OUTPUT), u64(u.amount), owners]);
  if (u.depositTxID !== undefined || u.bondTxID !== undefined) {
    const lockIDs = [u.depositTxID, u.bondTxID].map((id) => (id === undefined ? EMPTY_ID : idBytes(id)));
    return new Uint8Array(Buffer.concat([head, u32(LOCKED_OUTPUT), ...lockIDs, transfer]));
  }
  return new Uint8Array(Buffer.concat([head, transfer]));
}

/** Hex (0x...) with the 4-byte checksum, as nodes send `hex` encodings. */
export function hexWithChecksum(bytes: Uint8Array): string {
  const sum = sha256(bytes).slice(-4);
  return `0x${Buffer.concat([Buffer.from(bytes), Buffer.from(sum)]).toString('hex')}`;
}

/** A UTXO in the requested wire encoding (`cb58` default, `hex`). */
export function utxoString(u: Utxo, encoding: string): string {
  const bytes = encodeUtxo(u);
  return encoding === 'hex' ? hexWithChecksum(bytes) : cb58Encode(bytes);
}

/** The JSON form of a transaction (`encoding: json` of xvm.getTx / platform.getBlock). */
export function txJson(state: DevnetState, tx: Tx): Record<string, unknown> {
  const outputs = tx.outputs.map((id) => state.utxos.get(id)!).filter(Boolean);
  const outputJson = (u: Utxo) => ({
    assetID: u.assetID,
    fxID: 'spdfYwFdpGCLEYp2kjbr6UrdYjMxtfinYkKAvWoA5jdRyjBPw',
    output:
      u.groupID !== undefined
        ? { groupID: u.groupID, payload: u.payload, addresses: u.addresses, locktime: u.locktime, threshold: u.threshold }
        : // Plain Go uint64 fields: bare JSON numbers, every digit (the router writes bigints bare).
          { addresses: u.addresses, amount: u.amount, locktime: u.locktime, threshold: u.threshold },
  });
  const local = outputs.filter((u) => u.chain === tx.chain && !u.sourceChain);
  const exported = outputs.filter((u) => u.sourceChain === tx.chain && u.chain !== tx.chain);
  const inputJson = (i: TxInput) => ({
    txID: i.txID,
    outputIndex: i.outputIndex,
    assetID: i.assetID,
    fxID: 'spdfYwFdpGCLEYp2kjbr6UrdYjMxtfinYkKAvWoA5jdRyjBPw',
    input: { amount: i.amount, signatureIndices: [0] },
  });
  const unsignedTx: Record<string, unknown> = {
    networkID: state.networkID,
    blockchainID: state.chains[tx.chain],
    outputs: local.map(outputJson),
    inputs: tx.sourceChain ? [] : tx.inputs.map(inputJson),
    memo: tx.memo,
  };
  if (tx.sourceChain) {
    unsignedTx.sourceChain = state.chains[tx.sourceChain];
    unsignedTx.importedInputs = tx.inputs.map(inputJson);
  }
  if (tx.destinationChain) {
    unsignedTx.destinationChain = state.chains[tx.destinationChain];
    unsignedTx.exportedOutputs = exported.map(outputJson);
  }
  if (tx.details) Object.assign(unsignedTx, tx.details);
  const signatures = tx.inputs.map((i) => `0x${Buffer.from(sha256(`sig:${i.utxoID}`)).toString('hex')}${'00'.repeat(33)}`);
  return {
    unsignedTx,
    credentials: signatures.map((sig) => ({ fxID: 'spdfYwFdpGCLEYp2kjbr6UrdYjMxtfinYkKAvWoA5jdRyjBPw', credential: { signatures: [sig] } })),
  };
}

/** A transaction's bytes in the requested encoding (`cb58` default, `hex`). */
export function txString(tx: Tx, encoding: string): string {
  const bytes = Buffer.from(tx.bytes.slice(2), 'hex');
  return encoding === 'hex' ? hexWithChecksum(bytes) : cb58Encode(bytes);
}

/** A P-Chain block as `encoding: json` shows it (platform.getBlock, getLastAcceptedBlock, getBlockAtHeight). */
export function pBlockJson(state: DevnetState, block: PBlock): Record<string, unknown> {
  return {
    parentID: block.parentID,
    height: block.height,
    time: block.timestamp,
    txs: block.txIDs.map((t) => ({ id: t, ...txJson(state, state.txs.get(t)!) })),
  };
}
