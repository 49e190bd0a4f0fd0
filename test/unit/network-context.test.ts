import { describe, expect, it } from 'vitest';
import { DialectCache } from '../../src/context/dialect.js';
import { NetworkCache, checkAddressNetworks, checkInputNetwork, describeNetwork } from '../../src/context/network.js';
import type { NetworkInfo } from '../../src/core/network.js';
import { ChainMcpError, HttpStatusError, RpcError } from '../../src/errors.js';
import { createLogger } from '../../src/log.js';
import { parseWireSetting } from '../../src/wire.js';

/** A node double answering by method; an Error answer is thrown. Records every call. */
function rpcDouble(answers: Record<string, unknown>) {
  const calls: string[] = [];
  const rpc = async (_endpoint: string, method: string, params?: Record<string, unknown>) => {
    calls.push(params ? `${method} ${JSON.stringify(params)}` : method);
    const answer = answers[method];
    if (answer instanceof Error) throw answer;
    if (answer === undefined) throw new RpcError(-32601, `the method ${method} does not exist/is not available`, null);
    return answer;
  };
  return { rpc, calls };
}

const columbus: NetworkInfo = { networkID: '1001', hrp: 'columbus', assetSymbol: 'CAM', assetID: 'asset', source: 'configuration' };
const X_COLUMBUS = 'X-columbus1g65uqn6t77p656w64023nh8nd9updzmxwd59gh';
const X_CAMINO = 'X-camino1g65uqn6t77p656w64023nh8nd9updzmxh8ttv3';

describe('learning the network (mutation survivors, issue 25)', () => {
  it('takes hrp, symbol, asset and lock mode from platform.getConfiguration, and only fields of the right type', async () => {
    const full = rpcDouble({ 'platform.getConfiguration': { networkID: '1001', hrp: 'columbus', assetSymbol: 'CAM', assetID: 'abc', lockModeBondDeposit: true } });
    expect(await new NetworkCache(full.rpc).get()).toEqual({ networkID: '1001', hrp: 'columbus', assetSymbol: 'CAM', assetID: 'abc', source: 'configuration', lockModeBondDeposit: true });
    const off = rpcDouble({ 'platform.getConfiguration': { networkID: 1001, hrp: 'columbus', lockModeBondDeposit: false } });
    expect(await new NetworkCache(off.rpc).get()).toEqual({ networkID: '1001', hrp: 'columbus', assetSymbol: '', assetID: '', source: 'configuration', lockModeBondDeposit: false });
    const odd = rpcDouble({ 'platform.getConfiguration': { networkID: '5', hrp: 'local', assetSymbol: 7, assetID: {}, lockModeBondDeposit: 'true' } });
    expect(await new NetworkCache(odd.rpc).get()).toEqual({ networkID: '5', hrp: 'local', assetSymbol: '', assetID: '', source: 'configuration' });
  });

  it('falls back to info.getNetworkID and the known-networks table when the configuration lacks hrp or ID', async () => {
    for (const configuration of [{ networkID: '1000' }, { hrp: 'camino' }]) {
      const n = rpcDouble({ 'platform.getConfiguration': configuration, 'info.getNetworkID': { networkID: '1000' } });
      expect(await new NetworkCache(n.rpc).get()).toEqual({ networkID: '1000', hrp: 'camino', assetSymbol: '', assetID: '', source: 'known-networks', lockModeBondDeposit: true });
      expect(n.calls).toEqual(['platform.getConfiguration', 'info.getNetworkID']);
    }
    const local = rpcDouble({ 'info.getNetworkID': { networkID: '12345' } });
    expect(await new NetworkCache(local.rpc).get()).toEqual({ networkID: '12345', hrp: 'local', assetSymbol: '', assetID: '', source: 'known-networks' });
    const unknown = rpcDouble({ 'info.getNetworkID': { networkID: '77' } });
    expect(await new NetworkCache(unknown.rpc).get()).toEqual({ networkID: '77', hrp: 'custom', assetSymbol: '', assetID: '', source: 'known-networks' });
  });

  it('lets a failure other than the node refusing the method through, and tries again next time', async () => {
    const down = rpcDouble({ 'platform.getConfiguration': new ChainMcpError('connection', 'connection refused') });
    const cache = new NetworkCache(down.rpc);
    await expect(cache.get()).rejects.toThrow('connection refused');
    expect(cache.peek()).toBeUndefined();
    await expect(cache.get()).rejects.toThrow('connection refused');
    expect(down.calls).toEqual(['platform.getConfiguration', 'platform.getConfiguration']);
  });

  it('reads an asset description once, with its denomination bounded to 0..32', async () => {
    const n = rpcDouble({ 'xvm.getAssetDescription': { assetID: 'A1', name: 'Camino', symbol: 'CAM', denomination: '9' } });
    const cache = new NetworkCache(n.rpc);
    expect(await cache.asset('A1')).toEqual({ assetID: 'A1', name: 'Camino', symbol: 'CAM', denomination: 9 });
    await cache.asset('A1');
    expect(n.calls).toEqual(['xvm.getAssetDescription {"assetID":"A1"}']);
    const cases: Array<[Record<string, unknown>, Record<string, unknown>]> = [
      [{ assetId: 'B2', denomination: 32 }, { assetID: 'B2', name: '', symbol: '', denomination: 32 }],
      [{ denomination: 33 }, { assetID: 'asked', name: '', symbol: '', denomination: 0 }],
      [{ denomination: '1e3' }, { assetID: 'asked', name: '', symbol: '', denomination: 0 }],
      [{ name: 'N', denomination: '18446744073709551615' }, { assetID: 'asked', name: 'N', symbol: '', denomination: 0 }],
    ];
    for (const [answer, want] of cases) {
      expect(await new NetworkCache(rpcDouble({ 'xvm.getAssetDescription': answer }).rpc).asset('asked')).toEqual(want);
    }
  });

  it('does not keep a failed asset lookup', async () => {
    let fail = true;
    const cache = new NetworkCache(async () => {
      if (fail) throw new ChainMcpError('connection', 'down');
      return { assetID: 'A', name: 'n', symbol: 's', denomination: 2 };
    });
    await expect(cache.asset('A')).rejects.toThrow('down');
    fail = false;
    expect((await cache.asset('A')).denomination).toBe(2);
  });
});

describe('network names and address checks', () => {
  it('describes a prefix with its known name and ID, and only the ID given when it is not known', () => {
    expect(describeNetwork('camino')).toBe('"camino" (main network, ID 1000)');
    expect(describeNetwork('camino', '')).toBe('"camino" (main network, ID 1000)');
    expect(describeNetwork('columbus', '1001')).toBe('"columbus" (test network, ID 1001)');
    expect(describeNetwork('columbus', '99')).toBe('"columbus" (ID 99)');
    expect(describeNetwork('zzz')).toBe('"zzz"');
  });

  it('refuses an address of another network naming the field, the index and both networks', () => {
    expect(() => checkAddressNetworks([X_COLUMBUS, X_CAMINO], columbus, 'from')).toThrow(
      `Invalid input: from[1]: ${X_CAMINO} is an address of network "camino" (main network, ID 1000), but the node is on network "columbus" (test network, ID 1001)`,
    );
    expect(() => checkAddressNetworks([X_CAMINO], columbus, 'to', false)).toThrow(/^Invalid input: to: X-camino/);
    expect(() => checkAddressNetworks([X_COLUMBUS, `P-${X_COLUMBUS.slice(2)}`, 'not an address', `x${X_CAMINO}`, `${X_CAMINO} `], columbus, 'from')).not.toThrow();
  });

  it('cannot check on a network it does not know: no hrp, or "custom" not told by the node', () => {
    expect(() => checkAddressNetworks([X_CAMINO], { ...columbus, hrp: '' }, 'to')).not.toThrow();
    expect(() => checkAddressNetworks([X_CAMINO], { ...columbus, hrp: 'custom', source: 'known-networks' }, 'to')).not.toThrow();
    expect(() => checkAddressNetworks([X_CAMINO], { ...columbus, hrp: 'custom' }, 'to')).toThrow(/network "custom"/);
    expect(() => checkAddressNetworks([X_CAMINO], { ...columbus, source: 'known-networks' }, 'to')).toThrow(/network "columbus"/);
  });

  it('checks a read tool top-level strings and lists of strings, only against a network the node told', () => {
    expect(() => checkInputNetwork({ address: X_CAMINO }, columbus)).toThrow(/^Invalid input: address: X-camino/);
    expect(() => checkInputNetwork({ addresses: [X_COLUMBUS, 7, X_CAMINO] }, columbus)).toThrow(/^Invalid input: addresses\[2\]: X-camino/);
    expect(() => checkInputNetwork({ limit: 5, nested: { address: X_CAMINO } }, columbus)).not.toThrow();
    expect(() => checkInputNetwork({ address: X_CAMINO }, { ...columbus, source: 'known-networks' })).not.toThrow();
    expect(() => checkInputNetwork({ address: X_CAMINO }, undefined)).not.toThrow();
  });
});

describe('dialect detection edges (mutation survivors, issue 25)', () => {
  const logSink = () => {
    const lines: Array<Record<string, unknown>> = [];
    return { log: createLogger('info', [], { write: (line: string) => lines.push(JSON.parse(line) as Record<string, unknown>) }), lines };
  };
  const nodeDouble = (answers: Record<string, unknown>) => {
    const calls: string[] = [];
    const call = async (path: string, method: string, params?: unknown) => {
      calls.push(`${path} ${method}${params ? ` ${JSON.stringify(params)}` : ''}`);
      const answer = answers[method];
      if (answer instanceof Error) throw answer;
      if (answer === undefined) throw new RpcError(-32000, `rpc: can't find service "${method}"`, null);
      return answer;
    };
    return { call, calls };
  };

  it('probes with getAssetDescription of "X" when vmVersions is missing, null or not an object', async () => {
    for (const version of [null, {}, { vmVersions: 'avm' }, { vmVersions: { platform: 'v1' } }]) {
      const n = nodeDouble({ 'info.getNodeVersion': version, 'avm.getAssetDescription': { assetID: 'X' } });
      expect((await new DialectCache(parseWireSetting(undefined), n.call, logSink().log).get()).source).toBe('probe');
      expect(n.calls).toEqual(['/ext/info info.getNodeVersion', '/ext/bc/X avm.getAssetDescription {"assetID":"X"}']);
    }
  });

  it('takes a 404 as "not this name" (info or the X chain) but lets other HTTP failures through', async () => {
    const n = nodeDouble({ 'info.getNodeVersion': new HttpStatusError(404, 'not found'), 'avm.getAssetDescription': new HttpStatusError(404, 'not found'), 'xvm.getAssetDescription': new RpcError(-32000, 'asset not found', null) });
    expect(await new DialectCache(parseWireSetting(undefined), n.call, logSink().log).get()).toMatchObject({ dialect: 'spec', source: 'probe' });
    const broken = nodeDouble({ 'info.getNodeVersion': new HttpStatusError(502, 'bad gateway') });
    await expect(new DialectCache(parseWireSetting(undefined), broken.call, logSink().log).get()).rejects.toThrow('bad gateway');
    const brokenX = nodeDouble({ 'avm.getAssetDescription': new HttpStatusError(500, 'internal') });
    await expect(new DialectCache(parseWireSetting(undefined), brokenX.call, logSink().log).get()).rejects.toThrow('internal');
  });

  it('logs what it learned, and on relearning which dialect it had; a stale relearn after another re-uses the new one', async () => {
    const answers: Record<string, unknown> = { 'info.getNodeVersion': { vmVersions: { avm: 'v1' } } };
    const n = nodeDouble(answers);
    const { log, lines } = logSink();
    const cache = new DialectCache(parseWireSetting(undefined), n.call, log);
    const first = await cache.get();
    answers['info.getNodeVersion'] = { vmVersions: { xvm: 'v1' } };
    const second = await cache.relearn(first);
    expect(second?.dialect).toBe('spec');
    // A second call that failed with the old names shares the new detection: no further request.
    const before = n.calls.length;
    expect(await cache.relearn(first)).toBe(second);
    expect(n.calls.length).toBe(before);
    expect(lines.map(({ msg, dialect, source, was }) => ({ msg, dialect, source, was }))).toEqual([
      { msg: 'node dialect learned', dialect: 'camino', source: 'vmVersions', was: undefined },
      { msg: 'node answered as another dialect; learning its names again', dialect: undefined, source: undefined, was: 'camino' },
      { msg: 'node dialect learned', dialect: 'spec', source: 'vmVersions', was: undefined },
    ]);
  });
});
