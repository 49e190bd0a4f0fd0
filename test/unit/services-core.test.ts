import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';
import { createLogger } from '../../src/log.js';
import { ServicesCore } from '../../src/services-core.js';

const dir = mkdtempSync(join(tmpdir(), 'chain-mcp-services-core-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const log = createLogger('silent', []);
const NODE = 'http://127.0.0.1:9';

describe('the spend machinery is loaded where the configuration can reach it (services-core.ts)', () => {
  it('read-only: nothing to reach, no signer, and a use of the unloaded machinery fails loudly', async () => {
    const services = new ServicesCore({ config: loadConfig({ CHAIN_MCP_NODE_URL: NODE }), log });
    expect(services.spends).toBe(false);
    expect(services.signer).toBeUndefined();
    expect(() => services.approvals).toThrow(/spend machinery was used before it was loaded/);
    // Closing does not build what was never used.
    await services.close();
    expect(() => services.ledger).toThrow(/before it was loaded/);
  });

  it('spends on: loaded once, the same machinery for every caller', async () => {
    const config = loadConfig({ CHAIN_MCP_NODE_URL: NODE, CHAIN_MCP_ALLOW_SPEND: 'true', CHAIN_MCP_KEYSTORE_USER: 'alice', CHAIN_MCP_KEYSTORE_PASSWORD: 'correct horse battery staple' });
    const services = new ServicesCore({ config, log });
    expect(services.spends).toBe(true);
    const [a, b] = await Promise.all([services.loadMachinery(), services.loadMachinery()]);
    expect(a).toBe(b);
    expect(services.approvals).toBe(a.approvals);
    expect(await services.ledger.spent()).toBe(0n);
    expect(services.signer).toBeUndefined();
    await services.close();
  });

  it('a key file that cannot be opened: loading rejects with the line that stops the start', async () => {
    const broken = join(dir, 'broken.json');
    writeFileSync(broken, '{"format":"something else"}');
    const services = new ServicesCore({ config: loadConfig({ CHAIN_MCP_NODE_URL: NODE, CHAIN_MCP_KEY_FILE: broken }), log });
    expect(services.spends).toBe(true);
    await expect(services.loadMachinery()).rejects.toThrow(new ConfigError(`CHAIN_MCP_KEY_FILE: ${broken} is not a chain-mcp key file (format chain-mcp-key, version 1)`));
    // prepareSigner (main.ts at start) meets the same refusal.
    await expect(services.prepareSigner()).rejects.toThrow(ConfigError);
  });
});
