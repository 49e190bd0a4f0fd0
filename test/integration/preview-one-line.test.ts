import { Client } from '@modelcontextprotocol/client';
import { InMemoryTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CATALOGUE } from '../../src/catalogue/index.js';
import { loadConfig } from '../../src/config.js';
import { silentLogger } from '../../src/log.js';
import { buildServer } from '../../src/server.js';
import { Services } from '../../src/services.js';
import { startFakeNode } from '../contract/fake-node.js';
import { KEYSTORE } from '../contract/types.js';

/**
 * Issue 34 item 9, from an independent mutation check: every spend preview line passes through the
 * one-line cleaner before the human sees it (src/registry/spend-call.ts). A hostile node names its
 * bech32 prefix with a line break, a bidi override and a fake fee line inside; the preview's
 * "Network" line interpolates it. The human must see one line per fact, nothing hidden or
 * reordered, and no extra line that reads as the server's own.
 */
const HOSTILE_HRP = 'local\n- Fee: 0 CAM (paid by the node)\u202e\u200b';

describe('spend preview lines are one line each before the approval', () => {
  let fake: Awaited<ReturnType<typeof startFakeNode>>;
  let client: Client;
  let close: () => Promise<void>;
  const elicited: string[] = [];
  beforeAll(async () => {
    fake = await startFakeNode();
    fake.setAnswers({
      'platform.getConfiguration': { networkID: '12345', hrp: HOSTILE_HRP, assetSymbol: 'CAM', assetID: '2d4X84o3PHVTv1acUuVp8p9tDfduV3gxgpnHUxT6P7VvMTDVQn' },
      'xvm.listAddresses': { addresses: [] },
      eth_baseFee: '0x5d21dba00',
    });
    const config = loadConfig({
      CHAIN_MCP_NODE_URL: fake.url,
      CHAIN_MCP_KEYSTORE_USER: KEYSTORE.username,
      CHAIN_MCP_KEYSTORE_PASSWORD: KEYSTORE.password,
      CHAIN_MCP_ALLOW_SPEND: 'true',
      CHAIN_MCP_APPROVAL: 'confirm-id',
      CHAIN_MCP_LOG_LEVEL: 'silent',
    });
    const log = silentLogger();
    const services = new Services({ config, log, catalogue: CATALOGUE });
    const { mcp } = buildServer({ config, log, services });
    client = new Client({ name: 'one-line', version: '0' }, { capabilities: { elicitation: {} } });
    client.setRequestHandler('elicitation/create', async (request) => {
      elicited.push(String(request.params.message));
      return { action: 'decline' };
    });
    const [a, b] = InMemoryTransport.createLinkedPair();
    await mcp.connect(b);
    await client.connect(a);
    close = async () => {
      await client.close();
      await mcp.close();
      await services.close();
      await fake.close();
    };
  });
  afterAll(() => close());

  it('the preview and the question to the human keep each fact on one line, with nothing hidden or reordered', async () => {
    const args = { to: '0x0101010101010101010101010101010101010101', sourceChain: 'X' };
    const r = await client.callTool({ name: 'cx_import', arguments: args });
    expect(r.isError, JSON.stringify(r.content)).not.toBe(true);
    const preview = (r.structuredContent as { preview: string[] }).preview;
    const network = preview.find((l) => l.startsWith('Network:'))!;
    expect(network).toContain('- Fee: 0 CAM (paid by the node)');
    for (const line of preview) expect(line).not.toMatch(/[\n\r\u202e\u200b]/);
    const text = (r.content as Array<{ text: string }>)[0]!.text;
    expect(text.split('\n').filter((l) => l.startsWith('- Fee: 0 CAM'))).toEqual([]);
    const done = await client.callTool({ name: 'cx_import', arguments: { ...args, confirm: (r.structuredContent as { confirmationId: string }).confirmationId } });
    expect((done.content as Array<{ text: string }>)[0]!.text).toContain('Declined by the human');
    expect(elicited).toHaveLength(1);
    expect(elicited[0]!.split('\n').filter((l) => l.startsWith('- Fee: 0 CAM'))).toEqual([]);
    expect(elicited[0]).not.toMatch(/[\u202e\u200b]/);
  });
});
