import { type ChildProcess, spawn } from 'node:child_process';

/** One `chain-mcp --http` process on a loopback port, as the replicas test and bench start them. */
export interface Replica {
  name: string;
  port: number;
  child: ChildProcess;
  stderr: () => string;
}

export const running = (child: ChildProcess) => child.exitCode === null && child.signalCode === null;

export function waitForExit(child: ChildProcess): Promise<void> {
  return running(child) ? new Promise((r) => child.once('exit', () => r())) : Promise.resolve();
}

/**
 * Starts `node <main> --http --port 0` with exactly `env` (and PATH), and resolves with the port it
 * logs (CHAIN_MCP_LOG_LEVEL must be info or lower); rejects with its exit code and stderr when it
 * exits first.
 */
export function launchReplica(main: string, name: string, env: Record<string, string>): Promise<Replica> {
  const child = spawn(process.execPath, [main, '--http', '--port', '0'], { env: { PATH: process.env.PATH ?? '', ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
  let err = '';
  return new Promise((resolve, reject) => {
    child.stderr!.on('data', (chunk: Buffer) => {
      err += chunk.toString('utf8');
      const port = /"url":"http:\/\/127\.0\.0\.1:(\d+)\//.exec(err)?.[1];
      if (port) resolve({ name, port: Number(port), child, stderr: () => err });
    });
    child.once('exit', (code) => reject(Object.assign(new Error(`${name} exited with ${code}: ${err}`), { code, stderr: err })));
  });
}

/** Stops a replica (SIGTERM) and waits for it. */
export async function stopReplica(replica: Replica): Promise<void> {
  if (!running(replica.child)) return;
  replica.child.kill('SIGTERM');
  await waitForExit(replica.child);
}
