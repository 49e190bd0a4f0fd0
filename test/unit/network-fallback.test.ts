import { describe, expect, it } from 'vitest';
import { formatChainAddress } from '../../src/codec/index.js';
import { type Config, loadConfig } from '../../src/config.js';
import { NetworkCache } from '../../src/context/network.js';
import { ChainMcpError, RpcError } from '../../src/errors.js';
import { checkWithoutRequests, pinNetwork } from '../../src/spend/guard.js';

/**
 * A node that does not serve platform.getConfiguration answers with a JSON-RPC error; the
 * network then comes from info.getNetworkID and the known-networks table (src/context/network.ts),
 * and the recipient prefix check (src/spend/guard.ts) still applies to a network known by ID.
 */

const config = (extra: Partial<Config> = {}): Config => ({ ...loadConfig({}), ...extra });
const addr = (chain: 'X' | 'P' | 'C', hrp: string, seed = 1) => formatChainAddress(chain, hrp, new Uint8Array(20).fill(seed));
const CAMINO_X = addr('X', 'camino');
const COLUMBUS_X = addr('X', 'columbus', 3);
const COLUMBUS_P = addr('P', 'columbus', 5);

/** A node without platform.getConfiguration on network 1001 (columbus); records what was asked. */
function nodeWithoutConfiguration(configurationError: Error = new RpcError(-32601, 'the method platform.getConfiguration does not exist/is not available', undefined)) {
  const requests: string[] = [];
  const cache = new NetworkCache(async (_endpoint, method) => {
    requests.push(method);
    if (method === 'platform.getConfiguration') throw configurationError;
    if (method === 'info.getNetworkID') return { networkID: '1001' };
    throw new Error(`unexpected ${method}`);
  });
  return { cache, requests };
}

async function asyncRefusal(p: Promise<unknown>): Promise<{ kind: string; message: string; hint?: string }> {
  try {
    await p;
  } catch (err) {
    if (err instanceof ChainMcpError) return { kind: err.kind, message: err.message, hint: err.hint };
    throw err;
  }
  throw new Error('expected a refusal');
}

const prefixRefusal = (recipient: string, hrp: string, nodeHrp: string) => ({
  kind: 'policy',
  message: `Refused: ${recipient} belongs to network prefix "${hrp}", but the node is on "${nodeHrp}".`,
  hint: 'Check that the address is for this network.',
});

describe('network by ID when platform.getConfiguration is an RPC error', () => {
  it('learns the network from info.getNetworkID and the known-networks table', async () => {
    const { cache, requests } = nodeWithoutConfiguration();
    expect(await cache.get()).toEqual({ networkID: '1001', hrp: 'columbus', assetSymbol: '', assetID: '', source: 'known-networks' });
    expect(requests).toEqual(['platform.getConfiguration', 'info.getNetworkID']);
  });

  it('refuses a recipient with another network\'s prefix on the cold path (pinNetwork) and on the cached one', async () => {
    const { cache, requests } = nodeWithoutConfiguration();
    expect(await asyncRefusal(pinNetwork({ recipients: [COLUMBUS_P, CAMINO_X] }, config(), () => cache.get(), false))).toEqual(
      prefixRefusal(CAMINO_X, 'camino', 'columbus'),
    );
    expect(requests).toEqual(['platform.getConfiguration', 'info.getNetworkID']);
    let refused: unknown;
    try {
      checkWithoutRequests({ recipients: [CAMINO_X] }, config(), cache.peek());
    } catch (err) {
      refused = err;
    }
    expect(refused).toBeInstanceOf(ChainMcpError);
    expect({ kind: (refused as ChainMcpError).kind, message: (refused as ChainMcpError).message, hint: (refused as ChainMcpError).hint }).toEqual(
      prefixRefusal(CAMINO_X, 'camino', 'columbus'),
    );
    expect(requests).toHaveLength(2);
  });

  it('lets a recipient with the network\'s own prefix through', async () => {
    const { cache } = nodeWithoutConfiguration();
    await expect(pinNetwork({ recipients: [COLUMBUS_X, COLUMBUS_P] }, config(), () => cache.get(), false)).resolves.toBeUndefined();
    expect(() => checkWithoutRequests({ recipients: [COLUMBUS_X, COLUMBUS_P] }, config(), cache.peek())).not.toThrow();
  });

  it('does not fall back on a failure that is not an RPC error, and does not cache it', async () => {
    const { cache, requests } = nodeWithoutConfiguration(new ChainMcpError('timeout', 'The node did not answer within 15000 ms.'));
    expect((await asyncRefusal(cache.get())).kind).toBe('timeout');
    expect(requests).toEqual(['platform.getConfiguration']);
    expect(cache.peek()).toBeUndefined();
    expect((await asyncRefusal(cache.get())).kind).toBe('timeout');
    expect(requests).toEqual(['platform.getConfiguration', 'platform.getConfiguration']);
  });
});
