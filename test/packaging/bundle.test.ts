import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Devnet, startDevnet } from '../../src/devnet/index.js';
import { packBundle, stageBundle } from '../../tools/bundle.js';

const ROOT = join(import.meta.dirname, '..', '..');
const MCPB_CLI = join(ROOT, 'node_modules', '@anthropic-ai', 'mcpb', 'dist', 'cli', 'cli.js');

describe('the .mcpb bundle', () => {
  let work: string;
  let unpacked: string;
  let devnet: Devnet;
  let staged: string[];

  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), 'chain-mcp-bundle-'));
    const stageDir = join(work, 'stage');
    const mcpbFile = join(work, 'chain-mcp.mcpb');
    staged = await stageBundle({ root: ROOT, stageDir });
    packBundle({ root: ROOT, stageDir, mcpbFile });
    unpacked = join(work, 'unpacked');
    execFileSync(process.execPath, [MCPB_CLI, 'unpack', mcpbFile, unpacked], { stdio: 'pipe' });
    devnet = await startDevnet();
  }, 120_000);

  afterAll(async () => {
    await devnet?.close();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('holds only the manifest, its icon and the server: its entry and the chunks it imports', () => {
    expect(readdirSync(unpacked).sort()).toEqual(['icon.png', 'manifest.json', 'server']);
    // A PNG, and a small one.
    const icon = readFileSync(join(unpacked, 'icon.png'));
    expect(icon.subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a');
    expect(icon.length).toBeLessThan(16 * 1024);
    expect(readdirSync(join(unpacked, 'server')).sort()).toEqual(['chunks', 'index.mjs']);
    expect(existsSync(join(unpacked, 'node_modules'))).toBe(false);
    // Every file the build wrote made it into the .mcpb, and nothing else.
    const chunks = readdirSync(join(unpacked, 'server', 'chunks')).map((f) => `server/chunks/${f}`);
    expect(['server/index.mjs', ...chunks].sort()).toEqual([...staged].sort());
    expect(chunks.length).toBeGreaterThan(1);
    const size = staged.reduce((sum, f) => sum + statSync(join(unpacked, f)).size, 0);
    expect(size).toBeGreaterThan(1_000_000);
  });

  it('answers initialize over stdio from the unpacked bundle, with the env a host would pass, and serves tools', async () => {
    // A host that substituted the manifest defaults: empty strings for everything optional.
    const env = {
      PATH: process.env.PATH ?? '',
      CHAIN_MCP_NODE_URL: devnet.nodeUrl,
      CHAIN_MCP_INDEXER_URL: '',
      CHAIN_MCP_AUTH_TOKEN: '',
      CHAIN_MCP_KEYSTORE_USER: '',
      CHAIN_MCP_KEYSTORE_PASSWORD: '',
      CHAIN_MCP_ALLOW_SPEND: 'false',
      CHAIN_MCP_TOOLSETS: '',
      CHAIN_MCP_LOG_LEVEL: 'silent',
    };
    const transport = new StdioClientTransport({ command: process.execPath, args: [join(unpacked, 'server', 'index.mjs')], env, cwd: tmpdir(), stderr: 'pipe' });
    let stderr = '';
    transport.stderr?.on('data', (c: Buffer) => {
      stderr += c.toString('utf8');
    });
    const client = new Client({ name: 'bundle-test', version: '0' });
    try {
      await client.connect(transport);
      expect(client.getServerVersion()?.name).toBe('chain-mcp');
      expect(client.getInstructions()).toMatch(/confirm/);
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toContain('info_getNodeID');
      const result = await client.callTool({ name: 'info_getNodeID', arguments: {} });
      expect(JSON.stringify(result.content)).toContain(devnet.state.nodeID);
      const { prompts } = await client.listPrompts();
      expect(prompts.length).toBe(4);
    } finally {
      await client.close();
    }
    expect(stderr).not.toMatch(/error/i);
  }, 60_000);
});
