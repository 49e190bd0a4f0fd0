import { describe, expect, it } from 'vitest';
import { CATALOGUE } from '../../src/catalogue/index.js';
import type { ToolDef } from '../../src/core/tool.js';
import { EXAMPLES } from '../contract/examples/index.js';

const tool = (name: string): ToolDef => CATALOGUE.find((t) => t.name === name)!;
const NOW_MS = 1_800_000_000_000;
const NOW = NOW_MS / 1000;
const DAY = 86_400;

/** Runs a tool's own input check (no request) on its contract example changed by `change`. */
function check(name: string, change: Record<string, unknown>): () => void {
  const t = tool(name);
  const input = t.input.parse({ ...EXAMPLES[name]!.args, ...change });
  return () => t.validate!(input as never, NOW_MS);
}

/**
 * The checks spend tools make on their input before any request (mutation testing's static pass
 * switches the catalogue entries that hold them on at import, so they are called directly here).
 */
describe('spend input checks before any request', () => {
  it('validators: a future start, an end after it, between 2 weeks and 1 year', () => {
    expect(check('platform_addValidator', { startTime: NOW + 60, endTime: NOW + 60 + 14 * DAY })).not.toThrow();
    expect(check('platform_addValidator', { startTime: NOW, endTime: NOW + 30 * DAY })).toThrow(/^Invalid input: startTime: must be in the future/);
    expect(check('platform_addValidator', { startTime: NOW + 60, endTime: NOW + 60 + 14 * DAY - 1 })).toThrow(/endTime: the period must be at least 2 weeks/);
    expect(check('platform_addValidator', { startTime: NOW + 60, endTime: NOW + 60 + 366 * DAY })).toThrow(/endTime: the period must be at most 1 year/);
  });

  it('delegators and subnet validators: a future start and an end after it, no length rule', () => {
    for (const name of ['platform_addDelegator', 'platform_addSubnetValidator']) {
      expect(check(name, { startTime: NOW + 60, endTime: NOW + 61 })).not.toThrow();
      expect(check(name, { startTime: NOW - 1, endTime: NOW + DAY }), name).toThrow(/startTime: must be in the future/);
      expect(check(name, { startTime: NOW + 60, endTime: NOW + 60 }), name).toThrow(/endTime: must be after startTime/);
    }
  });

  it('a subnet threshold is at most the number of control keys', () => {
    const keys = EXAMPLES.platform_createSubnet!.args.controlKeys as string[];
    expect(check('platform_createSubnet', { threshold: keys.length })).not.toThrow();
    expect(check('platform_createSubnet', { threshold: keys.length + 1 })).toThrow(/threshold: must be between 1 and the number of control keys/);
  });

  it('byte payloads must decode: genesis data, an NFT payload, signed transactions, exported users', () => {
    for (const [name, field] of [
      ['platform_createBlockchain', 'genesisData'],
      ['xvm_mintNFT', 'payload'],
      ['xvm_issueTx', 'tx'],
      ['keystore_importUser', 'user'],
    ] as const) {
      expect(check(name, {}), name).not.toThrow();
      expect(check(name, { [field]: '0x00', encoding: 'hex' }), name).toThrow(new RegExp(`${field}: `));
    }
  });
});
