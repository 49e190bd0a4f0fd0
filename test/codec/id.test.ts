import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cb58Encode } from '../../src/codec/cb58.js';
import {
  formatCb58Id,
  formatNodeId,
  isCb58Id,
  parseCb58Id,
  parseNodeId,
  parsePrivateKey,
} from '../../src/codec/id.js';

// Published values: the AVAX asset ID, a local-network genesis node ID and the local "ewoq" test key.
const AVAX_ASSET_ID = 'FvwEAhmxKfeiG8SnEvq42hc6whRyY3EFYAvebMqDNDGCgxN5Z';
const LOCAL_NODE_ID = 'NodeID-7Xhw2mDxuDS44j42TCB6U5579esbSt3Lg';
const EWOQ_KEY = 'PrivateKey-ewoqjP7PxY4yr3iLTpLisriqt94hdyDFNgchSxGGztUrTXtNN';

describe('ids', () => {
  it('parses and re-formats known values', () => {
    expect(isCb58Id(AVAX_ASSET_ID)).toBe(true);
    expect(formatCb58Id(parseCb58Id(AVAX_ASSET_ID))).toBe(AVAX_ASSET_ID);
    expect(formatNodeId(parseNodeId(LOCAL_NODE_ID))).toBe(LOCAL_NODE_ID);
    expect(parsePrivateKey(EWOQ_KEY)).toHaveLength(32);
  });

  it('round-trips random 32-byte IDs and 20-byte node IDs', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 32, maxLength: 32 }), fc.uint8Array({ minLength: 20, maxLength: 20 }), (id, node) => {
        expect(parseCb58Id(formatCb58Id(id))).toEqual(id);
        expect(parseNodeId(formatNodeId(node))).toEqual(node);
      }),
    );
  });

  it('enforces lengths and prefixes', () => {
    expect(() => parseCb58Id(cb58Encode(new Uint8Array(31)))).toThrow('expected 32 bytes for an ID, got 31');
    expect(() => parseNodeId(cb58Encode(new Uint8Array(20)))).toThrow('expected a node ID like NodeID-...');
    expect(() => parseNodeId(`NodeID-${cb58Encode(new Uint8Array(19))}`)).toThrow('expected 20 bytes for a node ID, got 19');
    expect(() => formatNodeId(new Uint8Array(32))).toThrow('expected 20 bytes');
    expect(isCb58Id(LOCAL_NODE_ID)).toBe(false);
    expect(isCb58Id(42)).toBe(false);
  });

  it('never echoes a private key in errors', () => {
    const broken = `${EWOQ_KEY.slice(0, -1)}M`;
    expect(() => parsePrivateKey(broken)).toThrow('bad cb58 checksum');
    expect(() => parsePrivateKey(EWOQ_KEY.slice('PrivateKey-'.length))).toThrow(/^expected a private key like PrivateKey-\.\.\.$/);
  });
});
