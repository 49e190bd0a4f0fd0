import type { IncomingMessage, ServerResponse } from 'node:http';
import { randomBytes } from 'node:crypto';
import { hexChecksumEncode, hexToBytes } from '../codec/index.js';

/** A JSON-RPC failure with the real node's shape: HTTP 200, code -32000 unless said otherwise. */
export class RpcFault extends Error {
  constructor(
    message: string,
    readonly code = -32000,
  ) {
    super(message);
  }
}

/** An HTTP-level refusal (401 for auth, 503 while bootstrapping). */
export class HttpFault extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly jsonRpcCode?: number,
  ) {
    super(message);
  }
}

export type Params = Record<string, unknown>;
export interface HandlerContext {
  path: string;
  /** The `<chain>` of `/ext/bc/<chain>/...`, when the path has one. */
  chain?: string;
}
export type Handler = (params: Params & unknown[], ctx: HandlerContext) => unknown;

/** Recorded for tests: what the server sent, exactly. */
export interface RecordedRequest {
  path: string;
  method: string;
  headers: Record<string, string | string[] | undefined>;
  body: unknown;
}

/**
 * Which API names the simulated node speaks. `camino` is what a real Camino node serves
 * (`avm` at /ext/bc/X, `avax` at /ext/bc/C/avax, /ext/vm/avm); `spec` the specification's
 * neutral names. Handlers are registered under the spec's names; the router translates.
 */
export type DevnetDialect = 'camino' | 'spec';

const CAMINO_PATHS: Array<[RegExp, string]> = [
  [/^(\/ext\/bc\/[^/]+)\/avax$/, '$1/cx'],
  [/^\/ext\/vm\/avm$/, '/ext/vm/xvm'],
];
const SPEC_ONLY_PATHS = [/^\/ext\/bc\/[^/]+\/cx$/, /^\/ext\/vm\/xvm$/];
const CAMINO_NAMESPACES: Record<string, string> = { avm: 'xvm', avax: 'cx' };
/** Methods a Camino node names otherwise than the spec: wire name -> registered (spec) name. */
const CAMINO_METHODS: Record<string, string> = { 'platform.exportAVAX': 'platform.exportNative' };
const SPEC_ONLY_METHODS = new Set(Object.values(CAMINO_METHODS));
/** Camino's own methods (caminogo camino_service.go) the spec does not list: a spec node lacks them. */
const CAMINO_ONLY_METHODS = new Set([
  'platform.getDeposits',
  'platform.getClaimables',
  'platform.getMultisigAlias',
  'platform.getRegisteredShortIDLink',
  'platform.getLastAcceptedBlock',
  'platform.getBlockAtHeight',
  'platform.getUpgradePhases',
  'platform.getUTXOs',
  'platform.claim',
]);

/**
 * Routes JSON-RPC calls by endpoint path and method, with the node's HTTP conventions
 * (DESIGN section 5): 405 for non-POST, 415 for other content types, 404 for unknown
 * paths, -32700 for bad JSON, -32600 for a wrong jsonrpc version, batches.
 */
export class RpcRouter {
  private readonly routes = new Map<string, Map<string, Handler>>();
  /** Called before dispatch with the bearer token (or undefined); throw HttpFault(401) to refuse. */
  authorize?: (path: string, token: string | undefined) => void;
  readonly requests: RecordedRequest[] = [];
  record = false;
  dialect: DevnetDialect = 'spec';

  /** The registered (spec) path for a path on the wire; undefined where this dialect serves nothing. */
  private internalPath(path: string): string | undefined {
    if (this.dialect === 'spec') return path;
    if (SPEC_ONLY_PATHS.some((p) => p.test(path))) return undefined;
    for (const [pattern, to] of CAMINO_PATHS) if (pattern.test(path)) return path.replace(pattern, to);
    return path;
  }

  /** The registered (spec) namespace for a namespace on the wire; undefined for one this dialect lacks. */
  private internalNamespace(ns: string): string | undefined {
    if (this.dialect === 'spec') return ns in CAMINO_NAMESPACES ? undefined : ns;
    if (ns === 'xvm' || ns === 'cx') return undefined;
    return CAMINO_NAMESPACES[ns] ?? ns;
  }

  /** The registered (spec) method for a method on the wire; undefined for one this dialect lacks. */
  private internalMethod(method: string): string | undefined {
    if (this.dialect === 'camino') {
      if (SPEC_ONLY_METHODS.has(method)) return undefined;
      if (Object.hasOwn(CAMINO_METHODS, method)) return CAMINO_METHODS[method];
    } else if (Object.hasOwn(CAMINO_METHODS, method) || CAMINO_ONLY_METHODS.has(method)) return undefined;
    const dot = method.indexOf('.');
    const ns = this.internalNamespace(dot < 0 ? method : method.slice(0, dot));
    return ns === undefined ? undefined : dot < 0 ? ns : `${ns}${method.slice(dot)}`;
  }

  /**
   * What a call that only succeeds answers: a real node's api.EmptyReply `{}` (keystore, auth,
   * admin), the spec's `{success: true}`.
   */
  emptyReply(): Record<string, unknown> {
    return this.dialect === 'camino' ? {} : { success: true };
  }

  on(path: string, method: string, handler: Handler): this {
    let byMethod = this.routes.get(path);
    if (!byMethod) {
      byMethod = new Map();
      this.routes.set(path, byMethod);
    }
    byMethod.set(method, handler);
    return this;
  }

  /** Paths like /ext/bc/<id>/rpc resolve to the route registered for the alias. */
  private resolve(path: string): { byMethod?: Map<string, Handler>; chain?: string } {
    const exact = this.routes.get(path);
    const match = /^\/ext\/bc\/([^/]+)(\/.*)?$/.exec(path);
    if (exact) return { byMethod: exact, chain: match?.[1] };
    return {};
  }

  async handle(req: IncomingMessage, res: ServerResponse, bodyText: string): Promise<void> {
    const path = new URL(req.url ?? '/', 'http://x').pathname.replace(/\/+$/, '') || '/';
    const internal = this.internalPath(path);
    const { byMethod, chain } = internal === undefined ? {} : this.resolve(internal);
    if (!byMethod) return send(res, 404, 'text/plain', '404 page not found\n');
    if (req.method !== 'POST') return send(res, 405, 'text/plain', 'Method Not Allowed\n');
    const contentType = String(req.headers['content-type'] ?? '');
    if (!contentType.toLowerCase().startsWith('application/json')) {
      return send(res, 415, 'text/plain', 'Unsupported Media Type: expected application/json\n');
    }
    let body: unknown;
    try {
      body = parseJsonExact(bodyText);
    } catch {
      return json(res, 200, { jsonrpc: '2.0', error: { code: -32700, message: 'parse error', data: null }, id: null });
    }
    if (this.record) this.requests.push({ path, method: req.method, headers: { ...req.headers }, body });
    const auth = String(req.headers.authorization ?? '');
    try {
      this.authorize?.(path, auth.startsWith('Bearer ') ? auth.slice(7) : undefined);
    } catch (err) {
      if (err instanceof HttpFault) {
        return json(res, err.status, { jsonrpc: '2.0', error: { code: err.jsonRpcCode ?? -32600, message: err.message, data: null }, id: null });
      }
      throw err;
    }
    const ctx: HandlerContext = { path: internal ?? path, chain };
    if (Array.isArray(body)) {
      // gorilla/rpc v2 json2 decodes one request object per POST: a Camino node refuses a batch on
      // every endpoint but the EVM's (caminogo utils/json/codec.go; caminoethvm serves /rpc with geth's server).
      if (this.dialect === 'camino' && !takesBatches(path)) {
        // gorilla/rpc v1.2.0 json2: a parse error (-32700) carrying the empty request it decoded into, HTTP 200.
        const data = { jsonrpc: '', method: '', params: null, id: null };
        return json(res, 200, { jsonrpc: '2.0', error: { code: -32700, message: BATCH_REFUSAL, data }, id: null });
      }
      const answers = await Promise.all(body.map((item) => this.dispatch(byMethod, item, ctx)));
      return json(res, 200, answers);
    }
    return json(res, 200, await this.dispatch(byMethod, body, ctx));
  }

  private async dispatch(byMethod: Map<string, Handler>, item: unknown, ctx: HandlerContext): Promise<unknown> {
    const call = (item ?? {}) as { jsonrpc?: unknown; id?: unknown; method?: unknown; params?: unknown };
    const id = call.id ?? null;
    if (call.jsonrpc !== '2.0') return { jsonrpc: '2.0', error: { code: -32600, message: 'invalid request', data: null }, id };
    const method = typeof call.method === 'string' ? this.internalMethod(call.method) : undefined;
    const handler = method === undefined ? undefined : byMethod.get(method);
    if (!handler) {
      // gorilla/rpc's two texts: a namespace the endpoint lacks, or a method its namespace lacks.
      const wireName = typeof call.method === 'string' ? call.method : '';
      const ns = wireName.includes('.') ? this.internalNamespace(wireName.split('.')[0]!) : undefined;
      const known = (wireName !== '' && !wireName.includes('.')) || (ns !== undefined && [...byMethod.keys()].some((m) => m.startsWith(`${ns}.`)));
      const what = known ? 'method' : 'service';
      return { jsonrpc: '2.0', error: { code: -32000, message: `rpc: can't find ${what} "${String(call.method)}"`, data: null }, id };
    }
    try {
      const params = (call.params ?? (handlerWantsArray(ctx.path) ? [] : {})) as Params & unknown[];
      const answer = this.dialect === 'camino' ? caminoEncoding(method!, params) : (r: unknown) => r;
      const result = answer(await handler(params, ctx));
      return { jsonrpc: '2.0', result, id };
    } catch (err) {
      if (err instanceof RpcFault) return { jsonrpc: '2.0', error: { code: err.code, message: err.message, data: null }, id };
      return { jsonrpc: '2.0', error: { code: -32000, message: (err as Error).message, data: null }, id };
    }
  }
}

/** caminogo utils/json/codec.go: params that do not unmarshal (an unknown encoding among them). */
export const ARGUMENT_ERROR = "couldn't unmarshal an argument. Ensure arguments are valid and properly formatted. See documentation for example calls";

/** Methods (by their spec name) whose params carry a formatting.Encoding. */
const ENCODING_METHODS = new Set([
  'xvm.getTx', 'xvm.getUTXOs', 'xvm.buildGenesis', 'xvm.mintNFT', 'xvm.issueTx', 'wallet.issueTx',
  'platform.getTx', 'platform.getUTXOs', 'platform.getBlock', 'platform.getRewardUTXOs', 'platform.getStake', 'platform.createBlockchain', 'platform.issueTx',
  'cx.getUTXOs', 'cx.getAtomicTx', 'cx.issueTx', 'keystore.exportUser', 'keystore.importUser',
]);

/** Request fields that carry bytes in the request's encoding. */
const BYTE_PARAMS = ['payload', 'tx', 'genesisData', 'user'] as const;
/** Answer fields that carry bytes in the request's encoding (strings, or lists of strings). */
const BYTE_ANSWERS = ['utxos', 'tx', 'block', 'bytes', 'user', 'stakedOutputs'] as const;

/**
 * A Camino node's encodings (utils/formatting/encoding.go): hex (default, with checksum), hexc
 * (the same), hexnc (no checksum), json; cb58 does not unmarshal. The handlers speak hex with
 * checksum, so hexnc bytes get their checksum on the way in and lose it on the way out, and the
 * answer names the encoding asked. Returns what turns the handler's answer into the node's.
 */
function caminoEncoding(method: string, params: Params): (result: unknown) => unknown {
  const same = (r: unknown) => r;
  if (Array.isArray(params) || !ENCODING_METHODS.has(method)) return same;
  const value = params.encoding;
  if (value === 'cb58') throw new RpcFault(ARGUMENT_ERROR);
  if (value === 'json') return same;
  const asked = value === undefined || value === '' ? 'hex' : String(value);
  params.encoding = 'hex';
  if (asked === 'hexnc') {
    for (const key of BYTE_PARAMS) {
      const text = params[key];
      if (typeof text === 'string' && text.startsWith('0x')) params[key] = withChecksum(text);
    }
  }
  return (result) => {
    if (result === null || typeof result !== 'object' || Array.isArray(result)) return result;
    const r = { ...(result as Record<string, unknown>) };
    if (asked === 'hexnc') {
      for (const key of BYTE_ANSWERS) r[key] = Array.isArray(r[key]) ? (r[key] as unknown[]).map(withoutChecksum) : withoutChecksum(r[key]);
    }
    if ('encoding' in r) r.encoding = asked;
    return r;
  };
}

function withChecksum(hex: string): string {
  try {
    return hexChecksumEncode(hexToBytes(hex));
  } catch {
    throw new RpcFault(ARGUMENT_ERROR);
  }
}

const withoutChecksum = (v: unknown): unknown => (typeof v === 'string' && /^0x[0-9a-f]{8,}$/i.test(v) ? v.slice(0, -8) : v);

/** What caminogo answers a JSON-RPC batch with (the JSON decoder's error, verbatim). */
export const BATCH_REFUSAL = 'json: cannot unmarshal array into Go value of type json2.serverRequest';

/** Only the EVM endpoint (/ext/bc/<chain>/rpc) of a Camino node takes JSON-RPC batches. */
function takesBatches(path: string): boolean {
  return /^\/ext\/bc\/[^/]+\/rpc$/.test(path);
}

function handlerWantsArray(path: string): boolean {
  return path.endsWith('/rpc');
}

export function send(res: ServerResponse, status: number, contentType: string, body: string): void {
  res.writeHead(status, { 'content-type': contentType, 'content-length': Buffer.byteLength(body) }).end(body);
}

/** Writes JSON; a bigint goes out as a bare integer with every digit, as Go writes a uint64. */
export function json(res: ServerResponse, status: number, value: unknown): void {
  const marked = JSON.stringify(value, (_key, v: unknown) => (typeof v === 'bigint' ? `${BIG_MARK}${v}` : v));
  send(res, status, 'application/json', marked.replace(BIG_PATTERN, '$1'));
}

/** A per-process marker, so no string in the state can pass for a bigint. */
const BIG_MARK = `bigint-${randomBytes(8).toString('hex')}:`;
const BIG_PATTERN = new RegExp(`"${BIG_MARK}(\\d+)"`, 'g');

/** Reads a param as a string, or fails the way a node does. */
export function needString(params: Params, key: string): string {
  const value = params[key];
  if (typeof value !== 'string' || value === '') throw new RpcFault(`missing or invalid ${key}`);
  return value;
}

/** Reads an integer param sent as a JSON number or a decimal string (DESIGN section 5). */
export function needUint(params: Params, key: string): bigint {
  const value = params[key];
  if (typeof value === 'number' && Number.isInteger(value) && value >= 0) return BigInt(value);
  if (typeof value === 'string' && /^\d+$/.test(value)) return BigInt(value);
  throw new RpcFault(`invalid ${key}: expected an unsigned integer`);
}

/**
 * JSON.parse that keeps integers beyond 2^53 exact (as decimal strings), as a Go node
 * parses uint64 fields: long digit runs outside strings are quoted before parsing.
 */
export function parseJsonExact(text: string): unknown {
  let out = '';
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (inString) {
      out += ch;
      if (ch === '\\') out += text[++i] ?? '';
      else if (ch === '"') inString = false;
      continue;
    }
    if (ch === '"') inString = true;
    if (ch >= '0' && ch <= '9') {
      let end = i;
      while (end < text.length && text[end]! >= '0' && text[end]! <= '9') end++;
      const digits = text.slice(i, end);
      const next = text[end];
      if (digits.length >= 16 && next !== '.' && next !== 'e' && next !== 'E' && text[i - 1] !== '-') {
        out += `"${digits}"`;
        i = end - 1;
        continue;
      }
      out += digits;
      i = end - 1;
      continue;
    }
    out += ch;
  }
  return JSON.parse(out);
}
