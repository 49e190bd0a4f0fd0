import { execFileSync } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { type BuildOptions, build, type Metafile, type Plugin } from 'esbuild';
import { BUNDLE_ENTRY, ICON } from './gen-manifest.js';
import { megabytes, SIZE_PAGES, writeTarballSizes } from './pack-sizes.js';

/**
 * `npm run pack`: the server as ESM split into an entry and its chunks (esbuild; no node_modules
 * needed at run time) next to manifest.json and the icon in bundle/stage, then `mcpb pack` into
 * bundle/chain-mcp.mcpb, then the npm tarball's sizes into the docs (tools/pack-sizes.ts).
 * `node dist/tools/bundle.js --bin` (part of `npm run build`) writes the same build as
 * dist/chain-mcp.js (the package's `bin`) and dist/chunks/.
 */

export interface BundleOptions {
  /** Repository root (holds src/main.ts, manifest.json and node_modules/.bin/mcpb). */
  root: string;
  /** Staging folder; emptied first. */
  stageDir: string;
  /** The .mcpb to write; omitted: stage only. */
  mcpbFile?: string;
}

/** Where `npm run build` writes the entry that package.json's `bin` runs; its chunks go to CHUNK_DIR beside it. */
export const BIN_FILE = 'dist/chain-mcp.js';
/** The chunks' folder, beside the entry (in dist/ and in the .mcpb's server/ alike). */
export const CHUNK_DIR = 'chunks';

/**
 * esbuild's options for `entry` as one ESM entry file plus the chunks it imports, written to
 * `outdir`: the bin, and (in `npm run bench`) the minimal SDK server it is compared with, bundled
 * the same way. Every dynamic import() becomes a chunk of its own that is read and compiled only
 * when that import runs, so a start reads what it needs (docs/benchmarks.md, "Cold start").
 * The entry is written as `<name>.mjs`; {@link bundle} renames it to what the caller asked for.
 */
export function bundleOptions(entry: string, outdir: string, name: string): BuildOptions {
  return {
    entryPoints: { [name]: entry },
    outdir,
    bundle: true,
    splitting: true,
    chunkNames: `${CHUNK_DIR}/[name]-[hash]`,
    // .mjs: ESM wherever the files land, with no package.json to say so (the .mcpb's server/
    // folder) and no syntax detection by Node.
    outExtension: { '.js': '.mjs' },
    platform: 'node',
    target: 'node20',
    format: 'esm',
    // Whitespace and comments only: names stay readable in stack traces. Without comments the
    // files are pure ASCII (esbuild escapes non-ASCII in code; a few dependency comments are not),
    // which Node decodes and V8 scans as one-byte strings: about 15 ms less of every start
    // (docs/benchmarks.md). Full minification measured slower to start, not faster.
    minifyWhitespace: true,
    legalComments: 'none',
    logLevel: 'warning',
    // SQLite drivers are the running Node's own (node:sqlite) or an optional native addon beside the
    // package (better-sqlite3, loaded with require at run time); pg's native binding is never used.
    external: ['node:sqlite', 'better-sqlite3', 'pg-native'],
    // CommonJS dependencies (pino, its stream) call require(); give them one in ESM. The banner
    // opens every output file, so each chunk has its own.
    banner: { js: "import { createRequire as __chainMcpRequire } from 'node:module'; const require = __chainMcpRequire(import.meta.url);" },
  };
}

/**
 * Bundles `entry` into `outfile` and a chunks folder beside it (emptied first: chunk names carry
 * a hash, so an old build's chunks would stay behind). Returns the files written, relative to
 * `outfile`'s folder.
 */
export async function bundle(entry: string, outfile: string): Promise<string[]> {
  const outdir = dirname(outfile);
  const name = basename(outfile).replace(/\.[cm]?js$/, '');
  rmSync(join(outdir, CHUNK_DIR), { recursive: true, force: true });
  const options = bundleOptions(entry, outdir, name);
  // A first pass writes nothing: it finds the modules the start loads and the lazily loaded ones.
  const scan = await build({ ...options, write: false, metafile: true, logLevel: 'silent' });
  const result = await build({ ...options, metafile: true, plugins: [oneStartChunk(startGraph(scan.metafile, entry))] });
  const written = join(outdir, `${name}.mjs`);
  if (written !== outfile) renameSync(written, outfile);
  return Object.keys(result.metafile.outputs).map((f) => {
    const file = relative(outdir, resolve(f));
    return file === `${name}.mjs` ? basename(outfile) : file;
  });
}

/** What {@link oneStartChunk} needs of the module graph, as absolute paths. */
export interface StartGraph {
  /** The entry's own static imports: what loads before anything else runs. */
  entryImports: string[];
  /** Targets of a dynamic import() that the start does not load statically. */
  lazyTargets: Set<string>;
  /** The entry's folder. */
  dir: string;
}

/** The start's modules and the lazily loaded ones, from a build's metafile (paths relative to the working directory). */
export function startGraph(meta: Metafile, entry: string): StartGraph {
  const abs = (p: string) => resolve(p);
  const key = Object.keys(meta.inputs).find((k) => abs(k) === resolve(entry));
  if (key === undefined) throw new Error(`bundle: ${entry} is not in the build`);
  const isStatic = (kind: string) => kind !== 'dynamic-import';
  const start = new Set<string>([key]);
  const queue = [key];
  const lazy = new Set<string>();
  for (let i = 0; i < queue.length; i++) {
    for (const imp of meta.inputs[queue[i]!]?.imports ?? []) {
      if (imp.external) continue;
      if (!isStatic(imp.kind)) lazy.add(imp.path);
      else if (!start.has(imp.path)) {
        start.add(imp.path);
        queue.push(imp.path);
      }
    }
  }
  // Dynamic imports made by lazily loaded modules too: every target of one in the whole build.
  for (const input of Object.values(meta.inputs)) for (const imp of input.imports) if (!imp.external && !isStatic(imp.kind)) lazy.add(imp.path);
  const entryImports = (meta.inputs[key]?.imports ?? []).filter((imp) => !imp.external && isStatic(imp.kind)).map((imp) => abs(imp.path));
  return { entryImports, dir: dirname(resolve(entry)), lazyTargets: new Set([...lazy].filter((p) => !start.has(p) && /\.ts$/.test(p) && !p.includes('node_modules/')).map(abs)) };
}

/** The module {@link oneStartChunk} adds to each lazily loaded one. */
const START = 'chain-mcp:start';

/**
 * Puts the modules a start loads into one chunk instead of about twenty. esbuild gives a module
 * the chunk of the exact set of entries (the entry and each dynamic import's target) that reach
 * it, so the start's modules were cut by every lazily loaded part that shares a few of them, and
 * each file costs a start about a millisecond whatever its size (docs/benchmarks.md, "Cold
 * start"). Here each lazily loaded module of the sources also imports the entry's own static
 * imports (the module START), so all of them reach the start's modules alike and esbuild writes
 * those into one chunk. Nothing runs sooner or later than before: a dynamic import runs only
 * after the entry's static imports have loaded, so the added import finds them loaded already,
 * and a module the start loads statically is never changed. Only the build changes; the sources
 * and the tsc output are as written.
 */
export function oneStartChunk(graph: StartGraph): Plugin {
  return {
    name: 'one-start-chunk',
    setup(b) {
      b.onResolve({ filter: /^chain-mcp:start$/ }, () => ({ path: 'start', namespace: START }));
      b.onLoad({ filter: /.*/, namespace: START }, () => ({ contents: graph.entryImports.map((p) => `import ${JSON.stringify(p)};`).join('\n'), resolveDir: graph.dir, loader: 'ts' }));
      b.onLoad({ filter: /\.ts$/ }, async (args) => {
        if (!graph.lazyTargets.has(args.path)) return undefined;
        return { contents: `${await readFile(args.path, 'utf8')}\nimport ${JSON.stringify(START)};\n`, loader: 'ts' };
      });
    },
  };
}

/**
 * The server as an entry and its chunks (esbuild): a few dozen modules to read and compile instead
 * of hundreds, and of them only the ones a start needs. Reading and compiling is still a large part
 * of a start (about 12 ms per MB on the bench machine), so what stays out of the start path counts:
 * the simulator behind --devnet, the catalogue, the HTTP stack, the signer are chunks that a
 * read-only stdio start never reads.
 */
export async function buildBin(root: string, outfile: string): Promise<string[]> {
  const files = await bundle(join(root, 'src/main.ts'), outfile);
  chmodSync(outfile, 0o755);
  return files;
}

/**
 * Writes the staging folder (manifest.json, icon.png, server/index.mjs and server/chunks/) and
 * returns the server's files, their paths inside the staging folder.
 */
export async function stageBundle(opts: BundleOptions): Promise<string[]> {
  rmSync(opts.stageDir, { recursive: true, force: true });
  mkdirSync(opts.stageDir, { recursive: true });
  const files = await buildBin(opts.root, join(opts.stageDir, BUNDLE_ENTRY));
  copyFileSync(join(opts.root, 'manifest.json'), join(opts.stageDir, 'manifest.json'));
  copyFileSync(join(opts.root, ICON), join(opts.stageDir, ICON));
  return files.map((f) => join(dirname(BUNDLE_ENTRY), f));
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
    // `npm run build`: only the bin and its chunks.
    await buildBin(root, join(root, BIN_FILE));
  } else {
    const stageDir = join(root, 'bundle', 'stage');
    const mcpbFile = join(root, 'bundle', 'chain-mcp.mcpb');
    const files = await stageBundle({ root, stageDir });
    packBundle({ root, stageDir, mcpbFile });
    const bytes = files.reduce((sum, f) => sum + statSync(join(stageDir, f)).size, 0);
    process.stderr.write(`bundle: ${join(stageDir, BUNDLE_ENTRY)} and ${files.length - 1} chunks (${Math.round(bytes / 1024)} KB)\npacked: ${mcpbFile} (${Math.round(statSync(mcpbFile).size / 1024)} KB)\n`);
    // The npm tarball's sizes in the docs come from here, never from a hand (tools/pack-sizes.ts).
    const sizes = writeTarballSizes(root);
    process.stderr.write(`npm tarball: ${megabytes(sizes.packed)} packed, ${megabytes(sizes.unpacked)} unpacked, written in ${SIZE_PAGES.join(' and ')}\n`);
  }
}
