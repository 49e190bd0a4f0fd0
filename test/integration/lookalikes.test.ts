import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cb58Encode } from '../../src/codec/cb58.js';
import { addAsset, fund } from '../../src/devnet/state/index.js';
import { inMemoryStack, type Stack } from '../helpers/stack.js';

/**
 * Issue 34, look-alikes: an asset whose symbol or name imitates the native "CAM" / "Camino" with
 * any confusable of the UTS #39 data (the table the unhomoglyph package ships: character ->
 * prototype) is marked "NOT the native CAM" wherever its balance is shown. The attack that got
 * through: "ϹΑΜ" (Greek U+03F9 U+0391 U+039C), since NFKC turns lunate sigma Ϲ into Σ before the
 * skeleton is taken. Every confusable of each letter is tried in its place, one at a time.
 */
const CONFUSABLES = createRequire(import.meta.url)('unhomoglyph/data.json') as Record<string, string>;

/** Every character the UTS #39 data maps to `letter` (either case; "m" is "rn" in the data). */
function confusablesOf(letter: string): string[] {
  const prototypes = new Set([letter.toUpperCase(), letter.toLowerCase(), ...(letter.toLowerCase() === 'm' ? ['rn'] : [])]);
  return Object.keys(CONFUSABLES).filter((ch) => prototypes.has(CONFUSABLES[ch]!) && ch !== letter);
}

/** `word` with its letter at `at` replaced by each of that letter's confusables. */
function variants(word: string): string[] {
  return [...word].flatMap((letter, at) => confusablesOf(letter).map((ch) => [...word.slice(0, at)].join('') + ch + [...word].slice(at + 1).join('')));
}

const SYMBOLS = ['\u03F9\u0391\u039C', ...variants('CAM')];
const NAMES = variants('Camino');

describe('look-alikes of the native symbol and name, over the UTS #39 confusables', () => {
  let stack: Stack;
  let holder: string;
  const ids = new Map<string, string>();
  beforeAll(async () => {
    stack = await inMemoryStack({});
    const state = stack.devnet.state;
    holder = state.users.get('devnet')!.keys[0]!.x;
    let n = 0;
    const add = (symbol: string, name: string) => {
      n++;
      const seed = new Uint8Array(32);
      new DataView(seed.buffer).setUint32(0, 0xc0de0000 + n);
      const txID = cb58Encode(seed);
      addAsset(state, { txID, name, symbol, denomination: 0, kind: 'fixedCap' });
      fund(state, 'X', holder, [7n], { assetID: txID });
      ids.set(`${symbol}|${name}`, txID);
    };
    for (const symbol of SYMBOLS) add(symbol, 'Token');
    for (const name of NAMES) add('TKN', name);
  });
  afterAll(() => stack.close());

  it('the table holds every confusable of C, A and M and of each letter of "Camino"', () => {
    // Counts from the data itself; a table that lost its letters would test nothing.
    for (const letter of ['C', 'A', 'M', 'i', 'n', 'o']) expect(confusablesOf(letter).length, letter).toBeGreaterThan(10);
    expect(SYMBOLS).toContain('\u03F9AM');
    expect(SYMBOLS).toContain('C\u0391M');
  });

  it('marks every look-alike symbol as NOT the native CAM where its balance is shown', async () => {
    const missed: string[] = [];
    for (const symbol of SYMBOLS) {
      const r = await stack.call('xvm_getBalance', { address: holder, assetID: ids.get(`${symbol}|Token`)! });
      expect(r.isError, r.text).toBe(false);
      if (!r.text.includes('(NOT the native CAM')) missed.push(symbol);
    }
    expect(missed).toEqual([]);
  });

  it('marks every look-alike of the name "Camino" as NOT the native CAM', async () => {
    const missed: string[] = [];
    for (const name of NAMES) {
      const r = await stack.call('xvm_getBalance', { address: holder, assetID: ids.get(`TKN|${name}`)! });
      if (!r.text.includes('(NOT the native CAM')) missed.push(name);
    }
    expect(missed).toEqual([]);
  });

  it('cuts combining marks stacked beyond two on a letter from stranger text', async () => {
    const state = stack.devnet.state;
    const txID = cb58Encode(new Uint8Array(32).fill(0x5e));
    addAsset(state, { txID, name: `Zalgo${'\u0301'.repeat(127)}Coin`, symbol: `Z${'\u0300\u0301\u0302\u0303'.repeat(8)}`, denomination: 0, kind: 'fixedCap' });
    fund(state, 'X', holder, [1n], { assetID: txID });
    const r = await stack.call('xvm_getBalance', { address: holder, assetID: txID });
    expect(r.isError, r.text).toBe(false);
    const all = JSON.stringify([r.text, r.structured]);
    expect(all).not.toMatch(/\p{M}{3}/u);
    expect(r.text).toContain('"Z\u0300\u0301"');
  });
});
