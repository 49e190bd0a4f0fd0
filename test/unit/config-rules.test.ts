import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkHttpConfig, loadConfig, tierWarnings, unknownNameWarnings } from '../../src/config.js';
import { TOOLSETS } from '../../src/core/toolsets.js';

const refusal = (env: NodeJS.ProcessEnv): string => {
  try {
    loadConfig(env);
  } catch (err) {
    return (err as Error).message;
  }
  return 'accepted';
};

const KEYSTORE = { CHAIN_MCP_KEYSTORE_USER: 'alice', CHAIN_MCP_KEYSTORE_PASSWORD: 'correct horse battery' };

describe('configuration rules (mutation survivors, issue 25)', () => {
  it('starts read-only with every documented default and no secret', () => {
    expect(loadConfig({ XDG_CONFIG_HOME: '/cfg' })).toEqual({
      nodeUrl: 'http://127.0.0.1:9650',
      indexerUrl: undefined,
      runnerUrl: undefined,
      runnerExecPath: undefined,
      authToken: undefined,
      authPassword: undefined,
      keystore: undefined,
      adminSecret: undefined,
      allowSpend: false,
      allowAdmin: false,
      dynamic: false,
      toolsetsChosen: false,
      toolsets: new Set(TOOLSETS),
      tools: undefined,
      excludeTools: new Set(),
      maxSpend: undefined,
      maxSpendPerDay: undefined,
      allowedRecipients: undefined,
      expectNetworkId: undefined,
      timeoutMs: 15_000,
      logLevel: 'info',
      maxOutputBytes: 8192,
      maxStructuredBytes: 65_536,
      approval: 'human',
      approvalWaitMs: 60_000,
      approvalLink: 'passkey',
      passkeyFile: '/cfg/chain-mcp/passkeys.json',
      signer: undefined,
      keyFile: '/cfg/chain-mcp/key.json',
      keyPassphrase: undefined,
      keyPassphraseFile: undefined,
      keyIdleMinutes: 15,
      secretsFromEnv: [],
      wire: { base: 'auto', overrides: {} },
      state: { kind: 'memory' },
      stateKey: undefined,
      secrets: [],
      httpToken: undefined,
      httpIdleMs: 1_800_000,
      httpMaxSessions: 32,
      oauth: undefined,
      rateLimit: { points: 60, seconds: 60, text: "60/min" },
    });
  });

  it('keeps the state in memory by default, spends on or off, so a first transfer needs no database', () => {
    expect(loadConfig({ XDG_CONFIG_HOME: '/cfg' }).state).toEqual({ kind: 'memory' });
    expect(loadConfig({ XDG_CONFIG_HOME: '/cfg', CHAIN_MCP_ALLOW_SPEND: 'true' }).state).toEqual({ kind: 'memory' });
    expect(loadConfig({ XDG_CONFIG_HOME: '/cfg', CHAIN_MCP_ALLOW_SPEND: 'true', CHAIN_MCP_STATE: 'memory' }).state).toEqual({ kind: 'memory' });
    expect(loadConfig({ CHAIN_MCP_STATE: 'sqlite:/var/lib/chain-mcp/s.db' }).state).toEqual({ kind: 'sqlite', file: '/var/lib/chain-mcp/s.db' });
    expect(loadConfig({ CHAIN_MCP_STATE: 'sqlite:rel/s.db' }).state).toEqual({ kind: 'sqlite', file: `${process.cwd()}/rel/s.db` });
  });

  it('a shared store needs CHAIN_MCP_STATE_KEY; the key and the database password are secrets, never echoed', () => {
    const url = 'postgres://chain:db-password-1234@db.example:5432/chain';
    expect(refusal({ CHAIN_MCP_STATE: url })).toMatch(/^CHAIN_MCP_STATE_KEY: required with a shared store \(CHAIN_MCP_STATE=postgres:\/\/…\)/);
    const key = 'A1'.repeat(32);
    const config = loadConfig({ CHAIN_MCP_STATE: url, CHAIN_MCP_STATE_KEY: key });
    expect(config.state).toEqual({ kind: 'postgres', url });
    expect(config.stateKey).toBe(key.toLowerCase());
    expect(config.secrets).toEqual([key, 'db-password-1234']);
    const short = refusal({ CHAIN_MCP_STATE: url, CHAIN_MCP_STATE_KEY: 'abcd' });
    expect(short).toBe('CHAIN_MCP_STATE_KEY: expected 32 bytes as 64 hex digits (openssl rand -hex 32)');
    expect(refusal({ CHAIN_MCP_STATE: 'redis://x' })).toBe('CHAIN_MCP_STATE: expected memory, sqlite:<file> or postgres://user:password@host:5432/database (got "redis://x")');
    expect(refusal({ CHAIN_MCP_STATE: 'sqlite:' })).toBe('CHAIN_MCP_STATE: sqlite: needs a file, as in sqlite:/var/lib/chain-mcp/state.db');
    expect(refusal({ CHAIN_MCP_STATE: 'postgres://[bad' })).not.toContain('[bad');
  });

  it('takes only http and https URLs, without trailing slashes', () => {
    expect(loadConfig({ CHAIN_MCP_NODE_URL: 'https://node.example:9650//' }).nodeUrl).toBe('https://node.example:9650');
    expect(loadConfig({ CHAIN_MCP_INDEXER_URL: ' http://127.0.0.1:8080/ ' }).indexerUrl).toBe('http://127.0.0.1:8080');
    expect(refusal({ CHAIN_MCP_NODE_URL: 'ftp://node.example' })).toBe('CHAIN_MCP_NODE_URL: expected an http:// or https:// URL of the node (got "ftp://node.example")');
    expect(refusal({ CHAIN_MCP_INDEXER_URL: 'not a url' })).toBe('CHAIN_MCP_INDEXER_URL: expected an http:// or https:// URL of the indexer (got "not a url")');
  });

  it('keeps the HTTP idle time and session count inside their ranges, ends included', () => {
    expect(loadConfig({ CHAIN_MCP_HTTP_IDLE_MS: '1000', CHAIN_MCP_HTTP_MAX_SESSIONS: '10000' })).toMatchObject({ httpIdleMs: 1000, httpMaxSessions: 10_000 });
    expect(loadConfig({ CHAIN_MCP_HTTP_IDLE_MS: '86400000', CHAIN_MCP_HTTP_MAX_SESSIONS: '1' })).toMatchObject({ httpIdleMs: 86_400_000, httpMaxSessions: 1 });
    expect(loadConfig({})).toMatchObject({ httpIdleMs: 1_800_000, httpMaxSessions: 32 });
    expect(refusal({ CHAIN_MCP_HTTP_IDLE_MS: '999' })).toBe('CHAIN_MCP_HTTP_IDLE_MS: expected milliseconds between 1000 and 86400000 (got "999")');
    expect(refusal({ CHAIN_MCP_HTTP_IDLE_MS: '86400001' })).toBe('CHAIN_MCP_HTTP_IDLE_MS: expected milliseconds between 1000 and 86400000 (got "86400001")');
    expect(refusal({ CHAIN_MCP_HTTP_MAX_SESSIONS: '0' })).toBe('CHAIN_MCP_HTTP_MAX_SESSIONS: expected a session count between 1 and 10000 (got "0")');
    expect(refusal({ CHAIN_MCP_HTTP_MAX_SESSIONS: '10001' })).toBe('CHAIN_MCP_HTTP_MAX_SESSIONS: expected a session count between 1 and 10000 (got "10001")');
  });

  it('keeps the timeout within 100 ms to 10 minutes and the approval wait within its 5 minutes, ends included', () => {
    expect(loadConfig({ CHAIN_MCP_TIMEOUT_MS: '100' }).timeoutMs).toBe(100);
    expect(loadConfig({ CHAIN_MCP_TIMEOUT_MS: '600000' }).timeoutMs).toBe(600_000);
    expect(refusal({ CHAIN_MCP_TIMEOUT_MS: '99' })).toMatch(/^CHAIN_MCP_TIMEOUT_MS: expected between 100 and 600000 milliseconds/);
    expect(refusal({ CHAIN_MCP_TIMEOUT_MS: '600001' })).toMatch(/^CHAIN_MCP_TIMEOUT_MS: expected between 100 and 600000 milliseconds/);
    expect(loadConfig({ CHAIN_MCP_APPROVAL_WAIT_MS: '300000' }).approvalWaitMs).toBe(300_000);
    expect(refusal({ CHAIN_MCP_APPROVAL_WAIT_MS: '300001' })).toMatch(/^CHAIN_MCP_APPROVAL_WAIT_MS: expected at most 300000 milliseconds/);
  });

  it('needs the keystore user and password together', () => {
    const both = 'CHAIN_MCP_KEYSTORE_USER and CHAIN_MCP_KEYSTORE_PASSWORD: set both or neither';
    expect(refusal({ CHAIN_MCP_KEYSTORE_USER: 'alice' })).toBe(both);
    expect(refusal({ CHAIN_MCP_KEYSTORE_PASSWORD: 'correct horse battery' })).toBe(both);
    expect(loadConfig(KEYSTORE).keystore).toEqual({ username: 'alice', password: 'correct horse battery' });
    expect(loadConfig({}).keystore).toBeUndefined();
  });

  it('refuses --http with spend or admin tools and no bearer token, naming the switch that needs it', () => {
    expect(() => checkHttpConfig(loadConfig({ CHAIN_MCP_ALLOW_SPEND: 'true' }))).toThrow(/^CHAIN_MCP_HTTP_TOKEN: required with --http when CHAIN_MCP_ALLOW_SPEND is on/);
    expect(() => checkHttpConfig(loadConfig({ CHAIN_MCP_ALLOW_ADMIN: 'true' }))).toThrow(/^CHAIN_MCP_HTTP_TOKEN: required with --http when CHAIN_MCP_ALLOW_ADMIN is on/);
    expect(() => checkHttpConfig(loadConfig({}))).not.toThrow();
    expect(() => checkHttpConfig(loadConfig({ CHAIN_MCP_ALLOW_SPEND: 'true', CHAIN_MCP_HTTP_TOKEN: 'a-long-random-token-1234' }))).not.toThrow();
  });

  it('warns about each CHAIN_MCP_ name it does not read, sorted, with the nearest real name when one is close', () => {
    expect(
      unknownNameWarnings({ CHAIN_MCP_NODE_UR: 'x', PATH: '/bin', CHAIN_MCP_ALLOW_SPEND: 'true', CHAIN_MCP_ZZZZZZZZZZZZ: '1', MY_CHAIN_MCP_NODE_UR: 'x', CHAIN_MCP_DEVNET_DIALECT: 'camino' }),
    ).toEqual([
      'CHAIN_MCP_NODE_UR is not a chain-mcp setting; did you mean CHAIN_MCP_NODE_URL?',
      'CHAIN_MCP_ZZZZZZZZZZZZ is not a chain-mcp setting; see chain-mcp --help for the settings',
    ]);
    expect(unknownNameWarnings({})).toEqual([]);
  });

  it('warns when a tier switch cannot take effect without a keystore user', () => {
    expect(tierWarnings(loadConfig({}))).toEqual([]);
    expect(tierWarnings(loadConfig({ CHAIN_MCP_ALLOW_SPEND: 'true', CHAIN_MCP_ALLOW_ADMIN: 'true', ...KEYSTORE }))).toEqual([]);
    const both = tierWarnings(loadConfig({ CHAIN_MCP_ALLOW_SPEND: 'true', CHAIN_MCP_ALLOW_ADMIN: 'true' }));
    expect(both).toHaveLength(2);
    expect(both[0]).toMatch(/^CHAIN_MCP_ALLOW_SPEND is on, but spend tools stay hidden/);
    expect(both[1]).toMatch(/^CHAIN_MCP_ALLOW_ADMIN is on without a keystore user/);
    expect(tierWarnings(loadConfig({ CHAIN_MCP_ALLOW_ADMIN: 'true' }))).toEqual([both[1]]);
  });

  it('reads toolsets "all", empty or absent as every toolset, else exactly those named', () => {
    const every = loadConfig({}).toolsets;
    expect(loadConfig({ CHAIN_MCP_TOOLSETS: 'all' }).toolsets).toEqual(every);
    expect(loadConfig({ CHAIN_MCP_TOOLSETS: '' }).toolsets).toEqual(every);
    expect(loadConfig({ CHAIN_MCP_TOOLSETS: ' , ' }).toolsets).toEqual(every);
    expect([...loadConfig({ CHAIN_MCP_TOOLSETS: ' info , xvm ' }).toolsets]).toEqual(['info', 'xvm']);
    expect(loadConfig({ CHAIN_MCP_TOOLS: ' , ' }).tools).toBeUndefined();
    expect([...(loadConfig({ CHAIN_MCP_TOOLS: 'info_getNodeID, xvm_getBalance' }).tools ?? [])]).toEqual(['info_getNodeID', 'xvm_getBalance']);
  });

  it('reads whole numbers only: digits with anything before or after them are refused, naming the variable', () => {
    const numeric = [
      'CHAIN_MCP_MAX_SPEND',
      'CHAIN_MCP_MAX_SPEND_PER_DAY',
      'CHAIN_MCP_EXPECT_NETWORK_ID',
      'CHAIN_MCP_TIMEOUT_MS',
      'CHAIN_MCP_APPROVAL_WAIT_MS',
      'CHAIN_MCP_MAX_OUTPUT_BYTES',
      'CHAIN_MCP_HTTP_IDLE_MS',
      'CHAIN_MCP_HTTP_MAX_SESSIONS',
    ];
    for (const name of numeric) {
      for (const value of ['5000x', 'x5000', '50.5']) expect(refusal({ [name]: value }), `${name}=${value}`).toMatch(new RegExp(`^${name}: `));
      expect(refusal({ [name]: '5000' }), name).toBe('accepted');
    }
  });

  it('takes a passkey file path only when it is not empty, and only passkey or plain links', () => {
    expect(loadConfig({ CHAIN_MCP_PASSKEY_FILE: ' /keys/p.json ' }).passkeyFile).toBe('/keys/p.json');
    expect(refusal({ CHAIN_MCP_PASSKEY_FILE: '   ' })).toMatch(/^CHAIN_MCP_PASSKEY_FILE: /);
    expect(loadConfig({ CHAIN_MCP_APPROVAL_LINK: 'plain' }).approvalLink).toBe('plain');
    expect(refusal({ CHAIN_MCP_APPROVAL_LINK: 'open' })).toBe('CHAIN_MCP_APPROVAL_LINK: expected one of passkey, plain (got "open")');
  });
});

describe('CHAIN_MCP_RATE_LIMIT units (issue 44)', () => {
  it('reads s and sec as per second, min as per minute, h and hour as per hour', () => {
    const rate = (text: string) => loadConfig({ CHAIN_MCP_RATE_LIMIT: text }).rateLimit;
    expect(rate('5/sec')).toEqual({ points: 5, seconds: 1, text: '5/sec' });
    expect(rate('5/s')).toEqual({ points: 5, seconds: 1, text: '5/s' });
    expect(rate('30/min')).toEqual({ points: 30, seconds: 60, text: '30/min' });
    expect(rate('1000/h')).toEqual({ points: 1000, seconds: 3600, text: '1000/h' });
    expect(rate('1000/hour')).toEqual({ points: 1000, seconds: 3600, text: '1000/hour' });
    expect(refusal({ CHAIN_MCP_RATE_LIMIT: '5/second' })).toMatch(/^CHAIN_MCP_RATE_LIMIT: expected requests per period/);
  });
});

describe('the state key and the database URL from files (CHAIN_MCP_STATE_KEY_FILE, CHAIN_MCP_STATE_FILE)', () => {
  it('reads each once at start, without its trailing newline; both forms at once are refused', () => {
    const dir = mkdtempSync(join(tmpdir(), 'chain-mcp-state-files-'));
    try {
      const key = join(dir, 'key');
      const url = join(dir, 'url');
      writeFileSync(key, `${'AB'.repeat(32)}\n`, { mode: 0o600 });
      writeFileSync(url, 'postgres://chain:db-secret-pass@127.0.0.1:5432/chain\n', { mode: 0o600 });
      const config = loadConfig({ CHAIN_MCP_STATE_KEY_FILE: key, CHAIN_MCP_STATE_FILE: url });
      expect(config.stateKey).toBe('ab'.repeat(32));
      expect(config.state).toEqual({ kind: 'postgres', url: 'postgres://chain:db-secret-pass@127.0.0.1:5432/chain' });
      expect(config.secrets).toContain('db-secret-pass');
      expect(() => loadConfig({ CHAIN_MCP_STATE_KEY_FILE: key, CHAIN_MCP_STATE_KEY: '0f'.repeat(32) })).toThrow('CHAIN_MCP_STATE_KEY and CHAIN_MCP_STATE_KEY_FILE: set one, not both');
      expect(() => loadConfig({ CHAIN_MCP_STATE_FILE: join(dir, 'missing') })).toThrow(`CHAIN_MCP_STATE_FILE: cannot read ${join(dir, 'missing')} (no such file)`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
