import type { Config } from '../config.js';
import { renderError, toChainMcpError } from '../errors.js';
import { redactSecrets, redactValue } from '../redact.js';
import { clipText } from '../summarize/format.js';
import type { ToolDef } from '../core/tool.js';
import { declaredSchema, onlyDeclared } from '../summarize/schema.js';
import { cleanValue } from '../summarize/stranger.js';
import { fitStructured } from './structured-budget.js';

export interface ToolResult {
  [key: string]: unknown;
  content: Array<{ type: 'text'; text: string }>;
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

export function textResult(text: string, structured: Record<string, unknown> | undefined, config: Config): ToolResult {
  if (!structured) return { content: [{ type: 'text', text: clipText(redactSecrets(text, config.secrets), config.maxOutputBytes) }] };
  // Clean first, then mask: cleaning drops invisible characters, which could otherwise join the
  // pieces of a secret the masker did not recognise back into the plain secret.
  const fitted = fitStructured(redactValue(cleanValue(structured), config.secrets), config.maxStructuredBytes);
  const full = fitted.note ? `${text}\n${fitted.note}` : text;
  return { content: [{ type: 'text', text: clipText(redactSecrets(full, config.secrets), config.maxOutputBytes) }], structuredContent: fitted.value };
}

export function errorResult(err: unknown, config: Config): ToolResult {
  const error = toChainMcpError(err);
  const text = clipText(redactSecrets(renderError(error), config.secrets), config.maxOutputBytes);
  return { content: [{ type: 'text', text }], isError: true };
}

/**
 * A tool's output with only the fields it declares, at every depth (its deep output schema): what
 * a node adds to an answer never reaches structuredContent. The summary reads the output as decoded.
 */
export function declaredOnly(tool: Pick<ToolDef, 'output'>, output: Record<string, unknown>): Record<string, unknown> {
  return onlyDeclared(declaredSchema(tool.output), output) as Record<string, unknown>;
}

/** JSON-safe copy (bigints as decimal strings) for structuredContent. */
export function jsonSafe(value: unknown): Record<string, unknown> | undefined {
  if (value === undefined) return undefined;
  return JSON.parse(JSON.stringify(value, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v))) as Record<string, unknown>;
}
