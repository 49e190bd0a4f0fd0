import { describe, expect, it } from 'vitest';
import { type Endpoint, endpointPath, needsDialect, parseWireSetting, PRESETS, resolveWire, takesBatches, wireMethod, wireParams } from '../../src/wire.js';

/** The wire-name table (docs/real-nodes.md): the spec's neutral names and a real Camino node's. */

const ENDPOINTS: Endpoint[] = ['auth', 'keystore', 'info', 'platform', 'xvm', 'xvmStatic', 'wallet', 'evm', 'cx', 'cadmin'];

describe('parseWireSetting', () => {
  it('defaults to auto with no overrides, for unset, empty and blank text', () => {
    for (const text of [undefined, '', ' , ']) expect(parseWireSetting(text)).toEqual({ base: 'auto', overrides: {} });
  });

  it('reads a preset, then trimmed key=value overrides', () => {
    expect(parseWireSetting(' camino , platform = /ext/bc/P ')).toEqual({ base: 'camino', overrides: { platform: '/ext/bc/P' } });
    expect(parseWireSetting('spec')).toEqual({ base: 'spec', overrides: {} });
    expect(parseWireSetting('auto,cx=avax,cxPath=avax')).toEqual({ base: 'auto', overrides: { cx: 'avax', cxPath: 'avax' } });
    expect(parseWireSetting('xvm=avm')).toEqual({ base: 'auto', overrides: { xvm: 'avm' } });
  });

  it('refuses an unknown preset, a preset after an override, an unknown key and an empty side', () => {
    for (const bad of ['avalanche', 'xvm=avm,camino', 'spec,camino', 'colour=blue', 'xvm=', '=avm', 'toString=x', 'constructor']) {
      expect(() => parseWireSetting(bad), bad).toThrow(/expected/);
    }
    expect(() => parseWireSetting('avalanche')).toThrow('got "avalanche"');
    expect(() => parseWireSetting('colour=blue')).toThrow('keys xvm, cx, cxPath, xvmStatic, platform (or a method rename');
  });

  it('takes a method rename as a key with a dot, and refuses one that is not namespace.name on both sides', () => {
    expect(parseWireSetting('camino, platform.exportNative = platform.exportFoo')).toEqual({
      base: 'camino',
      overrides: { methods: { 'platform.exportNative': 'platform.exportFoo' } },
    });
    for (const bad of ['platform.exportNative=', 'platform.exportNative=exportAVAX', 'platform.=x.y', 'a.b=c.d/e', 'a.b=../x']) {
      expect(() => parseWireSetting(bad), bad).toThrow(/method rename/);
    }
  });
});

describe('resolveWire', () => {
  it('takes the detected dialect under auto, the configured one otherwise, then the overrides', () => {
    expect(resolveWire(parseWireSetting('auto'), 'camino')).toEqual(PRESETS.camino);
    expect(resolveWire(parseWireSetting('auto'), 'spec')).toEqual(PRESETS.spec);
    expect(resolveWire(parseWireSetting('spec'), 'camino')).toEqual(PRESETS.spec);
    expect(resolveWire(parseWireSetting('camino,platform=/ext/bc/P'), 'spec')).toEqual({ ...PRESETS.camino, platform: '/ext/bc/P' });
  });

  it("keeps the preset's method renames beside the operator's", () => {
    const wire = resolveWire(parseWireSetting('auto,platform.getFoo=platform.getBar'), 'camino');
    expect(wire.methods).toEqual({ 'platform.exportNative': 'platform.exportAVAX', 'platform.getFoo': 'platform.getBar' });
    expect(resolveWire(parseWireSetting('auto,platform.exportNative=platform.exportX'), 'camino').methods).toEqual({ 'platform.exportNative': 'platform.exportX' });
  });
});

describe('needsDialect', () => {
  it('is true exactly for the asset VM, its static API, the C-chain atomic API and their namespaces', () => {
    const dependent = ENDPOINTS.filter((e) => needsDialect(e, 'info.getNodeID'));
    expect(dependent).toEqual(['xvm', 'xvmStatic', 'cx']);
    expect(needsDialect('wallet', 'xvm.send')).toBe(true);
    expect(needsDialect('platform', 'cx.getUTXOs')).toBe(true);
    expect(needsDialect('wallet', 'wallet.send')).toBe(false);
    expect(needsDialect('info', 'info.xvm.')).toBe(false);
    expect(needsDialect('info', 'platform.cx.')).toBe(false);
    // A method a dialect renames depends on it too, whatever its endpoint.
    expect(needsDialect('platform', 'platform.exportNative')).toBe(true);
    expect(needsDialect('platform', 'platform.getBalance')).toBe(false);
  });
});

describe('endpointPath', () => {
  it('maps every endpoint in both dialects, the default chain where the spec allows another', () => {
    const paths = (wire: typeof PRESETS.spec) => Object.fromEntries(ENDPOINTS.map((e) => [e, endpointPath(e, wire)]));
    expect(paths(PRESETS.spec)).toEqual({
      auth: '/ext/auth',
      keystore: '/ext/keystore',
      info: '/ext/info',
      platform: '/ext/P',
      xvm: '/ext/bc/X',
      xvmStatic: '/ext/vm/xvm',
      wallet: '/ext/bc/X/wallet',
      evm: '/ext/bc/C/rpc',
      cx: '/ext/bc/C/cx',
      cadmin: '/ext/bc/C/admin',
    });
    expect(paths(PRESETS.camino)).toMatchObject({ xvm: '/ext/bc/X', xvmStatic: '/ext/vm/avm', cx: '/ext/bc/C/avax', platform: '/ext/P' });
  });

  it('puts a named chain in place of the default', () => {
    expect(endpointPath('xvm', PRESETS.spec, 'myChain1')).toBe('/ext/bc/myChain1');
    expect(endpointPath('wallet', PRESETS.spec, 'myChain1')).toBe('/ext/bc/myChain1/wallet');
    expect(endpointPath('evm', PRESETS.spec, 'D')).toBe('/ext/bc/D/rpc');
    expect(endpointPath('cx', PRESETS.camino, 'D')).toBe('/ext/bc/D/avax');
    expect(endpointPath('cadmin', PRESETS.spec, 'D')).toBe('/ext/bc/D/admin');
  });

  it('refuses a chain that could change the path', () => {
    for (const chain of ['../P', 'X/wallet', '', 'a'.repeat(65), 'X?x=1']) {
      expect(() => endpointPath('xvm', PRESETS.spec, chain), chain).toThrow(`invalid chain "${chain}"`);
    }
    expect(endpointPath('xvm', PRESETS.spec, 'a'.repeat(64))).toBe(`/ext/bc/${'a'.repeat(64)}`);
  });
});

describe('wireMethod', () => {
  it('rewrites only the xvm and cx namespaces', () => {
    expect(wireMethod('xvm.getBalance', PRESETS.camino)).toBe('avm.getBalance');
    expect(wireMethod('cx.getUTXOs', PRESETS.camino)).toBe('avax.getUTXOs');
    expect(wireMethod('xvm.getBalance', PRESETS.spec)).toBe('xvm.getBalance');
    expect(wireMethod('platform.getBalance', PRESETS.camino)).toBe('platform.getBalance');
    expect(wireMethod('eth_blockNumber', PRESETS.camino)).toBe('eth_blockNumber');
    expect(wireMethod('xvmx.get', PRESETS.camino)).toBe('xvmx.get');
    expect(wireMethod('.xvm', PRESETS.camino)).toBe('.xvm');
    expect(wireMethod('cxs', PRESETS.camino)).toBe('cxs');
    expect(wireMethod('xvm.a.b', PRESETS.camino)).toBe('avm.a.b');
  });

  it("renames whole methods by the table: the P-chain's export is exportAVAX on a Camino node", () => {
    expect(wireMethod('platform.exportNative', PRESETS.camino)).toBe('platform.exportAVAX');
    expect(wireMethod('platform.exportNative', PRESETS.spec)).toBe('platform.exportNative');
    expect(wireMethod('toString', PRESETS.camino)).toBe('toString');
    expect(wireMethod('xvm.send', { ...PRESETS.camino, methods: { 'xvm.send': 'avm.sendIt' } })).toBe('avm.sendIt');
  });
});

describe('wireParams', () => {
  it("writes the avax service's baseFee as 0x-hex from a bigint, a digit string or a safe integer", () => {
    for (const fee of [25_000_000_000n, '25000000000', 25_000_000_000]) {
      expect(wireParams('avax.export', { to: 'X-a', baseFee: fee }), String(fee)).toEqual({ to: 'X-a', baseFee: '0x5d21dba00' });
    }
  });

  it('leaves every other method, shape and fee as it is', () => {
    expect(wireParams('cx.export', { baseFee: '25' })).toEqual({ baseFee: '25' });
    for (const params of [undefined, null, ['25'], { to: 'X-a' }]) expect(wireParams('avax.export', params)).toEqual(params);
    for (const fee of ['', 'x25', '25x', '2 5', '0x19', '-25', 1.5, 2 ** 53]) {
      expect(wireParams('avax.export', { baseFee: fee }), JSON.stringify(fee)).toEqual({ baseFee: fee });
    }
  });
});

describe('takesBatches', () => {
  it('is true only for an EVM endpoint path, /ext/bc/<chain>/rpc, exactly', () => {
    for (const path of ['/ext/bc/C/rpc', '/ext/bc/2q9e4r6Mu3U68nU1fYjgbR6JvwrRx36CohpAX5UQxse55x1Q5/rpc']) expect(takesBatches(path), path).toBe(true);
    for (const path of ['/ext/bc/X', '/ext/bc/C/avax', '/ext/P', '/x/ext/bc/C/rpc', '/ext/bc/C/rpc/x', '/ext/bc//rpc', '/ext/bc/C/D/rpc']) expect(takesBatches(path), path).toBe(false);
  });
});

describe('method renames in CHAIN_MCP_WIRE_NAMES', () => {
  it('takes only namespace.name on both sides, from the first character to the last', () => {
    for (const bad of ['1platform.exportNative=platform.exportAVAX', 'platform.exportNative=9platform.exportAVAX', 'platform.exportNative=platform.exportAVAX.x']) {
      expect(() => parseWireSetting(bad), bad).toThrow('expected a method rename such as platform.exportNative=platform.exportAVAX');
    }
  });
});
