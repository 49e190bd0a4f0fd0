import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { clientAddress, trustedProxies } from '../../src/auth/client-address.js';

const req = (peer: string, headers: Record<string, string | string[]> = {}) => ({ socket: { remoteAddress: peer }, headers }) as unknown as IncomingMessage;

describe('the client address behind CHAIN_MCP_TRUSTED_PROXIES', () => {
  const proxies = trustedProxies(['10.0.0.0/8', '::1', '192.168.1.5']);

  it('without the setting, or from a peer not on it, is the peer: forwarding headers are ignored', () => {
    expect(trustedProxies(undefined)).toBeUndefined();
    expect(trustedProxies([])).toBeUndefined();
    const headers = { 'x-real-ip': '203.0.113.1', 'x-forwarded-for': '203.0.113.2' };
    expect(clientAddress(req('127.0.0.1', headers), undefined)).toBe('127.0.0.1');
    expect(clientAddress(req('127.0.0.1', headers), proxies)).toBe('127.0.0.1');
    expect(clientAddress(req('192.168.1.6', headers), proxies)).toBe('192.168.1.6');
    expect(clientAddress(req('11.0.0.1', headers), proxies)).toBe('11.0.0.1');
    // An IPv4 peer on a dual-stack socket is the same address.
    expect(clientAddress(req('::ffff:11.0.0.1', headers), proxies)).toBe('11.0.0.1');
    // Only the ::ffff: prefix maps: an IPv6 peer ending in dotted IPv4 stays itself (never the trusted 10.0.0.1).
    expect(clientAddress(req('1::2:3:10.0.0.1', headers), proxies)).toBe('1::2:3:10.0.0.1');
    expect(clientAddress(req('::ffff:1:2', headers), proxies)).toBe('::ffff:1:2');
  });

  it("from a trusted proxy: its X-Real-IP, else the right-most X-Forwarded-For hop that is not a trusted proxy", () => {
    expect(clientAddress(req('::ffff:10.1.2.3', { 'x-real-ip': ' 203.0.113.1 ' }), proxies)).toBe('203.0.113.1');
    expect(clientAddress(req('192.168.1.5', { 'x-real-ip': '2001:db8::7' }), proxies)).toBe('2001:db8::7');
    expect(clientAddress(req('::1', { 'x-forwarded-for': '198.51.100.1, 203.0.113.5, 10.9.9.9' }), proxies)).toBe('203.0.113.5');
    expect(clientAddress(req('10.0.0.1', { 'x-forwarded-for': ['198.51.100.1', '203.0.113.6'] }), proxies)).toBe('203.0.113.6');
    // Only proxies in the chain: the first hop; no usable header at all: the proxy itself.
    expect(clientAddress(req('10.0.0.1', { 'x-forwarded-for': '10.0.0.7, 10.0.0.8' }), proxies)).toBe('10.0.0.7');
    expect(clientAddress(req('10.0.0.1', { 'x-real-ip': 'not an address', 'x-forwarded-for': 'garbage, , also-garbage' }), proxies)).toBe('10.0.0.1');
    expect(clientAddress(req('10.0.0.1'), proxies)).toBe('10.0.0.1');
  });
});
