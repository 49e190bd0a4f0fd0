import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CallToolResult, ClientCapabilities } from '@modelcontextprotocol/client';
import type { Browser, Frame, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cb58Encode } from '../../src/codec/cb58.js';
import { CARD_META_KEY, CARD_TOOL, CARD_URI, cardMeta } from '../../src/approval/card.js';
import { splitHead } from '../../src/approval/head.js';
import { type Devnet, startDevnet } from '../../src/devnet/index.js';
import { type AppsHost, HOST_CAPABILITIES, type MountedView, startAppsHost } from '../../tools/views/apps-host.js';
import { launchChromium } from '../../tools/views/host.js';
import { writeKeyFile } from '../../src/signer/keyfile.js';
import { VIEWS } from '../../src/views/views.js';
import { requestsFor, type SpendHarness, spendHarness } from '../helpers/spend-harness.js';
import { inMemoryStack, type Stack } from '../helpers/stack.js';

/**
 * The views and the approval card in an MCP Apps host built like ext-apps' basic-host on its
 * `AppBridge` (tools/views/apps-host.ts): a host page and a sandbox proxy on two loopback origins
 * in headless Chromium, the real server behind an SDK client, and the spec's visibility rules
 * enforced (app-only tools kept from the model; an app calls only tools listed with "app").
 */
const APPS_CAPS = { extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] } } } as unknown as ClientCapabilities;

const rendered = (view: Frame) =>
  view.waitForFunction('document.getElementById("app") && !/Waiting for the result/.test(document.getElementById("app").textContent)', undefined, { timeout: 15_000 });

/** Every element whose content is wider than its box (a clipped column or a page that scrolls sideways). */
const clipped = (view: Frame): Promise<string[]> =>
  view.evaluate(`[document.documentElement, document.body, ...document.querySelectorAll('table, tr, th, td, h1, h2, p, div, li')]
    .filter((e) => e.scrollWidth > e.clientWidth && getComputedStyle(e).display !== 'inline')
    .map((e) => e.tagName + '.' + e.className + ' ' + e.scrollWidth + '>' + e.clientWidth + ' "' + (e.textContent || '').slice(0, 40) + '"')`);

/** validator_lookup's answer for `nodeID` is in, not the "Looking up …" line. */
const answered = (nodeID: string) => new RegExp(`^(?!Looking up)[\\s\\S]*${nodeID}`);

/**
 * What a person sees first on the card or the page, in order: the visible lines of the head, then
 * the fold's summary; folded details are not visible.
 */
const seenFirst = (frame: Frame | Page): Promise<string[]> =>
  frame.evaluate(`[...document.querySelectorAll('#facts li, #facts summary')].filter((e) => e.checkVisibility()).map((e) => e.textContent)`);

/** Realistic previews in the human-first order (intents, the total, warnings, then every detail). */
const PREVIEWS: Array<{ name: string; lines: string[]; first: string[] }> = [
  {
    name: 'a send to a stranger',
    lines: [
      'Send 2 CAM to X-local1nzae…ltwd',
      'Total leaving your key: 2.001 CAM (2 CAM and a fee of 0.001 CAM)',
      'NOT your address: X-local1nzaeq7m5gy4r2c9s0d6lhk8wxa3jfn5vq0ltwd is not one of your key\'s addresses',
      'Network: camino-local (network ID 12345), X-Chain',
      'Input 1: 21.999 CAM from X-local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u (UTXO 2Lq…f9c:0)',
      'Output 1: 2 CAM to X-local1nzaeq7m5gy4r2c9s0d6lhk8wxa3jfn5vq0ltwd',
      'Output 2: 19.998 CAM change to X-local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u (yours)',
      'Fee: 0.001 CAM',
      'Unsigned tx sha256: 9f3c…e2a1',
      'Counted against the limits: 2001000000 smallest units (amount and every fee)',
    ],
    first: ['Send 2 CAM to X-local1nzae…ltwd', 'Total leaving your key: 2.001 CAM (2 CAM and a fee of 0.001 CAM)', "NOT your address: X-local1nzaeq7m5gy4r2c9s0d6lhk8wxa3jfn5vq0ltwd is not one of your key's addresses"],
  },
  {
    name: 'a cross-chain transfer',
    lines: [
      'Move 2 CAM from your X account to your C account (0x63b7…); 1.997754 CAM arrives',
      'Total leaving your key: 2.002246 CAM (2 CAM, the export fee 0.001 CAM and the import fee 0.001246 CAM)',
      'Step 1 of 2: export from the X-Chain to the C-Chain',
      'Input 1: 21.999 CAM from X-local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u',
      'Exported output: 2 CAM to X-local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u (yours), waiting on the C-Chain',
      'Step 2 of 2: import on the C-Chain to 0x63b7…',
      'Arrives: 1.997754 CAM',
      'Unsigned tx sha256 (step 1): 41aa…09bc',
    ],
    first: ['Move 2 CAM from your X account to your C account (0x63b7…); 1.997754 CAM arrives', 'Total leaving your key: 2.002246 CAM (2 CAM, the export fee 0.001 CAM and the import fee 0.001246 CAM)', 'Show every input, output and hash'],
  },
  {
    name: 'a deposit',
    lines: [
      'Deposit 5 CAM for 60 days into the offer "Early staking"; about 0.065753424 CAM reward',
      'Total leaving your key: 0.001 CAM (the fee; the 5 CAM stay yours, deposited)',
      'Lock: 5 CAM deposited until 2027-01-27, not spendable until then',
      'Network: camino-local (network ID 12345), P-Chain',
      'Input 1: 10 CAM from P-local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u',
      'Output 1: 5 CAM deposited (this tx) to P-local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u',
      'Fee: 0.001 CAM',
    ],
    first: ['Deposit 5 CAM for 60 days into the offer "Early staking"; about 0.065753424 CAM reward', 'Total leaving your key: 0.001 CAM (the fee; the 5 CAM stay yours, deposited)', 'Lock: 5 CAM deposited until 2027-01-27, not spendable until then'],
  },
  {
    name: 'a claim',
    lines: [
      'Claim 1.5 CAM of validator rewards to P-local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u (yours)',
      'Total leaving your key: 0.001 CAM (the fee)',
      'Network: camino-local (network ID 12345), P-Chain',
      'Claim 1: validator rewards of P-local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u, 1.5 CAM',
      'Fee: 0.001 CAM',
    ],
    first: ['Claim 1.5 CAM of validator rewards to P-local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u (yours)', 'Total leaving your key: 0.001 CAM (the fee)', 'Show every input, output and hash'],
  },
];

const resultText = (m: MountedView) => (m.result.content as Array<{ text?: string }>).map((c) => c.text ?? '').join(' ');

describe('in an MCP Apps host built on ext-apps AppBridge', () => {
  let browser: Browser;
  let devnet: Devnet;
  beforeAll(async () => {
    // launchChromium throws one line naming what to install when no browser can be had: it fails, never skips.
    browser = await launchChromium();
    devnet = await startDevnet();
    devnet.router.record = true;
  });
  afterAll(async () => {
    await browser?.close();
    await devnet?.close();
  });

  describe('the views', () => {
    let stack: Stack;
    let host: AppsHost;
    beforeAll(async () => {
      stack = await inMemoryStack({ devnet, capabilities: APPS_CAPS });
      host = await startAppsHost(stack.client, browser);
    });
    afterAll(async () => {
      await host?.close();
      await stack?.close();
    });

    it('the host page and its sandbox are two loopback origins', () => {
      expect(host.hostOrigin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(host.sandboxOrigin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(host.sandboxOrigin).not.toBe(host.hostOrigin);
    });

    it('portfolio: the native total first, the P-Chain split with a colour key in words, no field names', async () => {
      const key = devnet.state.users.get('devnet')!.keys[0]!;
      const m = await host.callAndShow('account_overview', { addresses: [key.x, key.p] });
      try {
        await rendered(m.view);
        const s = m.result.structuredContent as { nativeTotal: { display: string }; accounts: Array<{ p?: Record<string, { display: string }> }> };
        const p = s.accounts.find((a) => a.p)!.p!;
        expect(await m.view.locator('.native-total').textContent()).toBe(`Native total: ${s.nativeTotal.display}`);
        const legend = await m.view.locator('.key li').allTextContents();
        expect(legend).toEqual([
          `Free to spend (green): ${p.unlocked!.display}`,
          `Staked (blue): ${p.bonded!.display}`,
          `Deposited, earning interest (purple): ${p.deposited!.display}`,
          `Staked and deposited (amber): ${p.bondedDeposited!.display}`,
        ]);
        const text = (await m.view.locator('#app').textContent())!;
        expect(text).not.toMatch(/bondedDeposited|unlocked |\bbonded\b/);
        expect(text).toContain('Other assets (not the native asset)');
        // Each coloured bar segment has the colour its key names.
        const colours = await m.view.evaluate(`[...document.querySelectorAll('.bar span')].map((s) => getComputedStyle(s).backgroundColor)`);
        const swatches = await m.view.evaluate(`[...document.querySelectorAll('.key .swatch')].map((s) => getComputedStyle(s).backgroundColor)`);
        expect(colours).toEqual(swatches);
        expect(m.violations).toEqual([]);
      } finally {
        await m.close();
      }
    });

    it("validators: each one's stake and delegators, the node ID short with the whole to copy; a lookup goes through the host and sorting keeps it open", async () => {
      const m = await host.callAndShow('platform_getCurrentValidators', {});
      try {
        await rendered(m.view);
        const s = m.result.structuredContent as {
          validators: Array<{ nodeID: string; stakeAmount: { display: string }; delegatorCount: number; delegatedStake: { display: string }; uptime: string }>;
        };
        expect(await m.view.locator('tr[data-node]').count()).toBe(s.validators.length);
        const withDelegators = s.validators.find((v) => v.delegatorCount > 0)!;
        const row = m.view.locator(`tr[data-node="${withDelegators.nodeID}"]`);
        const cells = await row.locator('td').allTextContents();
        expect(cells[1]).toBe(withDelegators.stakeAmount.display);
        expect(cells[2]).toBe(`${withDelegators.delegatorCount}, adding ${withDelegators.delegatedStake.display}`);
        const without = s.validators.find((v) => v.delegatorCount === 0);
        if (without) expect(await m.view.locator(`tr[data-node="${without.nodeID}"] td`).nth(2).textContent()).toBe('none');
        expect(cells[3]).toBe(withDelegators.uptime);
        // Shortened on screen, whole on Copy; the copy click opens nothing.
        const short = (await row.locator('.short-id').textContent())!;
        expect(short.length).toBeLessThan(withDelegators.nodeID.length);
        expect(short).toMatch(/…/);
        await row.locator('button.copy').click();
        expect(await row.locator('input.full-id').inputValue()).toBe(withDelegators.nodeID);
        expect(await m.view.locator('#lookup').count()).toBe(0);

        await row.click();
        await expect.poll(() => m.view.locator('#lookup').textContent(), { timeout: 10_000 }).toMatch(answered(withDelegators.nodeID));
        expect(m.events).toContainEqual({ kind: 'tool-call', name: 'validator_lookup' });
        const opened = (await m.view.locator('#lookup').textContent())!;
        for (const column of ['Uptime', 'Node', 'Delegators']) {
          await m.view.locator('th button', { hasText: column }).click();
          expect(await m.view.locator('th button', { hasText: column }).textContent()).toMatch(/[↑↓]/);
          expect(await m.view.locator('tr[aria-expanded=true]').getAttribute('data-node')).toBe(withDelegators.nodeID);
          expect(await m.view.locator('tr[aria-expanded=true] + tr.detail #lookup').textContent()).toBe(opened);
        }
      } finally {
        await m.close();
      }
    });

    it('deposit offers: which take deposits now, and a locked offer never shows as usable', async () => {
      const m = await host.callAndShow('platform_getAllDepositOffers', {});
      try {
        await rendered(m.view);
        const s = m.result.structuredContent as {
          depositOffers: Array<{ id: string; flags: string; open: boolean; end: { iso: string }; interestRateNominator: string; noRewardsPeriodDuration: { seconds: string } }>;
        };
        const locked = s.depositOffers.filter((o) => (BigInt(o.flags) & 1n) === 1n);
        const open = s.depositOffers.filter((o) => o.open);
        expect(locked.length).toBeGreaterThan(0);
        expect(open.length).toBeGreaterThan(0);
        expect(await m.view.locator('.open-count').textContent()).toBe(`${open.length} of ${s.depositOffers.length} offers ${open.length === 1 ? 'takes' : 'take'} deposits now.`);
        for (const o of locked) {
          const row = m.view.locator(`tr[data-offer="${o.id}"]`);
          expect(await row.getAttribute('class')).toBe('closed');
          expect(await row.locator('.state').textContent()).toBe('Not open: locked: takes no new deposits');
          expect(await row.locator('.reward').textContent()).toBe('— (not open)');
        }
        await m.view.locator('#amount').fill('1000');
        await m.view.locator('#days').fill('365');
        for (const o of open) {
          const row = m.view.locator(`tr[data-offer="${o.id}"]`);
          expect(await row.locator('.state').textContent()).toBe(`Takes deposits now, until ${o.end.iso.slice(0, 10)}`);
          // caminogo deposit.go: reward = amount × nominator × (duration − no-rewards period) / (1,000,000 × 365 days).
          const earning = 365n * 86_400n - BigInt(o.noRewardsPeriodDuration.seconds);
          const reward = (1000n * 1_000_000_000n * BigInt(o.interestRateNominator) * earning) / (1_000_000n * 31_536_000n);
          const frac = (reward % 1_000_000_000n).toString().padStart(9, '0').replace(/0+$/, '');
          expect(await row.locator('.reward').textContent()).toBe(`${(reward / 1_000_000_000n).toLocaleString('en-US')}${frac ? `.${frac}` : ''}`);
        }
        // Open offers are listed first.
        const order = await m.view.locator('tr[data-offer]').evaluateAll((rows) => rows.map((r) => r.getAttribute('class')));
        expect(order.indexOf('closed')).toBeGreaterThan(order.lastIndexOf('usable'));
      } finally {
        await m.close();
      }
    });

    it('transaction: the status first, in words', async () => {
      const txID = [...devnet.state.txs.keys()].find((id) => devnet.state.txs.get(id)?.chain === 'X')!;
      const m = await host.callAndShow('tx_status', { txID });
      try {
        await rendered(m.view);
        const s = m.result.structuredContent as { status: string };
        expect(await m.view.locator('h1').textContent()).toBe(`Transaction: ${s.status}`);
        expect(await m.view.locator('.full-id').count()).toBe(0);
        await m.view.locator('button.copy').click();
        expect(await m.view.locator('input.full-id').inputValue()).toBe(txID);
      } finally {
        await m.close();
      }
    });

    const errors: Array<[string, Record<string, unknown>]> = [
      ['account_overview', { addresses: ['not-an-address'] }],
      ['platform_getCurrentValidators', { limit: 0 }],
      ['validator_lookup', { nodeID: 'NodeID-nope' }],
      ['platform_getAllDepositOffers', { timestamp: 'not a time' }],
      ['tx_status', { txID: 'not-a-tx' }],
    ];
    for (const [tool, args] of errors) {
      it(`${tool}: an error result shows as an error, with its words, never as waiting`, async () => {
        const m = await host.callAndShow(tool, args);
        try {
          expect(m.result.isError).toBe(true);
          await rendered(m.view);
          const alert = m.view.locator('[role=alert]');
          expect(await alert.locator('h1').textContent()).toBe('The tool returned an error');
          expect(await alert.locator('p').textContent()).toBe(resultText(m).trim());
        } finally {
          await m.close();
        }
      });
    }

    for (const width of [390, 900]) {
      it(`no clipped column or sideways scroll at ${width} px in any view`, async () => {
        const key = devnet.state.users.get('devnet')!.keys[0]!;
        const txID = [...devnet.state.txs.keys()].find((id) => devnet.state.txs.get(id)?.chain === 'X')!;
        const calls: Array<[string, Record<string, unknown>]> = [
          ['account_overview', { addresses: [key.x, key.p] }],
          ['platform_getCurrentValidators', {}],
          ['platform_getAllDepositOffers', {}],
          ['tx_status', { txID }],
        ];
        for (const [tool, args] of calls) {
          const m = await host.callAndShow(tool, args, { width });
          try {
            await rendered(m.view);
            // The copy field and an opened lookup are part of what can be on screen.
            if (tool === 'platform_getCurrentValidators') {
              await m.view.locator('button.copy').first().click();
              await m.view.locator('tr[data-node]').first().click();
              const first = (await m.view.locator('tr[data-node]').first().getAttribute('data-node'))!;
              await expect.poll(() => m.view.locator('#lookup').textContent(), { timeout: 10_000 }).toMatch(answered(first));
            }
            expect(await m.view.evaluate('document.documentElement.clientWidth')).toBe(width);
            expect(await clipped(m.view), `${tool} at ${width} px`).toEqual([]);
          } finally {
            await m.close();
          }
        }
      });
    }

    it("the host's theme and CSS variables are followed, and a change of them too", async () => {
      const m = await host.callAndShow('platform_getAllDepositOffers', {}, {
        hostContext: { theme: 'dark', styles: { variables: { '--color-background-primary': 'rgb(1, 2, 3)', '--color-text-primary': 'rgb(250, 240, 230)', '--font-sans': 'monospace' } } },
      });
      try {
        await rendered(m.view);
        const look = () => m.view.evaluate(`[document.documentElement.getAttribute('data-theme'), getComputedStyle(document.body).backgroundColor, getComputedStyle(document.body).color, getComputedStyle(document.body).fontFamily]`);
        expect(await look()).toEqual(['dark', 'rgb(1, 2, 3)', 'rgb(250, 240, 230)', 'monospace']);
        await m.setHostContext({ theme: 'light', styles: { variables: { '--color-background-primary': 'rgb(255, 254, 253)', '--color-text-primary': 'rgb(4, 5, 6)', '--font-sans': 'serif' } } });
        await expect.poll(look).toEqual(['light', 'rgb(255, 254, 253)', 'rgb(4, 5, 6)', 'serif']);
      } finally {
        await m.close();
      }
    });

    it('the host refuses an app call to a tool this server does not list for apps', async () => {
      const m = await host.callAndShow('platform_getAllDepositOffers', {});
      try {
        await rendered(m.view);
        // A raw MCP Apps tools/call from inside the view, through the sandbox to the bridge.
        const answer = await m.view.evaluate(`new Promise((resolve) => {
          addEventListener('message', (ev) => { if (ev.data && ev.data.id === 'probe') resolve(ev.data); });
          parent.postMessage({ jsonrpc: '2.0', id: 'probe', method: 'tools/call', params: { name: '${CARD_TOOL}', arguments: { secret: 'x', decision: 'approve' } } }, '*');
        })`);
        expect((answer as { error?: { message: string } }).error?.message).toContain('not listed with app visibility');
        expect(m.events).toContainEqual({ kind: 'refused', name: CARD_TOOL });
      } finally {
        await m.close();
      }
    });

    it('one validator leads with what a person checks first: its stake, uptime and end', async () => {
      const list = (await stack.client.callTool({ name: 'platform_getCurrentValidators', arguments: {} })).structuredContent as {
        validators: Array<{ nodeID: string; stakeAmount?: { display: string }; uptime?: string; endTime?: { unix: string } }>;
      };
      const v = list.validators.find((x) => x.stakeAmount && x.uptime !== undefined && x.endTime)!;
      const m = await host.callAndShow('validator_lookup', { nodeID: v.nodeID });
      try {
        await rendered(m.view);
        const lead = (await m.view.locator('p.single').textContent())!;
        expect(lead.startsWith(`Stake ${v.stakeAmount!.display} · uptime ${v.uptime} % · ends `)).toBe(true);
        const days = Math.round((Number(v.endTime!.unix) - Date.now() / 1000) / 86_400);
        expect(lead).toMatch(days > 0 ? new RegExp(`\\(in ${days} days?\\)$`) : /\((today|ended)\)$/);
      } finally {
        await m.close();
      }
    });

    it('a node that is not a validator says so plainly, with no empty table', async () => {
      const nodeID = `NodeID-${cb58Encode(new Uint8Array(20).fill(7))}`;
      const m = await host.callAndShow('validator_lookup', { nodeID });
      try {
        expect(m.result.isError, resultText(m)).toBeFalsy();
        expect((m.result.structuredContent as { status: string }).status).toBe('not_found');
        await rendered(m.view);
        expect(await m.view.locator('h1').textContent()).toBe('This node is not a validator');
        expect(await m.view.locator('.lead').textContent()).toBe(`${nodeID} is neither a current nor a pending validator on this network.`);
        expect(await m.view.locator('table').count()).toBe(0);
        expect(await m.view.locator('#app').textContent()).not.toMatch(/not_found|0 validators/);
      } finally {
        await m.close();
      }
    });

    it('an unknown transaction: "Not found on this node", with the chains asked in words', async () => {
      const txID = cb58Encode(new Uint8Array(32).fill(9));
      const m = await host.callAndShow('tx_status', { txID });
      try {
        await rendered(m.view);
        expect(await m.view.locator('h1').textContent()).toBe('Not found on this node');
        const text = (await m.view.locator('#app').textContent())!;
        expect(text).not.toMatch(/unknown-Chain|Unknown on|xvm_getTxStatus|platform_getTxStatus|cx_getAtomicTxStatus/);
        expect(await m.view.locator('li').allTextContents()).toContain('X-Chain: not found');
      } finally {
        await m.close();
      }
    });

    it('every view declares its display modes, answers teardown and names its language', async () => {
      const key = devnet.state.users.get('devnet')!.keys[0]!;
      const txID = [...devnet.state.txs.keys()].find((id) => devnet.state.txs.get(id)?.chain === 'X')!;
      const calls: Array<[string, Record<string, unknown>]> = [
        ['account_overview', { addresses: [key.x] }],
        ['platform_getCurrentValidators', {}],
        ['platform_getAllDepositOffers', {}],
        ['tx_status', { txID }],
      ];
      expect(calls.map(([t]) => VIEWS.find((v) => v.tools.includes(t))!.uri).sort()).toEqual(VIEWS.map((v) => v.uri).sort());
      for (const [tool, args] of calls) {
        const m = await host.callAndShow(tool, args);
        try {
          await rendered(m.view);
          expect(await m.appCapabilities(), tool).toMatchObject({ availableDisplayModes: ['inline'] });
          expect(await m.view.evaluate('document.documentElement.lang'), tool).toBe('en');
          expect(await m.teardown(), tool).toEqual({ result: {} });
        } finally {
          await m.close();
        }
      }
    });
  });

  describe('the approval card', () => {
    let h: SpendHarness;
    let host: AppsHost;
    let to: string;
    const sends = () => requestsFor(devnet, 'xvm.send');
    const args = () => ({ amount: '1000000000', assetID: 'CAM', to });
    beforeAll(async () => {
      to = devnet.state.users.get('alice')!.keys[1]!.x;
      h = await spendHarness(devnet, { capabilities: APPS_CAPS, env: { CHAIN_MCP_APPROVAL_WAIT_MS: '0', CHAIN_MCP_APPROVAL_LINK: 'plain' } });
      host = await startAppsHost(h.client, browser);
    });
    afterAll(async () => {
      await host?.close();
      await h?.close();
    });

    async function card(opts?: Parameters<AppsHost['callAndShow']>[2]) {
      const m = await host.callAndShow('xvm_send', args(), opts);
      await m.view.locator('#approve').waitFor({ state: 'visible', timeout: 15_000 });
      const secret = (m.result._meta as Record<string, { secret: string }>)[CARD_META_KEY]!.secret;
      return { m, id: (m.result.structuredContent as { confirmationId: string }).confirmationId, secret };
    }

    it('approval_decide is listed with visibility ["app"], tiny, and the model never gets it', async () => {
      const { tools } = await h.client.listTools();
      const decide = tools.find((t) => t.name === CARD_TOOL)!;
      expect(decide._meta).toEqual({ ui: { visibility: ['app'] } });
      expect(Buffer.byteLength(JSON.stringify(decide))).toBeLessThan(300);
      expect((await host.modelTools()).map((t) => t.name)).not.toContain(CARD_TOOL);
      expect((await host.modelTools()).map((t) => t.name)).toContain('xvm_send');
      await expect(host.callAndShow(CARD_TOOL, { secret: 'x', decision: 'approve' })).rejects.toThrow('The model has no tool');
    });

    it('Approve through the host decides it, tells the model (context and a message), and the confirm then sends once', async () => {
      const { m, id, secret } = await card();
      try {
        const before = sends();
        await m.view.locator('#approve').click();
        await expect.poll(() => m.view.locator('#status').textContent(), { timeout: 10_000 }).toContain('Approved');
        await expect.poll(() => m.events.filter((e) => e.kind === 'message').length, { timeout: 10_000 }).toBe(1);
        expect(m.events.map((e) => e.kind)).toEqual(['tool-call', 'model-context', 'message']);
        const context = m.events[1] as Extract<(typeof m.events)[number], { kind: 'model-context' }>;
        expect(context.params.content?.[0]?.text).toMatch(/^The person approved on the approval card: .+\. Send it now/);
        const message = m.events[2] as Extract<(typeof m.events)[number], { kind: 'message' }>;
        expect(message.params).toEqual({ role: 'user', content: [{ type: 'text', text: 'I approved the spend on the card; please send it.' }] });
        expect(JSON.stringify(m.events)).not.toContain(secret);
        expect(sends()).toBe(before);
        const sent = await h.call('xvm_send', { ...args(), confirm: id });
        expect(sent.structured?.status, sent.text).toBe('issued');
        expect(sends()).toBe(before + 1);
        expect(m.violations).toEqual([]);
      } finally {
        await m.close();
      }
    });

    it('Decline through the host sends nothing and tells the model it was declined', async () => {
      const { m, id } = await card();
      try {
        const before = sends();
        await m.view.locator('#decline').click();
        await expect.poll(() => m.view.locator('#status').textContent(), { timeout: 10_000 }).toContain('Declined');
        await expect.poll(() => m.events.filter((e) => e.kind === 'message').length, { timeout: 10_000 }).toBe(1);
        const context = m.events.find((e) => e.kind === 'model-context') as Extract<(typeof m.events)[number], { kind: 'model-context' }>;
        expect(context.params.content?.[0]?.text).toMatch(/^The person declined on the approval card: .+\. Nothing will be sent/);
        expect((await h.call('xvm_send', { ...args(), confirm: id })).structured?.status).toBe('declined');
        expect(sends()).toBe(before);
      } finally {
        await m.close();
      }
    });

    it('a host that takes neither model context nor messages gets neither; the decision still holds', async () => {
      const { serverTools, serverResources } = HOST_CAPABILITIES;
      const { m, id } = await card({ capabilities: { serverTools, serverResources } });
      try {
        await m.view.locator('#approve').click();
        // Nothing reaches the assistant from the card here: the person is asked to tell it.
        await expect.poll(() => m.view.locator('#status').textContent(), { timeout: 10_000 }).toBe('Approved. Now tell the assistant to continue: it sends this exact transaction once.');
        expect(m.events.map((e) => e.kind)).toEqual(['tool-call']);
        expect((await h.call('xvm_send', { ...args(), confirm: id })).structured?.status).toBe('issued');
      } finally {
        await m.close();
      }
    });

    it("the card follows the host's theme and variables", async () => {
      const { m } = await card({ hostContext: { theme: 'dark', styles: { variables: { '--color-background-primary': 'rgb(7, 8, 9)', '--color-text-primary': 'rgb(200, 201, 202)' } } } });
      try {
        const look = () => m.view.evaluate(`[document.documentElement.getAttribute('data-theme'), getComputedStyle(document.body).backgroundColor, getComputedStyle(document.body).color]`);
        expect(await look()).toEqual(['dark', 'rgb(7, 8, 9)', 'rgb(200, 201, 202)']);
        await m.setHostContext({ theme: 'light' });
        await expect.poll(() => m.view.evaluate(`document.documentElement.getAttribute('data-theme')`)).toBe('light');
        await m.view.locator('#decline').click();
        await expect.poll(() => m.view.locator('#status').textContent(), { timeout: 10_000 }).toContain('Declined');
      } finally {
        await m.close();
      }
    });

    it('the card declares its display modes, answers teardown and names its language', async () => {
      const { m } = await card();
      try {
        expect(await m.appCapabilities()).toMatchObject({ availableDisplayModes: ['inline'] });
        expect(await m.view.evaluate('document.documentElement.lang')).toBe('en');
        expect(await m.teardown()).toEqual({ result: {} });
      } finally {
        await m.close();
      }
    });

    it('a refused preview shows as an error on the card, with no buttons', async () => {
      const m = await host.callAndShow('xvm_send', { amount: '1000000000', assetID: 'CAM', to: 'X-nowhere' });
      try {
        expect(m.result.isError).toBe(true);
        await expect.poll(() => m.view.locator('#status').textContent(), { timeout: 15_000 }).toBe(resultText(m).trim());
        expect(await m.view.locator('#title').textContent()).toBe('Nothing to approve');
        expect(await m.view.locator('#status').getAttribute('class')).toBe('error');
        expect(await m.view.locator('#buttons').isHidden()).toBe(true);
      } finally {
        await m.close();
      }
    });
  });

  describe('the approval, human first, under the local signer', () => {
    const PASSPHRASE = 'correct horse battery staple 32';
    let dir: string;
    let h: SpendHarness;
    let host: AppsHost;
    let locked: SpendHarness;
    let lockedHost: AppsHost;
    // Camino's own methods (deposit offers, claimables) for the deposit and the claim.
    let devnet: Devnet;
    const alice = () => devnet.state.users.get('alice')!.keys[1]!.x;
    beforeAll(async () => {
      devnet = await startDevnet({ dialect: 'camino' });
      dir = mkdtempSync(join(tmpdir(), 'chain-mcp-apps-'));
      await writeKeyFile(join(dir, 'key.json'), devnet.localKey.privateKey, PASSPHRASE, { N: 2 ** 12, r: 8, p: 1 });
      writeFileSync(join(dir, 'passphrase'), `${PASSPHRASE}\n`, { mode: 0o600 });
      const env = { CHAIN_MCP_SIGNER: 'local', CHAIN_MCP_KEY_FILE: join(dir, 'key.json'), CHAIN_MCP_APPROVAL_WAIT_MS: '0' };
      h = await spendHarness(devnet, { capabilities: APPS_CAPS, env: { ...env, CHAIN_MCP_KEY_PASSPHRASE_FILE: join(dir, 'passphrase') } });
      host = await startAppsHost(h.client, browser);
      // No passphrase file: the key stays locked until the human types it on the unlock page.
      locked = await spendHarness(devnet, { capabilities: APPS_CAPS, env });
      lockedHost = await startAppsHost(locked.client, browser);
    });
    afterAll(async () => {
      await host?.close();
      await h?.close();
      await lockedHost?.close();
      await locked?.close();
      await devnet?.close();
      if (dir) rmSync(dir, { recursive: true, force: true });
    });

    /** The approval page of an approval, in its own browser page. */
    async function approvalPageOf(nonce: string): Promise<Page> {
      const approval = (await h.services.approvals.get(nonce))!;
      const page = await browser.newPage({ viewport: { width: 390, height: 800 } });
      await page.goto(await h.services.approvalPages.url(approval));
      return page;
    }

    /** The expiry as the viewer's clock shows it, computed in that browser from the ISO time. */
    const expiryIn = (frame: Frame | Page, iso: string) =>
      frame.evaluate(`'xpires ' + new Date(${JSON.stringify(iso)}).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' }) + ' (in '`);

    for (const preview of PREVIEWS) {
      it(`${preview.name}: the card and the page lead with the intent, the total and any warning; the rest is folded`, async () => {
        const nonce = `fixture-${Math.random().toString(36).slice(2)}`;
        const approval = await h.services.approvals.open(nonce, { tool: 'xvm_send', title: 'Send', lines: preview.lines }, Date.now() + 4.5 * 60_000);
        const result: CallToolResult = { content: [{ type: 'text', text: 'PREVIEW, nothing sent' }], structuredContent: { status: 'preview' }, _meta: await cardMeta(h.services.cardSecrets, approval) };
        const m = await host.show(CARD_URI, result, { width: 390 });
        const page = await approvalPageOf(nonce);
        try {
          await m.view.locator('#approve').waitFor({ state: 'visible', timeout: 15_000 });
          const head = splitHead(preview.lines).head;
          for (const [surface, frame] of [['card', m.view], ['page', page]] as const) {
            const seen = await seenFirst(frame);
            expect(seen.slice(0, 3), surface).toEqual(preview.first);
            // Only the head and the fold's summary are on screen; every line is there, the details folded.
            expect(seen, surface).toEqual([...head, 'Show every input, output and hash']);
            expect(await frame.locator('#facts li').allTextContents(), surface).toEqual(preview.lines);
            expect(await frame.evaluate("getComputedStyle(document.querySelector('#head li.total')).fontWeight"), surface).toBe('700');
            expect(await frame.locator('#head li.warn').allTextContents(), surface).toEqual(head.filter((l) => /^(NOT your address|Lock|Shared|Contract call):/.test(l)));
            await frame.locator('#more summary').click();
            expect((await seenFirst(frame)).length, surface).toBe(preview.lines.length + 1);
            // "expires 14:32 (in 4 min)" in the viewer's clock, not the raw ISO time.
            const expires = (await frame.locator('#expires').textContent())!;
            expect(expires, surface).toContain(await expiryIn(frame, new Date(approval.expiresAt).toISOString()));
            expect(expires, surface).toMatch(/xpires \d\d:\d\d(\s?[AP]M)? \(in [45] min\)/);
            expect(expires, surface).not.toMatch(/T\d\d:\d\d/);
            expect(await clipped(frame as Frame), surface).toEqual([]);
          }
        } finally {
          await page.close();
          await m.close();
        }
      });
    }

    const real: Array<[string, string, () => Record<string, unknown>]> = [
      ['a send', 'xvm_send', () => ({ amount: '1 CAM', assetID: 'CAM', to: alice() })],
      ['a cross-chain transfer', 'transfer', () => ({ to: `C-${devnet.localKey.x.slice(2)}`, amount: '1 CAM' })],
      ['a deposit', 'platform_deposit', () => ({ offerID: devnet.state.depositOffers[0]!.id, amount: '5 CAM', duration: 60 * 86_400 })],
      ['a claim', 'platform_claim', () => ({ claims: [{ kind: 'validator', owner: devnet.localKey.p, amount: '1' }], to: devnet.localKey.p })],
    ];
    for (const [name, tool, args] of real) {
      it(`${name} previewed from its bytes: the card and the page show the same head first, the details folded`, async () => {
        const m = await host.callAndShow(tool, args(), { width: 390 });
        let page: Page | undefined;
        try {
          expect(m.result.isError, resultText(m)).toBeFalsy();
          await m.view.locator('#approve').waitFor({ state: 'visible', timeout: 15_000 });
          const { lines, headLines } = (m.result._meta as Record<string, { lines: string[]; headLines: number }>)[CARD_META_KEY]!;
          const { head, details } = splitHead(lines);
          expect(headLines).toBe(head.length);
          expect(details.length).toBeGreaterThan(0);
          page = await approvalPageOf((m.result.structuredContent as { confirmationId: string }).confirmationId.split('.')[0]!);
          for (const [surface, frame] of [['card', m.view], ['page', page]] as const) {
            expect(await seenFirst(frame), surface).toEqual([...head, 'Show every input, output and hash']);
            expect(await frame.locator('#facts li').allTextContents(), surface).toEqual(lines);
          }
        } finally {
          await page?.close();
          await m.close();
        }
      });
    }

    it('the portfolio leads with what can be claimed now and the next unlock', async () => {
      const m = await host.callAndShow('account_overview', { addresses: [devnet.localKey.x, devnet.localKey.p] });
      try {
        await rendered(m.view);
        const s = m.result.structuredContent as { accounts: Array<{ claimable?: { total: { display: string; value: string } }; locks?: Array<{ reason: string; amount: { display: string }; until?: { iso: string; unix: string } }> }> };
        const acc = s.accounts.find((a) => a.claimable)!;
        expect(BigInt(acc.claimable!.total.value)).toBeGreaterThan(0n);
        const now = Date.now() / 1000;
        const next = acc.locks!.filter((l) => l.until && Number(l.until.unix) > now).sort((a, b) => Number(a.until!.unix) - Number(b.until!.unix))[0]!;
        const leads = await m.view.locator('#app > *').allTextContents();
        expect(leads[1]).toBe(`Claimable now: ${acc.claimable!.total.display}`);
        expect(leads[2]).toMatch(new RegExp(`^Next unlock: ${next.amount.display.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} \\(${next.reason}\\) on ${next.until!.iso.slice(0, 10)}, (today|in \\d+ days?)$`));
      } finally {
        await m.close();
      }
    });

    it('a locked key: the card says so, shows no model text, says where the unlock page is, and carries no unlock address (the model reads the result too)', async () => {
      const m = await lockedHost.callAndShow('xvm_send', { amount: '1 CAM', assetID: 'CAM', to: alice() }, { width: 390 });
      try {
        await expect.poll(() => m.view.locator('#title').textContent(), { timeout: 15_000 }).toBe('Your signing key is locked');
        const url = (await locked.services.approvalPages.unlockUrl())!;
        const text = (await m.view.locator('body').textContent())!;
        expect(text).not.toContain('PREVIEW, nothing sent');
        expect(text).toContain('Open the unlock page: chain-mcp writes its address in its log');
        expect(text).toContain('Then tell the assistant to continue');
        expect(text).not.toContain(url);
        expect(JSON.stringify(m.result)).not.toContain('/unlock/');
        expect(await m.view.locator('#buttons').isHidden()).toBe(true);
        expect(await clipped(m.view)).toEqual([]);
      } finally {
        await m.close();
      }
    });
  });
});
