#!/usr/bin/env node
import { ConfigError, checkToolNames, defaultPasskeyFile, HELP, loadConfig, namesToCheck, parseCli, tierWarnings, unknownNameWarnings } from './config.js';
import { createLogger } from './log.js';
import { VERSION } from './version.js';

/** CLI entry: parse flags and environment, then serve MCP on stdio or Streamable HTTP. */
async function main(): Promise<void> {
  if (process.argv[2] === 'passkey') return passkeyCommand(process.argv.slice(3));
  const { cli, env } = parseCli(process.argv.slice(2), process.env);
  if (cli.help) {
    process.stdout.write(`${HELP}\n`);
    return;
  }
  if (cli.version) {
    process.stdout.write(`${VERSION}\n`);
    return;
  }
  let stopDevnet: (() => Promise<void>) | undefined;
  if (cli.devnet) {
    // The simulator is developer tooling; it is loaded only when asked for.
    const { startDevnet } = await import('./devnet/index.js');
    // A real node's names by default, so a newcomer sees what a real node looks like.
    const dialect = env.CHAIN_MCP_DEVNET_DIALECT === 'spec' ? 'spec' : 'camino';
    // The doctor's report is the whole output of --check: the simulator's lines would interleave with it.
    const devnet = await startDevnet({ dialect, log: cli.check ? () => undefined : (line) => process.stderr.write(`${line}\n`) });
    env.CHAIN_MCP_NODE_URL = devnet.nodeUrl;
    env.CHAIN_MCP_INDEXER_URL = devnet.indexerUrl;
    if (devnet.runnerUrl) env.CHAIN_MCP_RUNNER_URL = devnet.runnerUrl;
    env.CHAIN_MCP_KEYSTORE_USER ??= devnet.keystore.username;
    env.CHAIN_MCP_KEYSTORE_PASSWORD ??= devnet.keystore.password;
    stopDevnet = devnet.close;
  }
  // Before the checks that stop the start: a misspelled name can be why a setting seems missing.
  const unknownNames = unknownNameWarnings(env);
  if (!cli.check) for (const line of unknownNames) process.stderr.write(`chain-mcp: ${line}\n`);
  const config = loadConfig(env);
  if (namesToCheck(config)) {
    // Only then is the catalogue loaded before initialize: a start without the lists stays fast.
    const { loadCatalogue } = await import('./catalogue/load.js');
    checkToolNames(config, (await loadCatalogue()).map((t) => t.name));
  }
  // Under --check the report says everything a log line would, and log lines on the same
  // terminal would interleave with it (issue 23), so the logger stays silent.
  const log = createLogger(cli.check ? 'silent' : config.logLevel, config.secrets);
  if (!cli.check) for (const line of tierWarnings(config)) process.stderr.write(`chain-mcp: ${line}\n`);
  const { createServices } = await import('./server.js');
  // Opened before serving: a store that cannot be used stops the start with one line. Under --check
  // the report says what is wrong with it instead (doctor.ts opens it itself).
  const state = cli.check ? undefined : await (await import('./state/open.js')).openStateStore(config.state, log);
  const services = createServices(config, log, undefined, state);
  if (cli.check) {
    // Not an MCP session: the report is for a person at a terminal, so it goes to stdout.
    const { diagnose, renderFindings } = await import('./doctor.js');
    // The report's own tier line covers the tier warnings; unknown names lead it.
    const findings = [...unknownNames.map((text) => ({ level: 'warn' as const, text })), ...(await diagnose(services))];
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
  const [{ StdioServerTransport }, { buildServer, loadCallPath }, { StdioGuard }] = await Promise.all([
    import('@modelcontextprotocol/sdk/server/stdio.js'),
    import('./server.js'),
    import('./stdio-guard.js'),
  ]);
  const { mcp } = buildServer({ config, log, services });
  // Load the catalogue, the call pipeline and the HTTP stack once initialize has been answered, so the first call finds them ready.
  mcp.server.oninitialized = () => {
    void services.catalogue();
    void loadCallPath();
    void services.http.warm();
  };
  // Lines that are not JSON-RPC get an error answer instead of silence (see stdio-guard.ts).
  const guard = new StdioGuard((line) => process.stdout.write(line));
  process.stdin.pipe(guard);
  const transport = new StdioServerTransport(guard, process.stdout);
  closeMcp = () => mcp.close();
  transport.onclose = () => void shutdown();
  process.stdin.once('end', () => void shutdown());
  await mcp.connect(transport);
  log.debug({ nodeUrl: config.nodeUrl }, 'serving MCP on stdio');
}

/** `chain-mcp passkey add [--port N]`: register the operator's passkey for the approval link. */
async function passkeyCommand(args: readonly string[]): Promise<void> {
  const [verb, ...rest] = args;
  let port = 0;
  if (rest[0] === '--port' && /^\d+$/.test(rest[1] ?? '') && Number(rest[1]) <= 65535) port = Number(rest[1]);
  else if (rest.length > 0 || verb !== 'add') throw new ConfigError('usage: chain-mcp passkey add [--port N]');
  const file = process.env.CHAIN_MCP_PASSKEY_FILE?.trim() || defaultPasskeyFile();
  const [{ PasskeyStore }, { servePasskeyRegistration }] = await Promise.all([import('./approval/passkey.js'), import('./approval/passkey-register.js')]);
  const registration = await servePasskeyRegistration(new PasskeyStore(file), port);
  // A person at a terminal runs this: the URL goes to stdout. It holds a secret path; do not share it.
  process.stdout.write(`Open this page in a browser on this computer to register a passkey:\n  ${registration.url}\nIt will be stored in ${file} (CHAIN_MCP_PASSKEY_FILE). Ctrl-C to cancel.\n`);
  const id = await registration.done;
  await registration.close();
  process.stdout.write(`Passkey ${id.slice(0, 12)}... registered. Approval links now need it (CHAIN_MCP_APPROVAL_LINK=passkey, the default).\n`);
}

main().catch((err: unknown) => {
  const message = err instanceof ConfigError ? err.message : `chain-mcp failed to start: ${(err as Error)?.message ?? String(err)}`;
  process.stderr.write(`chain-mcp: ${message}\n`);
  process.exit(2);
});
