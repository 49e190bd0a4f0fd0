import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, parseCli } from '../../src/config.js';

describe('configuration', () => {
  it('applies the documented defaults', () => {
    const c = loadConfig({});
    expect(c.nodeUrl).toBe('http://127.0.0.1:9650');
    expect(c.timeoutMs).toBe(15_000);
    expect(c.allowSpend).toBe(false);
    expect(c.allowAdmin).toBe(false);
    expect(c.indexerUrl).toBeUndefined();
    expect(c.toolsets.size).toBe(12);
  });

  it('treats an unfilled desktop-bundle placeholder as unset', () => {
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the literal placeholder text a desktop bundle passes
    const c = loadConfig({ CHAIN_MCP_INDEXER_URL: '${user_config.indexer_url}', CHAIN_MCP_ALLOW_SPEND: '${user_config.allow_spend}' });
    expect(c.indexerUrl).toBeUndefined();
    expect(c.allowSpend).toBe(false);
  });

  it('reads uint64 limits exactly and lists secrets for redaction', () => {
    const c = loadConfig({
      CHAIN_MCP_MAX_SPEND: '18446744073709551615',
      CHAIN_MCP_AUTH_TOKEN: 'tok-abcdef',
      CHAIN_MCP_KEYSTORE_USER: 'u',
      CHAIN_MCP_KEYSTORE_PASSWORD: 'Pw-123456!',
    });
    expect(c.maxSpend).toBe(18446744073709551615n);
    expect(c.secrets).toEqual(['tok-abcdef', 'Pw-123456!']);
    expect(() => loadConfig({ CHAIN_MCP_MAX_SPEND: '18446744073709551616' })).toThrow(/CHAIN_MCP_MAX_SPEND: expected a value that fits in 64 bits/);
  });

  it('reads an amount limit as nCAM digits or a display amount with its unit, stating the conversion when refused', () => {
    expect(loadConfig({ CHAIN_MCP_MAX_SPEND: '1.5 CAM' }).maxSpend).toBe(1_500_000_000n);
    expect(loadConfig({ CHAIN_MCP_MAX_SPEND: '2cam' }).maxSpend).toBe(2_000_000_000n);
    expect(loadConfig({ CHAIN_MCP_MAX_SPEND_PER_DAY: '0.000000001 CAM' }).maxSpendPerDay).toBe(1n);
    expect(loadConfig({ CHAIN_MCP_MAX_SPEND_PER_DAY: '1500000000 nCAM' }).maxSpendPerDay).toBe(1_500_000_000n);
    expect(loadConfig({ CHAIN_MCP_MAX_SPEND: ' 7 ' }).maxSpend).toBe(7n);
    const conversion = '(1 CAM = 1000000000 nCAM)';
    for (const bad of ['1.5', '1.5 nCAM', 'CAM', '1,5 CAM', '1.5 GLD', '-1 CAM', '1e9'])
      expect(() => loadConfig({ CHAIN_MCP_MAX_SPEND: bad }), bad).toThrow(`CHAIN_MCP_MAX_SPEND: expected nCAM digits or a display amount such as "1.5 CAM" ${conversion}`);
    expect(() => loadConfig({ CHAIN_MCP_MAX_SPEND: '0.0000000001 CAM' })).toThrow(`CHAIN_MCP_MAX_SPEND: expected at most 9 decimals of CAM ${conversion}`);
    expect(() => loadConfig({ CHAIN_MCP_MAX_SPEND: '18446744073.709551616 CAM' })).toThrow('CHAIN_MCP_MAX_SPEND: expected a value that fits in 64 bits');
  });

  it('reads a flag as on only for true, 1 or yes, and refuses any other word naming the variable', () => {
    for (const name of ['CHAIN_MCP_ALLOW_SPEND', 'CHAIN_MCP_ALLOW_ADMIN', 'CHAIN_MCP_DYNAMIC'] as const) {
      const key = ({ CHAIN_MCP_ALLOW_SPEND: 'allowSpend', CHAIN_MCP_ALLOW_ADMIN: 'allowAdmin', CHAIN_MCP_DYNAMIC: 'dynamic' } as const)[name];
      for (const off of ['no', '0', 'false', '']) expect(loadConfig({ [name]: off })[key], `${name}=${off}`).toBe(false);
      for (const on of ['yes', '1', 'true']) expect(loadConfig({ [name]: on })[key], `${name}=${on}`).toBe(true);
      for (const bad of ['maybe', 'on', 'off', 'TRUE ', 'nope']) expect(() => loadConfig({ [name]: bad }), `${name}=${bad}`).toThrow(new RegExp(`${name}: expected true or false`));
    }
  });

  it('does not turn the admin tier on from CHAIN_MCP_ADMIN_SECRET alone', () => {
    const c = loadConfig({ CHAIN_MCP_ADMIN_SECRET: 'admin-secret-1234' });
    expect(c.allowAdmin).toBe(false);
    expect(c.adminSecret).toBe('admin-secret-1234');
  });

  it('maps flags onto the same variables', () => {
    const { cli, env } = parseCli(['--http', '--port', '4000', '--toolsets', 'info,platform', '--allow-spend'], {});
    expect(cli).toMatchObject({ http: true, port: 4000, devnet: false });
    const c = loadConfig(env);
    expect([...c.toolsets]).toEqual(['info', 'platform']);
    expect(c.allowSpend).toBe(true);
    expect(() => parseCli(['--port', 'x'], {})).toThrow(ConfigError);
  });

  it('reads the result budgets and refuses a budget too small to be useful, naming the variable', () => {
    expect(loadConfig({})).toMatchObject({ maxOutputBytes: 8192, maxStructuredBytes: 65_536 });
    expect(loadConfig({ CHAIN_MCP_MAX_STRUCTURED_BYTES: '20000' }).maxStructuredBytes).toBe(20_000);
    expect(() => loadConfig({ CHAIN_MCP_MAX_STRUCTURED_BYTES: '100' })).toThrow(/CHAIN_MCP_MAX_STRUCTURED_BYTES: expected at least 4096 bytes/);
    expect(() => loadConfig({ CHAIN_MCP_MAX_OUTPUT_BYTES: '1k' })).toThrow(/CHAIN_MCP_MAX_OUTPUT_BYTES: expected bytes as a whole number/);
  });

  it('overrides wire names for node builds that use others', () => {
    expect(loadConfig({}).wire).toEqual({ base: 'auto', overrides: {} });
    expect(loadConfig({ CHAIN_MCP_WIRE_NAMES: 'camino,xvm=avm2' }).wire).toEqual({ base: 'camino', overrides: { xvm: 'avm2' } });
    expect(() => loadConfig({ CHAIN_MCP_WIRE_NAMES: 'bogus=1' })).toThrow(/CHAIN_MCP_WIRE_NAMES/);
  });

  it('refuses a secret too short to redact, in one line naming the variable and not showing the value', () => {
    for (const name of ['CHAIN_MCP_AUTH_TOKEN', 'CHAIN_MCP_AUTH_PASSWORD', 'CHAIN_MCP_KEYSTORE_PASSWORD', 'CHAIN_MCP_ADMIN_SECRET']) {
      const env: Record<string, string> = { [name]: 'abc1234', CHAIN_MCP_KEYSTORE_USER: 'u', CHAIN_MCP_KEYSTORE_PASSWORD: 'long-enough-pw' };
      if (name === 'CHAIN_MCP_KEYSTORE_PASSWORD') env[name] = 'abc1234';
      const err = (() => {
        try {
          loadConfig(env);
        } catch (e) {
          return e as Error;
        }
      })();
      expect(err, name).toBeInstanceOf(ConfigError);
      expect(err?.message).toBe(`${name}: expected at least 8 characters (a shorter secret cannot be redacted reliably)`);
    }
    expect(loadConfig({ CHAIN_MCP_AUTH_TOKEN: 'abcd1234' }).secrets).toEqual(['abcd1234']);
  });

  it('refuses CHAIN_MCP_WIRE_NAMES values that are not names or plain path segments, naming the key', () => {
    const bad: Record<string, string> = {
      'platform=/ext/../admin': 'platform',
      'platform=/ext/P?x=1': 'platform',
      'xvmStatic=/ext/vm/avm#frag': 'xvmStatic',
      'cxPath=../keystore': 'cxPath',
      'cxPath=av ax': 'cxPath',
      'xvm=avm.x': 'xvm',
      'cx=a/b': 'cx',
      'platform=/ext/P%2F..': 'platform',
    };
    for (const [value, key] of Object.entries(bad)) {
      expect(() => loadConfig({ CHAIN_MCP_WIRE_NAMES: value }), value).toThrow(new RegExp(`^CHAIN_MCP_WIRE_NAMES: ${key}: expected `));
    }
    expect(loadConfig({ CHAIN_MCP_WIRE_NAMES: 'camino,platform=/ext/bc/P,cxPath=avax,xvm=avm' }).wire.overrides).toEqual({ platform: '/ext/bc/P', cxPath: 'avax', xvm: 'avm' });
  });
});

describe('configuration messages and limits (mutation survivors, issue 25)', () => {
  const refusal = (env: Record<string, string>): string => {
    try {
      loadConfig(env);
    } catch (err) {
      expect(err).toBeInstanceOf(ConfigError);
      return (err as Error).message;
    }
    throw new Error(`accepted ${JSON.stringify(env)}`);
  };

  it('names an unknown toolset with the nearest one, once, and takes "all" and known names', () => {
    expect(refusal({ CHAIN_MCP_TOOLSETS: 'xvm,plaform' })).toMatch(/^CHAIN_MCP_TOOLSETS: unknown toolset "plaform"; did you mean "platform"\? \(expected "all" or some of: [^)]*\)$/);
    expect(refusal({ CHAIN_MCP_TOOLSETS: 'qqqqqqqq' })).toMatch(/^CHAIN_MCP_TOOLSETS: unknown toolset "qqqqqqqq" \(expected/);
    expect(loadConfig({ CHAIN_MCP_TOOLSETS: 'all' }).toolsets.size).toBeGreaterThan(3);
    expect([...loadConfig({ CHAIN_MCP_TOOLSETS: ' xvm , platform ' }).toolsets]).toEqual(['xvm', 'platform']);
  });

  it('refuses an allow-list entry that is not an address, and takes chain and 0x addresses', () => {
    expect(refusal({ CHAIN_MCP_ALLOWED_RECIPIENTS: 'alice' })).toMatch(/^CHAIN_MCP_ALLOWED_RECIPIENTS: "alice" is not an address/);
    expect(refusal({ CHAIN_MCP_ALLOWED_RECIPIENTS: '0x1234' })).toMatch(/"0x1234" is not an address: expected 0x and 40 hex digits$/);
    const hex = '0x0101010101010101010101010101010101010101';
    const x = 'X-camino1qyqszqgpqyqszqgpqyqszqgpqyqszqgpua39v8';
    expect([...loadConfig({ CHAIN_MCP_ALLOWED_RECIPIENTS: `${hex}, ${x}` }).allowedRecipients!]).toEqual(expect.arrayContaining([x]));
  });

  it('shows the value it refused when it is no secret, and lists the allowed values', () => {
    expect(refusal({ CHAIN_MCP_LOG_LEVEL: 'loud' })).toBe('CHAIN_MCP_LOG_LEVEL: expected one of fatal, error, warn, info, debug, trace, silent (got "loud")');
    expect(refusal({ CHAIN_MCP_TIMEOUT_MS: '99' })).toBe('CHAIN_MCP_TIMEOUT_MS: expected between 100 and 600000 milliseconds (got "99")');
    expect(refusal({ CHAIN_MCP_TIMEOUT_MS: '600001' })).toMatch(/^CHAIN_MCP_TIMEOUT_MS: expected between 100 and 600000/);
    expect(loadConfig({ CHAIN_MCP_TIMEOUT_MS: '100' }).timeoutMs).toBe(100);
    expect(loadConfig({ CHAIN_MCP_TIMEOUT_MS: '600000' }).timeoutMs).toBe(600_000);
  });

  it('a tool name list is set only when it names a tool', () => {
    expect(loadConfig({}).tools).toBeUndefined();
    expect(loadConfig({ CHAIN_MCP_TOOLS: 'xvm_getBalance' }).tools).toEqual(new Set(['xvm_getBalance']));
  });
});
