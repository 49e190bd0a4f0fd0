import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';

/** `npm run demo` is the README's first command: it must play the whole session on the devnet. */
describe('npm run demo', () => {
  it('shows an overview, validators, deposit offers and a guarded transfer that is previewed, then issued once', async () => {
    const demo = new URL('../../dist/tools/demo.js', import.meta.url).pathname;
    const child = spawn(process.execPath, [demo], { env: { PATH: process.env.PATH ?? '' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (c: Buffer) => {
      out += c.toString('utf8');
    });
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(code).toBe(0);
    expect(out).toContain('network_overview');
    expect(out).toContain('account_overview');
    expect(out).toMatch(/current validator\(s\)/);
    expect(out).toMatch(/Deposit offers: \d+, \d+ open for new deposits/);
    // The local signer: locked until the human unlocks it on the page, then a preview decoded from the bytes.
    // The client opens the unlock page for the human (URL elicitation); the model's text names no address.
    expect(out).toContain('[your client opens the unlock page]');
    expect(out).toMatch(/\[error\] The signing key is locked: the human was shown the unlock page by their client/);
    expect(out).not.toMatch(/\[error\][^\n]*\/unlock\//);
    expect(out).toContain('[you type the passphrase there and press Unlock: unlocked]');
    expect(out).toContain('PREVIEW, nothing sent');
    expect(out).toMatch(/Tx 1 of 2 approves exactly: sha256 0x[0-9a-f]{64} of \d+ unsigned bytes/);
    expect(out).toMatch(/Arrives: [\d.]+ CAM at 0x[0-9A-Fa-f]{40} \(the amount less the import fee\)/);
    expect(out).toMatch(/Transfer complete \(X->C\): export \w+, import \w+, each issued once/);
    expect(out).toContain('[in hosts with MCP Apps this answer also shows the Portfolio view]');
    expect(out).toContain('[your client opens the approval page: http://127.0.0.1:');
    // The locked key's refusal is the only error of the session.
    expect(out.match(/\[error\]/g)).toHaveLength(1);
  }, 60_000);
});
