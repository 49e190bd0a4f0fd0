import { type ChildProcess, fork } from 'node:child_process';
import { resolve } from 'node:path';
import type { PoolOptions, PoolRunnerInitializer, PoolWorker, WorkerRequest } from 'vitest/node';
import { sqliteNode } from '../../tools/sqlite-node.js';

/**
 * A vitest pool whose workers run on a Node that has `node:sqlite` (tools/sqlite-node.ts): on
 * Node 20 the SQLite state tests run there, on the real driver, while the rest of the suite stays
 * on this Node. It is vitest's own forks worker with only the executable changed.
 */
export const SQLITE_POOL = 'sqlite-node';

class SqliteNodeWorker implements PoolWorker {
  readonly name = SQLITE_POOL;
  readonly cacheFs = true;
  private readonly entrypoint: string;
  private child?: ChildProcess;

  constructor(private readonly options: PoolOptions) {
    this.entrypoint = resolve(options.distPath, 'workers/forks.js');
  }

  private get fork(): ChildProcess {
    if (!this.child) throw new Error('the SQLite test worker is not running');
    return this.child;
  }

  on(event: string, callback: (arg: unknown) => void): void {
    this.fork.on(event, callback);
  }

  off(event: string, callback: (arg: unknown) => void): void {
    this.fork.off(event, callback);
  }

  send(message: WorkerRequest): void {
    this.fork.send(message);
  }

  deserialize(data: unknown): unknown {
    return data;
  }

  async start(): Promise<void> {
    if (this.child) return;
    // Throws the one line saying what to install when no such Node can be had: the tests fail on it.
    const execPath = sqliteNode();
    this.child = fork(this.entrypoint, [], {
      env: this.options.env as NodeJS.ProcessEnv,
      execArgv: this.options.execArgv,
      execPath,
      stdio: 'pipe',
      serialization: 'advanced',
    });
    this.child.stdout?.pipe(process.stdout);
    this.child.stderr?.pipe(process.stderr);
  }

  async stop(): Promise<void> {
    const child = this.child;
    if (!child) return;
    const exited = new Promise<void>((done) => (child.exitCode !== null ? done() : child.once('exit', () => done())));
    const kill = setTimeout(() => child.kill('SIGKILL'), 500);
    child.kill();
    await exited;
    clearTimeout(kill);
    child.stdout?.unpipe(process.stdout);
    child.stderr?.unpipe(process.stderr);
    this.child = undefined;
  }
}

export const sqlitePool: PoolRunnerInitializer = {
  name: SQLITE_POOL,
  createPoolWorker: (options) => new SqliteNodeWorker(options),
};
