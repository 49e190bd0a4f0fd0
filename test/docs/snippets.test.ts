import { readFileSync, rmSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type InstalledTarball, installTarball } from '../helpers/tarball.js';

const ROOT = join(import.meta.dirname, '..', '..');
const README = readFileSync(join(ROOT, 'README.md'), 'utf8');

interface Launch {
  command: string;
  args: string[];
  env: Record<string, string>;
}

/** The first fenced block after a host's bold name in the README. */
function block(host: string): string {
  const at = README.indexOf(`**${host}**`);
  expect(at, `README has a snippet for ${host}`).toBeGreaterThanOrEqual(0);
  const m = /```(?:json|sh)\n([\s\S]*?)```/.exec(README.slice(at));
  return m![1]!;
}

/** A JSON host config: its one server, with VS Code's `${input:…}` answered by an empty prompt. */
function fromJson(host: string, key: 'mcpServers' | 'servers'): Launch {
  const config = JSON.parse(block(host)) as Record<string, Record<string, { command: string; args: string[]; env: Record<string, string> }>>;
  const servers = Object.values(config[key]!);
  expect(servers).toHaveLength(1);
  const { command, args, env } = servers[0]!;
  return { command, args, env: Object.fromEntries(Object.entries(env).map(([k, v]) => [k, v.replace(/\$\{input:[^}]+\}/g, '')])) };
}

/** `claude mcp add NAME --env K=V … -- command args…`. */
function fromClaudeCode(): Launch {
  const words = block('Claude Code').trim().split(/\s+/);
  expect(words.slice(0, 3)).toEqual(['claude', 'mcp', 'add']);
  const dashes = words.indexOf('--');
  const env: Record<string, string> = {};
  for (let i = 4; i < dashes; i += 2) {
    expect(words[i]).toBe('--env');
    const [k, ...v] = words[i + 1]!.split('=');
    env[k!] = v.join('=');
  }
  return { command: words[dashes + 1]!, args: words.slice(dashes + 2), env };
}

const SNIPPETS: Array<[string, () => Launch]> = [
  ['Claude Desktop', () => fromJson('Claude Desktop', 'mcpServers')],
  ['Claude Code', fromClaudeCode],
  ['VS Code', () => fromJson('VS Code', 'servers')],
  ['Cursor', () => fromJson('Cursor', 'mcpServers')],
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
    const config = JSON.parse(block('VS Code')) as { inputs: Array<{ id: string; password?: boolean }>; servers: Record<string, { env: Record<string, string> }> };
    const env = Object.values(config.servers)[0]!.env;
    for (const input of config.inputs) expect(input.password).toBe(true);
    expect(env.CHAIN_MCP_AUTH_TOKEN).toBe(`\${input:${config.inputs[0]!.id}}`);
  });

  it('the Windows form is the same command under cmd /c', () => {
    const at = README.indexOf('**On Windows**');
    expect(README.slice(at, at + 400)).toContain('"command": "cmd", "args": ["/c", "chain-mcp"]');
  });
});
