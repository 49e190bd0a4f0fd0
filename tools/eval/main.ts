import { writeFileSync } from 'node:fs';
import { evalDoc, evalTotals } from './doc.js';
import { runEval } from './run.js';

/** `npm run eval`: writes docs/eval.md and prints each question's outcome in both dialects. */
const doc = new URL('../../../docs/eval.md', import.meta.url);
writeFileSync(doc, evalDoc());
const outcomes = await runEval();
for (const o of outcomes) {
  const verdict = o.wrongOutcome ? `WRONG ${o.wrongOutcome}` : o.missing.length ? `MISSING ${o.missing.join('; ')}` : 'ok';
  console.log(`${o.dialect.padEnd(6)} ${o.listing.padEnd(7)} ${o.id.padEnd(24)} ${String(o.calls).padStart(2)} call(s) ${String(o.bytes).padStart(7)} B  ${verdict}`);
}
for (const [dialect, ok, calls, bytes, perQuestion] of evalTotals(outcomes)) console.log(`${dialect}: ${ok} answered fully, ${calls} calls, ${bytes} (${perQuestion} a question)`);
process.exit(outcomes.every((o) => o.missing.length === 0 && !o.wrongOutcome) ? 0 : 1);
