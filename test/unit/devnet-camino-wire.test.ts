import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Devnet, startDevnet } from '../../src/devnet/index.js';

/** Raw HTTP against the simulator, the way a real Camino node is reached (REAL-WIRE.md, conventions). */
async function post(devnet: Devnet, path: string, body: unknown): Promise<{ status: number; body: unknown }> {
  const res = await fetch(`${devnet.nodeUrl}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: res.status, body: await res.json() };
}

const item = (id: number, method: string, params: unknown = {}) => ({ jsonrpc: '2.0', id, method, params });

describe('the camino-dialect simulator speaks the real wire', () => {
  let camino: Devnet;
  let spec: Devnet;
  beforeAll(async () => {
    [camino, spec] = await Promise.all([startDevnet({ dialect: 'camino', keystoreApi: true }), startDevnet({ dialect: 'spec' })]);
  });
  afterAll(async () => {
    await Promise.all([camino.close(), spec.close()]);
  });

  it('refuses a JSON-RPC batch on every gorilla/rpc endpoint with the json2 decoder error', async () => {
    for (const [path, method] of [
      ['/ext/info', 'info.getNodeID'],
      ['/ext/P', 'platform.getHeight'],
      ['/ext/bc/X', 'avm.getAssetDescription'],
      ['/ext/bc/C/avax', 'avax.getAtomicTxStatus'],
      ['/ext/keystore', 'keystore.listUsers'],
    ] as const) {
      const answer = await post(camino, path, [item(1, method), item(2, method)]);
      expect(answer, path).toEqual({
        status: 200,
        body: {
          jsonrpc: '2.0',
          error: {
            code: -32700,
            message: 'json: cannot unmarshal array into Go value of type json2.serverRequest',
            data: { jsonrpc: '', method: '', params: null, id: null },
          },
          id: null,
        },
      });
    }
  });

  it('still answers one request object per POST on those endpoints', async () => {
    const answer = await post(camino, '/ext/info', item(7, 'info.getNetworkID'));
    expect(answer.body).toMatchObject({ jsonrpc: '2.0', id: 7, result: { networkID: expect.any(String) } });
  });

  it('takes batches on the EVM endpoint, as caminoethvm does', async () => {
    const answer = await post(camino, '/ext/bc/C/rpc', [item(1, 'eth_chainId', []), item(2, 'eth_blockNumber', [])]);
    expect(answer.status).toBe(200);
    expect((answer.body as Array<{ id: number; result: string }>).map((a) => a.id)).toEqual([1, 2]);
    expect((answer.body as Array<{ result: string }>).every((a) => /^0x/.test(a.result))).toBe(true);
  });

  it("answers only a Camino node's method names: platform.exportAVAX, not the spec's platform.exportNative", async () => {
    const camino1 = await post(camino, '/ext/P', item(1, 'platform.exportNative', { amount: 1, to: 'X-x' }));
    expect(camino1.body).toEqual({ jsonrpc: '2.0', error: { code: -32000, message: 'rpc: can\'t find method "platform.exportNative"', data: null }, id: 1 });
    const camino2 = await post(camino, '/ext/P', item(2, 'platform.exportAVAX', { amount: 1, to: 'X-x' }));
    expect(JSON.stringify(camino2.body)).not.toMatch(/can't find/);
    const spec1 = await post(spec, '/ext/P', item(3, 'platform.exportAVAX', { amount: 1, to: 'X-x' }));
    expect(spec1.body).toMatchObject({ error: { message: 'rpc: can\'t find method "platform.exportAVAX"' } });
    const unknownNs = await post(camino, '/ext/bc/X', item(4, 'xvm.getBalance', {}));
    expect(unknownNs.body).toMatchObject({ error: { message: 'rpc: can\'t find service "xvm.getBalance"' } });
  });

  it('takes hex, hexc, hexnc and json, refuses cb58 with the argument error; the spec dialect takes cb58', async () => {
    const txID = [...camino.state.txs.values()].find((t) => t.chain === 'X')!.id;
    const getTx = (node: Devnet, method: string, encoding?: string) =>
      post(node, '/ext/bc/X', item(1, method, { txID, ...(encoding === undefined ? {} : { encoding }) }));
    expect((await getTx(camino, 'avm.getTx', 'cb58')).body).toEqual({
      jsonrpc: '2.0',
      error: { code: -32000, message: "couldn't unmarshal an argument. Ensure arguments are valid and properly formatted. See documentation for example calls", data: null },
      id: 1,
    });
    for (const encoding of [undefined, 'hex', 'hexc', 'hexnc']) {
      const answer = (await getTx(camino, 'avm.getTx', encoding)).body as { result?: { tx?: unknown } };
      expect(answer.result?.tx, String(encoding)).toMatch(/^0x[0-9a-f]+$/);
    }
    expect(((await getTx(camino, 'avm.getTx', 'json')).body as { result: { tx: unknown } }).result.tx).toBeTypeOf('object');
    expect(((await getTx(spec, 'xvm.getTx', 'cb58')).body as { result?: { encoding?: unknown } }).result?.encoding).toBe('cb58');
  });

  it('the spec dialect keeps taking batches (the spec caps them at 40)', async () => {
    const answer = await post(spec, '/ext/info', [item(1, 'info.getNodeID'), item(2, 'info.getNetworkID')]);
    expect((answer.body as Array<{ id: number; result: unknown }>).map((a) => [a.id, typeof a.result])).toEqual([
      [1, 'object'],
      [2, 'object'],
    ]);
  });
});
