#!/usr/bin/env node
import { existsSync } from 'node:fs';
import { loadCatalogue } from './catalogue/load.js';
import { ConfigError, checkHttpConfig, checkToolNames, defaultPasskeyFile, fileWarnings, keyFilePath, loadConfig, namesToCheck, parseCli, tierWarnings, unknownNameWarnings } from './config.js';
import type { Config } from './core/config.js';
import { type LazyLogger, lazyLogger } from './lazy-log.js';
import { buildServer, createServices, loadCallPath } from './server.js';
import { openStateStore } from './state/open.js';
import { StdioGuard } from './stdio-guard.js';
import { serveStdio, StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import type { Terminal as TerminalType } from './signer/tty.js';
import { VERSION } from './version.js';

/** The process's logger once made: a start that fails writes what it logged before its last line. */
let startLog: LazyLogger | undefined;

/** CLI entry: parse flags and environment, then serve MCP on stdio or Streamable HTTP. */
async function main(): Promise<void> {
  if (process.argv[2] === 'passkey') return passkeyCommand(process.argv.slice(3));
  if (process.argv[2] === 'key') return (await import('./signer/cli.js')).keyCommand(process.argv.slice(3), process.env);
  const { cli, env } = parseCli(process.argv.slice(2), process.env);
  if (cli.help) {
    process.stdout.write(`${(await import('./help.js')).HELP}\n`);
    return;
  }
  if (cli.version) {
    process.stdout.write(`${VERSION}\n`);
    return;
  }
  let stopDevnet: (() => Promise<void>) | undefined;
  const setupWarnings: string[] = [];
  if (cli.devnet) {
    for (const name of ['CHAIN_MCP_NODE_URL', 'CHAIN_MCP_INDEXER_URL'] as const) {
      if (env[name]?.trim()) setupWarnings.push(`--devnet: the simulator replaces ${name} (${originOf(env[name].trim())}); drop --devnet to use that ${name === 'CHAIN_MCP_NODE_URL' ? 'node' : 'indexer'}`);
    }
    // The simulator is developer tooling; it is loaded only when asked for.
    const { startDevnet } = await import('./devnet/index.js');
    // A real node's names by default, so a newcomer sees what a real node looks like.
    const dialect = env.CHAIN_MCP_DEVNET_DIALECT === 'spec' ? 'spec' : 'camino';
    // The doctor's report is the whole output of --check: the simulator's lines would interleave with it.
    // The keystore stays on here (a default caminogo has it off): the newcomer's --devnet spends
    // work with either signer, and the local signer's own path is shown by `npm run demo`.
    // With a key file of the user's own, the simulator funds its addresses: the first transfer signs locally.
    const keyFile = env.CHAIN_MCP_KEY_FILE || keyFilePath(env);
    const fundKey = existsSync(keyFile) ? (await import('./signer/keyfile.js')).readKeyFileAddresses(keyFile) : undefined;
    const devnet = await startDevnet({ dialect, keystoreApi: true, fundKey, log: cli.check ? () => undefined : (line) => process.stderr.write(`${line}\n`) });
    if (fundKey && !cli.check) process.stderr.write(`devnet: funded your key (${keyFile}): 100 CAM on X, 50 CAM on P, 10 CAM on C at ${fundKey.evm}${dialect === 'camino' ? ', a 20 CAM deposit in its unlock period and 1.5 CAM of rewards to claim' : ''}\n`);
    env.CHAIN_MCP_NODE_URL = devnet.nodeUrl;
    env.CHAIN_MCP_INDEXER_URL = devnet.indexerUrl;
    if (devnet.runnerUrl) env.CHAIN_MCP_RUNNER_URL = devnet.runnerUrl;
    env.CHAIN_MCP_KEYSTORE_USER ??= devnet.keystore.username;
    // A password given as a file is the operator's; the simulator's would then clash with it.
    if (!env.CHAIN_MCP_KEYSTORE_PASSWORD_FILE) env.CHAIN_MCP_KEYSTORE_PASSWORD ??= devnet.keystore.password;
    stopDevnet = devnet.close;
  }
  // Before the checks that stop the start: a misspelled name can be why a setting seems missing.
  const unknownNames = unknownNameWarnings(env);
  if (!cli.check) for (const line of unknownNames) process.stderr.write(`chain-mcp: ${line}\n`);
  const config = loadConfig(env);
  if (namesToCheck(config)) {
    // Only then is the catalogue loaded before initialize: a start without the lists stays fast.
    checkToolNames(config, (await loadCatalogue()).map((t) => t.name));
  }
  // Under --check the report says everything a log line would, and log lines on the same
  // terminal would interleave with it (issue 23), so the logger stays silent. pino loads with the
  // first line logged (src/lazy-log.ts).
  const log = lazyLogger(cli.check ? 'silent' : config.logLevel, config.secrets);
  startLog = log;
  // The same lines at start (stderr) and in --check (warn lines of the report).
  setupWarnings.push(...tierWarnings(config), ...fileWarnings(config, env));
  if (!cli.check) for (const line of setupWarnings) process.stderr.write(`chain-mcp: ${line}\n`);
  // Opened before serving: a store that cannot be used stops the start with one line. Under --check
  // the report says what is wrong with it instead (doctor.ts opens it itself).
  const state = cli.check ? undefined : await openStateStore(config.state, log);
  const services = createServices(config, log, undefined, state);
  // Where spends, admin writes or a key file can be reached, the spend machinery is built now: a key
  // file that cannot be opened stops the start. A read-only start never loads it.
  if (services.spends) await services.loadMachinery();
  // A wrong CHAIN_MCP_KEY_PASSPHRASE_FILE stops the start; under --check the report says it instead.
  const signerTrouble = await services.prepareSigner().then(
    () => undefined,
    (err: unknown) => {
      if (!cli.check) throw err;
      return (err as Error).message;
    },
  );
  if (cli.check) {
    // Not an MCP session: the report is for a person at a terminal, so it goes to stdout.
    const { diagnose, renderFindings } = await import('./doctor.js');
    // The report's own tier line covers the tier warnings; unknown names lead it.
    const findings = [
      ...unknownNames.map((text) => ({ level: 'warn' as const, text })),
      ...setupWarnings.map((text) => ({ level: 'warn' as const, text })),
      ...(signerTrouble ? [{ level: 'fail' as const, text: signerTrouble }] : []),
      ...(cli.http ? await httpFindings(config, cli.port, cli.host) : []),
      ...(await diagnose(services)),
    ];
    process.stdout.write(`chain-mcp ${VERSION} check\n${renderFindings(findings)}\n`);
    await services.close().catch(() => undefined);
    await stopDevnet?.().catch(() => undefined);
    process.exit(findings.some((f) => f.level === 'fail') ? 1 : 0);
  }
  let closeMcp: (() => Promise<void>) | undefined;
  let closing = false;
  const shutdown = async () => {
    // Runs once: closing the transport calls its onclose, which lands here again.
    if (closing) return;
    closing = true;
    // Closing the MCP side first aborts in-flight calls, so their node requests are dropped
    // instead of being waited for (a client that went away needs no answer).
    await closeMcp?.().catch(() => undefined);
    await services.close().catch(() => undefined);
    await stopDevnet?.().catch(() => undefined);
    // Lines logged while pino was still loading are written before the process ends.
    await log.settled();
    process.exit(0);
  };
  process.once('SIGINT', shutdown);
  process.once('SIGTERM', shutdown);
  if (cli.http) {
    const { serveHttp } = await import('./http-server.js');
    const { port } = await serveHttp({ config, log, services, port: cli.port, host: cli.host });
    log.info({ url: `http://${cli.host.includes(':') ? `[${cli.host}]` : cli.host}:${port}${config.oauth ? new URL(config.oauth.publicUrl).pathname : '/mcp'}` }, 'serving Streamable HTTP');
    return;
  }
  // Load the catalogue, the call pipeline and the HTTP stack once the opening exchange has been
  // answered (initialize, or a 2026-07-28 client's first request), so the first call finds them ready.
  let warmed = false;
  const warm = () => {
    if (warmed) return;
    warmed = true;
    void services.catalogue();
    void loadCallPath();
    void services.http.warm();
  };
  // Lines that are not JSON-RPC get an error answer instead of silence (see stdio-guard.ts).
  const guard = new StdioGuard((line) => process.stdout.write(line));
  process.stdin.pipe(guard);
  // Both protocol eras on one pipe: the client's opening message decides (an initialize pins
  // 2025-11-25 with its session; a request with the 2026-07-28 _meta envelope pins that revision).
  const handle = serveStdio(
    ({ era }) => {
      const { mcp } = buildServer({ config, log, services });
      if (era === 'modern') setImmediate(warm);
      else mcp.server.oninitialized = warm;
      return mcp;
    },
    { transport: new StdioServerTransport(guard, process.stdout), onerror: (err) => log.debug({ err: err.message }, 'MCP stdio') },
  );
  closeMcp = () => handle.close();
  process.stdin.once('end', () => void shutdown());
  log.debug({ nodeUrl: config.nodeUrl }, 'serving MCP on stdio');
}

/** A URL's origin and path without credentials, for a message. */
function originOf(text: string): string {
  try {
    const u = new URL(text);
    return `${u.origin}${u.pathname === '/' ? '' : u.pathname}`;
  } catch {
    return text;
  }
}

/** `--check --http`: what would stop `--http` from starting, in the words the start uses. */
async function httpFindings(config: Config, port: number, host: string): Promise<Array<{ level: 'ok' | 'fail'; text: string }>> {
  const found: Array<{ level: 'ok' | 'fail'; text: string }> = [];
  try {
    checkHttpConfig(config);
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    found.push({ level: 'fail', text: err.message });
  }
  const { probePort } = await import('./http-server.js');
  const busy = await probePort(port, host);
  found.push(busy ? { level: 'fail', text: busy } : { level: 'ok', text: `--http: ${host} port ${port} is free to listen on` });
  return found;
}

const PASSKEY_USAGE = 'usage: chain-mcp passkey add [--name TEXT] [--port N]';

/**
 * `chain-mcp passkey add [--name TEXT] [--port N]`: register the operator's passkey for the approval
 * link. The page's address and a one-time code go to the controlling terminal only, so a program
 * running the command without one (a model with a shell) gets neither; no terminal, no registration.
 */
async function passkeyCommand(args: readonly string[]): Promise<void> {
  const [verb, ...rest] = args;
  if (verb !== 'add') throw new ConfigError(PASSKEY_USAGE);
  let port = 0;
  let name: string | undefined;
  for (let i = 0; i < rest.length; i += 2) {
    const [flag, value] = [rest[i], rest[i + 1] ?? ''];
    if (flag === '--port' && /^\d+$/.test(value) && Number(value) <= 65535) port = Number(value);
    else if (flag === '--name' && /^[\w .@-]{1,40}$/.test(value)) name = value;
    else throw new ConfigError(PASSKEY_USAGE);
  }
  const file = process.env.CHAIN_MCP_PASSKEY_FILE?.trim() || defaultPasskeyFile();
  const { NoTerminalError, Terminal } = await import('./signer/tty.js');
  let term: TerminalType;
  try {
    term = Terminal.open('passkey add', 'its page address and one-time code are shown on /dev/tty only (never on stdout)');
  } catch (err) {
    if (err instanceof NoTerminalError) throw new ConfigError(err.message);
    throw err;
  }
  try {
    const [{ PasskeyStore }, { registrationCode, servePasskeyRegistration }] = await Promise.all([import('./approval/passkey.js'), import('./approval/passkey-register.js')]);
    const code = registrationCode();
    const registration = await servePasskeyRegistration(new PasskeyStore(file), { code, name, port });
    term.write(
      `Open this page in a browser on this computer to register a passkey:\n  ${registration.url}\nType this one-time code on the page: ${code}\nIt will be stored in ${file} (CHAIN_MCP_PASSKEY_FILE). Ctrl-C to cancel.\n`,
    );
    try {
      const id = await registration.done;
      process.stdout.write(`Passkey ${id.slice(0, 12)}... registered${name ? ` as "${name}"` : ''}. A running chain-mcp reads passkeys at start: restart it. Approval links now need the passkey (CHAIN_MCP_APPROVAL_LINK=passkey, the default).\n`);
    } catch (err) {
      throw new ConfigError((err as Error).message);
    } finally {
      await registration.close();
    }
  } finally {
    term.close();
  }
}

main().catch(async (err: unknown) => {
  await startLog?.settled();
  const message = err instanceof ConfigError ? err.message : `chain-mcp failed to start: ${(err as Error)?.message ?? String(err)}`;
  process.stderr.write(`chain-mcp: ${message}\n`);
  process.exit(2);
});
