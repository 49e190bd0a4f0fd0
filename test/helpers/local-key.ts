import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startDevnet } from '../../src/devnet/index.js';
import { writeKeyFile } from '../../src/signer/keyfile.js';

/**
 * A new temporary folder holding the simulator's local key as `key.json` (light scrypt, so tests
 * unlock it fast) and its `passphrase` file (0600); the caller removes the folder.
 */
export async function localKeyFolder(prefix: string, passphrase: string): Promise<string> {
  const keyOf = await startDevnet({ dialect: 'camino' });
  try {
    const dir = mkdtempSync(join(tmpdir(), prefix));
    await writeKeyFile(join(dir, 'key.json'), keyOf.localKey.privateKey, passphrase, { N: 2 ** 12, r: 8, p: 1 });
    writeFileSync(join(dir, 'passphrase'), `${passphrase}\n`, { mode: 0o600 });
    return dir;
  } finally {
    await keyOf.close();
  }
}

/** The environment of a server that signs with the key of {@link localKeyFolder}'s folder, approvals by confirmation id. */
export function localSignerEnv(dir: string): Record<string, string> {
  return { CHAIN_MCP_APPROVAL: 'confirm-id', CHAIN_MCP_SIGNER: 'local', CHAIN_MCP_KEY_FILE: join(dir, 'key.json'), CHAIN_MCP_KEY_PASSPHRASE_FILE: join(dir, 'passphrase') };
}

/** Every method by which a signed transaction reaches the simulator's chains. */
export const ISSUE_METHODS = ['avm.issueTx', 'platform.issueTx', 'avax.issueTx', 'eth_sendRawTransaction'] as const;
