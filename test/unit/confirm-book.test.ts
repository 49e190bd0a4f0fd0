import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool } from '../../src/core/tool.js';
import { canonicalArgs, CONFIRMATION_TTL_MS, ConfirmationBook, MAX_OPEN, spendOutput } from '../../src/confirm.js';
import { ChainMcpError } from '../../src/errors.js';
import { MemoryStore } from '../../src/state/memory.js';

/**
 * The confirmation book on its own (DESIGN "Confirmation"): what an id is bound to, when it
 * expires, how many stay open, and the reason each refusal gives.
 */

const T0 = 1_700_000_000_000;
const ARGS = { to: 'X-local1qqq', amount: 5n, outputs: [{ b: 2, a: 1 }] };

/** The refusal an id gets, as the error the tool call would carry. */
async function refusal(fn: () => Promise<unknown>): Promise<ChainMcpError> {
  try {
    await fn();
  } catch (e) {
    expect(e).toBeInstanceOf(ChainMcpError);
    return e as ChainMcpError;
  }
  throw new Error('expected a refusal');
}

describe('canonicalArgs', () => {
  it('sorts object keys at every depth, keeps array order, writes bigints as decimal strings', () => {
    expect(canonicalArgs({ b: 1, a: { d: [3, 1, { z: 1, y: 2 }], c: 10n } })).toBe('{"a":{"c":"10","d":[3,1,{"y":2,"z":1}]},"b":1}');
    expect(canonicalArgs({ b: 1, a: 2 })).toBe(canonicalArgs({ a: 2, b: 1 }));
    for (const keys of ['edcba', 'abcde', 'caebd', 'baedc']) {
      expect(canonicalArgs(Object.fromEntries([...keys].map((k) => [k, k]))), keys).toBe('{"a":"a","b":"b","c":"c","d":"d","e":"e"}');
    }
    expect(canonicalArgs(['b', 'a'])).toBe('["b","a"]');
    expect(canonicalArgs({ a: null, b: 'x' })).toBe('{"a":null,"b":"x"}');
  });

  it('keeps keys that only differ in case apart and in order', () => {
    expect(canonicalArgs({ b: 1, B: 2, a: 3 })).toBe('{"B":2,"a":3,"b":1}');
  });
});

describe('ConfirmationBook', () => {
  it('accepts an id for the same tool and the same arguments in another key order, once', async () => {
    const book = new ConfirmationBook();
    const { id, expiresAt } = await book.issue('xvm_send', ARGS, T0);
    expect(expiresAt).toBe(T0 + CONFIRMATION_TTL_MS);
    expect(id.split('.')[1]).toBe(String(expiresAt));
    expect(await book.openCount(T0)).toBe(1);
    await book.redeem(id, 'xvm_send', { outputs: [{ a: 1, b: 2 }], amount: 5n, to: 'X-local1qqq' }, T0 + 1);
    expect(await book.openCount(T0)).toBe(0);
    expect((await refusal(() => book.redeem(id, 'xvm_send', ARGS, T0 + 2))).message).toContain('already used');
  });

  it('verify checks without consuming', async () => {
    const book = new ConfirmationBook();
    const { id } = await book.issue('xvm_send', ARGS, T0);
    const nonce = await book.verify(id, 'xvm_send', ARGS, T0);
    expect(id.startsWith(`${nonce}.`)).toBe(true);
    expect(await book.verify(id, 'xvm_send', ARGS, T0)).toBe(nonce);
    expect(await book.openCount(T0)).toBe(1);
  });

  it('refuses another tool, other arguments and another book, with the reason and a hint', async () => {
    const book = new ConfirmationBook();
    const { id } = await book.issue('xvm_send', ARGS, T0);
    for (const attempt of [
      () => book.verify(id, 'xvm_export', ARGS, T0),
      () => book.verify(id, 'xvm_send', { ...ARGS, amount: 6n }, T0),
      () => new ConfirmationBook().verify(id, 'xvm_send', ARGS, T0),
    ]) {
      const e = await refusal(attempt);
      expect(e.kind).toBe('confirmation');
      expect(e.message).toBe(
        'Confirmation refused: the confirmationId does not match this tool and these exact arguments (or the fee changed since the preview, or it was not issued by this server). Nothing was sent.',
      );
      expect(e.hint).toBe('Call the tool again without confirm to get a fresh preview and confirmationId.');
    }
  });

  it('with the same key and store, another process (another book) accepts the id; its owner only, and a stranger does not use it up', async () => {
    const store = new MemoryStore();
    const key = 'ab'.repeat(32);
    const issuer = new ConfirmationBook(store, key);
    const other = new ConfirmationBook(store, key);
    const { id } = await issuer.issue('xvm_send', ARGS, T0, 'alice');
    expect((await refusal(() => other.redeem(id, 'xvm_send', ARGS, T0, 'bob'))).message).toContain('issued in another MCP session (or to another user)');
    await other.redeem(id, 'xvm_send', ARGS, T0, 'alice');
    expect((await refusal(() => issuer.redeem(id, 'xvm_send', ARGS, T0, 'alice'))).message).toContain('already used');
    // Another key: the MAC does not match, whatever the store holds.
    const { id: second } = await issuer.issue('xvm_send', ARGS, T0, 'alice');
    expect((await refusal(() => new ConfirmationBook(store, 'cd'.repeat(32)).verify(second, 'xvm_send', ARGS, T0, 'alice'))).message).toContain('does not match');
  });

  it('refuses a MAC cut to a prefix or extended by a character', async () => {
    const book = new ConfirmationBook();
    const { id } = await book.issue('xvm_send', ARGS, T0);
    for (const forged of [id.slice(0, -1), id.slice(0, -20), `${id}A`]) {
      expect((await refusal(() => book.verify(forged, 'xvm_send', ARGS, T0))).message).toContain('does not match');
    }
  });

  it('calls an id malformed when any of its three parts is missing or the expiry is not an integer', async () => {
    const book = new ConfirmationBook();
    const { id } = await book.issue('xvm_send', ARGS, T0);
    const [nonce, expiry, mac] = id.split('.');
    // The expiry in decimal digits only: the same number written another way (exponent, hex, a space) is not the id issued.
    const hex = `0x${Number(expiry).toString(16)}`;
    for (const bad of ['', 'abc', `${nonce}.${expiry}`, `.${expiry}.${mac}`, `${nonce}.${expiry}.`, `${nonce}.soon.${mac}`, `${nonce}.1.5.${mac}`, `${nonce}..${mac}`, `${nonce}.-1.${mac}`, `${nonce}.99999999999999999999.${mac}`, `${nonce}.${expiry}e0.${mac}`, `${nonce}.${hex}.${mac}`, `${nonce}.${expiry} .${mac}`, `${nonce}. ${expiry}.${mac}`]) {
      expect((await refusal(() => book.verify(bad, 'xvm_send', ARGS, T0))).message, bad).toContain('the confirmationId is malformed');
    }
  });

  it('is valid through the last millisecond of its life and expired one after', async () => {
    const book = new ConfirmationBook();
    const { id, expiresAt } = await book.issue('xvm_send', ARGS, T0);
    await expect(book.verify(id, 'xvm_send', ARGS, expiresAt)).resolves.toBeTypeOf('string');
    const e = await refusal(() => book.verify(id, 'xvm_send', ARGS, expiresAt + 1));
    expect(e.message).toContain('has expired (valid for 5 minutes)');
    expect(await book.openCount(expiresAt + 1)).toBe(0);
  });

  it('calls an expired id expired, also once its record was swept from the store', async () => {
    const book = new ConfirmationBook();
    const { id, expiresAt } = await book.issue('xvm_send', ARGS, T0);
    // A later preview sweeps the expired record: the id itself still says why it is refused.
    await book.issue('xvm_send', ARGS, expiresAt + 1);
    expect(await book.openCount(expiresAt + 1)).toBe(1);
    for (const attempt of [() => book.verify(id, 'xvm_send', ARGS, expiresAt + 1), () => book.redeem(id, 'xvm_send', ARGS, expiresAt + 1)]) {
      expect((await refusal(attempt)).message).toBe('Confirmation refused: the confirmationId has expired (valid for 5 minutes). Nothing was sent.');
    }
  });

  it('sweeps ids past their expiry when issuing, and only those', async () => {
    const book = new ConfirmationBook();
    const first = await book.issue('xvm_send', ARGS, T0);
    await book.issue('xvm_send', ARGS, T0 + 10);
    // At first's exact expiry it is still valid, so issuing then must keep it.
    await book.issue('xvm_send', ARGS, first.expiresAt);
    expect(await book.openCount(first.expiresAt)).toBe(3);
    await book.redeem(first.id, 'xvm_send', ARGS, first.expiresAt);
    await book.issue('xvm_send', ARGS, T0 + 10 + CONFIRMATION_TTL_MS + 1);
    expect(await book.openCount(T0 + 10 + CONFIRMATION_TTL_MS + 1)).toBe(2);
  });

  it(`holds at most ${MAX_OPEN} open ids: the next preview is refused, no older id is dropped`, async () => {
    const book = new ConfirmationBook();
    const oldest = await book.issue('xvm_send', ARGS, T0);
    for (let i = 1; i < MAX_OPEN; i++) await book.issue('xvm_send', ARGS, T0);
    expect(await book.openCount(T0)).toBe(MAX_OPEN);
    const full = await refusal(() => book.issue('xvm_send', ARGS, T0));
    expect(full.message).toContain(`${MAX_OPEN} previews are open`);
    expect([full.kind, full.hint]).toEqual(['policy', 'Confirm or abandon the open previews and wait for them to expire; do not loop on previews.']);
    expect(await book.openCount(T0)).toBe(MAX_OPEN);
    await expect(book.verify(oldest.id, 'xvm_send', ARGS, T0)).resolves.toBeTypeOf('string');
    // Once they expire there is room again.
    await expect(book.issue('xvm_send', ARGS, T0 + CONFIRMATION_TTL_MS + 1)).resolves.toBeDefined();
  });
});

describe('spendOutput', () => {
  const tool = defineTool({
    name: 'test_spend',
    title: 'Spend',
    description: 'A spend.',
    tier: 'spend',
    toolset: 'xvm',
    input: z.strictObject({}),
    output: z.object({ txID: z.string() }),
    run: async () => ({ txID: 'x' }),
    summarize: () => '',
  });

  it('describes the three states and the tool result inside', () => {
    const schema = spendOutput(tool);
    for (const status of ['preview', 'issued', 'declined']) expect(schema.safeParse({ status, preview: [] }).success, status).toBe(true);
    expect(schema.safeParse({ status: 'sent', preview: [] }).success).toBe(false);
    expect(schema.safeParse({ status: 'issued', preview: ['a'], result: { txID: 'abc' } }).success).toBe(true);
    expect(schema.safeParse({ status: 'issued', preview: ['a'], result: { txID: 5 } }).success).toBe(false);
  });
});
