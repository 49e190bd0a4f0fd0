import { z } from 'zod';
import type { AnyObject } from '../core/tool.js';

/**
 * tools/list is read into the model's context on every conversation, so output schemas stay
 * shallow: top-level fields keep their scalar types and descriptions, nested objects and
 * arrays are listed as plain `object` / `array`. The TypeScript type stays the deep one
 * (decoders build, and summaries read, the full shape); only what is validated and listed
 * is cut down.
 */
export function shallow<T extends AnyObject>(deep: T): T {
  const shape: Record<string, z.ZodType> = {};
  for (const [key, field] of Object.entries(deep.shape as Record<string, z.ZodType>)) {
    let inner: z.ZodType = field;
    let optional = false;
    let nullable = false;
    for (;;) {
      if (inner instanceof z.ZodOptional) {
        optional = true;
        inner = inner.unwrap() as z.ZodType;
      } else if (inner instanceof z.ZodNullable) {
        nullable = true;
        inner = inner.unwrap() as z.ZodType;
      } else break;
    }
    let flat: z.ZodType;
    if (inner instanceof z.ZodString || inner instanceof z.ZodNumber || inner instanceof z.ZodBoolean || inner instanceof z.ZodEnum) flat = inner;
    else if (inner instanceof z.ZodArray) flat = z.array(z.unknown());
    else if (inner instanceof z.ZodObject || inner instanceof z.ZodRecord) flat = z.looseObject({});
    else flat = z.unknown();
    if (nullable) flat = flat.nullable();
    if (optional) flat = flat.optional();
    const description = field.description ?? inner.description;
    shape[key] = description ? flat.describe(description) : flat;
  }
  const listed = z.object(shape);
  DEEP.set(listed, deep);
  return listed as unknown as T;
}

/** The same tools with shallow output schemas (see `shallow`). */
export function withShallowOutputs<T extends { output: AnyObject }>(tools: T[]): T[] {
  return tools.map((tool) => ({ ...tool, output: shallow(tool.output) }));
}

/** The deep schema each shallow one was made from: what a tool declares, field by field. */
const DEEP = new WeakMap<z.ZodType, z.ZodType>();

/** The declared (deep) output schema behind a listed one. */
export function declaredSchema(listed: z.ZodType): z.ZodType {
  return DEEP.get(listed) ?? listed;
}

/**
 * `value` with only the fields `schema` declares, at every depth: a node that adds fields to an
 * answer adds nothing to structuredContent. Objects declared open (a record, a loose object) keep
 * their keys; anything the schema does not describe is kept as it is.
 */
export function onlyDeclared(schema: z.ZodType, value: unknown): unknown {
  if (value === null || value === undefined) return value;
  if (schema instanceof z.ZodOptional || schema instanceof z.ZodNullable || schema instanceof z.ZodDefault) return onlyDeclared(schema.unwrap() as z.ZodType, value);
  if (schema instanceof z.ZodArray) return Array.isArray(value) ? value.map((v) => onlyDeclared(schema.element as z.ZodType, v)) : value;
  if (schema instanceof z.ZodRecord) {
    if (typeof value !== 'object' || Array.isArray(value)) return value;
    const valueType = schema._zod.def.valueType as z.ZodType;
    return Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, onlyDeclared(valueType, v)]));
  }
  if (schema instanceof z.ZodUnion) {
    const fits = (schema.options as z.ZodType[]).find((o) => o.safeParse(value).success);
    return fits ? onlyDeclared(fits, value) : value;
  }
  if (schema instanceof z.ZodObject) {
    if (typeof value !== 'object' || Array.isArray(value)) return value;
    const shape = schema.shape as Record<string, z.ZodType>;
    const catchall = schema._zod.def.catchall as z.ZodType | undefined;
    const open = catchall !== undefined && !(catchall instanceof z.ZodNever);
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
      if (Object.hasOwn(shape, k)) out[k] = onlyDeclared(shape[k]!, v);
      else if (open) out[k] = v;
    }
    return out;
  }
  return value;
}
