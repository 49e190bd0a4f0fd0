import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The npm tarball's sizes in the docs, written by `npm run pack` (tools/bundle.ts) so they cannot
 * drift: each figure sits between inline markers, `<!--packed-->1.1 MB<!--/packed-->`, which
 * Markdown does not show. test/packaging/install.test.ts renders the pages again with the sizes of
 * the tarball it installs and fails when a checked-in page differs.
 */

export interface TarballSizes {
  /** The .tgz file's size in bytes. */
  packed: number;
  /** The sum of its files' sizes: what `npm install` puts in node_modules/chain-mcp. */
  unpacked: number;
}

/** The pages that state the sizes. */
export const SIZE_PAGES = ['README.md', 'docs/publishing.md'] as const;

/** A size as the docs say it: megabytes (10^6 bytes) to a tenth. */
export const megabytes = (bytes: number): string => `${(bytes / 1_000_000).toFixed(1)} MB`;

/** Replaces the text between a figure's inline markers; a page that has none of them is left alone. */
export function withInline(page: string, name: string, body: string): string {
  const start = `<!--${name}-->`;
  const end = `<!--/${name}-->`;
  let out = '';
  let at = 0;
  for (;;) {
    const a = page.indexOf(start, at);
    if (a < 0) return out + page.slice(at);
    const b = page.indexOf(end, a + start.length);
    if (b < 0) throw new Error(`an unclosed ${start} marker (no ${end} after it)`);
    out += `${page.slice(at, a)}${start}${body}${end}`;
    at = b + end.length;
  }
}

/** The page with every packed and unpacked figure set to these sizes. */
export function withSizes(page: string, sizes: TarballSizes): string {
  return withInline(withInline(page, 'packed', megabytes(sizes.packed)), 'unpacked', megabytes(sizes.unpacked));
}

/** What `npm pack` would write now (nothing is written; the package's scripts do not run). */
export function measureTarball(root: string): TarballSizes {
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const out = execFileSync(npm, ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], shell: process.platform === 'win32' });
  const [pack] = JSON.parse(out) as Array<{ size: number; unpackedSize: number }>;
  return { packed: pack!.size, unpacked: pack!.unpackedSize };
}

/**
 * Measures the tarball and writes its sizes into SIZE_PAGES. The README ships in the tarball, so
 * writing it can move the sizes: measured again until they stop changing (bounded).
 */
export function writeTarballSizes(root: string): TarballSizes {
  let sizes = measureTarball(root);
  for (let round = 0; round < 3; round++) {
    let changed = false;
    for (const name of SIZE_PAGES) {
      const path = join(root, name);
      const page = readFileSync(path, 'utf8');
      if (!page.includes('<!--packed-->')) throw new Error(`${name} lacks the <!--packed--> marker around its tarball size`);
      const next = withSizes(page, sizes);
      if (next !== page) {
        writeFileSync(path, next);
        changed = true;
      }
    }
    if (!changed) return sizes;
    sizes = measureTarball(root);
  }
  return sizes;
}
