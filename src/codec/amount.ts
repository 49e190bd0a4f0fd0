import { CodecError, describeValue } from './errors.js';

/** Native amounts (nCAM) have 9 decimals; C-chain balances are wei (18). */
export const NATIVE_DECIMALS = 9;
export const WEI_DECIMALS = 18;
export const MAX_UINT64 = 2n ** 64n - 1n;

/**
 * Strict uint64 for tool inputs: bigint, plain decimal digits, or a safe non-negative
 * integer number. Anything a JS number could have rounded is refused, never guessed.
 */
export function parseUint64(value: unknown, field = 'value'): bigint {
  let result: bigint;
  if (typeof value === 'bigint') {
    result = value;
  } else if (typeof value === 'string' && /^[0-9]+$/.test(value)) {
    result = BigInt(value);
  } else if (typeof value === 'number' && Number.isSafeInteger(value)) {
    result = BigInt(value);
  } else if (typeof value === 'number' && Number.isInteger(value)) {
    throw new CodecError(`expected ${field} as a decimal string: ${value} is too large for an exact JS number`);
  } else {
    throw new CodecError(`expected ${field} to be a whole non-negative number in decimal digits, got ${describeValue(value)}`);
  }
  if (result < 0n) throw new CodecError(`expected ${field} to be non-negative, got ${result}`);
  if (result > MAX_UINT64) throw new CodecError(`expected ${field} to be at most ${MAX_UINT64} (uint64), got ${result}`);
  return result;
}

function assertDecimals(decimals: number): bigint {
  if (!Number.isInteger(decimals) || decimals < 0 || decimals > 255) {
    throw new CodecError(`expected decimals to be an integer from 0 to 255, got ${describeValue(decimals)}`);
  }
  return 10n ** BigInt(decimals);
}

/** Exact base units -> decimal string ("1.5"), trailing fraction zeros trimmed. */
export function formatUnits(value: bigint, decimals: number): string {
  const scale = assertDecimals(decimals);
  const abs = value < 0n ? -value : value;
  const fraction = (abs % scale).toString().padStart(decimals, '0').replace(/0+$/, '');
  return `${value < 0n ? '-' : ''}${abs / scale}${fraction ? `.${fraction}` : ''}`;
}

/**
 * Exact decimal string -> base units. Accepts an optional leading '-', "1", "1.5",
 * ".5", "1."; no exponents, separators or '+'. Fraction digits beyond `decimals` are
 * refused unless they are zeros (the value is still exact then).
 */
export function parseUnits(text: string, decimals: number): bigint {
  const scale = assertDecimals(decimals);
  const match = typeof text === 'string' ? /^(-?)(\d*)(?:\.(\d*))?$/.exec(text) : null;
  const [, sign = '', whole = '', rawFraction = ''] = match ?? [];
  if (!match || (whole === '' && rawFraction === '')) {
    throw new CodecError(`expected a decimal number like "1.5", got ${describeValue(text)}`);
  }
  const fraction = rawFraction.replace(/0+$/, '');
  if (fraction.length > decimals) {
    throw new CodecError(`expected at most ${decimals} decimal places, got ${fraction.length} in ${describeValue(text)}`);
  }
  const units = BigInt(whole || '0') * scale + BigInt(fraction.padEnd(decimals, '0') || '0');
  return sign ? -units : units;
}

/** "1,234,567.5 CAM": grouping is hard-coded (not locale APIs) so output is deterministic. */
export function formatAmount(value: bigint, opts: { decimals: number; symbol?: string }): string {
  const [whole = '', fraction] = formatUnits(value, opts.decimals).split('.');
  const grouped = whole.replace(/\B(?=(\d{3})+$)/g, ',');
  const number = fraction === undefined ? grouped : `${grouped}.${fraction}`;
  return opts.symbol ? `${number} ${opts.symbol}` : number;
}

/**
 * Lenient integer reader for node answers, whose encodings vary by API (JSON numbers,
 * decimal strings, 0x quantities). Returns undefined rather than throwing.
 */
export function tolerantBigInt(value: unknown): bigint | undefined {
  if (typeof value === 'bigint') return value;
  if (typeof value === 'number') return Number.isSafeInteger(value) ? BigInt(value) : undefined;
  if (typeof value !== 'string') return undefined;
  if (/^-?[0-9]+$/.test(value)) return BigInt(value);
  if (/^0x[0-9a-fA-F]+$/.test(value)) return BigInt(value);
  return undefined;
}
