import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { type StartReads, startReads } from '../../tools/bench/start-reads.js';

const ROOT = join(import.meta.dirname, '..', '..');
const BIN = join(ROOT, 'dist', 'chain-mcp.js');
const CHUNKS = join(ROOT, 'dist', 'chunks');

/** The chunks whose text matches `marker`: where a module of the server landed in this build. */
function chunksWith(marker: RegExp): string[] {
  return readdirSync(CHUNKS)
    .filter((f) => marker.test(readFileSync(join(CHUNKS, f), 'latin1')))
    .map((f) => join(CHUNKS, f));
}

describe('the bin is split: a read-only stdio start reads only what answers initialize', () => {
  let reads: StartReads;
  beforeAll(async () => {
    reads = await startReads(BIN, { CHAIN_MCP_NODE_URL: 'http://127.0.0.1:9', CHAIN_MCP_LOG_LEVEL: 'silent' });
  }, 60_000);

  it('answers initialize, having read the entry and some of its chunks, all from dist/', () => {
    expect(JSON.parse(reads.answer)).toMatchObject({ id: 1, result: { serverInfo: { name: 'chain-mcp' } } });
    expect(reads.files).toContain(BIN);
    const chunks = reads.files.filter((f) => f !== BIN);
    expect(chunks.length).toBeGreaterThan(0);
    for (const f of chunks) expect(f.startsWith(`${CHUNKS}/`), f).toBe(true);
  });

  it('reads few files: what the start needs is not cut into a chunk per combination of later imports', () => {
    // Each file costs a start about a millisecond whatever its size (docs/benchmarks.md, "Cold start"):
    // 39 before the start's own modules were imported statically and the codecs through their index,
    // 22 after, 4 since the build puts the start's modules in one chunk (tools/bundle.ts, oneStartChunk):
    // the entry, that chunk, esbuild's helpers and @scure/base, which the lazily loaded key
    // libraries share.
    expect(reads.files.length).toBeLessThanOrEqual(4);
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

  it('leaves the spend machinery unread: approvals and their pages, passkeys, the unlock form, the key file, the daily total, kept local previews', () => {
    // esbuild writes a class as `var Name=class{`.
    const classes = ['ApprovalBook', 'ApprovalPages', 'PasskeyStore', 'UnlockForm', 'SpendLedger', 'LocalRecords'].map((name) => new RegExp(`\\b${name}=class\\b`));
    const markers = [...classes, /function openKeyFile\(/];
    for (const marker of markers) {
      const holders = chunksWith(marker);
      expect(holders.length, String(marker)).toBeGreaterThan(0);
      for (const f of holders) expect(reads.files, `${marker} is in ${f}`).not.toContain(f);
    }
  });

  it('with spends on, builds the spend machinery before it answers, as a start did before it was split off', async () => {
    const spending = await startReads(BIN, {
      CHAIN_MCP_NODE_URL: 'http://127.0.0.1:9',
      CHAIN_MCP_LOG_LEVEL: 'silent',
      CHAIN_MCP_ALLOW_SPEND: 'true',
      CHAIN_MCP_KEYSTORE_USER: 'alice',
      CHAIN_MCP_KEYSTORE_PASSWORD: 'correct horse battery staple',
    });
    expect(JSON.parse(spending.answer)).toMatchObject({ id: 1, result: { serverInfo: { name: 'chain-mcp' } } });
    const holders = chunksWith(/\bApprovalPages=class\b/);
    expect(holders.length).toBeGreaterThan(0);
    for (const f of holders) expect(spending.files).toContain(f);
  }, 60_000);

  it('at the default log level, where nothing is logged before the answer, leaves pino and its streams unread', async () => {
    const info = await startReads(BIN, { CHAIN_MCP_NODE_URL: 'http://127.0.0.1:9' });
    expect(JSON.parse(info.answer)).toMatchObject({ id: 1, result: { serverInfo: { name: 'chain-mcp' } } });
    for (const marker of [/function SonicBoom\(/, /function createLogger\(/]) {
      const holders = chunksWith(marker);
      expect(holders.length, String(marker)).toBeGreaterThan(0);
      for (const f of holders) expect(info.files, `${marker} is in ${f}`).not.toContain(f);
    }
  }, 60_000);

  it('leaves the simulator, the HTTP server and the catalogue unread', () => {
    for (const marker of [/function startDevnet\(/, /function serveHttp\(/, /defineTool\(\{name:"platform_getCurrentValidators"/]) {
      const holders = chunksWith(marker);
      // The marker must be found, or this check would pass for a build that no longer has it.
      expect(holders.length, String(marker)).toBeGreaterThan(0);
      for (const f of holders) expect(reads.files, `${marker} is in ${f}`).not.toContain(f);
    }
  });
});
