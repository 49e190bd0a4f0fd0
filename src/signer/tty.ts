import { closeSync, openSync } from 'node:fs';
import { ReadStream, WriteStream } from 'node:tty';

/** No controlling terminal: the key commands refuse rather than read a secret from a pipe a program could fill. */
export class NoTerminalError extends Error {
  override name = 'NoTerminalError';
}

/** The person pressed Ctrl-C or Ctrl-D at a prompt. */
export class CancelledError extends Error {
  override name = 'CancelledError';
  constructor() {
    super('cancelled; nothing was written');
  }
}

/** Longest answer read: a 24-word phrase with spaces is under 250 characters. */
const MAX_ANSWER = 1024;

/**
 * The controlling terminal (`/dev/tty`), opened directly: stdin and stdout may be pipes another
 * program holds, the terminal is the person. Answers are read with echo off (raw mode).
 */
export class Terminal {
  private constructor(
    private readonly input: ReadStream,
    private readonly output: WriteStream,
  ) {}

  static open(what: string, why = 'it reads secrets from /dev/tty only (never from stdin, a file or the environment)'): Terminal {
    let readFd: number | undefined;
    try {
      readFd = openSync('/dev/tty', 'r');
      const writeFd = openSync('/dev/tty', 'w');
      return new Terminal(new ReadStream(readFd), new WriteStream(writeFd));
    } catch {
      if (readFd !== undefined) closeSync(readFd);
      throw new NoTerminalError(`${what} needs a terminal: ${why}; run it yourself in a terminal`);
    }
  }

  write(text: string): void {
    this.output.write(text);
  }

  /** Shows `prompt`, reads one line with echo off; Ctrl-C or Ctrl-D cancels. */
  readHidden(prompt: string): Promise<string> {
    const input = this.input;
    // Echo off before the prompt shows: nothing typed after it can reach the screen.
    input.setRawMode(true);
    this.output.write(prompt);
    return new Promise<string>((resolve, reject) => {
      let answer = '';
      const finish = (err?: Error) => {
        input.off('data', onData);
        input.setRawMode(false);
        input.pause();
        this.output.write('\n');
        if (err) reject(err);
        else resolve(answer);
      };
      const onData = (chunk: Buffer) => {
        for (const ch of chunk.toString('utf8')) {
          if (ch === '\r' || ch === '\n') return finish();
          if (ch === '\u0003' || (ch === '\u0004' && answer === '')) return finish(new CancelledError());
          if (ch === '\u007f' || ch === '\b') answer = answer.slice(0, -1);
          else if (ch >= ' ' && answer.length < MAX_ANSWER) answer += ch;
        }
      };
      input.on('data', onData);
      input.resume();
    });
  }

  close(): void {
    this.input.destroy();
    this.output.destroy();
  }
}
