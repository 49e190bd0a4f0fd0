/**
 * `npm run inspector-check`: MCP Inspector 2.12.0 against chain-mcp, for real. Installs the
 * inspector once into node_modules/.cache (never a dependency of ours), then drives its CLI against
 * `chain-mcp --devnet` over stdio and against `chain-mcp --http --devnet` with a bearer token, in
 * both protocol eras (`--protocol-era legacy` = 2025-11-25, `modern` = 2026-07-28), printing one
 * line per check. `-- --web` also starts its web UI and drives it in headless Chromium
 * (tools/browser.ts): connect, the Apps tab, each of the four views opened with its tool's result
 * and rendered, a validator row clicked (the view's own tools/call through the host); screenshots
 * go to the cache folder;
 * `-- --web-only` skips the CLI checks.
 * The inspector needs Node 22.19+: below that it runs on the registry's Node 24
 * (tools/sqlite-node.ts) while chain-mcp stays on this Node. Not part of npm test.
 * Exits 1 when any check fails.
 */
import { type ChildProcess, execFile, execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { VIEWS } from '../src/views/views.js';
import type { WebSpend, WebView } from './inspector-web.js';
import { registryNode } from './sqlite-node.js';

export const INSPECTOR_VERSION = '2.12.0';
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const BIN = join(ROOT, 'dist', 'chain-mcp.js');
const CACHE = join(ROOT, 'node_modules', '.cache', `chain-mcp-inspector-${INSPECTOR_VERSION}`);
const LAUNCHER = join(CACHE, 'node_modules', '@modelcontextprotocol', 'inspector', 'clients', 'launcher', 'build', 'index.js');
/** One CLI run: the inspector connects, asks once and exits; a stuck run is killed. */
const RUN_LIMIT_MS = 90_000;

type Era = 'legacy' | 'modern';
const ERA_VERSION: Record<Era, string> = { legacy: '2025-11-25', modern: '2026-07-28' };

/** Installs the inspector into the cache once; parallel runs each install apart and rename into place. */
function installInspector(): void {
  if (existsSync(LAUNCHER)) return;
  mkdirSync(join(CACHE, '..'), { recursive: true });
  const work = mkdtempSync(`${CACHE}.tmp-`);
  try {
    writeFileSync(join(work, 'package.json'), '{"private":true}\n');
    console.log(`installing @modelcontextprotocol/inspector@${INSPECTOR_VERSION} into ${CACHE}`);
    // Its own postinstall only installs clients in a source checkout; nothing else needs scripts.
    execFileSync(process.platform === 'win32' ? 'npm.cmd' : 'npm', ['install', `@modelcontextprotocol/inspector@${INSPECTOR_VERSION}`, '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'], {
      cwd: work,
      stdio: ['ignore', 'ignore', 'inherit'],
      shell: process.platform === 'win32',
    });
    try {
      renameSync(work, CACHE);
    } catch {
      // Another run won the race: its copy is the same release.
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  if (!existsSync(LAUNCHER)) throw new Error(`the inspector's launcher is not at ${LAUNCHER}`);
}

/** The Node the inspector runs on: this one from 22.19 (its engines field), else the registry's Node 24. */
function inspectorNode(): string {
  const [major, minor] = process.versions.node.split('.').map(Number) as [number, number];
  return major > 22 || (major === 22 && minor >= 19) ? process.execPath : registryNode();
}

/** The inspector's environment: its state and secrets kept in the cache folder and in memory, no browser opened. */
function inspectorEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const home = join(CACHE, 'home');
  mkdirSync(home, { recursive: true });
  return { PATH: process.env.PATH ?? '', HOME: home, USERPROFILE: home, MCP_INSPECTOR_SECRET_STORE: 'memory', MCP_AUTO_OPEN_ENABLED: 'false', ...extra };
}

interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

function cli(node: string, args: string[]): Promise<CliRun> {
  return new Promise((resolve) => {
    execFile(node, [LAUNCHER, '--cli', '--format', 'json', ...args], { env: inspectorEnv(), timeout: RUN_LIMIT_MS, maxBuffer: 64 * 1024 * 1024 }, (err, stdout, stderr) => {
      const code = err ? (typeof err.code === 'number' ? err.code : 1) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}

// biome-ignore lint/suspicious/noExplicitAny: the inspector's JSON output, checked field by field below.
type Json = any;

function parse(run: CliRun): Json {
  try {
    return JSON.parse(run.stdout);
  } catch {
    throw new Error(`exit ${run.code}, no JSON on stdout: ${(run.stdout || run.stderr).trim().split('\n').slice(-2).join(' / ').slice(0, 300)}`);
  }
}

let failures = 0;

/** The servers this run starts: stopped however the run ends (a closed pipe on stdout ends it without finally). */
const children = new Set<ChildProcess>();
process.on('exit', () => {
  for (const child of children) child.kill('SIGTERM');
});

function started(child: ChildProcess): ChildProcess {
  children.add(child);
  child.once('exit', () => children.delete(child));
  return child;
}

async function check(name: string, body: () => Promise<string>): Promise<void> {
  try {
    console.log(`ok    ${name}: ${await body()}`);
  } catch (err) {
    failures++;
    console.log(`FAIL  ${name}: ${(err as Error).message}`);
  }
}

function expect(cond: unknown, why: string): asserts cond {
  if (!cond) throw new Error(why);
}

/** 2026-07-28 servers put their serverInfo in every response's `_meta`; a 2025-11-25 session gave it at initialize. */
function eraOf(result: Json): Era {
  return result?._meta?.['io.modelcontextprotocol/serverInfo']?.name === 'chain-mcp' ? 'modern' : 'legacy';
}

/** What the catalogue's views promise: each view tool linked to its `ui://` resource. */
const VIEW_OF: ReadonlyMap<string, string> = new Map(VIEWS.flatMap((v) => v.tools.map((t) => [t, v.uri] as const)));

async function cliChecks(node: string, label: string, target: string[], era: Era): Promise<void> {
  const on = ['--protocol-era', era, ...target];
  const prefix = `cli ${label} ${ERA_VERSION[era]}`;
  await check(`${prefix} tools/list --strict`, async () => {
    const run = await cli(node, [...on, '--strict', '--method', 'tools/list']);
    const tools = parse(run)?.result?.tools as Array<{ name: string }> | undefined;
    expect(run.code === 0, `exit ${run.code} (6: a schema it finds not portable): ${run.stderr.trim().split('\n').slice(-3).join(' / ')}`);
    expect(tools && tools.length > 0, 'no tools listed');
    expect(
      tools.some((t) => t.name === 'info_getNodeID'),
      'info_getNodeID is not listed',
    );
    return `${tools.length} tools, every schema portable`;
  });
  await check(`${prefix} tools/call info_getNodeID`, async () => {
    const result = parse(await cli(node, [...on, '--method', 'tools/call', '--tool-name', 'info_getNodeID'])).result;
    const text: string = result?.content?.[0]?.text ?? '';
    expect(result && !result.isError, `isError: ${text}`);
    expect(text.startsWith('Node ID: NodeID-'), `unexpected text: ${text.slice(0, 80)}`);
    expect(eraOf(result) === era, `answered in the ${eraOf(result)} era`);
    return text.split('\n')[0]!;
  });
  await check(`${prefix} views listed (--advertise-apps --app-info)`, async () => {
    const run = await cli(node, [...on, '--advertise-apps', '--app-info', '--method', 'tools/list']);
    expect(run.code === 0, `exit ${run.code}: ${run.stderr.trim().split('\n').pop()}`);
    const apps = run.stdout
      .split('\n')
      .filter((l) => l.trim())
      .map((l) => JSON.parse(l) as { hasApp: boolean; toolName: string; resourceUri?: string })
      .filter((a) => a.hasApp);
    const got = new Map(apps.map((a) => [a.toolName, a.resourceUri]));
    for (const [tool, uri] of VIEW_OF) expect(got.get(tool) === uri, `${tool}: ${got.get(tool) ?? 'no app'}, expected ${uri}`);
    expect(got.size === VIEW_OF.size, `apps on tools without a view: ${[...got.keys()].filter((t) => !VIEW_OF.has(t)).join(', ')}`);
    return `${got.size} tools with a ui:// view`;
  });
  await check(`${prefix} tools/call platform_getCurrentValidators (a view tool)`, async () => {
    const out = parse(await cli(node, [...on, '--advertise-apps', '--method', 'tools/call', '--tool-name', 'platform_getCurrentValidators']));
    const result = out.result;
    expect(result && !result.isError, `isError: ${result?.content?.[0]?.text}`);
    const validators = result.structuredContent?.validators;
    expect(Array.isArray(validators) && validators.length > 0, 'no structuredContent.validators for the view');
    expect(out.appInfo?.resourceUri === VIEW_OF.get('platform_getCurrentValidators'), `app: ${JSON.stringify(out.appInfo)}`);
    expect(eraOf(result) === era, `answered in the ${eraOf(result)} era`);
    return `${validators.length} validators in structuredContent, view ${out.appInfo.resourceUri}`;
  });
  await check(`${prefix} resources/read ui://chain-mcp/validators.html`, async () => {
    const contents = parse(await cli(node, [...on, '--method', 'resources/read', '--uri', 'ui://chain-mcp/validators.html'])).result?.contents;
    const html = contents?.[0];
    expect(html?.mimeType === 'text/html;profile=mcp-app', `mimeType ${html?.mimeType}`);
    expect(typeof html.text === 'string' && html.text.startsWith('<!doctype html>'), 'not an HTML document');
    return `${html.text.length} characters of ${html.mimeType}`;
  });
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

/** Starts a child and waits (bounded) until its output has `ready`; a child that exits first fails. */
async function startUntil(child: ChildProcess, ready: RegExp, what: string, limitMs = 30_000): Promise<void> {
  let seen = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${what} did not start within ${limitMs} ms: ${seen.slice(-300)}`)), limitMs);
    const on = (chunk: Buffer) => {
      seen += chunk.toString();
      if (ready.test(seen)) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout?.on('data', on);
    child.stderr?.on('data', on);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${what} exited with ${code}: ${seen.slice(-300)}`));
    });
  });
}

/** The four views with arguments from the devnet (its seed is the same in every process): a funded address and an X transaction. */
async function webViews(node: string, http: string[]): Promise<{ views: WebView[]; spend: WebSpend }> {
  const listed = parse(await cli(node, [...http, '--method', 'tools/call', '--tool-name', 'indexer_listTransactions', '--tool-args-json', '{"limit":5}'])).result;
  const tx = (listed?.structuredContent?.transactions as Array<{ id: string; chain: string; to: string[] }> | undefined)?.find((t) => t.chain === 'X' && t.to.length > 0);
  expect(tx, `no X transaction with a recipient on the devnet: ${listed?.content?.[0]?.text}`);
  const views = [
    { file: 'validators', app: 'Current validators', heading: /^\d+ validators \(\d+ connected\)$/ },
    { file: 'deposit-offers', app: 'Deposit offers', heading: /^Deposit offers$/ },
    { file: 'portfolio', app: 'Account overview', args: { addresses: [`X-${tx.to[0]}`] }, heading: /^Portfolio$/ },
    { file: 'transaction', app: 'Transaction status', args: { txID: tx.id }, heading: /^Transaction: Accepted$/ },
  ];
  return { views, spend: { tool: 'xvm_send', app: 'Send an asset on X', args: { amount: '1 CAM', assetID: 'CAM', to: `X-${tx.to[0]}` } } };
}

async function webChecks(node: string, views: WebView[], servers: Record<string, { era: Era; entry: Record<string, unknown>; spend?: WebSpend }>): Promise<void> {
  const { webCheck } = await import('./inspector-web.js');
  const [port, sandbox, appOrigin] = [await freePort(), await freePort(), await freePort()];
  const token = randomBytes(16).toString('hex');
  const config = join(CACHE, 'mcp.json');
  writeFileSync(config, JSON.stringify({ mcpServers: Object.fromEntries(Object.entries(servers).map(([name, s]) => [name, { ...s.entry, protocolEra: s.era }])) }, null, 1));
  const web = started(spawn(node, [LAUNCHER, '--web', '--config', config], {
    env: inspectorEnv({ CLIENT_PORT: String(port), MCP_SANDBOX_PORT: String(sandbox), MCP_APP_ORIGIN_PORT: String(appOrigin), MCP_INSPECTOR_API_TOKEN: token }),
    stdio: ['ignore', 'pipe', 'pipe'],
  }));
  try {
    await startUntil(web, /is up and running/, 'the inspector web UI');
    const shots = join(CACHE, 'screenshots');
    mkdirSync(shots, { recursive: true });
    const list = Object.entries(servers).map(([name, s]) => ({ name, version: ERA_VERSION[s.era], ...(s.spend ? { spend: s.spend } : {}) }));
    await webCheck(`http://127.0.0.1:${port}/?MCP_INSPECTOR_API_TOKEN=${token}`, list, views, shots, check);
  } finally {
    web.kill('SIGTERM');
  }
}

async function main(): Promise<number> {
  const webOnly = process.argv.includes('--web-only');
  const web = webOnly || process.argv.includes('--web');
  expect(existsSync(BIN), `missing ${BIN}: run npm run build first`);
  installInspector();
  const node = inspectorNode();
  console.log(`MCP Inspector ${INSPECTOR_VERSION} on Node ${execFileSync(node, ['--version'], { encoding: 'utf8' }).trim()}; chain-mcp on Node ${process.version}`);
  const stdio = [process.execPath, BIN, '--devnet'];
  if (!webOnly) for (const era of ['legacy', 'modern'] as const) await cliChecks(node, 'stdio', stdio, era);

  const port = await freePort();
  const token = randomBytes(24).toString('base64url');
  const url = `http://127.0.0.1:${port}/mcp`;
  const server = started(
    spawn(process.execPath, [BIN, '--http', '--devnet', '--port', String(port)], {
      env: { PATH: process.env.PATH ?? '', CHAIN_MCP_HTTP_TOKEN: token },
      stdio: ['ignore', 'ignore', 'pipe'],
    }),
  );
  try {
    await startUntil(server, /serving Streamable HTTP/, 'chain-mcp --http --devnet');
    // --header takes several values: the URL goes before it.
    const http = [url, '--header', `Authorization: Bearer ${token}`];
    if (!webOnly) for (const era of ['legacy', 'modern'] as const) await cliChecks(node, 'http', http, era);
    if (!webOnly) await check('cli http without the bearer token', async () => {
      const run = await cli(node, [url, '--stored-auth-only', '--method', 'tools/list']);
      expect(run.code !== 0, 'listed tools without the token');
      // The error envelope is one JSON line, on stderr or stdout.
      const line = `${run.stdout}\n${run.stderr}`.split('\n').find((l) => l.startsWith('{"error"'));
      const code = line ? (JSON.parse(line) as Json).error?.code : undefined;
      expect(code === 'auth_required', `expected auth_required, got ${line ?? `exit ${run.code}`}`);
      return `refused: ${code}`;
    });
    if (web) {
      // Spends on over stdio: the simulator's keystore user signs (the inspector's HOME holds no key file).
      const stdioEntry = { command: process.execPath, args: [BIN, '--devnet', '--allow-spend'] };
      const httpEntry = { type: 'streamable-http', url, headers: { Authorization: `Bearer ${token}` } };
      const { views, spend } = await webViews(node, http);
      await webChecks(node, views, {
        'stdio-2025': { era: 'legacy', entry: stdioEntry, spend },
        'stdio-2026': { era: 'modern', entry: stdioEntry, spend },
        'http-2025': { era: 'legacy', entry: httpEntry },
        'http-2026': { era: 'modern', entry: httpEntry },
      });
    }
  } finally {
    server.kill('SIGTERM');
  }
  console.log(failures === 0 ? 'inspector-check: every check passed' : `inspector-check: ${failures} check(s) failed`);
  return failures === 0 ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(`inspector-check: ${(err as Error).message}`);
    process.exit(1);
  },
);
