import type { ToolContext, ToolDef } from '../core/tool.js';
import { formatChainAddress } from '../codec/index.js';
import { ChainMcpError } from '../errors.js';
import type { Services } from '../services.js';
import { LOCAL_OWNER } from '../state/store.js';
import { RpcBatcher } from './batcher.js';
import { parseInput, runOperation } from './operation.js';

/** Per-call hooks from the protocol layer. */
export interface CallHooks {
  signal?: AbortSignal;
  progress?: (done: number, total?: number, message?: string) => Promise<void>;
  /** Asks the human yes or no; undefined when the client cannot be asked (no form elicitation). */
  elicit?: (message: string) => Promise<'accept' | 'decline' | 'cancel'>;
  /** Asks the client to open a URL for the human (URL-mode elicitation); undefined when it cannot. */
  elicitUrl?: (message: string, url: string, elicitationId: string) => Promise<'accept' | 'decline' | 'cancel'>;
  /** The host shows MCP Apps views: spend previews link the approval card. */
  appCard?: boolean;
  /** The MCP session (Streamable HTTP) the call came in; without `owner`, confirmation ids are bound to it. */
  session?: string;
  /** The user the call is for (an OAuth token's subject): owns its confirmation ids and approvals on every replica. */
  owner?: string;
}

/** Who owns the call's confirmation ids and approvals: the user, else the MCP session, else the local user. */
export function ownerOf(hooks: CallHooks): string {
  return hooks.owner ?? hooks.session ?? LOCAL_OWNER;
}

/**
 * Builds the context one tool call sees. Reads retry; wallet, spend and admin calls never do.
 * The steps of a composite (ctx.call) share `batcher`: their node reads go out side by side
 * (one batch per endpoint only where the node takes batches, the EVM's).
 */
export function makeContext(services: Services, tool: ToolDef, hooks: CallHooks, batcher?: RpcBatcher): ToolContext {
  const signal = hooks.signal ?? new AbortController().signal;
  const retryDefault = tool.tier === 'read';
  let stepBatcher: RpcBatcher | undefined;
  const ctx: ToolContext = {
    config: services.config,
    log: services.log,
    signal,
    rpc: (endpoint, method, params, opts = {}) => {
      const retry = opts.retry ?? retryDefault;
      return services.rpc(endpoint, method, params, { retry, chain: opts.chain, signal, via: batcher });
    },
    indexer: (path, query = []) => {
      if (!services.indexerClient) {
        throw new ChainMcpError('not_configured', 'The indexer is not configured.', {
          hint: 'Set CHAIN_MCP_INDEXER_URL to the indexer base URL (for example http://127.0.0.1:8080) and restart the server.',
        });
      }
      return services.indexerClient.get(path, query, signal);
    },
    runner: (path, body) => {
      if (!services.runnerClient) {
        throw new ChainMcpError('not_configured', 'The local network runner is not configured.', {
          hint: 'Set CHAIN_MCP_RUNNER_URL to the runner HTTP gateway (for example http://127.0.0.1:8081) and restart the server.',
        });
      }
      return services.runnerClient.post(path, body, signal);
    },
    network: () => services.network(),
    asset: (assetID) => services.asset(assetID),
    call: async (name, args) => {
      const other = await services.tool(name);
      if (other?.tier !== 'read') throw new ChainMcpError('internal', `Composite step ${name} is not a read operation.`);
      const input = parseInput(other, other.input, args);
      stepBatcher ??= batcher ?? new RpcBatcher(services.node, signal);
      return (await runOperation(other, input, makeContext(services, other, hooks, stepBatcher))) as Record<string, unknown>;
    },
    progress: hooks.progress ?? (async () => undefined),
    now: services.now,
    ownAddress: (address) => services.ownAddresses.has(address),
    keyAddresses: async () => {
      if (services.config.signer !== 'local') return undefined;
      const { signer } = await services.loadMachinery();
      if (!signer) return undefined;
      return { x: formatChainAddress('X', (await services.network()).hrp, signer.addresses.shortId), evm: signer.addresses.evm };
    },
  };
  return ctx;
}
