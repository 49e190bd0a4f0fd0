/**
 * `npm run mutate [group ...] [--survivors]`: mutation testing of the money, secret and wire paths
 * (StrykerJS, stryker.config.json). With no group it runs the whole scope; with groups, only
 * their files, keeping the other groups' last results. `--survivors` re-tests only the lines
 * where a group's last report has undetected mutants (after tests were added), in files whose
 * source is unchanged since that report, and whole files otherwise; a mutant a test killed stays
 * killed while its source is unchanged, so the merged report is what a full run would give. Each group's report is kept in
 * reports/mutation/<group>.json; the summary (score per group and over the whole scope, each with
 * the time of its run) goes to stdout and reports/mutation/summary.md, and every mutant no test
 * caught to reports/mutation/<group>.survivors.txt. Not part of `npm test`: a full run takes
 * over an hour on 2 cores.
 */
import { mkdirSync, readFileSync, statSync, writeFileSync, existsSync } from 'node:fs';
import { Stryker } from '@stryker-mutator/core';

export const GROUPS: Readonly<Record<string, readonly string[]>> = {
  core: ['src/confirm.ts', 'src/redact.ts', 'src/log.ts', 'src/wire.ts'],
  spend: ['src/spend/**/*.ts'],
  codec: ['src/codec/**/*.ts'],
  transport: ['src/transport/**/*.ts'],
  registry: ['src/registry/**/*.ts'],
};

const DIR = 'reports/mutation';
const WHOLE_RUN = `${DIR}/last-run.json`;

interface ReportMutant {
  id?: string;
  status: string;
  mutatorName: string;
  replacement?: string;
  location: { start: { line: number; column: number }; end: { line: number; column: number } };
}
interface Report {
  files: Record<string, { source: string; mutants: ReportMutant[] }>;
  [key: string]: unknown;
}

const DETECTED = new Set(['Killed', 'Timeout']);
const UNDETECTED = new Set(['Survived', 'NoCoverage']);

function groupOf(file: string): string | undefined {
  const normal = file.replaceAll('\\', '/');
  return Object.keys(GROUPS).find((g) =>
    GROUPS[g]!.some((pattern) => (pattern.endsWith('/**/*.ts') ? normal.startsWith(pattern.slice(0, -'**/*.ts'.length)) : normal === pattern)),
  );
}

/** Splits one run's report into per-group reports, replacing only the groups that ran. */
function keepGroups(report: Report, ran: readonly string[]): void {
  for (const group of ran) {
    const files = Object.fromEntries(Object.entries(report.files).filter(([file]) => groupOf(file) === group));
    writeFileSync(`${DIR}/${group}.json`, JSON.stringify({ ...report, files }));
    const lines: string[] = [];
    for (const [file, { source, mutants }] of Object.entries(files)) {
      const text = source.split('\n');
      for (const m of mutants.filter((x) => UNDETECTED.has(x.status))) {
        const line = m.location.start.line;
        lines.push(`${file}:${line} [${m.status}] ${m.mutatorName}: ${text[line - 1]?.trim()}  =>  ${(m.replacement ?? '').replace(/\s+/g, ' ')}`);
      }
    }
    writeFileSync(`${DIR}/${group}.survivors.txt`, lines.join('\n') + (lines.length ? '\n' : ''));
  }
}

interface Tally {
  detected: number;
  undetected: number;
  survived: number;
  noCoverage: number;
  timeout: number;
}

function tally(report: Report): Tally {
  const t: Tally = { detected: 0, undetected: 0, survived: 0, noCoverage: 0, timeout: 0 };
  for (const { mutants } of Object.values(report.files)) {
    for (const m of mutants) {
      if (DETECTED.has(m.status)) t.detected++;
      if (UNDETECTED.has(m.status)) t.undetected++;
      if (m.status === 'Survived') t.survived++;
      if (m.status === 'NoCoverage') t.noCoverage++;
      if (m.status === 'Timeout') t.timeout++;
    }
  }
  return t;
}

const score = (t: Tally) => (t.detected + t.undetected === 0 ? 'n/a' : `${((100 * t.detected) / (t.detected + t.undetected)).toFixed(2)} %`);

function summary(): string {
  const rows: string[] = [
    '| group | files | run at (UTC) | detected (timeouts) | survived | no coverage | score |',
    '|---|---|---|---|---|---|---|',
  ];
  const total: Tally = { detected: 0, undetected: 0, survived: 0, noCoverage: 0, timeout: 0 };
  const missing: string[] = [];
  for (const group of Object.keys(GROUPS)) {
    const path = `${DIR}/${group}.json`;
    if (!existsSync(path)) {
      missing.push(group);
      continue;
    }
    const t = tally(JSON.parse(readFileSync(path, 'utf8')) as Report);
    for (const k of Object.keys(total) as Array<keyof Tally>) total[k] += t[k];
    const at = statSync(path).mtime.toISOString().slice(0, 16).replace('T', ' ');
    rows.push(`| ${group} | ${GROUPS[group]!.join(', ')} | ${at} | ${t.detected} (${t.timeout}) | ${t.survived} | ${t.noCoverage} | ${score(t)} |`);
  }
  rows.push(`| **whole scope** | | | ${total.detected} (${total.timeout}) | ${total.survived} | ${total.noCoverage} | **${score(total)}** |`);
  if (missing.length) rows.push('', `Not run yet: ${missing.join(', ')} (the whole-scope score leaves them out).`);
  return `${rows.join('\n')}\n`;
}

const mutantKey = (file: string, m: ReportMutant) =>
  `${file}:${m.location.start.line}:${m.location.start.column}-${m.location.end.line}:${m.location.end.column} ${m.mutatorName} ${m.replacement ?? ''}`;

/** Mutate patterns for a group's undetected mutants: their lines where the file is unchanged, the whole file where not. */
function survivorPatterns(group: string): string[] {
  const path = `${DIR}/${group}.json`;
  if (!existsSync(path)) return [...GROUPS[group]!];
  const report = JSON.parse(readFileSync(path, 'utf8')) as Report;
  const patterns: string[] = [];
  for (const [file, { source, mutants }] of Object.entries(report.files)) {
    const open = mutants.filter((m) => UNDETECTED.has(m.status));
    if (open.length === 0) continue;
    if (readFileSync(file, 'utf8') !== source) {
      patterns.push(file);
      continue;
    }
    const lines = [...new Set(open.flatMap((m) => [`${m.location.start.line}-${m.location.end.line}`]))];
    patterns.push(...lines.map((range) => `${file}:${range}`));
  }
  return patterns;
}

/** Puts a survivors-only run's results over the group's last report (same file, place, mutator and replacement). */
function mergeInto(group: string, rerun: Report): Report {
  const last = JSON.parse(readFileSync(`${DIR}/${group}.json`, 'utf8')) as Report;
  for (const [file, entry] of Object.entries(rerun.files)) {
    if (groupOf(file) !== group) continue;
    const previous = last.files[file];
    if (!previous || previous.source !== entry.source) {
      last.files[file] = entry;
      continue;
    }
    const fresh = new Map(entry.mutants.map((m) => [mutantKey(file, m), m]));
    previous.mutants = previous.mutants.map((m) => fresh.get(mutantKey(file, m)) ?? m);
  }
  return last;
}

async function main(): Promise<void> {
  const survivors = process.argv.includes('--survivors');
  const asked = process.argv.slice(2).filter((a) => a !== '--summary' && a !== '--survivors');
  const unknown = asked.filter((g) => !(g in GROUPS));
  if (unknown.length) throw new Error(`unknown group(s) ${unknown.join(', ')}; groups: ${Object.keys(GROUPS).join(', ')}`);
  mkdirSync(DIR, { recursive: true });
  if (!process.argv.includes('--summary')) {
    const ran = asked.length ? asked : Object.keys(GROUPS);
    const mutate = ran.flatMap((g) => (survivors ? survivorPatterns(g) : [...GROUPS[g]!]));
    if (mutate.length > 0) {
      await new Stryker({ mutate, jsonReporter: { fileName: WHOLE_RUN } }).runMutationTest();
      const report = JSON.parse(readFileSync(WHOLE_RUN, 'utf8')) as Report;
      if (!survivors) keepGroups(report, ran);
      else for (const g of ran) keepGroups(existsSync(`${DIR}/${g}.json`) ? mergeInto(g, report) : report, [g]);
    }
  }
  const table = summary();
  writeFileSync(`${DIR}/summary.md`, table);
  process.stdout.write(`\nMutation score (${DIR}/summary.md):\n\n${table}`);
}

await main();
