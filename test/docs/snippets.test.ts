import { rmSync } from 'node:fs';
import { delimiter } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claudeCodeLaunch, jsonLaunch, type Launch, README, snippetBlock } from '../helpers/readme-snippets.js';
import { type InstalledTarball, installTarball } from '../helpers/tarball.js';

const SNIPPETS: Array<[string, () => Launch]> = [
  ['Claude Desktop', () => jsonLaunch('Claude Desktop', 'mcpServers')],
  ['Claude Code', claudeCodeLaunch],
  ['VS Code', () => jsonLaunch('VS Code', 'servers')],
  ['Cursor', () => jsonLaunch('Cursor', 'mcpServers')],
];

describe('the README host snippets, started exactly as written (chain-mcp from the installed tarball)', () => {
  let installed: InstalledTarball;
  beforeAll(() => {
    installed = installTarball();
  }, 120_000);
  afterAll(() => rmSync(installed.dir, { recursive: true, force: true }));

  async function start(launch: Launch): Promise<Client> {
    const transport = new StdioClientTransport({
      command: launch.command,
      args: launch.args,
      // What a host passes: its own PATH (here with the installed bin first) and the snippet's env.
      env: { PATH: `${installed.binDir}${delimiter}${process.env.PATH ?? ''}`, CHAIN_MCP_LOG_LEVEL: 'silent', ...launch.env },
      cwd: installed.project,
      stderr: 'pipe',
    });
    const client = new Client({ name: 'snippet-test', version: '0' });
    await client.connect(transport);
    return client;
  }

  it.each(SNIPPETS)('%s: points at the public Columbus node and indexer, with an args list to add --devnet to', (_host, read) => {
    const launch = read();
    expect(launch.command).toBe('chain-mcp');
    expect(launch.args).toEqual([]);
    expect(launch.env.CHAIN_MCP_NODE_URL).toBe('https://columbus.camino.network');
    expect(launch.env.CHAIN_MCP_INDEXER_URL).toBe('https://magellan.columbus.camino.network');
  });

  it.each(SNIPPETS)('%s: starts and lists the node and indexer tools (nothing is asked of the network before a call)', async (_host, read) => {
    const client = await start(read());
    try {
      const names = (await client.listTools()).tools.map((t) => t.name);
      expect(names).toContain('account_overview');
      expect(names.some((n) => n.startsWith('indexer_'))).toBe(true);
    } finally {
      await client.close();
    }
  }, 60_000);

  it.each(SNIPPETS)('%s with "--devnet" added: answers from the bundled simulator', async (_host, read) => {
    const launch = read();
    const client = await start({ ...launch, args: [...launch.args, '--devnet'] });
    try {
      const result = await client.callTool({ name: 'network_overview', arguments: {} });
      expect(result.isError).not.toBe(true);
      expect(JSON.stringify(result.structuredContent)).toContain('12345');
    } finally {
      await client.close();
    }
  }, 60_000);

  it('VS Code keeps the secret out of the file: a password prompt fills it', () => {
    const config = JSON.parse(snippetBlock('VS Code')) as { inputs: Array<{ id: string; password?: boolean }>; servers: Record<string, { env: Record<string, string> }> };
    const env = Object.values(config.servers)[0]!.env;
    for (const input of config.inputs) expect(input.password).toBe(true);
    expect(env.CHAIN_MCP_AUTH_TOKEN).toBe(`\${input:${config.inputs[0]!.id}}`);
  });

  it('the Windows form is the same command under cmd /c', () => {
    const at = README.indexOf('**On Windows**');
    expect(README.slice(at, at + 400)).toContain('"command": "cmd", "args": ["/c", "chain-mcp"]');
  });
});
