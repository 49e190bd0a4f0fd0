import { parseJSONRPCMessage, RELATED_TASK_META_KEY } from '@modelcontextprotocol/server';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_LINE_BYTES, plainlyValid, StdioGuard } from '../../src/stdio-guard.js';

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

/** The guard's fast path may only ever say "valid" where the SDK's own schema agrees. */
describe('StdioGuard: the common message recognised without the schema', () => {
  const id = fc.oneof(fc.string(), fc.integer(), fc.double(), fc.constant(null), fc.boolean());
  const meta = fc.dictionary(fc.constantFrom('progressToken', RELATED_TASK_META_KEY, 'x', 'io.modelcontextprotocol/protocolVersion'), fc.oneof(fc.string(), fc.integer(), fc.double(), fc.object()));
  const params = fc.oneof(fc.object(), fc.record({ _meta: fc.oneof(meta, fc.constant(null), fc.array(fc.integer())) }, { requiredKeys: [] }), fc.array(fc.integer()), fc.constant(null), fc.string());
  const message = fc.record(
    { jsonrpc: fc.constantFrom('2.0', '1.0', 2), id, method: fc.oneof(fc.string(), fc.integer()), params, result: fc.object(), extra: fc.string() },
    { requiredKeys: [] },
  );

  it('never calls a message valid that the SDK refuses, and takes the plain ones', () => {
    fc.assert(
      fc.property(message, (m) => {
        const parsed = JSON.parse(JSON.stringify(m)) as unknown;
        if (plainlyValid(parsed)) expect(() => parseJSONRPCMessage(parsed)).not.toThrow();
      }),
      { numRuns: 3000 },
    );
    for (const plain of [
      { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'x', arguments: {} } },
      { jsonrpc: '2.0', id: 'a', method: 'tools/list' },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' } } },
    ]) {
      expect(plainlyValid(plain), JSON.stringify(plain)).toBe(true);
    }
    for (const other of [
      { jsonrpc: '2.0', id: 1.5, method: 'x' },
      { jsonrpc: '2.0', id: 1, method: 'x', params: [] },
      { jsonrpc: '2.0', id: 1, method: 'x', extra: 1 },
      { jsonrpc: '2.0', id: 1, method: 'x', params: { _meta: { progressToken: 't' } } },
      { jsonrpc: '2.0', id: 1, result: {} },
    ]) {
      expect(plainlyValid(other), JSON.stringify(other)).toBe(false);
    }
  });
});
