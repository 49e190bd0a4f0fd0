import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';

/** The README's host snippets as each host reads them: what it starts, with what environment. */
export const README = readFileSync(join(import.meta.dirname, '..', '..', 'README.md'), 'utf8');

export interface Launch {
  command: string;
  args: string[];
  env: Record<string, string>;
}

/** The first fenced block after a host's bold name in the README. */
export function snippetBlock(host: string): string {
  const at = README.indexOf(`**${host}**`);
  expect(at, `README has a snippet for ${host}`).toBeGreaterThanOrEqual(0);
  const m = /```(?:json|sh)\n([\s\S]*?)```/.exec(README.slice(at));
  return m![1]!;
}

/** A JSON host config: its one server, with VS Code's `${input:…}` answered by an empty prompt. */
export function jsonLaunch(host: string, key: 'mcpServers' | 'servers'): Launch {
  const config = JSON.parse(snippetBlock(host)) as Record<string, Record<string, Launch>>;
  const servers = Object.values(config[key]!);
  expect(servers).toHaveLength(1);
  const { command, args, env } = servers[0]!;
  return { command, args, env: Object.fromEntries(Object.entries(env).map(([k, v]) => [k, v.replace(/\$\{input:[^}]+\}/g, '')])) };
}

/** The Claude Code snippet, `claude mcp add NAME --env K=V … -- command args…`. */
export function claudeCodeLaunch(): Launch {
  const words = snippetBlock('Claude Code').trim().split(/\s+/);
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
