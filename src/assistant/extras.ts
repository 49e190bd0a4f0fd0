import type { McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';
import type { ToolDef } from '../core/tool.js';
import { isHexAddress, parseChainAddress, parseNodeId } from '../codec/index.js';
import { redactSecrets } from '../redact.js';
import type { Services } from '../services.js';
import { guardedTransfer, type PromptText, portfolioReport, stakingOptions, validatorReport } from './prompts.js';
import { limitsResource, networkResource, RESOURCE_URIS, toolsResource } from './resources.js';

/** Sent once at initialize: how the tools are organized, the units, and the spend rule. */
export const SERVER_INSTRUCTIONS = `Tools for a blockchain node with three chains: X (assets, addresses X-...), P (platform: validators, staking, deposit offers, addresses P-...) and C (EVM, addresses 0x...), plus an optional indexer for history.
Start with the one-call tools when exposed: account_overview, validator_lookup, network_overview, tx_status. Other names are <namespace>_<method>: info_*, platform_*, xvm_* (X), cx_* and eth_* (C), indexer_*. Their optional "chain" is the chain they call (/ext/bc/<chain>: alias or blockchain ID); omitted, X for xvm_*, C for cx_*/eth_*.
Amounts are integers in the smallest unit (native asset: 9 decimals on X and P; wei, 18 decimals, on C); results also give display units.
Spending tools first return a preview and a confirmationId; show the preview to the human and call again with confirm only after they approve. Never repeat a spend on your own.`;

/** Prompt arguments are strings; each is checked so a bad one is refused with a message naming it. */
function checked(check: (v: string) => void, description: string) {
  return z
    .string()
    .max(200)
    .superRefine((v, ctx) => {
      try {
        check(v.trim());
      } catch (err) {
        ctx.addIssue({ code: 'custom', message: (err as Error).message });
      }
    })
    .describe(description);
}

const anyAddress = (v: string) => {
  if (!isHexAddress(v)) parseChainAddress(v);
};

function promptResult(p: PromptText) {
  return { description: p.description, messages: [{ role: 'user' as const, content: { type: 'text' as const, text: p.text } }] };
}

/** The prompts' names, titles and descriptions: registered below, documented in docs/tools.md (npm run readme). */
export const PROMPT_INFO = {
  portfolio_report: { title: 'Portfolio report', description: 'What an address holds on X, P and C, in display units.', args: ['address'] },
  validator_report: { title: 'Validator report', description: "A validator's period, stake, uptime, delegators and reward owner.", args: ['nodeID'] },
  staking_options: { title: 'Staking options', description: 'Minimum stakes, staking periods and the deposit offers active now.', args: [] },
  guarded_transfer: { title: 'Guarded transfer', description: 'Send the native asset with a preview that the human approves.', args: ['to', 'amount'] },
} as const;

/** The resources' titles and descriptions, by name (URIs in RESOURCE_URIS). */
export const RESOURCE_INFO = {
  network: { title: 'Network configuration', description: 'Network ID and name, address prefix, native asset, node version, fees and the platform configuration.', mimeType: 'application/json' },
  tools: { title: 'Tool reference', description: 'Every exposed tool by toolset with its tier and parameters.', mimeType: 'text/markdown' },
  limits: { title: 'Limits', description: "The spec's limits (memo, page sizes, stake bounds) and this server's spend guards.", mimeType: 'application/json' },
} as const;

const promptMeta = (name: keyof typeof PROMPT_INFO) => ({ title: PROMPT_INFO[name].title, description: PROMPT_INFO[name].description });

/**
 * The prompts' argument schemas, built once per process: every HTTP request builds its own server
 * (a 2026-07-28 request, or any request under OAuth), and building zod schemas is most of what a
 * server costs to make.
 */
let argsSchemas:
  | {
      portfolio: ReturnType<typeof portfolioArgs>;
      validator: ReturnType<typeof validatorArgs>;
      transfer: ReturnType<typeof transferArgs>;
    }
  | undefined;
const portfolioArgs = () => z.object({ address: checked(anyAddress, 'Address: X-..., P-... or 0x... (C chain).') });
const validatorArgs = () => z.object({ nodeID: checked((v) => void parseNodeId(v), 'Node ID (NodeID-...).') });
const transferArgs = () =>
  z.object({
    to: checked(anyAddress, 'Recipient: X-..., P-... or 0x... (C chain).'),
    amount: z.string().max(40).describe('Amount in display units of the native asset, e.g. 5 or 0.25.'),
  });
function promptArgs() {
  argsSchemas ??= { portfolio: portfolioArgs(), validator: validatorArgs(), transfer: transferArgs() };
  return argsSchemas;
}

/** Prompts and resources (the only SDK calls besides server.ts). */
export function registerAssistantExtras(mcp: McpServer, services: Services, tools: () => Promise<readonly ToolDef[]>): void {
  // Tool names are known once the catalogue has loaded (after initialize); prompts name only exposed tools.
  const exposed = async () => new Set((await tools()).map((t) => t.name));
  const secrets = services.config.secrets;
  const args = promptArgs();

  mcp.registerPrompt(
    'portfolio_report',
    {
      ...promptMeta('portfolio_report'),
      argsSchema: args.portfolio,
    },
    async ({ address }) => promptResult(portfolioReport(address.trim(), await exposed())),
  );
  mcp.registerPrompt(
    'validator_report',
    {
      ...promptMeta('validator_report'),
      argsSchema: args.validator,
    },
    async ({ nodeID }) => promptResult(validatorReport(nodeID.trim(), await exposed())),
  );
  mcp.registerPrompt(
    'staking_options',
    promptMeta('staking_options'),
    async () => promptResult(stakingOptions(await exposed())),
  );
  mcp.registerPrompt(
    'guarded_transfer',
    {
      ...promptMeta('guarded_transfer'),
      argsSchema: args.transfer,
    },
    async ({ to, amount }) => promptResult(guardedTransfer(to.trim(), amount, await exposed(), services.config.approval)),
  );

  const text = (uri: URL, mimeType: string, body: string) => ({ contents: [{ uri: uri.href, mimeType, text: redactSecrets(body, secrets) }] });
  mcp.registerResource(
    'network',
    RESOURCE_URIS.network,
    RESOURCE_INFO.network,
    async (uri) => text(uri, 'application/json', await networkResource(services)),
  );
  mcp.registerResource(
    'tools',
    RESOURCE_URIS.tools,
    RESOURCE_INFO.tools,
    async (uri) => text(uri, 'text/markdown', toolsResource(await tools(), await services.catalogue())),
  );
  mcp.registerResource(
    'limits',
    RESOURCE_URIS.limits,
    RESOURCE_INFO.limits,
    (uri) => text(uri, 'application/json', limitsResource(services)),
  );
}
