import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FLAGS, HELP, knownEnvNames } from '../../src/config.js';
import { SETTINGS } from '../../src/settings.js';
import { renderSettings, renderSizes, SETTINGS_DOC, SIZES_DOC, withBlock } from '../../tools/docs-blocks.js';
import { bundleEnv, userConfig } from '../../tools/gen-manifest.js';

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
