import { readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type InstalledTarball, installTarball } from '../helpers/tarball.js';

const ROOT = join(import.meta.dirname, '..', '..');
/** The packed tarball's ceiling: the one-file server compresses to well under it (docs/publishing.md). */
const MAX_PACKED_BYTES = 2 * 1024 * 1024;

describe('installing the packed tarball', () => {
  let installed: InstalledTarball;
  let project: string;
  beforeAll(() => {
    installed = installTarball();
    project = installed.project;
  }, 120_000);
  afterAll(() => rmSync(installed.dir, { recursive: true, force: true }));

  it('declares no dependency: the bundle carries them all', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as Record<string, unknown>;
    expect(pkg.dependencies ?? {}).toEqual({});
    expect(pkg.optionalDependencies ?? {}).toEqual({});
    expect(pkg.peerDependencies ?? {}).toEqual({});
  });

  it('adds exactly one package to an empty project, and stays small', () => {
    const packages = readdirSync(join(project, 'node_modules')).filter((n) => !n.startsWith('.'));
    expect(packages).toEqual(['chain-mcp']);
    expect(statSync(installed.tarball).size).toBeLessThan(MAX_PACKED_BYTES);
  });

  it('the sizes the README and docs/publishing.md state are the tarball\'s, to a tenth of a MB', () => {
    const mb = (bytes: number) => (bytes / 1_000_000).toFixed(1);
    const packed = statSync(installed.tarball).size;
    let unpacked = 0;
    const walk = (dir: string) => {
      for (const e of readdirSync(dir, { withFileTypes: true })) {
        if (e.isDirectory()) walk(join(dir, e.name));
        else unpacked += statSync(join(dir, e.name)).size;
      }
    };
    walk(join(project, 'node_modules', 'chain-mcp'));
    expect(readFileSync(join(ROOT, 'README.md'), 'utf8')).toContain(`**The tarball** (about ${mb(packed)} MB,`);
    expect(readFileSync(join(ROOT, 'docs', 'publishing.md'), 'utf8')).toContain(`about ${mb(packed)} MB packed, ${mb(unpacked)} MB unpacked`);
  });

  it('its bin answers a real MCP client with --devnet', async () => {
    const transport = new StdioClientTransport({
      command: join(project, 'node_modules', '.bin', process.platform === 'win32' ? 'chain-mcp.cmd' : 'chain-mcp'),
      args: ['--devnet'],
      env: { PATH: process.env.PATH ?? '', CHAIN_MCP_LOG_LEVEL: 'silent' },
      cwd: project,
      stderr: 'pipe',
    });
    const client = new Client({ name: 'tarball-test', version: '0' });
    try {
      await client.connect(transport);
      expect(client.getServerVersion()?.name).toBe('chain-mcp');
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toContain('account_overview');
      const result = await client.callTool({ name: 'network_overview', arguments: {} });
      expect(result.isError).not.toBe(true);
      expect(JSON.stringify(result.structuredContent)).toContain('12345');
    } finally {
      await client.close();
    }
  }, 60_000);
});
