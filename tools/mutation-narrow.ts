/**
 * A Stryker ignorer (`narrow`) for the static pass of tools/mutate.ts. Stryker selects the mutants of
 * a `mutate` range by inclusion, so the range of a block or a catalogue entry's object brings every
 * mutant nested inside it, already detected or not; the static pass, which runs each mutant against
 * whole suites with a fresh module graph, tested 673 mutants to decide 238. This ignorer leaves out
 * every node whose source range holds none of the wanted places (the file named by NARROW_ENV, a JSON
 * object of file to `[startLine, startColumn, endLine, endColumn]` lists, lines 1-based and columns
 * 0-based as babel counts them); a wanted node itself stays, so only mutants at a wanted place, or
 * nested in one's node but enclosing another, are tested. Without NARROW_ENV nothing is ignored.
 */
import { readFileSync } from 'node:fs';

export const NARROW_ENV = 'CHAIN_MCP_MUTANT_PLACES';

type Place = readonly [number, number, number, number];

interface Located {
  node: { loc?: { start: { line: number; column: number }; end: { line: number; column: number } } | null };
  hub?: { file?: { opts?: { filename?: string } } };
}

let places: Record<string, Place[]> | undefined;

function wanted(): Record<string, Place[]> {
  if (!places) {
    const file = process.env[NARROW_ENV];
    places = file ? (JSON.parse(readFileSync(file, 'utf8')) as Record<string, Place[]>) : {};
  }
  return places;
}

const before = (l1: number, c1: number, l2: number, c2: number) => l1 < l2 || (l1 === l2 && c1 <= c2);

const ignorer = {
  shouldIgnore(path: Located): string | undefined {
    const loc = path.node.loc;
    const filename = path.hub?.file?.opts?.filename?.replaceAll('\\', '/');
    if (!loc || !filename) return undefined;
    const all = wanted();
    if (Object.keys(all).length === 0) return undefined;
    const mine = Object.entries(all).find(([file]) => filename.endsWith(`/${file}`) || filename === file)?.[1];
    if (!mine) return undefined;
    const holdsOne = mine.some(
      ([sl, sc, el, ec]) => before(loc.start.line, loc.start.column, sl, sc) && before(el, ec, loc.end.line, loc.end.column),
    );
    return holdsOne ? undefined : 'not a place the static pass re-checks';
  },
};

export const strykerPlugins = [{ kind: 'Ignore', name: 'narrow', value: ignorer }];
