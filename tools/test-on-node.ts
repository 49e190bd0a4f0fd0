/**
 * `npm run test:node -- <24|26|x.y.z> [test files…]`: the tests on another Node.js without installing
 * it. The official binary the npm registry ships as `node-<platform>-<arch>` (fetched once into
 * node_modules/.cache by tools/sqlite-node.ts) goes first on the PATH, so npm, tsc, vitest and every
 * server the tests spawn (`process.execPath`) run on it. No files: exactly `npm test`. Files: a build
 * on that Node, then `vitest run <files>`. Exits with the tests' exit code.
 */
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SQLITE_NODE_VERSION, registryNode } from './sqlite-node.js';

/** The release each major is pinned to (the newest the registry had when checked). */
const NODE_PINS: Readonly<Record<string, string>> = { '24': SQLITE_NODE_VERSION, '26': '26.12.1' };

/** `24`, `26` or an exact `x.y.z`; anything else is refused with the choices. */
function pinnedVersion(arg: string | undefined): string {
  if (arg && NODE_PINS[arg]) return NODE_PINS[arg];
  if (arg && /^\d+\.\d+\.\d+$/.test(arg)) return arg;
  throw new Error(`test:node: name a Node.js: ${Object.keys(NODE_PINS).join(' or ')} (pinned ${Object.values(NODE_PINS).join(', ')}) or an exact version x.y.z`);
}

function main(): number {
  const [arg, ...files] = process.argv.slice(2);
  const node = registryNode(pinnedVersion(arg));
  const root = fileURLToPath(new URL('../..', import.meta.url));
  const env = { ...process.env, PATH: [dirname(node), process.env.PATH].filter(Boolean).join(process.platform === 'win32' ? ';' : ':') };
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const run = (cmd: string, args: string[]) => spawnSync(cmd, args, { cwd: root, env, stdio: 'inherit', shell: process.platform === 'win32' }).status ?? 1;
  const version = spawnSync(node, ['--version'], { encoding: 'utf8' }).stdout.trim();
  console.error(`test:node: running on ${version} (${node})`);
  if (files.length === 0) return run(npm, ['test']);
  const built = run(npm, ['run', 'build', '--silent']);
  if (built !== 0) return built;
  return run(node, [join(root, 'node_modules', 'vitest', 'vitest.mjs'), 'run', ...files]);
}

try {
  process.exit(main());
} catch (err) {
  console.error((err as Error).message);
  process.exit(2);
}
