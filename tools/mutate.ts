/**
 * `npm run mutate [group ...] [--survivors | --recheck]`: mutation testing of the money, secret and wire paths
 * (StrykerJS, stryker.config.json). With no group it runs the whole scope; with groups, only
 * their files, keeping the other groups' last results; with file paths, only those files, merged into
 * their groups' reports (a group measured in parts, see groupFiles). `--survivors` re-tests only the places
 * of a group's last report's undetected mutants (after tests were added), in files whose
 * source is unchanged since that report, and whole files otherwise; a mutant a test killed stays
 * killed while its source is unchanged, so the merged report is what a full run would give. Each group's report is kept in
 * reports/mutation/<group>.json; the summary (score per group and over the whole scope, each with
 * the time of its run) goes to stdout and reports/mutation/summary.md, and every mutant no test
 * caught to reports/mutation/<group>.survivors.txt. `--recheck` only re-checks the static
 * survivors of the groups' last reports (see recheckStatic); `--from-last-run <group ...>` finishes a run
 * whose Stryker part wrote reports/mutation/last-run.json (re-check, then the group reports);
 * `--no-recheck` leaves static mutants out of the score (Stryker's own count) instead. `--stream`
 * prints what a running or stopped run has tested so far (reports/mutation/stream.jsonl, written
 * mutant by mutant by tools/mutation-stream.ts). Stryker runs on a Node with node:sqlite (this one,
 * or the one tools/sqlite-node.ts gives). Not part of `npm test`: a full run takes over an hour on 2 cores.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { Stryker } from '@stryker-mutator/core';
import { NARROW_ENV } from './mutation-narrow.js';
import { STREAM_FILE } from './mutation-stream.js';
import { sqliteNode, thisNodeHasSqlite } from './sqlite-node.js';

export const GROUPS: Readonly<Record<string, readonly string[]>> = {
  core: ['src/redact.ts', 'src/log.ts', 'src/wire.ts'],
  spend: ['src/spend/**/*.ts'],
  codec: ['src/codec/**/*.ts'],
  transport: ['src/transport/**/*.ts'],
  // A leading '!' leaves a file out (Stryker reads the patterns in order): local-spend.ts is the `local` group's.
  registry: ['src/registry/**/*.ts', '!src/registry/local-spend.ts', 'src/services.ts', 'src/services-core.ts'],
  // Issue 25: where a bug opens a gate (human approval, tiers, loopback-only servers), leaks a
  // secret, moves money (the catalogue's spend and key entries) or shows a wrong number or name.
  approval: ['src/approval/**/*.ts'],
  // The local signer's key file, unlock and signatures (issue 32); its terminal commands run in another process.
  signer: ['src/signer/keys.ts', 'src/signer/keyfile.ts', 'src/signer/types.ts'],
  stranger: ['src/summarize/stranger.ts'],
  config: ['src/config.ts'],
  server: ['src/server.ts', 'src/http-server.ts', 'src/http-session.ts'],
  context: ['src/context/**/*.ts'],
  catalogue: ['src/catalogue/*.spend.ts', 'src/catalogue/keystore.admin.ts', 'src/catalogue/wallet.ts', 'src/catalogue/auth.ts'],
  // Issue 44: the state store (daily limits, kept previews, decisions across replicas) and the confirm that waits on it.
  state: ['src/state/**/*.ts', 'src/confirm.ts'],
  // The local signer's spend path: building, keeping and confirming what the human approves.
  local: ['src/local/**/*.ts', 'src/registry/local-spend.ts'],
  // Camino's own reads and the holder summaries built from them.
  camino: ['src/catalogue/camino.ts', 'src/catalogue/assistant/**/*.ts'],
  // Issue 44: OAuth (tokens, scopes, the approval page's sign-in), rate limits and forwarded client addresses.
  auth: ['src/auth/**/*.ts'],
};

/** A group's glob as a regular expression: a double star and slash for any folders (or none), a star for any part of a name. */
function globRegExp(pattern: string): RegExp {
  const body = pattern
    .split(/(\*\*\/|\*)/)
    .map((part) => (part === '**/' ? '(?:.*/)?' : part === '*' ? '[^/]*' : part.replace(/[.+?^${}()|[\]\\]/g, '\\$&')))
    .join('');
  return new RegExp(`^${body}$`);
}

/**
 * The patterns in Stryker's order: every file first, then the exclusions ('!'), and an exclusion
 * dropped when the file it leaves out belongs to a group of this run (its own group mutates it).
 */
function stryker(patterns: readonly string[], ran: readonly string[]): string[] {
  const excluded = patterns.filter((p) => p.startsWith('!') && !ran.includes(groupOf(p.slice(1)) ?? ''));
  return [...patterns.filter((p) => !p.startsWith('!')), ...new Set(excluded)];
}

const DIR = 'reports/mutation';
const WHOLE_RUN = `${DIR}/last-run.json`;

interface ReportMutant {
  id?: string;
  status: string;
  statusReason?: string;
  static?: boolean;
  coveredBy?: string[];
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
  const matches = (pattern: string) => globRegExp(pattern.replace(/^!/, '')).test(normal);
  return Object.keys(GROUPS).find((g) => {
    const patterns = GROUPS[g]!;
    return patterns.some((p) => !p.startsWith('!') && matches(p)) && !patterns.some((p) => p.startsWith('!') && matches(p));
  });
}

/**
 * A group's source files. A group can be run file by file (`npm run mutate -- local src/local/render.ts`),
 * each run merged into the group's report, so that a group too slow for one sitting is measured in parts;
 * the summary says which files a group's report still lacks or has seen change since their run.
 */
function groupFiles(group: string): string[] {
  return readdirSync('src', { recursive: true, encoding: 'utf8' })
    .map((p) => `src/${p.replaceAll('\\', '/')}`)
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts') && groupOf(f) === group)
    .sort();
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
  const partial: string[] = [];
  for (const group of Object.keys(GROUPS)) {
    const path = `${DIR}/${group}.json`;
    if (!existsSync(path)) {
      missing.push(group);
      continue;
    }
    const report = JSON.parse(readFileSync(path, 'utf8')) as Report;
    const t = tally(report);
    const notRun = groupFiles(group).filter((f) => !report.files[f]);
    const stale = Object.entries(report.files).filter(([f, { source }]) => !existsSync(f) || readFileSync(f, 'utf8') !== source).map(([f]) => f);
    if (notRun.length || stale.length) {
      partial.push(`${group}: ${[notRun.length ? `not run ${notRun.join(', ')}` : '', stale.length ? `changed ${stale.join(', ')}` : ''].filter(Boolean).join(', ')}`);
    }
    for (const k of Object.keys(total) as Array<keyof Tally>) total[k] += t[k];
    const at = statSync(path).mtime.toISOString().slice(0, 16).replace('T', ' ');
    rows.push(`| ${group} | ${GROUPS[group]!.join(', ')} | ${at} | ${t.detected} (${t.timeout}) | ${t.survived} | ${t.noCoverage} | ${score(t)} |`);
  }
  rows.push(`| **whole scope** | | | ${total.detected} (${total.timeout}) | ${total.survived} | ${total.noCoverage} | **${score(total)}** |`);
  if (missing.length) rows.push('', `Not run yet: ${missing.join(', ')} (the whole-scope score leaves them out).`);
  if (partial.length) rows.push('', `Not a whole group's score yet (files not run, or changed since their run): ${partial.join('; ')}.`);
  return `${rows.join('\n')}\n`;
}

/**
 * `--stream`: what the running (or stopped) Stryker run has tested so far, from the stream
 * reporter's lines: per file the counts and score as in the summary, then every undetected mutant.
 */
function streamSummary(): string {
  if (!existsSync(STREAM_FILE)) return `No ${STREAM_FILE}: no run has tested a mutant yet.\n`;
  const lines = readFileSync(STREAM_FILE, 'utf8').split('\n').filter(Boolean);
  const rows = lines.map((l) => JSON.parse(l) as { file: string; line: number; column: number; mutator: string; replacement?: string; status: string });
  const files = new Map<string, Tally>();
  const open: string[] = [];
  for (const r of rows) {
    const file = r.file.slice(r.file.indexOf('src/'));
    const t = files.get(file) ?? { detected: 0, undetected: 0, survived: 0, noCoverage: 0, timeout: 0 };
    if (DETECTED.has(r.status)) t.detected++;
    if (r.status === 'Timeout') t.timeout++;
    if (UNDETECTED.has(r.status)) {
      t.undetected++;
      if (r.status === 'Survived') t.survived++;
      else t.noCoverage++;
      open.push(`${file}:${r.line}:${r.column} ${r.status} ${r.mutator} ${JSON.stringify(r.replacement ?? '')}`);
    }
    files.set(file, t);
  }
  const table = ['| file | detected (timeouts) | survived | no coverage | score |', '|---|---|---|---|---|'];
  for (const [file, t] of files) table.push(`| ${file} | ${t.detected} (${t.timeout}) | ${t.survived} | ${t.noCoverage} | ${score(t)} |`);
  return `${rows.length} mutants in ${STREAM_FILE} (ignored ones included)\n\n${table.join('\n')}\n\n${open.join('\n')}\n`;
}

const mutantKey = (file: string, m: ReportMutant) =>
  `${file}:${m.location.start.line}:${m.location.start.column}-${m.location.end.line}:${m.location.end.column} ${m.mutatorName} ${m.replacement ?? ''}`;

/** Mutate patterns for a group's undetected mutants: their places where the file is unchanged, the whole file where it changed (even with none undetected). */
function survivorPatterns(group: string): string[] {
  const path = `${DIR}/${group}.json`;
  if (!existsSync(path)) return [...GROUPS[group]!];
  const report = JSON.parse(readFileSync(path, 'utf8')) as Report;
  const patterns: string[] = [];
  for (const [file, { source, mutants }] of Object.entries(report.files)) {
    // A file edited since its report is run whole, whatever its report says: every place in it is stale.
    if (readFileSync(file, 'utf8') !== source) {
      patterns.push(file);
      continue;
    }
    // Static survivors are left to the static pass (a normal run cannot switch them on) unless it is skipped.
    const open = mutants.filter((m) => UNDETECTED.has(m.status) && (!staticUndetected(m) || process.argv.includes('--no-recheck')));
    if (open.length === 0) continue;
    // Each undetected mutant's own place (Stryker's ranges take 0-based columns): the other mutants
    // of its line were detected already, and re-running them costs a full suite each.
    const places = new Set(open.map(({ location: { start, end } }) => `${file}:${start.line}:${start.column - 1}-${end.line}:${end.column - 1}`));
    patterns.push(...places);
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
    // A static mutant a normal run skipped again (ignoreStatic) keeps what the static pass found.
    const skippedAgain = (m: ReportMutant | undefined) => m?.status === 'Ignored' && m.statusReason?.startsWith('Static mutant') === true;
    previous.mutants = previous.mutants.map((m) => {
      const again = fresh.get(mutantKey(file, m));
      return again && !skippedAgain(again) ? again : m;
    });
  }
  return last;
}

const STATIC_RUN = `${DIR}/static-run-${process.pid}.json`;
const STATIC_PLACES = `${DIR}/static-places-${process.pid}.json`;

/** A sandbox folder of this run's own when another run is using the usual one (Stryker empties it when done). */
const tempDir = (name: string): string => (existsSync(name) ? `${name}-${process.pid}` : name);

/**
 * Code that may run at import. Stryker marks a mutant static when no test was running as its code
 * ran; but with `isolate: false` (vitest.stryker.config.ts) a module first imported inside a test (a
 * server built in a suite's `beforeAll`, a lazy `import()`) runs once for the whole run, and its
 * top-level code counts as covered by that one test only. A normal run then tries such a mutant
 * against that test alone, whichever suite it belongs to: so a survivor covered by exactly one
 * test goes to the static pass too (which can only find more failing tests, never fewer).
 */
const mayRunAtImport = (m: ReportMutant): boolean => m.static === true || m.coveredBy?.length === 1;

const undetected = (m: ReportMutant): boolean => m.status === 'Survived' || (m.status === 'Ignored' && m.statusReason?.startsWith('Static mutant') === true);

/** Undetected and static: only the static pass can decide it (again, after new tests), not a normal run. */
const staticUndetected = (m: ReportMutant): boolean => m.static === true && undetected(m);

/** What the static pass runs again: the static survivors, and those that may have run at import (after their normal re-run). */
const recheckable = (m: ReportMutant): boolean => mayRunAtImport(m) && undetected(m);
const RECHECKED = 'static mutant re-checked by tools/mutate.ts';

/**
 * Static mutants: code that runs once at import (a catalogue entry's object, its zod schema, the
 * functions stored in it, a constant). Stryker's normal run switches a mutant on after the test
 * files have imported the source, so such a mutant (reported "static") was never active where a
 * test could see it, and Stryker reports it survived, or skips it (`ignoreStatic`). Here those
 * mutants are run again by Stryker with `ignoreStatic` off: each is switched on before the test
 * files import the source (Stryker's "static" activation, a fresh module graph per test file), and
 * every test of `vitest.static.config.ts` that imports the file runs. That list is the fast suites
 * that exercise every catalogue entry (the per-tool contract suite, unit and codec tests, the
 * loopback HTTP suites), since a static mutant cannot be narrowed to the tests that cover it. A mutant they miss stays survived
 * (the slower integration suites are not re-run), so this can only under-count.
 */
async function recheckStatic(report: Report): Promise<void> {
  if (process.argv.includes('--no-recheck')) return;
  const patterns: string[] = [];
  const places: Record<string, number[][]> = {};
  for (const [file, { source, mutants }] of Object.entries(report.files)) {
    const open = mutants.filter(recheckable);
    if (open.length === 0) continue;
    // The report's places are in the source as its run saw it; an edited file needs a new run first.
    if (readFileSync(file, 'utf8') !== source) {
      process.stdout.write(`static re-check: ${file} changed since its run; run its group again first\n`);
      continue;
    }
    patterns.push(...new Set(open.map(({ location: { start, end } }) => `${file}:${start.line}:${start.column - 1}-${end.line}:${end.column - 1}`)));
    places[file] = open.map(({ location: { start, end } }) => [start.line, start.column - 1, end.line, end.column - 1]);
  }
  if (patterns.length === 0) return;
  // Only the mutants at these places, not every one nested in their ranges (tools/mutation-narrow.ts).
  writeFileSync(STATIC_PLACES, JSON.stringify(places));
  process.env[NARROW_ENV] = STATIC_PLACES;
  try {
    await new Stryker({
      mutate: patterns,
      ignoreStatic: false,
      ignorers: ['narrow'],
      tempDirName: tempDir('.stryker-tmp-static'),
      vitest: { configFile: 'vitest.static.config.ts', related: true },
      jsonReporter: { fileName: STATIC_RUN },
    }).runMutationTest();
  } finally {
    delete process.env[NARROW_ENV];
    rmSync(STATIC_PLACES, { force: true });
  }
  const rerun = JSON.parse(readFileSync(STATIC_RUN, 'utf8')) as Report;
  rmSync(STATIC_RUN);
  let checked = 0;
  let killed = 0;
  for (const [file, entry] of Object.entries(report.files)) {
    const fresh = new Map((rerun.files[file]?.mutants ?? []).map((m) => [mutantKey(file, m), m]));
    for (const m of entry.mutants.filter(recheckable)) {
      const again = fresh.get(mutantKey(file, m));
      // Static here or not (a mutant static in the whole suite, say run at import by one suite's
      // setup, can have per-test coverage in these suites and then runs the normal way), the result stands.
      if (!again || !['Killed', 'Timeout', 'Survived', 'NoCoverage'].includes(again.status)) continue;
      checked++;
      const caught = DETECTED.has(again.status);
      if (caught) killed++;
      m.status = caught ? again.status : 'Survived';
      m.statusReason = `${RECHECKED}: ${again.static ? 'switched on before import' : 'switched on in the test'}, ${caught ? 'a test failed' : 'the tests of vitest.static.config.ts passed'}`;
    }
  }
  process.stdout.write(`static re-check: ${killed} of ${checked} static mutants detected\n`);
}

async function main(): Promise<void> {
  const survivors = process.argv.includes('--survivors');
  const recheckOnly = process.argv.includes('--recheck');
  const positional = process.argv.slice(2).filter((a) => !a.startsWith('--'));
  // A path runs only that file of its group, merged into the group's report (see groupFiles).
  const files = positional.filter((a) => a.includes('/'));
  const named = positional.filter((a) => !a.includes('/'));
  const unknown = named.filter((g) => !(g in GROUPS));
  if (unknown.length) throw new Error(`unknown group(s) ${unknown.join(', ')}; groups: ${Object.keys(GROUPS).join(', ')}`);
  const stray = files.filter((f) => groupOf(f) === undefined || (named.length > 0 && !named.includes(groupOf(f)!)));
  if (stray.length) throw new Error(`not a file of ${named.length ? named.join(', ') : 'any group'}: ${stray.join(', ')}`);
  if (files.length && (survivors || recheckOnly)) throw new Error('files are run whole: leave out --survivors and --recheck');
  const asked = named.length ? named : [...new Set(files.map((f) => groupOf(f)!))];
  mkdirSync(DIR, { recursive: true });
  if (recheckOnly) {
    const groups = (asked.length ? asked : Object.keys(GROUPS)).filter((x) => existsSync(`${DIR}/${x}.json`));
    const reports = groups.map((g) => JSON.parse(readFileSync(`${DIR}/${g}.json`, 'utf8')) as Report);
    const all: Report = { ...reports[0], files: Object.assign({}, ...reports.map((r) => r.files)) };
    await recheckStatic(all);
    keepGroups(all, groups);
  } else if (process.argv.includes('--from-last-run')) {
    // A run whose Stryker part finished (reports/mutation/last-run.json) but whose re-check did not.
    const ran = asked.length ? asked : Object.keys(GROUPS);
    const report = JSON.parse(readFileSync(WHOLE_RUN, 'utf8')) as Report;
    await recheckStatic(report);
    keepGroups(report, ran);
  } else if (!process.argv.includes('--summary')) {
    const ran = asked.length ? asked : Object.keys(GROUPS);
    const mutate = files.length ? files : stryker(ran.flatMap((g) => (survivors ? survivorPatterns(g) : [...GROUPS[g]!])), ran);
    if (mutate.length > 0) {
      rmSync(STREAM_FILE, { force: true });
      await new Stryker({ mutate, tempDirName: tempDir('.stryker-tmp'), jsonReporter: { fileName: WHOLE_RUN } }).runMutationTest();
      const report = JSON.parse(readFileSync(WHOLE_RUN, 'utf8')) as Report;
      if (!survivors && !files.length) keepGroups(report, ran);
      else for (const g of ran) keepGroups(existsSync(`${DIR}/${g}.json`) ? mergeInto(g, report) : report, [g]);
    }
    // One static pass over every group that ran (one Stryker start), on the merged reports.
    const reports = ran.filter((g) => existsSync(`${DIR}/${g}.json`)).map((g) => JSON.parse(readFileSync(`${DIR}/${g}.json`, 'utf8')) as Report);
    const all: Report = { ...reports[0], files: Object.assign({}, ...reports.map((r) => r.files)) };
    if (reports.length > 0) {
      await recheckStatic(all);
      keepGroups(all, ran);
    }
  }
  const table = summary();
  writeFileSync(`${DIR}/summary.md`, table);
  process.stdout.write(`\nMutation score (${DIR}/summary.md):\n\n${table}`);
}

if (process.argv.includes('--stream')) {
  process.stdout.write(streamSummary());
  process.exit(0);
}
/**
 * Stryker's vitest runner runs every test in worker threads of its own process, so the SQLite state
 * tests (vitest.config.ts SQLITE_TESTS) can only pass where that process has node:sqlite: on a Node
 * without it the whole run starts again on one that has it (tools/sqlite-node.ts).
 */
if (!thisNodeHasSqlite() && !process.argv.includes('--summary')) {
  const node = sqliteNode();
  process.stderr.write(`npm run mutate: this Node (${process.version}) has no node:sqlite; running on ${node}\n`);
  const run = spawnSync(node, process.argv.slice(1), { stdio: 'inherit' });
  process.exit(run.status ?? 1);
}
await main();
