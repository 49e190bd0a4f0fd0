import { FLAGS } from './config.js';
import { SETTINGS, shortMeaning } from './settings.js';

function helpRow(left: string, help: string): string {
  const [first, ...more] = help.split('\n');
  const pad = ' '.repeat(24);
  // A flag too long for the column gets its text on the next line rather than touching it.
  const head = left.length < 21 ? [`  ${left.padEnd(22)}${first}`] : [`  ${left}`, `${pad}${first}`];
  return [...head, ...more.map((line) => `${pad}${line}`)].join('\n');
}

/**
 * `chain-mcp --help`: the flags and every variable, from the tables in config.ts and settings.ts.
 * Its own module, loaded by --help only: a start builds none of it.
 */
export const HELP = [
  'chain-mcp: MCP server for a blockchain node and its indexer',
  '',
  'Usage: chain-mcp [--http [--port N]] [--devnet] [options]',
  '       chain-mcp passkey add [--name TEXT] [--port N]   register the passkey that guards approval links (in a terminal)',
  '       chain-mcp key new | key import | key show [--network NAME]   make, import or show the local key (in a terminal)',
  '',
  helpRow('(no flags)', 'serve MCP on stdio'),
  ...FLAGS.map((f) => helpRow(`${f.short ? `-${f.short}, ` : ''}--${f.name}${f.arg ? ` ${f.arg}` : ''}`, f.help)),
  '',
  'Variables (details and examples: docs/configuration.md in the source repository):',
  ...SETTINGS.map((s) => helpRow(s.env, `${shortMeaning(s.meaning)}${s.default === 'unset' ? '' : ` (default ${s.default})`}`)),
  '',
  'Secrets (tokens, passwords, the admin secret) are never shown; the keystore password and the auth',
  'token and password, the state key and the state URL can come from a *_FILE instead of the environment.',
  "The key's passphrase is typed on the unlock page (or read from CHAIN_MCP_KEY_PASSPHRASE_FILE), never",
  'taken from the environment.',
].join('\n');
