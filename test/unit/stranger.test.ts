import { describe, expect, it } from 'vitest';
import { cleanText, cleanValue, imitatesNative, imitationWarning, isStrangerLine, oneLine, quote, shortAsset, skeleton, skeletons, strangerLine } from '../../src/summarize/stranger.js';

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

  it('escapes a backslash inside quotes, so the text can never close or bend the quote', () => {
    expect(quote('ends with \\')).toBe('"ends with \\\\"');
    for (const text of ['a\\"b', '\\', 'x\\\\"y"', '"\\n"', 'C:\\path\\"quoted"']) {
      const q = quote(text);
      // A JSON string literal reads back as exactly the cleaned text: no early close, no new escape.
      expect(JSON.parse(q), text).toBe(cleanText(text));
    }
  });

  it('folds compatibility forms first: mathematical and double-struck letters imitate too', () => {
    for (const symbol of ['\u{1D402}\u{1D400}\u{1D40C}', '\u2102AM', '\u{1D554}\u{1D552}\u{1D55E}']) expect(imitatesNative(asset(symbol), NATIVE), symbol).toBe(true);
  });

  it('drops accents: decorated letters imitate too', () => {
    for (const symbol of ['\u00C7\u00C0M', 'C\u0301A\u0308M', '\u0107\u0105\u1E3F']) expect(imitatesNative(asset(symbol), NATIVE), symbol).toBe(true);
  });

  it('maps Greek and Cyrillic look-alikes, each alphabet alone and mixed with Latin', () => {
    const cyrillic = ['\u0421\u0410\u041C', 'C\u0430m', '\u0441\u0430\u043C'];
    const greek = ['C\u0391\u039C', 'c\u03B1\u03BC', 'C\u0391M'];
    for (const symbol of [...cyrillic, ...greek]) expect(imitatesNative(asset(symbol), NATIVE), symbol).toBe(true);
    const avax = { assetID: 'n', assetSymbol: 'AVAX' };
    expect(imitatesNative(asset('\u0391V\u0391\u03A7'), avax)).toBe(true);
    expect(imitatesNative(asset('\u0410V\u0410\u0425'), avax)).toBe(true);
  });

  it('finds the native name anywhere in a longer name, not only at its start', () => {
    const columbus = { assetID: 'n', assetSymbol: 'COL', name: 'Columbus' };
    for (const name of ['Columbus Gold', 'Real Columbus', 'The Columbus Coin', 'wrapped-columbus']) expect(imitatesNative(asset('XYZ', name), columbus), name).toBe(true);
    for (const name of ['Real Camino', 'wrapped CAMINO token']) expect(imitatesNative(asset('XYZ', name), NATIVE), name).toBe(true);
    expect(imitatesNative(asset('XYZ', 'Columbia'), columbus)).toBe(false);
  });

  it('treats "Camino" as the native name when the network gives none', () => {
    const unnamed = { assetID: 'n', assetSymbol: 'CAM' };
    for (const name of ['Camino', 'camino', 'Real Camino Token', '\u0421amino']) expect(imitatesNative(asset('XYZ', name), unnamed), name).toBe(true);
    expect(imitatesNative(asset('XYZ', 'Gold'), unnamed)).toBe(false);
  });

  it('cuts at exactly the cap and trims the ends (mutation survivors, issue 25)', () => {
    expect(cleanText('  a \t\n  b  ')).toBe('a b');
    expect(cleanText('x'.repeat(10), 10)).toBe('x'.repeat(10));
    expect(cleanText('x'.repeat(11), 10)).toBe(`${'x'.repeat(9)}…`);
  });

  it('shortens only an asset ID longer than 12 characters, in the imitation warning too', () => {
    expect(shortAsset('abcdefghijkl')).toBe('abcdefghijkl');
    expect(shortAsset('abcdefghijklm')).toBe('abcd…jklm');
    expect(imitationWarning('abcdefghijklm', { assetID: 'n', assetSymbol: '' })).toBe('(NOT the native asset; asset abcd…jklm)');
    expect(imitationWarning('abc', NATIVE)).toBe('(NOT the native CAM; asset abc)');
  });

  it('reads "rn" as "m" in lower case too: "CArn" imitates CAM (the second pass of the table is in lower case)', () => {
    expect(skeleton('CAM')).toBe(skeleton('CArn'));
    expect(imitatesNative(asset('CArn'), NATIVE)).toBe(true);
  });

  it('the native asset itself is never an imitation; an empty or one-letter name or symbol imitates nothing', () => {
    expect(imitatesNative({ assetID: 'native', symbol: 'CAM', name: 'Camino' }, NATIVE)).toBe(false);
    expect(imitatesNative({ assetID: '', symbol: 'CAM', name: '' }, { ...NATIVE, assetID: '' })).toBe(true);
    expect(imitatesNative(asset('XYZ', ''), { assetID: 'n', assetSymbol: 'CAM' })).toBe(false);
    expect(imitatesNative(asset('C', 'Gold'), { assetID: 'n', assetSymbol: 'C' })).toBe(false);
    expect(imitatesNative(asset('OK', 'Gold'), { assetID: 'n', assetSymbol: 'OK' })).toBe(true);
  });

  it('finds a native name of five letters or more inside a longer one; a shorter one must match whole', () => {
    const native = { assetID: 'n', assetSymbol: 'ABCDE' };
    expect(imitatesNative(asset('XABCDEX', 'Gold'), native)).toBe(true);
    expect(imitatesNative(asset('XABCDX', 'Gold'), { assetID: 'n', assetSymbol: 'ABCD' })).toBe(false);
  });

  it('takes a line as stranger-written only when the label starts it', () => {
    expect(isStrangerLine('Memo (written by the sender): "hi"')).toBe(true);
    expect(isStrangerLine('To: X-local1abc. Memo (written by the sender): "hi"')).toBe(false);
  });

  it('cleans a value made only of hidden characters, and keeps an own "__proto__" key as a plain key', () => {
    expect(cleanValue('\u202E\u200B\u2066')).toBe('');
    expect(cleanValue(['ok', '\u202Eevil'])).toEqual(['ok', 'evil']);
    const parsed = JSON.parse('{"__proto__": {"polluted": "\\u202Eyes"}, "b": 1}') as Record<string, unknown>;
    const clean = cleanValue(parsed);
    expect(Object.getPrototypeOf(clean)).toBe(Object.prototype);
    expect(Object.keys(clean)).toEqual(['__proto__', 'b']);
    expect(Object.getOwnPropertyDescriptor(clean, '__proto__')).toEqual({ value: { polluted: 'yes' }, enumerable: true, writable: true, configurable: true });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('stranger text survivors (issue 44)', () => {
  it('removes the supplementary variation selectors U+E0100-E01EF everywhere: summaries, structured values, approval lines, skeletons', () => {
    const hidden = `C\u{E0100}A\u{E0150}M\u{E01EF}`;
    expect(cleanText(hidden)).toBe('CAM');
    expect(quote(`memo${'\u{E0100}'}`)).toBe('"memo"');
    expect(cleanValue({ symbol: hidden })).toEqual({ symbol: 'CAM' });
    expect(oneLine(`To: X-local1abc\u{E01EF}`)).toBe('To: X-local1abc');
    expect(skeleton(hidden)).toBe(skeleton('CAM'));
    // The range ends at U+E01EF: the next code point is not a selector and stays.
    expect([...cleanText('a\u{E01F0}')]).toHaveLength(2);
  });

  it('cuts combining marks stacked beyond two on a letter in approval lines too', () => {
    const zalgo = `Amount: 5 Z${'\u0300\u0301\u0302\u0303'.repeat(8)} to X-local1abc`;
    expect(oneLine(zalgo)).toBe('Amount: 5 Z\u0300\u0301 to X-local1abc');
    // Two on a letter (Vietnamese) are real text and stay.
    expect(oneLine('Memo: Vi\u00EA\u0323t')).toBe('Memo: Vi\u00EA\u0323t');
    expect(oneLine(`a${'\u0301'.repeat(127)}b`)).toBe('a\u0301\u0301b');
  });

  it('folds I and l in the look-alike check even where the confusables table leaves an "i" ("CAMꞮNO" imitates "Camino")', () => {
    // U+A7AE LATIN CAPITAL LETTER SMALL CAPITAL I and U+A646 CYRILLIC CAPITAL LETTER IOTA reach the skeleton as "i".
    for (const name of ['CAM\uA7AENO', 'Cam\uA646no', 'CAMINO', 'CAMlNO', 'Camino']) {
      expect(skeletons(name), name).toContain(skeleton('Camino'));
      expect(imitatesNative(asset('XYZ', name), NATIVE), name).toBe(true);
    }
    expect(imitatesNative(asset('XYZ', 'CAMERO'), NATIVE)).toBe(false);
  });
});
