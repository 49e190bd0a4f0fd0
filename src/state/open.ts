import { ConfigError, type StateSetting } from '../config.js';
import type { Logger } from '../log.js';
import { MemoryStore } from './memory.js';
import type { StateStore } from './store.js';

/**
 * Opens the configured store (CHAIN_MCP_STATE). The SQLite and PostgreSQL code, and their
 * drivers, are loaded only when asked for. A store that cannot be opened stops the start with one line.
 */
export async function openStateStore(setting: StateSetting, log?: Logger): Promise<StateStore> {
  if (setting.kind === 'memory') return new MemoryStore();
  if (setting.kind === 'sqlite') {
    const { SqliteStore } = await import('./sqlite.js');
    try {
      return await SqliteStore.open(setting.file);
    } catch (err) {
      if (err instanceof ConfigError) throw err;
      throw new ConfigError(`CHAIN_MCP_STATE: cannot open the SQLite file ${setting.file}: ${(err as Error).message}`);
    }
  }
  const { PostgresStore, postgresWhere } = await import('./postgres.js');
  try {
    return await PostgresStore.open(setting.url, log);
  } catch (err) {
    throw new ConfigError(`CHAIN_MCP_STATE: cannot use PostgreSQL at ${postgresWhere(setting.url)}: ${(err as Error).message}`);
  }
}

/** What `--check` and the logs say about a setting, without a password. */
export function describeState(setting: StateSetting): string {
  if (setting.kind === 'memory') return 'memory (this process only: a restart forgets open approvals)';
  if (setting.kind === 'sqlite') return `sqlite:${setting.file} (this machine; survives restarts)`;
  try {
    const u = new URL(setting.url);
    return `${u.protocol}//${u.host}${u.pathname} (shared by every replica)`;
  } catch {
    return 'postgres (shared by every replica)';
  }
}
