import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');

interface PackEntry {
  files: Array<{ path: string }>;
}

/** What `npm pack` would put in the tarball (built by `npm run build`; scripts not run again). */
function tarballFiles(): string[] {
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const out = execFileSync(npm, ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  return (JSON.parse(out) as PackEntry[])[0]!.files.map((f) => f.path).sort();
}

describe('the npm tarball', () => {
  it('holds only what runs: the bin and its chunks, the manifest, README, LICENSE and package.json; no developer script', () => {
    const files = tarballFiles();
    expect(files.filter((f) => !f.startsWith('dist/chunks/'))).toEqual(['LICENSE', 'README.md', 'dist/chain-mcp.js', 'manifest.json', 'package.json']);
    // Every chunk of the build, and nothing else in that folder.
    const chunks = readdirSync(join(ROOT, 'dist', 'chunks')).map((f) => `dist/chunks/${f}`);
    expect(chunks.length).toBeGreaterThan(1);
    expect(files.filter((f) => f.startsWith('dist/chunks/'))).toEqual(chunks.sort());
    for (const f of chunks) expect(f).toMatch(/^dist\/chunks\/[\w-]+\.mjs$/);
    expect(files.filter((f) => f.startsWith('dist/tools/') || f.startsWith('tools/') || f.startsWith('test/') || f.startsWith('dist/test/'))).toEqual([]);
  });

  it('its bin is in it and is the bundled build', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { bin: Record<string, string>; license: string; mcpName?: string; name: string };
    expect(tarballFiles()).toContain(pkg.bin['chain-mcp']);
    expect(readFileSync(join(ROOT, pkg.bin['chain-mcp']!), 'utf8').startsWith('#!/usr/bin/env node\n')).toBe(true);
    expect(readFileSync(join(ROOT, 'LICENSE'), 'utf8')).toMatch(new RegExp(`^${pkg.license} License`));
  });

  it('server.json (MCP Registry) names the same package, version and mcpName', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { name: string; version: string; mcpName: string };
    const server = JSON.parse(readFileSync(join(ROOT, 'server.json'), 'utf8')) as {
      name: string;
      version: string;
      packages: Array<{ registryType: string; identifier: string; version: string; transport: { type: string } }>;
    };
    expect(server.name).toBe(pkg.mcpName);
    expect(server.version).toBe(pkg.version);
    expect(server.packages).toEqual([expect.objectContaining({ registryType: 'npm', identifier: pkg.name, version: pkg.version, transport: { type: 'stdio' } })]);
  });

  it('the bin (dist/chain-mcp.js and its chunks) serves --devnet: the simulator is in it', async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [join(ROOT, 'dist', 'chain-mcp.js'), '--devnet'],
      env: { PATH: process.env.PATH ?? '', CHAIN_MCP_LOG_LEVEL: 'silent' },
      cwd: tmpdir(),
      stderr: 'pipe',
    });
    const client = new Client({ name: 'bin-test', version: '0' });
    try {
      await client.connect(transport);
      expect(client.getServerVersion()?.name).toBe('chain-mcp');
      const result = await client.callTool({ name: 'network_overview', arguments: {} });
      expect(result.isError).not.toBe(true);
      expect(JSON.stringify(result.structuredContent)).toMatch(/networkID|networkId/);
    } finally {
      await client.close();
    }
  }, 60_000);
});
