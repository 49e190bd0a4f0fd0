import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Devnet, startDevnet } from '../../src/devnet/index.js';
import { evalDoc } from '../../tools/eval/doc.js';
import { ask } from '../../tools/eval/run.js';
import { QUESTIONS } from '../../tools/eval/questions.js';

/**
 * The eval suite (docs/eval.md): everyday questions, each answered by the tool calls an assistant
 * should make, must carry the facts the simulator's own state (or the node's own answer) says are
 * true, in both dialects, with every toolset listed and with --dynamic's enable_toolset first.
 * No model in the loop: it proves the tools give what the answer needs.
 */
describe.each([
  ['spec', 'default'],
  ['camino', 'default'],
  ['spec', 'dynamic'],
  ['camino', 'dynamic'],
] as const)('everyday questions, %s dialect, %s listing', (dialect, listing) => {
  let devnet: Devnet;
  beforeAll(async () => {
    // The eval's transfer signs with the keystore user, which a Camino node serves only when enabled.
    devnet = await startDevnet({ dialect, keystoreApi: true });
  });
  afterAll(() => devnet?.close());

  it.each(QUESTIONS.filter((q) => !q.dialects || q.dialects.includes(dialect)).map((q) => [q.id, q] as const))('%s', async (_id, question) => {
    const outcome = await ask(devnet, question, listing);
    expect(outcome.wrongOutcome, question.question).toBeUndefined();
    expect(outcome.missing, `${question.question}\nmissing from the answer`).toEqual([]);
  });
});

describe('docs/eval.md', () => {
  it('is the table of the questions as they are (run `npm run eval` after changing one)', () => {
    expect(readFileSync(new URL('../../docs/eval.md', import.meta.url), 'utf8')).toBe(evalDoc());
  });
});
