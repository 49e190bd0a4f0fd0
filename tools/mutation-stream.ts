/**
 * A Stryker reporter (`stream`, stryker.config.json) that appends each mutant's result to
 * reports/mutation/stream.jsonl as soon as it is tested, one JSON line each: a run of hours on a
 * shared machine shows its survivors while it goes, and a run stopped early still leaves what it
 * tested (Stryker's own reports are written only at the end).
 */
import { appendFileSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';

export const STREAM_FILE = 'reports/mutation/stream.jsonl';

interface Tested {
  fileName: string;
  mutatorName: string;
  replacement?: string;
  status: string;
  static?: boolean;
  location: { start: { line: number; column: number } };
}

const reporter = {
  onMutantTested(r: Readonly<Tested>): void {
    mkdirSync(dirname(STREAM_FILE), { recursive: true });
    const line = { file: r.fileName, line: r.location.start.line, column: r.location.start.column, mutator: r.mutatorName, replacement: r.replacement, status: r.status, static: r.static };
    appendFileSync(STREAM_FILE, `${JSON.stringify(line)}\n`);
  },
};

export const strykerPlugins = [{ kind: 'Reporter', name: 'stream', value: reporter }];
