import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeKeyFile } from '../../src/signer/keyfile.js';
import { MAIN } from '../helpers/stack.js';

/**
 * `chain-mcp --devnet --allow-spend` with the user's own key file: the simulator funds that key, so a
 * newcomer's first holder questions and spends work at once, through the built server over stdio.
 */

type Rec = Record<string, unknown>;
const PASSPHRASE = 'first hour passphrase, long enough';
let dir: string;
let client: Client;
let stderr = '';

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'chain-mcp-first-hour-'));
  const key = Uint8Array.from({ length: 32 }, (_, i) => i + 7);
  await writeKeyFile(join(dir, 'key.json'), key, PASSPHRASE, { N: 2 ** 12, r: 8, p: 1 });
  writeFileSync(join(dir, 'passphrase'), `${PASSPHRASE}\n`, { mode: 0o600 });
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [MAIN, '--devnet', '--allow-spend'],
    env: {
      PATH: process.env.PATH ?? '',
      HOME: dir,
      CHAIN_MCP_LOG_LEVEL: 'silent',
      CHAIN_MCP_KEY_FILE: join(dir, 'key.json'),
      CHAIN_MCP_KEY_PASSPHRASE_FILE: join(dir, 'passphrase'),
      CHAIN_MCP_APPROVAL: 'confirm-id',
      CHAIN_MCP_STATE: 'memory',
    },
    stderr: 'pipe',
  });
  transport.stderr?.on('data', (d: Buffer) => {
    stderr += d.toString('utf8');
  });
  client = new Client({ name: 'first-hour', version: '0' });
  await client.connect(transport);
});
afterAll(async () => {
  await client?.close();
  rmSync(dir, { recursive: true, force: true });
});

const call = async (name: string, args: Rec) => {
  const r = await client.callTool({ name, arguments: args });
  return { isError: r.isError === true, text: (r.content as Array<{ text: string }>)[0]!.text, structured: r.structuredContent as Rec | undefined };
};

describe('--devnet with your own key file', () => {
  it('says what it funded, and account_overview shows the deposit, when it unlocks and what can be claimed', async () => {
    expect(stderr).toContain('a 20 CAM deposit in its unlock period and 1.5 CAM of rewards to claim');
    const r = await call('account_overview', {});
    expect(r.isError, r.text).toBe(false);
    expect(r.text).toContain('- X: 100 CAM (native)');
    expect(r.text).toMatch(/20 CAM deposited until \d{4}-\d\d-\d\d \(in (about )?10 days\), [\d.]+ CAM unlockable now/);
    expect(r.text).toMatch(/claimable now: [\d.]+ CAM \(deposit rewards [\d.]+ CAM, validator rewards 1\.5 CAM, expired deposit rewards 0 CAM\); claim with platform_claim/);
  });

  it('the validator rewards are claimed with a preview from the bytes and issued once', async () => {
    const overview = await call('account_overview', {});
    const p = `P-${(overview.structured!.accounts as Array<{ address: string }>)[0]!.address}`;
    const args = { claims: [{ kind: 'validator', owner: p, amount: '1.5 CAM' }], to: p };
    const preview = await call('platform_claim', args);
    expect(preview.isError, preview.text).toBe(false);
    expect(preview.text).toContain(`Claims: 1.5 CAM in rewards to ${p}`);
    const done = await call('platform_claim', { ...args, confirm: preview.structured!.confirmationId });
    expect(done.isError, done.text).toBe(false);
    expect(done.text).toMatch(/^Claimed: issued once, txID \w+/);
    const after = await call('platform_getClaimables', {});
    expect(after.isError, after.text).toBe(false);
    // The validator rewards are gone; what stays claimable is the running deposit's reward (issue 42 item 6).
    const [own] = after.structured!.claimables as Array<{ validatorRewards: { value: string }; depositRewards: { value: string }; deposits: unknown[] }>;
    expect(own!.validatorRewards.value).toBe('0');
    expect(own!.deposits).toHaveLength(1);
    expect(BigInt(own!.depositRewards.value)).toBeGreaterThan(0n);
    expect((after.structured!.total as { value: string }).value).toBe(own!.depositRewards.value);
  });
});
