/** What fitting a result into the structuredContent budget removed, for the text and the result. */
export interface Fitted {
  value: Record<string, unknown>;
  /** One line for the text summary when something was left out. */
  note?: string;
}

const bytesOf = (value: unknown): number => Buffer.byteLength(JSON.stringify(value, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v)) ?? '', 'utf8');

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

/**
 * Keeps one result's structuredContent within `maxBytes` (hosts may hand it to the model whole):
 * the largest lists lose items from their end, whole items only, until the result fits, and the
 * result says what was kept (`truncated`) so the model can page for the rest.
 */
export function fitStructured(value: Record<string, unknown>, maxBytes: number): Fitted {
  if (bytesOf(value) <= maxBytes) return { value };
  const copy = structuredClone(value);
  const kept: Array<{ path: string; shown: number; total: number }> = [];
  // Room for the `truncated` record itself.
  const budget = maxBytes - 512;
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
  copy.truncated = { budgetBytes: maxBytes, lists: kept };
  const what = kept.map((k) => `${k.path}: first ${k.shown} of ${k.total}`).join('; ');
  return { value: copy, note: `Structured result trimmed to ${maxBytes} bytes (${what || 'nothing to page'}); ask for fewer items with the paging arguments for the rest.` };
}
