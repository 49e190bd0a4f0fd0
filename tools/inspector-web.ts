/**
 * The web half of `npm run inspector-check -- --web`: MCP Inspector's web UI driven in headless
 * Chromium as a person would: switch a server on, read the protocol version it shows, open the
 * Apps tab, open the validators view (the inspector calls the tool and renders the `ui://`
 * resource in its sandbox), then click a row, which makes the view ask the host to run
 * `validator_lookup`. Every wait is a bounded locator wait.
 */
import { join } from 'node:path';
import type { Frame, Page } from 'playwright-core';
import { launchChromium } from './views/host.js';

const STEP_MS = 30_000;

type Check = (name: string, body: () => Promise<string>) => Promise<void>;

/** The view's document: the innermost frame, which the inspector fills through `srcdoc`. */
async function viewFrame(page: Page): Promise<Frame> {
  for (let i = 0; i < 60; i++) {
    const frame = page.frames().find((f) => f.url() === 'about:srcdoc');
    if (frame) return frame;
    await page.waitForTimeout(500);
  }
  throw new Error('no view frame appeared');
}

/** The header's tabs are a segmented control (radio inputs under their labels): the label takes the click. */
async function navTo(page: Page, tab: 'Apps' | 'Servers'): Promise<void> {
  await page.getByText(tab, { exact: true }).first().click({ timeout: STEP_MS });
}

async function disconnect(page: Page, name: string): Promise<void> {
  await navTo(page, 'Servers');
  const toggle = page.getByRole('switch', { name: `Connect or disconnect "${name}"` });
  if (await toggle.isChecked()) await toggle.click({ force: true, timeout: STEP_MS });
  await page.getByText('Disconnected').first().waitFor({ timeout: STEP_MS });
}

export async function webCheck(url: string, servers: ReadonlyArray<{ name: string; version: string }>, shots: string, check: Check): Promise<void> {
  const browser = await launchChromium();
  try {
    for (const server of servers) {
      const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
      const cspIgnored: string[] = [];
      page.on('console', (m) => {
        if (m.type() === 'error' && m.text().includes('outside the document') && m.text().includes('Content Security Policy')) cspIgnored.push(m.text());
      });
      try {
        await check(`web ${server.name} connects`, async () => {
          await page.goto(url);
          // Mantine draws its track over the input: the click goes to the input itself.
          await page.getByRole('switch', { name: `Connect or disconnect "${server.name}"` }).click({ force: true, timeout: STEP_MS });
          await page.getByText(`MCP ${server.version}`, { exact: true }).first().waitFor({ timeout: STEP_MS });
          return `shows MCP ${server.version}`;
        });
        await check(`web ${server.name} renders the validators view`, async () => {
          await navTo(page, 'Apps');
          await page.getByText('Current validators', { exact: true }).first().click({ timeout: STEP_MS });
          await page.getByRole('button', { name: 'Open App' }).click({ timeout: STEP_MS });
          const view = await viewFrame(page);
          const heading = view.locator('h1').first();
          await heading.waitFor({ timeout: STEP_MS });
          const text = (await heading.textContent()) ?? '';
          if (!/^\d+ validators \(\d+ connected\)$/.test(text)) throw new Error(`the view's heading reads "${text}"`);
          const file = join(shots, `${server.name}-validators.png`);
          await page.screenshot({ path: file });
          return `"${text}" (${file})`;
        });
        await check(`web ${server.name} view calls validator_lookup through the host`, async () => {
          const view = await viewFrame(page);
          await view.locator('tr').nth(1).click({ timeout: STEP_MS });
          await view.getByText(/is a current validator/).waitFor({ timeout: STEP_MS });
          await page.screenshot({ path: join(shots, `${server.name}-lookup.png`) });
          return 'the lookup opened under its row';
        });
        if (cspIgnored.length > 0) {
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
