import type { z } from 'zod';
import type { Config } from './config.js';
import type { Logger } from '../log.js';
import type { QueryPairs } from '../transport/rest.js';
import type { RpcParams } from '../transport/jsonrpc.js';
import type { Endpoint } from '../wire.js';
import type { AssetInfo, NetworkInfo } from './network.js';
import type { Tier, Toolset } from './toolsets.js';

export type { Tier, Toolset } from './toolsets.js';

// biome-ignore lint/suspicious/noExplicitAny: the catalogue holds tools of every input and output shape
export type AnyObject = z.ZodObject<any>;

/** What one JSON-RPC operation sends. `params` defaults to the input minus `chain` and `confirm`, undefined fields dropped. */
export interface RpcRequestSpec<I> {
  kind: 'rpc';
  endpoint: Endpoint;
  /** Spec spelling, `xvm.getBalance`; the namespace goes through the wire table. */
  method: string;
  params?(input: I, ctx: ToolContext): RpcParams;
  /** Inject the configured keystore `username` and `password` into the params object. */
  credentials?: boolean;
  /** Inject CHAIN_MCP_ADMIN_SECRET as `secret` (a real node's admin API checks that param) when it is set. */
  adminSecret?: boolean;
}

export interface RestRequestSpec<I> {
  kind: 'rest';
  path(input: I): string;
  query?(input: I): QueryPairs;
}

export interface RunnerRequestSpec<I> {
  kind: 'runner';
  path: string;
  body?(input: I, ctx: ToolContext): unknown;
}

export type RequestSpec<I> = RpcRequestSpec<I> | RestRequestSpec<I> | RunnerRequestSpec<I>;

/** What a spend shows before it runs (DESIGN "Confirmation of spends"); the hard limits use SpendLimits. */
export interface SpendPlan {
  /** One line per fact a human must see before saying yes. */
  lines: string[];
  /** Structured facts for structuredContent. */
  details?: Record<string, unknown>;
  /**
   * The most the spend can burn in fees, native smallest unit: counted with the amount in
   * CHAIN_MCP_MAX_SPEND and CHAIN_MCP_MAX_SPEND_PER_DAY, and bound to the confirmation id.
   */
  fee?: bigint;
  /**
   * Values the server chose for the request (an atomic spend's base fee), merged into the input
   * when it is sent and bound to the confirmation id: what was previewed is what is sent.
   */
  send?: Record<string, unknown>;
}

/**
 * What the hard limits check, computed from the input alone (no request), so a spend over a
 * limit is refused before anything is sent (DESIGN section 6, guard order).
 */
export interface SpendLimits {
  /** Amount leaving the user's control, smallest unit, checked against CHAIN_MCP_MAX_SPEND (docs/choices.md). */
  amount?: bigint;
  /** Every address the spend pays, credits, or names for change or rewards. */
  recipients: string[];
  /** Set when the content cannot be read (signed bytes): what it is, for the refusal under a limit. */
  opaque?: string;
  /**
   * Addresses that must be the keystore user's own: the change address, an import's destination.
   * Under any limit one that is not (or cannot be told to be) the user's is refused; without
   * limits the preview marks it.
   */
  own?: string[];
  /** Set when the operation hands over control that no amount can bound (a private key, a keystore user): what, for the refusal under a limit. */
  unbounded?: string;
}

export interface ToolDef<I extends AnyObject = AnyObject, O extends AnyObject = AnyObject> {
  name: string;
  title: string;
  /** For a model that has never seen this chain: what it answers, units, when to prefer a neighbour. */
  description: string;
  tier: Tier;
  toolset: Toolset;
  input: I;
  output: O;
  /** Simple operations: one request, then `decode`. */
  request?: RequestSpec<z.output<I>>;
  /** Tolerant parse of the node's answer into the output shape (DESIGN section 5). Defaults to the answer as is. */
  decode?(raw: unknown, input: z.output<I>, ctx: ToolContext): z.input<O> | Promise<z.input<O>>;
  /** Operations that need more than one request, or none. Takes precedence over `request`. */
  run?(input: z.output<I>, ctx: ToolContext): Promise<z.input<O>>;
  /** Short text a person reads in chat; kept inside the output budget by the server. */
  summarize(output: z.output<O>, input: z.output<I>, ctx: ToolContext): string | Promise<string>;
  /** Spend tier: checks and preview text shown before confirmation. */
  plan?(input: z.output<I>, ctx: ToolContext): Promise<SpendPlan>;
  /** Spend tier: input rules the schema cannot express (across fields, the clock, checksums); no request. */
  validate?(input: z.output<I>, nowMs: number): void;
  /**
   * Spend tier: only the local signer builds it (caminogo has no keystore method for it); under the
   * keystore signer it is refused before any request, naming `localOnly` (what it does).
   */
  localOnly?: string;
  /**
   * Spend tier, bytes signed by the caller: the ID the chain gives them (computed from the bytes).
   * The node's answer (the output's `txID` or `txHash`) is taken only when it is this ID.
   */
  issuedID?(input: z.output<I>): Promise<string>;
  /** Spend tier, required: amount and recipients from the input alone, no request. */
  limits?(input: z.output<I>): SpendLimits;
  /**
   * Goes through the spend confirmation pipeline (preview, confirm id, the human's approval, audit)
   * though its tier is not `spend`: exporting and importing keys and keystore users (admin tier).
   */
  confirmation?: true;
  /** Overrides of the annotation defaults derived from the tier. */
  annotations?: { idempotentHint?: boolean; openWorldHint?: boolean; readOnlyHint?: boolean; destructiveHint?: boolean };
}

export interface CallOptions {
  /** Retry transient failures; true for reads, never for anything that changes state. */
  retry?: boolean;
  /** `chain` argument selecting `/ext/bc/<chain>` for the X and C families. */
  chain?: string;
}

export interface ToolContext {
  readonly config: Config;
  readonly log: Logger;
  readonly signal: AbortSignal;
  /** One JSON-RPC call to the node. */
  rpc(endpoint: Endpoint, method: string, params?: RpcParams, opts?: CallOptions): Promise<unknown>;
  /** GET on the indexer; throws `not_configured` when CHAIN_MCP_INDEXER_URL is unset. */
  indexer(path: string, query?: QueryPairs): Promise<unknown>;
  /** POST on the local network runner's gateway; throws `not_configured` when CHAIN_MCP_RUNNER_URL is unset. */
  runner(path: string, body?: unknown): Promise<unknown>;
  /** The node's network (hrp, symbol, IDs), learned once and cached. */
  network(): Promise<NetworkInfo>;
  /** An asset's name, symbol and denomination, learned once per asset and cached. */
  asset(assetID: string): Promise<AssetInfo>;
  /** Runs another catalogue operation (for composite tools) and returns its structured output. */
  call(toolName: string, args: Record<string, unknown>): Promise<Record<string, unknown>>;
  /** MCP progress notification, when the client asked for progress. */
  progress(done: number, total?: number, message?: string): Promise<void>;
  /** Milliseconds since the epoch; tests fake it. */
  now(): number;
  /** Whether an address is one of the keystore user's (cached per process); undefined when it cannot be told. */
  ownAddress?(address: string): Promise<boolean | undefined>;
  /** The local signer's key: its X address (P and C share the payload) and its 0x address; undefined without one. */
  keyAddresses?(): Promise<{ x: string; evm: string } | undefined>;
}

/** Spend tools and the admin operations that hand over keys: previewed, confirmed and approved by the human. */
export function needsConfirmation(tool: Pick<ToolDef, 'tier' | 'confirmation'>): boolean {
  return tool.tier === 'spend' || tool.confirmation === true;
}

/** Identity helper that keeps the input and output types of one entry tied together. */
export function defineTool<I extends AnyObject, O extends AnyObject>(def: ToolDef<I, O>): ToolDef<I, O> {
  return def;
}
