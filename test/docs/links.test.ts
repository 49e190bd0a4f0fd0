import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');
const PAGES = ['README.md', ...readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to dashes. */
function anchor(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[`*_]/g, '')
    .replace(/[^\p{L}\p{N} -]/gu, '')
    .replace(/ /g, '-');
}

function anchorsOf(page: string): Set<string> {
  const text = readFileSync(join(ROOT, page), 'utf8').replace(/```[\s\S]*?```/g, '');
  return new Set([...text.matchAll(/^#{1,6} (.+)$/gm)].map((m) => anchor(m[1]!)));
}

/** Markdown links outside code: `[text](target)`. */
function linksOf(page: string): string[] {
  const text = readFileSync(join(ROOT, page), 'utf8')
    .replace(/```[\s\S]*?```/g, '')
    .replace(/`[^`\n]*`/g, '');
  return [...text.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]!);
}

describe('the docs link only to what the repository holds', () => {
  it.each(PAGES)('%s: every relative link resolves, anchors included', (page) => {
    for (const link of linksOf(page)) {
      if (/^[a-z]+:/.test(link)) continue;
      const [path, hash] = link.split('#') as [string, string | undefined];
      const target = path === '' ? page : normalize(join(dirname(page), path));
      expect(relative(ROOT, join(ROOT, target)).startsWith('..'), `${page} -> ${link} leaves the repository`).toBe(false);
      expect(existsSync(join(ROOT, target)), `${page} -> ${link}`).toBe(true);
      if (hash && target.endsWith('.md')) expect(anchorsOf(target).has(hash), `${page} -> ${link}: no such heading`).toBe(true);
    }
  });

  it.each(PAGES)('%s: names no file outside the repository (the shared folder of the team)', (page) => {
    expect(readFileSync(join(ROOT, page), 'utf8')).not.toMatch(/(^|[\s`(])(\.\.\/)*shared\/(REAL-WIRE|DESIGN|STYLE|spec)/m);
  });
});
