import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CATALOGUE } from '../../src/catalogue/index.js';
import { withToolTable } from '../../tools/readme-table.js';

describe('README', () => {
  const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');

  it('has the tool table of the current catalogue (run npm run readme after changing it)', () => {
    expect(withToolTable(readme, CATALOGUE)).toBe(readme);
  });

  it('has the two-command quick start', () => {
    expect(readme).toContain('npm install && npm run demo');
    expect(readme).toContain('npm install && npm test');
  });
});

describe('version', () => {
  it('matches package.json', async () => {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
    const { VERSION } = await import('../../src/version.js');
    expect(VERSION).toBe(pkg.version);
  });
});
