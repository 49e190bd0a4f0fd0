import { z } from 'zod';
import { type AnyObject, needsConfirmation, type ToolDef } from '../core/tool.js';
import { spendInput, spendOutput } from '../confirm.js';

export interface ToolAnnotations {
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
}

export interface ToolListing {
  name: string;
  title: string;
  description: string;
  inputSchema: Record<string, unknown>;
  outputSchema: Record<string, unknown>;
  annotations: ToolAnnotations;
}

/** Hints that tell the truth by tier; an entry overrides only where it knows better. */
export function annotationsFor(tool: ToolDef): ToolAnnotations {
  const readOnly = tool.tier === 'read';
  return {
    readOnlyHint: tool.annotations?.readOnlyHint ?? readOnly,
    destructiveHint: tool.annotations?.destructiveHint ?? (tool.tier === 'spend' || tool.tier === 'admin'),
    idempotentHint: tool.annotations?.idempotentHint ?? readOnly,
    openWorldHint: tool.annotations?.openWorldHint ?? true,
  };
}

const schemasByTool = new WeakMap<ToolDef, { input: AnyObject; output: AnyObject }>();

/**
 * The schemas a client sees: spend tools gain `confirm` and the preview/issued result shape.
 * Built once per tool (every tools/call validates with them; a zod schema built anew would also
 * compile its parser anew) and shared: zod schemas are immutable.
 */
export function effectiveSchemas(tool: ToolDef): { input: AnyObject; output: AnyObject } {
  let schemas = schemasByTool.get(tool);
  if (!schemas) {
    schemas = needsConfirmation(tool) ? { input: spendInput(tool), output: spendOutput(tool) } : { input: tool.input, output: tool.output };
    schemasByTool.set(tool, schemas);
  }
  return schemas;
}

type Json = Record<string, unknown>;

/** An unconstrained list item, spelled with a type per branch. */
const ANY_ITEM: Json = Object.freeze({ anyOf: [{ type: 'string' }, { type: 'number' }, { type: 'boolean' }, { type: 'object' }] });

/** Bounds that only guard the server (JSON number precision, uint32) and tell a model nothing. */
const GUARD_MAXIMUMS = new Set([Number.MAX_SAFE_INTEGER, 4294967295]);

/**
 * The tool list is sent to the model with every conversation, so the listed input schema
 * keeps what helps a model fill arguments (types, enums, ranges, defaults, patterns,
 * descriptions) and drops what only guards the server: string lengths, list-size caps,
 * `additionalProperties: false`. The server still validates every argument against the
 * full zod schema and names the field it refuses.
 */
export function leanInputSchema(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(leanInputSchema);
  if (!node || typeof node !== 'object') return node;
  const out: Json = {};
  for (const [key, value] of Object.entries(node as Json)) {
    if (key === 'additionalProperties' && value === false) continue;
    if (key === 'minLength' || key === 'maxLength' || key === 'minItems' || key === 'propertyNames') continue;
    // List-size caps guard the server; only small ones (e.g. 4 log topics) tell a model something.
    if (key === 'maxItems' && typeof value === 'number' && value > 10) continue;
    if (key === 'maximum' && GUARD_MAXIMUMS.has(value as number)) continue;
    if (key === 'description' && value === '') continue;
    if (key === 'items' && value && typeof value === 'object' && Object.keys(value).length === 0) {
      // Any value (EVM positional params): hosts want every array to say its item type.
      out.items = ANY_ITEM;
      continue;
    }
    if (key === 'items' && (node as Json).description !== undefined) {
      // The list's own description says what its items are.
      const { description: _item, ...items } = value as Json;
      out.items = leanInputSchema(items);
      continue;
    }
    out[key] =
      key === 'properties'
        ? Object.fromEntries(Object.entries(value as Json).map(([name, schema]) => [name, leanInputSchema(schema)]))
        : leanInputSchema(value);
  }
  // anyOf of bare types: a uint64 is accepted as a decimal string or a safe integer. Hosts reject
  // or warn on a type list (`type: ["string","number"]`), so it is listed as the string it should
  // be sent as (exact above 2^53); the server's zod schema still accepts a plain number.
  // zod writes such a union either as an anyOf of bare types or directly as a type list.
  const anyOf = out.anyOf as Json[] | undefined;
  if (Array.isArray(anyOf) && anyOf.every((s) => Object.keys(s).length === 1 && typeof s.type === 'string')) {
    const listed = singleType(anyOf.map((s) => s.type as string));
    if (listed) {
      out.type = listed;
      delete out.anyOf;
    }
  } else if (Array.isArray(out.type)) {
    const listed = singleType(out.type as string[]);
    if (listed) out.type = listed;
  }
  return out;
}

/** One type for a union a string can stand for (string with number or integer); else undefined. */
function singleType(types: string[]): string | undefined {
  const set = [...new Set(types)];
  if (set.length === 1) return set[0];
  return set.includes('string') && set.every((t) => t === 'string' || t === 'number' || t === 'integer') ? 'string' : undefined;
}

/**
 * The listed output schema only declares that results are structured objects. The full
 * shape (amount objects, nested lists) is checked by the server before every answer, and
 * the fields of each tool are listed in the chain://tools resource; spelling them out in
 * tools/list would cost every conversation about 7 KB (issue 6 budget) for a model that
 * reads the summary text and the structuredContent itself.
 */
export const LISTED_OUTPUT_SCHEMA: Json = Object.freeze({ type: 'object' });

/** Top-level fields of a tool's structured result, for documentation. */
export function outputFields(tool: ToolDef): string[] {
  return Object.keys(effectiveSchemas(tool).output.shape);
}

export function jsonSchema(schema: AnyObject, io: 'input' | 'output'): Json {
  const { $schema: _drop, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as Json;
  return rest;
}

/** tools/list entries, computed once per tool and reused for every list call. */
export function toolListing(tool: ToolDef): ToolListing {
  const { input } = effectiveSchemas(tool);
  return {
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: leanInputSchema(jsonSchema(input, 'input')) as Json,
    outputSchema: LISTED_OUTPUT_SCHEMA,
    annotations: annotationsFor(tool),
  };
}
