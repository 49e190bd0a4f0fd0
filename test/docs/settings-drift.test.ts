import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FLAGS, knownEnvNames } from '../../src/config.js';
import { HELP } from '../../src/help.js';
import { SETTINGS } from '../../src/settings.js';
import { renderExtras, renderFlags, renderSettings, renderSizes, SETTINGS_DOC, SIZES_DOC, TOOLS_DOC, withBlock } from '../../tools/docs-blocks.js';
import { bundleEnv, serverJsonEnv, serverJsonText, userConfig } from '../../tools/gen-manifest.js';

const ROOT = join(import.meta.dirname, '..', '..');
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');

describe('one source for every setting (src/settings.ts)', () => {
  it('lists exactly the variables the configuration reads', () => {
    expect(SETTINGS.map((s) => s.env).sort()).toEqual([...knownEnvNames()].sort());
    expect(new Set(SETTINGS.map((s) => s.env)).size).toBe(SETTINGS.length);
  });

  it('every flag that sets a variable names one of the table', () => {
    const names = new Set(SETTINGS.map((s) => s.env));
    for (const flag of FLAGS.filter((f) => f.env)) expect(names.has(flag.env!), `--${flag.name}`).toBe(true);
  });

  it('--help names every variable', () => {
    for (const s of SETTINGS) expect(HELP, s.env).toMatch(new RegExp(`^ {2}${s.env}\\b`, 'm'));
  });

  it(`${SETTINGS_DOC} holds the generated table (npm run readme)`, () => {
    const page = read(SETTINGS_DOC);
    expect(page).toBe(withBlock(page, 'settings', renderSettings(), SETTINGS_DOC));
    for (const s of SETTINGS) expect(page, s.env).toContain(`\`${s.env}\``);
  });

  it(`${SETTINGS_DOC} lists every flag of --help (npm run readme), and defines <config dir>`, () => {
    const page = read(SETTINGS_DOC);
    expect(page).toBe(withBlock(page, 'flags', renderFlags(), SETTINGS_DOC));
    for (const name of ['http', 'port', 'host', 'check', 'devnet', 'version', 'help']) expect(page).toContain(`\`--${name}`);
    expect(page).toMatch(/`<config dir>` below is .*`\$XDG_CONFIG_HOME`/);
  });

  it('--help cuts no line inside a parenthesis or a code span, and keeps every value of a choice', () => {
    for (const line of HELP.split('\n')) {
      expect([...line.matchAll(/\(/g)].length, line).toBe([...line.matchAll(/\)/g)].length);
      expect([...line.matchAll(/`/g)].length % 2, line).toBe(0);
    }
    expect(HELP).toMatch(/^ {2}CHAIN_MCP_APPROVAL .*`human`.*`confirm-id`/m);
  });

  it('--help says what the program does now: a signer (not only the keystore), amounts with units, the real default toolsets, the unlock page', () => {
    expect(HELP).not.toContain('needs the keystore user');
    expect(HELP).not.toContain('in the smallest unit');
    expect(HELP).not.toContain('(default all)');
    expect(HELP).toMatch(/--toolsets a,b +CHAIN_MCP_TOOLSETS \(default: all but the evm and cx reads/);
    expect(HELP).toContain('typed on the unlock page');
  });

  it('server.json (MCP Registry) offers the bundle\'s settings, the key file among them, and no runtimeHint (npm run manifest)', () => {
    const text = read('server.json');
    expect(text).toBe(serverJsonText(text));
    const server = JSON.parse(text) as { packages: Array<Record<string, unknown>> };
    expect(server.packages[0]!.environmentVariables).toEqual(serverJsonEnv());
    expect(server.packages[0]).not.toHaveProperty('runtimeHint');
    expect(serverJsonEnv().map((v) => v.name)).toContain('CHAIN_MCP_KEY_FILE');
  });

  it(`${TOOLS_DOC} documents every prompt, resource, discovery tool and approval_decide (npm run readme)`, () => {
    const page = read(TOOLS_DOC);
    expect(page).toBe(withBlock(page, 'extras', renderExtras(), TOOLS_DOC));
    for (const name of ['portfolio_report', 'validator_report', 'staking_options', 'guarded_transfer', 'chain://network', 'chain://tools', 'chain://limits', 'list_toolsets', 'get_toolset_tools', 'enable_toolset', 'approval_decide']) {
      expect(page).toContain(`| \`${name}\` |`);
    }
  });

  it(`${SIZES_DOC} holds the tool list sizes of today's catalogue (npm run readme)`, () => {
    const page = read(SIZES_DOC);
    expect(page).toBe(withBlock(page, 'sizes', renderSizes(), SIZES_DOC));
  });

  it('the one-click bundle offers the table rows marked for it, each filled from its variable', () => {
    const manifest = JSON.parse(read('manifest.json')) as { user_config: Record<string, unknown>; server: { mcp_config: { env: Record<string, string> } } };
    expect(manifest.user_config).toEqual(userConfig());
    expect(manifest.server.mcp_config.env).toEqual(bundleEnv());
    const offered = SETTINGS.filter((s) => s.bundle).map((s) => s.env);
    expect(Object.keys(manifest.server.mcp_config.env).sort()).toEqual(offered.sort());
    // A secret is a password field in the host's settings, never plain text.
    for (const s of SETTINGS.filter((x) => x.secret && x.bundle)) expect(manifest.user_config[s.bundle!.key]).toMatchObject({ sensitive: true });
  });
});
