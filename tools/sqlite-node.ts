/**
 * A Node.js that has SQLite built in (`node:sqlite`), for the SQLite state tests and the state
 * benchmark, with nothing compiled: this Node when it has one (22.5+ unflagged from 22.13), else
 * CHAIN_MCP_SQLITE_NODE, else the official Node 24 binary that the npm registry ships as the
 * package `node-<platform>-<arch>` (fetched with `npm pack` once into node_modules/.cache). When
 * none can be had, one line says what to do: the SQLite tests fail on it, they never skip.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, renameSync, rmSync, statSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The Node the registry's binary package is pinned to (the `node` package's own platform builds). */
export const SQLITE_NODE_VERSION = '24.22.3';

/** The checkout: the nearest folder above this file with a package.json (tools/ or dist/tools/). */
function checkout(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json')) && dirname(dir) !== dir) dir = dirname(dir);
  return dir;
}

const ROOT = checkout();

/** Whether the running Node has node:sqlite without a flag. */
export function thisNodeHasSqlite(): boolean {
  return isBuiltin('node:sqlite');
}

/** The registry package that carries the Node binary for this machine, and the binary's place in it. */
function binaryPackage(platform: NodeJS.Platform, arch: string): { name: string; bin: string } | undefined {
  if (platform === 'linux' || platform === 'darwin') return { name: `node-${platform}-${arch}`, bin: 'package/bin/node' };
  if (platform === 'win32') return { name: `node-win-${arch}`, bin: 'package/node.exe' };
  return undefined;
}

export function noSqliteNodeMessage(platform: NodeJS.Platform, arch: string, why: string): string {
  return `No Node.js with node:sqlite for the SQLite state tests on ${platform}-${arch} (${why}): run the tests on Node.js 22.13 or later, or set CHAIN_MCP_SQLITE_NODE=/path/to/node (22.13 or later).`;
}

/** The path of a Node with node:sqlite: this one, CHAIN_MCP_SQLITE_NODE, or the registry's Node 24. */
export function sqliteNode(env: NodeJS.ProcessEnv = process.env): string {
  if (thisNodeHasSqlite()) return process.execPath;
  const pinned = env.CHAIN_MCP_SQLITE_NODE;
  if (pinned) {
    if (!existsSync(pinned) || !statSync(pinned).isFile()) throw new Error(`CHAIN_MCP_SQLITE_NODE=${pinned} is not a file: point it at a node binary (22.13 or later), or unset it.`);
    return pinned;
  }
  return registryNode();
}

/**
 * The registry's Node binary of `version` for this machine (Node 24 by default), fetched once with
 * `npm pack` into node_modules/.cache; parallel callers each unpack into their own folder and
 * rename it into place. Also what runs developer tools that need a newer Node than this one (the
 * conformance suite, MCP Inspector), `npm run test:node` and the install test's Node 24 run.
 */
export function registryNode(version: string = SQLITE_NODE_VERSION): string {
  const cache = join(ROOT, 'node_modules', '.cache', `chain-mcp-node-${version}`);
  const pkg = binaryPackage(process.platform, process.arch);
  if (!pkg) throw new Error(noSqliteNodeMessage(process.platform, process.arch, 'the npm registry has no Node binary package for it'));
  const bin = join(cache, process.platform === 'win32' ? 'node.exe' : 'node');
  if (existsSync(bin)) return bin;
  mkdirSync(dirname(cache), { recursive: true });
  const work = mkdtempSync(`${cache}.tmp-`);
  try {
    const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
    let tarball: string;
    try {
      const out = execFileSync(npm, ['pack', `${pkg.name}@${version}`, '--json', '--ignore-scripts', '--pack-destination', work], {
        cwd: work,
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'pipe'],
        shell: process.platform === 'win32',
      });
      tarball = join(work, (JSON.parse(out) as Array<{ filename: string }>)[0]!.filename);
    } catch (err) {
      const detail = ((err as { stderr?: string }).stderr ?? (err as Error).message).trim().split('\n').pop();
      throw new Error(noSqliteNodeMessage(process.platform, process.arch, `npm pack ${pkg.name}@${version} failed: ${detail}`));
    }
    execFileSync('tar', ['xzf', tarball, '-C', work, pkg.bin], { stdio: ['ignore', 'ignore', 'pipe'] });
    rmSync(tarball);
    const unpacked = join(work, 'package');
    const final = join(unpacked, pkg.bin.slice('package/'.length));
    renameSync(final, join(work, process.platform === 'win32' ? 'node.exe' : 'node'));
    rmSync(unpacked, { recursive: true, force: true });
    // mkdtemp made it 0700: other users must run this Node too (a test runs the server as nobody).
    chmodSync(work, 0o755);
    try {
      renameSync(work, cache);
    } catch {
      // Another worker won the race: its copy is the same binary.
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  if (!existsSync(bin)) throw new Error(noSqliteNodeMessage(process.platform, process.arch, `the unpacked binary is not at ${bin}`));
  return bin;
}
