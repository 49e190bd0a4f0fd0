import { describe, expect, it } from 'vitest';
import { compileCacheDir, enableCompileCache } from '../../src/compile-cache.js';

describe('compileCacheDir: chain-mcp folder in the user own cache directory', () => {
  it('XDG_CACHE_HOME first, then %LOCALAPPDATA% on Windows, then ~/.cache', () => {
    expect(compileCacheDir({ XDG_CACHE_HOME: '/x/cache' }, 'linux', () => '/home/u')).toBe('/x/cache/chain-mcp/compile-cache');
    expect(compileCacheDir({}, 'linux', () => '/home/u')).toBe('/home/u/.cache/chain-mcp/compile-cache');
    expect(compileCacheDir({ LOCALAPPDATA: 'C:/Users/u/AppData/Local' }, 'win32', () => 'C:/Users/u')).toMatch(/^C:\/Users\/u\/AppData\/Local[\\/]chain-mcp[\\/]compile-cache$/);
    // Only Windows reads %LOCALAPPDATA%; never the shared temporary folder.
    expect(compileCacheDir({ LOCALAPPDATA: '/elsewhere' }, 'darwin', () => '/Users/u')).toBe('/Users/u/.cache/chain-mcp/compile-cache');
  });
});

describe('enableCompileCache', () => {
  it('asks Node for the cache in that folder and says whether it is on', () => {
    const asked: string[] = [];
    const enable = (status: number) => (dir: string) => {
      asked.push(dir);
      return { status };
    };
    expect(enableCompileCache({ XDG_CACHE_HOME: '/c' }, enable(1))).toBe('enabled');
    expect(enableCompileCache({ XDG_CACHE_HOME: '/c' }, enable(2))).toBe('enabled');
    // FAILED (an unwritable folder) and DISABLED (NODE_DISABLE_COMPILE_CACHE): the start goes on without it.
    expect(enableCompileCache({ XDG_CACHE_HOME: '/c' }, enable(0))).toBe('not enabled');
    expect(enableCompileCache({ XDG_CACHE_HOME: '/c' }, enable(3))).toBe('not enabled');
    expect(asked).toEqual(Array(4).fill('/c/chain-mcp/compile-cache'));
  });

  it('does nothing on a Node without the cache (Node 20), and never throws', () => {
    expect(enableCompileCache({}, null)).toBe('unavailable');
    const throwing = () => {
      throw new Error('no home');
    };
    expect(enableCompileCache({}, throwing)).toBe('not enabled');
  });
});
