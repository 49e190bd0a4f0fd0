import { afterEach, describe, expect, it } from 'vitest';
import { startDevnet, type Devnet } from '../../src/devnet/index.js';
import { RpcFault } from '../../src/devnet/rpc.js';
import type { UserKey } from '../../src/devnet/state/index.js';
import { inMemoryStack, type Stack } from '../helpers/stack.js';
import { nodeAnswer as askNode } from '../helpers/node-answer.js';

/**
 * account_overview and network_overview when parts fail or only a 0x address is given (issue 44,
 * group `camino`), through MCP against the simulator.
 */

// biome-ignore lint/suspicious/noExplicitAny: structured results are checked field by field
type Rec = Record<string, any>;

describe('account_overview and network_overview: partial answers', () => {
  let devnet: Devnet;
  let stack: Stack;
  let d0: UserKey;
  const start = async (dialect: 'camino' | 'spec' = 'spec') => {
    devnet = await startDevnet({ dialect });
    stack = await inMemoryStack({ devnet });
    d0 = devnet.state.users.get(devnet.state.devnetUser)!.keys[0]!;
  };
  afterEach(async () => {
    await stack.close();
    await devnet.close();
  });
  const fail = (path: string, method: string) =>
    devnet.router.on(path, method, () => {
      throw new RpcFault(`${method}: database closed`);
    });

  describe('account_overview', () => {
    it('a 0x address alone: its C balance and the other assets it holds on C, from the indexer\'s asset list', async () => {
      await start();
      const r = await stack.call('account_overview', { addresses: [d0.c] });
      expect(r.isError, r.text).toBe(false);
      const evm = (r.structured as Rec).evm;
      expect(evm).toHaveLength(1);
      const held = [...devnet.state.cAssetBalances.get(d0.c)!.entries()];
      expect(held.length).toBeGreaterThan(0);
      expect(evm[0].assets.map((a: Rec) => [a.assetID, a.amount.value])).toEqual(held.map(([id, v]) => [id, String(v)]));
      expect(r.text).toContain(`${d0.c.toLowerCase()} on C: ${evm[0].balance.display}; also ${evm[0].assets.map((a: Rec) => a.amount.display).join(', ')}`);
    });

    it('the indexer down: the 0x balance still answers, the asset list named as not read', async () => {
      await start();
      await devnet.indexer!.close();
      const r = await stack.call('account_overview', { addresses: [d0.c] });
      expect(r.isError, r.text).toBe(false);
      const s = r.structured as Rec;
      expect(s.evm).toHaveLength(1);
      expect(s.evm[0].assets).toEqual([]);
      expect(s.problems.map((p: Rec) => p.step)).toEqual(['asset list']);
    });

    it('a 0x balance the node does not give: named as not read, the rest still answers', async () => {
      await start();
      fail('/ext/bc/C/rpc', 'eth_getBalance');
      const r = await stack.call('account_overview', { addresses: [d0.x, d0.c] });
      expect(r.isError, r.text).toBe(false);
      const s = r.structured as Rec;
      expect(s.evm).toEqual([]);
      expect(s.accounts).toHaveLength(1);
      expect(s.problems.map((p: Rec) => p.step)).toEqual([`C balance of ${d0.c.toLowerCase()}`]);
    });

    it('the locks of a P balance unreadable: named as a problem for that address, the balance still shown', async () => {
      await start('camino');
      fail('/ext/P', 'platform.getDeposits');
      const r = await stack.call('account_overview', { addresses: [d0.x] });
      expect(r.isError, r.text).toBe(false);
      const s = r.structured as Rec;
      expect(s.accounts[0].p).toBeDefined();
      expect(s.accounts[0].locks).toBeUndefined();
      const locks = s.problems.find((p: Rec) => p.step === `P locks of ${d0.bech32}`);
      expect(locks?.error).toContain('database closed');
      expect(locks.error).not.toContain('\n');
    });

    it('a configuration that does not name the native asset: the P balance is the only asset the node lists', async () => {
      await start();
      const conf = await askNode<Rec>(devnet.nodeUrl, '/ext/P', 'platform.getConfiguration');
      await stack.close();
      devnet.router.on('/ext/P', 'platform.getConfiguration', () => ({ ...conf, assetID: undefined }));
      stack = await inMemoryStack({ devnet });
      const balance = ((await stack.call('platform_getBalance', { addresses: [d0.p] })).structured as Rec).assets;
      expect(balance).toHaveLength(1);
      const r = await stack.call('account_overview', { addresses: [d0.p] });
      expect((r.structured as Rec).accounts[0].p.total.value).toBe(balance[0].total.value);
      expect(balance[0].total.value).not.toBe('0');
    });

    it('an address that is not one: refused, saying what is expected', async () => {
      await start();
      const r = await stack.call('account_overview', { addresses: ['X-local1notanaddress'] });
      expect(r.isError).toBe(true);
      expect(r.text).toContain('invalid character "o" in bech32 address; expected X-..., P-..., C-... or 0x...');
    });
  });

  describe('network_overview', () => {
    it('without the network ID, name and configuration: still answers, with what it has', async () => {
      await start();
      fail('/ext/info', 'info.getNetworkID');
      fail('/ext/info', 'info.getNetworkName');
      fail('/ext/P', 'platform.getConfiguration');
      const r = await stack.call('network_overview');
      expect(r.isError, r.text).toBe(false);
      expect(r.structured).toMatchObject({ networkID: '', networkName: '' });
      expect(r.text.split('\n')[0]).toMatch(/^Network \? \(ID \?, address prefix "\?", native asset \?\)/);
    });

    it('the network ID from the configuration when info.getNetworkID fails, the name from info.getNetworkID when the name fails', async () => {
      await start();
      fail('/ext/info', 'info.getNetworkID');
      const byConf = await stack.call('network_overview');
      expect((byConf.structured as Rec).networkID).toBe(String(devnet.state.networkID));
      await stack.close();
      devnet.router.on('/ext/info', 'info.getNetworkID', () => ({ networkID: String(devnet.state.networkID), network: 'local' }));
      fail('/ext/info', 'info.getNetworkName');
      stack = await inMemoryStack({ devnet });
      expect(((await stack.call('network_overview')).structured as Rec).networkName).toBe('local');
    });

    it('deposit offers unreadable: no offer lines at all, the failure named', async () => {
      await start();
      fail('/ext/P', 'platform.getAllDepositOffers');
      const r = await stack.call('network_overview');
      expect((r.structured as Rec).depositOffers).toBeUndefined();
      const prefixes = ['Network ', 'Bootstrapped: ', 'P height ', 'Fees: ', 'Staked: ', 'Staking minimums: ', 'Could not read: '];
      for (const line of r.text.split('\n')) expect(prefixes.some((p) => line.startsWith(p)), line).toBe(true);
    });
  });
});
