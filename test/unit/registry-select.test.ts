import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool, type Tier, type ToolDef, type Toolset } from '../../src/core/tool.js';
import { type Config, loadConfig } from '../../src/config.js';
import { selectTools, serviceConfigured, tierEnabled, whyHidden } from '../../src/registry/select.js';

/** src/registry/select.ts: which catalogue tools a configuration lists, and why the others are not. */

const tool = (name: string, tier: Tier, toolset: Toolset): ToolDef =>
  defineTool({ name, title: name, description: 'Test tool.', tier, toolset, input: z.object({}), output: z.object({}), summarize: () => '' });

const KEYSTORE = { CHAIN_MCP_KEYSTORE_USER: 'user', CHAIN_MCP_KEYSTORE_PASSWORD: 'pass-word' };
const config = (env: Record<string, string> = {}): Config => loadConfig({ CHAIN_MCP_NODE_URL: 'http://127.0.0.1:9', ...env });
const names = (tools: readonly ToolDef[]) => tools.map((t) => t.name);

const TIERS: Tier[] = ['read', 'wallet', 'spend', 'admin'];
const FLAG_SETS = [false, true].flatMap((keystore) =>
  [false, true].flatMap((allowSpend) => [false, true].map((allowAdmin) => ({ keystore, allowSpend, allowAdmin }))),
);
const envOf = ({ keystore, allowSpend, allowAdmin }: (typeof FLAG_SETS)[number]) => ({
  ...(keystore ? KEYSTORE : {}),
  CHAIN_MCP_ALLOW_SPEND: String(allowSpend),
  CHAIN_MCP_ALLOW_ADMIN: String(allowAdmin),
});
const expectedTier = (tier: Tier, f: (typeof FLAG_SETS)[number]): boolean =>
  ({ read: true, wallet: f.keystore, spend: f.allowSpend && f.keystore, admin: f.allowAdmin })[tier];

describe('tierEnabled: every tier under every keystore / allowSpend / allowAdmin combination', () => {
  for (const tier of TIERS) {
    for (const flags of FLAG_SETS) {
      const want = expectedTier(tier, flags);
      it(`${tier} with keystore=${flags.keystore} allowSpend=${flags.allowSpend} allowAdmin=${flags.allowAdmin} is ${want ? 'enabled' : 'off'}`, () => {
        expect(tierEnabled(tool('x_t', tier, 'info'), config(envOf(flags)))).toBe(want);
      });
    }
  }
});

describe('serviceConfigured: indexer and runner tools need their own URL', () => {
  const indexerTool = tool('indexer_t', 'read', 'indexer');
  const runnerTool = tool('runner_t', 'admin', 'runner');
  const infoTool = tool('info_t', 'read', 'info');
  const INDEXER = { CHAIN_MCP_INDEXER_URL: 'http://127.0.0.1:8' };
  const RUNNER = { CHAIN_MCP_RUNNER_URL: 'http://127.0.0.1:7' };

  it('an indexer tool is configured only when CHAIN_MCP_INDEXER_URL is set (the runner URL does not count)', () => {
    expect(serviceConfigured(indexerTool, config())).toBe(false);
    expect(serviceConfigured(indexerTool, config(RUNNER))).toBe(false);
    expect(serviceConfigured(indexerTool, config(INDEXER))).toBe(true);
  });

  it('a runner tool is configured only when CHAIN_MCP_RUNNER_URL is set (the indexer URL does not count)', () => {
    expect(serviceConfigured(runnerTool, config())).toBe(false);
    expect(serviceConfigured(runnerTool, config(INDEXER))).toBe(false);
    expect(serviceConfigured(runnerTool, config(RUNNER))).toBe(true);
  });

  it('a tool of any other toolset needs no service URL', () => {
    expect(serviceConfigured(infoTool, config())).toBe(true);
  });
});

describe('selectTools: tiers, services, toolsets, the allow-list, and the exclude-list', () => {
  const catalogue = [
    tool('info_read', 'read', 'info'),
    tool('xvm_wallet', 'wallet', 'xvm'),
    tool('xvm_spend', 'spend', 'xvm'),
    tool('admin_op', 'admin', 'admin'),
    tool('indexer_read', 'read', 'indexer'),
    tool('runner_op', 'admin', 'runner'),
    tool('platform_read', 'read', 'platform'),
  ];
  const EVERYTHING = {
    ...KEYSTORE,
    CHAIN_MCP_ALLOW_SPEND: 'true',
    CHAIN_MCP_ALLOW_ADMIN: 'true',
    CHAIN_MCP_INDEXER_URL: 'http://127.0.0.1:8',
    CHAIN_MCP_RUNNER_URL: 'http://127.0.0.1:7',
  };

  it('lists only the read tools without a service URL by default', () => {
    expect(names(selectTools(catalogue, config()))).toEqual(['info_read', 'platform_read']);
  });

  it('lists every tool, in catalogue order, when every flag and URL is set', () => {
    expect(names(selectTools(catalogue, config(EVERYTHING)))).toEqual(names(catalogue));
  });

  it('adds the wallet tier with a keystore, and the spend tier only with CHAIN_MCP_ALLOW_SPEND too', () => {
    expect(names(selectTools(catalogue, config(KEYSTORE)))).toEqual(['info_read', 'xvm_wallet', 'platform_read']);
    expect(names(selectTools(catalogue, config({ CHAIN_MCP_ALLOW_SPEND: 'true' })))).toEqual(['info_read', 'platform_read']);
    expect(names(selectTools(catalogue, config({ ...KEYSTORE, CHAIN_MCP_ALLOW_SPEND: 'true' })))).toEqual([
      'info_read',
      'xvm_wallet',
      'xvm_spend',
      'platform_read',
    ]);
  });

  it('adds admin tools with CHAIN_MCP_ALLOW_ADMIN, the runner ones only when the runner URL is set', () => {
    expect(names(selectTools(catalogue, config({ CHAIN_MCP_ALLOW_ADMIN: 'true' })))).toEqual(['info_read', 'admin_op', 'platform_read']);
    expect(names(selectTools(catalogue, config({ CHAIN_MCP_ALLOW_ADMIN: 'true', CHAIN_MCP_RUNNER_URL: 'http://127.0.0.1:7' })))).toEqual([
      'info_read',
      'admin_op',
      'runner_op',
      'platform_read',
    ]);
  });

  it('adds indexer tools when CHAIN_MCP_INDEXER_URL is set', () => {
    expect(names(selectTools(catalogue, config({ CHAIN_MCP_INDEXER_URL: 'http://127.0.0.1:8' })))).toEqual([
      'info_read',
      'indexer_read',
      'platform_read',
    ]);
  });

  it('keeps only the toolsets named in CHAIN_MCP_TOOLSETS', () => {
    expect(names(selectTools(catalogue, config({ ...EVERYTHING, CHAIN_MCP_TOOLSETS: 'xvm,platform' })))).toEqual([
      'xvm_wallet',
      'xvm_spend',
      'platform_read',
    ]);
  });

  it('keeps only the names in CHAIN_MCP_TOOLS, and only those the tiers allow', () => {
    expect(names(selectTools(catalogue, config({ CHAIN_MCP_TOOLS: 'platform_read,xvm_spend,admin_op' })))).toEqual(['platform_read']);
    expect(names(selectTools(catalogue, config({ ...EVERYTHING, CHAIN_MCP_TOOLS: 'platform_read,xvm_spend,admin_op' })))).toEqual([
      'xvm_spend',
      'admin_op',
      'platform_read',
    ]);
  });

  it('drops the names in CHAIN_MCP_EXCLUDE_TOOLS even when CHAIN_MCP_TOOLS names them', () => {
    expect(names(selectTools(catalogue, config({ CHAIN_MCP_EXCLUDE_TOOLS: 'info_read' })))).toEqual(['platform_read']);
    expect(
      names(selectTools(catalogue, config({ ...EVERYTHING, CHAIN_MCP_TOOLS: 'info_read,xvm_spend', CHAIN_MCP_EXCLUDE_TOOLS: 'xvm_spend' }))),
    ).toEqual(['info_read']);
  });
});

describe('whyHidden: one sentence per reason, in order of precedence', () => {
  const SENTENCES = {
    excluded: 'it is in CHAIN_MCP_EXCLUDE_TOOLS',
    wallet: 'it needs CHAIN_MCP_KEYSTORE_USER and CHAIN_MCP_KEYSTORE_PASSWORD',
    spend: 'spending is off (CHAIN_MCP_ALLOW_SPEND=true and a signer, the local key or the keystore user, enable it)',
    admin: 'the admin tier is off (CHAIN_MCP_ALLOW_ADMIN=true enables it)',
    indexer: 'CHAIN_MCP_INDEXER_URL is not set',
    runner: 'CHAIN_MCP_RUNNER_URL is not set',
    notAllowed: 'it is not in CHAIN_MCP_TOOLS',
  };

  it('names the exclude-list first, even for a tool whose tier, service and toolset are all off', () => {
    const hidden = tool('runner_op', 'admin', 'runner');
    expect(whyHidden(hidden, config({ CHAIN_MCP_EXCLUDE_TOOLS: 'runner_op', CHAIN_MCP_TOOLSETS: 'info', CHAIN_MCP_TOOLS: 'other' }))).toBe(
      SENTENCES.excluded,
    );
  });

  it('names the missing keystore for a wallet tool', () => {
    expect(whyHidden(tool('xvm_wallet', 'wallet', 'xvm'), config())).toBe(SENTENCES.wallet);
  });

  it('names the spend switch for a spend tool, with or without the keystore', () => {
    expect(whyHidden(tool('xvm_spend', 'spend', 'xvm'), config())).toBe(SENTENCES.spend);
    expect(whyHidden(tool('xvm_spend', 'spend', 'xvm'), config(KEYSTORE))).toBe(SENTENCES.spend);
    expect(whyHidden(tool('xvm_spend', 'spend', 'xvm'), config({ CHAIN_MCP_ALLOW_SPEND: 'true' }))).toBe(SENTENCES.spend);
  });

  it('names the admin switch for an admin tool, before its missing runner URL', () => {
    expect(whyHidden(tool('admin_op', 'admin', 'admin'), config())).toBe(SENTENCES.admin);
    expect(whyHidden(tool('runner_op', 'admin', 'runner'), config())).toBe(SENTENCES.admin);
  });

  it('names the missing service URL once the tier is on, before the toolset', () => {
    expect(whyHidden(tool('indexer_read', 'read', 'indexer'), config({ CHAIN_MCP_TOOLSETS: 'info' }))).toBe(SENTENCES.indexer);
    expect(whyHidden(tool('runner_op', 'admin', 'runner'), config({ CHAIN_MCP_ALLOW_ADMIN: 'true', CHAIN_MCP_TOOLSETS: 'info' }))).toBe(
      SENTENCES.runner,
    );
  });

  it('names the toolset missing from CHAIN_MCP_TOOLSETS, before the allow-list', () => {
    expect(whyHidden(tool('platform_read', 'read', 'platform'), config({ CHAIN_MCP_TOOLSETS: 'info', CHAIN_MCP_TOOLS: 'other' }))).toBe(
      'the platform toolset is not in CHAIN_MCP_TOOLSETS',
    );
    expect(
      whyHidden(tool('indexer_read', 'read', 'indexer'), config({ CHAIN_MCP_INDEXER_URL: 'http://127.0.0.1:8', CHAIN_MCP_TOOLSETS: 'info' })),
    ).toBe('the indexer toolset is not in CHAIN_MCP_TOOLSETS');
  });

  it('falls back to the allow-list when nothing else hides the tool', () => {
    expect(whyHidden(tool('info_read', 'read', 'info'), config({ CHAIN_MCP_TOOLS: 'other' }))).toBe(SENTENCES.notAllowed);
    expect(whyHidden(tool('xvm_spend', 'spend', 'xvm'), config({ ...KEYSTORE, CHAIN_MCP_ALLOW_SPEND: 'true', CHAIN_MCP_TOOLS: 'x' }))).toBe(
      SENTENCES.notAllowed,
    );
  });
});
