/**
 * The node's wire names in one table. The spec writes neutral names (`xvm`, `cx`, `/ext/vm/xvm`);
 * a real Camino node speaks `avm` at /ext/bc/X, `avax` at /ext/bc/C/avax and serves the static
 * API at /ext/vm/avm (docs/real-nodes.md). By default the server learns which one the node speaks
 * (src/context/dialect.ts); CHAIN_MCP_WIRE_NAMES overrides with a preset and/or key=value pairs.
 */
export interface WireNames {
  /** JSON-RPC namespace of the asset VM (`xvm.getBalance` / `avm.getBalance`), also of its static API. */
  xvm: string;
  /** JSON-RPC namespace of the contract chain's atomic API (`cx.getUTXOs` / `avax.getUTXOs`). */
  cx: string;
  /** Path segment of that API under /ext/bc/<chain>/ (`cx` / `avax`). */
  cxPath: string;
  /** Path of the asset VM's static API. */
  xvmStatic: string;
  /** Path of the platform chain (a real node serves it as /ext/P and /ext/bc/P). */
  platform: string;
}

export type Dialect = 'spec' | 'camino';

export const PRESETS: Record<Dialect, WireNames> = {
  spec: { xvm: 'xvm', cx: 'cx', cxPath: 'cx', xvmStatic: '/ext/vm/xvm', platform: '/ext/P' },
  camino: { xvm: 'avm', cx: 'avax', cxPath: 'avax', xvmStatic: '/ext/vm/avm', platform: '/ext/P' },
};

/** The spec's names: what the catalogue is written in. */
export const DEFAULT_WIRE: WireNames = PRESETS.spec;

/** CHAIN_MCP_WIRE_NAMES parsed: a base (`auto` learns it from the node) plus explicit overrides. */
export interface WireSetting {
  base: 'auto' | Dialect;
  overrides: Partial<WireNames>;
}

/**
 * What each value may be: it is pasted into request paths and JSON-RPC method names, so a
 * namespace is one name and a path is `/`-separated plain segments (no `..`, `?`, `#`, `%`, spaces).
 */
const NAME = /^[A-Za-z][A-Za-z0-9_]{0,31}$/;
const SEGMENT = /^[A-Za-z0-9_-]{1,64}$/;
const PATH = /^(\/[A-Za-z0-9_-]{1,64}){1,8}$/;
const VALUE_RULES: Record<keyof WireNames, { re: RegExp; expected: string }> = {
  xvm: { re: NAME, expected: 'a JSON-RPC namespace such as avm (letters, digits, _)' },
  cx: { re: NAME, expected: 'a JSON-RPC namespace such as avax (letters, digits, _)' },
  cxPath: { re: SEGMENT, expected: 'one path segment such as avax (letters, digits, - and _)' },
  xvmStatic: { re: PATH, expected: 'a path such as /ext/vm/avm (segments of letters, digits, - and _; no "..", "?", "#" or spaces)' },
  platform: { re: PATH, expected: 'a path such as /ext/bc/P (segments of letters, digits, - and _; no "..", "?", "#" or spaces)' },
};

/** `auto` (default), `spec`, `camino`, optionally followed by key=value pairs: `camino,platform=/ext/bc/P`. */
export function parseWireSetting(text: string | undefined): WireSetting {
  const setting: WireSetting = { base: 'auto', overrides: {} };
  const parts = (text ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  parts.forEach((part, i) => {
    if (!part.includes('=')) {
      if (i !== 0 || !(part === 'auto' || Object.hasOwn(PRESETS, part))) {
        throw new Error(`expected auto, spec or camino first, then key=value pairs with keys ${Object.keys(DEFAULT_WIRE).join(', ')}; got "${part}"`);
      }
      setting.base = part as WireSetting['base'];
      return;
    }
    const eq = part.indexOf('=');
    const key = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    if (!key || !value || !Object.hasOwn(DEFAULT_WIRE, key)) {
      throw new Error(`expected key=value pairs with keys ${Object.keys(DEFAULT_WIRE).join(', ')}; got "${part}"`);
    }
    const rule = VALUE_RULES[key as keyof WireNames];
    if (!rule.re.test(value)) throw new Error(`${key}: expected ${rule.expected}; got ${JSON.stringify(value)}`);
    setting.overrides[key as keyof WireNames] = value;
  });
  return setting;
}

/** The names in force once the base dialect is known. */
export function resolveWire(setting: WireSetting, detected: Dialect): WireNames {
  return { ...PRESETS[setting.base === 'auto' ? detected : setting.base], ...setting.overrides };
}

/** Where a JSON-RPC operation is served. `chain` selects another VM instance where the spec allows one. */
export type Endpoint = 'auth' | 'keystore' | 'info' | 'platform' | 'xvm' | 'xvmStatic' | 'wallet' | 'evm' | 'cx' | 'cadmin';

/** True when the path or the method namespace of a call depends on the dialect. */
export function needsDialect(endpoint: Endpoint, method: string): boolean {
  return endpoint === 'xvm' || endpoint === 'xvmStatic' || endpoint === 'cx' || method.startsWith('xvm.') || method.startsWith('cx.');
}

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
      return `/ext/bc/${chain ?? 'C'}/${wire.cxPath}`;
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
