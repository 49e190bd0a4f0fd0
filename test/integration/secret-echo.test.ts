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
 * Issue 34, "clean first, then mask": a hostile node echoes the configured secret in a successful
 * answer, as a value and as a JSON key of structuredContent, in forms the masker must know: with
 * invisible characters inside (which cleaning removes, rebuilding the plain secret), as hex,
 * UTF-16, HTML character references, every byte percent-encoded, base64url. None may reach the
 * model: not the form, and not the plain secret once invisible characters are taken out.
 */
// Chosen so that its base64 has '+' and '/' (its base64url then differs: '-' and '_').
const SECRET = 'k>?~Pass>?~word';
const b64core = (text: string, lead: number, url: boolean) => {
  const encoded = Buffer.concat([Buffer.alloc(lead), Buffer.from(text)]).toString(url ? 'base64url' : 'base64');
  return encoded.slice(Math.ceil((lead * 8) / 6), Math.floor(((lead + Buffer.byteLength(text)) * 8) / 6));
};
const spread = (sep: string) => [...SECRET].join(sep);

const FORMS: Record<string, string> = {
  'zero-width space inside': spread('\u200b'),
  'soft hyphen inside': spread('\u00ad'),
  'NUL inside': spread('\u0000'),
  'tag characters inside': spread('\u{E0041}'),
  'word joiner and bidi marks inside': spread('\u2060\u202e'),
  'hex of its UTF-8 bytes': Buffer.from(SECRET).toString('hex'),
  'hex of its UTF-8 bytes, upper case': Buffer.from(SECRET).toString('hex').toUpperCase(),
  'hex of its UTF-16 code units': Buffer.from(SECRET, 'utf16le').toString('hex'),
  'every character as a \\u escape (UTF-16)': [...SECRET].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join(''),
  'HTML decimal character references': [...SECRET].map((c) => `&#${c.codePointAt(0)};`).join(''),
  'HTML hex character references': [...SECRET].map((c) => `&#x${c.codePointAt(0)!.toString(16)};`).join(''),
  'HTML-escaped': SECRET.replace(/>/g, '&gt;'),
  'every byte percent-encoded': [...Buffer.from(SECRET)].map((b) => `%${b.toString(16).padStart(2, '0').toUpperCase()}`).join(''),
  base64url: Buffer.from(`ab${SECRET}`).toString('base64url'),
};

/** The plain secret as a person would read the text once invisible characters are dropped. */
const visible = (text: string) => text.replace(/[\p{Cf}\p{Cc}]/gu, '').toLowerCase();

describe('a secret echoed by the node in a successful answer is masked in every form', () => {
  const node = recordingNode(() => undefined);
  let echo = '';
  let client: Client;
  let close: () => Promise<void>;

  beforeAll(async () => {
    node.handler = (req, res) => {
      const id = (JSON.parse(req.body) as { id?: unknown }).id;
      const result = { version: `camino/${echo}`, databaseVersion: 'v1.4.5', gitCommit: 'abc', vmVersions: { [echo]: 'v1', avm: echo } };
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id, result }));
    };
    const config = loadConfig({ CHAIN_MCP_NODE_URL: await node.listen(), CHAIN_MCP_AUTH_TOKEN: SECRET });
    const log = createLogger('silent', config.secrets);
    const services = new Services({ config, log, catalogue: CATALOGUE });
    const { mcp } = buildServer({ config, log, services });
    client = new Client({ name: 'secret-echo', version: '0' });
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

  it('the base64url echo differs from base64 (so the url-safe rule is what masks it)', () => {
    expect(b64core(SECRET, 2, true)).not.toBe(b64core(SECRET, 2, false));
    expect(FORMS.base64url).toContain(b64core(SECRET, 2, true));
  });

  for (const [form, text] of Object.entries(FORMS)) {
    it(`${form}: masked in the text and in structuredContent, as a value and as a key`, async () => {
      echo = text;
      const r = await client.callTool({ name: 'info_getNodeVersion', arguments: {} });
      expect(r.isError, JSON.stringify(r.content)).not.toBe(true);
      const structured = r.structuredContent as { version: string; vmVersions: Record<string, string> };
      expect(structured.version).toContain('[redacted]');
      expect(Object.keys(structured.vmVersions).filter((k) => k.includes('[redacted]'))).toHaveLength(1);
      expect(structured.vmVersions.avm).toContain('[redacted]');
      const seen = [JSON.stringify(r.content), JSON.stringify(r.structuredContent)];
      for (const out of seen) {
        expect(visible(JSON.parse(JSON.stringify(out)))).not.toContain(SECRET.toLowerCase());
        expect(out.toLowerCase()).not.toContain(text.toLowerCase());
        for (const lead of [0, 1, 2]) for (const url of [true, false]) expect(out).not.toContain(b64core(SECRET, lead, url));
      }
    });
  }

  it('the plain secret as a JSON key of structuredContent is masked', async () => {
    echo = SECRET;
    const r = await client.callTool({ name: 'info_getNodeVersion', arguments: {} });
    const structured = r.structuredContent as { vmVersions: Record<string, string> };
    expect(Object.keys(structured.vmVersions)).toEqual(['[redacted]', 'avm']);
    expect(JSON.stringify(r)).not.toContain(SECRET);
  });
});
