import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { formatCb58Id, hexChecksumEncode } from '../../src/codec/index.js';
import {
  attachCredentials,
  type CExportTx,
  decodeSignedTx,
  decodeUnsignedTx,
  decodeUtxo,
  decodeUtxoHex,
  decodeUtxoHexList,
  type DepositTx,
  encodeUnsignedTx,
  encodeUtxo,
  type ExportTx,
  ownerId,
  type PBaseTx,
  TxCodecError,
  type TransferableInput,
  type TransferableOutput,
  type Utxo,
  viewTx,
} from '../../src/codec/tx/index.js';

/** The decoder refuses what a node refuses: codec errors and the syntactic rules, one message each. */

const id = (n: number) => new Uint8Array(32).fill(n);
const addr = (n: number) => new Uint8Array(20).fill(n);
const owners = (...a: number[]) => ({ locktime: 0n, threshold: 1, addresses: a.map(addr) });
const out = (asset: number, amount: bigint, ...a: number[]): TransferableOutput => ({
  assetID: id(asset),
  output: { kind: 'secp.transfer', amount, owners: owners(...(a.length ? a : [1])) },
});
const inp = (tx: number, index: number, amount: bigint, sigIndices = [0]): TransferableInput => ({
  txID: id(tx),
  outputIndex: index,
  assetID: id(9),
  input: { kind: 'secp.transfer', amount, sigIndices },
});

const pBase = (over: Partial<PBaseTx> = {}): PBaseTx => ({
  chain: 'P',
  kind: 'base',
  networkID: 1000,
  blockchainID: id(0),
  outputs: [out(9, 5n)],
  inputs: [inp(1, 0, 6n)],
  memo: new Uint8Array(),
  ...over,
});

const refused = (bytes: Uint8Array, message: RegExp, chain: 'X' | 'P' | 'C' = 'P') => {
  expect(() => decodeUnsignedTx(chain, bytes)).toThrow(TxCodecError);
  expect(() => decodeUnsignedTx(chain, bytes)).toThrow(message);
};

describe('codec errors', () => {
  const good = encodeUnsignedTx(pBase());

  it('reads a well-formed tx', () => {
    expect(decodeUnsignedTx('P', good)).toEqual(pBase());
  });

  it('refuses a trailing byte, a missing byte and another codec version', () => {
    refused(Uint8Array.of(...good, 0), /1 trailing bytes/);
    refused(good.subarray(0, good.length - 1), /unexpected end of data/);
    refused(Uint8Array.of(0, 1, ...good.subarray(2)), /unknown codec version 1/);
  });

  it('refuses a type ID from another VM: the X BaseTx ID on P, the P BaseTx ID on X and C', () => {
    const x = Uint8Array.of(...good);
    x.set([0, 0, 0, 0], 2);
    refused(x, /unexpected P-chain tx type ID 0/);
    refused(good, /unexpected X-chain tx type ID 8200/, 'X');
    refused(good, /unexpected C-chain atomic tx type ID 8200/, 'C');
  });

  it('refuses a locked output on X and an NFT output inside a P tx', () => {
    const locked = pBase({ outputs: [{ assetID: id(9), output: { kind: 'locked', lockIDs: { depositTxID: id(3), bondTxID: id(0) }, output: { kind: 'secp.transfer', amount: 5n, owners: owners(1) } } }] });
    const bytes = encodeUnsignedTx(locked);
    const asX = Uint8Array.of(...bytes);
    asX.set([0, 0, 0, 0], 2);
    refused(asX, /unexpected X-chain output type ID 8193/, 'X');
  });

  it('refuses a list length beyond the codec maximum without reading it', () => {
    const bytes = Uint8Array.of(...good);
    // outputs count sits after version (2), type ID (4), network ID (4) and blockchain ID (32)
    bytes.set([0x00, 0x04, 0x00, 0x01], 42);
    refused(bytes, /exceeds the maximum/);
  });

  it('refuses more than 256 KiB', () => {
    expect(() => decodeUnsignedTx('P', new Uint8Array(256 * 1024 + 1))).toThrow(/exceed the codec's maximum/);
  });
});

describe('syntactic rules', () => {
  it.each([
    ['inputs out of order', pBase({ inputs: [inp(2, 0, 3n), inp(1, 0, 3n)] }), /inputs not sorted and unique/],
    ['the same UTXO twice', pBase({ inputs: [inp(1, 0, 3n), inp(1, 0, 3n)] }), /inputs not sorted and unique/],
    ['outputs out of order', pBase({ outputs: [out(9, 5n, 2), out(9, 5n, 1)] }), /outputs not sorted/],
    ['outputs of a lower asset after a higher one', pBase({ outputs: [out(9, 1n), out(8, 1n)] }), /outputs not sorted/],
    ['addresses out of order', pBase({ outputs: [{ assetID: id(9), output: { kind: 'secp.transfer', amount: 1n, owners: { locktime: 0n, threshold: 1, addresses: [addr(2), addr(1)] } } }] }), /addresses not sorted and unique/],
    ['threshold above the addresses', pBase({ outputs: [{ assetID: id(9), output: { kind: 'secp.transfer', amount: 1n, owners: { locktime: 0n, threshold: 2, addresses: [addr(1)] } } }] }), /unspendable/],
    ['threshold 0 with an address', pBase({ outputs: [{ assetID: id(9), output: { kind: 'secp.transfer', amount: 1n, owners: { locktime: 0n, threshold: 0, addresses: [addr(1)] } } }] }), /should be optimized/],
    ['signature indices out of order', pBase({ inputs: [inp(1, 0, 6n, [1, 0])] }), /signatures not sorted and unique/],
    ['a zero output', pBase({ outputs: [out(9, 0n)] }), /output has no value/],
    ['a zero input', pBase({ inputs: [inp(1, 0, 0n)] }), /input has no value/],
    [
      'a locked output with no lock',
      pBase({ outputs: [{ assetID: id(9), output: { kind: 'locked', lockIDs: { depositTxID: id(0), bondTxID: id(0) }, output: { kind: 'secp.transfer', amount: 5n, owners: owners(1) } } }] }),
      /locked output has no lock IDs/,
    ],
  ] as const)('refuses %s', (_name, tx, message) => {
    refused(encodeUnsignedTx(tx), message);
  });

  it('refuses a 257-byte memo (and the encoder will not write one)', () => {
    expect(() => encodeUnsignedTx(pBase({ memo: new Uint8Array(257) }))).toThrow(/at most 256/);
    const at256 = encodeUnsignedTx(pBase({ memo: new Uint8Array(256) }));
    expect((decodeUnsignedTx('P', at256) as PBaseTx).memo).toHaveLength(256);
    const bytes = Uint8Array.of(...at256, 0);
    new DataView(bytes.buffer).setUint32(at256.length - 256 - 4, 257);
    refused(bytes, /memo too large: 257 > 256/);
  });

  it('refuses an export with no exported output and accepts it with one', () => {
    const tx: ExportTx = { ...pBase(), kind: 'export', destinationChain: id(7), exportedOutputs: [] };
    refused(encodeUnsignedTx(tx), /no export outputs/);
    const ok = { ...tx, exportedOutputs: [out(9, 1n)] };
    expect(decodeUnsignedTx('P', encodeUnsignedTx(ok))).toEqual(ok);
  });

  it('refuses claims the node refuses: none, zero, unknown type, the same ID twice', () => {
    const claim = (claimables: { id: Uint8Array; type: bigint; amount: bigint; ownerAuth: { sigIndices: number[] } }[]) =>
      encodeUnsignedTx({ ...pBase(), kind: 'claim', claimables });
    const c = { id: id(4), type: 1n, amount: 10n, ownerAuth: { sigIndices: [0] } };
    refused(claim([]), /no deposit txs with rewards or claimables to claim/);
    refused(claim([{ ...c, amount: 0n }]), /zero claimed amount/);
    refused(claim([{ ...c, type: 4n }]), /wrong claim type/);
    refused(claim([c, c]), /non-unique deposit tx id/);
    expect(decodeUnsignedTx('P', claim([c])).kind).toBe('claim');
  });

  it('reads DepositTx versions 0 and 1 and refuses upgrade version 2', () => {
    const v0: DepositTx = { ...pBase(), kind: 'deposit', upgradeVersion: 0, depositOfferID: id(5), depositDuration: 86_400, rewardsOwner: owners(1) };
    const v1: DepositTx = { ...v0, upgradeVersion: 1, depositCreatorAddress: addr(3), depositCreatorAuth: { sigIndices: [] }, depositOfferOwnerAuth: { sigIndices: [0] } };
    expect(decodeUnsignedTx('P', encodeUnsignedTx(v0))).toEqual(v0);
    expect(decodeUnsignedTx('P', encodeUnsignedTx(v1))).toEqual(v1);
    const bytes = encodeUnsignedTx(v1);
    expect(Buffer.from(bytes.subarray(6, 14)).toString('hex')).toBe('ffffffffffff0001');
    bytes[13] = 2;
    refused(bytes, /incompatible upgrade version: 2/);
    expect(encodeUnsignedTx(v1).length - encodeUnsignedTx(v0).length).toBe(8 + 20 + 8 + 12);
  });

  it('refuses C export inputs out of order and an export with no EVM input', () => {
    const exp: CExportTx = {
      chain: 'C',
      kind: 'export',
      networkID: 1000,
      blockchainID: id(1),
      destinationChain: id(2),
      inputs: [
        { address: addr(2), amount: 1n, assetID: id(9), nonce: 0n },
        { address: addr(1), amount: 1n, assetID: id(9), nonce: 0n },
      ],
      exportedOutputs: [out(9, 1n)],
    };
    refused(encodeUnsignedTx(exp), /EVM inputs not sorted and unique/, 'C');
    refused(encodeUnsignedTx({ ...exp, inputs: [] }), /tx has no EVM inputs/, 'C');
  });

  it('parses what breaks only a rule when asked not to verify', () => {
    const bytes = encodeUnsignedTx(pBase({ inputs: [inp(2, 0, 3n), inp(1, 0, 3n)] }));
    expect((decodeUnsignedTx('P', bytes, { verify: false }) as PBaseTx).inputs).toHaveLength(2);
  });

  it('reads an output nobody can spend (threshold 0, no address), as the node does', () => {
    const tx = pBase({ outputs: [{ assetID: id(9), output: { kind: 'secp.transfer', amount: 1n, owners: { locktime: 0n, threshold: 0, addresses: [] } } }] });
    expect(decodeUnsignedTx('P', encodeUnsignedTx(tx))).toEqual(tx);
  });
});

describe('signed txs', () => {
  const unsigned = encodeUnsignedTx(pBase());
  const sig = new Uint8Array(65).fill(7);

  it('appends the credentials after the unsigned bytes and reads them back with the ID and hash', () => {
    const signed = attachCredentials('P', unsigned, [{ signatures: [sig] }]);
    expect(Buffer.from(signed.subarray(0, unsigned.length))).toEqual(Buffer.from(unsigned));
    expect(Buffer.from(signed.subarray(unsigned.length, unsigned.length + 12)).toString('hex')).toBe('000000010000000900000001');
    const d = decodeSignedTx('P', signed);
    expect(d.tx.credentials).toEqual([{ signatures: [sig] }]);
    expect(Buffer.from(d.unsignedBytes)).toEqual(Buffer.from(unsigned));
  });

  it('refuses a credential of another type, a short signature and trailing bytes', () => {
    const signed = attachCredentials('P', unsigned, [{ signatures: [sig] }]);
    const multisig = Uint8Array.of(...signed);
    multisig.set([0, 0, 0x20, 0x0c], unsigned.length + 4);
    expect(() => decodeSignedTx('P', multisig)).toThrow(/credential type ID 8204/);
    expect(() => decodeSignedTx('P', signed.subarray(0, signed.length - 1))).toThrow(/unexpected end of data/);
    expect(() => decodeSignedTx('P', Uint8Array.of(...signed, 0))).toThrow(/trailing bytes/);
    expect(() => attachCredentials('P', unsigned, [{ signatures: [new Uint8Array(64)] }])).toThrow(/65 bytes/);
  });
});

describe('UTXOs', () => {
  const utxo: Utxo = {
    txID: id(3),
    outputIndex: 2,
    assetID: id(9),
    output: { kind: 'locked', lockIDs: { depositTxID: id(4), bondTxID: id(0) }, output: { kind: 'secp.transfer', amount: 7n, owners: owners(1) } },
  };

  it('reads the hex form getUTXOs returns, checksum verified', () => {
    const hex = hexChecksumEncode(encodeUtxo('P', utxo));
    expect(decodeUtxoHex('P', hex)).toEqual(utxo);
    expect(() => decodeUtxoHex('P', `${hex.slice(0, -2)}00`)).toThrow(/checksum/);
  });

  it('decodes a page one UTXO at a time, listing the ones it cannot read instead of failing the page', () => {
    const good = hexChecksumEncode(encodeUtxo('P', utxo));
    const propertyFx = hexChecksumEncode(Uint8Array.of(...encodeUtxo('X', { ...utxo, output: { kind: 'secp.transfer', amount: 1n, owners: owners(1) } }).subarray(0, 70), 0, 0, 0, 16));
    const list = decodeUtxoHexList('X', [hexChecksumEncode(encodeUtxo('X', { ...utxo, output: { kind: 'secp.transfer', amount: 1n, owners: owners(1) } })), propertyFx, good]);
    expect(list.utxos).toHaveLength(1);
    expect(list.undecodable.map((u) => u.index)).toEqual([1, 2]);
    expect(list.undecodable[1]?.reason).toMatch(/unexpected X-chain output type ID 8193/);
  });

  it('refuses a P-only locked output on X', () => {
    expect(() => decodeUtxo('X', encodeUtxo('P', utxo))).toThrow(/unexpected X-chain output type ID 8193/);
  });
});

describe('ownerId', () => {
  it('hashes the codec version and the owner without a type ID (txs.GetOwnerID)', () => {
    // version 0000, locktime 0, threshold 1, one address of 0x01 bytes
    const expected = createHash('sha256')
      .update(Buffer.from(`0000${'00'.repeat(8)}0000000100000001${'01'.repeat(20)}`, 'hex'))
      .digest();
    expect(Buffer.from(ownerId(owners(1)))).toEqual(Buffer.from(expected));
  });
});

describe('viewTx', () => {
  it('shows every input and output, locks, exported outputs under the destination letter, and the fee burned', () => {
    const tx: ExportTx = {
      ...pBase({ inputs: [inp(1, 0, 10n)], outputs: [out(9, 3n, 1)] }),
      kind: 'export',
      destinationChain: id(7),
      exportedOutputs: [out(9, 6n, 2)],
    };
    const v = viewTx(tx, { hrp: 'camino', chainIDs: { X: formatCb58Id(id(7)) } });
    expect(v.inputs).toHaveLength(1);
    expect(v.inputs[0]?.amount).toBe(10n);
    expect(v.outputs.map((o) => [o.amount, o.exported, o.addresses[0]?.slice(0, 9)])).toEqual([
      [3n, false, 'P-camino1'],
      [6n, true, 'X-camino1'],
    ]);
    expect(Object.values(v.burned)).toEqual([1n]);
    expect(v.memo).toBe('0x');
  });
});
