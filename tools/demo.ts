/**
 * `npm run demo`: a real MCP session, printed like a chat transcript. It spawns the built
 * `chain-mcp --devnet` over stdio (the bundled simulator starts in-process), connects an SDK
 * Client, and walks through the questions people ask, ending with a guarded transfer:
 * preview first, then the confirmed call.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

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
  const client = new Client({ name: 'chain-mcp-demo', version: '1.0.0' });
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
    if (!result.isError && result.structuredContent) step.learn?.(result.structuredContent as Record<string, unknown>, facts);
  }
  await client.close();
}

main().catch((err: unknown) => {
  console.error(`demo failed: ${(err as Error).message}`);
  process.exit(1);
});
