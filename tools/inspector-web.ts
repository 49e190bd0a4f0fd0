/**
 * The web half of `npm run inspector-check -- --web`: MCP Inspector's web UI driven in headless
 * Chromium as a person would: switch a server on, read the protocol version it shows, open the
 * Apps tab, open each of the four views with its tool's arguments (the inspector calls the tool
 * and renders the `ui://` resource in its sandbox), then click a validator row, which makes the
 * view ask the host to run `validator_lookup`. With spends on: the approval card, and a whole spend
 * from the Tools tab through the inspector's elicitation and the approval page. Every wait is bounded.
 */
import { join } from 'node:path';
import type { Frame, Page } from 'playwright-core';
import { launchChromium } from './views/host.js';

const STEP_MS = 30_000;

type Check = (name: string, body: () => Promise<string>) => Promise<void>;

/** One view as the Apps tab lists it (the tool's title), the arguments typed, what its heading must read. */
export interface WebView {
  file: string;
  app: string;
  args?: Record<string, unknown>;
  heading: RegExp;
}

/**
 * The view's document: the innermost frame, which the inspector fills through `srcdoc`, once its
 * heading matches (the previous view's frame may linger for a moment after switching).
 */
async function viewFrame(page: Page, heading: RegExp): Promise<{ frame: Frame; text: string }> {
  let seen = 'no view frame';
  for (let i = 0; i < 60; i++) {
    for (const frame of page.frames().filter((f) => f.url() === 'about:srcdoc')) {
      const text = (await frame.locator('h1').first().textContent({ timeout: 500 }).catch(() => null)) ?? '';
      if (heading.test(text)) return { frame, text };
      if (text) seen = `the view's heading reads "${text}"`;
    }
    await page.waitForTimeout(500);
  }
  throw new Error(`${seen}, expected ${heading}`);
}

/** The header's tabs are a segmented control (radio inputs under their labels): the label takes the click. */
async function navTo(page: Page, tab: 'Apps' | 'Servers' | 'Tools'): Promise<void> {
  await page.getByText(tab, { exact: true }).first().click({ timeout: STEP_MS });
}

async function disconnect(page: Page, name: string): Promise<void> {
  await navTo(page, 'Servers');
  const toggle = page.getByRole('switch', { name: `Connect or disconnect "${name}"` });
  if (await toggle.isChecked()) await toggle.click({ force: true, timeout: STEP_MS });
  await page.getByText('Disconnected').first().waitFor({ timeout: STEP_MS });
}

/** Types arguments into the inspector's JSON editor (Ace) of the open tool or app form. */
async function typeArgs(page: Page, args: Record<string, unknown>): Promise<void> {
  // The other tab's form stays in the page, hidden: only the visible one is this form.
  const editor = page.getByRole('textbox', { name: /Arguments JSON/ }).filter({ visible: true });
  // Mantine draws the switch's track over its input and label: the click is forced.
  if ((await editor.count()) === 0) await page.getByText('Edit as JSON').filter({ visible: true }).click({ force: true, timeout: STEP_MS });
  await editor.focus({ timeout: STEP_MS });
  await page.keyboard.press('Control+A');
  await page.keyboard.press('Delete');
  // insertText, not typing: Ace would close brackets and quotes itself.
  await page.keyboard.insertText(JSON.stringify(args));
}

/** Opens one app with its arguments, and waits for the view. */
async function openView(page: Page, view: WebView): Promise<{ frame: Frame; text: string }> {
  await page.getByText(view.app, { exact: true }).first().click({ timeout: STEP_MS });
  if (view.args) await typeArgs(page, view.args);
  await page.getByRole('button', { name: 'Open App' }).click({ timeout: STEP_MS });
  return viewFrame(page, view.heading);
}

/** A spend with spends on (`--allow-spend`, the simulator's keystore user signs). */
export interface WebSpend {
  tool: string;
  app: string;
  args: Record<string, unknown>;
}

const CONFIRMATION_ID = /[A-Za-z0-9_-]{16}\.\d{13}\.[A-Za-z0-9_-]{43}/;

/** The approval card: rendered for the preview, and its Approve records the decision through approval_decide. */
async function cardCheck(page: Page, spend: WebSpend): Promise<string> {
  await navTo(page, 'Apps');
  const { frame, text } = await openView(page, { file: 'card', app: spend.app, args: spend.args, heading: /^Approve: / });
  await frame.getByRole('button', { name: 'Approve' }).click({ timeout: STEP_MS });
  await frame.getByText(/^Approved\./).waitFor({ timeout: STEP_MS });
  return `"${text}", Approve answered "Approved."`;
}

/**
 * A whole spend from the Tools tab: preview, confirm, the inspector's elicitation dialog (URL mode
 * on 2025-11-25; input_required on 2026-07-28) opens the approval page, the page's Approve, then
 * the confirm's result: issued once.
 */
async function spendCheck(page: Page, spend: WebSpend, shots: string, name: string): Promise<string> {
  await navTo(page, 'Tools');
  await page.getByPlaceholder(/Search/).first().fill(spend.tool, { timeout: STEP_MS });
  await page.getByText(spend.tool, { exact: true }).first().click({ timeout: STEP_MS });
  await typeArgs(page, spend.args);
  await page.getByRole('button', { name: 'Execute Tool' }).click({ timeout: STEP_MS });
  const preview = page.getByText(CONFIRMATION_ID).first();
  await preview.waitFor({ timeout: STEP_MS });
  const id = ((await preview.textContent()) ?? '').match(CONFIRMATION_ID)?.[0];
  if (!id) throw new Error('the preview shows no confirmation id');
  // The results replace the form: closing them brings the form back.
  await page.getByText('Results', { exact: true }).locator('..').getByRole('button').first().click({ timeout: STEP_MS });
  await typeArgs(page, { ...spend.args, confirm: id });
  await page.getByRole('button', { name: 'Execute Tool' }).click({ timeout: STEP_MS });
  await page.getByText('Elicitation Request').waitFor({ timeout: STEP_MS });
  const popup = page.waitForEvent('popup', { timeout: STEP_MS });
  await page.getByRole('button', { name: 'Open in Browser' }).click({ timeout: STEP_MS });
  const approval = await popup;
  await approval.getByRole('button', { name: 'Approve and send once' }).click({ timeout: STEP_MS });
  await approval.getByText(/^Approved\. /).waitFor({ timeout: STEP_MS });
  await approval.close();
  // chain-mcp sends no notifications/elicitation/complete: the person tells the dialog.
  await page.getByRole('button', { name: /completed it/ }).click({ timeout: STEP_MS });
  const sent = page.getByText(/issued once, txID \w+/).first();
  await sent.waitFor({ timeout: STEP_MS });
  await page.screenshot({ path: join(shots, `${name}-spend.png`) });
  return ((await sent.textContent()) ?? '').replace(/^.*(issued once, txID \w+).*$/s, '$1');
}

export async function webCheck(url: string, servers: ReadonlyArray<{ name: string; version: string; spend?: WebSpend }>, views: readonly WebView[], shots: string, check: Check): Promise<void> {
  const browser = await launchChromium();
  try {
    for (const server of servers) {
      const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
      let cspIgnored = false;
      page.on('console', (m) => {
        if (m.type() === 'error' && m.text().includes('Content Security Policy') && m.text().includes('outside the document')) cspIgnored = true;
      });
      try {
        await check(`web ${server.name} connects`, async () => {
          await page.goto(url);
          await page.getByRole('switch', { name: `Connect or disconnect "${server.name}"` }).click({ force: true, timeout: STEP_MS });
          await page.getByText(`MCP ${server.version}`, { exact: true }).first().waitFor({ timeout: STEP_MS });
          await navTo(page, 'Apps');
          return `shows MCP ${server.version}`;
        });
        for (const view of views) {
          await check(`web ${server.name} renders ${view.app}`, async () => {
            const { text } = await openView(page, view);
            const file = join(shots, `${server.name}-${view.file}.png`);
            await page.screenshot({ path: file });
            return `"${text}" (${file})`;
          });
        }
        await check(`web ${server.name} validators view calls validator_lookup through the host`, async () => {
          const validators = views.find((v) => v.file === 'validators');
          if (!validators) throw new Error('no validators view in the list');
          const { frame } = await openView(page, validators);
          await frame.locator('tr').nth(1).click({ timeout: STEP_MS });
          await frame.getByText(/is a current validator/).waitFor({ timeout: STEP_MS });
          await page.screenshot({ path: join(shots, `${server.name}-lookup.png`) });
          return 'the lookup opened under its row';
        });
        const spend = server.spend;
        if (spend) {
          await check(`web ${server.name} renders the approval card`, () => cardCheck(page, spend));
          await check(`web ${server.name} spends once through the approval page`, () => spendCheck(page, spend, shots, server.name));
        }
        if (cspIgnored) {
          console.log(`note  web ${server.name}: the inspector puts the view's document inside its own <body> under its own CSP, so the view's CSP <meta> is ignored there (Chromium logs it)`);
        }
      } finally {
        // Off again, so the next server's badge and Apps tab are the only ones.
        await disconnect(page, server.name).catch(() => undefined);
        await page.close();
      }
    }
  } finally {
    await browser.close();
  }
}
