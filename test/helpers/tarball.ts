import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const ROOT = join(import.meta.dirname, '..', '..');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

export interface InstalledTarball {
  /** Holds the tarball and the project; remove it when done. */
  dir: string;
  tarball: string;
  /** An empty project with only the tarball installed. */
  project: string;
  /** Its node_modules/.bin: put it first on PATH to run `chain-mcp` as a user would. */
  binDir: string;
}

/**
 * What a user gets from the tarball: `npm pack` of the build `npm test` just made, then
 * `npm install <tarball>` into an empty project, offline, so nothing can come from a registry.
 */
export function installTarball(): InstalledTarball {
  const dir = mkdtempSync(join(tmpdir(), 'chain-mcp-pack-'));
  const out = execFileSync(npm, ['pack', '--json', '--ignore-scripts', '--pack-destination', dir], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  const tarball = join(dir, (JSON.parse(out) as Array<{ filename: string }>)[0]!.filename);
  const project = join(dir, 'project');
  mkdirSync(project);
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'empty-project', version: '1.0.0', private: true }));
  execFileSync(npm, ['install', tarball, '--offline', '--no-audit', '--no-fund', '--ignore-scripts'], { cwd: project, stdio: ['ignore', 'ignore', 'pipe'] });
  return { dir, tarball, project, binDir: join(project, 'node_modules', '.bin') };
}
