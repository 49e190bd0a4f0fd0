import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/**
 * A real EVM node (anvil, from the @foundry-rs/anvil npm package, which ships the binary in
 * @foundry-rs/anvil-linux-amd64) for the devnet to forward /ext/bc/C/rpc and /ext/bc/C/ws to.
 * Spawned directly (not through npx) on a free loopback port; stopped by its pid.
 */

export interface Anvil {
  url: string;
  wsUrl: string;
  pid: number;
  stop(): Promise<void>;
}

/** Path of the anvil binary, or undefined when the package (or this platform's build) is absent. */
export function anvilBinary(): string | undefined {
  try {
    const require = createRequire(import.meta.url);
    const pkg = require.resolve('@foundry-rs/anvil-linux-amd64/package.json');
    const bin = join(dirname(pkg), 'bin', 'anvil');
    return existsSync(bin) ? bin : undefined;
  } catch {
    return undefined;
  }
}

/** The end of what anvil printed, for an error that says why it did not start. */
const tail = (text: string) => text.trim().split('\n').slice(-5).join(' | ').slice(-500) || '(no output)';

export async function startAnvil(opts: { chainId?: number; timeoutMs?: number; blockTime?: number } = {}): Promise<Anvil> {
  const bin = anvilBinary();
  if (!bin) throw new Error('anvil is not installed (npm install --save-dev @foundry-rs/anvil)');
  const args = ['--port', '0', '--host', '127.0.0.1', '--chain-id', String(opts.chainId ?? 43112)];
  if (opts.blockTime !== undefined) args.push('--block-time', String(opts.blockTime));
  // Generous by default: on a loaded machine anvil can take seconds to print its address.
  const timeoutMs = opts.timeoutMs ?? 30_000;
  const child: ChildProcess = spawn(bin, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  const port = await new Promise<number>((resolve, reject) => {
    let out = '';
    let err = '';
    const fail = (why: string) => {
      clearTimeout(timer);
      child.stdout?.off('data', onData);
      if (child.exitCode === null) child.kill('SIGKILL');
      reject(new Error(`anvil did not start: ${why}; stdout: ${tail(out)}; stderr: ${tail(err)}`));
    };
    const timer = setTimeout(() => fail(`no "Listening on" line within ${timeoutMs} ms`), timeoutMs);
    const onData = (chunk: Buffer) => {
      out += chunk.toString('utf8');
      const m = /Listening on [\d.]+:(\d+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        child.stdout?.off('data', onData);
        child.off('exit', onExit);
        child.off('error', onError);
        // Keep draining output so the pipe never fills and blocks anvil.
        child.stdout?.resume();
        child.stderr?.removeAllListeners('data');
        child.stderr?.resume();
        resolve(Number(m[1]));
      }
    };
    const onExit = (code: number | null, signal: NodeJS.Signals | null) => fail(`it exited (code ${code}, signal ${signal}) before listening`);
    const onError = (e: Error) => fail(`spawn failed: ${e.message}`);
    child.stdout?.on('data', onData);
    child.stderr?.on('data', (chunk: Buffer) => {
      err = (err + chunk.toString('utf8')).slice(-4000);
    });
    child.once('exit', onExit);
    child.once('error', onError);
  });
  const pid = child.pid;
  if (pid === undefined) throw new Error('anvil did not start: no pid');
  const exited = new Promise<void>((resolve) => {
    if (child.exitCode !== null) resolve();
    else child.once('exit', () => resolve());
  });
  return {
    url: `http://127.0.0.1:${port}`,
    wsUrl: `ws://127.0.0.1:${port}`,
    pid,
    stop: async () => {
      if (child.exitCode === null) {
        try {
          process.kill(pid, 'SIGTERM');
        } catch {
          // already gone
        }
        const killer = setTimeout(() => {
          try {
            process.kill(pid, 'SIGKILL');
          } catch {
            // already gone
          }
        }, 3000);
        await exited;
        clearTimeout(killer);
      }
    },
  };
}
