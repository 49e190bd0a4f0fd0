import { z } from 'zod';
import type { AnyObject, ToolDef } from '../catalogue/types.js';
import { spendInput, spendOutput } from '../confirm.js';

export interface ToolAnnotations {
  title: string;
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
    title: tool.title,
    readOnlyHint: tool.annotations?.readOnlyHint ?? readOnly,
    destructiveHint: tool.annotations?.destructiveHint ?? (tool.tier === 'spend' || tool.tier === 'admin'),
    idempotentHint: tool.annotations?.idempotentHint ?? readOnly,
    openWorldHint: tool.annotations?.openWorldHint ?? true,
  };
}

/** The schemas a client sees: spend tools gain `confirm` and the preview/issued result shape. */
export function effectiveSchemas(tool: ToolDef): { input: AnyObject; output: AnyObject } {
  return tool.tier === 'spend' ? { input: spendInput(tool), output: spendOutput(tool) } : { input: tool.input, output: tool.output };
}

function jsonSchema(schema: AnyObject, io: 'input' | 'output'): Record<string, unknown> {
  const { $schema: _drop, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as Record<string, unknown>;
  return rest;
}

/** tools/list entries, computed once per tool and reused for every list call. */
export function toolListing(tool: ToolDef): ToolListing {
  const { input, output } = effectiveSchemas(tool);
  return {
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: jsonSchema(input, 'input'),
    outputSchema: jsonSchema(output, 'output'),
    annotations: annotationsFor(tool),
  };
}
