import { Writable } from 'node:stream';
import { pino } from 'pino';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { defineTool, type ToolContext, type ToolDef } from '../../src/core/tool.js';
import { loadConfig } from '../../src/config.js';
import { ChainMcpError } from '../../src/errors.js';
import { createLogger, silentLogger } from '../../src/log.js';
import { redactSecrets, redactValue } from '../../src/redact.js';
import { callTool } from '../../src/registry/execute.js';
import { Services } from '../../src/services.js';

/**
 * Redaction (DESIGN "Errors", STYLE secrets): every configured secret is masked, every time it
 * appears, in a result's text, its structuredContent (nested in objects and arrays), an error's
 * text and every log line, including fields the logger's path list does not name.
 */

const TOKEN = 'tok-Redact-0a1b2c3d4e5f';
const KEYSTORE_PASSWORD = 'Keystore-Passw0rd!';
const AUTH_PASSWORD = 'Auth-Passw0rd-77';
const SECRETS = [TOKEN, KEYSTORE_PASSWORD, AUTH_PASSWORD];
const count = (text: string, part: string) => text.split(part).length - 1;

describe('redactSecrets and redactValue', () => {
  it('masks every occurrence of every secret in a string', () => {
    const text = `a ${TOKEN} b ${TOKEN}${KEYSTORE_PASSWORD} c ${AUTH_PASSWORD} ${TOKEN}`;
    const out = redactSecrets(text, SECRETS);
    for (const s of SECRETS) expect(out).not.toContain(s);
    expect(out).toBe('a [redacted] b [redacted][redacted] c [redacted] [redacted]');
  });

  it('masks secrets in every string of nested objects and arrays, keeping the rest', () => {
    const value = {
      top: TOKEN,
      list: [`x${TOKEN}y${TOKEN}`, { deep: [{ deeper: KEYSTORE_PASSWORD }] }, 7, null, true],
      nested: { a: { b: { c: `${AUTH_PASSWORD}/${AUTH_PASSWORD}` } } },
      plain: 'nothing here',
    };
    expect(redactValue(value, SECRETS)).toEqual({
      top: '[redacted]',
      list: ['x[redacted]y[redacted]', { deep: [{ deeper: '[redacted]' }] }, 7, null, true],
      nested: { a: { b: { c: '[redacted]/[redacted]' } } },
      plain: 'nothing here',
    });
  });

  it('leaves text alone when no secret is configured', () => {
    expect(redactSecrets(`a ${TOKEN}`, [])).toBe(`a ${TOKEN}`);
    const value = { a: [TOKEN] };
    expect(redactValue(value, [])).toBe(value);
  });
});

/** A read tool that echoes the secrets it is given back in its result, or in its error. */
const leaky = defineTool({
  name: 'test_leaky',
  title: 'Leaky',
  description: 'Echoes secrets.',
  tier: 'read',
  toolset: 'info',
  input: z.strictObject({ fail: z.boolean().default(false), internal: z.boolean().default(false) }),
  output: z.object({ echo: z.string(), nested: z.object({ list: z.array(z.object({ value: z.string() })), again: z.string() }) }),
  run: async (input, ctx) => {
    const [token, keystore] = [ctx.config.authToken!, ctx.config.keystore!.password];
    if (input.internal) throw new Error(`bug while holding ${token} and ${token}`);
    if (input.fail) throw new ChainMcpError('connection', `refused ${token} twice: ${token}; password ${keystore}`, { hint: `try ${keystore}` });
    return { echo: `${token} ${token}`, nested: { list: [{ value: keystore }, { value: `${keystore}+${token}` }], again: token } };
  },
  summarize: (o) => `echo ${o.echo} / ${o.nested.again} / ${o.nested.list.map((l) => l.value).join(',')}`,
});

function services(lines: string[]): Services {
  const config = loadConfig({
    CHAIN_MCP_NODE_URL: 'http://127.0.0.1:9',
    CHAIN_MCP_AUTH_TOKEN: TOKEN,
    CHAIN_MCP_AUTH_PASSWORD: AUTH_PASSWORD,
    CHAIN_MCP_KEYSTORE_USER: 'devnet',
    CHAIN_MCP_KEYSTORE_PASSWORD: KEYSTORE_PASSWORD,
  });
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      lines.push(chunk.toString('utf8'));
      done();
    },
  });
  return new Services({ config, log: createLogger('debug', config.secrets, sink), catalogue: [leaky as unknown as ToolDef] });
}

describe('tool results and errors', () => {
  it('masks each secret every time it appears in text and nested structuredContent', async () => {
    const result = await callTool(services([]), leaky as unknown as ToolDef, {});
    expect(result.isError).toBeUndefined();
    const text = result.content[0]!.text;
    expect(text).toBe('echo [redacted] [redacted] / [redacted] / [redacted],[redacted]+[redacted]');
    expect(result.structuredContent).toEqual({
      echo: '[redacted] [redacted]',
      nested: { list: [{ value: '[redacted]' }, { value: '[redacted]+[redacted]' }], again: '[redacted]' },
    });
  });

  it('masks secrets in error text and hint, every occurrence', async () => {
    const result = await callTool(services([]), leaky as unknown as ToolDef, { fail: true });
    expect(result.isError).toBe(true);
    const text = result.content[0]!.text;
    expect(text).toContain('refused [redacted] twice: [redacted]; password [redacted]');
    expect(text).toContain('try [redacted]');
    for (const s of SECRETS) expect(text).not.toContain(s);
  });

  it('masks secrets in the log line of an internal failure and in its result', async () => {
    const lines: string[] = [];
    const result = await callTool(services(lines), leaky as unknown as ToolDef, { internal: true });
    expect(result.isError).toBe(true);
    for (const s of SECRETS) expect(result.content[0]!.text).not.toContain(s);
    const log = lines.join('');
    expect(log).toContain('tool failed');
    expect(log).toContain('bug while holding [redacted] and [redacted]');
    expect(log).not.toContain(TOKEN);
  });
});

describe('log lines', () => {
  it('masks every known secret value anywhere in a line, also in fields the path list does not name', () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _enc, done) {
        lines.push(chunk.toString('utf8'));
        done();
      },
    });
    const log = createLogger('info', SECRETS, sink);
    log.info({ detail: { note: `${TOKEN}:${TOKEN}`, list: [KEYSTORE_PASSWORD, { deep: AUTH_PASSWORD }] } }, `msg ${AUTH_PASSWORD} ${AUTH_PASSWORD}`);
    log.warn({ password: 'by-path', headers: { authorization: 'Bearer by-path' } }, 'paths');
    expect(lines).toHaveLength(2);
    const [first, second] = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(first!.detail).toEqual({ note: '[redacted]:[redacted]', list: ['[redacted]', { deep: '[redacted]' }] });
    expect(first!.msg).toBe('msg [redacted] [redacted]');
    expect(second!.password).toBe('[redacted]');
    expect(second!.headers).toEqual({ authorization: '[redacted]' });
    for (const s of SECRETS) expect(lines.join('')).not.toContain(s);
    expect(count(lines[0]!, '[redacted]')).toBe(6);
  });

  it('names the server in every line and writes to stderr (fd 2) unless given a stream', () => {
    const destination = vi.spyOn(pino, 'destination');
    try {
      createLogger('info', SECRETS);
      expect(destination).toHaveBeenCalledWith(expect.objectContaining({ fd: 2, sync: false }));
    } finally {
      destination.mockRestore();
    }
    const lines: string[] = [];
    createLogger('info', [], { write: (line: string) => void lines.push(line) }).info('hello');
    expect(JSON.parse(lines[0]!)).toMatchObject({ name: 'chain-mcp', msg: 'hello' });
  });

  it('the silent logger logs nothing at any level', () => {
    const log = silentLogger();
    expect(log.level).toBe('silent');
    expect(log.isLevelEnabled('fatal')).toBe(false);
  });
});

type EchoInput = { which: 'authToken' | 'authPassword' | 'keystore' | 'adminSecret'; pad: number; as: 'structured' | 'text' | 'error' };

function echoText(input: EchoInput, c: ToolContext['config']): string {
  const secret = { authToken: c.authToken, authPassword: c.authPassword, keystore: c.keystore?.password, adminSecret: c.adminSecret }[input.which] ?? '';
  // With padding, a long tail forces a cut of the text after the secret.
  return `${'x'.repeat(input.pad)}${secret} and again ${secret}${input.pad > 0 ? ` ${'y'.repeat(2000)}` : ''}`;
}

/** Returns one configured secret inside its text (after `pad` filler characters), as a structured result, a text-only result or an error. */
const echo = defineTool({
  name: 'test_echo_secret',
  title: 'Echo a secret',
  description: 'Echoes one configured secret.',
  tier: 'read',
  toolset: 'info',
  input: z.strictObject({
    which: z.enum(['authToken', 'authPassword', 'keystore', 'adminSecret']),
    pad: z.number().int().min(0).max(10_000).default(0),
    as: z.enum(['structured', 'text', 'error']).default('structured'),
  }),
  // `text` returns no structured output at all (the text-only result path), which ToolDef's types do not offer: cast.
  output: z.object({ text: z.string() }).optional() as unknown as z.ZodObject<{ text: z.ZodString }>,
  run: async (input, ctx) => {
    if (input.as === 'error') throw new ChainMcpError('rpc', echoText(input, ctx.config));
    return (input.as === 'text' ? undefined : { text: echoText(input, ctx.config) }) as { text: string };
  },
  summarize: (_o, input, ctx) => echoText(input, ctx.config),
});

function echoServices(env: Record<string, string>): Services {
  const config = loadConfig({ CHAIN_MCP_NODE_URL: 'http://127.0.0.1:9', ...env });
  return new Services({ config, log: silentLogger(), catalogue: [echo as unknown as ToolDef] });
}

describe('what redaction covers (issue 25)', () => {
  it('masks the auth password and the admin secret like the token and the keystore password', async () => {
    const s = echoServices({
      CHAIN_MCP_AUTH_TOKEN: TOKEN,
      CHAIN_MCP_AUTH_PASSWORD: AUTH_PASSWORD,
      CHAIN_MCP_KEYSTORE_USER: 'devnet',
      CHAIN_MCP_KEYSTORE_PASSWORD: KEYSTORE_PASSWORD,
      CHAIN_MCP_ADMIN_SECRET: 'Admin-Secret-4242',
    });
    const cases = [['authToken', TOKEN], ['authPassword', AUTH_PASSWORD], ['keystore', KEYSTORE_PASSWORD], ['adminSecret', 'Admin-Secret-4242']] as const;
    for (const [which, secret] of cases) {
      const r = await callTool(s, echo as unknown as ToolDef, { which });
      expect(r.content[0]!.text, which).toBe('[redacted] and again [redacted]');
      expect(JSON.stringify(r.structuredContent), which).not.toContain(secret);
    }
  });

  it('masks short secrets of 4 to 7 characters too, and the configuration refuses them as too short to trust', () => {
    for (const secret of ['k9Z!', 'k9Z!a7', 'Pq7-x2W']) {
      expect(redactSecrets(`${secret} and again ${secret}`, [secret]), secret).toBe('[redacted] and again [redacted]');
      expect(() => echoServices({ CHAIN_MCP_AUTH_PASSWORD: secret }), secret).toThrow(/CHAIN_MCP_AUTH_PASSWORD: expected at least 8 characters/);
    }
  });

  it('redacts before cutting text to the output budget: no prefix of a secret survives at the cut', async () => {
    const s = echoServices({ CHAIN_MCP_AUTH_PASSWORD: AUTH_PASSWORD, CHAIN_MCP_MAX_OUTPUT_BYTES: '1024' });
    let cutInside = 0;
    // Every position of the secret around the cut (~930 bytes in): some put the cut inside it.
    for (const as of ['structured', 'text', 'error'] as const) {
      for (let pad = 820; pad < 960; pad++) {
        const r = await callTool(s, echo as unknown as ToolDef, { which: 'authPassword', pad, as });
        const text = r.content[0]!.text;
        expect(r.isError === true, as).toBe(as === 'error');
        expect(text, `${as}, pad ${pad}`).not.toContain(AUTH_PASSWORD.slice(0, 4));
        const cut = text.indexOf('\n… (cut to fit');
        expect(cut, 'the text was cut').toBeGreaterThan(0);
        const at = text.indexOf('x'.repeat(pad)); // errors carry a prefix before the tool's message
        if (cut > at + pad && cut < at + pad + AUTH_PASSWORD.length) cutInside++;
      }
    }
    // The sweep did put the cut inside the secret, in each kind of result (else the check above proves nothing).
    expect(cutInside).toBeGreaterThanOrEqual(3 * 10);
  });
});

/**
 * Each echoed form of a secret, one rule at a time (mutation survivors, issue 25): the secret
 * inside longer base64 text at each of the three byte alignments, JSON with \u escapes, a form
 * body, a head cut short by a clip; and what must stay untouched.
 */
describe('the forms of a secret that redaction masks', () => {
  const SECRET = 'Sup3r-Secret/Key+9';

  it('masks a secret base64-encoded inside longer text at every byte alignment, std and url-safe', () => {
    for (const lead of ['', 'Q', 'QR']) {
      for (const tail of ['', ':', ':x']) {
        const plain = `${lead}${SECRET}${tail}`;
        for (const encoded of [Buffer.from(plain).toString('base64'), Buffer.from(plain).toString('base64url')]) {
          const out = redactSecrets(`header ${encoded} end`, [SECRET]);
          expect(out, `${JSON.stringify(plain)} as ${encoded}`).toContain('[redacted]');
          // Masked: all but the few characters the secret shares with its neighbours (its own base64 is 24 characters).
          const left = out.replace('header ', '').replace(' end', '').replace('[redacted]', '');
          expect(encoded.length - left.length, encoded).toBeGreaterThanOrEqual(21);
        }
      }
    }
  });

  it('masks a 6-character secret base64-encoded on its own (its 8 characters of base64 are enough)', () => {
    const short = 'k9Z!a7';
    expect(redactSecrets(`basic ${Buffer.from(short).toString('base64')}`, [short])).toBe('basic [redacted]');
  });

  it('masks the JSON \\u-escaped form and the form-encoded form', () => {
    const secret = 'Pass<word>&1 é';
    const unicode = 'Pass\\u003cword\\u003e\\u00261 \\u00e9';
    expect(redactSecrets(`{"p":"${unicode}"}`, [secret])).toBe('{"p":"[redacted]"}');
    const spaced = "my secret pass'";
    expect(redactSecrets(`user=a&password=${new URLSearchParams({ p: spaced }).toString().slice(2)}&x=1`, [spaced])).toBe('user=a&password=[redacted]&x=1');
  });

  it('masks the longest head of a secret cut by a clip, from 4 characters on', () => {
    expect(redactSecrets(`token ${SECRET.slice(0, 12)}…`, [SECRET])).toBe('token [redacted]…');
    expect(redactSecrets(`token ${SECRET.slice(0, 4)}...`, [SECRET])).toBe('token [redacted]...');
    expect(redactSecrets(`token ${SECRET.slice(0, 9)}`, [SECRET])).toBe('token [redacted]');
    // Three characters are too few to be the secret's.
    expect(redactSecrets(`token ${SECRET.slice(0, 3)}…`, [SECRET])).toBe(`token ${SECRET.slice(0, 3)}…`);
  });

  it('masks the longer of two secrets whole when one begins with the other', () => {
    expect(redactSecrets('x Secret-1234-extra y', ['Secret-1234', 'Secret-1234-extra'])).toBe('x [redacted] y');
  });

  it('leaves other text alone: an empty secret masks nothing, and a short secret has no base64 or cut rule to misfire', () => {
    expect(redactSecrets('hello undefined world', ['', SECRET])).toBe('hello undefined world');
    expect(redactSecrets('value undefined, k9Z! once', ['k9Z!'])).toBe('value undefined, [redacted] once');
  });
});
