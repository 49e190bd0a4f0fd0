import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CATALOGUE } from '../../src/catalogue/index.js';
import { loadConfig } from '../../src/config.js';
import { VERSION } from '../../src/version.js';
import { buildManifest, MANIFEST_VERSION, manifestText } from '../../tools/gen-manifest.js';

const ROOT = join(import.meta.dirname, '..', '..');
const MCPB_CLI = join(ROOT, 'node_modules', '@anthropic-ai', 'mcpb', 'dist', 'cli', 'cli.js');

interface UserConfigField {
  type: string;
  default?: string | boolean;
  sensitive?: boolean;
}
interface Manifest {
  manifest_version: string;
  version: string;
  tools: Array<{ name: string; description: string }>;
  tools_generated: boolean;
  user_config: Record<string, UserConfigField>;
  server: { entry_point: string; mcp_config: { command: string; args: string[]; env: Record<string, string> } };
  compatibility: { runtimes: { node: string } };
}

const checkedIn = (): string => readFileSync(join(ROOT, 'manifest.json'), 'utf8');

describe('manifest.json', () => {
  it('is fresh: regenerating it from the catalogue gives the checked-in file (run `npm run manifest`)', () => {
    expect(checkedIn()).toBe(manifestText());
  });

  it('passes `mcpb validate` with the newest manifest_version the pinned mcpb knows', () => {
    const out = execFileSync(process.execPath, [MCPB_CLI, 'validate', join(ROOT, 'manifest.json')], { encoding: 'utf8' });
    expect(out).toMatch(/validation passes/i);
    const known = readFileSync(join(ROOT, 'node_modules', '@anthropic-ai', 'mcpb', 'dist', 'shared', 'constants.js'), 'utf8');
    expect(known).toContain(`LATEST_MANIFEST_VERSION = "${MANIFEST_VERSION}"`);
  });

  it('mcpb validate refuses a broken manifest (the check can fail)', () => {
    const broken = { ...buildManifest(), server: { type: 'node' } };
    const file = join(mkdtempSync(join(tmpdir(), 'chain-mcp-manifest-')), 'manifest.json');
    writeFileSync(file, JSON.stringify(broken));
    expect(() => execFileSync(process.execPath, [MCPB_CLI, 'validate', file], { stdio: 'pipe' })).toThrow();
  });

  it('lists every catalogue tool, generated at run time, with the package version', () => {
    const m = JSON.parse(checkedIn()) as Manifest;
    expect(m.tools.map((t) => t.name)).toEqual(CATALOGUE.map((t) => t.name));
    expect(m.tools_generated).toBe(true);
    expect(m.version).toBe(VERSION);
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { engines: { node: string } };
    expect(m.compatibility.runtimes.node).toBe(pkg.engines.node.replace(/^>=(\d+)$/, '>=$1.0.0'));
    for (const tool of CATALOGUE.filter((t) => t.tier === 'spend')) {
      expect(m.tools.find((t) => t.name === tool.name)?.description).toMatch(/spend tier/);
    }
  });

  it('keeps secrets sensitive and spending off by default', () => {
    const { user_config: uc } = JSON.parse(checkedIn()) as Manifest;
    expect(Object.keys(uc).sort()).toEqual([
      'allow_admin',
      'allow_spend',
      'allowed_recipients',
      'approval_link',
      'auth_token',
      'expect_network_id',
      'indexer_url',
      'keystore_password',
      'keystore_user',
      'max_spend',
      'max_spend_per_day',
      'node_url',
      'toolsets',
    ]);
    for (const key of ['auth_token', 'keystore_user', 'keystore_password']) expect(uc[key]?.sensitive).toBe(true);
    expect(uc.allow_spend).toMatchObject({ type: 'boolean', default: false });
    expect(uc.allow_admin).toMatchObject({ type: 'boolean', default: false });
    for (const key of ['node_url', 'indexer_url', 'toolsets']) expect(uc[key]?.sensitive).toBeUndefined();
  });

  it('passes user_config to the server through env names the configuration accepts', () => {
    const m = JSON.parse(checkedIn()) as Manifest;
    expect(m.server.mcp_config.args).toEqual([`\${__dirname}/${m.server.entry_point}`]);
    // What a host does at install: substitute each ${user_config.x} (its default when the user gave nothing).
    const substitute = (values: Record<string, string>) =>
      Object.fromEntries(
        Object.entries(m.server.mcp_config.env).map(([name, v]) => [name, v.replace(/\$\{user_config\.(\w+)\}/g, (_, key: string) => values[key] ?? String(m.user_config[key]?.default ?? ''))]),
      );
    for (const value of Object.values(m.server.mcp_config.env)) expect(value).toMatch(/^\$\{user_config\.\w+\}$/);
    const defaults = loadConfig(substitute({}));
    expect(defaults.nodeUrl).toBe('http://127.0.0.1:9650');
    expect(defaults.indexerUrl).toBeUndefined();
    expect(defaults.allowSpend).toBe(false);
    expect(defaults.keystore).toBeUndefined();
    expect(defaults).toMatchObject({ maxSpend: undefined, allowedRecipients: undefined, expectNetworkId: undefined });
    expect(defaults.toolsets.size).toBeGreaterThan(5);
    const filled = loadConfig(
      substitute({
        node_url: 'https://node.example.org',
        indexer_url: 'https://indexer.example.org',
        auth_token: 'token-abc-123',
        keystore_user: 'alice',
        keystore_password: 'Secret-Passw0rd!',
        allow_spend: 'true',
        toolsets: 'info,assistant',
        max_spend: '5000000000',
        max_spend_per_day: '20000000000',
        allowed_recipients: 'X-kopernikus1qurswpc8qurswpc8qurswpc8qurswpc8vp8860',
        expect_network_id: '1002',
      }),
    );
    expect(filled).toMatchObject({ nodeUrl: 'https://node.example.org', indexerUrl: 'https://indexer.example.org', authToken: 'token-abc-123', allowSpend: true });
    expect(filled.keystore).toEqual({ username: 'alice', password: 'Secret-Passw0rd!' });
    expect([...filled.toolsets].sort()).toEqual(['assistant', 'info']);
    // The spend limits reach the configuration the guards read.
    expect(String(filled.maxSpend)).toBe('5000000000');
    expect(filled.expectNetworkId).toBe('1002');
    expect([...(filled.allowedRecipients ?? [])]).toEqual(['X-kopernikus1qurswpc8qurswpc8qurswpc8qurswpc8vp8860']);
    // biome-ignore lint/suspicious/noTemplateCurlyInString: MCPB's own placeholder syntax, not a template
    expect(m.server.mcp_config.env.CHAIN_MCP_MAX_SPEND_PER_DAY).toBe('${user_config.max_spend_per_day}');
  });
});
