import { spawn } from 'node:child_process';

/**
 * Runs a command under a real pseudo-terminal (python3's `pty` module): the child's controlling
 * terminal is the pty, so it can open /dev/tty. The driver relays what the terminal shows to its
 * stdout and what the test types to the terminal, and exits with the child's exit code.
 * `stdoutFile`: the child's stdout goes to that file instead of the terminal (to tell the two apart).
 */
const DRIVER = `
import json, os, pty, select, sys
spec = json.loads(sys.argv[1])
pid, fd = pty.fork()
if pid == 0:
    if spec.get("stdoutFile"):
        out = os.open(spec["stdoutFile"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        os.dup2(out, 1)
    os.execvpe(spec["argv"][0], spec["argv"], spec["env"])
stdin_open = True
while True:
    watch = [fd] + ([0] if stdin_open else [])
    r, _, _ = select.select(watch, [], [])
    if fd in r:
        try:
            chunk = os.read(fd, 4096)
        except OSError:
            break
        if not chunk:
            break
        os.write(1, chunk)
    if 0 in r:
        data = os.read(0, 4096)
        if data:
            os.write(fd, data)
        else:
            stdin_open = False
_, status = os.waitpid(pid, 0)
sys.exit(os.waitstatus_to_exitcode(status) & 0xFF)
`;

export interface PtyProcess {
  /** Everything the terminal has shown so far. */
  text(): string;
  /** Resolves once the terminal has shown `expected` after what earlier waits consumed; rejects if the child exits first. */
  waitFor(expected: string): Promise<void>;
  /** Types into the terminal. */
  type(text: string): void;
  exited: Promise<number>;
  kill(): void;
}

export function startInPty(argv: string[], env: Record<string, string>, opts: { stdoutFile?: string } = {}): PtyProcess {
  const child = spawn('python3', ['-c', DRIVER, JSON.stringify({ argv, env, stdoutFile: opts.stdoutFile })], { stdio: ['pipe', 'pipe', 'inherit'] });
  let out = '';
  let consumed = 0;
  const listeners = new Set<() => void>();
  child.stdout.on('data', (c: Buffer) => {
    out += c.toString('utf8');
    for (const l of [...listeners]) l();
  });
  const exited = new Promise<number>((resolve) => child.on('close', (code) => resolve(code ?? -1)));
  let done = false;
  void exited.then(() => {
    done = true;
    for (const l of [...listeners]) l();
  });
  return {
    text: () => out,
    waitFor: (expected) =>
      new Promise<void>((resolve, reject) => {
        const check = () => {
          const at = out.indexOf(expected, consumed);
          if (at >= 0) {
            consumed = at + expected.length;
            listeners.delete(check);
            resolve();
          } else if (done) {
            listeners.delete(check);
            reject(new Error(`the program exited before showing ${JSON.stringify(expected)}; the terminal showed:\n${out}`));
          }
        };
        listeners.add(check);
        check();
      }),
    type: (text) => {
      child.stdin.write(text);
    },
    exited,
    kill: () => {
      child.stdin.end();
      child.kill();
    },
  };
}

export interface PtyStep {
  expect: string;
  send: string;
}

/** Runs to the end: each step waits for its text, then types its answer. Returns the whole screen and the exit code. */
export async function runInPty(argv: string[], env: Record<string, string>, steps: PtyStep[]): Promise<{ output: string; code: number }> {
  const p = startInPty(argv, env);
  try {
    for (const step of steps) {
      await p.waitFor(step.expect);
      p.type(step.send);
    }
  } catch {
    // The program stopped early (a refusal): its screen and exit code say why.
  }
  const code = await p.exited;
  return { output: p.text(), code };
}
