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
    expect(out).toMatch(/\d+ offer\(s\), \d+ open for new deposits/);
    expect(out).toContain('PREVIEW, nothing sent');
    expect(out).toMatch(/Sent 1\.5 CAM to X-local1\S+: issued once, txID \w+/);
    expect(out).toContain('[in hosts with MCP Apps this answer also shows the Portfolio view]');
    expect(out).toContain('[your client opens the approval page: http://127.0.0.1:');
    expect(out).not.toContain('[error]');
  }, 60_000);
});
