import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hostView, launchChromium } from '../../tools/views/host.js';
import { inMemoryStack, type Stack } from '../helpers/stack.js';

/** A host that renders MCP Apps views (advertises the ui extension with the MCP App MIME type). */
const APPS_HOST = { extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] } } } as const;

/**
 * Each view, loaded by a test host in a headless Chromium with a result the real tool
 * returned from the devnet, shows the numbers the tool returned.
 */
describe('MCP Apps views', () => {
  let stack: Stack;
  let browser: Browser;
  beforeAll(async () => {
    // launchChromium throws one line naming what to install when no browser can be had: it fails, never skips.
    stack = await inMemoryStack({ capabilities: APPS_HOST as never });
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await stack?.close();
  });

  async function viewOf(tool: string): Promise<string> {
    const { tools } = await stack.client.listTools();
    const uri = (tools.find((t) => t.name === tool)?._meta as { ui?: { resourceUri?: string } } | undefined)?.ui?.resourceUri;
    expect(uri, `${tool} names no view`).toMatch(/^ui:\/\/chain-mcp\//);
    const res = await stack.client.readResource({ uri: uri! });
    return String((res.contents[0] as { text: string }).text);
  }

  async function result(tool: string, args: Record<string, unknown>) {
    return stack.client.callTool({ name: tool, arguments: args });
  }

  it('portfolio: per-chain parts, native total, other assets apart', async () => {
    const key = stack.devnet.state.users.get('devnet')!.keys[0]!;
    const r = await result('account_overview', { addresses: [key.x, key.p] });
    const s = r.structuredContent as { nativeTotal: { display: string }; accounts: Array<{ p?: { total: { display: string } } }> };
    const { frame, violations } = await hostView(browser, await viewOf('account_overview'), r);
    const text = await frame.locator('#app').textContent();
    expect(text).toContain(`Native total: ${s.nativeTotal.display}`);
    const pTotal = s.accounts.find((a) => a.p)?.p?.total.display;
    if (pTotal) expect(text).toContain(`P-Chain: ${pTotal}`);
    expect(text).toContain('Other assets (not the native asset)');
    expect(text).toContain('"GLD"');
    expect(violations).toEqual([]);
  });

  it('validators: one row each with stake, delegators, uptime and fee, sortable, a click asks for validator_lookup', async () => {
    const r = await result('platform_getCurrentValidators', {});
    const s = r.structuredContent as { validators: Array<{ nodeID: string; uptime?: string; delegationFee?: string; stakeAmount?: { display: string } }> };
    const asked: string[] = [];
    const { frame } = await hostView(browser, await viewOf('platform_getCurrentValidators'), r, {
      callTool: async (name, args) => {
        asked.push(`${name} ${String(args.nodeID)}`);
        return stack.client.callTool({ name, arguments: args });
      },
    });
    expect(await frame.locator('tr[data-node]').count()).toBe(s.validators.length);
    const first = s.validators[0]!;
    const row = frame.locator(`tr[data-node="${first.nodeID}"]`);
    if (first.uptime) expect(await row.textContent()).toContain(first.uptime);
    if (first.stakeAmount) expect(await row.textContent()).toContain(first.stakeAmount.display);
    await frame.locator('th button', { hasText: 'Uptime' }).click();
    expect(await frame.locator('th button', { hasText: 'Uptime' }).textContent()).toMatch(/↓/);
    await row.click();
    await expect.poll(() => asked.length).toBe(1);
    expect(asked[0]).toBe(`validator_lookup ${first.nodeID}`);
    await expect.poll(() => frame.locator('#lookup').textContent()).toContain(first.nodeID);
  });

  it('deposit offers: rate, window, minimum, and the reward for a typed amount and duration, computed from the rate and the no-reward period', async () => {
    const r = await result('platform_getAllDepositOffers', {});
    const offers = (
      r.structuredContent as {
        depositOffers: Array<{ id: string; open: boolean; interestRatePercent: string; interestRateNominator: string; noRewardsPeriodDuration: { seconds: string } }>;
      }
    ).depositOffers;
    const { frame } = await hostView(browser, await viewOf('platform_getAllDepositOffers'), r);
    const text = await frame.locator('#app').textContent();
    for (const o of offers) expect(text).toContain(`${o.interestRatePercent} %`);
    await frame.locator('#amount').fill('1000');
    await frame.locator('#days').fill('365');
    for (const o of offers) {
      const shown = await frame.locator(`tr[data-offer="${o.id}"] td.reward`).textContent();
      if (!o.open) {
        expect(shown).toBe('— (not open)');
        continue;
      }
      // 1,000 for a year at nominator N / 1,000,000, less the days that earn nothing.
      const earning = 31_536_000n - BigInt(o.noRewardsPeriodDuration.seconds);
      const expected = (1000n * 1_000_000_000n * BigInt(o.interestRateNominator) * earning) / (1_000_000n * 31_536_000n);
      expect(shown).toMatch(new RegExp(`^${(expected / 1_000_000_000n).toLocaleString('en-US')}(\\.|\\s|$)`));
    }
    expect(text).toContain('Reward = amount × yearly rate × (days − days without reward) ÷ 365');
  });

  it('transaction: a status timeline', async () => {
    const txID = [...stack.devnet.state.txs.keys()].find((id) => stack.devnet.state.txs.get(id)?.chain === 'X')!;
    const r = await result('tx_status', { txID });
    const s = r.structuredContent as { status: string };
    const { frame } = await hostView(browser, await viewOf('tx_status'), r, { theme: 'dark' });
    expect(await frame.locator('.status').textContent()).toContain(`Status: ${s.status}`);
    expect(await frame.locator('li.now').textContent()).toContain(s.status === 'Accepted' ? 'Accepted' : s.status);
  });

  it('hosts without MCP Apps see the same tool list as before: no _meta', async () => {
    const plain = await inMemoryStack();
    try {
      expect((await plain.client.listTools()).tools.some((t) => t._meta !== undefined)).toBe(false);
    } finally {
      await plain.close();
    }
  });
});
