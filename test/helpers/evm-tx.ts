/** Signed EVM transactions built by hand for preview tests (signature fields are filler: nothing verifies them before the node). */

/** Minimal RLP, for building EVM transactions the preview decodes (signature fields are filler). */
export function rlp(item: Uint8Array | Array<Uint8Array | unknown[]>): Uint8Array {
  const len = (n: number, short: number): Uint8Array => {
    if (n < 56) return Uint8Array.of(short + n);
    const bytes: number[] = [];
    for (let v = n; v > 0; v = Math.floor(v / 256)) bytes.unshift(v % 256);
    return Uint8Array.of(short + 55 + bytes.length, ...bytes);
  };
  if (item instanceof Uint8Array) return item.length === 1 && item[0]! < 0x80 ? item : Uint8Array.of(...len(item.length, 0x80), ...item);
  const body = item.map((i) => rlp(i as Uint8Array));
  const joined = Uint8Array.from(body.flatMap((b) => [...b]));
  return Uint8Array.of(...len(joined.length, 0xc0), ...joined);
}
const int = (v: bigint): Uint8Array => {
  if (v === 0n) return new Uint8Array();
  const hex = v.toString(16);
  return Uint8Array.from(Buffer.from(hex.length % 2 ? `0${hex}` : hex, 'hex'));
};
const hexBytes = (h: string): Uint8Array => Uint8Array.from(Buffer.from(h.replace(/^0x/, ''), 'hex'));
/** A type-2 (EIP-1559) transaction: chainId, nonce, tip, maxFeePerGas, gas, to, value, data, accessList, v, r, s. */
export function type2(opts: { to?: string; value: bigint; gas: bigint; maxFee: bigint; data?: string }): string {
  const fields = [int(43112n), int(0n), int(1n), int(opts.maxFee), int(opts.gas), opts.to ? hexBytes(opts.to) : new Uint8Array(), int(opts.value), hexBytes(opts.data ?? ''), [], int(1n), int(7n), int(9n)];
  return `0x02${Buffer.from(rlp(fields as Array<Uint8Array | unknown[]>)).toString('hex')}`;
}
