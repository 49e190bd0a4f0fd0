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
  /**
   * Whole methods renamed on the wire, keyed by the spec's name (`platform.exportNative` is
   * `platform.exportAVAX` on a Camino node). Applied before the namespace rewrite.
   */
  methods: Readonly<Record<string, string>>;
}

export type Dialect = 'spec' | 'camino';

export const PRESETS: Record<Dialect, WireNames> = {
  spec: { xvm: 'xvm', cx: 'cx', cxPath: 'cx', xvmStatic: '/ext/vm/xvm', platform: '/ext/P', methods: {} },
  camino: {
    xvm: 'avm',
    cx: 'avax',
    cxPath: 'avax',
    xvmStatic: '/ext/vm/avm',
    platform: '/ext/P',
    // caminogo vms/platformvm/service.go: ExportAVAX (the spec's exportNative).
    methods: { 'platform.exportNative': 'platform.exportAVAX' },
  },
};

/** The keys of CHAIN_MCP_WIRE_NAMES that name a namespace or a path. */
type NameKey = Exclude<keyof WireNames, 'methods'>;
const NAME_KEYS: readonly NameKey[] = ['xvm', 'cx', 'cxPath', 'xvmStatic', 'platform'];
/** A JSON-RPC method as a node names it: `namespace.name`. */
const METHOD = /^[A-Za-z][A-Za-z0-9_]*\.[A-Za-z][A-Za-z0-9_]*$/;

/** The spec's names: what the catalogue is written in. */
export const DEFAULT_WIRE: WireNames = PRESETS.spec;

/** CHAIN_MCP_WIRE_NAMES parsed: a base (`auto` learns it from the node) plus explicit overrides. */
export interface WireSetting {
  base: 'auto' | Dialect;
  overrides: Partial<Omit<WireNames, 'methods'>> & { methods?: Record<string, string> };
}

/**
/**
 * What each value may be: it is pasted into request paths and JSON-RPC method names, so a
 * namespace is one name and a path is `/`-separated plain segments (no `..`, `?`, `#`, `%`, spaces).
 */
const NAME = /^[A-Za-z][A-Za-z0-9_]{0,31}$/;
const SEGMENT = /^[A-Za-z0-9_-]{1,64}$/;
const PATH = /^(\/[A-Za-z0-9_-]{1,64}){1,8}$/;
const VALUE_RULES: Record<NameKey, { re: RegExp; expected: string }> = {
  xvm: { re: NAME, expected: 'a JSON-RPC namespace such as avm (letters, digits, _)' },
  cx: { re: NAME, expected: 'a JSON-RPC namespace such as avax (letters, digits, _)' },
  cxPath: { re: SEGMENT, expected: 'one path segment such as avax (letters, digits, - and _)' },
  xvmStatic: { re: PATH, expected: 'a path such as /ext/vm/avm (segments of letters, digits, - and _; no "..", "?", "#" or spaces)' },
  platform: { re: PATH, expected: 'a path such as /ext/bc/P (segments of letters, digits, - and _; no "..", "?", "#" or spaces)' },
};

/**
 * `auto` (default), `spec`, `camino`, optionally followed by key=value pairs: `camino,platform=/ext/bc/P`.
 * A key with a dot renames one method: `platform.exportNative=platform.exportAVAX`.
 */
export function parseWireSetting(text: string | undefined): WireSetting {
  const setting: WireSetting = { base: 'auto', overrides: {} };
  const parts = (text ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  parts.forEach((part, i) => {
    if (!part.includes('=')) {
      if (i !== 0 || !(part === 'auto' || Object.hasOwn(PRESETS, part))) {
        throw new Error(`expected auto, spec or camino first, then key=value pairs with keys ${NAME_KEYS.join(', ')}; got "${part}"`);
      }
      setting.base = part as WireSetting['base'];
      return;
    }
    const eq = part.indexOf('=');
    const key = eq < 0 ? part : part.slice(0, eq).trim();
    const value = eq < 0 ? '' : part.slice(eq + 1).trim();
    if (key.includes('.')) {
      if (!METHOD.test(key) || !value || !METHOD.test(value)) throw new Error(`expected a method rename such as platform.exportNative=platform.exportAVAX; got "${part}"`);
      setting.overrides.methods = { ...setting.overrides.methods, [key]: value };
      return;
    }
    if (!key || !value || !NAME_KEYS.includes(key as NameKey)) {
      throw new Error(`expected key=value pairs with keys ${NAME_KEYS.join(', ')} (or a method rename such as platform.exportNative=platform.exportAVAX); got "${part}"`);
    }
    const rule = VALUE_RULES[key as NameKey];
    if (!rule.re.test(value)) throw new Error(`${key}: expected ${rule.expected}; got ${JSON.stringify(value)}`);
    setting.overrides[key as NameKey] = value;
  });
  return setting;
}

/** The names in force once the base dialect is known. */
export function resolveWire(setting: WireSetting, detected: Dialect): WireNames {
  const preset = PRESETS[setting.base === 'auto' ? detected : setting.base];
  return { ...preset, ...setting.overrides, methods: { ...preset.methods, ...setting.overrides.methods } };
}

/** Where a JSON-RPC operation is served. `chain` selects another VM instance where the spec allows one. */
export type Endpoint = 'auth' | 'keystore' | 'info' | 'platform' | 'xvm' | 'xvmStatic' | 'wallet' | 'evm' | 'cx' | 'cadmin';

/** True when the path, the method namespace or the method's own name depends on the dialect. */
export function needsDialect(endpoint: Endpoint, method: string): boolean {
  if (endpoint === 'xvm' || endpoint === 'xvmStatic' || endpoint === 'cx' || method.startsWith('xvm.') || method.startsWith('cx.')) return true;
  return RENAMED_METHODS.has(method);
}

/** Every method a preset renames (read on every call, so listed once). */
const RENAMED_METHODS: ReadonlySet<string> = new Set(Object.values(PRESETS).flatMap((preset) => Object.keys(preset.methods)));

/**
 * True where the node takes a JSON-RPC batch: only the EVM endpoint (/ext/bc/<chain>/rpc, geth's
 * server). caminogo's gorilla/rpc endpoints decode one request object per POST and answer a batch
 * with `json: cannot unmarshal array into Go value of type json2.serverRequest` (docs/real-nodes.md).
 */
export function takesBatches(path: string): boolean {
  return /^\/ext\/bc\/[^/]+\/rpc$/.test(path);
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

/** Renames a method the table renames, else rewrites the namespace of `xvm.getBalance` / `cx.getUTXOs`. */
export function wireMethod(method: string, wire: WireNames): string {
  if (Object.hasOwn(wire.methods, method)) return wire.methods[method]!;
  const dot = method.indexOf('.');
  if (dot < 0) return method;
  const ns = method.slice(0, dot);
  if (ns === 'xvm') return `${wire.xvm}${method.slice(dot)}`;
  if (ns === 'cx') return `${wire.cx}${method.slice(dot)}`;
  return method;
}

/**
 * Parameters whose form depends on the service that reads them: the C chain's `avax` service
 * takes `baseFee` as a 0x-hex string (hexutil.Big), where the spec's `cx` takes an integer.
 */
export function wireParams<P>(method: string, params: P): P {
  if (!method.startsWith('avax.') || !params || typeof params !== 'object' || Array.isArray(params)) return params;
  const fee = (params as Record<string, unknown>).baseFee;
  if (typeof fee !== 'bigint' && !(typeof fee === 'string' && /^\d+$/.test(fee)) && !(typeof fee === 'number' && Number.isSafeInteger(fee))) return params;
  return { ...params, baseFee: `0x${BigInt(fee).toString(16)}` };
}
