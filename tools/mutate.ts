/**
 * `npm run mutate [group ...] [--survivors | --recheck]`: mutation testing of the money, secret and wire paths
 * (StrykerJS, stryker.config.json). With no group it runs the whole scope; with groups, only
 * their files, keeping the other groups' last results. `--survivors` re-tests only the lines
 * where a group's last report has undetected mutants (after tests were added), in files whose
 * source is unchanged since that report, and whole files otherwise; a mutant a test killed stays
 * killed while its source is unchanged, so the merged report is what a full run would give. Each group's report is kept in
 * reports/mutation/<group>.json; the summary (score per group and over the whole scope, each with
 * the time of its run) goes to stdout and reports/mutation/summary.md, and every mutant no test
 * caught to reports/mutation/<group>.survivors.txt. `--recheck` only re-checks the static
 * survivors of the groups' last reports (see recheckStatic); `--from-last-run <group ...>` finishes a run
 * whose Stryker part wrote reports/mutation/last-run.json (re-check, then the group reports);
 * `--no-recheck` leaves static mutants out of the score (Stryker's own count) instead. Not part of `npm test`: a full run
 * takes over an hour on 2 cores.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Stryker } from '@stryker-mutator/core';

export const GROUPS: Readonly<Record<string, readonly string[]>> = {
  core: ['src/confirm.ts', 'src/redact.ts', 'src/log.ts', 'src/wire.ts'],
  spend: ['src/spend/**/*.ts'],
  codec: ['src/codec/**/*.ts'],
  transport: ['src/transport/**/*.ts'],
  registry: ['src/registry/**/*.ts', 'src/services.ts'],
  // Issue 25: where a bug opens a gate (human approval, tiers, loopback-only servers), leaks a
  // secret, moves money (the catalogue's spend and key entries) or shows a wrong number or name.
  approval: ['src/approval/**/*.ts'],
  stranger: ['src/summarize/stranger.ts'],
  config: ['src/config.ts'],
  server: ['src/server.ts', 'src/http-server.ts'],
  context: ['src/context/**/*.ts'],
  catalogue: ['src/catalogue/*.spend.ts', 'src/catalogue/keystore.admin.ts', 'src/catalogue/wallet.ts', 'src/catalogue/auth.ts'],
};

/** A group's glob as a regular expression: a double star and slash for any folders (or none), a star for any part of a name. */
function globRegExp(pattern: string): RegExp {
  const body = pattern
    .split(/(\*\*\/|\*)/)
    .map((part) => (part === '**/' ? '(?:.*/)?' : part === '*' ? '[^/]*' : part.replace(/[.+?^${}()|[\]\\]/g, '\\$&')))
    .join('');
  return new RegExp(`^${body}$`);
}

const DIR = 'reports/mutation';
const WHOLE_RUN = `${DIR}/last-run.json`;

interface ReportMutant {
  id?: string;
  status: string;
  statusReason?: string;
  static?: boolean;
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
  return Object.keys(GROUPS).find((g) => GROUPS[g]!.some((pattern) => globRegExp(pattern).test(normal)));
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

const RECHECK_CONFIG = `import { defineConfig } from 'vitest/config';
export default defineConfig({ test: { include: ['test/unit/**/*.test.ts', 'test/codec/**/*.test.ts'], testTimeout: 30_000 } });
`;

/** Puts a mutant's replacement into the source text (report locations: 1-based lines and columns, end exclusive). */
function applyMutant(source: string, m: ReportMutant): string {
  const lines = source.split('\n');
  const offset = (line: number, column: number) => lines.slice(0, line - 1).reduce((n, l) => n + l.length + 1, 0) + column - 1;
  return source.slice(0, offset(m.location.start.line, m.location.start.column)) + (m.replacement ?? '') + source.slice(offset(m.location.end.line, m.location.end.column));
}

/**
 * Stryker's vitest runner switches a mutant on after the test files have loaded the source, so a
 * mutant in code that runs once at import (a constant, a zod schema) stays off in the tests that
 * would see it, and is reported as survived. Each such survivor is re-checked here the plain way:
 * its replacement written into a copy of the source, then the unit and codec tests that import the
 * file are run; a failing test counts it killed. Survivors stay survived otherwise (the slower
 * integration suites are not re-run), so this can only under-count. The static mutants Stryker
 * skips altogether (ignoreStatic: each would need the whole suite, hours in all) are checked the
 * same way, so every mutant of the scope counts in the score.
 */
const RECHECKED = 'static mutant re-checked by tools/mutate.ts';

function recheckStatic(report: Report): void {
  // Each re-check runs the related unit tests once: hundreds of static mutants take hours.
  if (process.argv.includes('--no-recheck')) return;
  const skipped = (m: ReportMutant) => m.status === 'Ignored' && m.statusReason?.startsWith('Static mutant') === true;
  const open = Object.entries(report.files).flatMap(([file, { mutants }]) =>
    mutants.filter((m) => m.static && ((m.status === 'Survived' && !m.statusReason?.startsWith(RECHECKED)) || skipped(m))).map((m) => ({ file, m })),
  );
  if (open.length === 0) return;
  // A copy outside the project, so a Stryker run cleaning .stryker-tmp cannot pull it away.
  const dir = mkdtempSync(join(tmpdir(), 'chain-mcp-recheck-'));
  for (const entry of readdirSync('.')) {
    if (['node_modules', '.git', '.stryker-tmp', 'reports', 'dist'].includes(entry)) continue;
    cpSync(entry, join(dir, entry), { recursive: true });
  }
  symlinkSync(resolve('node_modules'), join(dir, 'node_modules'), 'dir');
  // The report's locations are in the source as the run saw it: the mutated files go back to that
  // text (a file edited since would take each replacement at the wrong place).
  for (const [file, { source }] of Object.entries(report.files)) writeFileSync(join(dir, file), source);
  writeFileSync(join(dir, 'vitest.recheck.config.ts'), RECHECK_CONFIG);
  const vitest = resolve('node_modules/.bin/vitest');
  let killed = 0;
  for (const [i, { file, m }] of open.entries()) {
    const target = join(dir, file);
    const original = readFileSync(target, 'utf8');
    writeFileSync(target, applyMutant(original, m));
    const run = spawnSync(vitest, ['related', '--run', file, '--config', 'vitest.recheck.config.ts', '--bail', '1', '--passWithNoTests', '--reporter', 'dot'], {
      cwd: dir,
      encoding: 'utf8',
      timeout: 300_000,
    });
    writeFileSync(target, original);
    const failed = run.status !== 0 && run.status !== null;
    const timedOut = run.status === null;
    if (failed || timedOut) {
      killed++;
      m.status = timedOut ? 'Timeout' : 'Killed';
      m.statusReason = `${RECHECKED}: the unit/codec tests failed with it in the source`;
    } else {
      m.status = 'Survived';
      m.statusReason = `${RECHECKED}: the unit/codec tests passed with it in the source`;
    }
    process.stdout.write(`static re-check ${i + 1}/${open.length}: ${file}:${m.location.start.line} ${m.mutatorName} ${m.status}\n`);
  }
  process.stdout.write(`static re-check: ${killed} of ${open.length} static mutants killed by the unit/codec tests\n`);
  rmSync(dir, { recursive: true, force: true });
}

async function main(): Promise<void> {
  const survivors = process.argv.includes('--survivors');
  const recheckOnly = process.argv.includes('--recheck');
  const asked = process.argv.slice(2).filter((a) => !a.startsWith('--'));
  const unknown = asked.filter((g) => !(g in GROUPS));
  if (unknown.length) throw new Error(`unknown group(s) ${unknown.join(', ')}; groups: ${Object.keys(GROUPS).join(', ')}`);
  mkdirSync(DIR, { recursive: true });
  if (recheckOnly) {
    for (const g of asked.length ? asked : Object.keys(GROUPS).filter((x) => existsSync(`${DIR}/${x}.json`))) {
      const report = JSON.parse(readFileSync(`${DIR}/${g}.json`, 'utf8')) as Report;
      recheckStatic(report);
      keepGroups(report, [g]);
    }
  } else if (process.argv.includes('--from-last-run')) {
    // A run whose Stryker part finished (reports/mutation/last-run.json) but whose re-check did not.
    const ran = asked.length ? asked : Object.keys(GROUPS);
    const report = JSON.parse(readFileSync(WHOLE_RUN, 'utf8')) as Report;
    recheckStatic(report);
    keepGroups(report, ran);
  } else if (!process.argv.includes('--summary')) {
    const ran = asked.length ? asked : Object.keys(GROUPS);
    const mutate = ran.flatMap((g) => (survivors ? survivorPatterns(g) : [...GROUPS[g]!]));
    if (mutate.length > 0) {
      await new Stryker({ mutate, jsonReporter: { fileName: WHOLE_RUN } }).runMutationTest();
      const report = JSON.parse(readFileSync(WHOLE_RUN, 'utf8')) as Report;
      recheckStatic(report);
      if (!survivors) keepGroups(report, ran);
      else for (const g of ran) keepGroups(existsSync(`${DIR}/${g}.json`) ? mergeInto(g, report) : report, [g]);
    }
  }
  const table = summary();
  writeFileSync(`${DIR}/summary.md`, table);
  process.stdout.write(`\nMutation score (${DIR}/summary.md):\n\n${table}`);
}

await main();
