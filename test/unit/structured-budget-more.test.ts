import { describe, expect, it } from 'vitest';
import { fitStructured } from '../../src/registry/structured-budget.js';

/**
 * src/registry/structured-budget.ts, beyond test/unit/structured-budget.test.ts: exact trims.
 * The budget for the lists is maxBytes - 512 (room for the `truncated` record); removing one
 * item saves its JSON bytes plus one comma. Sizes below are computed by hand from the JSON.
 */

/** `count` strings whose JSON form is exactly `bytes` bytes (quotes included). */
const strings = (count: number, bytes: number, char = 'x') => Array.from({ length: count }, () => char.repeat(bytes - 2));
const jsonBytes = (value: unknown) => Buffer.byteLength(JSON.stringify(value), 'utf8');
const note = (max: number, what: string) =>
  `Structured result trimmed to ${max} bytes (${what}); ask for fewer items with the paging arguments for the rest.`;

describe('fitStructured: within the budget', () => {
  it('returns the very same object, and no note, when the result is exactly the budget', () => {
    const value = { s: 'x'.repeat(4088) };
    expect(jsonBytes(value)).toBe(4096);
    const fitted = fitStructured(value, 4096);
    expect(fitted.value).toBe(value);
    expect(fitted).toEqual({ value });
    expect('note' in fitted).toBe(false);
  });

  it('measures bigint values as their digits, so a result with bigints under the budget comes back as is', () => {
    const value = { amount: 10n ** 30n };
    expect(fitStructured(value, 4096).value).toBe(value);
  });
});

describe('fitStructured: over the budget', () => {
  it('cuts a string that alone is over half the budget, even with nothing to page, and says so (issue 21)', () => {
    const value = { s: 'x'.repeat(4089), empty: [] as unknown[] };
    const fitted = fitStructured(value, 4096);
    // 4091 bytes of JSON, 2043 over half the budget (2048): 2036 characters stay (a margin for the `…` mark).
    expect(fitted).toEqual({
      value: { s: `${'x'.repeat(2036)}…`, empty: [], truncated: { budgetBytes: 4096, lists: [], strings: [{ path: 's', shownBytes: 2036, totalBytes: 4089 }] } },
      note: note(4096, 's: first 2036 of 4089 bytes of text'),
    });
    expect(value).toEqual({ s: 'x'.repeat(4089), empty: [] });
  });

  it('removes whole items from the end of the list until the list budget (maxBytes - 512) holds, counting one comma per item', () => {
    // 2030 bytes; the lists get 512, so 1518 must go: 16 items of 100 bytes + comma; 4 stay.
    const list = strings(20, 100);
    const value = { list };
    expect(jsonBytes(value)).toBe(2030);
    const fitted = fitStructured(value, 1024);
    expect(fitted).toEqual({
      value: { list: list.slice(0, 4), truncated: { budgetBytes: 1024, lists: [{ path: 'list', shown: 4, total: 20 }] } },
      note: note(1024, 'list: first 4 of 20'),
    });
    expect(value.list).toHaveLength(20);
  });

  it('stops as soon as the removed bytes reach the excess exactly, and does not touch a list it no longer needs to', () => {
    // 4371 bytes, list budget 2048: 2323 = 23 items x 101 go; `big` (708 bytes after) ends smaller than `small` (1209).
    const value = { big: strings(30, 100), small: strings(8, 150, 'y'), pad: 'p'.repeat(105) };
    expect(jsonBytes(value)).toBe(4371);
    const fitted = fitStructured(value, 2560);
    expect(fitted.value).toEqual({ ...value, big: value.big.slice(0, 7), truncated: { budgetBytes: 2560, lists: [{ path: 'big', shown: 7, total: 30 }] } });
    const { truncated: _t, ...rest } = fitted.value;
    expect(jsonBytes(rest)).toBe(2048);
    expect(fitted.note).toBe(note(2560, 'big: first 7 of 30'));
  });

  it('trims the largest list even when a smaller one comes first', () => {
    const value = { small: strings(10, 20, 's'), large: strings(20, 100, 'l') };
    const fitted = fitStructured(value, 1024);
    expect(fitted.value).toEqual({ small: value.small, large: value.large.slice(0, 2), truncated: { budgetBytes: 1024, lists: [{ path: 'large', shown: 2, total: 20 }] } });
  });

  it('empties the largest list and goes on to the next when one is not enough, naming both in the note', () => {
    // a: 1506 bytes, b: 1021; 2026 over: all of a goes (counted 1505), then 11 of b's 51-byte items for the other 522.
    const value = { a: strings(5, 300, 'a'), b: strings(20, 50, 'b') };
    const fitted = fitStructured(value, 1024);
    expect(fitted).toEqual({
      value: {
        a: [],
        b: value.b.slice(0, 9),
        truncated: {
          budgetBytes: 1024,
          lists: [
            { path: 'a', shown: 0, total: 5 },
            { path: 'b', shown: 9, total: 20 },
          ],
        },
      },
      note: note(1024, 'a: first 0 of 5; b: first 9 of 20'),
    });
  });

  it('names a nested list by its dotted path, past null and scalar fields', () => {
    const value = { meta: { none: null, count: 3, page: { rows: strings(20, 100) } } };
    const fitted = fitStructured(value, 1024);
    expect(fitted.value.truncated).toEqual({ budgetBytes: 1024, lists: [{ path: 'meta.page.rows', shown: 4, total: 20 }] });
    expect(fitted.value.meta).toEqual({ none: null, count: 3, page: { rows: value.meta.page.rows.slice(0, 4) } });
  });

  it('names a list under an empty top-level key by its own key', () => {
    const fitted = fitStructured({ '': { list: strings(20, 100) } }, 1024);
    expect(fitted.value.truncated).toEqual({ budgetBytes: 1024, lists: [{ path: 'list', shown: 4, total: 20 }] });
  });

  it('measures bigint values as quoted digits: 46- and 47-byte items, 40 of them go', () => {
    const big = Array.from({ length: 50 }, (_, i) => ({ id: i, v: 10n ** 30n + BigInt(i) }));
    const fitted = fitStructured({ big }, 1024);
    expect(fitted.value).toEqual({ big: big.slice(0, 10), truncated: { budgetBytes: 1024, lists: [{ path: 'big', shown: 10, total: 50 }] } });
    expect(fitted.note).toBe(note(1024, 'big: first 10 of 50'));
  });

  it('counts an undefined list member as its comma alone', () => {
    // 1070 bytes, 558 over: the 10 undefined members count 10, then 6 strings of 100 + comma.
    const list = [...strings(10, 100), ...Array.from({ length: 10 }, () => undefined)];
    const fitted = fitStructured({ list }, 1024);
    expect(fitted.value.truncated).toEqual({ budgetBytes: 1024, lists: [{ path: 'list', shown: 4, total: 20 }] });
  });

  it('keeps one record per path: a second trim under the same path updates the shown count', () => {
    // `a.b` (a key with a dot) is emptied first, then the nested a.b loses 4 of its 8; both print as "a.b".
    const value = { 'a.b': strings(10, 100), a: { b: strings(8, 100, 'y') } };
    const fitted = fitStructured(value, 1012);
    expect(fitted.value).toEqual({ 'a.b': [], a: { b: value.a.b.slice(0, 4) }, truncated: { budgetBytes: 1012, lists: [{ path: 'a.b', shown: 4, total: 10 }] } });
  });

  it('gives up after 32 trimming rounds even when the result still does not fit', () => {
    const value: Record<string, string[]> = {};
    for (let i = 0; i < 40; i++) value[`l${String(i).padStart(2, '0')}`] = strings(1, 100, 'z');
    const fitted = fitStructured(value, 512);
    const lists = (fitted.value.truncated as { lists: Array<{ path: string; shown: number; total: number }> }).lists;
    expect(lists).toEqual(Array.from({ length: 32 }, (_, i) => ({ path: `l${String(i).padStart(2, '0')}`, shown: 0, total: 1 })));
    expect(fitted.value.l31).toEqual([]);
    // What the lists could not free, the strings give up: cut from their end, each marked.
    for (const key of ['l32', 'l39']) {
      const [text] = fitted.value[key] as string[];
      expect(text).toMatch(/^z*…$/);
      expect(text!.length).toBeLessThan(value[key]![0]!.length);
    }
  });
});

describe('fitStructured: long strings', () => {
  type Cut = { path: string; shownBytes: number; totalBytes: number };
  const cutsOf = (value: Record<string, unknown>) => (value.truncated as { strings?: Cut[] }).strings;

  it('finds the longest string inside nested objects and names it by its dotted path', () => {
    const { value } = fitStructured({ tx: { memo: { text: 'm'.repeat(5_000) } }, status: 'ok' }, 1_000);
    expect(jsonBytes(value)).toBeLessThanOrEqual(1_000);
    expect(value.status).toBe('ok');
    const text = ((value.tx as { memo: { text: string } }).memo.text);
    expect(text).toMatch(/^m+…$/);
    expect(cutsOf(value)).toEqual([{ path: 'tx.memo.text', shownBytes: text.length - 1, totalBytes: 5_000 }]);
  });

  it('cuts a string again from its head when one cut is not enough: one mark, one record per path with the last count', () => {
    // The half rule (400 bytes) cuts both once; together they still pass the 288-byte budget, so
    // the final rounds cut again, the longest first, each by what is still over.
    const { value } = fitStructured({ a: 'a'.repeat(450), b: 'b'.repeat(440) }, 800);
    expect(jsonBytes(value)).toBeLessThanOrEqual(800);
    const a = value.a as string;
    const b = value.b as string;
    expect(a).toMatch(/^a*…$/);
    expect(b).toMatch(/^b+…$/);
    expect(cutsOf(value)).toEqual([
      { path: 'a', shownBytes: a.length - 1, totalBytes: 450 },
      { path: 'b', shownBytes: b.length - 1, totalBytes: 440 },
    ]);
  });

  it('leaves one-character strings whole when nothing else can be cut, and names no list for an empty one', () => {
    const value = Object.fromEntries(Array.from({ length: 120 }, (_, i) => [`k${i}`, 'x']));
    const { value: fitted } = fitStructured({ ...value, empty: [] }, 1_000);
    for (let i = 0; i < 120; i++) expect(fitted[`k${i}`]).toBe('x');
    expect(fitted.truncated).toEqual({ budgetBytes: 1_000, lists: [] });
  });

  it('names no empty list when a long string is what has to give', () => {
    const { value } = fitStructured({ items: [], memo: 'z'.repeat(5_000) }, 1_000);
    expect(value.items).toEqual([]);
    expect((value.truncated as { lists: unknown[] }).lists).toEqual([]);
    expect(cutsOf(value)?.map((c) => c.path)).toEqual(['memo']);
  });
});
