import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type Devnet, startDevnet } from '../../src/devnet/index.js';
import { balanceOf } from '../../src/devnet/state/index.js';
import { requestsFor } from '../helpers/spend-harness.js';
import { type Stack, stdioStack } from '../helpers/stack.js';

/**
 * The daily total in a SQLite file (CHAIN_MCP_STATE=sqlite:…, issue 34 item 6): the built server
 * over stdio, restarted, still counts what it sent; two servers on the same file share one total,
 * and of two confirms racing in two processes under the last of the allowance only one goes out.
 */

// One 1 CAM send (and its fee) fits under 1.5 CAM; a second does not.
const AMOUNT = '1000000000';
const DAILY = '1500000000';

describe('the daily total kept in a SQLite file', () => {
  let devnet: Devnet;
  let dir: string;
  let to: string;
  const sends = () => requestsFor(devnet, 'xvm.send');
  const args = () => ({ amount: AMOUNT, assetID: 'CAM', to });

  beforeAll(async () => {
    devnet = await startDevnet();
    dir = mkdtempSync(join(tmpdir(), 'chain-mcp-state-it-'));
    to = devnet.state.users.get('alice')!.keys[1]!.x;
  });
  afterAll(async () => {
    await devnet.close();
    rmSync(dir, { recursive: true, force: true });
  });
  beforeEach(() => {
    devnet.router.record = true;
    devnet.router.requests.length = 0;
  });

  const server = (file: string) =>
    stdioStack({
      devnet,
      env: {
        CHAIN_MCP_ALLOW_SPEND: 'true',
        CHAIN_MCP_KEYSTORE_USER: devnet.keystore.username,
        CHAIN_MCP_KEYSTORE_PASSWORD: devnet.keystore.password,
        CHAIN_MCP_APPROVAL: 'confirm-id',
        CHAIN_MCP_MAX_SPEND_PER_DAY: DAILY,
        CHAIN_MCP_STATE: `sqlite:${join(dir, file)}`,
      },
    });

  async function previewId(stack: Stack): Promise<string> {
    const r = await stack.call('xvm_send', args());
    expect(r.isError, r.text).toBe(false);
    return r.structured?.confirmationId as string;
  }

  it('a restarted server still counts what it sent in the last 24 hours', async () => {
    const before = balanceOf(devnet.state, 'X', to, devnet.state.nativeAssetID);
    const first = await server('restart.db');
    const sent = await first.call('xvm_send', { ...args(), confirm: await previewId(first) });
    expect(sent.structured?.status, sent.text).toBe('issued');
    await first.close();

    const restarted = await server('restart.db');
    const refused = await restarted.call('xvm_send', args());
    expect(refused.isError).toBe(true);
    expect(refused.text).toMatch(/^Refused: this spend .* would bring the total sent in the last 24 hours to .*over CHAIN_MCP_MAX_SPEND_PER_DAY/);
    await restarted.close();
    expect(sends()).toBe(1);
    expect(balanceOf(devnet.state, 'X', to, devnet.state.nativeAssetID)).toBe(before + BigInt(AMOUNT));
  });

  it('a server on another file starts from zero (the total is the file, not the machine)', async () => {
    const fresh = await server('other.db');
    const sent = await fresh.call('xvm_send', { ...args(), confirm: await previewId(fresh) });
    expect(sent.structured?.status, sent.text).toBe('issued');
    await fresh.close();
  });

  it('two servers on one file share the total: of two confirms racing for the last of it, one goes out', async () => {
    const [one, two] = await Promise.all([server('shared.db'), server('shared.db')]);
    try {
      // Both previews fit (nothing sent yet); only one of the confirms can.
      const [idOne, idTwo] = await Promise.all([previewId(one), previewId(two)]);
      const results = await Promise.all([one.call('xvm_send', { ...args(), confirm: idOne }), two.call('xvm_send', { ...args(), confirm: idTwo })]);
      expect(results.map((r) => r.structured?.status ?? 'refused').sort()).toEqual(['issued', 'refused']);
      expect(results.find((r) => r.isError)?.text).toContain('over CHAIN_MCP_MAX_SPEND_PER_DAY');
      expect(sends()).toBe(1);
      // And the other server now sees it at the preview.
      const loser = results[0]!.isError ? one : two;
      expect((await loser.call('xvm_send', args())).text).toContain('over CHAIN_MCP_MAX_SPEND_PER_DAY');
    } finally {
      await Promise.all([one.close(), two.close()]);
    }
  });
});
