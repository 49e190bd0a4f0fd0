import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

// The static pass's ignorer (tools/mutation-narrow.ts): a node stays only where it holds a wanted place.
const dir = mkdtempSync(join(tmpdir(), 'narrow-'));
const placesFile = join(dir, 'places.json');
writeFileSync(placesFile, JSON.stringify({ 'src/a.ts': [[10, 4, 10, 20]] }));
process.env.CHAIN_MCP_MUTANT_PLACES = placesFile;
const { strykerPlugins } = await import('../../tools/mutation-narrow.js');
const ignorer = strykerPlugins[0]!.value;

const node = (file: string, sl: number, sc: number, el: number, ec: number) => ({
  node: { loc: { start: { line: sl, column: sc }, end: { line: el, column: ec } } },
  hub: { file: { opts: { filename: `/sandbox/${file}` } } },
});

describe('the static pass narrows to the wanted places', () => {
  afterAll(() => {
    delete process.env.CHAIN_MCP_MUTANT_PLACES;
  });
  it('keeps the wanted node and the nodes that enclose it', () => {
    expect(ignorer.shouldIgnore(node('src/a.ts', 10, 4, 10, 20))).toBeUndefined();
    expect(ignorer.shouldIgnore(node('src/a.ts', 9, 0, 12, 1))).toBeUndefined();
    expect(ignorer.shouldIgnore(node('src/a.ts', 10, 0, 10, 20))).toBeUndefined();
  });
  it('leaves out a node nested in the wanted one, and one beside it', () => {
    expect(ignorer.shouldIgnore(node('src/a.ts', 10, 5, 10, 20))).toMatch(/not a place/);
    expect(ignorer.shouldIgnore(node('src/a.ts', 10, 4, 10, 19))).toMatch(/not a place/);
    expect(ignorer.shouldIgnore(node('src/a.ts', 11, 0, 11, 30))).toMatch(/not a place/);
  });
  it('leaves files without wanted places alone', () => {
    expect(ignorer.shouldIgnore(node('src/b.ts', 11, 0, 11, 30))).toBeUndefined();
  });
});
