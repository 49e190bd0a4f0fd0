import { CodecError } from '../index.js';

/** A transaction or UTXO the node would refuse to parse or to accept syntactically. */
export class TxCodecError extends CodecError {
  override name = 'TxCodecError';
}

/** The node's codec refuses more than this many bytes (codec/manager.go defaultMaxSize = 256 KiB). */
export const MAX_CODEC_BYTES = 256 * 1024;
/** linearcodec defaultMaxSliceLength: no list or byte string is longer. */
export const MAX_SLICE_LEN = 256 * 1024;
/** avax.MaxMemoSize. */
export const MAX_MEMO_BYTES = 256;

const U64_MAX = (1n << 64n) - 1n;

/** Big-endian writer with the linear codec's conventions (u32 lengths, u16 string lengths). */
export class Writer {
  private chunks: Uint8Array[] = [];
  private size = 0;

  bytes(data: Uint8Array): this {
    this.chunks.push(data);
    this.size += data.length;
    return this;
  }

  fixed(data: Uint8Array, length: number, what: string): this {
    if (!(data instanceof Uint8Array) || data.length !== length) {
      throw new TxCodecError(`${what} must be ${length} bytes, got ${data instanceof Uint8Array ? data.length : typeof data}`);
    }
    return this.bytes(data);
  }

  u8(value: number): this {
    if (!Number.isInteger(value) || value < 0 || value > 0xff) throw new TxCodecError(`expected a u8, got ${value}`);
    return this.bytes(Uint8Array.of(value));
  }

  u16(value: number): this {
    if (!Number.isInteger(value) || value < 0 || value > 0xffff) throw new TxCodecError(`expected a u16, got ${value}`);
    return this.bytes(Uint8Array.of(value >>> 8, value & 0xff));
  }

  u32(value: number): this {
    if (!Number.isInteger(value) || value < 0 || value > 0xffffffff) throw new TxCodecError(`expected a u32, got ${value}`);
    const out = new Uint8Array(4);
    new DataView(out.buffer).setUint32(0, value);
    return this.bytes(out);
  }

  u64(value: bigint): this {
    if (typeof value !== 'bigint' || value < 0n || value > U64_MAX) throw new TxCodecError(`expected a u64 bigint, got ${String(value)}`);
    const out = new Uint8Array(8);
    new DataView(out.buffer).setBigUint64(0, value);
    return this.bytes(out);
  }

  /** []byte: u32 length + bytes. */
  varBytes(data: Uint8Array): this {
    return this.u32(data.length).bytes(data);
  }

  /** string: u16 length + UTF-8 bytes. */
  str(text: string): this {
    const data = new TextEncoder().encode(text);
    return this.u16(data.length).bytes(data);
  }

  /** A slice: u32 count, then each element. */
  list<T>(items: readonly T[], each: (item: T, w: this) => void): this {
    this.u32(items.length);
    for (const item of items) each(item, this);
    return this;
  }

  get length(): number {
    return this.size;
  }

  finish(): Uint8Array {
    const out = new Uint8Array(this.size);
    let at = 0;
    for (const c of this.chunks) {
      out.set(c, at);
      at += c.length;
    }
    return out;
  }
}

/** Big-endian reader that fails like the node's Packer: short reads, oversized slices, bad bools. */
export class Reader {
  private at = 0;
  private readonly view: DataView;

  constructor(readonly data: Uint8Array) {
    this.view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  }

  get offset(): number {
    return this.at;
  }

  get remaining(): number {
    return this.data.length - this.at;
  }

  private need(n: number, what: string): void {
    if (this.remaining < n) throw new TxCodecError(`unexpected end of data reading ${what} at byte ${this.at} (need ${n}, have ${this.remaining})`);
  }

  fixed(n: number, what: string): Uint8Array {
    this.need(n, what);
    const out = this.data.slice(this.at, this.at + n);
    this.at += n;
    return out;
  }

  u8(what: string): number {
    this.need(1, what);
    return this.view.getUint8(this.at++);
  }

  u16(what: string): number {
    this.need(2, what);
    const v = this.view.getUint16(this.at);
    this.at += 2;
    return v;
  }

  u32(what: string): number {
    this.need(4, what);
    const v = this.view.getUint32(this.at);
    this.at += 4;
    return v;
  }

  u64(what: string): bigint {
    this.need(8, what);
    const v = this.view.getBigUint64(this.at);
    this.at += 8;
    return v;
  }

  /** Looks at the next u64 without consuming it (the UpgradeVersionID probe). */
  peekU64(): bigint | undefined {
    return this.remaining >= 8 ? this.view.getBigUint64(this.at) : undefined;
  }

  count(what: string, max = MAX_SLICE_LEN): number {
    const n = this.u32(`${what} length`);
    if (n > max) throw new TxCodecError(`${what}: length ${n} exceeds the maximum ${max}`);
    return n;
  }

  varBytes(what: string, max = MAX_SLICE_LEN): Uint8Array {
    return this.fixed(this.count(what, max), what);
  }

  str(what: string): string {
    const n = this.u16(`${what} length`);
    const bytes = this.fixed(n, what);
    return new TextDecoder('utf-8', { fatal: false }).decode(bytes);
  }

  list<T>(what: string, each: (r: this, index: number) => T): T[] {
    const n = this.count(what);
    const out: T[] = [];
    for (let i = 0; i < n; i++) out.push(each(this, i));
    return out;
  }

  /** The node's errExtraSpace: every byte must be consumed. */
  end(what: string): void {
    if (this.remaining !== 0) throw new TxCodecError(`${what}: ${this.remaining} trailing bytes after the end of the data`);
  }
}
