import { isInteger, isSafeNumber, parse } from 'lossless-json';

/**
 * The one JSON parse for node and indexer answers. A Go node writes plain uint64 fields as bare
 * JSON numbers (avm.getTx json: amount, locktime); JSON.parse would round those above 2^53. Integers
 * that a JS number cannot hold exactly are kept as their decimal string (every decoder reads amounts
 * from decimal strings already, and a string stays JSON-serializable); every other number is a number.
 */
export function parseNodeJson(text: string): unknown {
  // No run of 16+ digits anywhere: every number fits a JS number exactly, and JSON.parse is faster.
  if (!LONG_DIGITS.test(text)) return JSON.parse(text);
  return parse(text, undefined, (digits) => (isSafeNumber(digits) || !isInteger(digits) ? Number(digits) : digits));
}

/** 2^53 has 16 digits: a shorter integer is always exact. */
const LONG_DIGITS = /\d{16}/;
