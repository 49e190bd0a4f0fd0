import { describe, expect, it } from 'vitest';
import { cleanText, cleanValue, imitatesNative, quote } from '../../src/summarize/stranger.js';

const NATIVE = { assetID: 'native', assetSymbol: 'CAM', name: 'Camino' };
const asset = (symbol: string, name = 'Token') => ({ assetID: 'other', symbol, name });

describe('stranger-written text', () => {
  it('quotes, strips hidden and control characters, folds space and caps with a visible cut', () => {
    expect(quote('a\u202Eb\u200Bc\nd\te')).toBe('"abc d e"');
    expect(quote('say "hi"')).toBe('"say \\"hi\\""');
    expect(cleanText('x'.repeat(100), 10)).toBe(`${'x'.repeat(9)}…`);
  });

  it('structured values keep layout but lose hidden characters, at any depth', () => {
    expect(cleanValue({ a: ['x\u2066y\u0007', { b: 'line\nnext' }], n: 5 })).toEqual({ a: ['xy', { b: 'line\nnext' }], n: 5 });
  });

  it('recognises imitations of the native asset', () => {
    for (const symbol of ['CAM', 'cam', 'Cam', '\u0421\u0410\u041C', 'ＣＡＭ', 'C\u200BAM', 'C.A.M']) expect(imitatesNative(asset(symbol), NATIVE), symbol).toBe(true);
    expect(imitatesNative(asset('GLD', 'Camino Gold'), NATIVE)).toBe(true);
    expect(imitatesNative(asset('XYZ', 'CAMINO'), NATIVE)).toBe(true);
    for (const symbol of ['GLD', 'CAMP', 'SLV']) expect(imitatesNative(asset(symbol), NATIVE), symbol).toBe(false);
    expect(imitatesNative({ assetID: 'native', symbol: 'CAM', name: 'Camino' }, NATIVE)).toBe(false);
  });

  it('follows the network native symbol, never a hard-coded one', () => {
    const local = { assetID: 'n', assetSymbol: 'AVAX' };
    expect(imitatesNative(asset('AVAX'), local)).toBe(true);
    expect(imitatesNative(asset('ΑVΑΧ'), local)).toBe(true);
  });
});
