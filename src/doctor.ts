import { readFileSync } from 'node:fs';
import type { Config } from './config.js';
import { ChainMcpError, HttpStatusError, RpcError, toChainMcpError } from './errors.js';
import type { Services } from './services.js';
import { readKeyFileAddresses } from './signer/keyfile.js';
import { describeState, openStateStore } from './state/open.js';
import type { Endpoint } from './wire.js';

/** One finding: `ok` works, `warn` will not work but the setup is usable, `fail` a broken setup. */
export interface Finding {
  level: 'ok' | 'warn' | 'fail';
  text: string;
}

const MARK = { ok: 'ok  ', warn: 'warn', fail: 'FAIL' } as const;

export function renderFindings(findings: readonly Finding[]): string {
  return findings.map((f) => `${MARK[f.level]}  ${f.text}`).join('\n');
}

/** Whether a failed call still proves the API is there (the node understood the method, but disliked the arguments). */
function served(err: unknown): boolean {
  return err instanceof RpcError && !/can't find (service|method)/i.test(err.message);
}

function why(err: unknown): string {
  const e = toChainMcpError(err);
  return e.message.replace(/\.$/, '');
}

/** A cheap call per API family: answered (or refused for its arguments) means the family works. */
const PROBES: Array<{ toolsets: string; endpoint: Endpoint; method: string; params?: Record<string, unknown> | unknown[] }> = [
  { toolsets: 'platform', endpoint: 'platform', method: 'platform.getHeight', params: {} },
  { toolsets: 'xvm', endpoint: 'xvm', method: 'xvm.getAssetDescription', params: { assetID: 'AVAX' } },
  { toolsets: 'evm', endpoint: 'evm', method: 'eth_chainId', params: [] },
  { toolsets: 'cx', endpoint: 'cx', method: 'cx.getAtomicTxStatus', params: { txID: '11111111111111111111111111111111LpoYY' } },
];

/**
 * `chain-mcp --check` / `npm run doctor`: connects to the configured node and indexer and says, one
 * line each, what works and why the rest will not. Exit code 1 when the setup is broken.
 */
export async function diagnose(services: Services): Promise<Finding[]> {
  const { config } = services;
  const findings: Finding[] = [];
  const node = safeUrl(config.nodeUrl);
  try {
    const version = (await services.rpc('info', 'info.getNodeVersion', undefined, { retry: false })) as { version?: unknown } | null;
    findings.push({ level: 'ok', text: `node at ${node} answers: ${String(version?.version ?? 'version not reported')}` });
  } catch (err) {
    const e = toChainMcpError(err);
    const text =
      e.kind === 'connection' && e.message.startsWith('Cannot reach')
        ? `cannot reach the node at ${node}: no network or DNS; check this machine's network connection and DNS (the URL may be right)`
        : e.kind === 'connection' || e.kind === 'timeout'
        ? `cannot reach the node at ${node} (${why(e)}); check CHAIN_MCP_NODE_URL and that the node is running`
        : e instanceof HttpStatusError && e.status === 404
          ? `${node} answers, but not as a node of this family (/ext/info is 404); check CHAIN_MCP_NODE_URL`
          : `the node at ${node} refused info.getNodeVersion: ${why(e)}`;
    findings.push({ level: 'fail', text });
    return [...findings, await stateFinding(config), ...(await oauthFindings(config)), ...(await indexerFindings(services))];
  }
  try {
    const d = await services.dialect.get();
    findings.push({ level: 'ok', text: `API names: ${d.dialect} (${d.source === 'configured' ? 'from CHAIN_MCP_WIRE_NAMES' : `learned from ${d.source}`}): X chain "${d.wire.xvm}", C-chain atomic API "${d.wire.cx}" at /ext/bc/C/${d.wire.cxPath}` });
  } catch (err) {
    findings.push({ level: 'fail', text: `API names unknown: ${why(err)}; set CHAIN_MCP_WIRE_NAMES=camino or spec` });
  }
  try {
    const n = await services.network();
    findings.push({ level: 'ok', text: `network ${n.networkID} (address prefix "${n.hrp}"${n.assetSymbol ? `, native asset ${n.assetSymbol}` : ''})` });
    const pin = config.expectNetworkId;
    if (pin !== undefined && pin !== String(n.networkID)) {
      // With spends on this is a broken setup: every spend would be refused by the pin.
      findings.push({
        level: config.allowSpend ? 'fail' : 'warn',
        text: `CHAIN_MCP_EXPECT_NETWORK_ID is ${pin}, but the node at ${node} is on network ${n.networkID}: every spend will be refused; set CHAIN_MCP_EXPECT_NETWORK_ID=${n.networkID} if this is the network you mean, or point CHAIN_MCP_NODE_URL at a network-${pin} node`,
      });
    }
  } catch (err) {
    findings.push({ level: 'warn', text: `network not learned: ${why(err)}` });
  }
  for (const probe of PROBES) {
    try {
      await services.rpc(probe.endpoint, probe.method, probe.params, { retry: false });
      findings.push({ level: 'ok', text: `${probe.toolsets} tools: the API answers` });
    } catch (err) {
      if (served(err)) findings.push({ level: 'ok', text: `${probe.toolsets} tools: the API answers` });
      else findings.push({ level: 'warn', text: `${probe.toolsets} tools will not work: ${why(err)}` });
    }
  }
  findings.push(await keystoreFinding(services, config));
  // The key file's state is the machinery's (main.ts has built it at start where a key file is used).
  if (config.signer === 'local') await services.loadMachinery();
  findings.push(...signerFindings(services));
  findings.push(tierFinding(config));
  return [...findings, await stateFinding(config), ...(await oauthFindings(config)), ...(await indexerFindings(services))];
}

/** Under OAuth: the issuer's metadata and key set reachable, the public URL and what tokens must name. */
async function oauthFindings(config: Config): Promise<Finding[]> {
  const oauth = config.oauth;
  if (!oauth) return [];
  const [{ Issuer, checkIssuer }, { ALGORITHMS }, { metadataUrl }] = await Promise.all([import('./auth/issuer.js'), import('./auth/verify.js'), import('./auth/resource.js')]);
  const findings: Finding[] = [];
  const url = new URL(oauth.publicUrl);
  const loopback = ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname);
  findings.push(
    url.protocol === 'https:' || loopback
      ? { level: 'ok', text: `public URL ${oauth.publicUrl}: tokens must name the audience ${oauth.audience}; metadata at ${metadataUrl(oauth.publicUrl)}; load balancers probe /healthz` }
      : { level: 'warn', text: `public URL ${oauth.publicUrl} is plain http: bearer tokens would cross the network readable; put TLS in front (docs/deploy.md)` },
  );
  try {
    const { metadata, keys, algs } = await checkIssuer(new Issuer(oauth.issuer), ALGORITHMS);
    findings.push(
      keys > 0
        ? { level: 'ok', text: `issuer ${oauth.issuer}: metadata found, JWKS at ${metadata.jwks_uri} reachable (${keys} usable key${keys === 1 ? '' : 's'}: ${algs.join(', ')})` }
        : { level: 'fail', text: `issuer ${oauth.issuer}: the JWKS at ${metadata.jwks_uri} holds no ${ALGORITHMS.join('/')} signing key, so no token can be verified` },
    );
    if (oauth.clientId && (!metadata.authorization_endpoint || !metadata.token_endpoint)) {
      findings.push({ level: 'fail', text: `issuer ${oauth.issuer} names no authorization or token endpoint: the approval page cannot sign users in (CHAIN_MCP_OAUTH_CLIENT_ID)` });
    }
  } catch (err) {
    findings.push({ level: 'fail', text: `issuer ${oauth.issuer} cannot be used: ${(err as Error).message}` });
  }
  return findings;
}

/** The state store (CHAIN_MCP_STATE): opened, read once and closed, as a start would. */
async function stateFinding(config: Config): Promise<Finding> {
  const where = describeState(config.state);
  try {
    const store = await openStateStore(config.state);
    try {
      await store.spent('chain-mcp-check', Date.now());
    } finally {
      await store.close();
    }
  } catch (err) {
    return { level: 'fail', text: `state store ${where} cannot be used: ${(err as Error).message}` };
  }
  // Under the local signer the daily total is what the chain says the key sent; under the
  // keystore signer it is the store's own count, which memory loses at a restart.
  if (config.state.kind === 'memory' && config.allowSpend && config.maxSpendPerDay !== undefined && config.signer !== 'local') {
    return {
      level: 'warn',
      text: `state store: ${where}; under the keystore signer CHAIN_MCP_MAX_SPEND_PER_DAY starts from zero at every restart (CHAIN_MCP_STATE=sqlite:<file> keeps it)`,
    };
  }
  return { level: 'ok', text: `state store: ${where}${config.state.kind === 'postgres' ? '; confirmation ids bound by CHAIN_MCP_STATE_KEY' : ''}` };
}

async function keystoreFinding(services: Services, config: Config): Promise<Finding> {
  const needed = config.allowSpend || config.keystore !== undefined;
  try {
    const raw = (await services.rpc('keystore', 'keystore.listUsers', {}, { retry: false })) as { users?: unknown } | null;
    const users = Array.isArray(raw?.users) ? raw.users.map(String) : [];
    if (config.keystore && !users.includes(config.keystore.username)) {
      return { level: 'fail', text: `keystore user "${config.keystore.username}" does not exist on the node; wallet and spend tools will fail (keystore_createUser, or fix CHAIN_MCP_KEYSTORE_USER)` };
    }
    if (config.keystore) {
      const wrong = await passwordRefusal(services, config.keystore);
      if (wrong) return { level: 'fail', text: wrong };
    }
    return { level: 'ok', text: `keystore API enabled${config.keystore ? `; user "${config.keystore.username}" exists and the password opens it` : config.signer === 'local' ? '; no keystore user set (spends sign with the local key; the keystore-only wallet tools stay off)' : '; no CHAIN_MCP_KEYSTORE_USER set, so wallet and spend tools stay off'}` };
  } catch (err) {
    // The executor already says a 404 on /ext/keystore means the API is off (execute.ts keystoreDisabled).
    const off = (err instanceof HttpStatusError && err.status === 404) || (err instanceof ChainMcpError && /keystore API is disabled/.test(err.message));
    // With the API off no user can be created or checked; one made earlier may still sign.
    if (off && config.keystore) {
      // The user was set for spends the node can no longer sign: the fix is this process's own signer.
      return {
        level: config.signer === 'keystore' ? 'fail' : 'warn',
        text: `keystore user "${config.keystore.username}" is set, but the node's keystore API is disabled (404 on /ext/keystore): the node cannot sign with it; use the local signer instead (\`chain-mcp key import\` in a terminal, then CHAIN_MCP_SIGNER=local)`,
      };
    }
    const text = off
      ? "the node's keystore API is disabled (404 on /ext/keystore): keystore users cannot be created or checked, so wallet and spend tools will likely fail; start the node with --api-keystore-enabled=true (all reads work without it)"
      : `keystore API: ${why(err)}`;
    return { level: off || !needed ? 'warn' : 'fail', text };
  }
}

/**
 * listUsers proves the user exists, not that the password opens it. Listing the user's X
 * addresses needs both and changes nothing; the node answers a wrong password with
 * `problem retrieving user "NAME": incorrect password for user "NAME"`. Other refusals are
 * not the password's fault, so they are left to the probes above.
 */
async function passwordRefusal(services: Services, keystore: { username: string; password: string }): Promise<string | undefined> {
  try {
    await services.rpc('xvm', 'xvm.listAddresses', { username: keystore.username, password: keystore.password }, { retry: false });
    return undefined;
  } catch (err) {
    if (!(err instanceof RpcError) || !/incorrect password/i.test(err.message)) return undefined;
    return `CHAIN_MCP_KEYSTORE_PASSWORD does not open keystore user "${keystore.username}" (the node says: incorrect password); wallet and spend tools will fail until it is fixed`;
  }
}

/** Who signs, the key file and its lock, and secrets the environment exposes while spends are on: one line each. */
export function signerFindings(services: Services): Finding[] {
  const { config } = services;
  const findings: Finding[] = [];
  if (config.signer === 'local') findings.push({ level: 'ok', text: 'signer: local (this process signs with the key file)' });
  else if (config.signer === 'keystore') findings.push({ level: 'ok', text: `signer: keystore user "${config.keystore?.username ?? ''}" (the node signs)` });
  else {
    findings.push({
      level: config.allowSpend ? 'warn' : 'ok',
      text: 'signer: none, so spends stay off (make a key with `chain-mcp key new` or `chain-mcp key import` in a terminal, or set CHAIN_MCP_KEYSTORE_USER)',
    });
  }
  try {
    const addresses = readKeyFileAddresses(config.keyFile);
    const state = !services.signer
      ? 'not used (CHAIN_MCP_SIGNER=keystore)'
      : services.signer.isUnlocked()
        ? 'unlocked (from CHAIN_MCP_KEY_PASSPHRASE_FILE; it stays unlocked while the server runs)'
        : `locked (the human unlocks it on the unlock page; it locks again after ${config.keyIdleMinutes} minutes without a spend)`;
    findings.push({ level: 'ok', text: `key file ${config.keyFile}: present, C address ${addresses.evm}, ${state}` });
  } catch (err) {
    const absent = /^no key file/.test((err as Error).message);
    findings.push(
      absent
        ? { level: 'ok', text: `key file ${config.keyFile}: absent (\`chain-mcp key new\` or \`chain-mcp key import\` makes one)` }
        : { level: 'fail', text: `key file ${config.keyFile}: ${(err as Error).message}` },
    );
  }
  if (config.allowSpend && config.secretsFromEnv.length > 0) {
    const names = config.secretsFromEnv;
    findings.push({
      level: 'warn',
      text: `spends are on and ${names.join(', ')} ${names.length === 1 ? 'comes' : 'come'} from the environment, which every process of the same OS user can read (/proc/<pid>/environ): use ${names.map((n) => `${n}_FILE`).join(', ')} with a file only chain-mcp's OS user reads`,
    });
  }
  if (config.allowSpend && config.signer === 'local') {
    const ptrace = ptraceFinding(process.platform, readPtraceScope);
    if (ptrace) findings.push(ptrace);
  }
  return findings;
}

function readPtraceScope(): string | undefined {
  try {
    return readFileSync('/proc/sys/kernel/yama/ptrace_scope', 'utf8');
  } catch {
    return undefined;
  }
}

/**
 * The guard holds against a same-user process only while it cannot read this process's memory
 * (DESIGN section 9): on Linux that is Yama's ptrace_scope of 1 or more. Nothing to say elsewhere.
 */
export function ptraceFinding(platform: string, readScope: () => string | undefined): Finding | undefined {
  if (platform !== 'linux') return undefined;
  const scope = readScope()?.trim();
  const fix = 'set `sysctl kernel.yama.ptrace_scope=1` or run chain-mcp as its own OS user (docs/spending.md)';
  if (scope === undefined) {
    return { level: 'warn', text: `ptrace: Yama is not enabled on this kernel, so any process of your OS user can read this process's memory, an unlocked key included: ${fix}` };
  }
  if (scope === '0') {
    return { level: 'warn', text: `ptrace: kernel.yama.ptrace_scope is 0, so any process of your OS user can read this process's memory, an unlocked key included: ${fix}` };
  }
  return { level: 'ok', text: `ptrace: kernel.yama.ptrace_scope is ${scope}: other processes of your OS user cannot read this process's memory` };
}

function tierFinding(config: Config): Finding {
  const on = ['read', config.keystore ? 'wallet' : '', config.allowSpend ? 'spend' : '', config.allowAdmin ? 'admin' : ''].filter(Boolean);
  const off = [
    config.keystore ? '' : 'wallet (set CHAIN_MCP_KEYSTORE_USER and CHAIN_MCP_KEYSTORE_PASSWORD)',
    config.allowSpend ? '' : 'spend (CHAIN_MCP_ALLOW_SPEND=true)',
    config.allowAdmin ? '' : 'admin (CHAIN_MCP_ALLOW_ADMIN=true)',
  ].filter(Boolean);
  const spendWithoutKeys = config.allowSpend && !config.signer;
  return {
    level: spendWithoutKeys ? 'warn' : 'ok',
    text: `tiers on: ${on.join(', ')}${off.length ? `; off: ${off.join(', ')}` : ''}${spendWithoutKeys ? '; spends stay off until there is a signer (a key file or the keystore credentials)' : ''}`,
  };
}

async function indexerFindings(services: Services): Promise<Finding[]> {
  const url = services.config.indexerUrl;
  if (!url || !services.indexerClient) return [{ level: 'warn', text: 'indexer not configured: indexer tools stay hidden (set CHAIN_MCP_INDEXER_URL)' }];
  if (sameService(url, services.config.nodeUrl)) {
    return [{ level: 'fail', text: `CHAIN_MCP_INDEXER_URL is the node's URL (${safeUrl(url)}); the indexer is Magellan, a separate service (Columbus: https://magellan.columbus.camino.network); set its URL or unset CHAIN_MCP_INDEXER_URL` }];
  }
  try {
    await services.indexerClient.get('/v2', []);
    return [{ level: 'ok', text: `indexer at ${safeUrl(url)} answers` }];
  } catch (err) {
    const e = err instanceof ChainMcpError ? err : toChainMcpError(err);
    const text =
      e.kind === 'connection' || e.kind === 'timeout'
        ? `cannot reach the indexer at ${safeUrl(url)} (${why(e)}); check CHAIN_MCP_INDEXER_URL`
        : (await answersAsNode(services, url))
          ? `CHAIN_MCP_INDEXER_URL (${safeUrl(url)}) answers as a node, not as an indexer; the indexer is Magellan, a separate service (Columbus: https://magellan.columbus.camino.network)`
          : `the indexer at ${safeUrl(url)} does not answer GET /v2 as an indexer: ${why(e)}`;
    return [{ level: 'fail', text }];
  }
}

/** Two base URLs of one service: the same origin and path, whatever the trailing slash or letter case of the host. */
function sameService(a: string, b: string): boolean {
  try {
    const [x, y] = [new URL(a), new URL(b)];
    return x.origin === y.origin && x.pathname.replace(/\/+$/, '') === y.pathname.replace(/\/+$/, '');
  } catch {
    return false;
  }
}

/** An indexer URL that is really a node (another port of it, a proxy in front): it answers info.getNodeVersion. */
async function answersAsNode(services: Services, url: string): Promise<boolean> {
  try {
    const res = await services.http.send({
      method: 'POST',
      url: `${url}/ext/info`,
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'info.getNodeVersion' }),
      retry: false,
      service: 'indexer',
    });
    const body = JSON.parse(res.text) as { result?: { version?: unknown } };
    return typeof body.result?.version === 'string';
  } catch {
    return false;
  }
}

/** Credentials in a URL never reach the report. */
function safeUrl(url: string): string {
  try {
    const u = new URL(url);
    u.username = '';
    u.password = '';
    return u.toString().replace(/\/$/, '');
  } catch {
    return '(invalid URL)';
  }
}
