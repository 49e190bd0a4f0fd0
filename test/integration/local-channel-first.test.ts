import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Devnet, startDevnet } from '../../src/devnet/index.js';
import { writeKeyFile } from '../../src/signer/keyfile.js';
import { requestsFor, spendHarness } from '../helpers/spend-harness.js';

/**
 * Issue 43: the approval channel a spend will take is known before the human is asked to unlock
 * the key. A client with neither elicitation nor MCP Apps, no passkey registered (the default
 * passkey link mode): the spend is refused at once, and no unlock page is offered for it.
 */
describe('a local-signer spend with no channel to the human', () => {
  let devnet: Devnet;
  let dir: string;
  beforeAll(async () => {
    devnet = await startDevnet({ dialect: 'camino' });
    devnet.router.record = true;
    dir = mkdtempSync(join(tmpdir(), 'chain-mcp-channel-first-'));
    await writeKeyFile(join(dir, 'key.json'), devnet.localKey.privateKey, 'correct horse battery staple 32', { N: 2 ** 12, r: 8, p: 1 });
  });
  afterAll(async () => {
    await devnet.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('is refused before any unlock is asked for: the answer names the ways to approve, not the unlock page', async () => {
    const h = await spendHarness(devnet, {
      env: { CHAIN_MCP_SIGNER: 'local', CHAIN_MCP_KEY_FILE: join(dir, 'key.json'), CHAIN_MCP_PASSKEY_FILE: join(dir, 'passkeys.json') },
    });
    try {
      const to = devnet.state.users.get('alice')!.keys[1]!.x;
      const p = await h.call('xvm_send', { amount: '1 CAM', assetID: 'CAM', to });
      expect(p.isError).toBe(true);
      expect(p.text).toContain('no channel to the human');
      expect(p.text).toContain('chain-mcp passkey add');
      expect(p.text).not.toContain('locked');
      expect(p.text).not.toMatch(/https?:\/\//);
      expect(requestsFor(devnet, 'avm.issueTx')).toBe(0);
      // The operator's audit line says which spend was refused, and why.
      const refused = h.logs.map((l) => JSON.parse(l) as Record<string, unknown>).filter((l) => l.audit === 'refused');
      expect(refused).toEqual([expect.objectContaining({ tool: 'xvm_send', signer: 'local', amount: '1000000000', recipients: [to], why: 'no approval channel' })]);
    } finally {
      await h.close();
    }
  });
});
