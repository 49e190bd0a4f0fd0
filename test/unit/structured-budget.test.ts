import { describe, expect, it } from 'vitest';
import { fitStructured } from '../../src/registry/structured-budget.js';

const item = (i: number) => ({ id: `tx-${i}`, memo: 'x'.repeat(100), outputs: [{ amount: String(i) }] });

describe('structuredContent budget', () => {
  it('leaves a result under the budget untouched', () => {
    const value = { count: 2, items: [item(1), item(2)] };
    expect(fitStructured(value, 65_536)).toEqual({ value });
  });

  it('pages a 5,000-item list to fit, whole items only, and says what it kept', () => {
    const items = Array.from({ length: 5000 }, (_, i) => item(i));
    const { value, note } = fitStructured({ count: 5000, items }, 65_536);
    expect(Buffer.byteLength(JSON.stringify(value))).toBeLessThanOrEqual(65_536);
    const kept = value.items as ReturnType<typeof item>[];
    expect(kept.length).toBeGreaterThan(100);
    expect(kept).toEqual(items.slice(0, kept.length));
    expect(value.count).toBe(5000);
    expect(value.truncated).toEqual({ budgetBytes: 65_536, lists: [{ path: 'items', shown: kept.length, total: 5000 }] });
    expect(note).toContain(`items: first ${kept.length} of 5000`);
  });

  it('cuts the largest list first, nested lists included', () => {
    const value = { small: [1, 2, 3], nested: { big: Array.from({ length: 3000 }, (_, i) => item(i)) } };
    const fitted = fitStructured(value, 16_384);
    expect(fitted.value.small).toEqual([1, 2, 3]);
    expect((fitted.value.truncated as { lists: Array<{ path: string }> }).lists.map((l) => l.path)).toEqual(['nested.big']);
  });
});

describe('structuredContent budget: one long value', () => {
  it('cuts a single 8 MB string to fit and says so (issue 21: it used to pass whole)', () => {
    const value = { status: 'ok', memo: 'm'.repeat(8 * 1024 * 1024), list: [1, 2, 3] };
    const { value: fitted, note } = fitStructured(value, 65_536);
    expect(Buffer.byteLength(JSON.stringify(fitted))).toBeLessThanOrEqual(65_536);
    expect(fitted.status).toBe('ok');
    expect(fitted.list).toEqual([1, 2, 3]);
    const memo = fitted.memo as string;
    expect(memo.endsWith('…')).toBe(true);
    expect(memo.length).toBeGreaterThan(30_000);
    const truncated = fitted.truncated as { strings: Array<{ path: string; shownBytes: number; totalBytes: number }> };
    expect(truncated.strings).toEqual([{ path: 'memo', shownBytes: memo.length - 1, totalBytes: 8 * 1024 * 1024 }]);
    expect(note).toContain(`memo: first ${memo.length - 1} of ${8 * 1024 * 1024} bytes of text`);
  });

  it('cuts a long string nested in a one-item list and in escaped or multi-byte text, never past the budget', () => {
    for (const text of ['"\\'.repeat(400_000), 'é€😀'.repeat(200_000), '\u0001'.repeat(300_000)]) {
      const { value } = fitStructured({ items: [{ data: text }], other: 'x' }, 16_384);
      expect(Buffer.byteLength(JSON.stringify(value))).toBeLessThanOrEqual(16_384);
      expect(value.other).toBe('x');
      expect(JSON.stringify(value)).not.toContain('\uFFFD');
    }
  });
});
