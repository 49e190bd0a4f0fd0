/**
 * What a person checks first in a spend preview's lines: the intents, the total that leaves the
 * key and the warnings (the preview opens with them, human first); everything else (inputs,
 * outputs, fees, hashes, limits) is detail the surfaces fold away. Only splits: every line stays,
 * in its order, as the decoded bytes gave it.
 */
export const TOTAL_PREFIX = 'Total leaving your key: ';
export const WARNING_PREFIXES: readonly string[] = ['NOT your address:', 'Lock:', 'Shared:', 'Contract call:'];
/** Previews without a total line (the keystore signer's): their first lines are the head. */
export const FALLBACK_HEAD = 3;

export interface SplitLines {
  head: string[];
  details: string[];
}

export const isWarning = (line: string): boolean => WARNING_PREFIXES.some((p) => line.startsWith(p));
export const isTotal = (line: string): boolean => line.startsWith(TOTAL_PREFIX);

/** The head: every line up to the total, and the warnings right after it; the rest is detail. */
export function splitHead(lines: readonly string[]): SplitLines {
  const total = lines.findIndex(isTotal);
  let end = total < 0 ? Math.min(FALLBACK_HEAD, lines.length) : total + 1;
  if (total >= 0) while (end < lines.length && isWarning(lines[end]!)) end++;
  return { head: lines.slice(0, end), details: lines.slice(end) };
}
