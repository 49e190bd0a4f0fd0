import { pino } from 'pino';
import { redactSecrets } from './redact.js';

/**
 * What chain-mcp's modules log with: pino's level methods. A pino logger is one; so is the
 * process's logger (src/lazy-log.ts), which loads pino with its first line.
 */
export type Logger = Pick<pino.Logger, 'trace' | 'debug' | 'info' | 'warn' | 'error' | 'fatal'>;

/**
 * Logs go to stderr only: stdout belongs to the MCP protocol. Known secret values are
 * masked in every line, and fields that could carry one are redacted by path.
 * `destination` is stderr; tests pass a stream to read the lines back. `time`, when given,
 * stamps each line instead of the clock (src/lazy-log.ts: the time a line was logged while pino loaded).
 */
export function createLogger(
  level: string,
  secrets: readonly string[],
  destination: pino.DestinationStream = pino.destination({ fd: 2, sync: false }),
  time?: () => number,
): pino.Logger {
  // The line is JSON: a secret with a quote or a backslash appears escaped, which redactSecrets also catches.
  const mask = (value: string): string => redactSecrets(value, secrets);
  return pino(
    {
      level,
      base: { name: 'chain-mcp' },
      redact: {
        paths: ['password', 'authToken', 'authPassword', 'token', 'privateKey', '*.password', '*.token', '*.privateKey', 'params.password', 'headers.authorization'],
        censor: '[redacted]',
      },
      hooks: { streamWrite: mask },
      // pino's own stamp is `,"time":<epoch ms>`; the same with the given clock.
      ...(time ? { timestamp: () => `,"time":${time()}` } : {}),
    },
    destination,
  );
}

/** A logger that writes nothing, for tests and in-process use. */
export function silentLogger(): pino.Logger {
  return pino({ level: 'silent' });
}
