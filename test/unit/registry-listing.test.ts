import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type AnyObject, defineTool, type Tier, type ToolDef } from '../../src/core/tool.js';
import {
  annotationsFor,
  effectiveSchemas,
  jsonSchema,
  LISTED_OUTPUT_SCHEMA,
  leanInputSchema,
  outputFields,
  toolListing,
} from '../../src/registry/listing.js';

/** src/registry/listing.ts: what tools/list shows of a tool (hints, schemas), and what the lean schema drops. */

const INPUT = z.object({ address: z.string().min(1).max(64).describe('Address to read.'), limit: z.number().int().max(100).default(10) });
const OUTPUT = z.object({ balance: z.string(), utxos: z.array(z.string()) });

const tool = (tier: Tier, extra: Partial<ToolDef> = {}): ToolDef =>
  defineTool({
    name: `xvm_${tier}Tool`,
    title: `A ${tier} tool`,
    description: `Does ${tier} things.`,
    tier,
    toolset: 'xvm',
    input: INPUT as AnyObject,
    output: OUTPUT as AnyObject,
    summarize: () => '',
    ...extra,
  });

const hints = (readOnlyHint: boolean, destructiveHint: boolean, idempotentHint: boolean, openWorldHint: boolean) => ({
  readOnlyHint,
  destructiveHint,
  idempotentHint,
  openWorldHint,
});

describe('annotationsFor: hints from the tier, entries overriding where they know better', () => {
  it('read: read-only, not destructive, idempotent, open world', () => {
    expect(annotationsFor(tool('read'))).toEqual(hints(true, false, true, true));
  });
  it('wallet: not read-only, not destructive, not idempotent, open world', () => {
    expect(annotationsFor(tool('wallet'))).toEqual(hints(false, false, false, true));
  });
  it('spend: not read-only, destructive, not idempotent, open world', () => {
    expect(annotationsFor(tool('spend'))).toEqual(hints(false, true, false, true));
  });
  it('admin: not read-only, destructive, not idempotent, open world', () => {
    expect(annotationsFor(tool('admin'))).toEqual(hints(false, true, false, true));
  });

  it('an override of each hint replaces only that hint, whether it turns the default on or off', () => {
    expect(annotationsFor(tool('wallet', { annotations: { readOnlyHint: true } }))).toEqual(hints(true, false, false, true));
    expect(annotationsFor(tool('read', { annotations: { readOnlyHint: false } }))).toEqual(hints(false, false, true, true));
    expect(annotationsFor(tool('wallet', { annotations: { destructiveHint: true } }))).toEqual(hints(false, true, false, true));
    expect(annotationsFor(tool('admin', { annotations: { destructiveHint: false } }))).toEqual(hints(false, false, false, true));
    expect(annotationsFor(tool('admin', { annotations: { idempotentHint: true } }))).toEqual(hints(false, true, true, true));
    expect(annotationsFor(tool('read', { annotations: { idempotentHint: false } }))).toEqual(hints(true, false, false, true));
    expect(annotationsFor(tool('read', { annotations: { openWorldHint: false } }))).toEqual(hints(true, false, true, false));
    expect(annotationsFor(tool('read', { annotations: { openWorldHint: true } }))).toEqual(hints(true, false, true, true));
  });
});

describe('effectiveSchemas: spend tools gain confirm and the preview/issued shape', () => {
  it('a spend tool takes its input plus confirm, and answers with the preview/issued result around its own output', () => {
    const { input, output } = effectiveSchemas(tool('spend'));
    expect(Object.keys(input.shape)).toEqual(['address', 'limit', 'confirm']);
    expect(Object.keys(output.shape)).toEqual(['status', 'preview', 'confirmationId', 'approvalUrl', 'expiresAt', 'approvedBy', 'details', 'result']);
  });

  for (const tier of ['read', 'wallet', 'admin'] as const) {
    it(`a ${tier} tool keeps its own input and output schemas`, () => {
      const t = tool(tier);
      const { input, output } = effectiveSchemas(t);
      expect(input).toBe(t.input);
      expect(output).toBe(t.output);
    });
  }
});

describe('outputFields: top-level fields of the structured result', () => {
  it('lists the output fields of a read tool', () => {
    expect(outputFields(tool('read'))).toEqual(['balance', 'utxos']);
  });
  it('lists the preview/issued fields of a spend tool', () => {
    expect(outputFields(tool('spend'))).toEqual(['status', 'preview', 'confirmationId', 'approvalUrl', 'expiresAt', 'approvedBy', 'details', 'result']);
  });
});

describe('jsonSchema', () => {
  const schema = z.object({ a: z.string(), n: z.number().default(3) });

  it('drops $schema and describes the input side: defaulted fields are optional, extra keys allowed', () => {
    expect(jsonSchema(schema, 'input')).toEqual({
      type: 'object',
      properties: { a: { type: 'string' }, n: { type: 'number', default: 3 } },
      required: ['a'],
    });
  });

  it('describes the output side: defaulted fields are present, extra keys refused', () => {
    expect(jsonSchema(schema, 'output')).toEqual({
      type: 'object',
      properties: { a: { type: 'string' }, n: { type: 'number', default: 3 } },
      required: ['a', 'n'],
      additionalProperties: false,
    });
  });

  it('writes a type JSON Schema cannot represent as an unconstrained schema instead of throwing', () => {
    expect(jsonSchema(z.object({ big: z.bigint() }), 'input')).toEqual({ type: 'object', properties: { big: {} }, required: ['big'] });
  });
});

describe('leanInputSchema: keeps what helps a model fill arguments, drops server guards', () => {
  const lean = (node: unknown) => leanInputSchema(node);

  it('returns primitives and null as they are', () => {
    expect(lean(null)).toBe(null);
    expect(lean(undefined)).toBe(undefined);
    expect(lean('string')).toBe('string');
    expect(lean(7)).toBe(7);
    expect(lean(false)).toBe(false);
  });

  it('leans each member of an array', () => {
    expect(lean([{ type: 'string', minLength: 1 }, 'x', { maxLength: 3, pattern: '^a' }])).toEqual([{ type: 'string' }, 'x', { pattern: '^a' }]);
  });

  it('drops additionalProperties: false but keeps additionalProperties true or a schema', () => {
    expect(lean({ type: 'object', additionalProperties: false })).toEqual({ type: 'object' });
    expect(lean({ type: 'object', additionalProperties: true })).toEqual({ type: 'object', additionalProperties: true });
    expect(lean({ type: 'object', additionalProperties: { type: 'string', maxLength: 9 } })).toEqual({
      type: 'object',
      additionalProperties: { type: 'string' },
    });
  });

  it('keeps a false value under any other key', () => {
    expect(lean({ type: 'boolean', default: false })).toEqual({ type: 'boolean', default: false });
  });

  for (const key of ['minLength', 'maxLength', 'minItems', 'propertyNames']) {
    it(`drops ${key}`, () => {
      expect(lean({ type: 'string', [key]: key === 'propertyNames' ? { pattern: '^a' } : 2 })).toEqual({ type: 'string' });
    });
  }

  it('keeps types, enums, ranges, defaults, patterns, descriptions and required', () => {
    const kept = {
      type: 'integer',
      enum: [1, 2],
      minimum: 0,
      exclusiveMaximum: 5,
      default: 1,
      pattern: '^\\d+$',
      description: 'A count.',
      required: ['a'],
      format: 'uri',
    };
    expect(lean(kept)).toEqual(kept);
  });

  it('keeps a list-size cap of 10 or less and drops one above 10', () => {
    expect(lean({ type: 'array', maxItems: 4 })).toEqual({ type: 'array', maxItems: 4 });
    expect(lean({ type: 'array', maxItems: 10 })).toEqual({ type: 'array', maxItems: 10 });
    expect(lean({ type: 'array', maxItems: 11 })).toEqual({ type: 'array' });
    expect(lean({ type: 'array', maxItems: 1000 })).toEqual({ type: 'array' });
  });

  it('keeps a maxItems that is not a number, whatever it reads as', () => {
    expect(lean({ type: 'array', maxItems: '20' })).toEqual({ type: 'array', maxItems: '20' });
  });

  it('drops the guard maximums (MAX_SAFE_INTEGER, uint32) and keeps every other maximum', () => {
    expect(lean({ type: 'integer', maximum: Number.MAX_SAFE_INTEGER })).toEqual({ type: 'integer' });
    expect(lean({ type: 'integer', maximum: 4294967295 })).toEqual({ type: 'integer' });
    expect(lean({ type: 'integer', maximum: 4294967294 })).toEqual({ type: 'integer', maximum: 4294967294 });
    expect(lean({ type: 'integer', maximum: 100 })).toEqual({ type: 'integer', maximum: 100 });
    expect(lean({ type: 'integer', minimum: Number.MIN_SAFE_INTEGER })).toEqual({ type: 'integer', minimum: Number.MIN_SAFE_INTEGER });
  });

  it('applies each of those rules to its own key only: a guard-sized minimum, an empty default, an empty properties object stay', () => {
    expect(lean({ type: 'integer', minimum: 4294967295, default: Number.MAX_SAFE_INTEGER })).toEqual({ type: 'integer', minimum: 4294967295, default: Number.MAX_SAFE_INTEGER });
    expect(lean({ type: 'string', default: '', pattern: '' })).toEqual({ type: 'string', default: '', pattern: '' });
    expect(lean({ type: 'object', properties: {}, required: [] })).toEqual({ type: 'object', properties: {}, required: [] });
  });

  it('drops an empty description and keeps a non-empty one', () => {
    expect(lean({ type: 'string', description: '' })).toEqual({ type: 'string' });
    expect(lean({ type: 'string', description: 'Name.' })).toEqual({ type: 'string', description: 'Name.' });
  });

  it("drops the items' description when the list has its own, leaning the rest of items", () => {
    expect(lean({ type: 'array', description: 'Addresses.', items: { type: 'string', description: 'One address.', maxLength: 64, pattern: '^X-' } })).toEqual({
      type: 'array',
      description: 'Addresses.',
      items: { type: 'string', pattern: '^X-' },
    });
  });

  it("keeps the items' description when the list has none, leaning the rest of items", () => {
    expect(lean({ type: 'array', items: { type: 'string', description: 'One address.', maxLength: 64 } })).toEqual({
      type: 'array',
      items: { type: 'string', description: 'One address.' },
    });
  });

  it('leans every property schema but keeps property names that look like dropped keys', () => {
    expect(
      lean({
        type: 'object',
        properties: {
          maxLength: { type: 'integer', maximum: 4294967295, description: 'Longest.' },
          description: { type: 'string', minLength: 1 },
          nested: { type: 'object', properties: { tags: { type: 'array', maxItems: 50, items: { type: 'string', minLength: 1 } } }, additionalProperties: false },
        },
        required: ['maxLength'],
        additionalProperties: false,
      }),
    ).toEqual({
      type: 'object',
      properties: {
        maxLength: { type: 'integer', description: 'Longest.' },
        description: { type: 'string' },
        nested: { type: 'object', properties: { tags: { type: 'array', items: { type: 'string' } } } },
      },
      required: ['maxLength'],
    });
  });

  it('lists an anyOf of a string and a number (a uint64) as a string, never as a type list hosts reject', () => {
    expect(lean({ anyOf: [{ type: 'string' }, { type: 'number' }], description: 'Amount.' })).toEqual({ type: 'string', description: 'Amount.' });
  });

  it('lists a type list of a number and a string (how zod writes some unions) as a string', () => {
    expect(lean({ type: ['number', 'string'], description: 'Unix seconds.' })).toEqual({ type: 'string', description: 'Unix seconds.' });
    expect(lean({ type: ['string', 'null'] })).toEqual({ type: ['string', 'null'] });
  });

  it('spells an unconstrained list item with a type per branch', () => {
    expect(lean({ type: 'array', items: {} })).toEqual({ type: 'array', items: { anyOf: [{ type: 'string' }, { type: 'number' }, { type: 'boolean' }, { type: 'object' }] } });
  });

  it('keeps an anyOf of bare types that a single type cannot stand for', () => {
    expect(lean({ anyOf: [{ type: 'boolean' }, { type: 'number' }] })).toEqual({ anyOf: [{ type: 'boolean' }, { type: 'number' }] });
  });

  it('collapses members that are bare only after leaning, and lists each type once', () => {
    expect(lean({ anyOf: [{ type: 'string', maxLength: 20 }, { type: 'integer' }, { type: 'string', minLength: 1 }] })).toEqual({ type: 'string' });
    expect(lean({ anyOf: [{ type: 'integer', maximum: 9007199254740991 }, { type: 'integer' }] })).toEqual({ type: 'integer' });
  });

  it('keeps the anyOf when any member has more than a type', () => {
    const anyOf = [{ type: 'string', pattern: '^\\d+$' }, { type: 'integer' }];
    expect(lean({ anyOf })).toEqual({ anyOf });
  });

  it('keeps the anyOf when a member is a single key other than a string type', () => {
    expect(lean({ anyOf: [{ const: 'all' }, { type: 'integer' }] })).toEqual({ anyOf: [{ const: 'all' }, { type: 'integer' }] });
    expect(lean({ anyOf: [{ type: ['string', 'null'] }, { type: 'integer' }] })).toEqual({ anyOf: [{ type: ['string', 'null'] }, { type: 'integer' }] });
  });

  it('collapses anyOf inside properties and array items too', () => {
    expect(
      lean({
        type: 'object',
        properties: { amount: { anyOf: [{ type: 'string' }, { type: 'number' }] }, list: { type: 'array', items: { anyOf: [{ type: 'string' }, { type: 'integer' }] } } },
      }),
    ).toEqual({
      type: 'object',
      properties: { amount: { type: 'string' }, list: { type: 'array', items: { type: 'string' } } },
    });
  });

  it('does not change the schema it is given', () => {
    const schema = { type: 'object', additionalProperties: false, properties: { a: { type: 'string', minLength: 1 } } };
    const before = structuredClone(schema);
    lean(schema);
    expect(schema).toEqual(before);
  });
});

describe('toolListing: the tools/list entry', () => {
  it('has the name, title, description, the lean input schema, the shared output schema and the hints of a read tool', () => {
    const t = tool('read');
    const listing = toolListing(t);
    expect(listing).toEqual({
      name: 'xvm_readTool',
      title: 'A read tool',
      description: 'Does read things.',
      inputSchema: {
        type: 'object',
        properties: { address: { type: 'string', description: 'Address to read.' }, limit: { type: 'integer', default: 10, minimum: Number.MIN_SAFE_INTEGER, maximum: 100 } },
        required: ['address'],
      },
      outputSchema: { type: 'object' },
      annotations: hints(true, false, true, true),
    });
    expect(listing.outputSchema).toBe(LISTED_OUTPUT_SCHEMA);
  });

  it('lists a spend tool with the confirm argument and the spend hints', () => {
    const listing = toolListing(tool('spend'));
    expect(Object.keys(listing.inputSchema.properties as object)).toEqual(['address', 'limit', 'confirm']);
    expect(listing.inputSchema.required).toEqual(['address']);
    expect(listing.annotations).toEqual(hints(false, true, false, true));
  });

  it('shares one frozen output schema that declares only an object', () => {
    expect(LISTED_OUTPUT_SCHEMA).toEqual({ type: 'object' });
    expect(Object.isFrozen(LISTED_OUTPUT_SCHEMA)).toBe(true);
  });
});
