import { DISCOVERY } from '../../src/registry/dynamic.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CATALOGUE } from '../../src/catalogue/index.js';
import { inMemoryStack, type Stack } from '../helpers/stack.js';
import { type Devnet, startDevnet } from '../../src/devnet/index.js';
import { toolListing } from '../../src/registry/listing.js';

/** Tiers (DESIGN "Tiers and toolsets"): what each flag lists, over tools/list of a real client. */

const KEYSTORE = { CHAIN_MCP_KEYSTORE_USER: 'devnet', CHAIN_MCP_KEYSTORE_PASSWORD: 'Devnet-Passw0rd!' };
const tierOf = new Map(CATALOGUE.map((t) => [t.name, t.tier]));
const namesOf = (tier: string) => CATALOGUE.filter((t) => t.tier === tier).map((t) => t.name).sort();

describe('tier gating', () => {
  let devnet: Devnet;
  beforeAll(async () => {
    devnet = await startDevnet();
  });
  afterAll(() => devnet.close());

  async function listed(env: Record<string, string>): Promise<Map<string, string[]>> {
    const stack: Stack = await inMemoryStack({ devnet, env });
    try {
      const { tools } = await stack.client.listTools();
      const byTier = new Map<string, string[]>();
      for (const t of tools) {
        // The discovery tools (listed by default, rarely used families one enable_toolset away) have no tier.
        if ((DISCOVERY as readonly string[]).includes(t.name)) continue;
        const tier = tierOf.get(t.name) ?? 'unknown';
        byTier.set(tier, [...(byTier.get(tier) ?? []), t.name].sort());
      }
      return byTier;
    } finally {
      await stack.close();
    }
  }

  it('catalogues every tool of the three guarded tiers', () => {
    const spend = 'xvm_createFixedCapAsset xvm_createVariableCapAsset xvm_createNFTAsset xvm_mint xvm_mintNFT xvm_send xvm_sendMultiple xvm_sendNFT xvm_export xvm_import xvm_issueTx wallet_send wallet_issueTx platform_addDelegator platform_addValidator platform_addSubnetValidator platform_createBlockchain platform_createSubnet platform_exportNative platform_setAddressState cx_export cx_import cx_issueTx eth_sendRawTransaction';
    const admin = 'auth_newToken auth_revokeToken auth_changePassword keystore_createUser keystore_deleteUser keystore_exportUser keystore_importUser xvm_exportKey xvm_importKey cx_exportKey cx_importKey platform_exportKey admin_setLogLevel admin_startCPUProfiler admin_stopCPUProfiler admin_memoryProfile admin_lockProfile runner_start runner_health runner_uris';
    expect(namesOf('spend')).toEqual(expect.arrayContaining(spend.split(' ')));
    expect(namesOf('admin')).toEqual(expect.arrayContaining(admin.split(' ')));
    expect(namesOf('wallet')).toEqual(['platform_createAddress', 'xvm_createAddress', 'xvm_listAddresses']);
  });

  it('lists no spend, wallet or admin tool by default', async () => {
    const byTier = await listed({});
    expect([...byTier.keys()]).toEqual(['read']);
  });

  it('lists the wallet tier exactly when keystore credentials are set', async () => {
    const byTier = await listed(KEYSTORE);
    expect(byTier.get('wallet')).toEqual(namesOf('wallet'));
    expect(byTier.has('spend')).toBe(false);
    expect(byTier.has('admin')).toBe(false);
  });

  it('lists the spend tier only with CHAIN_MCP_ALLOW_SPEND and credentials', async () => {
    // Without a keystore user neither spend nor wallet tools can work: only reads are listed.
    expect([...(await listed({ CHAIN_MCP_ALLOW_SPEND: 'true' })).keys()]).toEqual(['read']);
    const byTier = await listed({ CHAIN_MCP_ALLOW_SPEND: 'true', ...KEYSTORE });
    expect(byTier.get('spend')).toEqual(namesOf('spend'));
    expect(byTier.get('wallet')).toEqual(namesOf('wallet'));
    expect(byTier.has('admin')).toBe(false);
  });

  it('lists the admin tier exactly with CHAIN_MCP_ALLOW_ADMIN', async () => {
    // The runner's tools appear only once its gateway URL is set (they could only fail without it).
    const withoutRunner = await listed({ CHAIN_MCP_ALLOW_ADMIN: 'true' });
    expect(withoutRunner.get('admin')).toEqual(namesOf('admin').filter((n) => !n.startsWith('runner_')));
    const byTier = await listed({ CHAIN_MCP_ALLOW_ADMIN: 'true', CHAIN_MCP_RUNNER_URL: 'http://127.0.0.1:9' });
    expect(byTier.get('admin')).toEqual(namesOf('admin'));
    expect(byTier.has('spend')).toBe(false);
    expect(byTier.has('wallet')).toBe(false);
  });

  it('CHAIN_MCP_ADMIN_SECRET alone does not turn the admin tier on', async () => {
    const byTier = await listed({ CHAIN_MCP_ADMIN_SECRET: 'admin-secret-for-c-admin', CHAIN_MCP_RUNNER_URL: 'http://127.0.0.1:9' });
    expect([...byTier.keys()]).toEqual(['read']);
    const stack = await inMemoryStack({ devnet, env: { CHAIN_MCP_ADMIN_SECRET: 'admin-secret-for-c-admin' } });
    devnet.router.record = true;
    devnet.router.requests.length = 0;
    try {
      const hidden = await stack.call('admin_setLogLevel', { level: 'info' });
      expect(hidden.isError).toBe(true);
      expect(hidden.text).toMatch(/admin_setLogLevel" is not enabled on this server: the admin tier is off/);
      expect(devnet.router.requests).toHaveLength(0);
    } finally {
      devnet.router.record = false;
      await stack.close();
    }
  });

  it('reads only true/1/yes as on: "no", "0", "false" and empty keep spending and admin off', async () => {
    for (const off of ['no', '0', 'false', '']) {
      const byTier = await listed({ CHAIN_MCP_ALLOW_SPEND: off, CHAIN_MCP_ALLOW_ADMIN: off, ...KEYSTORE });
      expect([...byTier.keys()].sort(), JSON.stringify(off)).toEqual(['read', 'wallet']);
    }
    for (const on of ['yes', '1', 'true']) {
      const byTier = await listed({ CHAIN_MCP_ALLOW_SPEND: on, CHAIN_MCP_ALLOW_ADMIN: on, ...KEYSTORE });
      expect([...byTier.keys()].sort(), on).toEqual(['admin', 'read', 'spend', 'wallet']);
    }
  });

  it('refuses a call to a tool of a tier that is off, sending nothing', async () => {
    const stack = await inMemoryStack({ devnet });
    devnet.router.record = true;
    devnet.router.requests.length = 0;
    try {
      const hidden = await stack.call('xvm_send', { amount: '1', assetID: 'CAM', to: 'X-local1abc' });
      expect(hidden.isError).toBe(true);
      expect(hidden.text).toMatch(/xvm_send" is not enabled on this server: spending is off/);
      expect(devnet.router.requests).toHaveLength(0);
    } finally {
      devnet.router.record = false;
      await stack.close();
    }
  });
});

describe('no tool takes credentials', () => {
  /** Every property name anywhere in a JSON schema. */
  function propertyNames(schema: unknown, out: string[] = []): string[] {
    if (Array.isArray(schema)) for (const s of schema) propertyNames(s, out);
    else if (schema && typeof schema === 'object') {
      const props = (schema as { properties?: Record<string, unknown> }).properties;
      if (props) out.push(...Object.keys(props));
      for (const v of Object.values(schema)) propertyNames(v, out);
    }
    return out;
  }

  it('has no username or password in any input schema of the whole catalogue', () => {
    for (const tool of CATALOGUE) {
      const names = propertyNames(toolListing(tool).inputSchema).map((n) => n.toLowerCase());
      expect(names, tool.name).not.toContain('username');
      expect(names, tool.name).not.toContain('password');
      expect(names, tool.name).not.toContain('oldpassword');
    }
  });

  it('gives every spend tool the confirm argument', () => {
    for (const tool of CATALOGUE.filter((t) => t.tier === 'spend')) {
      expect(Object.keys((toolListing(tool).inputSchema.properties ?? {}) as object), tool.name).toContain('confirm');
    }
  });
});
