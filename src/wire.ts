/**
 * The node's wire names in one table. The spec writes neutral names (`xvm`, `cx`,
 * `/ext/vm/xvm`); node builds that use other names override them with
 * CHAIN_MCP_WIRE_NAMES="xvm=avm,cx=avax,xvmStatic=/ext/vm/avm".
 */
export interface WireNames {
  /** JSON-RPC namespace of the asset VM (`xvm.getBalance`). */
  xvm: string;
  /** JSON-RPC namespace of the contract chain's extra methods (`cx.getUTXOs`). */
  cx: string;
  /** Path of the asset VM's static API. */
  xvmStatic: string;
  /** Path of the platform chain. */
  platform: string;
}

export const DEFAULT_WIRE: WireNames = { xvm: 'xvm', cx: 'cx', xvmStatic: '/ext/vm/xvm', platform: '/ext/P' };

export function parseWireOverrides(text: string | undefined): WireNames {
  const wire = { ...DEFAULT_WIRE };
  if (!text) return wire;
  for (const pair of text.split(',')) {
    const [key, value] = pair.split('=').map((s) => s.trim());
    if (!key || !value || !(key in wire)) {
      throw new Error(`expected key=value pairs with keys ${Object.keys(DEFAULT_WIRE).join(', ')}; got "${pair}"`);
    }
    wire[key as keyof WireNames] = value;
  }
  return wire;
}

/** Where a JSON-RPC operation is served. `chain` selects another VM instance where the spec allows one. */
export type Endpoint =
  | 'auth'
  | 'keystore'
  | 'info'
  | 'platform'
  | 'xvm'
  | 'xvmStatic'
  | 'wallet'
  | 'evm'
  | 'cx'
  | 'cadmin';

const CHAIN_ID = /^[A-Za-z0-9]{1,64}$/;

export function endpointPath(endpoint: Endpoint, wire: WireNames, chain?: string): string {
  if (chain !== undefined && !CHAIN_ID.test(chain)) throw new Error(`invalid chain "${chain}"`);
  switch (endpoint) {
    case 'auth':
      return '/ext/auth';
    case 'keystore':
      return '/ext/keystore';
    case 'info':
      return '/ext/info';
    case 'platform':
      return wire.platform;
    case 'xvm':
      return `/ext/bc/${chain ?? 'X'}`;
    case 'xvmStatic':
      return wire.xvmStatic;
    case 'wallet':
      return `/ext/bc/${chain ?? 'X'}/wallet`;
    case 'evm':
      return `/ext/bc/${chain ?? 'C'}/rpc`;
    case 'cx':
      return `/ext/bc/${chain ?? 'C'}/cx`;
    case 'cadmin':
      return `/ext/bc/${chain ?? 'C'}/admin`;
  }
}

/** Rewrites the namespace of `xvm.getBalance` / `cx.getUTXOs` through the table. */
export function wireMethod(method: string, wire: WireNames): string {
  const dot = method.indexOf('.');
  if (dot < 0) return method;
  const ns = method.slice(0, dot);
  if (ns === 'xvm') return `${wire.xvm}${method.slice(dot)}`;
  if (ns === 'cx') return `${wire.cx}${method.slice(dot)}`;
  return method;
}
