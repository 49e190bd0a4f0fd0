import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ApprovalRounds, callDigest, ROUND_TTL_MS } from '../../src/approval/request-state.js';
import { MemoryStore } from '../../src/state/memory.js';

const KEY = randomBytes(32).toString('hex');
const NOW = 1_800_000_000_000;
const call = { owner: 'oauth:alice', tool: 'xvm_send', args: callDigest('xvm_send', { amount: '1', confirm: 'id' }), mode: 'form' as const };

describe('a 2026-07-28 approval round (sealed requestState)', () => {
  it('opens under the same key on another replica, with every field as sealed; nothing of it is readable', async () => {
    const store = new MemoryStore();
    const { round, sealed } = await new ApprovalRounds(store, KEY).open(call, NOW);
    // The human has five minutes to answer.
    expect(ROUND_TTL_MS).toBe(5 * 60_000);
    expect(round.exp).toBe(NOW + 300_000);
    expect(new ApprovalRounds(store, KEY).unseal(sealed, NOW)).toEqual(round);
    const bytes = Buffer.from(sealed.slice(3), 'base64url').toString('latin1');
    for (const clear of ['alice', 'xvm_send', round.id]) expect(bytes).not.toContain(clear);
  });

  it('refuses one changed byte anywhere, another key, another format, and an expired round', async () => {
    const rounds = new ApprovalRounds(new MemoryStore(), KEY);
    const { sealed } = await rounds.open(call, NOW);
    const raw = Buffer.from(sealed.slice(3), 'base64url');
    for (const at of [0, 12, raw.length >> 1, raw.length - 1]) {
      const bad = Buffer.from(raw);
      bad[at]! ^= 1;
      expect(() => rounds.unseal(`v1.${bad.toString('base64url')}`, NOW), `byte ${at}`).toThrow(/altered|another key/);
    }
    expect(() => new ApprovalRounds(new MemoryStore(), randomBytes(32).toString('hex')).unseal(sealed, NOW)).toThrow(/altered|another key/);
    // Without a shared key each process seals with its own secret: another process cannot open it.
    expect(() => new ApprovalRounds(new MemoryStore()).unseal(sealed, NOW)).toThrow(/altered|another key/);
    for (const other of ['', 'v1.', `v2.${sealed.slice(3)}`, `${sealed}.x`, 'v1.AAAA']) expect(() => rounds.unseal(other, NOW)).toThrow(/not a request state/);
    expect(rounds.unseal(sealed, NOW + ROUND_TTL_MS).id).toBeTypeOf('string');
    expect(() => rounds.unseal(sealed, NOW + ROUND_TTL_MS + 1)).toThrow(/expired/);
  });

  it('reads a sealed form as one only from its smallest possible size (iv, tag and two bytes of text) up', () => {
    const rounds = new ApprovalRounds(new MemoryStore(), KEY);
    const sized = (n: number) => `v1.${randomBytes(n).toString('base64url')}`;
    expect(() => rounds.unseal(sized(12 + 16 + 1), NOW)).toThrow('not a request state of this server');
    expect(() => rounds.unseal(sized(12 + 16 + 2), NOW)).toThrow('the request state was altered or sealed with another key');
  });

  it('is taken once, through the store every replica shares', async () => {
    const store = new MemoryStore();
    const { round } = await new ApprovalRounds(store, KEY).open(call, NOW);
    const elsewhere = new ApprovalRounds(store, KEY);
    expect(await elsewhere.take(round)).toBe(true);
    expect(await elsewhere.take(round)).toBe(false);
    expect(await new ApprovalRounds(store, KEY).take(round)).toBe(false);
    // A round whose call digest was swapped is not the one stored.
    const { round: second } = await elsewhere.open(call, NOW);
    expect(await elsewhere.take({ ...second, args: callDigest('xvm_send', { amount: '2', confirm: 'id' }) })).toBe(false);
  });

  it('binds the exact call: another tool, argument or key order changes the digest only where it should', () => {
    const d = callDigest('xvm_send', { amount: '1', to: 'X-a' });
    expect(callDigest('xvm_send', { to: 'X-a', amount: '1' })).toBe(d);
    expect(callDigest('xvm_send', { amount: '2', to: 'X-a' })).not.toBe(d);
    expect(callDigest('cx_export', { amount: '1', to: 'X-a' })).not.toBe(d);
  });
});
