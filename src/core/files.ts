import { accessSync, constants, readFileSync, statSync } from 'node:fs';

/**
 * What can be wrong with a file a setting names, said so the fix is in the same line: a Windows
 * path on another system, a file this user cannot read (whose it is, its mode), a secret file
 * that other users can read. Strings only: config.ts turns them into refusals or warnings.
 */

/** `C:\…`, `C:/…` or `\\server\share`: a Windows path, which POSIX would take as a relative name. */
export function isWindowsPath(path: string): boolean {
  return /^[A-Za-z]:[\\/]/.test(path) || path.startsWith('\\\\');
}

/** The refusal for a Windows path on this system, or undefined (on Windows, or for a POSIX path). */
export function windowsPathTrouble(variable: string, path: string, platform: NodeJS.Platform = process.platform): string | undefined {
  if (platform === 'win32' || !isWindowsPath(path)) return undefined;
  return `${variable}: ${path} is a Windows path, but chain-mcp runs on ${platform}, where it would name a file "${path}" in the current folder; give a ${platform} path, such as /home/you/…`;
}

const octal = (mode: number) => `0${(mode & 0o777).toString(8).padStart(3, '0')}`;

/** A user's name from /etc/passwd, or undefined (no such file, as on macOS's directory service). */
function userName(uid: number): string | undefined {
  try {
    for (const line of readFileSync('/etc/passwd', 'utf8').split('\n')) {
      const [name, , id] = line.split(':');
      if (id !== undefined && Number(id) === uid) return name;
    }
  } catch {
    // No passwd file: the uid alone.
  }
  return undefined;
}

const who = (uid: number) => {
  const name = userName(uid);
  return name ? `${name} (uid ${uid})` : `uid ${uid}`;
};

/**
 * Why this process cannot read `path`, with whose it is and its mode, or undefined when it can
 * (or the file is missing: the caller says that in its own words).
 */
export function unreadableTrouble(variable: string, path: string): string | undefined {
  try {
    accessSync(path, constants.R_OK);
    return undefined;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EACCES') return undefined;
  }
  const st = statSync(path);
  const me = process.getuid?.();
  if (me !== undefined && st.uid !== me) {
    return `${variable}: ${path} belongs to ${who(st.uid)} (mode ${octal(st.mode)}) and chain-mcp runs as ${who(me)}, who cannot read it; run chain-mcp as ${userName(st.uid) ?? `uid ${st.uid}`}, or give it a file of its own user`;
  }
  return `${variable}: ${path} cannot be read (mode ${octal(st.mode)}, or a folder above it is closed to this user); chmod 600 ${path} and check the folders' modes`;
}

/** The warning for a secret file that group or other users can read (it should be 0600), or undefined. */
export function openModeTrouble(variable: string, path: string): string | undefined {
  if (process.platform === 'win32') return undefined;
  let mode: number;
  try {
    mode = statSync(path).mode;
  } catch {
    return undefined;
  }
  if ((mode & 0o077) === 0) return undefined;
  return `${variable}: ${path} has mode ${octal(mode)}, so other users on this machine may read it; chmod 600 ${path}`;
}
