import { z } from 'zod';
import { ChainMcpError } from '../errors.js';
import { defineTool, type ToolContext, type ToolDef } from '../core/tool.js';
import { decodeSuccess, SuccessOut } from '../spend/result.js';

/**
 * Token API, endpoint /ext/auth (spec document 1). The authorization password comes from
 * CHAIN_MCP_AUTH_PASSWORD, never from the chat; /ext/auth calls carry no bearer token.
 */

function authPassword(ctx: ToolContext): string {
  const password = ctx.config.authPassword;
  if (!password) {
    throw new ChainMcpError('not_configured', 'The node authorization password is not configured.', {
      hint: 'Set CHAIN_MCP_AUTH_PASSWORD (the content of the node\'s --api-auth-password-file) in the server environment.',
    });
  }
  return password;
}

/** Strips a value the node might echo (a new password) from an error before it leaves the tool. */
function scrub(err: unknown, secret: string): unknown {
  if (!(err instanceof Error) || !err.message.includes(secret)) return err;
  const kind = err instanceof ChainMcpError ? err.kind : 'rpc';
  return new ChainMcpError(kind, err.message.split(secret).join('[redacted]'), { hint: (err as ChainMcpError).hint });
}

const endpointPath = z
  .string()
  .regex(/^(\*|\/[A-Za-z0-9/_.-]{1,200})$/, 'expected "*" or an API path such as /ext/info')
  .describe('"*" or an API path such as /ext/bc/X.');

export const authTools: ToolDef[] = [
  defineTool({
    name: 'auth_newToken',
    title: 'Create an API token',
    description: 'Create a bearer token for a node started with --api-auth-required, granting the listed endpoints ("*" for all). It expires after 12 hours.',
    tier: 'admin',
    toolset: 'auth',
    input: z.strictObject({ endpoints: z.array(endpointPath).min(1).max(64).describe('Endpoints the token grants.') }),
    output: z.object({ token: z.string().describe('Bearer token; treat it as a secret.'), endpoints: z.array(z.string()), expiresInHours: z.number() }),
    request: { kind: 'rpc', endpoint: 'auth', method: 'auth.newToken', params: (i, ctx) => ({ password: authPassword(ctx), endpoints: i.endpoints }) },
    decode: (raw, i) => ({ token: String((raw as { token?: unknown })?.token ?? ''), endpoints: i.endpoints, expiresInHours: 12 }),
    summarize: (o) =>
      `New token for ${o.endpoints.join(', ')}, valid 12 hours. It is in structuredContent.token; give it only to the client that needs it (as Authorization: Bearer).`,
    annotations: { idempotentHint: false },
  }),
  defineTool({
    name: 'auth_revokeToken',
    title: 'Revoke an API token',
    description: 'Revoke a bearer token so it grants nothing; revoking an invalid token does nothing.',
    tier: 'admin',
    toolset: 'auth',
    input: z.strictObject({ token: z.string().min(1).max(4096).describe('The token to revoke.') }),
    output: SuccessOut,
    run: async (i, ctx) => {
      try {
        return decodeSuccess(await ctx.rpc('auth', 'auth.revokeToken', { password: authPassword(ctx), token: i.token }));
      } catch (err) {
        throw scrub(err, i.token);
      }
    },
    summarize: (o) => (o.success ? 'The token is revoked; it grants no endpoint any more.' : 'The node did not confirm the revocation.'),
    annotations: { idempotentHint: true },
  }),
  defineTool({
    name: 'auth_changePassword',
    title: 'Change the API authorization password',
    description: 'Change the node\'s authorization password; every token made under the old one stops working. The operator must then update CHAIN_MCP_AUTH_PASSWORD.',
    tier: 'admin',
    toolset: 'auth',
    input: z.strictObject({ newPassword: z.string().min(1).max(1024).describe('New authorization password, 1 to 1024 characters; never shown back.') }),
    output: SuccessOut,
    run: async (i, ctx) => {
      try {
        return decodeSuccess(await ctx.rpc('auth', 'auth.changePassword', { oldPassword: authPassword(ctx), newPassword: i.newPassword }));
      } catch (err) {
        throw scrub(err, i.newPassword);
      }
    },
    summarize: (o) =>
      o.success
        ? 'Password changed. All tokens created under the old password are now invalid. Update CHAIN_MCP_AUTH_PASSWORD (and CHAIN_MCP_AUTH_TOKEN with a new token) in the server environment and restart; until then auth_* tools fail.'
        : 'The node did not confirm the change.',
  }),
];
