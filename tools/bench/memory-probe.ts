import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

/**
 * Runs chain-mcp unchanged with one measurement hook for leak checks: on SIGUSR2 it forces a
 * full garbage collection and writes `chain-mcp-memory {json}` (process.memoryUsage()) to
 * stderr. Usage: node --expose-gc dist/tools/bench/memory-probe.js dist/src/main.js [flags].
 * Without the forced collection RSS only shows how lazily V8 collects, not what is kept.
 */
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('memory-probe needs node --expose-gc');
process.on('SIGUSR2', () => {
  gc();
  gc();
  process.stderr.write(`chain-mcp-memory ${JSON.stringify(process.memoryUsage())}\n`);
});
const main = process.argv[2];
if (!main) throw new Error('usage: memory-probe.js <path to dist/src/main.js> [flags]');
const path = resolve(main);
process.argv.splice(1, 2, path);
await import(pathToFileURL(path).href);
