import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { InMemoryTransport } from '@modelcontextprotocol/client';
import type { ClientCapabilities } from '@modelcontextprotocol/client';
import { loadConfig } from '../../src/config.js';
import { silentLogger } from '../../src/log.js';
import { buildServer } from '../../src/server.js';
import { type Devnet, startDevnet } from '../../src/devnet/index.js';

export const MAIN = new URL('../../dist/src/main.js', import.meta.url).pathname;

export interface Stack {
  client: Client;
  devnet: Devnet;
  /** Calls a tool and returns the result with its text joined. */
  call(name: string, args?: Record<string, unknown>): Promise<CallResult>;
  close(): Promise<void>;
}

export interface CallResult {
  text: string;
  isError: boolean;
  structured: Record<string, unknown> | undefined;
}

export function devnetEnv(devnet: Devnet, extra: Record<string, string> = {}): Record<string, string> {
  return {
    CHAIN_MCP_NODE_URL: devnet.nodeUrl,
    ...(devnet.indexerUrl ? { CHAIN_MCP_INDEXER_URL: devnet.indexerUrl } : {}),
    CHAIN_MCP_LOG_LEVEL: 'silent',
    // Tests keep their state in memory unless they ask for a store: with spends on, the default is
    // a file under the user's config folder, which every test run would otherwise share.
    CHAIN_MCP_STATE: 'memory',
    ...extra,
  };
}

async function callWith(client: Client, name: string, args: Record<string, unknown> = {}): Promise<CallResult> {
  const result = await client.callTool({ name, arguments: args });
  const content = (result.content ?? []) as Array<{ type: string; text?: string }>;
  return {
    text: content.map((c) => c.text ?? '').join('\n'),
    isError: result.isError === true,
    structured: result.structuredContent as Record<string, unknown> | undefined,
  };
}

/** Devnet + server in this process, joined by an in-memory MCP transport pair. */
export async function inMemoryStack(
  opts: { env?: Record<string, string>; devnet?: Devnet; capabilities?: ClientCapabilities; authRequired?: boolean } = {},
): Promise<Stack> {
  const devnet = opts.devnet ?? (await startDevnet({ authRequired: opts.authRequired }));
  const config = loadConfig(devnetEnv(devnet, opts.env));
  const { mcp, services } = buildServer({ config, log: silentLogger() });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: 'test', version: '0' }, { capabilities: opts.capabilities ?? {} });
  await mcp.connect(serverSide);
  await client.connect(clientSide);
  return {
    client,
    devnet,
    call: (name, args) => callWith(client, name, args),
    close: async () => {
      await client.close();
      await mcp.close();
      await services.close();
      if (!opts.devnet) await devnet.close();
    },
  };
}

/** The built `chain-mcp` spawned over stdio, against a devnet in this process. */
export async function stdioStack(opts: { env?: Record<string, string>; devnet?: Devnet; args?: string[] } = {}): Promise<Stack & { stderr: () => string }> {
  const devnet = opts.devnet ?? (await startDevnet());
  let stderr = '';
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [MAIN, ...(opts.args ?? [])],
    env: { PATH: process.env.PATH ?? '', ...devnetEnv(devnet, opts.env) },
    stderr: 'pipe',
  });
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  const client = new Client({ name: 'test', version: '0' });
  await client.connect(transport);
  return {
    client,
    devnet,
    stderr: () => stderr,
    // A server that died says why on its stderr: the client alone only sees "Connection closed".
    call: (name, args) =>
      callWith(client, name, args).catch((err: unknown) => {
        throw stderr ? new Error(`${(err as Error).message}; the server's stderr:\n${stderr}`, { cause: err }) : err;
      }),
    close: async () => {
      await client.close();
      if (!opts.devnet) await devnet.close();
    },
  };
}
