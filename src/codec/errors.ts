/**
 * Raised by the pure codec layer for any malformed input. The message is a short
 * sentence saying what was expected (callers wrap it into a tool-level error), and
 * never echoes secrets such as private keys.
 */
export class CodecError extends Error {
  override name = 'CodecError';
}

/** Short, bounded rendering of an offending value for error messages. */
export function describeValue(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value.length > 48 ? `${value.slice(0, 45)}...` : value);
  if (typeof value === 'number' || typeof value === 'bigint' || typeof value === 'boolean') return String(value);
  if (value === null) return 'null';
  return Array.isArray(value) ? 'an array' : `a value of type ${typeof value}`;
}
