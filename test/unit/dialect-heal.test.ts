import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { type Devnet, startDevnet } from '../../src/devnet/index.js';
import { silentLogger } from '../../src/log.js';
import { Services } from '../../src/services.js';

/** Every JSON-RPC method the node received. */
const methods = (devnet: Devnet) => devnet.router.requests.map((r) => String((r.body as { method?: unknown }).method));

describe('a write answered as by a node of the other dialect is never sent again', () => {
  let devnet: Devnet;
  let services: Services;
  beforeAll(async () => {
    devnet = await startDevnet({ dialect: 'camino' });
    devnet.router.record = true;
    services = new Services({ config: loadConfig({ CHAIN_MCP_NODE_URL: devnet.nodeUrl }), log: silentLogger() });
  });
  afterAll(async () => {
    await services.close();
    await devnet.close();
  });

  it('re-learns the names, says nothing was executed, and sends it once', async () => {
    expect((await services.dialect.get()).dialect).toBe('camino');
    devnet.setDialect('spec');
    devnet.router.requests.length = 0;
    const params = { username: devnet.keystore.username, password: devnet.keystore.password, amount: 1, assetID: 'CAM', to: 'X-local1x' };
    const err = await services.rpc('xvm', 'xvm.send', params, { retry: false }).catch((e: unknown) => e as Error);
    expect(err).toBeInstanceOf(Error);
    expect((err as Error).message).toBe('The node refused xvm.send under the names of the camino dialect: it now speaks the spec names. Nothing was executed.');
    expect((err as { hint?: string }).hint).toMatch(/call the tool again/);
    expect(methods(devnet).filter((m) => m.endsWith('.send'))).toEqual(['avm.send']);
    expect(services.dialect.peek()?.dialect).toBe('spec');
  });

  it('an error that is no dialect signal is the call\'s own: no names learned again, one request', async () => {
    await services.dialect.get();
    const dialect = services.dialect.peek()?.dialect;
    const xName = dialect === 'camino' ? 'avm.getBalance' : 'xvm.getBalance';
    // The node's own refusal of a read (an unknown address), and a 404 where the path is the same
    // in both dialects (a chain the node does not have).
    // (The simulator records only requests that reach a route: the 404 leaves no entry.)
    const cases: Array<[Parameters<Services['rpc']>, string[]]> = [
      [['xvm', 'xvm.getBalance', { address: 'X-nonsense', assetID: 'CAM' }, { retry: true }], [xName]],
      [['xvm', 'xvm.getBalance', { address: 'X-nonsense', assetID: 'CAM' }, { retry: true, chain: 'NoSuchChain' }], []],
    ];
    for (const [args, sent] of cases) {
      devnet.router.requests.length = 0;
      const err = await services.rpc(...args).catch((e: unknown) => e as Error);
      expect(err).toBeInstanceOf(Error);
      expect((err as Error).message).not.toMatch(/Nothing was executed|now speaks/);
      expect(methods(devnet), (err as Error).message).toEqual(sent);
    }
    expect(services.dialect.peek()?.dialect).toBe(dialect);
  });

  it('a configured dialect is the operator\'s word: not re-learned', async () => {
    const fixed = new Services({ config: loadConfig({ CHAIN_MCP_NODE_URL: devnet.nodeUrl, CHAIN_MCP_WIRE_NAMES: 'camino' }), log: silentLogger() });
    try {
      devnet.router.requests.length = 0;
      const err = await fixed.rpc('xvm', 'xvm.getAssetDescription', { assetID: 'CAM' }, { retry: true }).catch((e: unknown) => e as Error);
      expect((err as Error).message).toMatch(/can't find service "avm.getAssetDescription"/);
      expect(methods(devnet)).toEqual(['avm.getAssetDescription']);
    } finally {
      await fixed.close();
    }
  });
});
