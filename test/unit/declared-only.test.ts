import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { declaredOnly } from '../../src/registry/result.js';
import { shallow } from '../../src/summarize/schema.js';

/**
 * structuredContent carries only the fields a tool declares (issue 40 item 6). The listed output
 * schemas are shallow (nested objects listed as open objects), so validating against them keeps
 * whatever a node added inside a nested object; declaredOnly cuts to the deep, declared shape.
 */
const deep = z.object({
  txID: z.string(),
  status: z.object({ state: z.string(), height: z.number().optional() }),
  outputs: z.array(z.object({ address: z.string(), amount: z.string() })),
  byAsset: z.record(z.string(), z.object({ amount: z.string() })),
  either: z.union([z.object({ kind: z.literal('a'), a: z.string() }), z.object({ kind: z.literal('b'), b: z.string() })]),
  free: z.looseObject({ name: z.string() }),
});
const tool = { output: shallow(deep) };
const answer = {
  txID: 'T',
  added: 'top',
  status: { state: 'Accepted', added: 'nested' },
  outputs: [{ address: 'X-a', amount: '1', added: 'in a list' }],
  byAsset: { CAM: { amount: '5', added: 'in a map' } },
  either: { kind: 'b', b: 'B', added: 'in a union' },
  free: { name: 'n', open: 'declared open' },
};

describe('declaredOnly', () => {
  it('the listed (shallow) schema alone keeps what a node adds inside nested objects', () => {
    const listed = tool.output.parse(answer) as Record<string, unknown>;
    expect(JSON.stringify(listed)).toContain('nested');
  });

  it('keeps every declared field and drops every other, at every depth; an object declared open stays open', () => {
    const listed = tool.output.parse(answer) as Record<string, unknown>;
    expect(declaredOnly(tool, listed)).toEqual({
      txID: 'T',
      status: { state: 'Accepted' },
      outputs: [{ address: 'X-a', amount: '1' }],
      byAsset: { CAM: { amount: '5' } },
      either: { kind: 'b', b: 'B' },
      free: { name: 'n', open: 'declared open' },
    });
  });
});
