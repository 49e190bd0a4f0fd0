import { Client } from '@modelcontextprotocol/client';
import { InMemoryTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CATALOGUE } from '../../src/catalogue/index.js';
import { loadConfig } from '../../src/config.js';
import { createLogger } from '../../src/log.js';
import { buildServer } from '../../src/server.js';
import { Services } from '../../src/services.js';
import { recordingNode } from '../helpers/recording-node.js';

/**
 * The attack of issue 21: a node (or anything between) echoes the auth token back in another
 * form (JSON-escaped, upper-cased, URL-encoded, base64, or just past a 200-character clip), and
 * the exact-match redaction let it through to the model and the log.
 */
const TOKEN = 'Tok"en\\Sec/ret-a1b2c3d4';
const b64 = (text: string) => Buffer.from(text).toString('base64');
const b64url = (text: string) => Buffer.from(text).toString('base64url');

/** Every trace of the token a leak could show: its forms, and its first 8 characters. */
function traces(): string[] {
  const json = JSON.stringify(TOKEN).slice(1, -1);
  return [TOKEN, json, TOKEN.toUpperCase(), json.toUpperCase(), TOKEN.toLowerCase(), encodeURIComponent(TOKEN), b64(TOKEN), b64url(TOKEN), b64(`user:${TOKEN}`).slice(8, 30), TOKEN.slice(0, 8)];
}

const ECHOES: Record<string, string> = {
  'JSON-escaped': `auth failed for {"authorization":"Bearer ${JSON.stringify(TOKEN).slice(1, -1)}"}`,
  'upper-cased': `AUTH FAILED: BEARER ${TOKEN.toUpperCase()}`,
  'URL-encoded': `redirect to /login?token=${encodeURIComponent(TOKEN)}&next=%2F`,
  'base64 (std)': `basic credentials ${b64(`user:${TOKEN}`)} refused`,
  'base64 (url-safe)': `cookie=${b64url(`x${TOKEN}`)}; path=/`,
  // The clip keeps 200 characters: the token's first 9 are inside, the rest past it.
  'cut at 200 characters': `${'x'.repeat(190)} ${TOKEN} and more`,
};

describe('a secret echoed in another form is still redacted', () => {
  const node = recordingNode(() => undefined);
  let echo = '';
  let client: Client;
  let close: () => Promise<void>;
  const logs: string[] = [];

  beforeAll(async () => {
    node.handler = (_req, res) => {
      res.writeHead(500, { 'content-type': 'text/plain' }).end(echo);
    };
    const config = loadConfig({ CHAIN_MCP_NODE_URL: await node.listen(), CHAIN_MCP_AUTH_TOKEN: TOKEN, CHAIN_MCP_TIMEOUT_MS: '30000' });
    const log = createLogger('debug', config.secrets, { write: (line: string) => logs.push(line) });
    const services = new Services({ config, log, catalogue: CATALOGUE });
    const { mcp } = buildServer({ config, log, services });
    client = new Client({ name: 'secret-forms', version: '0' });
    const [a, b] = InMemoryTransport.createLinkedPair();
    await mcp.connect(b);
    await client.connect(a);
    close = async () => {
      await client.close();
      await mcp.close();
      await services.close();
      await node.close();
    };
  });
  afterAll(() => close());

  for (const [form, body] of Object.entries(ECHOES)) {
    it(`${form}: not in the error the model sees, nor in the log`, async () => {
      echo = body;
      const r = await client.callTool({ name: 'info_getNodeID', arguments: {} });
      const text = JSON.stringify(r.content);
      expect(r.isError).toBe(true);
      expect(text).toContain('HTTP 500');
      expect(text).toContain('[redact');
      const seen = JSON.parse(text) as Array<{ text: string }>;
      for (const trace of traces()) {
        expect(seen[0]!.text).not.toContain(trace);
        for (const line of logs) expect(line).not.toContain(trace);
      }
    });
  }
});
