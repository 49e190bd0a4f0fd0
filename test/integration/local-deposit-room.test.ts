import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Devnet, startDevnet } from '../../src/devnet/index.js';
import { writeKeyFile } from '../../src/signer/keyfile.js';
import { requestsFor, type SpendHarness, spendHarness } from '../helpers/spend-harness.js';

/**
 * Issue 44: a deposit above what an offer with a total cap still takes (totalMaxAmount less
 * depositedAmount, caminogo DepositTx "deposit amount is greater than deposit offer available
 * amount") is refused at the preview, naming the field and the room left: nothing is shown to the
 * human for approval and nothing is sent. Outside-in, through MCP, with the local signer.
 */
const PASSPHRASE = 'correct horse battery staple 32';

describe('platform_deposit under the local signer: the offer cap', () => {
  let devnet: Devnet;
  let dir: string;
  let h: SpendHarness;
  beforeAll(async () => {
    devnet = await startDevnet({ dialect: 'camino' });
    devnet.router.record = true;
    dir = mkdtempSync(join(tmpdir(), 'chain-mcp-room-'));
    await writeKeyFile(join(dir, 'key.json'), devnet.localKey.privateKey, PASSPHRASE, { N: 2 ** 12, r: 8, p: 1 });
    writeFileSync(join(dir, 'passphrase'), `${PASSPHRASE}\n`, { mode: 0o600 });
    h = await spendHarness(devnet, {
      env: { CHAIN_MCP_APPROVAL: 'confirm-id', CHAIN_MCP_SIGNER: 'local', CHAIN_MCP_KEY_FILE: join(dir, 'key.json'), CHAIN_MCP_KEY_PASSPHRASE_FILE: join(dir, 'passphrase') },
    });
  });
  afterAll(async () => {
    await h.close();
    await devnet.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('refuses a deposit above the room left, names it, and previews one that fits exactly', async () => {
    const offer = devnet.state.depositOffers[0]!;
    const [cap, deposited] = [offer.totalMaxAmount, offer.depositedAmount];
    offer.totalMaxAmount = 1_000_000_000_000n;
    offer.depositedAmount = 996_000_000_000n;
    try {
      const over = await h.call('platform_deposit', { offerID: offer.id, amount: '4.000000001 CAM', duration: 90 * 86_400 });
      expect(over.isError).toBe(true);
      expect(over.text).toContain('amount: this offer has room for 4 CAM more');
      expect(over.structured?.confirmationId).toBeUndefined();
      const fits = await h.call('platform_deposit', { offerID: offer.id, amount: '4 CAM', duration: 90 * 86_400 });
      expect(fits.isError, fits.text).toBe(false);
      expect(fits.structured?.status).toBe('preview');
      expect(requestsFor(devnet, 'platform.issueTx')).toBe(0);
    } finally {
      offer.totalMaxAmount = cap;
      offer.depositedAmount = deposited;
    }
  });
});
