import type { Browser, Frame, Page } from 'playwright-core';
import { chromium } from 'playwright-core';
import { findChromium } from '../browser.js';

/**
 * A headless Chromium (found by tools/browser.ts: CHROMIUM_PATH, PATH, install places, the npm
 * package) with the flags this closed network needs. Throws one line naming what to install when
 * there is none, so a browser test fails on it rather than skipping.
 */
export function launchChromium(): Promise<Browser> {
  const found = findChromium();
  return chromium.launch({
    executablePath: found.executablePath,
    ...(found.env ? { env: { ...process.env, ...found.env } } : {}),
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
}

export interface HostedView {
  page: Page;
  frame: Frame;
  /** Content Security Policy complaints seen in the console. */
  violations: string[];
}

/**
 * A test host for MCP Apps views: a page that embeds the view in a sandboxed iframe and plays the
 * host side of the postMessage protocol (initialize with a theme, hand over one tool result,
 * answer the view's tools/call through `callTool`).
 */
export async function hostView(
  browser: Browser,
  html: string,
  result: unknown,
  opts: { width?: number; theme?: 'light' | 'dark'; callTool?: (name: string, args: Record<string, unknown>) => Promise<unknown> } = {},
): Promise<HostedView> {
  const width = opts.width ?? 640;
  const page = await browser.newPage({ viewport: { width, height: 720 }, colorScheme: opts.theme ?? 'light' });
  const violations: string[] = [];
  page.on('console', (m) => {
    if (/Content Security Policy/i.test(m.text())) violations.push(m.text());
  });
  await page.exposeFunction('hostCallTool', async (name: string, args: Record<string, unknown>) => (opts.callTool ? opts.callTool(name, args) : { content: [] }));
  await page.setContent('<!doctype html><html><body style="margin:0"></body></html>');
  // Browser-side code as a string: the build has no DOM types.
  await page.evaluate(`(() => {
    const frame = document.createElement('iframe');
    frame.sandbox.add('allow-scripts');
    frame.style.cssText = 'border:0;width:${width}px;height:700px';
    const post = (m) => frame.contentWindow.postMessage(m, '*');
    const result = ${JSON.stringify(result)};
    window.addEventListener('message', async (ev) => {
      const m = ev.data;
      if (ev.source !== frame.contentWindow || !m) return;
      if (m.method === 'ui/initialize') post({ jsonrpc: '2.0', id: m.id, result: { protocolVersion: '2026-01-26', hostInfo: { name: 'test host', version: '0' }, hostCapabilities: {}, hostContext: { theme: ${JSON.stringify(opts.theme ?? 'light')} } } });
      if (m.method === 'ui/notifications/initialized') post({ jsonrpc: '2.0', method: 'ui/notifications/tool-result', params: result });
      if (m.method === 'tools/call') post({ jsonrpc: '2.0', id: m.id, result: await window.hostCallTool(m.params.name, m.params.arguments) });
    });
    frame.srcdoc = ${JSON.stringify(html)};
    document.body.appendChild(frame);
  })()`);
  const handle = await page.waitForSelector('iframe');
  const frame = (await handle.contentFrame())!;
  await frame.waitForFunction('document.getElementById("app") && !/Waiting for the result/.test(document.getElementById("app").textContent)', undefined, { timeout: 10_000 });
  return { page, frame, violations };
}
