/**
 * `npm run views`: renders every MCP Apps view, and the approval card, with a real result from
 * the bundled devnet in the test MCP Apps host (tools/views/apps-host.ts: ext-apps' AppBridge, a
 * sandbox proxy, headless Chromium found by tools/browser.ts) and writes screenshots to docs/views/
 * for the README: 640 px in the light theme, 390 px in the dark one.
 */
import { mkdirSync } from 'node:fs';
import { Client } from '@modelcontextprotocol/client';
import { InMemoryTransport } from '@modelcontextprotocol/client';
import { loadConfig } from '../../src/config.js';
import { silentLogger } from '../../src/log.js';
import { buildServer } from '../../src/server.js';
import { startDevnet } from '../../src/devnet/index.js';
import { startAppsHost } from './apps-host.js';
import { launchChromium } from './host.js';

async function main(): Promise<void> {
  const out = new URL('../../../docs/views/', import.meta.url);
  mkdirSync(out, { recursive: true });
  const devnet = await startDevnet({ dialect: 'camino', keystoreApi: true });
  const config = loadConfig({
    CHAIN_MCP_NODE_URL: devnet.nodeUrl,
    CHAIN_MCP_INDEXER_URL: devnet.indexerUrl ?? '',
    CHAIN_MCP_LOG_LEVEL: 'silent',
    CHAIN_MCP_ALLOW_SPEND: 'true',
    CHAIN_MCP_KEYSTORE_USER: devnet.keystore.username,
    CHAIN_MCP_KEYSTORE_PASSWORD: devnet.keystore.password,
    CHAIN_MCP_APPROVAL_WAIT_MS: '0',
    CHAIN_MCP_PASSKEY_FILE: '/nonexistent/chain-mcp-views/passkeys.json',
  });
  const { mcp, services } = buildServer({ config, log: silentLogger() });
  const client = new Client({ name: 'views', version: '0' }, { capabilities: { extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] } } } as never });
  const [a, b] = InMemoryTransport.createLinkedPair();
  await mcp.connect(b);
  await client.connect(a);
  const key = devnet.state.users.get('devnet')!.keys[0]!;
  const to = devnet.state.users.get('alice')!.keys[1]!.x;
  const txID = [...devnet.state.txs.keys()].find((id) => devnet.state.txs.get(id)?.chain === 'X')!;
  const shots: Array<[string, string, Record<string, unknown>]> = [
    ['portfolio', 'account_overview', { addresses: [key.x, key.p] }],
    ['validators', 'platform_getCurrentValidators', {}],
    ['deposit-offers', 'platform_getAllDepositOffers', {}],
    ['transaction', 'tx_status', { txID }],
    ['approval-card', 'xvm_send', { amount: '1000000000', assetID: 'CAM', to }],
  ];
  const browser = await launchChromium();
  const host = await startAppsHost(client, browser);
  try {
    for (const [name, tool, args] of shots) {
      for (const [suffix, width, theme] of [['', 640, 'light'], ['-narrow-dark', 390, 'dark']] as const) {
        const shown = await host.callAndShow(tool, args, { width, hostContext: { theme } });
        await shown.view.waitForFunction(
          'document.getElementById("app") ? !/Waiting for the result/.test(document.getElementById("app").textContent) : !document.getElementById("buttons").hidden',
          undefined,
          { timeout: 15_000 },
        );
        // Let the host apply the view's reported height before the picture.
        await shown.page.waitForFunction('document.getElementById("view").offsetHeight > 150', undefined, { timeout: 5_000 }).catch(() => undefined);
        const file = new URL(`${name}${suffix}.png`, out);
        await shown.page.locator('iframe#view').screenshot({ path: file.pathname });
        console.log(`docs/views/${name}${suffix}.png`);
        await shown.close();
      }
    }
  } finally {
    await host.close();
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
