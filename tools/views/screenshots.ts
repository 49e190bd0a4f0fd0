/**
 * `npm run views`: renders every MCP Apps view with a real result from the bundled devnet in
 * a headless Chromium (tools/browser.ts finds one) (the same test host as test/integration/views.test.ts) and writes
 * screenshots to docs/views/ for the README.
 */
import { mkdirSync } from 'node:fs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { loadConfig } from '../../src/config.js';
import { silentLogger } from '../../src/log.js';
import { buildServer } from '../../src/server.js';
import { VIEWS, viewHtml } from '../../src/views/views.js';
import { startDevnet } from '../../src/devnet/index.js';
import { hostView, launchChromium } from './host.js';

async function main(): Promise<void> {
  const out = new URL('../../../docs/views/', import.meta.url);
  mkdirSync(out, { recursive: true });
  const devnet = await startDevnet({ dialect: 'camino' });
  const config = loadConfig({ CHAIN_MCP_NODE_URL: devnet.nodeUrl, CHAIN_MCP_INDEXER_URL: devnet.indexerUrl ?? '', CHAIN_MCP_LOG_LEVEL: 'silent' });
  const { mcp, services } = buildServer({ config, log: silentLogger() });
  const client = new Client({ name: 'views', version: '0' });
  const [a, b] = InMemoryTransport.createLinkedPair();
  await mcp.connect(b);
  await client.connect(a);
  const key = devnet.state.users.get('devnet')!.keys[0]!;
  const txID = [...devnet.state.txs.keys()].find((id) => devnet.state.txs.get(id)?.chain === 'X')!;
  const calls: Record<string, [string, Record<string, unknown>]> = {
    'ui://chain-mcp/portfolio.html': ['account_overview', { addresses: [key.x, key.p] }],
    'ui://chain-mcp/validators.html': ['platform_getCurrentValidators', {}],
    'ui://chain-mcp/deposit-offers.html': ['platform_getAllDepositOffers', {}],
    'ui://chain-mcp/transaction.html': ['tx_status', { txID }],
  };
  const browser = await launchChromium();
  try {
    for (const view of VIEWS) {
      const [tool, args] = calls[view.uri]!;
      const result = await client.callTool({ name: tool, arguments: args });
      const name = view.uri.replace('ui://chain-mcp/', '').replace('.html', '');
      for (const [suffix, width, theme] of [['', 640, 'light'], ['-narrow-dark', 360, 'dark']] as const) {
        const { page, frame } = await hostView(browser, await viewHtml(view), result, { width, theme });
        const box = await (await page.$('iframe'))!.boundingBox();
        const height = await frame.evaluate('document.documentElement.scrollHeight');
        const file = new URL(`${name}${suffix}.png`, out);
        await page.screenshot({ path: file.pathname, clip: { x: 0, y: 0, width: box!.width, height: Math.min(Number(height) + 8, 700) } });
        console.log(`docs/views/${name}${suffix}.png`);
        await page.close();
      }
    }
  } finally {
    await browser.close();
    await client.close();
    await services.close();
    await devnet.close();
  }
}

main().catch((err: unknown) => {
  console.error(`views failed: ${(err as Error).message}`);
  process.exit(1);
});
