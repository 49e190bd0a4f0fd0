/** What fitting a result into the structuredContent budget removed, for the text and the result. */
export interface Fitted {
  value: Record<string, unknown>;
  /** One line for the text summary when something was left out. */
  note?: string;
}

/** JSON of a result, bigints as decimal strings; a result without one skips the replacer (most do). */
function jsonOf(value: unknown): string {
  try {
    return JSON.stringify(value) ?? '';
  } catch {
    // A BigInt (JSON.stringify has no form for it); anything else throws again below.
    return JSON.stringify(value, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v)) ?? '';
  }
}

const bytesOf = (value: unknown): number => Buffer.byteLength(jsonOf(value), 'utf8');

/** Whether the JSON of `value` takes at most `maxBytes`: a UTF-16 unit is at most 3 UTF-8 bytes, so short JSON needs no count. */
function fits(value: unknown, maxBytes: number): boolean {
  const json = jsonOf(value);
  return json.length * 3 <= maxBytes || Buffer.byteLength(json, 'utf8') <= maxBytes;
}

interface ArraySite {
  holder: Record<string, unknown> | unknown[];
  key: string | number;
  path: string;
  items: unknown[];
  size: number;
}

/** Every array in the result with where it sits, largest first. */
function arraySites(root: Record<string, unknown>): ArraySite[] {
  const sites: ArraySite[] = [];
  const walk = (holder: Record<string, unknown> | unknown[], key: string | number, path: string, value: unknown) => {
    if (Array.isArray(value)) {
      sites.push({ holder, key, path, items: value, size: bytesOf(value) });
      for (const [i, item] of value.entries()) walk(value, i, `${path}[${i}]`, item);
    } else if (value && typeof value === 'object') {
      for (const [k, v] of Object.entries(value as Record<string, unknown>)) walk(value as Record<string, unknown>, k, path ? `${path}.${k}` : k, v);
    }
  };
  for (const [k, v] of Object.entries(root)) walk(root, k, k, v);
  return sites.sort((a, b) => b.size - a.size);
}

interface StringSite {
  holder: Record<string, unknown> | unknown[];
  key: string | number;
  path: string;
  text: string;
}

/** The longest string value in the result (keys are short by construction). */
function longestString(root: Record<string, unknown>): StringSite | undefined {
  let best: StringSite | undefined;
  const walk = (holder: Record<string, unknown> | unknown[], key: string | number, path: string, value: unknown) => {
    if (typeof value === 'string') {
      if (!best || value.length > best.text.length) best = { holder, key, path, text: value };
    } else if (Array.isArray(value)) {
      for (const [i, item] of value.entries()) walk(value, i, `${path}[${i}]`, item);
    } else if (value && typeof value === 'object') {
      for (const [k, v] of Object.entries(value as Record<string, unknown>)) walk(value as Record<string, unknown>, k, path ? `${path}.${k}` : k, v);
    }
  };
  for (const [k, v] of Object.entries(root)) walk(root, k, k, v);
  return best;
}

interface StringCut {
  path: string;
  shownBytes: number;
  totalBytes: number;
}

/** Cuts about `over` encoded bytes off the end of one string value (at least one character), marking it with `…`. */
function cutString(site: StringSite, over: number, cut: StringCut[]): void {
  const utf8 = Buffer.byteLength(site.text, 'utf8');
  // JSON escaping can make a string larger on the wire than in UTF-8: cut by its encoded size.
  const encoded = Buffer.byteLength(JSON.stringify(site.text), 'utf8');
  const ratio = encoded / Math.max(1, utf8);
  const base = site.text.endsWith('…') ? site.text.slice(0, -1) : site.text;
  // At least 4 bytes shorter than before, so every step makes progress.
  const keep = Math.min(Buffer.byteLength(base, 'utf8') - 4, Math.floor((encoded - over - 8) / ratio) - 3);
  const shown = headBytes(base, keep);
  (site.holder as Record<string | number, unknown>)[site.key] = `${shown}…`;
  const previous = cut.find((c) => c.path === site.path);
  if (previous) previous.shownBytes = Buffer.byteLength(shown, 'utf8');
  else cut.push({ path: site.path, shownBytes: Buffer.byteLength(shown, 'utf8'), totalBytes: utf8 });
}

/** One cutting step while `over` > 0; false when there is nothing left to cut. */
function cutLongest(root: Record<string, unknown>, over: number, cut: StringCut[]): boolean {
  if (over <= 0) return false;
  const site = longestString(root);
  if (!site || site.text.length <= 1) return false;
  cutString(site, over, cut);
  return true;
}

/** The head of `text` in at most `bytes` UTF-8 bytes, never splitting a character. */
function headBytes(text: string, bytes: number): string {
  const buf = Buffer.from(text, 'utf8');
  if (buf.length <= bytes) return text;
  let end = Math.max(0, bytes);
  while (end > 0 && (buf[end]! & 0xc0) === 0x80) end--;
  return buf.subarray(0, end).toString('utf8');
}

/**
 * Keeps one result's structuredContent within `maxBytes` (hosts may hand it to the model whole):
 * the largest lists lose items from their end, whole items only, until the result fits, and the
 * result says what was kept (`truncated`) so the model can page for the rest.
 */
export function fitStructured(value: Record<string, unknown>, maxBytes: number): Fitted {
  if (fits(value, maxBytes)) return { value };
  const copy = structuredClone(value);
  const kept: Array<{ path: string; shown: number; total: number }> = [];
  // Room for the `truncated` record itself.
  const budget = maxBytes - 512;
  const cut: StringCut[] = [];
  // No single string takes more than half the budget, so one long value never costs a list its items.
  const half = Math.floor(maxBytes / 2);
  for (let round = 0; round < 32; round++) {
    const site = longestString(copy);
    const size = site ? Buffer.byteLength(JSON.stringify(site.text), 'utf8') : 0;
    if (!site || size <= half) break;
    cutString(site, size - half, cut);
  }
  for (let round = 0; round < 32; round++) {
    const over = bytesOf(copy) - budget;
    if (over <= 0) break;
    const site = arraySites(copy).find((s) => s.items.length > 0);
    if (!site) break;
    let keep = site.items.length;
    let removed = 0;
    while (keep > 0 && removed < over) {
      keep--;
      removed += bytesOf(site.items[keep]) + 1;
    }
    const previous = kept.find((k) => k.path === site.path);
    if (previous) previous.shown = keep;
    else kept.push({ path: site.path, shown: keep, total: site.items.length });
    (site.holder as Record<string | number, unknown>)[site.key] = site.items.slice(0, keep);
  }
  // Whatever lists could not make fit is long single values (an 8 MB memo, a huge hex blob):
  // their text is cut, longest first, and said so.
  for (let round = 0; round < 64 && cutLongest(copy, bytesOf(copy) - budget, cut); round++);
  copy.truncated = { budgetBytes: maxBytes, lists: kept, ...(cut.length ? { strings: cut } : {}) };
  const what = [
    ...kept.map((k) => `${k.path}: first ${k.shown} of ${k.total}`),
    ...cut.map((c) => `${c.path}: first ${c.shownBytes} of ${c.totalBytes} bytes of text`),
  ].join('; ');
  return { value: copy, note: `Structured result trimmed to ${maxBytes} bytes (${what || 'nothing to page'}); ask for fewer items with the paging arguments for the rest.` };
}
