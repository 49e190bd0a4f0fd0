import { Client } from '@modelcontextprotocol/client';
import { InMemoryTransport } from '@modelcontextprotocol/client';
import type { ClientCapabilities, ElicitResult } from '@modelcontextprotocol/client';
import { CATALOGUE } from '../../src/catalogue/index.js';
import { loadConfig } from '../../src/config.js';
import { createLogger } from '../../src/log.js';
import type { StateStore } from '../../src/state/store.js';
import { Services } from '../../src/services.js';
import { buildServer } from '../../src/server.js';
import type { Devnet } from '../../src/devnet/index.js';
import { devnetEnv } from './stack.js';

export type ElicitParams = { mode?: string; url?: string; message: string };
export type ElicitAnswer = { action: 'accept' | 'decline' | 'cancel'; content?: Record<string, unknown> };

export interface SpendCall {
  text: string;
  isError: boolean;
  structured?: Record<string, unknown>;
  /** The result's `_meta` (hosts give it to views, not to the model). */
  meta?: Record<string, unknown>;
}

export interface SpendHarness {
  client: Client;
  call(name: string, args: Record<string, unknown>): Promise<SpendCall>;
  /** The server's log lines (audit lines included), as written. */
  logs: string[];
  /** The server's clock: tests move it to expire ids and approvals. */
  clock: { now: number };
  /** The server's services (tests of the local signer reach its kept records). */
  services: Services;
  close(): Promise<void>;
}

/**
 * A spend-enabled server on the devnet with a fake clock, joined to a client that plays host and
 * human: `capabilities` says what the client supports, `elicit` answers the server's questions.
 */
export async function spendHarness(
  devnet: Devnet,
  opts: {
    env?: Record<string, string>;
    capabilities?: ClientCapabilities;
    elicit?: (params: ElicitParams) => ElicitAnswer | Promise<ElicitAnswer>;
    /** The state store (a connection of its own, as another process would open): default a fresh memory store. */
    state?: StateStore;
  } = {},
): Promise<SpendHarness> {
  // With the local signer (a key file in env) no keystore user is configured.
  const keystore: Record<string, string> = opts.env?.CHAIN_MCP_SIGNER === 'local' ? {} : { CHAIN_MCP_KEYSTORE_USER: devnet.keystore.username, CHAIN_MCP_KEYSTORE_PASSWORD: devnet.keystore.password };
  const config = loadConfig(
    devnetEnv(devnet, {
      CHAIN_MCP_ALLOW_SPEND: 'true',
      ...keystore,
      // Never the developer's own passkey file: a test registers its own when it needs one.
      CHAIN_MCP_PASSKEY_FILE: '/nonexistent/chain-mcp-test/passkeys.json',
      ...opts.env,
    }),
  );
  const clock = { now: Date.now() };
  const logs: string[] = [];
  const log = createLogger('info', config.secrets, { write: (line: string) => logs.push(line) });
  const services = new Services({ config, log, catalogue: CATALOGUE, now: () => clock.now, ...(opts.state ? { state: opts.state } : {}) });
  // The local key: unlocked from CHAIN_MCP_KEY_PASSPHRASE_FILE when the test gives one (as main does at start).
  await services.prepareSigner();
  const { mcp } = buildServer({ config, log, services });
  const client = new Client({ name: 'host-and-human', version: '0' }, { capabilities: opts.capabilities ?? {} });
  if (opts.elicit) {
    const elicit = opts.elicit;
    client.setRequestHandler('elicitation/create', async (request) => (await elicit(request.params as ElicitParams)) as ElicitResult);
  }
  const [a, b] = InMemoryTransport.createLinkedPair();
  await mcp.connect(b);
  await client.connect(a);
  return {
    client,
    clock,
    services,
    logs,
    call: async (name, args) => {
      const r = await client.callTool({ name, arguments: args });
      const text = ((r.content ?? []) as Array<{ text?: string }>).map((c) => c.text ?? '').join('\n');
      return { text, isError: r.isError === true, structured: r.structuredContent as Record<string, unknown> | undefined, meta: r._meta as Record<string, unknown> | undefined };
    },
    close: async () => {
      await client.close();
      await mcp.close();
      await services.close();
    },
  };
}

/** How many requests with this JSON-RPC method the devnet has recorded (batch items counted one by one). */
export function requestsFor(devnet: Devnet, method: string): number {
  return devnet.router.requests.filter((r) => {
    const body = r.body as { method?: string } | Array<{ method?: string }>;
    return (Array.isArray(body) ? body : [body]).some((b) => b.method === method);
  }).length;
}
