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
  return z.object(shape) as unknown as T;
}

/** The same tools with shallow output schemas (see `shallow`). */
export function withShallowOutputs<T extends { output: AnyObject }>(tools: T[]): T[] {
  return tools.map((tool) => ({ ...tool, output: shallow(tool.output) }));
}
