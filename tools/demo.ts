/**
 * `npm run demo`: a real MCP session, printed like a chat transcript. It spawns the built
 * `chain-mcp --devnet` over stdio (the bundled simulator starts in-process), connects an SDK
 * Client, and walks through the questions people ask, ending with a guarded transfer:
 * preview first, then the confirmed call, which the human approves on the server's approval
 * page (the client opens it through URL elicitation; here the demo plays the human's click).
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { viewFor } from '../src/views/views.js';

const MAIN = new URL('../src/main.js', import.meta.url).pathname;

interface Step {
  ask: string;
  /** The first of these the server lists is used: composites first, single operations as fallback. */
  tools: string[];
  args: (facts: Facts) => Record<string, unknown>;
  /** Picks facts from the result for later steps. */
  learn?: (structured: Record<string, unknown>, facts: Facts) => void;
}

interface Facts {
  address?: string;
  pAddress?: string;
  nodeID?: string;
  confirmationId?: string;
  recipient?: string;
}

const STEPS: Step[] = [
  { ask: 'Which network is this node on, and what version does it run?', tools: ['network_overview', 'info_getNodeVersion'], args: () => ({}) },
  { ask: 'What do transactions cost?', tools: ['info_getTxFee'], args: () => ({}) },
  {
    ask: 'Which addresses does my wallet have?',
    tools: ['xvm_listAddresses'],
    args: () => ({}),
    learn: (s, f) => {
      const list = s.addresses as string[] | undefined;
      f.address = list?.[0];
      f.recipient = list?.[1];
    },
  },
  { ask: 'What does my first address hold?', tools: ['account_overview'], args: (f) => ({ addresses: [f.address] }) },
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
  { ask: 'What deposit offers are active?', tools: ['platform_getAllDepositOffers'], args: () => ({}) },
  {
    ask: 'Send 1.5 CAM to my second address.',
    tools: ['xvm_send'],
    args: (f) => ({ to: f.recipient, amount: '1500000000', assetID: 'CAM' }),
    learn: (s, f) => {
      f.confirmationId = s.confirmationId as string | undefined;
    },
  },
  {
    ask: 'Yes, I approve that transfer.',
    tools: ['xvm_send'],
    args: (f) => ({ to: f.recipient, amount: '1500000000', assetID: 'CAM', confirm: f.confirmationId }),
  },
];

function indent(text: string): string {
  return text
    .split('\n')
    .map((line) => `    ${line}`)
    .join('\n');
}

async function main(): Promise<void> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [MAIN, '--devnet'],
    env: { PATH: process.env.PATH ?? '', CHAIN_MCP_ALLOW_SPEND: 'true', CHAIN_MCP_LOG_LEVEL: 'warn' },
    stderr: 'ignore',
  });
  const client = new Client({ name: 'chain-mcp-demo', version: '1.0.0' }, { capabilities: { elicitation: { url: {} } } });
  client.setRequestHandler(ElicitRequestSchema, async (request) => {
    const params = request.params as { mode?: string; url?: string; message: string };
    if (params.mode !== 'url' || !params.url) return { action: 'decline' };
    console.log(`  [your client opens the approval page: ${params.url}]`);
    const page = await (await fetch(params.url)).text();
    const decodeHtml = (t: string) => t.replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
    const facts = [...page.matchAll(/<li>(.*?)<\/li>/g)].map((m) => decodeHtml(m[1] ?? ''));
    console.log(indent(`Approval page shows:\n${facts.map((f) => `  • ${f}`).join('\n')}\n[you click "Approve and send once"]`));
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
    console.log(`  → ${tool}(${JSON.stringify(args)})`);
    const result = await client.callTool({ name: tool, arguments: args });
    const text = (result.content as Array<{ text?: string }>).map((c) => c.text ?? '').join('\n');
    console.log(`${indent(result.isError ? `[error] ${text}` : text)}\n`);
    const view = viewFor(tool);
    if (view && !result.isError) console.log(`  [in hosts with MCP Apps this answer also shows the ${view.title} view]\n`);
    if (!result.isError && result.structuredContent) step.learn?.(result.structuredContent as Record<string, unknown>, facts);
  }
  await client.close();
}

main().catch((err: unknown) => {
  console.error(`demo failed: ${(err as Error).message}`);
  process.exit(1);
});
