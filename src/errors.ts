/**
 * One error base for everything a tool call can fail on. `message` says what failed,
 * `hint` what to try; both reach the model as an `isError` result, so neither may
 * carry a secret (see redact.ts, applied to every result).
 */
export type ErrorKind =
  | 'input'
  | 'not_configured'
  | 'policy'
  | 'confirmation'
  | 'connection'
  | 'timeout'
  | 'http_status'
  | 'malformed'
  | 'rpc'
  | 'not_found'
  | 'too_large'
  | 'unknown_outcome'
  | 'cancelled'
  | 'internal';

export class ChainMcpError extends Error {
  override name = 'ChainMcpError';
  readonly kind: ErrorKind;
  readonly hint?: string;
  /** Whether retrying the same read may succeed (never used for spends). */
  readonly transient: boolean;

  constructor(kind: ErrorKind, message: string, opts: { hint?: string; transient?: boolean; cause?: unknown } = {}) {
    super(message, opts.cause === undefined ? undefined : { cause: opts.cause });
    this.kind = kind;
    this.hint = opts.hint;
    this.transient = opts.transient ?? false;
  }
}

/** Bad tool input, refused before any request. `field` is the input's path, e.g. `outputs[2].to`. */
export class InputError extends ChainMcpError {
  override name = 'InputError';
  readonly field: string;
  constructor(field: string, message: string) {
    super('input', `Invalid input: ${field}: ${message}`);
    this.field = field;
  }
}

export class HttpStatusError extends ChainMcpError {
  override name = 'HttpStatusError';
  readonly status: number;
  readonly retryAfterMs?: number;
  constructor(status: number, message: string, opts: { hint?: string; transient?: boolean; retryAfterMs?: number } = {}) {
    super('http_status', message, opts);
    this.status = status;
    this.retryAfterMs = opts.retryAfterMs;
  }
}

/** A JSON-RPC error object. Real nodes use -32000 for most failures, so callers match on `message`. */
export class RpcError extends ChainMcpError {
  override name = 'RpcError';
  readonly code: number;
  readonly data: unknown;
  constructor(code: number, message: string, data: unknown, hint?: string) {
    super('rpc', message, { hint });
    this.code = code;
    this.data = data;
  }
}

/** Node error texts (DESIGN section 5) recognised so the hint can say what to do. */
const RPC_HINTS: Array<[RegExp, string]> = [
  [/can't find service/i, "This node does not speak that API name; set CHAIN_MCP_WIRE_NAMES=camino (real Camino nodes) or spec, or check the node's version."],
  [/can't find method|method .* not found|does not exist\/is not available/i, 'This node does not serve that method; check the node version or CHAIN_MCP_WIRE_NAMES.'],
  [/incorrect password|problem retrieving user/i, 'Check CHAIN_MCP_KEYSTORE_USER and CHAIN_MCP_KEYSTORE_PASSWORD on the server. A real node answers this also for a user that does not exist: create it through the keystore API, which the node serves only when started with --api-keystore-enabled=true.'],
  [/insufficient funds|want to spend .* but only have/i, 'The keystore user lacks funds; check balances (account_overview) and remember that locked funds cannot pay fees.'],
  [/auth token|unauthori[sz]ed/i, 'Set CHAIN_MCP_AUTH_TOKEN to a token that grants this endpoint (auth_newToken with the admin tier).'],
  [/index(ing)? .*(disabled|not enabled)|index-transactions/i, 'Enable index-transactions in the chain configuration of the node.'],
  [/invalid encoding|unsupported encoding/i, 'Newer nodes take hex, hexnc or json and refuse cb58; leave encoding out to get the node\'s default (hex).'],
  [/not found|unknown (tx|transaction|block)|couldn't find/i, 'Check the ID; the node may not have seen it.'],
];

export function rpcHint(message: string): string | undefined {
  return RPC_HINTS.find(([pattern]) => pattern.test(message))?.[1];
}

export function isChainMcpError(err: unknown): err is ChainMcpError {
  return err instanceof ChainMcpError;
}

/** Turns anything thrown into a ChainMcpError without leaking a stack trace to the model. */
export function toChainMcpError(err: unknown): ChainMcpError {
  if (err instanceof ChainMcpError) return err;
  if (err instanceof Error && err.name === 'CodecError') return new ChainMcpError('input', err.message);
  if (err instanceof Error && err.name === 'AbortError') return new ChainMcpError('cancelled', 'The call was cancelled.');
  const message = err instanceof Error ? err.message : String(err);
  return new ChainMcpError('internal', `Internal error: ${message}`);
}

export function renderError(err: ChainMcpError): string {
  return err.hint ? `${err.message}\nWhat to try: ${err.hint}` : err.message;
}
