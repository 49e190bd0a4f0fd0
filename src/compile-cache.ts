import module from 'node:module';
import { homedir } from 'node:os';
import { join } from 'node:path';

/**
 * Where the bin keeps V8's compiled code between starts: chain-mcp's folder in the user's own
 * cache directory (XDG_CACHE_HOME, %LOCALAPPDATA%, ~/.cache), never a shared temporary folder,
 * where another user could leave entries for this one to load.
 */
export function compileCacheDir(env: NodeJS.ProcessEnv, platform: NodeJS.Platform = process.platform, home: () => string = homedir): string {
  const base = env.XDG_CACHE_HOME || (platform === 'win32' && env.LOCALAPPDATA ? env.LOCALAPPDATA : join(home(), '.cache'));
  return join(base, 'chain-mcp', 'compile-cache');
}

/** What {@link enableCompileCache} did, for the tests: on, off (this Node has none, or it is disabled) or failed. */
export type CompileCacheOutcome = 'enabled' | 'unavailable' | 'not enabled';

/**
 * Node 22.1+ can keep the code it compiles for the bin's modules on disk, so later starts skip
 * most of compiling them (about a quarter of a start's CPU time on Node 24; docs/benchmarks.md,
 * "Cold start"). Node 20 has no such cache: nothing happens there. A folder that cannot be made or
 * written leaves the cache off and the start as it was (Node reports it and throws nothing);
 * NODE_DISABLE_COMPILE_CACHE=1 turns it off, and a NODE_COMPILE_CACHE the user set is kept.
 */
export function enableCompileCache(
  env: NodeJS.ProcessEnv = process.env,
  // null: as on a Node without the cache (tests).
  enable: ((dir: string) => { status: number }) | null | undefined = (module as { enableCompileCache?: (dir: string) => { status: number } }).enableCompileCache,
): CompileCacheOutcome {
  if (typeof enable !== 'function') return 'unavailable';
  try {
    const { status } = enable(compileCacheDir(env));
    // Node's documented codes (module.constants.compileCacheStatus): 1 enabled, 2 already enabled.
    const codes = (module as { constants?: { compileCacheStatus?: { ENABLED: number; ALREADY_ENABLED: number } } }).constants?.compileCacheStatus ?? { ENABLED: 1, ALREADY_ENABLED: 2 };
    return status === codes.ENABLED || status === codes.ALREADY_ENABLED ? 'enabled' : 'not enabled';
  } catch {
    // No home directory to name the folder after: the start goes on without the cache.
    return 'not enabled';
  }
}
