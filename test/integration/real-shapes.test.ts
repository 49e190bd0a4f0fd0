import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Devnet, startDevnet } from '../../src/devnet/index.js';
import { inMemoryStack, type Stack } from '../helpers/stack.js';

/**
 * Real-node behaviours over the MCP protocol against the devnet set up like a real caminogo
 * node: getBalance with lockModeBondDeposit off, the keystore API off (404), an admin secret.
 */

const ADMIN_SECRET = 'Adm1n-Secret-9f8e7d6c';

describe('platform_getBalance on a node without bond/deposit lock mode', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await inMemoryStack();
  });
  afterAll(() => stack.close());

  it('answers in the Avalanche shape and the server reads it', async () => {
    const { devnet } = stack;
    const user = devnet.state.users.get('devnet')!.keys[0]!;
    const address = `P-${user.x.slice(2)}`;
    const camino = await stack.call('platform_getBalance', { addresses: [address] });
    expect(camino.isError).toBe(false);
    const caminoAsset = (camino.structured!.assets as Array<Record<string, { value: string }>>)[0]!;

    devnet.state.config.lockModeBondDeposit = false;
    devnet.router.record = true;
    const avalanche = await stack.call('platform_getBalance', { addresses: [address] });
    devnet.router.record = false;
    devnet.state.config.lockModeBondDeposit = true;
    const sent = devnet.router.requests.at(-1)!;
    expect(sent.path).toBe('/ext/P');
    expect(avalanche.isError).toBe(false);
    const asset = (avalanche.structured!.assets as Array<Record<string, { value: string } | undefined>>)[0]!;
    // The same holdings, now read from balance/unlockeds/lockedNotStakeables.
    expect(asset.total!.value).toBe(caminoAsset.total!.value);
    expect(asset.unlocked!.value).toBe(caminoAsset.unlocked!.value);
    expect(BigInt(asset.lockedNotStakeable!.value)).toBe(BigInt(caminoAsset.total!.value) - BigInt(caminoAsset.unlocked!.value));
    expect(asset.bonded).toBeUndefined();
    expect(avalanche.text).toContain('unlocked');
  });

  it('reads info.uptime sent as json.Float64 strings', async () => {
    const r = await stack.call('info_uptime');
    expect(r.structured).toEqual({ rewardingStakePercentage: '100', weightedAveragePercentage: '99.5' });
  });
});

describe('a node started without --api-keystore-enabled', () => {
  let devnet: Devnet;
  let stack: Stack;
  beforeAll(async () => {
    devnet = await startDevnet({ keystoreApi: false });
    stack = await inMemoryStack({
      devnet,
      env: { CHAIN_MCP_KEYSTORE_USER: devnet.keystore.username, CHAIN_MCP_KEYSTORE_PASSWORD: devnet.keystore.password, CHAIN_MCP_ALLOW_ADMIN: 'true' },
    });
  });
  afterAll(async () => {
    await stack.close();
    await devnet.close();
  });

  it('says the keystore API is disabled and how to enable it', async () => {
    const raw = await fetch(`${devnet.nodeUrl}/ext/keystore`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(raw.status).toBe(404);
    for (const name of ['keystore_listUsers', 'keystore_createUser']) {
      const r = await stack.call(name);
      expect(r.isError).toBe(true);
      expect(r.text).toContain("The node's keystore API is disabled");
      expect(r.text).toContain('--api-keystore-enabled=true');
    }
  });
});

describe('CHAIN_MCP_ADMIN_SECRET on admin calls', () => {
  let devnet: Devnet;
  beforeAll(async () => {
    devnet = await startDevnet({ adminSecret: ADMIN_SECRET });
  });
  afterAll(() => devnet.close());

  it('is refused by the node without the secret', async () => {
    const stack = await inMemoryStack({ devnet, env: { CHAIN_MCP_ALLOW_ADMIN: 'true' } });
    try {
      const r = await stack.call('admin_memoryProfile');
      expect(r.isError).toBe(true);
      expect(r.text).toContain('secret arg missing or wrong');
    } finally {
      await stack.close();
    }
  });

  it('is injected as the secret param, absent from the schema and from every result', async () => {
    const stack = await inMemoryStack({ devnet, env: { CHAIN_MCP_ALLOW_ADMIN: 'true', CHAIN_MCP_ADMIN_SECRET: ADMIN_SECRET } });
    try {
      const { tools } = await stack.client.listTools();
      expect(JSON.stringify(tools)).not.toContain(ADMIN_SECRET);
      expect(JSON.stringify(tools.find((t) => t.name === 'admin_setLogLevel')!.inputSchema)).not.toContain('secret');
      devnet.router.record = true;
      const ok = await stack.call('admin_setLogLevel', { level: 'debug' });
      const refused = await stack.call('admin_setLogLevel', { level: 'nonsense' });
      devnet.router.record = false;
      expect(ok.isError).toBe(false);
      expect(refused.isError).toBe(true);
      const sent = devnet.router.requests.filter((q) => q.path === '/ext/bc/C/admin');
      expect(sent).toHaveLength(2);
      for (const q of sent) expect((q.body as { params: { secret?: string } }).params.secret).toBe(ADMIN_SECRET);
      for (const r of [ok, refused]) expect(JSON.stringify(r)).not.toContain(ADMIN_SECRET);
    } finally {
      await stack.close();
    }
  });
});

describe('deposit offers from a Camino-dialect devnet (real APIDepositOffer shape)', () => {
  let spec: Stack;
  let camino: Stack;
  beforeAll(async () => {
    spec = await inMemoryStack();
    camino = await inMemoryStack({ devnet: await startDevnet({ dialect: 'camino' }) });
  });
  afterAll(async () => {
    await spec.close();
    await camino.close();
    await camino.devnet.close();
  });

  it('reads lowercase fields and the 0x memo as the spec shape, and null as no offers', async () => {
    const ts = camino.devnet.state.genesisTime + 86400;
    // The two simulators may have started in different seconds: give both the same offers.
    spec.devnet.state.depositOffers = camino.devnet.state.depositOffers.map((o) => ({ ...o }));
    const direct = async (timestamp: number) => {
      const res = await fetch(`${camino.devnet.nodeUrl}/ext/P`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'platform.getAllDepositOffers', params: { timestamp: String(timestamp) } }),
      });
      return ((await res.json()) as { result: { depositOffers: Array<Record<string, unknown>> | null } }).result.depositOffers;
    };
    const wire = (await direct(ts))!;
    expect(wire[0]).toMatchObject({ memo: expect.stringMatching(/^0x/), minDuration: expect.any(Number), interestRateNominator: expect.any(String) });
    expect(wire[0]!.Memo).toBeUndefined();
    const real = await camino.call('platform_getAllDepositOffers', { timestamp: ts });
    const fromSpec = await spec.call('platform_getAllDepositOffers', { timestamp: ts });
    expect(real.isError).toBe(false);
    expect(real.structured).toEqual(fromSpec.structured);
    expect(real.text).toContain('"Standard 8% offer"');
    const before = camino.devnet.state.genesisTime - 10 * 365 * 86400;
    expect(await direct(before)).toBeNull();
    const none = await camino.call('platform_getAllDepositOffers', { timestamp: before });
    expect(none.structured).toMatchObject({ count: 0, depositOffers: [] });
  });
});
