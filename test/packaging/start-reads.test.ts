import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');
const BIN = join(ROOT, 'dist', 'chain-mcp.js');
const CHUNKS = join(ROOT, 'dist', 'chunks');

/**
 * What a read-only stdio start reads: the bin runs with an ESM load hook (module.register) that
 * names every file module it loads on stderr; the client sends initialize, reads the answer and
 * closes stdin, so the server shuts down by itself before the opening exchange is completed (no
 * `notifications/initialized`, which would start loading the catalogue).
 */
function startReads(dir: string): Promise<{ answer: string; files: string[]; builtins: string[] }> {
  const hooks = join(dir, 'hooks.mjs');
  writeFileSync(
    hooks,
    "import { writeSync } from 'node:fs';\nexport async function load(url, context, next) {\n  if (url.startsWith('file:') || url.startsWith('node:')) writeSync(2, 'LOADED ' + url + '\\n');\n  return next(url, context);\n}\n",
  );
  const register = join(dir, 'register.mjs');
  writeFileSync(register, `import { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(hooks).href)});\n`);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', pathToFileURL(register).href, BIN], {
      cwd: dir,
      env: { PATH: process.env.PATH ?? '', CHAIN_MCP_NODE_URL: 'http://127.0.0.1:9', CHAIN_MCP_LOG_LEVEL: 'silent' },
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
      const files = [...stderr.matchAll(/^LOADED (file:\S+)$/gm)].map((m) => fileURLToPath(m[1]!));
      const builtins = [...stderr.matchAll(/^LOADED (node:\S+)$/gm)].map((m) => m[1]!);
      resolve({ answer: stdout, files, builtins });
    });
    child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'reads', version: '0' } } })}\n`);
  });
}

/** The chunks whose text matches `marker`: where a module of the server landed in this build. */
function chunksWith(marker: RegExp): string[] {
  return readdirSync(CHUNKS)
    .filter((f) => marker.test(readFileSync(join(CHUNKS, f), 'latin1')))
    .map((f) => join(CHUNKS, f));
}

describe('the bin is split: a read-only stdio start reads only what answers initialize', () => {
  let dir: string;
  let reads: { answer: string; files: string[]; builtins: string[] };
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'chain-mcp-reads-'));
    reads = await startReads(dir);
  }, 60_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('answers initialize, having read the entry and some of its chunks, all from dist/', () => {
    expect(JSON.parse(reads.answer.split('\n')[0]!)).toMatchObject({ id: 1, result: { serverInfo: { name: 'chain-mcp' } } });
    expect(reads.files).toContain(BIN);
    const chunks = reads.files.filter((f) => f !== BIN);
    expect(chunks.length).toBeGreaterThan(0);
    for (const f of chunks) expect(f.startsWith(`${CHUNKS}/`), f).toBe(true);
  });

  it('reads less than half of the bytes the bin ships', () => {
    const all = [BIN, ...readdirSync(CHUNKS).map((f) => join(CHUNKS, f))];
    const size = (files: string[]) => files.reduce((sum, f) => sum + statSync(f).size, 0);
    expect(size(reads.files) * 2).toBeLessThan(size(all));
  });

  it('imports no HTTP module of Node: the approval page server loads it when it first starts', () => {
    // The hook sees the server's own imports of Node's modules; the marker proves it does.
    expect(reads.builtins).toContain('node:fs');
    expect(reads.builtins).not.toContain('node:http');
  });

  it('leaves the simulator, the HTTP server and the catalogue unread', () => {
    for (const marker of [/function startDevnet\(/, /function serveHttp\(/, /defineTool\(\{name:"platform_getCurrentValidators"/]) {
      const holders = chunksWith(marker);
      // The marker must be found, or this check would pass for a build that no longer has it.
      expect(holders.length, String(marker)).toBeGreaterThan(0);
      for (const f of holders) expect(reads.files, `${marker} is in ${f}`).not.toContain(f);
    }
  });
});
