import { base64 } from '@scure/base';

const STRICT_UTF8 = new TextDecoder('utf-8', { fatal: true });

/** Control bytes other than tab/LF/CR mean the "text" was really binary. */
function hasBinaryControl(bytes: Uint8Array): boolean {
  return bytes.some((b) => (b < 0x20 && b !== 0x09 && b !== 0x0a && b !== 0x0d) || b === 0x7f);
}

/**
 * Decodes a base64 field (e.g. a tx memo) to readable text. Best effort: if the input
 * is not valid base64 (padding optional), or decodes to invalid UTF-8 or to binary
 * bytes, the input is returned unchanged, since many plain words are also valid base64.
 */
export function decodeBase64Text(text: string): string {
  if (typeof text !== 'string' || text.length === 0) return text;
  const padded = text.length % 4 === 0 ? text : text + '='.repeat(4 - (text.length % 4));
  try {
    const bytes = base64.decode(padded);
    return hasBinaryControl(bytes) ? text : STRICT_UTF8.decode(bytes);
  } catch {
    return text;
  }
}
