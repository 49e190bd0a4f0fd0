import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CATALOGUE } from '../../src/catalogue/index.js';
import { TOOL_TABLE_DOC, withToolTable } from '../../tools/readme-table.js';

const ROOT = join(import.meta.dirname, '..', '..');

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens. */
function anchors(markdown: string): Set<string> {
  return new Set([...markdown.matchAll(/^#{1,6} (.+)$/gm)].map((m) => m[1]!.toLowerCase().replace(/[^a-z0-9 _-]/g, '').replace(/ /g, '-')));
}

describe('README', () => {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');

  it(`${TOOL_TABLE_DOC} has the tool table of the current catalogue (run npm run readme after changing it)`, () => {
    const doc = readFileSync(join(ROOT, TOOL_TABLE_DOC), 'utf8');
    expect(withToolTable(doc, CATALOGUE)).toBe(doc);
  });

  it('reads in five minutes: at most 15 KB', () => {
    expect(Buffer.byteLength(readme)).toBeLessThanOrEqual(15 * 1024);
  });

  it('every relative link in the README and docs/ points at a file (and a heading) that exists', () => {
    const pages = ['README.md', ...readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];
    const broken: string[] = [];
    for (const page of pages) {
      const text = readFileSync(join(ROOT, page), 'utf8');
      for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^[a-z]+:/i.test(target!)) continue;
        const [file, hash] = target!.split('#');
        const path = file ? join(ROOT, dirname(page), file) : join(ROOT, page);
        if (relative(ROOT, path).startsWith('..')) broken.push(`${page}: ${target} (outside the repository)`);
        else if (!existsSync(path)) broken.push(`${page}: ${target}`);
        else if (hash && path.endsWith('.md') && !anchors(readFileSync(path, 'utf8')).has(hash)) broken.push(`${page}: ${target} (no such heading)`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('no page names a file outside the repository (the team\'s shared folder is not shipped)', () => {
    const pages = ['README.md', ...readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];
    const outside = pages.filter((page) => /(^|[\s`(/])shared\/(REAL-WIRE|DESIGN|STYLE|spec)\b/m.test(readFileSync(join(ROOT, page), 'utf8')));
    expect(outside).toEqual([]);
  });

  it('has the two-command quick start', () => {
    expect(readme).toContain('npm install && npm run demo');
    expect(readme).toContain('npm install && npm test');
  });
});

describe('version', () => {
  it('matches package.json', async () => {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
    const { VERSION } = await import('../../src/version.js');
    expect(VERSION).toBe(pkg.version);
  });
});
