import type { ToolContext } from '../core/tool.js';
import { ChainMcpError, RpcError } from '../errors.js';
import type { RpcParams } from '../transport/jsonrpc.js';

/** One call to a Camino-only method; "can't find method" becomes "this node does not offer it". */
export async function caminoRpc(ctx: ToolContext, method: string, params: RpcParams = {}): Promise<unknown> {
  try {
    return await ctx.rpc('platform', method, params, { retry: true });
  } catch (err) {
    if (err instanceof RpcError && /can't find (method|service)/i.test(err.message)) {
      throw new ChainMcpError('not_found', `This node does not offer ${method}: it is one of Camino's own P-Chain methods, and this node's API (${err.message}) lacks it.`, {
        hint: 'Ask a Camino node (caminogo) for it; nothing else on this node answers the same question.',
      });
    }
    throw err;
  }
}

