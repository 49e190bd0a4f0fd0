import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { InMemoryTransport } from '@modelcontextprotocol/client';
import { loadConfig } from '../../src/config.js';
import type { Devnet } from '../../src/devnet/index.js';
import type { DevnetDialect } from '../../src/devnet/rpc.js';
import { startDevnet } from '../../src/devnet/index.js';
import { silentLogger } from '../../src/log.js';
import { CATALOGUE } from '../../src/catalogue/index.js';
import { buildServer } from '../../src/server.js';
import { writeKeyFile } from '../../src/signer/keyfile.js';
import { type EvalQuestion, type Fact, QUESTIONS, worldOf } from './questions.js';
import { rawApi } from './raw.js';

/** How the server lists its tools: every toolset (default) or the assistant's and enable_toolset (--dynamic). */
export type EvalListing = 'default' | 'dynamic';

/** One question's outcome: which facts the answers lacked, and what answering cost. */
export interface EvalOutcome {
  id: string;
  dialect: DevnetDialect;
  listing: EvalListing;
  calls: number;
  /** Bytes a model receives: every answer's text and structuredContent JSON. */
  bytes: number;
  /** Facts missing from the answers' text, with what each stands for. */
  missing: string[];
  /** A call's result was isError where an answer was expected, or the other way round. */
  wrongOutcome?: string;
}

/** `firstLine`: the fact must be in the first line of an answer (what a person reads first). */
function found(texts: string[], fact: Fact, firstLine: boolean): boolean {
  return texts.map((t) => (firstLine || fact.firstLine ? (t.split('\n')[0] ?? '') : t)).some((t) => (typeof fact.text === 'string' ? t.includes(fact.text) : fact.text.test(t)));
}

/** A key file of the devnet's funded key, as `--devnet` with a key file uses it; removed after the question. */
async function localKeyEnv(devnet: Devnet): Promise<{ env: Record<string, string>; cleanup: () => void }> {
  const dir = mkdtempSync(join(tmpdir(), 'chain-mcp-eval-'));
  const passphrase = 'eval passphrase, not a secret 42';
  await writeKeyFile(join(dir, 'key.json'), devnet.localKey.privateKey, passphrase, { N: 2 ** 12, r: 8, p: 1 });
  writeFileSync(join(dir, 'passphrase'), `${passphrase}\n`, { mode: 0o600 });
  return {
    env: {
      CHAIN_MCP_KEY_FILE: join(dir, 'key.json'),
      CHAIN_MCP_KEY_PASSPHRASE_FILE: join(dir, 'passphrase'),
      // --devnet configures the keystore user beside the key.
      CHAIN_MCP_KEYSTORE_USER: devnet.keystore.username,
      CHAIN_MCP_KEYSTORE_PASSWORD: devnet.keystore.password,
    },
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/**
 * Asks one question through a real MCP client, against a server pointed at `devnet`. With the
 * dynamic listing a tool outside the listed toolsets is reached the way a model reaches it: one
 * enable_toolset call first (counted), then the tool.
 */
export async function ask(devnet: Devnet, question: EvalQuestion, listing: EvalListing = 'default'): Promise<EvalOutcome> {
  const key = question.localKey ? await localKeyEnv(devnet) : undefined;
  const env: Record<string, string> = {
    CHAIN_MCP_NODE_URL: devnet.nodeUrl,
    ...(devnet.indexerUrl ? { CHAIN_MCP_INDEXER_URL: devnet.indexerUrl } : {}),
    CHAIN_MCP_LOG_LEVEL: 'silent',
    CHAIN_MCP_STATE: 'memory',
    ...(question.env?.CHAIN_MCP_ALLOW_SPEND ? { CHAIN_MCP_KEYSTORE_USER: devnet.keystore.username, CHAIN_MCP_KEYSTORE_PASSWORD: devnet.keystore.password } : {}),
    ...(listing === 'dynamic' ? { CHAIN_MCP_DYNAMIC: 'true' } : {}),
    ...key?.env,
    ...question.env,
  };
  const { mcp, services } = buildServer({ config: loadConfig(env), log: silentLogger() });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: 'eval', version: '0' });
  await mcp.connect(serverSide);
  await client.connect(clientSide);
  try {
    const world = worldOf(devnet.state);
    const truth = question.raw ? await question.raw(rawApi(devnet), world) : {};
    const texts: string[] = [];
    let bytes = 0;
    let wrongOutcome: string | undefined;
    const calls = question.calls(world, truth);
    let made = 0;
    const listed = new Set((await client.listTools()).tools.map((t) => t.name));
    for (const call of calls) {
      const toolset = CATALOGUE.find((t) => t.name === call.tool)?.toolset;
      if (listing === 'dynamic' && !listed.has(call.tool) && toolset) {
        const enabled = await client.callTool({ name: 'enable_toolset', arguments: { toolset } });
        made++;
        if (enabled.isError) wrongOutcome ??= `enable_toolset ${toolset}: isError`;
        for (const t of (await client.listTools()).tools) listed.add(t.name);
      }
      const result = await client.callTool({ name: call.tool, arguments: call.args });
      made++;
      const text = ((result.content ?? []) as Array<{ text?: string }>).map((c) => c.text ?? '').join('\n');
      texts.push(text);
      bytes += Buffer.byteLength(text) + (result.structuredContent ? Buffer.byteLength(JSON.stringify(result.structuredContent)) : 0);
      if ((result.isError === true) !== (question.refusal === true)) wrongOutcome ??= `${call.tool}: ${result.isError ? 'isError' : 'answered'}: ${text.slice(0, 300)}`;
    }
    const facts = question.facts(world, truth);
    const missing = facts.filter((f) => !found(texts, f, question.firstLine === true)).map((f) => `${f.what} (${String(f.text)})`);
    return { id: question.id, dialect: devnet.dialect, listing, calls: made, bytes, missing, ...(wrongOutcome ? { wrongOutcome } : {}) };
  } finally {
    await client.close();
    await mcp.close();
    await services.close();
    key?.cleanup();
  }
}

/** Every question on a fresh simulator of each dialect, with each listing. */
export async function runEval(dialects: readonly DevnetDialect[] = ['spec', 'camino'], listings: readonly EvalListing[] = ['default', 'dynamic']): Promise<EvalOutcome[]> {
  const outcomes: EvalOutcome[] = [];
  for (const dialect of dialects) {
    for (const listing of listings) {
      const devnet = await startDevnet({ dialect, keystoreApi: true });
      try {
        for (const question of QUESTIONS) if (!question.dialects || question.dialects.includes(dialect)) outcomes.push(await ask(devnet, question, listing));
      } finally {
        await devnet.close();
      }
    }
  }
  return outcomes;
}
