import { describe, expect, it } from 'vitest';
import { MAX_LINE_BYTES, StdioGuard } from '../../src/stdio-guard.js';

/** stdin is read line by line: a line that never ends must not grow the server's memory without bound. */
describe('StdioGuard: stdin line length', () => {
  const ping = `${JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'ping' })}\n`;

  it(`drops a line over ${MAX_LINE_BYTES} bytes with one error answer, then serves the next line`, async () => {
    const answers: string[] = [];
    const passed: string[] = [];
    const guard = new StdioGuard((line) => answers.push(line));
    guard.on('data', (chunk: Buffer) => passed.push(chunk.toString('utf8')));
    const piece = Buffer.alloc(256 * 1024, 'a');
    // 12 MB of one line, in pieces, as a pipe delivers it.
    for (let i = 0; i < 48; i++) guard.write(piece);
    guard.write('\n');
    guard.write(ping);
    guard.end();
    await new Promise((resolve) => guard.on('end', resolve).resume());
    expect(answers).toHaveLength(1);
    expect(JSON.parse(answers[0]!)).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32600, message: `Invalid Request: a line over ${MAX_LINE_BYTES} bytes was dropped; send smaller messages.` } });
    expect(passed.join('')).toBe(ping);
  });

  it('never holds more than the bound of an unfinished line', () => {
    const guard = new StdioGuard(() => undefined, 1000);
    for (let i = 0; i < 50; i++) guard.write(Buffer.alloc(300, 'b'));
    expect((guard as unknown as { pending: string }).pending.length).toBeLessThanOrEqual(1000);
  });
});
