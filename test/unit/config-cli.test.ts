import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CATALOGUE } from '../../src/catalogue/index.js';
import { checkToolNames, cliOptions, FLAGS, knownEnvNames, loadConfig, namesToCheck, parseCli } from '../../src/config.js';
import { HELP } from '../../src/help.js';
import { editDistance, nearest } from '../../src/core/nearest.js';

describe('--help and the flag table', () => {
  it('lists every flag parseCli accepts, with its short form', () => {
    const options = cliOptions();
    expect(Object.keys(options)).toEqual(expect.arrayContaining(['http', 'port', 'check', 'devnet', 'max-spend', 'expect-network-id', 'help']));
    for (const [name, option] of Object.entries(options)) {
      expect(HELP, name).toMatch(new RegExp(`^ {2}(-${option.short}, )?--${name}\\b`, 'm'));
      // Each flag listed is one parseCli takes.
      const value = option.type === 'string' ? ['x'] : [];
      expect(() => parseCli([`--${name}`, ...value], {}), name).not.toThrow(/Unknown option/);
    }
  });

  it('lays the help out in two columns: each text starts at column 24, a long flag puts its text on the next line', () => {
    const lines = HELP.split('\n');
    for (const flag of FLAGS) {
      for (const part of flag.help.split('\n')) {
        expect(lines.some((l) => l.slice(24) === part && l.slice(0, 24).trimEnd().length < 24), `${flag.name}: ${part}`).toBe(true);
      }
      const head = `${flag.short ? `-${flag.short}, ` : ''}--${flag.name}${flag.arg ? ` ${flag.arg}` : ''}`;
      const at = lines.findIndex((l) => l.startsWith(`  ${head}`));
      expect(at, head).toBeGreaterThan(0);
      // Text on the same line when the flag fits the column (under 21 characters), else on the next.
      expect(lines[head.length < 21 ? at : at + 1]!.slice(24), head).toBe(flag.help.split('\n')[0]);
    }
    expect(lines.find((l) => l.startsWith('  (no flags)'))).toBe(`  ${'(no flags)'.padEnd(22)}serve MCP on stdio`);
  });

  it('maps every flag that names a variable onto it', () => {
    for (const flag of FLAGS.filter((f) => f.env !== undefined)) {
      const { env } = parseCli(flag.type === 'string' ? [`--${flag.name}`, '7'] : [`--${flag.name}`], {});
      expect(env[flag.env!], flag.name).toBe(flag.type === 'string' ? '7' : 'true');
    }
    expect(loadConfig(parseCli(['--max-spend', '1000', '--expect-network-id', '1001'], {}).env)).toMatchObject({
      maxSpend: 1000n,
      expectNetworkId: '1001',
    });
  });
});

describe('names checked at start', () => {
  const names = CATALOGUE.map((t) => t.name);
  it('refuses an unknown tool name in either list and accepts the real ones', () => {
    expect(() => checkToolNames(loadConfig({ CHAIN_MCP_TOOLS: 'info_peers,account_overview', CHAIN_MCP_EXCLUDE_TOOLS: 'xvm_send' }), names)).not.toThrow();
    expect(() => checkToolNames(loadConfig({ CHAIN_MCP_EXCLUDE_TOOLS: 'info_peer' }), names)).toThrow(
      'CHAIN_MCP_EXCLUDE_TOOLS: unknown tool "info_peer"; did you mean "info_peers"?',
    );
  });

  it('loads the catalogue before initialize only when a name list is set', () => {
    // An empty exclude list is still a Set: it must not count as a list (the catalogue would load before every start).
    expect(namesToCheck(loadConfig({}))).toBe(false);
    expect(namesToCheck(loadConfig({ CHAIN_MCP_EXCLUDE_TOOLS: '' }))).toBe(false);
    expect(namesToCheck(loadConfig({ CHAIN_MCP_TOOLS: 'info_peers' }))).toBe(true);
    expect(namesToCheck(loadConfig({ CHAIN_MCP_EXCLUDE_TOOLS: 'info_peers' }))).toBe(true);
  });

  it('knows every schema variable, the simulator dialect and the four settings other work adds', () => {
    const known = knownEnvNames();
    for (const name of [
      'CHAIN_MCP_NODE_URL',
      'CHAIN_MCP_APPROVAL_WAIT_MS',
      'CHAIN_MCP_DEVNET_DIALECT',
      'CHAIN_MCP_MAX_SPEND_PER_DAY',
      'CHAIN_MCP_APPROVAL_LINK',
      'CHAIN_MCP_HTTP_TOKEN',
      'CHAIN_MCP_PASSKEY_FILE',
    ]) {
      expect(known.has(name), name).toBe(true);
    }
  });

  it('knows every variable the desktop bundle sets and every one the source reads', () => {
    const known = knownEnvNames();
    const manifest = JSON.parse(readFileSync(new URL('../../manifest.json', import.meta.url), 'utf8')) as { server: { mcp_config: { env: Record<string, string> } } };
    for (const name of Object.keys(manifest.server.mcp_config.env)) expect(known.has(name), name).toBe(true);
    const main = readFileSync(new URL('../../src/main.ts', import.meta.url), 'utf8');
    for (const [name] of main.matchAll(/CHAIN_MCP_[A-Z0-9_]+/g)) expect(known.has(name), name).toBe(true);
  });
});

describe('nearest name', () => {
  it('counts a swap of neighbours as one edit and suggests only close names', () => {
    expect(editDistance('ALOW_SPEND', 'ALLOW_SPEND')).toBe(1);
    expect(editDistance('platfrom', 'platform')).toBe(1);
    expect(nearest('platfrom', ['info', 'platform', 'xvm'])).toBe('platform');
    expect(nearest('banana', ['info', 'platform', 'xvm'])).toBeUndefined();
  });
});

describe('a misspelled flag', () => {
  it('names the nearest real flag in one line', () => {
    expect(() => parseCli(['--max-spnd', '5'], {})).toThrow('unknown flag --max-spnd; did you mean --max-spend? (see chain-mcp --help)');
    expect(() => parseCli(['--frobnicate'], {})).toThrow('unknown flag --frobnicate (see chain-mcp --help)');
  });
});

describe('parseCli: what each command line means (mutation survivors, issue 25)', () => {
  it('each mode flag turns on its own mode only', () => {
    const modes = ['help', 'version', 'http', 'devnet', 'check'] as const;
    expect(parseCli([], {}).cli).toEqual({ help: false, version: false, http: false, port: 3000, host: '127.0.0.1', devnet: false, check: false });
    expect(parseCli(['--host', '0.0.0.0'], {}).cli.host).toBe('0.0.0.0');
    for (const mode of modes) {
      const { cli } = parseCli([`--${mode}`], {});
      for (const other of modes) expect(cli[other], `--${mode}: ${other}`).toBe(other === mode);
    }
  });

  it('keeps the environment it was given and adds only what a flag names', () => {
    const env = { CHAIN_MCP_NODE_URL: 'http://127.0.0.1:9650', OTHER: 'x' };
    expect(parseCli([], env).env).toEqual(env);
    expect(parseCli(['--max-spend', '5'], env).env).toEqual({ ...env, CHAIN_MCP_MAX_SPEND: '5' });
    expect(env).toEqual({ CHAIN_MCP_NODE_URL: 'http://127.0.0.1:9650', OTHER: 'x' });
  });

  it('takes a port of 0 to 65535 written as digits, and refuses anything else naming --port', () => {
    expect(parseCli(['--port', '65535'], {}).cli.port).toBe(65535);
    expect(parseCli(['--port', '0'], {}).cli.port).toBe(0);
    for (const bad of ['65536', '80x', 'x80', '8.5', '']) expect(() => parseCli(['--port', bad], {}), bad).toThrow(/^--port: expected a port number 0-65535/);
  });

  it('refuses a positional argument and names an unknown flag with the nearest known one', () => {
    expect(() => parseCli(['serve'], {})).toThrow(/serve.*see chain-mcp --help/);
    expect(() => parseCli(['--devnt'], {})).toThrow(/^unknown flag --devnt; did you mean --devnet\? \(see chain-mcp --help\)$/);
    expect(() => parseCli(['--zzzzzzzzzz'], {})).toThrow(/^unknown flag --zzzzzzzzzz \(see chain-mcp --help\)$/);
  });
});
