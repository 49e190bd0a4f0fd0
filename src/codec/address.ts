import { bech32 } from '@scure/base';
import { CodecError, describeValue } from './errors.js';

export type ChainLetter = 'X' | 'P' | 'C';
export const CHAIN_LETTERS: readonly ChainLetter[] = ['X', 'P', 'C'];

/** Short IDs (address payloads) are ripemd160(sha256(pubkey)): always 20 bytes. */
export const ADDRESS_BYTES = 20;
const BECH32_CHARSET = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l';
const BECH32_MAX_LENGTH = 90;

export interface Bech32Address {
  hrp: string;
  bytes: Uint8Array;
  /** The bech32 part alone, e.g. `camino1...`. */
  bech32: string;
}

export interface ChainAddress extends Bech32Address {
  chain: ChainLetter;
}

function isChainLetter(value: string): value is ChainLetter {
  return (CHAIN_LETTERS as readonly string[]).includes(value);
}

function chainList(chains: readonly ChainLetter[]): { names: string; forms: string } {
  return { names: chains.join(' or '), forms: chains.map((c) => `${c}-...`).join(' or ') };
}

/**
 * Decodes `hrp1...` with a specific message per failure (the library's messages are
 * generic), so a model reading the error knows whether it mistyped a character, copied
 * an address from another network, or passed something that is not an address at all.
 */
export function parseBareBech32(text: string, hrp?: string): Bech32Address {
  if (typeof text !== 'string' || text.length === 0) {
    throw new CodecError(`expected a bech32 address, got ${describeValue(text)}`);
  }
  if (text !== text.toLowerCase()) throw new CodecError('expected a lowercase bech32 address');
  if (text.length > BECH32_MAX_LENGTH) {
    throw new CodecError(`expected a bech32 address of at most ${BECH32_MAX_LENGTH} characters, got ${text.length}`);
  }
  // Network prefixes never contain '1', so the first '1' is the separator; a '1' after it
  // is a typo that should read as a bad character, not as a different prefix.
  const sep = text.indexOf('1');
  if (sep < 1) throw new CodecError(`expected a bech32 address like camino1..., got ${describeValue(text)}`);
  const data = text.slice(sep + 1);
  const bad = [...data].find((ch) => !BECH32_CHARSET.includes(ch));
  if (bad !== undefined) throw new CodecError(`invalid character "${bad}" in bech32 address`);
  let words: number[];
  let prefix: string;
  try {
    ({ prefix, words } = bech32.decode(text, BECH32_MAX_LENGTH));
  } catch (err) {
    const checksumFailed = err instanceof Error && /checksum/i.test(err.message);
    throw new CodecError(checksumFailed ? 'bad bech32 checksum: the address has a typo' : `expected a bech32 address, got ${describeValue(text)}`);
  }
  const bytes = bech32.fromWordsUnsafe(words);
  if (bytes === undefined) throw new CodecError('expected a bech32 address with byte-aligned data');
  if (bytes.length !== ADDRESS_BYTES) {
    throw new CodecError(`expected ${ADDRESS_BYTES} bytes in the address, got ${bytes.length}`);
  }
  if (hrp !== undefined && prefix !== hrp) {
    throw new CodecError(`address is for network prefix "${prefix}" but the node's network uses "${hrp}"`);
  }
  return { hrp: prefix, bytes, bech32: text };
}

/** Parses `X-camino1...`-style addresses, optionally restricted to some chains and one hrp. */
export function parseChainAddress(
  text: string,
  opts: { chains?: readonly ChainLetter[]; hrp?: string } = {},
): ChainAddress {
  if (typeof text !== 'string') throw new CodecError(`expected a chain address like X-camino1..., got ${describeValue(text)}`);
  const dash = text.indexOf('-');
  if (dash < 0) {
    const want = chainList(opts.chains ?? CHAIN_LETTERS).forms;
    throw new CodecError(`expected an address with a chain prefix (${want}), got ${describeValue(text)}`);
  }
  const chain = text.slice(0, dash);
  if (!isChainLetter(chain)) {
    throw new CodecError(`unknown chain prefix "${chain.slice(0, 16)}-"; expected X-, P- or C-`);
  }
  if (opts.chains !== undefined && !opts.chains.includes(chain)) {
    const { names, forms } = chainList(opts.chains);
    throw new CodecError(`expected an address on the ${names} chain (${forms}), got ${chain}-...`);
  }
  return { chain, ...parseBareBech32(text.slice(dash + 1), opts.hrp) };
}

export function formatBareBech32(hrp: string, bytes: Uint8Array): string {
  if (bytes.length !== ADDRESS_BYTES) throw new CodecError(`expected ${ADDRESS_BYTES} bytes for an address, got ${bytes.length}`);
  if (hrp.length === 0 || hrp !== hrp.toLowerCase()) throw new CodecError(`expected a lowercase network prefix, got ${describeValue(hrp)}`);
  return bech32.encode(hrp, bech32.toWords(bytes), BECH32_MAX_LENGTH);
}

export function formatChainAddress(chain: ChainLetter, hrp: string, bytes: Uint8Array): string {
  if (!isChainLetter(chain)) throw new CodecError(`expected chain X, P or C, got ${describeValue(chain)}`);
  return `${chain}-${formatBareBech32(hrp, bytes)}`;
}

/** EVM (C-chain) address: `0x` + 40 hex digits, any case (EIP-55 checksums are not verified). */
export function isHexAddress(text: unknown): text is string {
  return typeof text === 'string' && /^0x[0-9a-fA-F]{40}$/.test(text);
}

/** Lowercases an EVM address so equal addresses compare equal. */
export function normalizeHexAddress(text: string): string {
  if (!isHexAddress(text)) throw new CodecError(`expected an EVM address (0x + 40 hex digits), got ${describeValue(text)}`);
  return text.toLowerCase();
}
