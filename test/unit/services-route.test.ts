import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { silentLogger } from '../../src/log.js';
import { Services } from '../../src/services.js';

/** A configured dialect needs no request: the route is the table alone (nothing listens on port 9). */
function services(wire: string): Services {
  return new Services({ config: loadConfig({ CHAIN_MCP_NODE_URL: 'http://127.0.0.1:9', CHAIN_MCP_WIRE_NAMES: wire }), log: silentLogger() });
}

describe('Services.route: CHAIN_MCP_WIRE_NAMES covers paths and methods', () => {
  it('a method rename reaches the wire', async () => {
    const s = services('camino,platform.exportNative=platform.exportFoo');
    expect(await s.route('platform', 'platform.exportNative')).toEqual({ path: '/ext/P', method: 'platform.exportFoo' });
    expect(await s.route('xvm', 'xvm.getBalance')).toEqual({ path: '/ext/bc/X', method: 'avm.getBalance' });
    await s.close();
  });

  it("the camino preset renames the P-chain's export; the spec preset does not", async () => {
    const camino = services('camino');
    const spec = services('spec');
    expect(await camino.route('platform', 'platform.exportNative')).toEqual({ path: '/ext/P', method: 'platform.exportAVAX' });
    expect(await spec.route('platform', 'platform.exportNative')).toEqual({ path: '/ext/P', method: 'platform.exportNative' });
    await Promise.all([camino.close(), spec.close()]);
  });

  it('an override of a name no dialect changes is kept too (the platform path)', async () => {
    const s = services('camino,platform=/ext/bc/P');
    expect(await s.route('platform', 'platform.getHeight')).toEqual({ path: '/ext/bc/P', method: 'platform.getHeight' });
    await s.close();
  });
});
