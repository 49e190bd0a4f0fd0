/**
 * `npm run demo`: a real MCP session, printed like a chat transcript. It starts the bundled
 * simulator as a default Camino node (keystore API off), makes a key file for the demo holding
 * the simulator's funded key, spawns the built `chain-mcp` over stdio with the local signer, and
 * walks through the questions people ask, ending with a guarded transfer X -> C: the preview says
 * the key is locked, the client opens the unlock page for the human (URL elicitation: the model never
 * sees its address), the human types the passphrase there,
 * the preview is rendered from the transaction bytes, the human approves on the approval page
 * (the client opens it through URL elicitation; here the demo plays the human), and it is issued once.
 */
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startDevnet } from '../src/devnet/index.js';
import { writeKeyFile } from '../src/signer/keyfile.js';
import { viewFor } from '../src/views/views.js';

const MAIN = new URL('../src/main.js', import.meta.url).pathname;
/** The demo key's passphrase: typed by "the human" on the unlock page below, never given to the model. */
const PASSPHRASE = 'demo passphrase, typed by the human only';

interface Step {
  ask: string;
  /** The first of these the server lists is used: composites first, single operations as fallback. */
  tools: string[];
  args: (facts: Facts) => Record<string, unknown>;
  /** Picks facts from the result for later steps. */
  learn?: (structured: Record<string, unknown>, facts: Facts) => void;
}

interface Facts {
  /** The key's own C- address: where an X -> C transfer's export waits for the import. */
  cAddress?: string;
  nodeID?: string;
}

const STEPS: Step[] = [
  { ask: 'Which network is this node on, and what version does it run?', tools: ['network_overview', 'info_getNodeVersion'], args: () => ({}) },
  { ask: 'What do transactions cost?', tools: ['info_getTxFee'], args: () => ({}) },
  {
    ask: 'What does my account hold?',
    tools: ['account_overview'],
    args: () => ({}),
    learn: (s, f) => {
      const bare = (s.accounts as Array<{ address?: string }> | undefined)?.[0]?.address;
      if (bare) f.cAddress = `C-${bare}`;
    },
  },
  {
    ask: 'Which validators end soonest?',
    tools: ['platform_getCurrentValidators'],
    args: () => ({}),
    learn: (s, f) => {
      const list = s.validators as Array<{ nodeID?: string }> | undefined;
      f.nodeID = list?.[0]?.nodeID;
    },
  },
  { ask: 'Tell me about that validator.', tools: ['validator_lookup'], args: (f) => ({ nodeID: f.nodeID }) },
  { ask: 'Move 2 CAM from X to my C account.', tools: ['transfer'], args: (f) => ({ to: f.cAddress, amount: '2 CAM' }) },
];

function indent(text: string): string {
  return text
    .split('\n')
    .map((line) => `    ${line}`)
    .join('\n');
}

/** The approval page in headless Chromium (tools/browser.ts finds one), written as a PNG. */
async function screenshot(url: string, file: string): Promise<void> {
  const { launchChromium } = await import('./views/host.js');
  const browser = await launchChromium();
  try {
    const page = await browser.newPage({ viewport: { width: 760, height: 600 } });
    await page.goto(url);
    await page.screenshot({ path: file, fullPage: true });
  } finally {
    await browser.close();
  }
}

/** What the human does on the unlock page: open it, type the passphrase, press Unlock. */
async function humanUnlocks(url: string): Promise<void> {
  const page = await (await fetch(url)).text();
  const csrf = /name="csrf" value="([^"]+)"/.exec(page)?.[1] ?? '';
  const res = await fetch(url, {
    method: 'POST',
    headers: { origin: new URL(url).origin, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ csrf, passphrase: PASSPHRASE }),
  });
  console.log(`    [you type the passphrase there and press Unlock: ${res.status === 200 ? 'unlocked' : `HTTP ${res.status}`}]\n`);
}

async function call(client: Client, tool: string, args: Record<string, unknown>): Promise<{ text: string; structured?: Record<string, unknown>; isError: boolean }> {
  console.log(`  → ${tool}(${JSON.stringify(args)})`);
  const result = await client.callTool({ name: tool, arguments: args });
  const text = (result.content as Array<{ text?: string }>).map((c) => c.text ?? '').join('\n');
  console.log(`${indent(result.isError ? `[error] ${text}` : text)}\n`);
  return { text, structured: result.structuredContent as Record<string, unknown> | undefined, isError: result.isError === true };
}

async function main(): Promise<void> {
  // A default Camino node: no keystore API, so spends are signed here, by the local signer.
  const devnet = await startDevnet({ dialect: 'camino' });
  const dir = mkdtempSync(join(tmpdir(), 'chain-mcp-demo-'));
  const keyFile = join(dir, 'key.json');
  const made = await writeKeyFile(keyFile, devnet.localKey.privateKey, PASSPHRASE);
  console.log(`Made a key file for the demo (${keyFile}, encrypted, mode 0600) holding the simulator's funded key: C address ${made.evm}.`);
  console.log('chain-mcp reads only its public addresses at start; the key stays locked until the human unlocks it.\n');
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [MAIN],
    env: {
      PATH: process.env.PATH ?? '',
      CHAIN_MCP_NODE_URL: devnet.nodeUrl,
      ...(devnet.indexerUrl ? { CHAIN_MCP_INDEXER_URL: devnet.indexerUrl } : {}),
      CHAIN_MCP_ALLOW_SPEND: 'true',
      CHAIN_MCP_SIGNER: 'local',
      CHAIN_MCP_KEY_FILE: keyFile,
      CHAIN_MCP_LOG_LEVEL: 'warn',
    },
    stderr: 'ignore',
  });
  const client = new Client({ name: 'chain-mcp-demo', version: '1.0.0' }, { capabilities: { elicitation: { url: {} } } });
  client.setRequestHandler('elicitation/create', async (request) => {
    const params = request.params as { mode?: string; url?: string; message: string };
    if (params.mode !== 'url' || !params.url) return { action: 'decline' };
    if (new URL(params.url).pathname.startsWith('/unlock/')) {
      console.log('  [your client opens the unlock page]');
      await humanUnlocks(params.url);
      return { action: 'accept' };
    }
    console.log(`  [your client opens the approval page: ${params.url}]`);
    const page = await (await fetch(params.url)).text();
    const decodeHtml = (t: string) => t.replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
    const facts = [...page.matchAll(/<li>(.*?)<\/li>/g)].map((m) => decodeHtml(m[1] ?? ''));
    console.log(indent(`Approval page shows:\n${facts.map((f) => `  • ${f}`).join('\n')}\n[you click "Approve and send once"]`));
    // `npm run demo -- --screenshot FILE`: the page as the human sees it, for the README.
    const shot = process.argv.indexOf('--screenshot');
    if (shot > 0 && process.argv[shot + 1]) await screenshot(params.url, process.argv[shot + 1]!);
    const csrf = /name="csrf" value="([^"]+)"/.exec(page)?.[1] ?? '';
    await fetch(params.url, { method: 'POST', headers: { origin: new URL(params.url).origin, 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ csrf, decision: 'approve' }) });
    return { action: 'accept' };
  });
  await client.connect(transport);
  const { tools } = await client.listTools();
  const available = new Set(tools.map((t) => t.name));
  console.log(`Connected to ${client.getServerVersion()?.name} ${client.getServerVersion()?.version} on the bundled devnet: ${tools.length} tools.\n`);
  const facts: Facts = {};
  for (const step of STEPS) {
    const tool = step.tools.find((name) => available.has(name));
    const args = step.args(facts);
    if (!tool || Object.values(args).some((v) => v === undefined || (Array.isArray(v) && v.includes(undefined)))) continue;
    console.log(`You: ${step.ask}`);
    let result = await call(client, tool, args);
    if (result.text.includes('The signing key is locked')) {
      // The client opened the unlock page for the human (above); the model saw neither its address nor the passphrase.
      console.log('You: I unlocked the key; show me that transfer again.');
      result = await call(client, tool, args);
    }
    const view = viewFor(tool);
    if (view && !result.isError) console.log(`  [in hosts with MCP Apps this answer also shows the ${view.title} view]\n`);
    if (!result.isError && result.structured) step.learn?.(result.structured, facts);
    const confirm = result.structured?.confirmationId;
    if (typeof confirm === 'string') {
      console.log('You: Yes, I approve exactly that.');
      await call(client, tool, { ...args, confirm });
      console.log('You: What does my account hold now?');
      await call(client, 'account_overview', {});
    }
  }
  await client.close();
  await devnet.close();
  rmSync(dir, { recursive: true, force: true });
}

main().catch((err: unknown) => {
  console.error(`demo failed: ${(err as Error).message}`);
  process.exit(1);
});
