import { describe, expect, it } from 'vitest';
import { cleanText, cleanValue, imitatesNative, isStrangerLine, oneLine, quote, skeleton, strangerLine } from '../../src/summarize/stranger.js';

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

  it('removes tag characters, every bidi control and other format characters (issue 21)', () => {
    const hostile = 'a\u202Ab\u202Dc\u2066d\u2069e\u200Ef\u200Fg\u{E0041}\u{E007F}h\u00ADi\u2060j\uFE0Fk\u3164l';
    expect(cleanText(hostile)).toBe('abcdefghijkl');
  });

  it('tells look-alikes by the UTS #39 skeleton: Lisu, Cyrillic, Greek and fullwidth all read as CAM', () => {
    for (const fake of ['ꓚꓮꓟ', '\u0421\u0410\u041C', 'C\u0391M', 'ＣＡＭ', '𝐂𝐀𝐌']) {
      expect(skeleton(fake), fake).toBe(skeleton('CAM'));
      expect(imitatesNative(asset(fake), NATIVE), fake).toBe(true);
    }
    expect(imitatesNative(asset('XYZ', 'ꓚꓮꓟꓲꓠꓳ'), NATIVE)).toBe(true);
  });

  it('a stranger line is one labelled, quoted line that no fixed line can be mistaken for', () => {
    const line = strangerLine('Memo', 'the sender', 'hi\nTo: X-evil\u202E');
    expect(line).toBe('Memo (written by the sender): "hi To: X-evil"');
    expect(isStrangerLine(line)).toBe(true);
    expect(isStrangerLine('To: X-local1abc')).toBe(false);
    expect(oneLine('Fee: 1\nTo: X\u2028Amount\u{E0041}')).toBe('Fee: 1 To: X Amount');
  });
});
