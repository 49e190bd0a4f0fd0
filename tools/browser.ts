/**
 * Finds a Chromium for the browser tests and `npm run views`, on any machine `npm install` ran on:
 * CHROMIUM_PATH, then the PATH, then the usual install places on Linux, macOS and Windows, then the
 * Chromium that the `@sparticuz/chromium` devDependency ships compressed inside its npm package
 * (Linux x64; unpacked once into node_modules/.cache, nothing downloaded). When none can be had,
 * one line says what to install: the browser tests fail on it, they never skip.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { delimiter, dirname, join } from 'node:path';
import { brotliDecompressSync } from 'node:zlib';

export interface FoundBrowser {
  executablePath: string;
  /** Where it came from, for messages: `CHROMIUM_PATH`, `PATH`, `install place`, `npm @sparticuz/chromium`. */
  source: string;
  /** Extra environment the browser needs (the npm build's own libraries and fonts). */
  env?: Record<string, string>;
}

/** What the finder looks at; the defaults are this process's. Tests hand in their own. */
export interface FinderHost {
  env: Record<string, string | undefined>;
  platform: NodeJS.Platform;
  arch: string;
  isFile: (path: string) => boolean;
  /** The npm fallback; undefined when it cannot run here. */
  npmChromium: () => FoundBrowser | undefined;
}

const PATH_NAMES = ['chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable', 'chrome', 'microsoft-edge', 'msedge'];

function installPlaces(platform: NodeJS.Platform, env: Record<string, string | undefined>): string[] {
  if (platform === 'darwin') {
    const apps = ['/Applications', join(env.HOME ?? '', 'Applications')];
    const bundles = [
      'Chromium.app/Contents/MacOS/Chromium',
      'Google Chrome.app/Contents/MacOS/Google Chrome',
      'Google Chrome for Testing.app/Contents/MacOS/Google Chrome for Testing',
      'Microsoft Edge.app/Contents/MacOS/Microsoft Edge',
    ];
    return apps.flatMap((a) => bundles.map((b) => `${a}/${b}`));
  }
  if (platform === 'win32') {
    const roots = [env.LOCALAPPDATA, env.PROGRAMFILES, env['PROGRAMFILES(X86)'], env.ProgramFiles, env['ProgramFiles(x86)']].filter((r): r is string => !!r);
    const rels = ['Chromium\\Application\\chrome.exe', 'Google\\Chrome\\Application\\chrome.exe', 'Microsoft\\Edge\\Application\\msedge.exe'];
    return roots.flatMap((r) => rels.map((p) => `${r}\\${p}`));
  }
  return [
    '/usr/bin/chromium',
    '/usr/bin/chromium-browser',
    '/usr/bin/google-chrome',
    '/usr/bin/google-chrome-stable',
    '/snap/bin/chromium',
    '/usr/lib/chromium/chromium',
    '/opt/google/chrome/chrome',
    '/usr/bin/microsoft-edge',
  ];
}

/** The one line shown when no browser can be had. */
export function noBrowserMessage(platform: NodeJS.Platform, arch: string): string {
  const how =
    platform === 'darwin'
      ? 'brew install --cask chromium'
      : platform === 'win32'
        ? 'winget install Google.Chrome'
        : 'apt-get install chromium (or your distribution\'s chromium package)';
  const npm = platform === 'linux' && arch === 'x64' ? '; or run npm install, which brings @sparticuz/chromium' : '';
  return `No Chromium for the browser tests on ${platform}-${arch}: install one (${how}) or set CHROMIUM_PATH=/path/to/chrome${npm}.`;
}

/** Looks in order; throws one line naming what to install when nothing is found. */
export function findChromium(host: FinderHost = defaultHost()): FoundBrowser {
  const { env, platform } = host;
  const pinned = env.CHROMIUM_PATH;
  if (pinned) {
    // An explicit choice that is wrong must not be replaced silently by another browser.
    if (!host.isFile(pinned)) throw new Error(`CHROMIUM_PATH=${pinned} is not a file: point it at a Chromium or Chrome executable, or unset it.`);
    return { executablePath: pinned, source: 'CHROMIUM_PATH' };
  }
  const exts = platform === 'win32' ? ['.exe', ''] : [''];
  for (const dir of (env.PATH ?? env.Path ?? '').split(platform === 'win32' ? ';' : delimiter).filter(Boolean)) {
    for (const name of PATH_NAMES) {
      for (const ext of exts) {
        const p = join(dir, name + ext);
        if (host.isFile(p)) return { executablePath: p, source: 'PATH' };
      }
    }
  }
  for (const p of installPlaces(platform, env)) if (host.isFile(p)) return { executablePath: p, source: 'install place' };
  const npm = host.npmChromium();
  if (npm) return npm;
  throw new Error(noBrowserMessage(platform, host.arch));
}

function defaultHost(): FinderHost {
  return {
    env: process.env,
    platform: process.platform,
    arch: process.arch,
    isFile: (p) => {
      try {
        return statSync(p).isFile();
      } catch {
        return false;
      }
    },
    npmChromium: () => (process.platform === 'linux' && process.arch === 'x64' ? unpackSparticuz() : undefined),
  };
}

const require_ = createRequire(import.meta.url);

/**
 * Unpacks the npm package's brotli-compressed Chromium, the NSS libraries it links against and its
 * fonts into node_modules/.cache/chain-mcp-chromium-<version>, once. Parallel test workers may race
 * here: each unpacks into its own temporary folder and renames it into place; a loser keeps the
 * winner's copy.
 */
function unpackSparticuz(): FoundBrowser | undefined {
  let pkgDir: string;
  try {
    // Its exports map hides package.json; the CommonJS entry is build/cjs/index.cjs.
    pkgDir = dirname(dirname(dirname(require_.resolve('@sparticuz/chromium'))));
  } catch {
    return undefined;
  }
  const version = (JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8')) as { version: string }).version;
  const bin = join(pkgDir, 'bin');
  if (!existsSync(join(bin, 'chromium.br'))) return undefined;
  const cache = join(pkgDir, '..', '..', '.cache', `chain-mcp-chromium-${version}`);
  if (!existsSync(join(cache, 'chromium'))) {
    const tmp = `${cache}.tmp-${process.pid}-${Math.random().toString(36).slice(2)}`;
    mkdirSync(tmp, { recursive: true });
    try {
      writeFileSync(join(tmp, 'chromium'), brotliDecompressSync(readFileSync(join(bin, 'chromium.br'))), { mode: 0o755 });
      untar(brotliDecompressSync(readFileSync(join(bin, 'al2023.tar.br'))), tmp);
      untar(brotliDecompressSync(readFileSync(join(bin, 'fonts.tar.br'))), tmp);
      // Its own fonts plus whatever the system has; the package's fonts.conf points at Lambda's paths.
      writeFileSync(
        join(tmp, 'fonts.conf'),
        `<?xml version="1.0"?>\n<!DOCTYPE fontconfig SYSTEM "fonts.dtd">\n<fontconfig>\n  <include ignore_missing="yes">/etc/fonts/fonts.conf</include>\n  <dir>${join(cache, 'fonts')}</dir>\n  <cachedir>${join(cache, 'fonts-cache')}</cachedir>\n</fontconfig>\n`,
      );
      try {
        renameSync(tmp, cache);
      } catch (e) {
        if (!existsSync(join(cache, 'chromium'))) throw e;
      }
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  }
  return {
    executablePath: join(cache, 'chromium'),
    source: `npm @sparticuz/chromium ${version}`,
    // The build links NSS, NSPR and expat; the package ships them, so no system library is needed.
    env: { LD_LIBRARY_PATH: [join(cache, 'lib'), process.env.LD_LIBRARY_PATH].filter(Boolean).join(':'), FONTCONFIG_FILE: join(cache, 'fonts.conf') },
  };
}

/** Extracts the regular files and folders of a ustar/GNU tar buffer under `dest`. */
export function untar(tar: Buffer, dest: string): void {
  let off = 0;
  let longName: string | undefined;
  while (off + 512 <= tar.length) {
    const header = tar.subarray(off, off + 512);
    if (header.every((b) => b === 0)) break;
    const field = (start: number, len: number) => header.subarray(start, start + len).toString('utf8').replace(/\0.*$/s, '');
    const size = Number.parseInt(field(124, 12).trim() || '0', 8);
    const type = field(156, 1) || '0';
    const prefix = field(345, 155);
    const name = longName ?? (prefix ? `${prefix}/${field(0, 100)}` : field(0, 100));
    const body = tar.subarray(off + 512, off + 512 + size);
    off += 512 + Math.ceil(size / 512) * 512;
    longName = undefined;
    if (type === 'L') {
      longName = body.toString('utf8').replace(/\0.*$/s, '');
      continue;
    }
    const parts = name.split('/').filter((s) => s && s !== '.');
    if (parts.includes('..') || parts.length === 0) continue;
    const target = join(dest, ...parts);
    if (type === '5') mkdirSync(target, { recursive: true });
    else if (type === '0' || type === '7') {
      mkdirSync(dirname(target), { recursive: true });
      writeFileSync(target, body, { mode: Number.parseInt(field(100, 8).trim() || '644', 8) & 0o777 });
    }
  }
}
