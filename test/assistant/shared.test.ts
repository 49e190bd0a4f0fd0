import { describe, expect, it } from 'vitest';
import { rec, sleep, str } from '../../src/catalogue/assistant/shared.js';

/**
 * What the assistant tools share (issue 44, group `camino`): the loose readers they read node and
 * catalogue answers with, and the pause between polls of `wait_for_tx` and the keystore `transfer`.
 */
describe('the loose readers', () => {
  it('rec: an object or array is itself; null, undefined and any other value are an empty record', () => {
    const o = { a: 1 };
    const list = [1];
    expect(rec(o)).toBe(o);
    expect(rec(list)).toBe(list);
    // A JSON null from a node is no record: reading a field of it must not throw.
    for (const v of [null, undefined, 'text', 7, true, 0, '']) expect(rec(v)).toEqual({});
  });

  it('str: null and undefined are no text; anything else is its own text', () => {
    expect(str(null)).toBe('');
    expect(str(undefined)).toBe('');
    expect(str(0)).toBe('0');
    expect(str(12n)).toBe('12');
    expect(str('CAM')).toBe('CAM');
  });
});

/** Each pause here is an hour: only the cancel can end it within the test's time. */
describe('the pause between polls', () => {
  const HOUR = 3_600_000;

  it('ends with "cancelled" when the client cancels during it', async () => {
    const client = new AbortController();
    const pause = sleep(HOUR, client.signal);
    client.abort();
    await expect(pause).rejects.toMatchObject({ kind: 'cancelled', message: 'Cancelled by the client.' });
  });

  it('ends with "cancelled" at once when the client cancelled before it began', async () => {
    const client = new AbortController();
    client.abort();
    await expect(sleep(HOUR, client.signal)).rejects.toMatchObject({ kind: 'cancelled' });
  });

  it('ends on its own when nobody cancels', async () => {
    await expect(sleep(1, new AbortController().signal)).resolves.toBeUndefined();
  });
});
