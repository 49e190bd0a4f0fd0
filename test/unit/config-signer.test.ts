import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig, unknownNameWarnings } from '../../src/config.js';

const dir = mkdtempSync(join(tmpdir(), 'chain-mcp-config-signer-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const file = (name: string, text: string) => {
  const path = join(dir, name);
  writeFileSync(path, text, { mode: 0o600 });
  return path;
};
const refusal = (env: NodeJS.ProcessEnv): string => {
  try {
    loadConfig(env);
  } catch (err) {
    return (err as Error).message;
  }
  return 'accepted';
};

describe('the signer settings (DESIGN section 8)', () => {
  it('signs locally when the key file exists, else with the keystore user when one is set, else not at all', () => {
    const cfg = join(dir, 'cfg');
    expect(loadConfig({ XDG_CONFIG_HOME: cfg }).signer).toBeUndefined();
    expect(loadConfig({ XDG_CONFIG_HOME: cfg, CHAIN_MCP_KEYSTORE_USER: 'alice', CHAIN_MCP_KEYSTORE_PASSWORD: 'correct horse battery' }).signer).toBe('keystore');
    mkdirSync(join(cfg, 'chain-mcp'), { recursive: true });
    writeFileSync(join(cfg, 'chain-mcp', 'key.json'), '{}');
    expect(loadConfig({ XDG_CONFIG_HOME: cfg }).keyFile).toBe(join(cfg, 'chain-mcp', 'key.json'));
    expect(loadConfig({ XDG_CONFIG_HOME: cfg }).signer).toBe('local');
    expect(loadConfig({ XDG_CONFIG_HOME: cfg, CHAIN_MCP_KEYSTORE_USER: 'alice', CHAIN_MCP_KEYSTORE_PASSWORD: 'correct horse battery' }).signer).toBe('local');
    expect(
      loadConfig({ XDG_CONFIG_HOME: cfg, CHAIN_MCP_SIGNER: 'keystore', CHAIN_MCP_KEYSTORE_USER: 'alice', CHAIN_MCP_KEYSTORE_PASSWORD: 'correct horse battery' }).signer,
    ).toBe('keystore');
  });

  it('refuses a signer it cannot use, in one line', () => {
    const missing = join(dir, 'nowhere', 'key.json');
    expect(refusal({ CHAIN_MCP_SIGNER: 'local', CHAIN_MCP_KEY_FILE: missing })).toBe(
      `CHAIN_MCP_SIGNER=local: no key file at ${missing}; make one with \`chain-mcp key new\` or \`chain-mcp key import\` in a terminal, or set CHAIN_MCP_KEY_FILE`,
    );
    expect(refusal({ CHAIN_MCP_SIGNER: 'keystore', XDG_CONFIG_HOME: join(dir, 'none') })).toBe(
      'CHAIN_MCP_SIGNER=keystore: set CHAIN_MCP_KEYSTORE_USER and CHAIN_MCP_KEYSTORE_PASSWORD (or CHAIN_MCP_KEYSTORE_PASSWORD_FILE)',
    );
    expect(refusal({ CHAIN_MCP_SIGNER: 'node' })).toBe('CHAIN_MCP_SIGNER: expected one of local, keystore (got "node")');
  });

  it('keeps the idle minutes between 1 and 1440 (default 15)', () => {
    expect(loadConfig({}).keyIdleMinutes).toBe(15);
    expect(loadConfig({ CHAIN_MCP_KEY_IDLE_MINUTES: '1' }).keyIdleMinutes).toBe(1);
    expect(loadConfig({ CHAIN_MCP_KEY_IDLE_MINUTES: '1440' }).keyIdleMinutes).toBe(1440);
    expect(refusal({ CHAIN_MCP_KEY_IDLE_MINUTES: '0' })).toBe('CHAIN_MCP_KEY_IDLE_MINUTES: expected minutes between 1 and 1440 (got "0")');
    expect(refusal({ CHAIN_MCP_KEY_IDLE_MINUTES: '1441' })).toBe('CHAIN_MCP_KEY_IDLE_MINUTES: expected minutes between 1 and 1440 (got "1441")');
  });

  it('reads the passphrase file at start, without one trailing newline, and masks it everywhere', () => {
    const path = file('passphrase', 'my long passphrase\n');
    const config = loadConfig({ CHAIN_MCP_KEY_PASSPHRASE_FILE: path });
    expect(config.keyPassphrase).toBe('my long passphrase');
    expect(config.keyPassphraseFile).toBe(path);
    expect(config.secrets).toContain('my long passphrase');
    expect(refusal({ CHAIN_MCP_KEY_PASSPHRASE_FILE: file('empty', '\n') })).toBe(`CHAIN_MCP_KEY_PASSPHRASE_FILE: ${join(dir, 'empty')} is empty`);
    expect(refusal({ CHAIN_MCP_KEY_PASSPHRASE_FILE: join(dir, 'absent') })).toBe(`CHAIN_MCP_KEY_PASSPHRASE_FILE: cannot read ${join(dir, 'absent')} (no such file)`);
  });

  it('never takes the passphrase from the environment: the name is unknown and points at the file', () => {
    expect(unknownNameWarnings({ CHAIN_MCP_KEY_PASSPHRASE: 'x' })).toEqual(['CHAIN_MCP_KEY_PASSPHRASE is not a chain-mcp setting; did you mean CHAIN_MCP_KEY_PASSPHRASE_FILE?']);
    expect(loadConfig({ CHAIN_MCP_KEY_PASSPHRASE: 'a passphrase in env' }).keyPassphrase).toBeUndefined();
  });
});

describe('secrets from files (CHAIN_MCP_*_FILE)', () => {
  it('reads each secret from its file, without one trailing newline, and says which came from the environment', () => {
    const config = loadConfig({
      CHAIN_MCP_KEYSTORE_USER: 'alice',
      CHAIN_MCP_KEYSTORE_PASSWORD_FILE: file('ks', 'keystore password\r\n'),
      CHAIN_MCP_AUTH_PASSWORD_FILE: file('ap', 'auth password\n\n'),
      CHAIN_MCP_AUTH_TOKEN: 'token in the environment',
    });
    expect(config.keystore).toEqual({ username: 'alice', password: 'keystore password' });
    // Only one newline goes: the second is part of the secret as written.
    expect(config.authPassword).toBe('auth password\n');
    expect(config.authToken).toBe('token in the environment');
    expect(config.secretsFromEnv).toEqual(['CHAIN_MCP_AUTH_TOKEN']);
    expect(config.secrets).toEqual(expect.arrayContaining(['keystore password', 'auth password\n', 'token in the environment']));
    expect(loadConfig({ CHAIN_MCP_AUTH_TOKEN_FILE: file('at', 'token from a file') }).authToken).toBe('token from a file');
  });

  it('refuses both the variable and its file, an unreadable file, and a short secret, never showing it', () => {
    for (const name of ['CHAIN_MCP_KEYSTORE_PASSWORD', 'CHAIN_MCP_AUTH_PASSWORD', 'CHAIN_MCP_AUTH_TOKEN']) {
      expect(refusal({ [name]: 'a secret value', [`${name}_FILE`]: file('both', 'another secret') })).toBe(`${name} and ${name}_FILE: set one, not both`);
      expect(refusal({ [`${name}_FILE`]: join(dir, 'missing') })).toBe(`${name}_FILE: cannot read ${join(dir, 'missing')} (no such file)`);
    }
    const short = refusal({ CHAIN_MCP_AUTH_TOKEN_FILE: file('short', 'abc\n') });
    expect(short).toBe('CHAIN_MCP_AUTH_TOKEN: expected at least 8 characters (a shorter secret cannot be redacted reliably)');
    expect(unknownNameWarnings({ CHAIN_MCP_AUTH_TOKEN_FILE: 'x', CHAIN_MCP_KEYSTORE_PASSWORD_FILE: 'y', CHAIN_MCP_AUTH_PASSWORD_FILE: 'z' })).toEqual([]);
  });
});
