import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { TOOLSET_ABOUT } from '../../src/core/toolsets.js';
import { defineTool, type ToolDef } from '../../src/core/tool.js';
import { type Tier, TOOLSETS, type Toolset } from '../../src/core/toolsets.js';
import { type Config, loadConfig } from '../../src/config.js';
import { DISCOVERY, DISCOVERY_LISTING, NO_SESSION, ToolsetSession } from '../../src/registry/dynamic.js';
import { selectTools } from '../../src/registry/select.js';

/** src/registry/dynamic.ts: the discovery tools of CHAIN_MCP_DYNAMIC and one session's enabled toolsets. */

const tool = (name: string, toolset: Toolset, tier: Tier = 'read', description = `${name} does one thing. More detail.`): ToolDef =>
  defineTool({ name, title: name, description, tier, toolset, input: z.object({}), output: z.object({}), summarize: () => '' });

const CATALOGUE = [
  tool('summary', 'assistant'),
  tool('overview', 'assistant'),
  tool('info_a', 'info', 'read', 'Reads version 1.2 of the node. Then more.'),
  tool('info_b', 'info', 'read', 'No period at the end'),
  tool('platform_one', 'platform'),
  tool('xvm_send', 'xvm', 'spend'),
  tool('admin_op', 'admin', 'admin'),
  tool('indexer_q', 'indexer'),
];

const config = (env: Record<string, string> = {}): Config => loadConfig({ CHAIN_MCP_NODE_URL: 'http://127.0.0.1:9', CHAIN_MCP_DYNAMIC: 'true', ...env });
const session = (cfg: Config = config()) => new ToolsetSession(selectTools(CATALOGUE, cfg), CATALOGUE, cfg);
const find = (name: string) => CATALOGUE.find((t) => t.name === name)!;
const refused = (text: string) => ({ content: [{ type: 'text', text }], isError: true });
const INVALID = `Invalid input: toolset: expected one of ${TOOLSETS.join(', ')}.`;

describe('discovery tool listings', () => {
  it('names the three discovery tools', () => {
    expect(DISCOVERY).toEqual(['list_toolsets', 'get_toolset_tools', 'enable_toolset']);
  });

  it('lists them as read-only, idempotent, closed-world tools with a toolset enum where they take one', () => {
    const toolset = { type: 'string', enum: [...TOOLSETS], description: 'Toolset name, as list_toolsets shows it.' };
    const hints = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };
    expect(DISCOVERY_LISTING).toEqual([
      {
        name: 'list_toolsets',
        title: 'List toolsets',
        description: 'List the toolsets this server offers: what each answers, how many tools, whether enabled. Start here when no listed tool fits.',
        inputSchema: { type: 'object', properties: {}, required: [], additionalProperties: false },
        outputSchema: { type: 'object' },
        annotations: hints,
      },
      {
        name: 'get_toolset_tools',
        title: 'Tools of a toolset',
        description: "Names and one-line descriptions of one toolset's tools, before enabling it.",
        inputSchema: { type: 'object', properties: { toolset }, required: ['toolset'], additionalProperties: false },
        outputSchema: { type: 'object' },
        annotations: hints,
      },
      {
        name: 'enable_toolset',
        title: 'Enable a toolset',
        description: "Add a toolset's tools to this session (the tool list then updates). Tools can be called by name right after.",
        inputSchema: { type: 'object', properties: { toolset }, required: ['toolset'], additionalProperties: false },
        outputSchema: { type: 'object' },
        annotations: hints,
      },
    ]);
  });
});

describe('ToolsetSession: names and visibility', () => {
  it('recognises exactly the discovery tool names', () => {
    const s = session();
    expect(DISCOVERY.map((n) => s.isDiscovery(n))).toEqual([true, true, true]);
    expect(['list_toolset', 'info_a', 'summary', ''].map((n) => s.isDiscovery(n))).toEqual([false, false, false, false]);
  });

  it('starts with only the assistant toolset visible, and shows a toolset once enabled', () => {
    const s = session();
    expect(s.visible(find('summary'))).toBe(true);
    expect(s.visible(find('info_a'))).toBe(false);
    s.call('enable_toolset', { toolset: 'info' });
    expect(s.visible(find('info_a'))).toBe(true);
    expect(s.visible(find('platform_one'))).toBe(false);
  });

  it('tells how to enable the toolset of a tool that is not listed yet', () => {
    expect(session().notEnabled(find('platform_one'))).toBe(
      'Tool platform_one is in the "platform" toolset, which is not enabled in this session yet. Call enable_toolset with {"toolset": "platform"}, then call platform_one again.',
    );
  });

  it('keeps enabled toolsets per session', () => {
    const one = session();
    const two = session();
    one.call('enable_toolset', { toolset: 'info' });
    expect(one.visible(find('info_a'))).toBe(true);
    expect(two.visible(find('info_a'))).toBe(false);
  });
});

describe('list_toolsets', () => {
  it('gives one row per toolset, in TOOLSETS order, with what it answers, its allowed tool count and whether it is enabled', () => {
    const result = session().call('list_toolsets', {});
    const count: Partial<Record<Toolset, number>> = { assistant: 2, info: 2, platform: 1 };
    expect(result.structuredContent).toEqual({
      toolsets: TOOLSETS.map((toolset) => ({ toolset, about: TOOLSET_ABOUT[toolset], tools: count[toolset] ?? 0, enabled: toolset === 'assistant' })),
    });
    expect(result.isError).toBeUndefined();
    expect(result.changed).toBeUndefined();
  });

  it('writes one line per toolset: singular or plural count, enabled, or not available here', () => {
    const { content } = session().call('list_toolsets', { toolset: 'ignored' });
    const line = (toolset: Toolset, what: string) => `- ${toolset} (${what}): ${TOOLSET_ABOUT[toolset]}`;
    expect(content).toHaveLength(1);
    expect(content[0]!.type).toBe('text');
    expect(content[0]!.text.split('\n')).toEqual([
      'Toolsets (enable one with enable_toolset):',
      ...TOOLSETS.map((t) =>
        line(t, t === 'assistant' ? '2 tools, enabled' : t === 'info' ? '2 tools' : t === 'platform' ? '1 tool' : '0 tools, not available here'),
      ),
    ]);
  });

  it('says "enabled" rather than "not available here" for an enabled toolset with no tools', () => {
    const cfg = config();
    const s = new ToolsetSession([], CATALOGUE, cfg);
    const lines = s.call('list_toolsets', {}).content[0]!.text.split('\n');
    expect(lines).toContain(`- assistant (0 tools, enabled): ${TOOLSET_ABOUT.assistant}`);
    expect(lines).toContain(`- info (0 tools, not available here): ${TOOLSET_ABOUT.info}`);
  });

  it('marks a toolset enabled after enable_toolset', () => {
    const s = session();
    s.call('enable_toolset', { toolset: 'info' });
    const rows = s.call('list_toolsets', {}).structuredContent?.toolsets as Array<{ toolset: string; enabled: boolean }>;
    expect(rows.filter((r) => r.enabled).map((r) => r.toolset)).toEqual(['info', 'assistant']);
    expect(s.call('list_toolsets', {}).content[0]!.text).toContain(`- info (2 tools, enabled): ${TOOLSET_ABOUT.info}`);
  });
});

describe('get_toolset_tools', () => {
  it("lists a toolset's allowed tools with the first sentence of each description, before enabling it", () => {
    const s = session();
    expect(s.call('get_toolset_tools', { toolset: 'info' })).toEqual({
      content: [{ type: 'text', text: 'info: 2 tool(s):\n- info_a: Reads version 1.2 of the node.\n- info_b: No period at the end' }],
      structuredContent: {
        toolset: 'info',
        enabled: false,
        tools: [
          { name: 'info_a', description: 'Reads version 1.2 of the node.' },
          { name: 'info_b', description: 'No period at the end' },
        ],
      },
    });
    expect(s.visible(find('info_a'))).toBe(false);
  });

  it('says the toolset is enabled once it is', () => {
    const s = session();
    s.call('enable_toolset', { toolset: 'platform' });
    const result = s.call('get_toolset_tools', { toolset: 'platform' });
    expect(result.content[0]!.text).toBe('platform: 1 tool(s), enabled:\n- platform_one: platform_one does one thing.');
    expect(result.structuredContent).toEqual({ toolset: 'platform', enabled: true, tools: [{ name: 'platform_one', description: 'platform_one does one thing.' }] });
  });

  it('refuses a toolset whose tools the tiers hide, naming the setting that would list them', () => {
    expect(session().call('get_toolset_tools', { toolset: 'xvm' })).toEqual(
      refused(
        'The xvm toolset cannot be enabled on this server: spending is off (CHAIN_MCP_ALLOW_SPEND=true and a signer, the local key or the keystore user, enable it). The operator changes that in the server\'s environment.',
      ),
    );
  });
});

describe('enable_toolset', () => {
  it('enables a toolset, names its tools with one line each and reports that the tool list changed', () => {
    expect(session().call('enable_toolset', { toolset: 'info' })).toEqual({
      content: [
        {
          type: 'text',
          text: 'Enabled info: 2 tool(s), callable now (their input schemas come with the updated tool list):\n- info_a: Reads version 1.2 of the node.\n- info_b: No period at the end',
        },
      ],
      structuredContent: {
        toolset: 'info',
        enabled: true,
        tools: [
          { name: 'info_a', description: 'Reads version 1.2 of the node.' },
          { name: 'info_b', description: 'No period at the end' },
        ],
      },
      changed: true,
    });
  });

  it('returns no input schema however many tools it enables (the host re-lists them)', () => {
    const big = Array.from({ length: 60 }, (_, i) =>
      defineTool({
        name: `info_${i}`,
        title: 'x',
        description: 'One. Two.',
        tier: 'read',
        toolset: 'info',
        input: z.object(Object.fromEntries(Array.from({ length: 20 }, (_, j) => [`field${j}`, z.string().describe('A field with a description.')]))),
        output: z.object({}),
        summarize: () => '',
      }),
    );
    const r = new ToolsetSession(big, big, config()).call('enable_toolset', { toolset: 'info' });
    const rows = (r.structuredContent as { tools: Array<Record<string, unknown>> }).tools;
    expect(rows).toHaveLength(60);
    expect(rows.every((t) => Object.keys(t).sort().join() === 'description,name' && t.description === 'One.')).toBe(true);
    expect(JSON.stringify(r)).not.toContain('field0');
  });

  it('answers "already enabled" the second time, without a change', () => {
    const s = session();
    s.call('enable_toolset', { toolset: 'info' });
    const again = s.call('enable_toolset', { toolset: 'info' });
    expect(again).toEqual({
      content: [{ type: 'text', text: 'The info toolset is already enabled (2 tools).' }],
      structuredContent: { toolset: 'info', enabled: true, tools: ['info_a', 'info_b'] },
    });
    expect('changed' in again).toBe(false);
  });

  it('answers "already enabled" for the assistant toolset a session starts with', () => {
    expect(session().call('enable_toolset', { toolset: 'assistant' }).content[0]!.text).toBe('The assistant toolset is already enabled (2 tools).');
  });

  it('refuses the admin toolset with the admin switch, and leaves it disabled', () => {
    const s = session();
    expect(s.call('enable_toolset', { toolset: 'admin' })).toEqual(
      refused("The admin toolset cannot be enabled on this server: the admin tier is off (CHAIN_MCP_ALLOW_ADMIN=true enables it). The operator changes that in the server's environment."),
    );
    expect(s.visible(find('admin_op'))).toBe(false);
  });

  it('refuses the indexer toolset with the missing URL, and enables it once the URL is set', () => {
    expect(session().call('enable_toolset', { toolset: 'indexer' }).content[0]!.text).toBe(
      "The indexer toolset cannot be enabled on this server: CHAIN_MCP_INDEXER_URL is not set. The operator changes that in the server's environment.",
    );
    const withIndexer = session(config({ CHAIN_MCP_INDEXER_URL: 'http://127.0.0.1:8' }));
    expect(withIndexer.call('enable_toolset', { toolset: 'indexer' }).changed).toBe(true);
  });

  it('refuses a toolset with no tool in the catalogue at all', () => {
    expect(session().call('enable_toolset', { toolset: 'auth' })).toEqual(
      refused("The auth toolset cannot be enabled on this server: it has no tools. The operator changes that in the server's environment."),
    );
  });

  it('enables a spend toolset once spending and the keystore are configured', () => {
    const s = session(config({ CHAIN_MCP_ALLOW_SPEND: 'true', CHAIN_MCP_KEYSTORE_USER: 'u', CHAIN_MCP_KEYSTORE_PASSWORD: 'pass-word' }));
    expect(s.call('enable_toolset', { toolset: 'xvm' }).content[0]!.text).toMatch(/^Enabled xvm: 1 tool\(s\), callable now[^\n]*\n- xvm_send: /);
  });
});

describe('toolset argument validation', () => {
  for (const name of ['get_toolset_tools', 'enable_toolset'] as const) {
    it(`${name} refuses a missing, non-string or unknown toolset with the list of toolsets`, () => {
      const s = session();
      expect(s.call(name, {})).toEqual(refused(INVALID));
      expect(s.call(name, { toolset: 5 })).toEqual(refused(INVALID));
      expect(s.call(name, { toolset: 'Info' })).toEqual(refused(INVALID));
      expect(s.call(name, { toolset: 'all' })).toEqual(refused(INVALID));
    });
  }
});

describe('a request without a session (stateless HTTP)', () => {
  const stateless = (cfg: Config = config()) => new ToolsetSession(selectTools(CATALOGUE, cfg), CATALOGUE, cfg, true);

  it('lists what a session starts with, and answers every allowed tool by name; a session answers only what it lists', () => {
    const s = stateless();
    expect(s.visible(find('platform_one'))).toBe(false);
    expect(s.callable(find('platform_one'))).toBe(true);
    expect(s.callable(find('summary'))).toBe(true);
    const inSession = session();
    expect(inSession.callable(find('platform_one'))).toBe(false);
    expect(inSession.callable(find('summary'))).toBe(true);
  });

  it('says in list_toolsets that nothing is remembered and tools are called by name', () => {
    const { content, structuredContent } = stateless().call('list_toolsets', {});
    expect(content[0]!.text.split('\n').slice(0, 2)).toEqual([NO_SESSION, 'Toolsets (get_toolset_tools names the tools of one):']);
    expect(structuredContent).toMatchObject({ session: false });
    expect(session().call('list_toolsets', {}).structuredContent).not.toHaveProperty('session');
  });

  it('answers enable_toolset with the tools to call by name, enables nothing and reports no list change', () => {
    const s = stateless();
    const answer = s.call('enable_toolset', { toolset: 'platform' });
    expect(answer.changed).toBeUndefined();
    expect(answer.structuredContent).toEqual({ toolset: 'platform', enabled: false, session: false, tools: [{ name: 'platform_one', description: 'platform_one does one thing.' }] });
    expect(answer.content[0]!.text).toBe(`${NO_SESSION} The platform tools, callable by name now:\n- platform_one: platform_one does one thing.`);
    expect(s.visible(find('platform_one'))).toBe(false);
    expect(s.call('enable_toolset', { toolset: 'admin' }).isError).toBe(true);
  });
});
