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
