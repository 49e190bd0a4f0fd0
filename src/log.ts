import { pino } from 'pino';
import { redactSecrets } from './redact.js';

export type Logger = pino.Logger;

/**
 * Logs go to stderr only: stdout belongs to the MCP protocol. Known secret values are
 * masked in every line, and fields that could carry one are redacted by path.
 * `destination` is stderr; tests pass a stream to read the lines back.
 */
export function createLogger(level: string, secrets: readonly string[], destination: pino.DestinationStream = pino.destination({ fd: 2, sync: false })): Logger {
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
    },
    destination,
  );
}

/** A logger that writes nothing, for tests and in-process use. */
export function silentLogger(): Logger {
  return pino({ level: 'silent' });
}
