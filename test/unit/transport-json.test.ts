import { describe, expect, it } from 'vitest';
import { parseNodeJson } from '../../src/transport/json.js';

describe('parseNodeJson: node and indexer answers without lost digits', () => {
  it('keeps integers beyond 2^53 as their decimal digits, anywhere in the answer', () => {
    const text = '{"a":18446744073709551615,"b":[9007199254740993,-9007199254740995],"c":{"d":9007199254740992,"m":9007199254740991}}';
    expect(parseNodeJson(text)).toEqual({ a: '18446744073709551615', b: ['9007199254740993', '-9007199254740995'], c: { d: '9007199254740992', m: 9007199254740991 } });
  });

  it('leaves safe integers, fractions, strings, booleans and null as JSON.parse does', () => {
    const text = '{"n":12,"f":99.98,"e":1.5e3,"s":"12345678901234567890","t":true,"z":null,"long":0.12345678901234567}';
    expect(parseNodeJson(text)).toEqual(JSON.parse(text));
  });

  it('refuses what is not JSON', () => {
    expect(() => parseNodeJson('{"a":1')).toThrow();
    expect(() => parseNodeJson('{"a":12345678901234567890')).toThrow();
  });
});
