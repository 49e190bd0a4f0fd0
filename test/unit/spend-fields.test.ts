import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { formatChainAddress } from '../../src/codec/index.js';
import { addressStateField, assetName, denominationField, fromField, memoField, minterSets, stateName, symbolField } from '../../src/spend/fields.js';

/** Input fields of the spend tier: the limits a person's input is held to, and the refusal text. */

const xAddr = (seed: number) => formatChainAddress('X', 'camino', new Uint8Array(20).fill(seed));

/** The messages of a refused parse, with their paths; [] when the value was accepted. */
function refusals(schema: z.ZodType, value: unknown): Array<{ path: PropertyKey[]; message: string }> {
  const r = schema.safeParse(value);
  return r.success ? [] : r.error.issues.map((i) => ({ path: i.path, message: i.message }));
}

describe('memoField', () => {
  it('accepts exactly 256 bytes of ASCII and refuses 257', () => {
    expect(memoField.parse('a'.repeat(256))).toBe('a'.repeat(256));
    expect(refusals(memoField, 'a'.repeat(257))).toEqual([{ path: [], message: 'must be at most 256 bytes (UTF-8)' }]);
  });

  it('counts UTF-8 bytes, not characters: 128 two-byte characters fit, one more does not', () => {
    expect(memoField.parse('é'.repeat(128))).toBe('é'.repeat(128));
    expect(refusals(memoField, 'é'.repeat(129))).toEqual([{ path: [], message: 'must be at most 256 bytes (UTF-8)' }]);
  });

  it('counts three-byte characters: 85 euro signs and one letter are 256 bytes, two letters are 257', () => {
    expect(memoField.parse(`${'€'.repeat(85)}a`)).toBe(`${'€'.repeat(85)}a`);
    expect(refusals(memoField, `${'€'.repeat(85)}ab`)).toEqual([{ path: [], message: 'must be at most 256 bytes (UTF-8)' }]);
  });

  it('counts a four-byte emoji as four bytes', () => {
    expect(memoField.parse(`${'😀'.repeat(64)}`)).toBe('😀'.repeat(64));
    expect(refusals(memoField, `${'😀'.repeat(64)}a`)).toEqual([{ path: [], message: 'must be at most 256 bytes (UTF-8)' }]);
  });

  it('is optional', () => {
    expect(memoField.parse(undefined)).toBeUndefined();
  });
});

describe('the count and length limits of the spec', () => {
  const accepted = (schema: z.ZodType, value: unknown) => expect(refusals(schema, value)).toEqual([]);
  const refused = (schema: z.ZodType, value: unknown) => expect(refusals(schema, value)).not.toEqual([]);

  it('from: 1 to 64 addresses of the given chains, or none at all', () => {
    const from = fromField(['X']);
    for (const n of [1, 2, 64]) accepted(from, Array.from({ length: n }, (_, i) => xAddr(i + 1)));
    accepted(from, undefined);
    refused(from, []);
    refused(from, Array.from({ length: 65 }, (_, i) => xAddr(i + 1)));
  });

  it('symbol: 0 to 4 characters, saying so', () => {
    for (const v of ['', 'A', 'ABCD']) accepted(symbolField, v);
    expect(refusals(symbolField, 'ABCDE')).toEqual([{ path: [], message: 'must be 0 to 4 characters' }]);
  });

  it('asset name: 1 to 128 characters', () => {
    for (const v of ['A', 'ab', 'n'.repeat(128)]) accepted(assetName, v);
    refused(assetName, '');
    refused(assetName, 'n'.repeat(129));
  });

  it('denomination: a whole number from 0 to 32, optional', () => {
    for (const v of [0, 1, 9, 32, undefined]) accepted(denominationField, v);
    for (const v of [-1, 33, 1.5]) refused(denominationField, v);
  });

  it('minters: 1 to 64 per set, 1 to 16 sets', () => {
    const set = (n: number) => ({ minters: Array.from({ length: n }, (_, i) => xAddr(i + 1)), threshold: 1 });
    accepted(minterSets, [set(2)]);
    accepted(minterSets, [set(64)]);
    refused(minterSets, [set(0)]);
    refused(minterSets, [set(65)]);
    accepted(minterSets, [set(1), set(1)]);
    accepted(minterSets, Array.from({ length: 16 }, () => set(1)));
    refused(minterSets, []);
    refused(minterSets, Array.from({ length: 17 }, () => set(1)));
  });

  it('minter set threshold: 2 of 3 minters is fine, and a set takes no other keys', () => {
    accepted(minterSets, [{ minters: [xAddr(1), xAddr(2), xAddr(3)], threshold: 2 }]);
    refused(minterSets, [{ minters: [xAddr(1)], threshold: 1, extra: true }]);
  });
});

describe('minterSets', () => {
  const two = [xAddr(1), xAddr(2)];

  it('accepts a threshold equal to the number of minters, and 1', () => {
    expect(minterSets.parse([{ minters: two, threshold: 2 }])).toEqual([{ minters: two, threshold: 2 }]);
    expect(minterSets.parse([{ minters: two, threshold: 1 }])).toEqual([{ minters: two, threshold: 1 }]);
  });

  it('refuses a threshold above the number of minters, naming the threshold', () => {
    expect(refusals(minterSets, [{ minters: two, threshold: 3 }])).toEqual([
      { path: [0, 'threshold'], message: 'threshold must be between 1 and the number of minters' },
    ]);
  });

  it('checks every set, naming the one that fails', () => {
    expect(refusals(minterSets, [{ minters: two, threshold: 2 }, { minters: [xAddr(3)], threshold: 2 }])).toEqual([
      { path: [1, 'threshold'], message: 'threshold must be between 1 and the number of minters' },
    ]);
  });

  it('refuses a threshold of 0', () => {
    expect(refusals(minterSets, [{ minters: two, threshold: 0 }]).map((r) => r.path)).toEqual([[0, 'threshold']]);
  });
});

describe('addressStateField', () => {
  it('turns a state name into its number', () => {
    expect(addressStateField.parse('AddressStateKycVerified')).toBe(32);
    expect(addressStateField.parse('AddressStateRoleAdmin')).toBe(0);
    expect(addressStateField.parse('AddressStateNodeDeferred')).toBe(39);
  });

  it('keeps a number of the table as it is', () => {
    expect(addressStateField.parse(32)).toBe(32);
    expect(addressStateField.parse(0)).toBe(0);
    expect(addressStateField.parse(39)).toBe(39);
  });

  it('refuses a number outside the table, listing every state with its number', () => {
    expect(refusals(addressStateField, 5)).toEqual([
      {
        path: [],
        message:
          "expected a state of the spec's table: AddressStateRoleAdmin=0, AddressStateRoleKyc=1, AddressStateKycVerified=32, AddressStateKycExpired=33, AddressStateConsortium=38, AddressStateNodeDeferred=39",
      },
    ]);
  });

  it('refuses an unknown name, the name branch listing the names', () => {
    const r = addressStateField.safeParse('AddressStateBogus');
    const issue = r.error?.issues[0];
    expect(issue?.code).toBe('invalid_union');
    const branches = issue?.code === 'invalid_union' ? issue.errors.map((e) => e.map((i) => i.message)) : [];
    expect(branches[0]).toEqual([
      'Invalid option: expected one of "AddressStateRoleAdmin"|"AddressStateRoleKyc"|"AddressStateKycVerified"|"AddressStateKycExpired"|"AddressStateConsortium"|"AddressStateNodeDeferred"',
    ]);
  });
});

describe('stateName', () => {
  it('names each state of the table by its number', () => {
    expect(stateName(0)).toBe('AddressStateRoleAdmin');
    expect(stateName(1)).toBe('AddressStateRoleKyc');
    expect(stateName(32)).toBe('AddressStateKycVerified');
    expect(stateName(33)).toBe('AddressStateKycExpired');
    expect(stateName(38)).toBe('AddressStateConsortium');
    expect(stateName(39)).toBe('AddressStateNodeDeferred');
  });

  it('answers the number itself for a state outside the table', () => {
    expect(stateName(7)).toBe('7');
    expect(stateName(40)).toBe('40');
  });
});
