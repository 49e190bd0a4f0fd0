import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Devnet, startDevnet } from '../../src/devnet/index.js';
import { inMemoryStack, type Stack } from '../helpers/stack.js';

/**
 * Issue 34, the untried attacks: an indexer that answers slowly. One that never sends its headers,
 * and one that sends them at once and then drips its body a byte at a time (each byte well inside
 * any per-chunk timeout, so only a deadline on the whole answer ends it). Each call ends at
 * CHAIN_MCP_TIMEOUT_MS with a message naming the indexer; a composite that also asks the node still
 * answers from the node and says the indexer did not answer; the server goes on serving.
 */
const TIMEOUT_MS = 600;

describe('a slow indexer: bounded by the deadline, named in a clear message', () => {
  let indexer: Server;
  let indexerUrl: string;
  let mode: 'silent' | 'drip' = 'silent';
  const open: ServerResponse[] = [];
  let devnet: Devnet;
  let stack: Stack;

  beforeAll(async () => {
    indexer = createServer((_req, res) => {
      open.push(res);
      if (mode === 'silent') return;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{');
      // A byte every 50 ms, for ever (until the client hangs up): a body that never completes.
      const drip = setInterval(() => {
        if (res.destroyed) return clearInterval(drip);
        res.write(' ');
      }, 50);
      res.once('close', () => clearInterval(drip));
    });
    await new Promise<void>((resolve) => indexer.listen(0, '127.0.0.1', resolve));
    indexerUrl = `http://127.0.0.1:${(indexer.address() as AddressInfo).port}`;
    devnet = await startDevnet();
    stack = await inMemoryStack({ devnet, env: { CHAIN_MCP_INDEXER_URL: indexerUrl, CHAIN_MCP_TIMEOUT_MS: String(TIMEOUT_MS) } });
  });
  afterAll(async () => {
    await stack.close();
    await devnet.close();
    indexer.closeAllConnections();
    await new Promise<void>((resolve) => indexer.close(() => resolve()));
  });

  for (const m of ['silent', 'drip'] as const) {
    it(`${m === 'silent' ? 'never sends its headers' : 'drips its body a byte at a time'}: the call ends with a timeout naming the indexer`, async () => {
      mode = m;
      const r = await stack.call('indexer_getStatus', {});
      expect(r.isError).toBe(true);
      expect(r.text).toContain(`The indexer at ${indexerUrl}`);
      expect(r.text).toContain(`did not answer within ${TIMEOUT_MS} ms.`);
      expect(r.text).toContain('CHAIN_MCP_TIMEOUT_MS');
      // The node side still serves.
      const node = await stack.call('info_getNetworkID', {});
      expect(node.isError, node.text).toBe(false);
    });
  }

  it('tx_status answers from the node and says the indexer did not answer', async () => {
    mode = 'drip';
    const txID = [...devnet.state.txs.values()].find((t) => t.chain === 'X')!.id;
    const r = await stack.call('tx_status', { txID });
    expect(r.isError, r.text).toBe(false);
    expect(r.structured).toMatchObject({ found: true, chain: 'X' });
    const checks = (r.structured as { checks: Array<{ source: string; answer: string }> }).checks;
    expect(checks.find((c) => c.source === 'indexer')?.answer).toMatch(new RegExp(`^failed: .*did not answer within ${TIMEOUT_MS} ms`));
  });
});
