import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** What one start of a server read before it answered initialize. */
export interface StartReads {
  /** The server's first line on stdout: the initialize answer. */
  answer: string;
  /** The files of ES modules it loaded, as paths. */
  files: string[];
  /** The modules of Node it imported (`node:fs`, ...), as its ES imports name them. */
  builtins: string[];
}

// Names each module the process loads on stderr; runs in the loader's own thread (module.register).
const HOOKS = `import { writeSync } from 'node:fs';
export async function load(url, context, next) {
  if (url.startsWith('file:') || url.startsWith('node:')) writeSync(2, 'LOADED ' + url + '\\n');
  return next(url, context);
}
`;

/**
 * Starts `script` with an ESM load hook, sends initialize, reads the answer and closes stdin, so a
 * stdio server shuts down by itself before the opening exchange completes (no
 * `notifications/initialized`: chain-mcp would then load its catalogue). Used by
 * test/packaging/start-reads.test.ts and by `npm run bench -- --cold`.
 */
export async function startReads(script: string, env: Record<string, string>): Promise<StartReads> {
  const dir = mkdtempSync(join(tmpdir(), 'chain-mcp-reads-'));
  try {
    const hooks = join(dir, 'hooks.mjs');
    writeFileSync(hooks, HOOKS);
    const register = join(dir, 'register.mjs');
    writeFileSync(register, `import { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(hooks).href)});\n`);
    return await new Promise((resolve, reject) => {
      const child = spawn(process.execPath, ['--import', pathToFileURL(register).href, script], {
        cwd: dir,
        env: { PATH: process.env.PATH ?? '', ...env },
        stdio: ['pipe', 'pipe', 'pipe'],
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (c: Buffer) => {
        stdout += c.toString('utf8');
        if (stdout.includes('\n')) child.stdin.end();
      });
      child.stderr.on('data', (c: Buffer) => {
        stderr += c.toString('utf8');
      });
      child.on('error', reject);
      child.on('close', () => {
        const loaded = (scheme: string) => [...stderr.matchAll(new RegExp(`^LOADED (${scheme}:\\S+)$`, 'gm'))].map((m) => m[1]!);
        resolve({ answer: stdout.split('\n')[0]!, files: loaded('file').map((u) => fileURLToPath(u)), builtins: loaded('node') });
      });
      child.stdin.write(
        `${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'reads', version: '0' } } })}\n`,
      );
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
