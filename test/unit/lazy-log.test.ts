import { describe, expect, it } from 'vitest';
import { lazyLogger } from '../../src/lazy-log.js';
import { createLogger } from '../../src/log.js';

/**
 * The process's logger loads pino with its first line (src/lazy-log.ts): a start that logs nothing
 * never loads it, and lines logged while it loads are all written, in order, masked, with the
 * time they were logged.
 */

const SECRET = 'Lazy-Secret-0a1b2c3d';

/** A load the test releases by hand, counting how often it was asked for. */
function heldLoad() {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  const state = { calls: 0 };
  const load = async () => {
    state.calls++;
    await gate;
    return { createLogger };
  };
  return { load, release, state };
}

function sink() {
  const lines: Array<Record<string, unknown>> = [];
  return { lines, destination: { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) } };
}

describe('lazyLogger', () => {
  it('loads nothing for lines below its level, nor at all when silent', async () => {
    const held = heldLoad();
    const { lines, destination } = sink();
    const log = lazyLogger('info', [], { load: held.load, destination });
    log.debug('not shown');
    log.trace({ a: 1 }, 'not shown either');
    await log.settled();
    expect(held.state.calls).toBe(0);
    const silent = lazyLogger('silent', [], { load: held.load, destination });
    for (const m of ['trace', 'debug', 'info', 'warn', 'error', 'fatal'] as const) silent[m]('nothing');
    await silent.settled();
    expect(held.state.calls).toBe(0);
    expect(lines).toEqual([]);
  });

  it('keeps the lines logged while pino loads, then writes them all in order with the time each was logged, masked', async () => {
    const held = heldLoad();
    const { lines, destination } = sink();
    let clock = 1_000;
    const log = lazyLogger('debug', [SECRET], { load: held.load, destination, now: () => clock });
    log.info({ n: 1 }, 'first');
    clock = 2_000;
    log.debug('second');
    clock = 3_000;
    log.trace('below the level');
    log.warn({ password: 'by-path', note: `has ${SECRET}` }, `third ${SECRET}`);
    expect(held.state.calls).toBe(1);
    expect(lines).toEqual([]);
    clock = 9_000;
    held.release();
    await log.settled();
    expect(lines.map((l) => [l.msg, l.time, l.level])).toEqual([
      ['first', 1_000, 30],
      ['second', 2_000, 20],
      ['third [redacted]', 3_000, 40],
    ]);
    expect(lines[0]).toMatchObject({ name: 'chain-mcp', n: 1 });
    expect(lines[2]).toMatchObject({ password: '[redacted]', note: 'has [redacted]' });
    // Once loaded, a line is written at once, with the clock's time.
    log.error('fourth');
    expect(lines.at(-1)).toMatchObject({ msg: 'fourth', time: 9_000, level: 50 });
    expect(held.state.calls).toBe(1);
  });

  it('settled waits for the lines still on their way', async () => {
    const held = heldLoad();
    const { lines, destination } = sink();
    const log = lazyLogger('info', [], { load: held.load, destination });
    log.info('waiting');
    let done = false;
    const settled = log.settled().then(() => {
      done = true;
    });
    await Promise.resolve();
    expect(done).toBe(false);
    held.release();
    await settled;
    expect(lines.map((l) => l.msg)).toEqual(['waiting']);
  });

  it("settled also waits for pino's stream to flush what it holds", async () => {
    const lines: string[] = [];
    let flushed!: () => void;
    const destination = {
      write: (line: string) => void lines.push(line),
      flush: (done: () => void) => {
        flushed = done;
      },
    };
    const log = lazyLogger('info', [], { load: async () => ({ createLogger }), destination });
    log.info('held by the stream');
    let done = false;
    const settled = log.settled().then(() => {
      done = true;
    });
    for (let i = 0; i < 5 && flushed === undefined; i++) await new Promise((r) => setImmediate(r));
    expect(flushed).toBeTypeOf('function');
    expect(done).toBe(false);
    flushed();
    await settled;
    expect(done).toBe(true);
    expect(lines).toHaveLength(1);
  });

  it('settled does not wait for ever on a stream that never drains (a stderr nobody reads)', async () => {
    const lines: string[] = [];
    // flush never calls back: without the bound, settled (and the shutdown awaiting it) would hang
    // and this test would time out.
    const destination = { write: (line: string) => void lines.push(line), flush: () => undefined };
    const log = lazyLogger('info', [], { load: async () => ({ createLogger }), destination, flushWaitMs: 5 });
    log.info('stuck');
    await log.settled();
    expect(lines).toHaveLength(1);
  });

  it('a logger that cannot be loaded says so once and drops its lines; the process goes on', async () => {
    const failures: string[] = [];
    const log = lazyLogger('info', [], {
      load: () => Promise.reject(new Error('chunk missing')),
      failed: (err) => void failures.push(err.message),
    });
    log.info('lost');
    await log.settled();
    log.error('also dropped');
    await log.settled();
    expect(failures).toEqual(['chunk missing']);
  });

  it('refuses a level pino does not know, as pino would', () => {
    expect(() => lazyLogger('loud', [])).toThrow(/unknown log level "loud"/);
  });
});
