import { z } from 'zod';
import { cb58Decode, formatBareBech32, formatCb58Id, hexChecksumDecode, hexToBytes } from '../codec/index.js';

/**
 * Decodes the codec form of a UTXO (as getUTXOs / getRewardUTXOs return it) far enough
 * to total amounts: codec version (u16), txID (32), output index (u32), asset ID (32),
 * output type ID (u32); type 7 (secp256k1 transfer) continues with amount (u64), locktime
 * (u64), threshold (u32), address count (u32) and 20-byte addresses; type 11 (NFT transfer)
 * with group ID (u32), payload length (u32), payload, then the same owners. A Camino P-Chain
 * locked.Out (type 8193) carries its lock IDs (deposit tx, bond tx; 32 bytes each, zeros for none)
 * before a type-7 output. Other output types keep their type ID and no amount.
 */

export const DecodedUtxo = z.object({
  utxoID: z.string().describe('txID:outputIndex'),
  txID: z.string(),
  outputIndex: z.number(),
  assetID: z.string(),
  outputType: z.number(),
  amount: z.string().optional().describe('Smallest unit of the asset (fungible outputs).'),
  display: z.string().optional().describe('The amount in display units.'),
  groupID: z.number().optional(),
  locktime: z.string().optional(),
  threshold: z.number().optional(),
  addresses: z.array(z.string()).optional().describe('Bech32 addresses without chain prefix.'),
  depositTxID: z.string().optional().describe('P-Chain: the deposit holding this output.'),
  bondTxID: z.string().optional().describe('P-Chain: the staking transaction bonding this output.'),
});
export type DecodedUtxo = z.infer<typeof DecodedUtxo>;

/**
 * Bytes of a `cb58` or hex string: `hex`/`hexc` carry a 4-byte checksum (verified), `hexnc`
 * none; the answer's `encoding` says which, so hexnc UTXOs are not read as a bad checksum.
 */
export function encodedBytes(text: string, encoding?: string): Uint8Array {
  if (!text.startsWith('0x')) return cb58Decode(text);
  return encoding === 'hexnc' ? hexToBytes(text) : hexChecksumDecode(text);
}

/** caminogo locked.Out type ID (vms/platformvm/txs/codec.go). */
const LOCKED_OUT = 8193;

export function decodeUtxo(text: string, hrp: string, encoding?: string): DecodedUtxo | undefined {
  let b: Uint8Array;
  try {
    b = encodedBytes(text, encoding);
  } catch {
    return undefined;
  }
  const view = new DataView(b.buffer, b.byteOffset, b.byteLength);
  try {
    let at = 2;
    const txID = formatCb58Id(b.slice(at, at + 32));
    at += 32;
    const outputIndex = view.getUint32(at);
    at += 4;
    const assetID = formatCb58Id(b.slice(at, at + 32));
    at += 32;
    const outputType = view.getUint32(at);
    at += 4;
    const out: DecodedUtxo = { utxoID: `${txID}:${outputIndex}`, txID, outputIndex, assetID, outputType };
    if (outputType === LOCKED_OUT) {
      const lockID = (from: number) => (b.slice(from, from + 32).every((x) => x === 0) ? undefined : formatCb58Id(b.slice(from, from + 32)));
      const deposit = lockID(at);
      const bond = lockID(at + 32);
      if (deposit) out.depositTxID = deposit;
      if (bond) out.bondTxID = bond;
      at += 64;
      // The inner output is a secp256k1 transfer (type 7); anything else keeps no amount.
      if (view.getUint32(at) !== 7) return out;
      at += 4;
      out.amount = view.getBigUint64(at).toString();
      at += 8;
    } else if (outputType === 7) {
      out.amount = view.getBigUint64(at).toString();
      at += 8;
    } else if (outputType === 11) {
      out.groupID = view.getUint32(at);
      const len = view.getUint32(at + 4);
      at += 8 + len;
    } else {
      return out;
    }
    out.locktime = view.getBigUint64(at).toString();
    out.threshold = view.getUint32(at + 8);
    const count = view.getUint32(at + 12);
    at += 16;
    if (count > 1000 || at + count * 20 > b.length) return out;
    out.addresses = Array.from({ length: count }, (_, i) => formatBareBech32(hrp, b.slice(at + i * 20, at + (i + 1) * 20)));
    return out;
  } catch {
    return undefined;
  }
}

/** Totals per asset of fungible outputs (smallest units), in first-seen order. */
export function totalsByAsset(utxos: readonly DecodedUtxo[]): Map<string, { amount: bigint; count: number }> {
  const totals = new Map<string, { amount: bigint; count: number }>();
  for (const u of utxos) {
    const t = totals.get(u.assetID) ?? { amount: 0n, count: 0 };
    t.amount += BigInt(u.amount ?? '0');
    t.count += 1;
    totals.set(u.assetID, t);
  }
  return totals;
}
