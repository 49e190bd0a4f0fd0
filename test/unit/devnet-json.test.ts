import { describe, expect, it } from 'vitest';
import { parseJsonExact } from '../../src/devnet/rpc.js';

describe('devnet JSON parsing', () => {
  it('keeps uint64 integers exact and leaves strings and small numbers alone', () => {
    expect(parseJsonExact('{"a":18446744073709551615,"b":"12345678901234567890","c":[1,2.5],"d":"x\\"99999999999999999"}')).toEqual({
      a: '18446744073709551615',
      b: '12345678901234567890',
      c: [1, 2.5],
      d: 'x"99999999999999999',
    });
  });
});
