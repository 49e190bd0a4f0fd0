import { describe, expect, it } from 'vitest';
import { formatChainAddress } from '../../src/codec/index.js';
import { InputError } from '../../src/errors.js';
import { addressBytes } from '../../src/local/spends.js';

/** src/local/spends.ts's exported helpers, where a caller other than a schema-checked tool can reach them. */

describe('addressBytes', () => {
  it("gives an address's 20 bytes, whichever chain it names", () => {
    const bytes = Uint8Array.from({ length: 20 }, (_, i) => i + 1);
    expect(addressBytes('to', formatChainAddress('X', 'kopernikus', bytes))).toEqual(bytes);
    expect(addressBytes('rewardAddress', formatChainAddress('P', 'camino', bytes))).toEqual(bytes);
  });

  it('refuses an address that does not parse as an input error naming the field, with the reason', () => {
    let caught: unknown;
    try {
      addressBytes('outputs', 'X-kopernikus1notanaddress');
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(InputError);
    expect((caught as InputError).field).toBe('outputs');
    expect((caught as InputError).message).toMatch(/^Invalid input: outputs: .+/);
  });
});
