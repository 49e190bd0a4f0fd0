import { spawn } from 'node:child_process';

/**
 * Runs a command under a real pseudo-terminal (python3's `pty` module): the child's controlling
 * terminal is the pty, so it can open /dev/tty; stdin and stdout are the pty too. `steps` are
 * (wait for this text, then type that) pairs. Returns everything the terminal showed and the exit code.
 * The driver gives up after `limitMs` (a bound, not an assertion: a hang fails the test, it does not slow it).
 */
export interface PtyStep {
  expect: string;
  send: string;
}

export interface PtyRun {
  output: string;
  code: number;
}

const DRIVER = `
import json, os, pty, select, sys, time
spec = json.loads(sys.argv[1])
pid, fd = pty.fork()
if pid == 0:
    os.execvpe(spec["argv"][0], spec["argv"], spec["env"])
out = b""
steps = spec["steps"]
seen = 0
deadline = time.monotonic() + spec["limitMs"] / 1000
while time.monotonic() < deadline:
    r, _, _ = select.select([fd], [], [], 0.05)
    if r:
        try:
            chunk = os.read(fd, 4096)
        except OSError:
            break
        if not chunk:
            break
        out += chunk
    if steps and steps[0]["expect"].encode() in out[seen:]:
        seen = out.index(steps[0]["expect"].encode(), seen) + len(steps[0]["expect"].encode())
        os.write(fd, steps[0]["send"].encode())
        steps.pop(0)
_, status = os.waitpid(pid, 0)
code = os.waitstatus_to_exitcode(status)
sys.stdout.write(json.dumps({"output": out.decode("utf-8", "replace"), "code": code}))
`;

export function runInPty(argv: string[], env: Record<string, string>, steps: PtyStep[], limitMs = 60_000): Promise<PtyRun> {
  return new Promise((resolve, reject) => {
    const child = spawn('python3', ['-c', DRIVER, JSON.stringify({ argv, env, steps, limitMs })], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (c: Buffer) => {
      out += c.toString('utf8');
    });
    child.stderr.on('data', (c: Buffer) => {
      err += c.toString('utf8');
    });
    child.on('error', reject);
    child.on('close', () => {
      try {
        resolve(JSON.parse(out) as PtyRun);
      } catch {
        reject(new Error(`pty driver failed: ${err.trim() || out.trim()}`));
      }
    });
  });
}
