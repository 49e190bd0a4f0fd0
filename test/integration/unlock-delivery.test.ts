import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type Devnet, startDevnet } from '../../src/devnet/index.js';
import { writeKeyFile } from '../../src/signer/keyfile.js';
import { type ElicitParams, requestsFor, type SpendHarness, spendHarness } from '../helpers/spend-harness.js';

/**
 * Where the unlock page's address goes (issue 40, item 5): to the human through the client's URL
 * elicitation when it offers one, else to the terminal (stderr); never into what the model reads,
 * since a page token the model holds is one it can pace out against the human.
 */
const PASSPHRASE = 'unlock delivery passphrase 40';
let devnet: Devnet;
let dir: string;
const open: SpendHarness[] = [];

beforeAll(async () => {
  devnet = await startDevnet({ dialect: 'camino' });
  devnet.router.record = true;
  dir = mkdtempSync(join(tmpdir(), 'chain-mcp-unlock-delivery-'));
  await writeKeyFile(join(dir, 'key.json'), devnet.localKey.privateKey, PASSPHRASE, { N: 2 ** 10, r: 8, p: 1 });
});
afterEach(async () => {
  for (const h of open.splice(0)) await h.close();
});
afterAll(async () => {
  await devnet.close();
  rmSync(dir, { recursive: true, force: true });
});

async function harness(opts: Parameters<typeof spendHarness>[1] = {}): Promise<SpendHarness> {
  const h = await spendHarness(devnet, { ...opts, env: { CHAIN_MCP_APPROVAL: 'confirm-id', CHAIN_MCP_SIGNER: 'local', CHAIN_MCP_KEY_FILE: join(dir, 'key.json') } });
  open.push(h);
  return h;
}

const to = () => devnet.state.users.get('alice')!.keys[0]!.x;
const UNLOCK_PATH = /http:\/\/127\.0\.0\.1:\d+\/unlock\/[A-Za-z0-9_-]+/;

async function unlockOn(url: string, passphrase: string): Promise<number> {
  const csrf = /name="csrf" value="([^"]+)"/.exec(await (await fetch(url)).text())?.[1] ?? '';
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', origin: new URL(url).origin }, body: new URLSearchParams({ csrf, passphrase }) });
  await res.text();
  return res.status;
}

describe('the locked key: where the unlock page reaches the human', () => {
  it('through URL elicitation: the client opens a page token of its own, the model reads no address; the human unlocks there', async () => {
    const asked: ElicitParams[] = [];
    const h = await harness({ capabilities: { elicitation: { url: {} } }, elicit: (q) => {
        asked.push(q);
        return { action: 'accept' };
      },
    });
    const args = { amount: '1 CAM', assetID: 'CAM', to: to() };
    const locked = await h.call('xvm_send', args);
    expect(locked.structured?.confirmationId).toBeUndefined();
    expect(locked.text).toContain('The signing key is locked: the human was shown the unlock page by their client');
    expect(asked).toHaveLength(1);
    expect(asked[0]!.mode).toBe('url');
    const url = asked[0]!.url ?? '';
    expect(url).toMatch(UNLOCK_PATH);
    // Neither the address nor its token is anywhere the model reads.
    const token = url.split('/unlock/')[1]!;
    const seen = `${locked.text}${JSON.stringify(locked.structured)}`;
    expect(seen).not.toMatch(UNLOCK_PATH);
    expect(seen).not.toContain(token);
    // It is not the terminal's page token either: each channel paces on its own.
    expect(url).not.toBe(await h.services.approvalPages.unlockUrl());

    expect(await unlockOn(url, PASSPHRASE)).toBe(200);
    expect(h.services.signer?.isUnlocked()).toBe(true);
    const preview = await h.call('xvm_send', args);
    expect(preview.structured?.confirmationId).toEqual(expect.any(String));
    h.services.signer?.lock();
  });

  it('without URL elicitation: the terminal gets the address (logged again), the model only where to look; a declined elicitation falls back the same way', async () => {
    for (const host of [{}, { capabilities: { elicitation: { url: {} } }, elicit: () => ({ action: 'decline' as const }) }]) {
      const h = await harness(host);
      const args = { amount: '1 CAM', assetID: 'CAM', to: to() };
      const before = requestsFor(devnet, 'avm.issueTx');
      const locked = await h.call('xvm_send', args);
      expect(locked.text).toContain("The signing key is locked: the human opens the unlock page whose address chain-mcp's log (stderr, the host's MCP server log) names");
      expect(`${locked.text}${JSON.stringify(locked.structured)}`).not.toMatch(UNLOCK_PATH);
      const logged = h.logs.filter((l) => l.includes('signing key locked')).map((l) => (JSON.parse(l) as { unlockUrl: string }).unlockUrl);
      expect(logged.length).toBeGreaterThan(0);
      expect(logged.at(-1)).toBe(await h.services.approvalPages.unlockUrl());
      expect(requestsFor(devnet, 'avm.issueTx')).toBe(before);
    }
  });
});
