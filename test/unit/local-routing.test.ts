import { describe, expect, it } from 'vitest';
import { CATALOGUE } from '../../src/catalogue/index.js';
import { LOCAL_BUILDERS } from '../../src/local/builders.js';
import { LOCAL_TOOLS, localRoute, refusedUnderLocal } from '../../src/registry/local-spend.js';

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

  it('signed bytes from elsewhere and every tool that is not a spend take the usual path, the local builders named or not', () => {
    const route = (name: string, builders: ReadonlySet<string> = LOCAL_TOOLS) => localRoute(CATALOGUE.find((t) => t.name === name)!, builders);
    for (const name of ['xvm_issueTx', 'wallet_issueTx', 'cx_issueTx', 'eth_sendRawTransaction']) expect(route(name), name).toBe('usual');
    const others = CATALOGUE.filter((t) => t.tier !== 'spend');
    expect(others.length).toBeGreaterThan(0);
    for (const tool of others) {
      expect(localRoute(tool, LOCAL_TOOLS), tool.name).toBe('usual');
      expect(localRoute(tool, new Set([tool.name])), tool.name).toBe('usual');
    }
  });

  it('the refusal names the tool and the keystore signer, sends nothing, and points at what the local signer builds', () => {
    const err = refusedUnderLocal(CATALOGUE.find((t) => t.name === 'xvm_mint')!);
    expect(err.kind).toBe('policy');
    expect(err.message).toBe(
      'Refused: xvm_mint needs the keystore signer (CHAIN_MCP_SIGNER=keystore on a node with its keystore API); the local signer does not build it. Nothing was sent.',
    );
    expect(err.hint).toBe('Use xvm_send, transfer, or the X/P/C exports and imports, which the local signer builds.');
  });

  it('a spend only the local signer builds says so under the keystore signer (localOnly) and has no keystore request', () => {
    for (const name of ['platform_deposit', 'platform_unlockDeposit']) {
      const tool = CATALOGUE.find((t) => t.name === name)!;
      expect(tool.localOnly, name).toMatch(/^an? /);
      expect(tool.request, name).toBeUndefined();
    }
  });
});
