import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CATALOGUE } from '../../src/catalogue/index.js';
import { TOOLSETS } from '../../src/core/toolsets.js';
import { loadConfig } from '../../src/config.js';
import { toolListing } from '../../src/registry/listing.js';
import { selectTools } from '../../src/registry/select.js';

const SNAP_DIR = new URL('../__toolsnaps__/', import.meta.url);

/** Catalogue-wide invariants: what every tool must have, whatever family it comes from. */
describe('catalogue invariants', () => {
  it('has unique names of the form the contract fixes', () => {
    const names = CATALOGUE.map((t) => t.name);
    expect(new Set(names).size).toBe(names.length);
    // DESIGN section 1: spec operations are <namespace>_<method>; the assistant toolset uses plain snake_case verbs (`transfer`).
    for (const tool of CATALOGUE) expect(tool.name).toMatch(tool.toolset === 'assistant' ? /^[a-z][a-z0-9_]*$/ : /^[a-z][a-z0-9]*_[A-Za-z0-9_]+$/);
  });

  for (const tool of CATALOGUE) {
    it(`${tool.name}: title, toolset, tier, short description, object schemas`, () => {
      expect(tool.title.length).toBeGreaterThan(2);
      expect(TOOLSETS).toContain(tool.toolset);
      expect(['read', 'wallet', 'spend', 'admin']).toContain(tool.tier);
      expect(tool.description.length, 'description budget').toBeLessThanOrEqual(300);
      expect(tool.description).toMatch(/^[A-Z]/);
      const listing = toolListing(tool);
      expect(listing.inputSchema.type).toBe('object');
      expect(listing.outputSchema.type).toBe('object');
      for (const schema of [listing.inputSchema, listing.outputSchema]) {
        expect(schema).not.toHaveProperty('anyOf');
        expect(schema).not.toHaveProperty('oneOf');
      }
      const props = Object.keys((listing.inputSchema.properties ?? {}) as object);
      expect(props).not.toContain('username');
      expect(props).not.toContain('password');
      for (const hint of ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'] as const) {
        expect(typeof listing.annotations[hint]).toBe('boolean');
      }
      // Wallet tier needs credentials but may only read (xvm_listAddresses); create-address tools write the keystore.
      if (tool.tier === 'wallet') expect(listing.annotations.readOnlyHint).toBe(/^(xvm|platform)_list/.test(tool.name));
      else expect(listing.annotations.readOnlyHint).toBe(tool.tier === 'read');
      if (tool.tier === 'spend' || tool.tier === 'admin') expect(listing.annotations.destructiveHint).toBe(true);
      if (tool.tier === 'spend') expect(props).toContain('confirm');
    });
  }
});

describe('tier and toolset selection', () => {
  const names = (env: Record<string, string>) => selectTools(CATALOGUE, loadConfig(env)).map((t) => t.name);

  it('lists only read tools by default', () => {
    for (const name of names({})) expect(CATALOGUE.find((t) => t.name === name)?.tier).toBe('read');
  });

  it('applies toolsets, the allow-list and the exclude-list, exclude winning', () => {
    expect(names({ CHAIN_MCP_TOOLSETS: 'info' }).every((n) => n.startsWith('info_'))).toBe(true);
    expect(names({ CHAIN_MCP_TOOLS: 'info_getNodeID,info_peers' })).toEqual(['info_getNodeID', 'info_peers']);
    expect(names({ CHAIN_MCP_TOOLS: 'info_getNodeID,info_peers', CHAIN_MCP_EXCLUDE_TOOLS: 'info_peers' })).toEqual(['info_getNodeID']);
  });
});

/**
 * Schema snapshots: every tool's public surface (description, schemas, hints) is a reviewed
 * file in test/__toolsnaps__. Only UPDATE_TOOLSNAPS=1 writes them; in any other run a missing
 * or stale one fails, so a new tool's surface is never compared with itself.
 */
describe('tool snapshots', () => {
  const updating = process.env.UPDATE_TOOLSNAPS === '1';
  for (const tool of CATALOGUE) {
    it(tool.name, () => {
      const file = new URL(`${tool.name}.snap.json`, SNAP_DIR);
      const current = `${JSON.stringify(toolListing(tool), null, 2)}\n`;
      if (updating) {
        mkdirSync(SNAP_DIR, { recursive: true });
        writeFileSync(file, current);
      }
      expect(existsSync(file), `missing snapshot ${tool.name}; run UPDATE_TOOLSNAPS=1 npx vitest run test/unit/catalogue.test.ts`).toBe(true);
      expect(current).toBe(readFileSync(file, 'utf8'));
    });
  }

  it('has no snapshot of a tool that is no longer in the catalogue', () => {
    const names = new Set(CATALOGUE.map((t) => `${t.name}.snap.json`));
    const stale = readdirSync(SNAP_DIR).filter((f) => f.endsWith('.snap.json') && !names.has(f));
    if (updating) for (const f of stale) rmSync(new URL(f, SNAP_DIR));
    else expect(stale, 'stale snapshots; run UPDATE_TOOLSNAPS=1 npx vitest run test/unit/catalogue.test.ts').toEqual([]);
  });
});
