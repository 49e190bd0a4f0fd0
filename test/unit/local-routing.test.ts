import { describe, expect, it } from 'vitest';
import { CATALOGUE } from '../../src/catalogue/index.js';
import { LOCAL_BUILDERS } from '../../src/local/builders.js';
import { LOCAL_TOOLS, localRoute } from '../../src/registry/local-spend.js';

describe('the local signer routes exactly the spends it builds', () => {
  it('LOCAL_TOOLS (read when routing, without loading builders) names the same tools as LOCAL_BUILDERS', () => {
    expect([...LOCAL_TOOLS].sort()).toEqual(Object.keys(LOCAL_BUILDERS).sort());
  });

  it("Camino's deposit, unlock and claim take the local path; every spend without a builder is refused", () => {
    const route = (name: string) => localRoute(CATALOGUE.find((t) => t.name === name)!, LOCAL_TOOLS);
    for (const name of ['platform_deposit', 'platform_unlockDeposit', 'platform_claim', 'transfer']) expect(route(name), name).toBe('local');
    for (const tool of CATALOGUE.filter((t) => t.tier === 'spend' && !LOCAL_TOOLS.has(t.name) && !['xvm_issueTx', 'wallet_issueTx', 'cx_issueTx', 'eth_sendRawTransaction'].includes(t.name))) {
      expect(route(tool.name), tool.name).toBe('refuse');
    }
  });

  it('a spend only the local signer builds says so under the keystore signer (localOnly) and has no keystore request', () => {
    for (const name of ['platform_deposit', 'platform_unlockDeposit']) {
      const tool = CATALOGUE.find((t) => t.name === name)!;
      expect(tool.localOnly, name).toMatch(/^an? /);
      expect(tool.request, name).toBeUndefined();
    }
  });
});
