import type { z } from 'zod';
import type { ToolContext, ToolDef } from '../core/tool.js';
import { ChainMcpError, InputError } from '../errors.js';
import type { RpcParams } from '../transport/jsonrpc.js';

/** Validates arguments; a refusal names the field(s) and nothing is sent. */
export function parseInput(tool: ToolDef, schema: z.ZodType, args: unknown): Record<string, unknown> {
  const result = schema.safeParse(args ?? {});
  if (result.success) return result.data as Record<string, unknown>;
  const issues = result.error.issues.slice(0, 3);
  const first = issues[0]!;
  const field = fieldPath(first.path, first);
  const rest = issues.slice(1).map((i) => `${fieldPath(i.path, i)}: ${issueMessage(i, args)}`);
  throw new InputError(field, issueMessage(first, args) + (rest.length ? `; also ${rest.join('; ')}` : '') + ` (tool ${tool.name}).`);
}

/** The argument at an issue's path (zod does not keep the input on its issues). */
function valueAt(args: unknown, path: ReadonlyArray<PropertyKey>): unknown {
  let value = args;
  for (const key of path) value = value !== null && typeof value === 'object' ? (value as Record<PropertyKey, unknown>)[key] : undefined;
  return value;
}

function fieldPath(path: ReadonlyArray<PropertyKey>, issue: z.core.$ZodIssue): string {
  if (issue.code === 'unrecognized_keys') return issue.keys.map(String).join(', ');
  if (path.length === 0) return 'arguments';
  return path.map((p, i) => (typeof p === 'number' ? `[${p}]` : i === 0 ? String(p) : `.${String(p)}`)).join('');
}

function issueMessage(issue: z.core.$ZodIssue, args: unknown): string {
  switch (issue.code) {
    case 'unrecognized_keys':
      return 'unknown argument; remove it';
    case 'invalid_type':
      return valueAt(args, issue.path) === undefined ? `required (${issue.expected})` : `expected ${issue.expected}`;
    case 'invalid_value':
      return `expected one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}`;
    case 'too_big':
      return `must be at most ${String(issue.maximum)}${issue.origin === 'string' ? ' characters' : issue.origin === 'array' ? ' items' : ''}`;
    case 'too_small':
      return `must be at least ${String(issue.minimum)}${issue.origin === 'string' ? ' characters' : issue.origin === 'array' ? ' items' : ''}`;
    default:
      return issue.message;
  }
}

/** Runs an operation to its structured output (no summary). */
export async function runOperation(tool: ToolDef, input: Record<string, unknown>, ctx: ToolContext): Promise<unknown> {
  let raw: unknown;
  if (tool.run) {
    raw = await tool.run(input, ctx);
  } else if (tool.request) {
    const answer = await sendRequest(tool, input, ctx);
    raw = tool.decode ? await tool.decode(answer, input, ctx) : answer;
  } else {
    throw new ChainMcpError('internal', `Tool ${tool.name} has neither run nor request.`);
  }
  const parsed = tool.output.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new ChainMcpError('malformed', `The answer for ${tool.name} does not have the expected shape (${issue.path.join('.') || 'result'}: ${issue.message}).`, {
      hint: 'The node may run a different API version; report this with the node version (info_getNodeVersion).',
    });
  }
  return parsed.data;
}

const LOCAL_FIELDS = new Set(['chain', 'confirm']);

async function sendRequest(tool: ToolDef, input: Record<string, unknown>, ctx: ToolContext): Promise<unknown> {
  const spec = tool.request!;
  switch (spec.kind) {
    case 'rpc': {
      let params: RpcParams = spec.params
        ? spec.params(input, ctx)
        : Object.fromEntries(Object.entries(input).filter(([k, v]) => v !== undefined && !LOCAL_FIELDS.has(k)));
      if (spec.credentials) {
        const keystore = ctx.config.keystore;
        if (!keystore) {
          throw new ChainMcpError('not_configured', 'No keystore user is configured.', {
            hint: 'Set CHAIN_MCP_KEYSTORE_USER and CHAIN_MCP_KEYSTORE_PASSWORD in the server environment.',
          });
        }
        params = { ...(params as Record<string, unknown>), username: keystore.username, password: keystore.password };
      }
      if (spec.adminSecret && ctx.config.adminSecret !== undefined) {
        params = { ...(params as Record<string, unknown>), secret: ctx.config.adminSecret };
      }
      const chain = typeof input.chain === 'string' ? input.chain : undefined;
      return ctx.rpc(spec.endpoint, spec.method, params, { chain });
    }
    case 'rest':
      return ctx.indexer(spec.path(input), spec.query ? spec.query(input) : []);
    case 'runner':
      return ctx.runner(spec.path, spec.body ? spec.body(input, ctx) : {});
  }
}
