import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CATALOGUE } from '../../src/catalogue/index.js';
import type { ToolDef } from '../../src/core/tool.js';
import { effectiveSchemas } from '../../src/registry/listing.js';
import { exampleArgs, type ProxiedStack, proxiedStack } from '../faults/harness.js';

/**
 * Property-based input fuzzing, driven by the catalogue: for every tool (every tier on),
 * random and adversarial arguments built around its contract example. The server must
 * answer every call (never crash), refuse invalid input with an isError naming the field,
 * and send no request at all for invalid input (counted at the devnet router and at the
 * proxies in front of every service).
 */

const RUNS_PER_TOOL = 25;
const SEED = 20261122;
const HUGE = 'x'.repeat(1_000_000);
const U64_OVERFLOW = '18446744073709551616';

interface FuzzCase {
  label: string;
  args: Record<string, unknown>;
  /** The field a refusal must name. */
  field?: string;
  /** Known to be invalid whatever the schema says (wrong type, extra key, bad checksum...). */
  mustRefuse: boolean;
  /** The protocol layer removes the key; the call must act as if it were absent. */
  dropped?: boolean;
}

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

const isDigits = (v: unknown) => typeof v === 'string' && /^\d+$/.test(v);
const isUint = (v: unknown) => (typeof v === 'number' && Number.isInteger(v) && v >= 0) || isDigits(v);
/** Strings that carry a checksum: cb58 IDs, NodeID-..., bech32 addresses (X-...1...). */
const hasChecksum = (v: unknown): v is string =>
  typeof v === 'string' && (/^NodeID-[1-9A-HJ-NP-Za-km-z]{20,}$/.test(v) || /^[XPC]-[a-z]+1[02-9ac-hj-np-z]{20,}$/.test(v) || /^[1-9A-HJ-NP-Za-km-z]{45,52}$/.test(v));

/** Changes one character in the body of a checksummed string; the checksum no longer matches. */
function breakChecksum(value: string, at: number): string {
  const alphabet = value.includes('1') && /^[XPC]-/.test(value) ? 'qpzry9x8gf2tvdw0s3jn54khce6mua7l' : '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
  const start = value.startsWith('NodeID-') ? 7 : /^[XPC]-/.test(value) ? value.indexOf('1') + 1 : 0;
  const i = start + (at % (value.length - start));
  const ch = value[i]!;
  const replacement = alphabet[(alphabet.indexOf(ch) + 1) % alphabet.length]!;
  return value.slice(0, i) + replacement + value.slice(i + 1);
}

/** A value for one field, with whether it is invalid regardless of the field's schema. */
function adversarialFor(example: unknown): fc.Arbitrary<{ label: string; value: unknown; mustRefuse: boolean }> {
  const scalar = typeof example === 'string' || typeof example === 'number';
  const options: Array<fc.Arbitrary<{ label: string; value: unknown; mustRefuse: boolean }>> = [
    fc.constantFrom<Json>(null, true, false, {}, { nested: { deep: [1, 2, 3] } }).map((value) => ({ label: 'wrong type', value, mustRefuse: scalar })),
    fc.constant({ label: 'huge string', value: HUGE, mustRefuse: true }),
    fc.string({ unit: 'binary', maxLength: 40 }).map((value) => ({ label: 'unicode string', value, mustRefuse: Array.isArray(example) })),
    fc.constantFrom('\u0000', '\u202e\u200b', '😀'.repeat(30), 'é\u0301', ' ', '').map((value) => ({ label: 'odd unicode', value, mustRefuse: Array.isArray(example) })),
    fc.oneof(fc.double(), fc.integer()).map((value) => ({ label: 'random number', value, mustRefuse: Array.isArray(example) || typeof example === 'boolean' })),
    fc.array(fc.jsonValue(), { maxLength: 5 }).map((value) => ({ label: 'array', value, mustRefuse: scalar })),
  ];
  if (isUint(example)) {
    options.push(
      fc.constantFrom<Json>(-1, '-1', -9007199254740992, '-0.5').map((value) => ({ label: 'negative', value, mustRefuse: true })),
      fc.constantFrom<Json>(U64_OVERFLOW, '99999999999999999999999999').map((value) => ({ label: 'overflow', value, mustRefuse: isDigits(example) })),
      fc.constantFrom<Json>(1.5, '1.5', '1e9', '0x10').map((value) => ({ label: 'not an integer', value, mustRefuse: true })),
    );
  }
  if (hasChecksum(example)) {
    options.push(fc.nat().map((at) => ({ label: 'bad checksum', value: breakChecksum(example, at), mustRefuse: true })));
    options.push(fc.constantFrom('X-local1notanaddress', 'NodeID-xyz', '0x1234', 'P-camino1qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqq').map((value) => ({ label: 'malformed address or ID', value, mustRefuse: true })));
  }
  if (Array.isArray(example) && hasChecksum(example[0])) {
    const first = example[0];
    options.push(fc.nat().map((at) => ({ label: 'bad checksum in list', value: [breakChecksum(first, at)], mustRefuse: true })));
  }
  return fc.oneof(...options);
}

function caseArbitrary(tool: ToolDef, base: Record<string, unknown>): fc.Arbitrary<FuzzCase> {
  const schema = effectiveSchemas(tool).input;
  const fields = Object.keys(schema.shape);
  const strategies: Array<fc.Arbitrary<FuzzCase>> = [];
  const extraKey = fc.oneof(
    fc.constantFrom('__proto__', 'constructor', 'prototype', 'toString', 'username', 'password', 'surprise'),
    fc.string({ minLength: 1, maxLength: 20 }),
  );
  strategies.push(
    fc
      .record({ key: extraKey.filter((k) => !fields.includes(k)), value: fc.jsonValue() })
      .map(({ key, value }) => {
        const args: Record<string, unknown> = { ...base };
        Object.defineProperty(args, key, { value, enumerable: true, configurable: true, writable: true });
        // The SDK's request schema drops a `__proto__` key before any handler runs (no
        // prototype is touched), so that one key cannot reach the tool to be refused.
        const dropped = key === '__proto__';
        return { label: `extra property ${JSON.stringify(key)}`, args, field: dropped ? undefined : key, mustRefuse: !dropped, dropped };
      }),
  );
  if (fields.length > 0) {
    const mutate = fc.constantFrom(...fields).chain((field) =>
      adversarialFor(base[field]).map(({ label, value, mustRefuse }) => ({
        label: `${field}: ${label}`,
        args: { ...base, [field]: value },
        field,
        mustRefuse,
      })),
    );
    strategies.push(mutate, mutate, mutate);
  }
  strategies.push(
    fc
      .dictionary(fc.oneof(fc.constantFrom(...(fields.length ? fields : ['x'])), fc.string({ maxLength: 10 })), fc.jsonValue(), { maxKeys: 4 })
      .map((args) => ({ label: 'random arguments', args, mustRefuse: false })),
  );
  return fc.oneof(...strategies);
}

describe('fuzzing every catalogue tool with adversarial arguments', () => {
  let stack: ProxiedStack;
  let casesRun = 0;
  let refused = 0;
  const tested: string[] = [];

  beforeAll(async () => {
    stack = await proxiedStack({ full: true, env: { CHAIN_MCP_TIMEOUT_MS: '2000' } });
    stack.devnet.router.record = true;
  });
  afterAll(async () => {
    console.log(`[fuzz] ${casesRun} cases over ${tested.length} tools (${RUNS_PER_TOOL} per tool, seed ${SEED}); ${refused} refused as invalid`);
    await stack?.close();
  });

  it('exposes the whole catalogue with every tier on', () => {
    expect(stack.tools.map((t) => t.name).sort()).toEqual(CATALOGUE.map((t) => t.name).sort());
  });

  for (const tool of CATALOGUE) {
    it(`${tool.name}: never crashes, refuses invalid input naming the field, sends nothing for it`, async () => {
      const base = exampleArgs(tool) ?? {};
      const schema = effectiveSchemas(tool).input;
      // Until a tool has its contract example, the base is not valid and a refusal may name
      // another (missing) field first; then any named field is accepted.
      const baseValid = schema.safeParse(base).success;
      tested.push(tool.name);
      await fc.assert(
        fc.asyncProperty(caseArbitrary(tool, base), async (c) => {
          const wire = JSON.parse(JSON.stringify(c.args)) as Record<string, unknown>;
          if (c.dropped) Reflect.deleteProperty(wire, '__proto__');
          const schemaRefuses = !schema.safeParse(wire).success;
          const invalid = c.mustRefuse || schemaRefuses;
          const nodeBefore = stack.devnet.router.requests.length;
          const proxiedBefore = stack.proxies.reduce((n, p) => n + p.requests.length, 0);
          const result = await stack.call(tool.name, c.args);
          casesRun++;
          expect(typeof result.text).toBe('string');
          expect(result.text).not.toMatch(/\n\s+at .+:\d+:\d+/);
          expect(result.text).not.toMatch(/Internal error/);
          expect(Object.keys(Object.prototype), 'Object.prototype polluted').toEqual([]);
          expect(({} as Record<string, unknown>).polluted).toBeUndefined();
          if (!invalid) return;
          refused++;
          expect(result.isError, `${c.label}: ${result.text.slice(0, 300)}`).toBe(true);
          expect(result.text).toMatch(/^Invalid input: /);
          if (c.field !== undefined && baseValid) {
            const prefix = `Invalid input: ${c.field}`;
            const named = result.text.startsWith(prefix) && [':', '[', '.', ','].includes(result.text[prefix.length] ?? '');
            expect(named, `${c.label} must name ${JSON.stringify(c.field)}: ${result.text.slice(0, 300)}`).toBe(true);
          }
          expect(stack.devnet.router.requests.length, `${c.label} reached the node`).toBe(nodeBefore);
          expect(stack.proxies.reduce((n, p) => n + p.requests.length, 0), `${c.label} reached a service`).toBe(proxiedBefore);
        }),
        { numRuns: RUNS_PER_TOOL, seed: SEED, endOnFailure: true },
      );
    });
  }

  it('still answers a valid call after all of it', async () => {
    const result = await stack.call('info_getNetworkID', {});
    expect(result.isError).toBe(false);
    expect(result.structured?.networkID).toBe(String(stack.devnet.state.networkID));
  });
});
