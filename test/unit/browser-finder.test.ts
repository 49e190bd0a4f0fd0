import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type FinderHost, type FoundBrowser, findChromium, untar } from '../../tools/browser.js';

/** A machine described by its files; the npm fallback answers `npm` (undefined: none). */
function host(files: string[], over: Partial<FinderHost> = {}, npm?: FoundBrowser): FinderHost {
  const set = new Set(files);
  return { env: {}, platform: 'linux', arch: 'x64', isFile: (p) => set.has(p), npmChromium: () => npm, ...over };
}
const NPM: FoundBrowser = { executablePath: '/repo/node_modules/.cache/chromium', source: 'npm @sparticuz/chromium' };

describe('findChromium', () => {
  it('CHROMIUM_PATH wins over everything, and a wrong one is refused rather than replaced', () => {
    const h = host(['/opt/my/chrome', '/usr/bin/chromium'], { env: { CHROMIUM_PATH: '/opt/my/chrome', PATH: '/usr/bin' } }, NPM);
    expect(findChromium(h)).toEqual({ executablePath: '/opt/my/chrome', source: 'CHROMIUM_PATH' });
    const wrong = host(['/usr/bin/chromium'], { env: { CHROMIUM_PATH: '/nope/chrome' } }, NPM);
    expect(() => findChromium(wrong)).toThrow('CHROMIUM_PATH=/nope/chrome is not a file');
  });

  it('then the PATH, in the order of its folders, under any of the usual names', () => {
    const h = host(['/home/u/bin/google-chrome-stable', '/usr/local/bin/chromium-browser'], { env: { PATH: '/nothing:/usr/local/bin:/home/u/bin' } }, NPM);
    expect(findChromium(h)).toEqual({ executablePath: '/usr/local/bin/chromium-browser', source: 'PATH' });
  });

  it('on Windows the PATH holds chrome.exe, separated by semicolons', () => {
    const exe = join('C:\\Tools', 'chrome.exe');
    const h = host([exe], { platform: 'win32', env: { Path: 'C:\\Windows;C:\\Tools' } });
    expect(findChromium(h).executablePath).toBe(exe);
  });

  it('then the usual install places on Linux, macOS and Windows', () => {
    expect(findChromium(host(['/opt/google/chrome/chrome'], { env: { PATH: '/usr/bin' } })).executablePath).toBe('/opt/google/chrome/chrome');
    expect(findChromium(host(['/Applications/Google Chrome.app/Contents/MacOS/Google Chrome'], { platform: 'darwin', env: { HOME: '/Users/u' } })).source).toBe('install place');
    const win = 'C:\\Program Files\\Google\\Chrome\\Application\\chrome.exe';
    expect(findChromium(host([win], { platform: 'win32', env: { PROGRAMFILES: 'C:\\Program Files' } })).executablePath).toBe(win);
  });

  it('then the browser from the npm package', () => {
    expect(findChromium(host([], { env: { PATH: '/usr/bin' } }, NPM))).toBe(NPM);
  });

  it('with none, one line that says what to install', () => {
    const err = (h: FinderHost) => {
      try {
        findChromium(h);
      } catch (e) {
        return (e as Error).message;
      }
      return 'found one';
    };
    const linux = err(host([], { env: { PATH: '/usr/bin' } }));
    expect(linux).toMatch(/^No Chromium for the browser tests on linux-x64: install one \(apt-get install chromium.*\) or set CHROMIUM_PATH=.*@sparticuz\/chromium\.$/);
    expect(linux).not.toContain('\n');
    expect(err(host([], { platform: 'darwin', arch: 'arm64' }))).toContain('brew install --cask chromium');
    expect(err(host([], { platform: 'linux', arch: 'arm64' }))).not.toContain('@sparticuz');
  });
});

describe('untar', () => {
  /** One ustar entry: header (name, mode, size, type, magic, checksum) and the body padded to 512. */
  function entry(name: string, body: string, type = '0'): Buffer {
    const h = Buffer.alloc(512);
    h.write(name, 0);
    h.write('0000755\0', 100);
    h.write(`${Buffer.byteLength(body).toString(8).padStart(11, '0')}\0`, 124);
    h.write(type, 156);
    h.write('ustar\0', 257);
    h.write('00', 263);
    h.fill(' ', 148, 156);
    let sum = 0;
    for (const b of h) sum += b;
    h.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148);
    const data = Buffer.alloc(Math.ceil(Buffer.byteLength(body) / 512) * 512);
    data.write(body);
    return Buffer.concat([h, data]);
  }

  it('writes folders and files, and nothing outside the destination', () => {
    const dest = mkdtempSync(join(tmpdir(), 'untar-'));
    try {
      const long = 'x'.repeat(600);
      untar(Buffer.concat([entry('lib/', '', '5'), entry('lib/libnss3.so', long), entry('../escape', 'no'), Buffer.alloc(1024)]), dest);
      expect(readFileSync(join(dest, 'lib', 'libnss3.so'), 'utf8')).toBe(long);
      expect(() => readFileSync(join(dest, '..', 'escape'))).toThrow();
    } finally {
      rmSync(dest, { recursive: true, force: true });
    }
  });
});
