import { describe, expect, it } from 'vitest';

/**
 * Every module of the mutation scope loads. Imported inside the test, not at the top: a mistake
 * that throws while a module loads (a broken flag table, a schema built wrong) then fails this
 * test instead of failing the file before any test runs, which mutation testing's static pass
 * would not count as a failure.
 */
const MODULES: Record<string, () => Promise<unknown>> = {
  config: () => import('../../src/config.js'),
  server: () => import('../../src/server.js'),
  'http-server': () => import('../../src/http-server.js'),
  catalogue: () => import('../../src/catalogue/index.js'),
  'approval/book': () => import('../../src/approval/book.js'),
  'approval/card': () => import('../../src/approval/card.js'),
  'approval/card-tool': () => import('../../src/approval/card-tool.js'),
  'approval/flow': () => import('../../src/approval/flow.js'),
  'approval/page': () => import('../../src/approval/page.js'),
  'approval/passkey': () => import('../../src/approval/passkey.js'),
  'approval/passkey-register': () => import('../../src/approval/passkey-register.js'),
  stranger: () => import('../../src/summarize/stranger.js'),
  'signer/keys': () => import('../../src/signer/keys.js'),
  'signer/keyfile': () => import('../../src/signer/keyfile.js'),
  'signer/types': () => import('../../src/signer/types.js'),
  'context/network': () => import('../../src/context/network.js'),
  'context/dialect': () => import('../../src/context/dialect.js'),
  'auth/approval-login': () => import('../../src/auth/approval-login.js'),
  'auth/client-address': () => import('../../src/auth/client-address.js'),
  'auth/issuer': () => import('../../src/auth/issuer.js'),
  'auth/rate': () => import('../../src/auth/rate.js'),
  'auth/resource': () => import('../../src/auth/resource.js'),
  'auth/scopes': () => import('../../src/auth/scopes.js'),
  'auth/verify': () => import('../../src/auth/verify.js'),
};

describe('every module of the mutation scope loads', () => {
  for (const [name, load] of Object.entries(MODULES)) {
    it(name, async () => {
      const mod = await load();
      expect(Object.keys(mod as object).length, name).toBeGreaterThan(0);
    });
  }
  it('the help text and the catalogue are built', async () => {
    const { HELP } = await import('../../src/help.js');
    const { CATALOGUE } = await import('../../src/catalogue/index.js');
    expect(HELP).toMatch(/^chain-mcp: /);
    expect(CATALOGUE.length).toBeGreaterThan(100);
  });
});
