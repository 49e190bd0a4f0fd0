import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ClientCapabilities } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROMPT_INFO, RESOURCE_INFO } from '../../src/assistant/extras.js';
import { RESOURCE_URIS } from '../../src/assistant/resources.js';
import { type Devnet, startDevnet } from '../../src/devnet/index.js';
import { TOOLS_DOC } from '../../tools/docs-blocks.js';
import { inMemoryStack, type Stack } from '../helpers/stack.js';

/**
 * The prompts, resources and package identity the docs, the bundle's manifest and server.json state
 * are the ones a real server lists: each checked against prompts/list and resources/list of a
 * server built as main builds it (the generated blocks come from PROMPT_INFO and RESOURCE_INFO, so
 * these tests close the loop from those tables to what is registered).
 */

const ROOT = join(import.meta.dirname, '..', '..');
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');
const UI_HOST = { extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] } } } as ClientCapabilities;

describe('prompts and resources: what the docs and the manifest say is what the server lists', () => {
  let devnet: Devnet;
  let stack: Stack;
  let prompts: Array<{ name: string; title?: string; description?: string; arguments?: Array<{ name: string }> }>;
  let resources: Array<{ uri: string; name: string; title?: string; description?: string; mimeType?: string }>;
  beforeAll(async () => {
    devnet = await startDevnet();
    // Spends on and an MCP Apps host: every resource the server can list (views and the approval card).
    stack = await inMemoryStack({
      devnet,
      capabilities: UI_HOST,
      env: { CHAIN_MCP_ALLOW_SPEND: 'true', CHAIN_MCP_KEYSTORE_USER: devnet.keystore.username, CHAIN_MCP_KEYSTORE_PASSWORD: devnet.keystore.password },
    });
    prompts = (await stack.client.listPrompts()).prompts;
    resources = (await stack.client.listResources()).resources;
  });
  afterAll(async () => {
    await stack.close();
    await devnet.close();
  });

  it('PROMPT_INFO (docs/tools.md, manifest.json) is every registered prompt: name, title, description, arguments', () => {
    const listed = prompts.map((p) => ({ name: p.name, title: p.title, description: p.description, args: (p.arguments ?? []).map((a) => a.name) }));
    const documented = Object.entries(PROMPT_INFO).map(([name, p]) => ({ name, title: p.title, description: p.description, args: [...p.args] }));
    expect(listed).toEqual(documented);
  });

  it(`${TOOLS_DOC} has a row for every listed prompt and chain:// resource`, () => {
    const page = read(TOOLS_DOC);
    for (const p of prompts) expect(page, p.name).toContain(`| \`${p.name}\` | ${(p.arguments ?? []).map((a) => `\`${a.name}\``).join(', ')} |`);
    for (const r of resources.filter((x) => x.uri.startsWith('chain://'))) expect(page, r.uri).toContain(`| \`${r.uri}\` | ${r.mimeType} |`);
  });

  it("manifest.json's prompts are the server's, with the same arguments and descriptions", () => {
    const manifest = JSON.parse(read('manifest.json')) as { prompts: Array<{ name: string; description: string; arguments: string[] }> };
    expect(manifest.prompts.map((p) => ({ name: p.name, description: p.description, args: p.arguments }))).toEqual(
      prompts.map((p) => ({ name: p.name, description: p.description, args: (p.arguments ?? []).map((a) => a.name) })),
    );
  });

  it("manifest.json's long description names the local key, not the keystore user alone, as what signs", () => {
    const manifest = JSON.parse(read('manifest.json')) as { long_description: string };
    expect(manifest.long_description).toContain('chain-mcp key new');
    expect(manifest.long_description).not.toMatch(/allow spending and give a keystore user/);
  });

  it('RESOURCE_INFO and RESOURCE_URIS are every chain:// resource listed, with its title, description and type', () => {
    const listed = resources.filter((r) => r.uri.startsWith('chain://')).map((r) => ({ uri: r.uri, title: r.title, description: r.description, mimeType: r.mimeType }));
    const documented = Object.entries(RESOURCE_INFO).map(([name, r]) => ({ uri: RESOURCE_URIS[name as keyof typeof RESOURCE_URIS], title: r.title, description: r.description, mimeType: r.mimeType }));
    expect(listed).toEqual(documented);
  });

  it('every other resource is a view or the approval card, named with its URI in docs/views.md', () => {
    const others = resources.filter((r) => !r.uri.startsWith('chain://'));
    expect(others.length).toBeGreaterThan(0);
    const page = read('docs/views.md');
    for (const r of others) {
      expect(r.uri, r.name).toMatch(/^ui:\/\/chain-mcp\/[\w-]+\.html$/);
      expect(page, `docs/views.md names ${r.uri}`).toContain(`\`${r.uri}\``);
    }
  });
});

describe("server.json (MCP Registry) is the package's identity", () => {
  it('name, version and the npm package match package.json', () => {
    const pkg = JSON.parse(read('package.json')) as { name: string; version: string; mcpName: string; description: string };
    const server = JSON.parse(read('server.json')) as { name: string; version: string; description: string; packages: Array<{ registryType: string; identifier: string; version: string; transport: { type: string } }> };
    expect(server.name).toBe(pkg.mcpName);
    expect(server.version).toBe(pkg.version);
    expect(server.packages).toHaveLength(1);
    expect(server.packages[0]).toMatchObject({ registryType: 'npm', identifier: pkg.name, version: pkg.version, transport: { type: 'stdio' } });
    // The registry caps the description at 100 characters.
    expect(server.description.length).toBeLessThanOrEqual(100);
  });
});
