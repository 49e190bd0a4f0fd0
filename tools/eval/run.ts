import { Client } from '@modelcontextprotocol/client';
import { InMemoryTransport } from '@modelcontextprotocol/client';
import { loadConfig } from '../../src/config.js';
import type { Devnet } from '../../src/devnet/index.js';
import type { DevnetDialect } from '../../src/devnet/rpc.js';
import { startDevnet } from '../../src/devnet/index.js';
import { silentLogger } from '../../src/log.js';
import { buildServer } from '../../src/server.js';
import { type EvalQuestion, type Fact, QUESTIONS, worldOf } from './questions.js';

/** One question's outcome: which facts the answers lacked, and what answering cost. */
export interface EvalOutcome {
  id: string;
  dialect: DevnetDialect;
  calls: number;
  /** Bytes a model receives: every answer's text and structuredContent JSON. */
  bytes: number;
  /** Facts missing from the answers' text, with what each stands for. */
  missing: string[];
  /** A call's result was isError where an answer was expected, or the other way round. */
  wrongOutcome?: string;
}

function found(texts: string[], fact: Fact): boolean {
  return texts.some((t) => (typeof fact.text === 'string' ? t.includes(fact.text) : fact.text.test(t)));
}

/** Asks one question through a real MCP client, against a server pointed at `devnet`. */
export async function ask(devnet: Devnet, question: EvalQuestion): Promise<EvalOutcome> {
  const env: Record<string, string> = {
    CHAIN_MCP_NODE_URL: devnet.nodeUrl,
    ...(devnet.indexerUrl ? { CHAIN_MCP_INDEXER_URL: devnet.indexerUrl } : {}),
    CHAIN_MCP_LOG_LEVEL: 'silent',
    ...(question.env?.CHAIN_MCP_ALLOW_SPEND ? { CHAIN_MCP_KEYSTORE_USER: devnet.keystore.username, CHAIN_MCP_KEYSTORE_PASSWORD: devnet.keystore.password } : {}),
    ...question.env,
  };
  const { mcp, services } = buildServer({ config: loadConfig(env), log: silentLogger() });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: 'eval', version: '0' });
  await mcp.connect(serverSide);
  await client.connect(clientSide);
  try {
    const world = worldOf(devnet.state);
    const texts: string[] = [];
    let bytes = 0;
    let wrongOutcome: string | undefined;
    const calls = question.calls(world);
    for (const call of calls) {
      const result = await client.callTool({ name: call.tool, arguments: call.args });
      const text = ((result.content ?? []) as Array<{ text?: string }>).map((c) => c.text ?? '').join('\n');
      texts.push(text);
      bytes += Buffer.byteLength(text) + (result.structuredContent ? Buffer.byteLength(JSON.stringify(result.structuredContent)) : 0);
      if ((result.isError === true) !== (question.refusal === true)) wrongOutcome ??= `${call.tool}: ${result.isError ? 'isError' : 'answered'}: ${text.slice(0, 300)}`;
    }
    const missing = question
      .facts(world)
      .filter((f) => !found(texts, f))
      .map((f) => `${f.what} (${String(f.text)})`);
    return { id: question.id, dialect: devnet.dialect, calls: calls.length, bytes, missing, ...(wrongOutcome ? { wrongOutcome } : {}) };
  } finally {
    await client.close();
    await mcp.close();
    await services.close();
  }
}

/** Every question on a fresh simulator of each dialect. */
export async function runEval(dialects: readonly DevnetDialect[] = ['spec', 'camino']): Promise<EvalOutcome[]> {
  const outcomes: EvalOutcome[] = [];
  for (const dialect of dialects) {
    const devnet = await startDevnet({ dialect, keystoreApi: true });
    try {
      for (const question of QUESTIONS) if (!question.dialects || question.dialects.includes(dialect)) outcomes.push(await ask(devnet, question));
    } finally {
      await devnet.close();
    }
  }
  return outcomes;
}
