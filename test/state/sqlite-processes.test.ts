import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SqliteStore } from '../../src/state/sqlite.js';

/**
 * Issue 44: the daily limit in one SQLite file holds across processes. The driver is synchronous,
 * so two connections in one process never interleave inside a transaction; only real processes
 * can both read "room left" before either writes. Each child opens the same file with the built
 * store (dist/, `npm run build` first), waits until all are ready, then reserves as fast as it can.
 */
const STORE = new URL('../../dist/src/state/sqlite.js', import.meta.url).href;

const CHILD = `
const { SqliteStore } = await import(process.env.STORE);
const store = await SqliteStore.open(process.env.FILE);
const tries = Number(process.env.TRIES);
const now = Number(process.env.NOW);
const result = { granted: 0, refused: 0, approvals: 0, previews: 0, errors: [] };
const attempt = async (fn) => {
  try {
    return await fn();
  } catch (err) {
    result.errors.push(String(err && err.message));
  }
};
process.stdout.write('ready\\n');
await new Promise((resolve) => process.stdin.once('data', resolve));
for (let i = 0; i < tries; i++) {
  // A reservation (delete, sum, insert), a bounded approval (count, insert), a preview taken once (select, delete).
  const r = await attempt(() => store.reserve(process.env.SIGNER, BigInt(process.env.AMOUNT), BigInt(process.env.LIMIT), now));
  if (r) result.granted++;
  else if (r === undefined) result.refused++;
  const nonce = process.pid + '-' + i;
  const put = await attempt(() => store.putApproval({ nonce, owner: 'o', tool: 't', title: 't', lines: [], token: 'tk-' + nonce, csrf: 'c', expiresAt: now + 60000, state: 'pending' }, now, Number(process.env.MAX_PENDING)));
  if (put) result.approvals++;
  if (await attempt(() => store.takePreview('preview-' + i))) result.previews++;
}
await store.close();
process.stdout.write(JSON.stringify(result) + '\\n');
`;

interface ChildResult {
  granted: number;
  refused: number;
  approvals: number;
  previews: number;
  errors: string[];
}

// Opens a new file the moment it is told to, as servers started together on one file do.
const OPENER = `
const { SqliteStore } = await import(process.env.STORE);
process.stdout.write('ready\\n');
await new Promise((resolve) => process.stdin.once('data', resolve));
const store = await SqliteStore.open(process.env.FILE);
await store.close();
process.stdout.write('{"granted":0,"refused":0,"approvals":0,"previews":0,"errors":[]}\\n');
`;

function child(env: Record<string, string>, script = CHILD): { proc: ChildProcess; ready: Promise<void>; done: Promise<ChildResult> } {
  const proc = spawn(process.execPath, ['--input-type=module', '-e', script], { env: { ...process.env, ...env }, stdio: ['pipe', 'pipe', 'inherit'] });
  let out = '';
  let readyDone!: () => void;
  const ready = new Promise<void>((resolve) => (readyDone = resolve));
  const done = new Promise<ChildResult>((resolve, reject) => {
    proc.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.startsWith('ready\n')) readyDone();
    });
    proc.on('error', reject);
    proc.on('exit', (code) => {
      const last = out.trim().split('\n').at(-1) ?? '';
      if (code !== 0 || !last.startsWith('{')) reject(new Error(`child exited ${code}: ${out}`));
      else resolve(JSON.parse(last) as ChildResult);
    });
  });
  return { proc, ready, done };
}

describe('SQLite: the daily limit across real processes (issue 44)', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'chain-mcp-sqlite-procs-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('four processes writing at once on one file: exactly what fits under each bound, each preview taken once, no write refused as busy', async () => {
    const file = join(dir, 'state.db');
    const now = 1_800_000_000_000;
    const tries = 400;
    // The schema and the previews first, so the children race on the writes only.
    const setup = await SqliteStore.open(file);
    for (let i = 0; i < tries; i++) expect(await setup.putPreview(`preview-${i}`, '{}', now + 60_000, now, 1000)).toBe(true);
    await setup.close();
    const env = { STORE, FILE: file, SIGNER: 'X-shared', AMOUNT: '3', LIMIT: '300', NOW: String(now), TRIES: String(tries), MAX_PENDING: '150' };
    const children = Array.from({ length: 4 }, () => child(env));
    await Promise.all(children.map((c) => c.ready));
    for (const c of children) c.proc.stdin!.end('go\n');
    const results = await Promise.all(children.map((c) => c.done));
    const sum = (k: 'granted' | 'refused' | 'approvals' | 'previews') => results.reduce((s, r) => s + r[k], 0);
    // A deferred transaction that reads first cannot take the write lock once another process wrote: "database is locked".
    expect(results.flatMap((r) => r.errors)).toEqual([]);
    // 1600 tries of 3 against 300: exactly 100 fit, whoever got them.
    expect(sum('granted')).toBe(100);
    expect(sum('refused')).toBe(1500);
    expect(sum('approvals')).toBe(150);
    expect(sum('previews')).toBe(tries);
    const store = await SqliteStore.open(file);
    try {
      expect(await store.spent('X-shared', now)).toBe(300n);
      expect(await store.liveApprovals(now)).toBe(150);
    } finally {
      await store.close();
    }
  }, 120_000);

  it('processes opening one new file at the same moment all open it (SQLite refuses a second WAL switch at once, without waiting)', async () => {
    // Twelve new files, three processes each: without the retry about one pair in twenty failed with "database is locked".
    for (let round = 0; round < 12; round++) {
      const env = { STORE, FILE: join(dir, `new-${round}.db`) };
      const children = Array.from({ length: 3 }, () => child(env, OPENER));
      await Promise.all(children.map((c) => c.ready));
      for (const c of children) c.proc.stdin!.end('go\n');
      await Promise.all(children.map((c) => c.done));
    }
  }, 120_000);
});
