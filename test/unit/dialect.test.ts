import { describe, expect, it } from 'vitest';
import { DialectCache } from '../../src/context/dialect.js';
import { HttpStatusError, RpcError } from '../../src/errors.js';
import { createLogger } from '../../src/log.js';
import { parseWireSetting } from '../../src/wire.js';

/** A node double: answers by method, records every call. */
function node(answers: Record<string, unknown | Error>) {
  const calls: string[] = [];
  const call = async (path: string, method: string) => {
    calls.push(`${path} ${method}`);
    const answer = answers[method];
    if (answer instanceof Error) throw answer;
    if (answer === undefined) throw new RpcError(-32000, `rpc: can't find service "${method}"`, null);
    return answer;
  };
  return { call, calls };
}

function logSink() {
  const lines: string[] = [];
  const stream = { write: (line: string) => lines.push(line) };
  return { log: createLogger('info', [], stream), lines };
}

describe('dialect detection', () => {
  it('learns camino from vmVersions, once, and logs it once', async () => {
    const n = node({ 'info.getNodeVersion': { vmVersions: { avm: 'v1', evm: 'v0', platform: 'v1' } } });
    const { log, lines } = logSink();
    const cache = new DialectCache(parseWireSetting(undefined), n.call, log);
    const [a, b] = await Promise.all([cache.get(), cache.get()]);
    await cache.get();
    expect(a).toMatchObject({ dialect: 'camino', source: 'vmVersions', wire: { xvm: 'avm', cx: 'avax', cxPath: 'avax', xvmStatic: '/ext/vm/avm' } });
    expect(b).toBe(a);
    expect(n.calls).toEqual(['/ext/info info.getNodeVersion']);
    expect(lines.filter((l) => l.includes('node dialect learned'))).toHaveLength(1);
  });

  it('learns spec from vmVersions', async () => {
    const n = node({ 'info.getNodeVersion': { vmVersions: { xvm: 'v1', platform: 'v1' } } });
    expect((await new DialectCache(parseWireSetting('auto'), n.call, logSink().log).get()).wire).toMatchObject({ xvm: 'xvm', cxPath: 'cx' });
  });

  it('probes the X chain when the version answer says nothing', async () => {
    const n = node({ 'info.getNodeVersion': { version: 'x' }, 'xvm.getAssetDescription': new RpcError(-32000, 'couldn\'t find asset', null) });
    const info = await new DialectCache(parseWireSetting(undefined), n.call, logSink().log).get();
    expect(info).toMatchObject({ dialect: 'spec', source: 'probe' });
    expect(n.calls).toEqual(['/ext/info info.getNodeVersion', '/ext/bc/X avm.getAssetDescription', '/ext/bc/X xvm.getAssetDescription']);
  });

  it('probes when info.getNodeVersion itself is refused', async () => {
    const n = node({ 'info.getNodeVersion': new HttpStatusError(404, 'HTTP 404'), 'avm.getAssetDescription': { assetID: 'x' } });
    expect(await new DialectCache(parseWireSetting(undefined), n.call, logSink().log).get()).toMatchObject({ dialect: 'camino', source: 'probe' });
  });

  it('names the variable to set when nothing answers, and tries again next time', async () => {
    const n = node({});
    const cache = new DialectCache(parseWireSetting(undefined), n.call, logSink().log);
    await expect(cache.get()).rejects.toMatchObject({ kind: 'not_configured', hint: expect.stringContaining('CHAIN_MCP_WIRE_NAMES=camino') });
    await expect(cache.get()).rejects.toThrow();
    expect(n.calls.filter((c) => c.includes('getNodeVersion'))).toHaveLength(2);
  });

  it('lets a connection failure through as it is, not as a dialect problem', async () => {
    const down = new Error('connect ECONNREFUSED');
    const n = node({ 'info.getNodeVersion': down });
    await expect(new DialectCache(parseWireSetting(undefined), n.call, logSink().log).get()).rejects.toBe(down);
  });

  it('an explicit preset wins without any request; pairs refine it', async () => {
    const n = node({});
    const cache = new DialectCache(parseWireSetting('camino,platform=/ext/bc/P'), n.call, logSink().log);
    expect(cache.peek()).toMatchObject({ source: 'configured', wire: { xvm: 'avm', platform: '/ext/bc/P' } });
    expect((await cache.get()).wire.cx).toBe('avax');
    expect(n.calls).toEqual([]);
  });
});

describe('CHAIN_MCP_WIRE_NAMES', () => {
  it('accepts presets and pairs, and refuses the rest naming the keys', () => {
    expect(parseWireSetting('spec')).toEqual({ base: 'spec', overrides: {} });
    expect(parseWireSetting('xvm=avm, cxPath=avax')).toEqual({ base: 'auto', overrides: { xvm: 'avm', cxPath: 'avax' } });
    expect(() => parseWireSetting('bogus=1')).toThrow(/cxPath/);
    expect(() => parseWireSetting('xvm=avm,camino')).toThrow(/first/);
  });
});
