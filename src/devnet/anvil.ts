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

export async function startAnvil(opts: { chainId?: number; timeoutMs?: number; blockTime?: number } = {}): Promise<Anvil> {
  const bin = anvilBinary();
  if (!bin) throw new Error('anvil is not installed (npm install --save-dev @foundry-rs/anvil)');
  const args = ['--port', '0', '--host', '127.0.0.1', '--chain-id', String(opts.chainId ?? 500)];
  if (opts.blockTime !== undefined) args.push('--block-time', String(opts.blockTime));
  const child: ChildProcess = spawn(bin, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  const pid = child.pid;
  if (pid === undefined) throw new Error('anvil did not start');
  const port = await new Promise<number>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`anvil did not report its port within ${opts.timeoutMs ?? 15_000} ms`));
    }, opts.timeoutMs ?? 15_000);
    const onData = (chunk: Buffer) => {
      out += chunk.toString('utf8');
      const m = /Listening on [\d.]+:(\d+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        child.stdout?.off('data', onData);
        // Keep draining output so the pipe never fills and blocks anvil.
        child.stdout?.resume();
        resolve(Number(m[1]));
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.resume();
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`anvil exited with code ${code} before listening`));
    });
  });
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
