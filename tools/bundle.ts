import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, rmSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { BUNDLE_ENTRY } from './gen-manifest.js';

/**
 * `npm run pack`: one self-contained ESM file (esbuild; no node_modules needed at run
 * time) next to manifest.json in a staging folder, then `mcpb pack` into a .mcpb.
 */

export interface BundleOptions {
  /** Repository root (holds src/main.ts, manifest.json and node_modules/.bin/mcpb). */
  root: string;
  /** Staging folder; emptied first. */
  stageDir: string;
  /** The .mcpb to write; omitted: stage only. */
  mcpbFile?: string;
}

/** Writes the staging folder (manifest.json + server/index.mjs) and returns the entry's path. */
export async function stageBundle(opts: BundleOptions): Promise<string> {
  rmSync(opts.stageDir, { recursive: true, force: true });
  mkdirSync(opts.stageDir, { recursive: true });
  const entry = join(opts.stageDir, BUNDLE_ENTRY);
  await build({
    entryPoints: [join(opts.root, 'src/main.ts')],
    outfile: entry,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'esm',
    minify: false,
    legalComments: 'none',
    logLevel: 'warning',
    // CommonJS dependencies (pino, its stream) call require(); give them one in ESM.
    banner: { js: "import { createRequire as __chainMcpRequire } from 'node:module'; const require = __chainMcpRequire(import.meta.url);" },
  });
  copyFileSync(join(opts.root, 'manifest.json'), join(opts.stageDir, 'manifest.json'));
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
  const stageDir = join(root, 'bundle', 'stage');
  const mcpbFile = join(root, 'bundle', 'chain-mcp.mcpb');
  const entry = await stageBundle({ root, stageDir });
  packBundle({ root, stageDir, mcpbFile });
  process.stderr.write(`bundle: ${entry} (${Math.round(statSync(entry).size / 1024)} KB)\npacked: ${mcpbFile} (${Math.round(statSync(mcpbFile).size / 1024)} KB)\n`);
}
