import { describe, expect, it } from 'vitest';
import { stringifyJson } from '../../src/transport/jsonrpc.js';

describe('stringifyJson', () => {
  it('writes bigints as exact bare integers', () => {
    expect(stringifyJson({ amount: 18446744073709551615n, n: [1n, 2] })).toBe('{"amount":18446744073709551615,"n":[1,2]}');
  });
  it('leaves strings that look like the marker alone', () => {
    expect(stringifyJson({ memo: 'big:12' })).toBe('{"memo":"big:12"}');
  });
});
