import { execFileSync } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, rmSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { type BuildOptions, build } from 'esbuild';
import { BUNDLE_ENTRY, ICON } from './gen-manifest.js';
import { megabytes, SIZE_PAGES, writeTarballSizes } from './pack-sizes.js';

/**
 * `npm run pack`: one self-contained ESM file (esbuild; no node_modules needed at run
 * time) next to manifest.json and the icon in bundle/stage, then `mcpb pack` into
 * bundle/chain-mcp.mcpb, then the npm tarball's sizes into the docs (tools/pack-sizes.ts).
 * `node dist/tools/bundle.js --bin` (part of `npm run build`) writes the same file as
 * dist/chain-mcp.js, the package's `bin`.
 */

export interface BundleOptions {
  /** Repository root (holds src/main.ts, manifest.json and node_modules/.bin/mcpb). */
  root: string;
  /** Staging folder; emptied first. */
  stageDir: string;
  /** The .mcpb to write; omitted: stage only. */
  mcpbFile?: string;
}

/** Where `npm run build` writes the single-file server that package.json's `bin` runs. */
export const BIN_FILE = 'dist/chain-mcp.js';

/**
 * esbuild's options for one self-contained ESM file of `entry`: the bin, and (in `npm run bench`)
 * the minimal SDK server it is compared with, bundled the same way.
 */
export function singleFileOptions(entry: string, outfile: string): BuildOptions {
  return {
    entryPoints: [entry],
    outfile,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'esm',
    // Whitespace and comments only: names stay readable in stack traces. Without comments the
    // file is pure ASCII (esbuild escapes non-ASCII in code; a few dependency comments are not),
    // which Node decodes and V8 scans as a one-byte string: about 15 ms less of every start
    // (docs/benchmarks.md). Full minification measured slower to start, not faster.
    minifyWhitespace: true,
    legalComments: 'none',
    logLevel: 'warning',
    // SQLite drivers are the running Node's own (node:sqlite) or an optional native addon beside the
    // package (better-sqlite3, loaded with require at run time); pg's native binding is never used.
    external: ['node:sqlite', 'better-sqlite3', 'pg-native'],
    // CommonJS dependencies (pino, its stream) call require(); give them one in ESM.
    banner: { js: "import { createRequire as __chainMcpRequire } from 'node:module'; const require = __chainMcpRequire(import.meta.url);" },
  };
}

/**
 * One self-contained ESM file of the server (esbuild): one module to read and compile instead of
 * hundreds. Reading and compiling that file is still the largest part of a start (about 12 ms per
 * MB on the bench machine), so what stays out of the start path still counts. The simulator behind
 * --devnet stays in it, behind the dynamic import in src/main.ts, so it is evaluated only when asked for.
 */
export async function buildSingleFile(root: string, outfile: string): Promise<void> {
  await build(singleFileOptions(join(root, 'src/main.ts'), outfile));
  chmodSync(outfile, 0o755);
}

/** Writes the staging folder (manifest.json, icon.png, server/index.mjs) and returns the entry's path. */
export async function stageBundle(opts: BundleOptions): Promise<string> {
  rmSync(opts.stageDir, { recursive: true, force: true });
  mkdirSync(opts.stageDir, { recursive: true });
  const entry = join(opts.stageDir, BUNDLE_ENTRY);
  await buildSingleFile(opts.root, entry);
  copyFileSync(join(opts.root, 'manifest.json'), join(opts.stageDir, 'manifest.json'));
  copyFileSync(join(opts.root, ICON), join(opts.stageDir, ICON));
  return entry;
}

export function packBundle(opts: BundleOptions & { mcpbFile: string }): void {
  mkdirSync(dirname(opts.mcpbFile), { recursive: true });
  const mcpb = join(opts.root, 'node_modules', '@anthropic-ai', 'mcpb', 'dist', 'cli', 'cli.js');
  // stdout of mcpb goes to our stderr: nothing of this tool writes to stdout.
  execFileSync(process.execPath, [mcpb, 'pack', opts.stageDir, opts.mcpbFile], { stdio: ['ignore', 2, 2] });
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const root = process.cwd();
  if (process.argv[2] === '--bin') {
    // `npm run build`: only the bin file.
    await buildSingleFile(root, join(root, BIN_FILE));
  } else {
    const stageDir = join(root, 'bundle', 'stage');
    const mcpbFile = join(root, 'bundle', 'chain-mcp.mcpb');
    const entry = await stageBundle({ root, stageDir });
    packBundle({ root, stageDir, mcpbFile });
    process.stderr.write(`bundle: ${entry} (${Math.round(statSync(entry).size / 1024)} KB)\npacked: ${mcpbFile} (${Math.round(statSync(mcpbFile).size / 1024)} KB)\n`);
    // The npm tarball's sizes in the docs come from here, never from a hand (tools/pack-sizes.ts).
    const sizes = writeTarballSizes(root);
    process.stderr.write(`npm tarball: ${megabytes(sizes.packed)} packed, ${megabytes(sizes.unpacked)} unpacked, written in ${SIZE_PAGES.join(' and ')}\n`);
  }
}
