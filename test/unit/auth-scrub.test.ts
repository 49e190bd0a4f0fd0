import { describe, expect, it } from 'vitest';
import { CATALOGUE } from '../../src/catalogue/index.js';
import { loadConfig } from '../../src/config.js';
import type { ToolContext, ToolDef } from '../../src/core/tool.js';
import { type ChainMcpError, HttpStatusError, RpcError } from '../../src/errors.js';

const tool = (name: string): ToolDef => CATALOGUE.find((t) => t.name === name)!;
const NEW_PASSWORD = 'brand-new-password-9';
const TOKEN = 'tok-0123456789abcdef';

/** A node that refuses, echoing what it was sent in its message (as a node's error text may). */
function refusing(err: (echo: string) => Error): ToolContext {
  return {
    config: loadConfig({ CHAIN_MCP_AUTH_PASSWORD: 'old-password-1234' }),
    rpc: async (_endpoint: string, _method: string, params: Record<string, unknown>) => {
      throw err(String(params.newPassword ?? params.token));
    },
  } as unknown as ToolContext;
}

async function failure(name: string, input: Record<string, unknown>, ctx: ToolContext): Promise<ChainMcpError> {
  return tool(name).run!(input as never, ctx).then(
    () => {
      throw new Error('expected a failure');
    },
    (e: unknown) => e as ChainMcpError,
  );
}

/**
 * auth_changePassword and auth_revokeToken strip the new password or the token from a node error
 * before it leaves the tool (mutation survivors, issue 25), keeping the error's kind and hint.
 */
describe('auth tools never echo the secret they were given', () => {
  it('masks the new password in a node error, keeping its kind and hint', async () => {
    const err = await failure('auth_changePassword', { newPassword: NEW_PASSWORD }, refusing((s) => new HttpStatusError(400, `bad password ${s} (${s})`, { hint: 'Try another.' })));
    expect(err.message).toBe('bad password [redacted] ([redacted])');
    expect(err.kind).toBe('http_status');
    expect(err.hint).toBe('Try another.');
  });

  it('masks a revoked token in an RPC error, which stays an RPC error', async () => {
    const err = await failure('auth_revokeToken', { token: TOKEN }, refusing((s) => new RpcError(-32000, `unknown token ${s}`, null)));
    expect(err.message).toBe('unknown token [redacted]');
    expect(err.kind).toBe('rpc');
  });

  it('passes an error that does not carry the secret through unchanged', async () => {
    const original = new RpcError(-32000, 'auth is not enabled', null, 'Start the node with --api-auth-required.');
    const err = await failure('auth_revokeToken', { token: TOKEN }, refusing(() => original));
    expect(err).toBe(original);
  });
});
