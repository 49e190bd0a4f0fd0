import type { Logger } from './log.js';

/** pino's level numbers: a line is written when its level's number is at least the logger's. */
const LEVELS = { trace: 10, debug: 20, info: 30, warn: 40, error: 50, fatal: 60 } as const;
type Method = keyof typeof LEVELS;

/** The process's logger (main.ts): pino's level methods, and a way to wait for lines still on their way. */
export interface LazyLogger extends Logger {
  /** Resolves once every line logged so far has been written (handed to pino, and pino's stream flushed). */
  settled(): Promise<void>;
}

export interface LazyLoggerOptions {
  /** Loads the module that builds the pino logger (tests hold it back). */
  load?: () => Promise<Pick<typeof import('./log.js'), 'createLogger'>>;
  /** Passed to createLogger: tests read the lines back. Default stderr. */
  destination?: { write(line: string): void };
  now?: () => number;
  /** Told when the logger cannot be loaded (a broken install); default one line on stderr. */
  failed?: (err: Error) => void;
  /** How long settled() waits for pino's stream at most (a stderr nobody reads never drains). */
  flushWaitMs?: number;
}

/** settled()'s bound on the wait for pino's stream: a shutdown is never held by its logs for longer. */
export const FLUSH_WAIT_MS = 1000;

/**
 * A logger that loads pino with its first line at an enabled level instead of at start: pino and
 * its stream modules are about 100 KB to read and 9 ms of a start that logs nothing before it
 * answers initialize (docs/benchmarks.md, "Cold start"). Lines logged while pino loads are kept in
 * order and written as pino would have written them then (the same masking, the time they were logged).
 */
export function lazyLogger(level: string, secrets: readonly string[], opts: LazyLoggerOptions = {}): LazyLogger {
  if (level !== 'silent' && !(level in LEVELS)) throw new Error(`unknown log level "${level}"`);
  const threshold = level === 'silent' ? Number.POSITIVE_INFINITY : LEVELS[level as Method];
  const now = opts.now ?? Date.now;
  let real: Logger | undefined;
  let flush: ((done: (err?: Error) => void) => void) | undefined;
  let loading: Promise<void> | undefined;
  const waiting: Array<{ method: Method; time: number; args: unknown[] }> = [];
  // The time pino stamps on a line: a waiting line's own while it is written, else the clock's.
  let stamp: number | undefined;
  const load = async (): Promise<void> => {
    try {
      const { createLogger } = await (opts.load ?? (() => import('./log.js')))();
      const logger = createLogger(level, secrets, opts.destination, () => stamp ?? now());
      for (const line of waiting) {
        stamp = line.time;
        (logger[line.method] as (...args: unknown[]) => void)(...line.args);
      }
      stamp = undefined;
      waiting.length = 0;
      real = logger;
      flush = (done) => logger.flush(done);
    } catch (err) {
      waiting.length = 0;
      (opts.failed ?? ((e: Error) => process.stderr.write(`chain-mcp: the logger could not be loaded (${e.message}); log lines are dropped\n`)))(err as Error);
      real = { trace: noop, debug: noop, info: noop, warn: noop, error: noop, fatal: noop };
    }
  };
  const method =
    (name: Method) =>
    (...args: unknown[]): void => {
      if (LEVELS[name] < threshold) return;
      if (real) {
        (real[name] as (...a: unknown[]) => void)(...args);
        return;
      }
      waiting.push({ method: name, time: now(), args });
      loading ??= load();
    };
  return {
    trace: method('trace'),
    debug: method('debug'),
    info: method('info'),
    warn: method('warn'),
    error: method('error'),
    fatal: method('fatal'),
    // stderr is written asynchronously: a process that exits right after a line could lose it.
    settled: async () => {
      await loading;
      const drain = flush;
      if (!drain) return;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, opts.flushWaitMs ?? FLUSH_WAIT_MS);
        drain(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    },
  };
}

const noop = (): void => undefined;
