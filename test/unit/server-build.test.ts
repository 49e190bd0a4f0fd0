import { Client } from '@modelcontextprotocol/client';
import { InMemoryTransport } from '@modelcontextprotocol/client';
import type { ClientCapabilities } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import { CARD_DESCRIPTION, CARD_URI } from '../../src/approval/card.js';
import { SERVER_INSTRUCTIONS } from '../../src/assistant/extras.js';
import { loadConfig } from '../../src/config.js';
import { DISCOVERY } from '../../src/registry/dynamic.js';
import { silentLogger } from '../../src/log.js';
import { buildServer } from '../../src/server.js';
import { VIEWS } from '../../src/views/views.js';

const KEYSTORE = { CHAIN_MCP_KEYSTORE_USER: 'alice', CHAIN_MCP_KEYSTORE_PASSWORD: 'Correct-Horse-9!' };
const UI_HOST = { extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] } } } as ClientCapabilities;

/**
 * What one MCP server offers, built inside each test (mutation survivors, issue 25): the suites
 * that build a server in beforeAll run this code outside any test, where a mutation test cannot
 * switch a mutant on. No node is needed: nothing here calls a tool.
 */
async function connect(env: Record<string, string>, capabilities: ClientCapabilities = {}) {
  const config = loadConfig({ CHAIN_MCP_NODE_URL: 'http://127.0.0.1:9', ...env });
  const { mcp, services } = buildServer({ config, log: silentLogger() });
  const client = new Client({ name: 'build', version: '0' }, { capabilities });
  const [a, b] = InMemoryTransport.createLinkedPair();
  await mcp.connect(b);
  await client.connect(a);
  return {
    client,
    close: async () => {
      await client.close();
      await services.close();
    },
  };
}

describe('what a server offers, built in the test', () => {
  it('declares logging and tools, and serves every view as an MCP Apps resource that may fetch nothing', async () => {
    const { client, close } = await connect({});
    try {
      expect(client.getServerCapabilities()).toMatchObject({ tools: {}, logging: {} });
      expect(client.getInstructions()).toBe(SERVER_INSTRUCTIONS);
      const { resources } = await client.listResources();
      for (const view of VIEWS) {
        expect(resources.find((r) => r.uri === view.uri)).toMatchObject({ name: view.name, title: `${view.title} view`, description: view.description, mimeType: 'text/html;profile=mcp-app' });
        expect(view.name).toMatch(/^[a-z-]+$/);
        expect(view.description.length).toBeGreaterThan(20);
        const [content] = (await client.readResource({ uri: view.uri })).contents;
        expect(content).toMatchObject({ uri: view.uri, mimeType: 'text/html;profile=mcp-app', _meta: { ui: { csp: { connectDomains: [], resourceDomains: [] }, prefersBorder: true } } });
      }
      expect(resources.map((r) => r.uri)).not.toContain(CARD_URI);
    } finally {
      await close();
    }
  });

  it('serves the approval card only with spending on under human approval', async () => {
    const cases: Array<[Record<string, string>, boolean]> = [
      [{ CHAIN_MCP_ALLOW_SPEND: 'true', ...KEYSTORE }, true],
      [{ CHAIN_MCP_ALLOW_SPEND: 'true', CHAIN_MCP_APPROVAL: 'confirm-id', ...KEYSTORE }, false],
      [{ ...KEYSTORE }, false],
    ];
    for (const [env, card] of cases) {
      const { client, close } = await connect(env);
      try {
        const { resources } = await client.listResources();
        expect(resources.some((r) => r.uri === CARD_URI), JSON.stringify(env)).toBe(card);
        if (card) {
          expect(resources.find((r) => r.uri === CARD_URI)).toMatchObject({ name: 'approval-card', title: 'Spend approval card', description: CARD_DESCRIPTION, mimeType: 'text/html;profile=mcp-app' });
          const [content] = (await client.readResource({ uri: CARD_URI })).contents;
          expect(content).toMatchObject({ uri: CARD_URI, mimeType: 'text/html;profile=mcp-app' });
        }
      } finally {
        await close();
      }
    }
  });

  it('names the card on spend tools only, and its view on a tool that has one, for a host that shows them', async () => {
    const { client, close } = await connect({ CHAIN_MCP_ALLOW_SPEND: 'true', ...KEYSTORE }, UI_HOST);
    try {
      const { tools } = await client.listTools();
      const uri = (name: string) => (tools.find((t) => t.name === name)?._meta as { ui?: { resourceUri?: string } } | undefined)?.ui?.resourceUri;
      expect(uri('xvm_send')).toBe(CARD_URI);
      expect(uri('account_overview')).toBe(VIEWS.find((v) => v.tools.includes('account_overview'))?.uri);
      expect(uri('info_getNodeID')).toBeUndefined();
    } finally {
      await close();
    }
  });

  it("lists the card's app-only tool to a host that shows cards: visibility [\"app\"] and a schema of exactly its two arguments (issue 40)", async () => {
    const { client, close } = await connect({ CHAIN_MCP_ALLOW_SPEND: 'true', ...KEYSTORE }, UI_HOST);
    try {
      const { tools } = await client.listTools();
      expect(tools.filter((t) => t.name === 'approval_decide')).toEqual([
        {
          name: 'approval_decide',
          description: "The approval card's buttons; app only.",
          inputSchema: {
            type: 'object',
            properties: { secret: { type: 'string' }, decision: { type: 'string', enum: ['approve', 'decline'] } },
            required: ['secret', 'decision'],
          },
          _meta: { ui: { visibility: ['app'] } },
        },
      ]);
    } finally {
      await close();
    }
  });

  it('under CHAIN_MCP_DYNAMIC, announces list changes and lists the discovery tools with no card or view', async () => {
    const { client, close } = await connect({ CHAIN_MCP_ALLOW_SPEND: 'true', CHAIN_MCP_DYNAMIC: 'true', ...KEYSTORE }, UI_HOST);
    try {
      expect(client.getServerCapabilities()?.tools).toEqual({ listChanged: true });
      const { tools } = await client.listTools();
      const discovery = tools.filter((t) => DISCOVERY.includes(t.name as (typeof DISCOVERY)[number]));
      expect(discovery.map((t) => t.name).sort()).toEqual([...DISCOVERY].sort());
      for (const t of discovery) expect(t._meta, t.name).toBeUndefined();
    } finally {
      await close();
    }
  });

  it('a host without the MCP Apps extension gets plain listings', async () => {
    const { client, close } = await connect({ CHAIN_MCP_ALLOW_SPEND: 'true', ...KEYSTORE });
    try {
      const { tools } = await client.listTools();
      expect(tools.filter((t) => t._meta !== undefined).map((t) => t.name)).toEqual([]);
    } finally {
      await close();
    }
  });
});
