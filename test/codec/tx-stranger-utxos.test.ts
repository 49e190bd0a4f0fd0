import { describe, expect, it } from 'vitest';
import { hexChecksumEncode } from '../../src/codec/encoded.js';
import { decodeUtxo, encodeUtxo, type Utxo, ZERO_ID } from '../../src/codec/tx/index.js';
import type { ToolContext } from '../../src/core/tool.js';
import { fetchUtxos } from '../../src/local/utxos.js';

/** UTXOs anyone can leave at the key's P address (caminogo secp256k1fx/camino_transfer_output.go, locked/camino_lock.go). */

const owners = { locktime: 0n, threshold: 1, addresses: [new Uint8Array(20).fill(1)] };
const base = { txID: new Uint8Array(32).fill(2), assetID: new Uint8Array(32).fill(3) };
const cross: Utxo = { ...base, outputIndex: 0, output: { kind: 'cross.transfer', amount: 5n, owners, recipient: new Uint8Array(20).fill(4) } };
const emptyLock: Utxo = { ...base, outputIndex: 1, output: { kind: 'locked', lockIDs: { depositTxID: ZERO_ID, bondTxID: ZERO_ID }, output: { kind: 'secp.transfer', amount: 6n, owners } } };
const plain: Utxo = { ...base, outputIndex: 2, output: { kind: 'secp.transfer', amount: 7n, owners } };

describe('stranger P-chain UTXOs', () => {
  it('a CrossTransferOutput is type 8206: a TransferOutput inline, then the 20-byte recipient', () => {
    const bytes = encodeUtxo('P', cross);
    // codec version (2) + txID (32) + index (4) + asset (32), then the type ID.
    expect(Buffer.from(bytes.subarray(70, 74)).readUInt32BE()).toBe(8206);
    expect(bytes.length).toBe(74 + 8 + 8 + 4 + 4 + 20 + 20);
    expect(decodeUtxo('P', bytes)).toEqual(cross);
  });

  it('a locked.Out with both lock IDs empty decodes as a UTXO (the node forbids only nesting)', () => {
    expect(decodeUtxo('P', encodeUtxo('P', emptyLock))).toEqual(emptyLock);
  });

  it('fetchUtxos returns them (no builder spends them), leaves out an output type the codec does not read, and still stops on malformed bytes', async () => {
    const unknownType = encodeUtxo('P', plain);
    unknownType.set([0, 0, 0x27, 0x0f], 70); // type ID 9999
    const pages: string[][] = [[cross, emptyLock, plain].map((u) => hexChecksumEncode(encodeUtxo('P', u))).concat(hexChecksumEncode(unknownType))];
    const ctx = { rpc: async () => ({ utxos: pages[0], numFetched: String(pages[0]!.length), endIndex: { address: '', utxo: '' } }) } as unknown as ToolContext;
    const got = await fetchUtxos(ctx, 'P', ['P-local1x']);
    expect(got.map((u) => u.output.kind)).toEqual(['cross.transfer', 'locked', 'secp.transfer']);
    pages[0] = [`${hexChecksumEncode(encodeUtxo('P', plain)).slice(0, -10)}00`];
    await expect(fetchUtxos(ctx, 'P', ['P-local1x'])).rejects.toThrow(/does not decode/);
  });
});
